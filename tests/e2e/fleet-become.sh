#!/bin/bash
# fleet-become.sh - a non-root user with passwordless sudo works with become
# (facts gathered as uid 0), and a user whose sudo needs a password fails
# clearly (failed, exit bit 2, "sudo requires a password") and never hangs.
# An apply under become leaves sudo's log one short, value-free line per
# call (the program and the new file travel on standard input).
# Usage: fleet-become.sh [TCPTUNE]. Exit 77 when not root.
set -uo pipefail
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
e2e_init fleet-become "${1:-}"
e2e_lab_up 8 e2b 198.18.206

uid_sudo=$(id -u ttl-sudo)
uid_pw=$(id -u ttl-pw)
n=${#HOSTS[@]}

# uids HOST... of the last JSON run, as "u u u ..." in host order.
uids() {
	jq_out '[.plays[0].results[][0].data.uid | tostring] | join(" ")'
}
repeat() {
	local i out=
	for ((i = 0; i < n; i++)); do out+="$1 "; done
	echo "${out% }"
}

e2e_run 30 tt probe -u ttl-sudo -b --format json
assert_rc "[ttl-sudo -b] probe exits 0" 0
assert_eq "[ttl-sudo -b] facts gathered as uid 0 on every host" "$(repeat 0)" "$(uids)"
assert_eq "[ttl-sudo -b] rmem_max seen read-only (root's view)" "$(repeat false)" \
    "$(jq_out '[.plays[0].results[][0].data.sysctl["net.core.rmem_max"].writable | tostring] | join(" ")')"

e2e_run 30 tt probe -u ttl-sudo --format json
assert_rc "[ttl-sudo] probe without become exits 0" 0
assert_eq "[ttl-sudo] without become the probe runs as ttl-sudo ($uid_sudo)" \
    "$(repeat "$uid_sudo")" "$(uids)"

e2e_run 30 tt ping -u ttl-sudo -b
assert_rc "[ttl-sudo -b] ping exits 0" 0
assert_eq "[ttl-sudo -b] $n 'ok:' lines" "$n" "$(grep -c '^ok: \[' <<<"$RUN_OUT")"

# ttl-pw logs in fine, but sudo -n asks for a password.
e2e_run 30 tt probe -u ttl-pw -l lab01 --format json
assert_rc "[ttl-pw] login without become works" 0
assert_eq "[ttl-pw] probe runs as ttl-pw ($uid_pw)" "$uid_pw" "$(uids)"

for cmd in ping probe; do
	e2e_run 30 tt "$cmd" -u ttl-pw -b --timeout 5 --format json
	assert_not_timed_out "[ttl-pw -b $cmd] never hangs"
	assert_lt "[ttl-pw -b $cmd] fails fast" "$RUN_SECS" 10
	assert_rc_bit "[ttl-pw -b $cmd] exit status has the failed bit" 2
	assert_eq "[ttl-pw -b $cmd] failed on every host" "$(repeat failed)" \
	    "$(jq_out '[.plays[0].results[][0].status] | join(" ")')"
	m=$(json_msg lab03)
	assert_match "[ttl-pw -b $cmd] message says sudo requires a password" \
	    'sudo.*(requires|needs|required).*password|password.*required' "${m,,}"
done
e2e_run 30 tt ping -u ttl-pw -b --timeout 5
assert_match "[ttl-pw -b text] FAILED line names the user" \
    "fatal: \[lab01\]: FAILED! => .*password.*ttl-pw" "$RUN_OUT"

# ---- what sudo logs of an apply: its own log file on lab01 (sudoers.d and
# /var/lib/tcptune are the host's own), then the tuning play as ttl-sudo.
lab lab01 sh -c 'echo "Defaults logfile=/var/lib/tcptune/sudo.log" \
    >/etc/sudoers.d/zz-log && chmod 0440 /etc/sudoers.d/zz-log'
e2e_run 60 tt play playbooks/wan-tuning.yml --skip-tags verify \
    -e rtt_ms=105 -e bandwidth_mbit=100 -u ttl-sudo -b -l lab01
assert_rc "[ttl-sudo -b] the tuning play applies" 0
assert_match "[ttl-sudo -b] it changed the host" "changed: \[lab01\]" \
    "$RUN_OUT"
SUDO_LOG=$(lab lab01 cat /var/lib/tcptune/sudo.log)
lab lab01 rm -f /etc/sudoers.d/zz-log
# sudo -n -- sh -c 'COMMAND': sudo logs the sh -c and its argument (in
# lines it wraps at 80 columns: joined here).
assert_eq "[sudo log] the apply's command line, short and the same always" \
    1 "$(grep -cF "COMMAND=/usr/bin/sh -c 'env TCPTUNE_TEST_ROOT= sh -c \\'eval \"\$(cat)\"\\' tcptune-apply'" \
    <<<"$(tr -s ' \n' ' ' <<<"$SUDO_LOG")")"
SUDO_LOG_BYTES=$(wc -c <<<"$SUDO_LOG")
assert_lt "[sudo log] under 1 KB in all ($SUDO_LOG_BYTES bytes; the program and file were 30-50 KB of it)" \
    "$SUDO_LOG_BYTES" 1024
assert_eq "[sudo log] no value of the drop-in in it" 0 \
    "$(grep -c 'tcp_rmem\|rmem_max' <<<"$SUDO_LOG")"

e2e_finish
