#!/bin/bash
# jq programs and remote sh text are in single quotes on purpose.
# shellcheck disable=SC2016
# fleet-stopped.sh - a host whose sshd is stopped is reported unreachable
# within the connect timeout, and the other hosts of the run succeed.
# Usage: fleet-stopped.sh [TCPTUNE]. Exit 77 when not root.
set -uo pipefail
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
e2e_init fleet-stopped "${1:-}"
e2e_lab_up 8 e2s 198.18.204

dead=lab06
lab_cmd stop-host "$dead" >/dev/null || { e2e_fail "lab.sh stop-host $dead"; e2e_finish; }

for cmd in ping probe; do
	e2e_run 20 tt "$cmd" --timeout 3 --format json
	assert_not_timed_out "[$cmd] run ends by itself"
	assert_lt "[$cmd] whole run well under 10 s" "$RUN_SECS" 10
	assert_rc_bit "[$cmd] exit status has the unreachable bit" 4
	assert_eq "[$cmd] $dead is unreachable" unreachable "$(json_status "$dead")"
	assert_match "[$cmd] $dead's message says why" \
	    'refused|connect|unreachable|timed out|timeout' "$(json_msg "$dead")"
	assert_eq "[$cmd] the 7 others are ok" 7 \
	    "$(jq_out '[.plays[0].results[][] | select(.status == "ok")] | length')"
	assert_eq "[$cmd] recap counts $dead unreachable=1" 1 \
	    "$(jq_out --arg h "$dead" '.stats[$h].unreachable')"
done

# Stopped = no listener: the connection is refused at once. Make the host
# black-hole SYNs instead (the veth down inside its namespace) so that the
# timeout itself is what ends the wait.
lab "$dead" ip link set eth0 down
e2e_run 20 tt ping --timeout 3
assert_not_timed_out "[blackholed] run ends by itself"
assert_lt "[blackholed] whole run well under 10 s" "$RUN_SECS" 8
assert_rc_bit "[blackholed] exit status has the unreachable bit" 4
assert_match "[blackholed] $dead reported UNREACHABLE" \
    "fatal: \[$dead\]: UNREACHABLE!" "$RUN_OUT"
assert_eq "[blackholed] 7 other hosts ok" 7 "$(grep -c '^ok: \[' <<<"$RUN_OUT")"
lab "$dead" ip link set eth0 up
lab "$dead" ip route replace default via "$LAB_GATEWAY" dev eth0

lab_cmd start-host "$dead" >/dev/null
e2e_run 20 tt ping --timeout 3
assert_rc "after start-host every host answers again" 0

e2e_finish
