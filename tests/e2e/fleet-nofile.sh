#!/bin/bash
# fleet-nofile.sh - `-f 1000` over 1,000 hosts works under a soft
# RLIMIT_NOFILE of 1024 (the default of most systems): tcptune raises its
# soft limit to the hard one at start, since the run holds one descriptor per
# open connection. No lab: every name is one local listener that completes
# the TCP handshake (the kernel's backlog) and never speaks, so all 1,000
# connections are open at once until the banner timeout. Each host must end
# unreachable by that timeout, none by "Too many open files".
# Usage: fleet-nofile.sh [TCPTUNE]. Runs as any user; needs python3.
set -uo pipefail
E2E_NEEDS_ROOT=0 # read by e2e_init
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
e2e_init fleet-nofile "${1:-}"
command -v python3 >/dev/null 2>&1 || { echo "fleet-nofile: SKIP: no python3"; exit 77; }
N=1000

# The listener: accepts nothing, so every connect completes into its
# backlog and waits there.
python3 -c '
import socket, sys, time
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(4096)
print(s.getsockname()[1], flush=True)
time.sleep(120)
' >"$E2E_TMP/port" &
E2E_PIDS+=($!)
for _ in $(seq 50); do [[ -s $E2E_TMP/port ]] && break; sleep 0.1; done
port=$(<"$E2E_TMP/port")
[[ $port =~ ^[0-9]+$ ]] || { e2e_fail "the listener did not start"; e2e_finish; }

printf 'all:\n  hosts:\n    h[0001:%04d]:\n      ansible_host: 127.0.0.1\n      ansible_port: %s\n' \
    "$N" "$port" >"$E2E_TMP/inventory.yml"

# At the usual default (1024: 1,000 sockets fit, barely) and at 256, where
# they fit only because tcptune raises its soft limit (a build without that
# fails hosts with "Too many open files").
for soft in 1024 256; do
	# shellcheck disable=SC2016 # expanded by the inner bash
	e2e_run 60 bash -c 'ulimit -Sn "$0" && exec "$@"' "$soft" "$TCPTUNE" ping \
	    -i "$E2E_TMP/inventory.yml" -f "$N" --timeout 4 --format json
	t="[ping -f $N, soft limit $soft]"
	assert_not_timed_out "$t run ends by itself"
	assert_eq "$t every host has a result" "$N" \
	    "$(jq_out '[.plays[0].results[][]] | length')"
	assert_eq "$t every host is unreachable (the listener never speaks)" \
	    "$N" "$(jq_out '[.plays[0].results[][] | select(.status == "unreachable")] | length')"
	assert_eq "$t no host failed for want of a descriptor" 0 \
	    "$(jq_out '[.plays[0].results[][] | select(.msg | test("Too many open files|EMFILE|descriptor"; "i"))] | length')"
	assert_eq "$t every host waited for the banner (the connect got through)" \
	    "$N" "$(jq_out '[.plays[0].results[][] | select(.msg | test("timed out|timeout|banner"; "i"))] | length')"
done

e2e_finish
