#!/bin/bash
# fleet-interrupt.sh - Ctrl-C during a run: the hosts already being worked on
# finish, no new host is started, PLAY RECAP is still printed (INTERRUPTED
# said), and the process exits promptly. A second Ctrl-C ends it at once.
#
# To make a run slow without a broken host, every probe measures the RTT to
# an address of the lab's subnet that nobody holds (ping gets no reply, then
# the TCP fallback times out: ~5.5 s per host); 20 hosts with --forks 2 then
# take ~55 s, and SIGINT lands while two probes are in flight.
# Usage: fleet-interrupt.sh [TCPTUNE]. Exit 77 when not root.
set -uo pipefail
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
e2e_init fleet-interrupt "${1:-}"
net=198.18.207
e2e_lab_up 20 e2i $net
nohost=$net.250
# The target as an inventory var (an extra source for the group "all").
printf 'all:\n  vars:\n    rtt_to: %s\n' "$nohost" >"$E2E_TMP/rtt.yml"
slow=(-i "$E2E_TMP/rtt.yml")

# start_run OUTFILE ARGS... : tcptune in the background; sets PID.
start_run() {
	local out=$1
	shift
	"$TCPTUNE" "$@" -i "$LAB_INVENTORY" --known-hosts "$LAB_KNOWN_HOSTS" \
	    --no-color >"$out" 2>"$out.err" &
	PID=$!
	E2E_PIDS+=("$PID")
}
# wait_for FILE ERE SECS : until FILE has a line matching ERE.
wait_for() {
	local i
	for ((i = 0; i < $3 * 10; i++)); do
		grep -Eq "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}
# wait_exit PID SECS : sets RC (124 if still running after SECS).
wait_exit() {
	local i
	for ((i = 0; i < $2 * 20; i++)); do
		if ! kill -0 "$1" 2>/dev/null; then
			wait "$1"
			RC=$?
			return
		fi
		sleep 0.05
	done
	RC=124
}

# --- one Ctrl-C, text output ----------------------------------------------
out=$E2E_TMP/int.out
start_run "$out" probe -f 2 --timeout 5 "${slow[@]}"
if ! wait_for "$out" '^PLAY \[' 10; then
	e2e_fail "the run did not start within 10 s"
	cat "$out" "$out.err" | sed 's/^/    | /'
	e2e_finish
fi
sleep 1
kill -INT "$PID"
t0=$(now)
wait_exit "$PID" 15
secs=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }')
e2e_log "exit $RC $secs s after SIGINT"
RUN_RC=$RC RUN_SECS=$secs
cp "$out" "$E2E_TMP/out"
cp "$out.err" "$E2E_TMP/err"
assert_ne "[SIGINT] exits (not still running 15 s later)" 124 "$RC"
assert_lt "[SIGINT] exits within the in-flight hosts' time" "$secs" 9
text=$(cat "$out")
assert_match "[SIGINT] PLAY RECAP printed" 'PLAY RECAP' "$text"
assert_match "[SIGINT] says it was interrupted" 'INTERRUPTED' "$text"
nrecap=$(sed -n '/PLAY RECAP/,$p' "$out" | grep -c ' : ok=')
assert_lt "[SIGINT] recap lists some host (work in flight finished)" 0 "$nrecap"
assert_lt "[SIGINT] no new host was started: recap has <= 4 of 20" "$nrecap" 5
nok=$(sed -n '/PLAY RECAP/,$p' "$out" | grep -c ' : ok=1 ')
assert_eq "[SIGINT] the in-flight hosts completed ok" "$nrecap" "$nok"
assert_eq "[SIGINT] an interrupted run exits 130" 130 "$RC"

# --- one Ctrl-C, JSON output: still one valid document ---------------------
out=$E2E_TMP/int-json.out
start_run "$out" probe -f 2 --timeout 5 "${slow[@]}" --format json
# JSON mode prints nothing until the end: give it time to be mid-run.
sleep 2.5
kill -INT "$PID"
wait_exit "$PID" 15
assert_ne "[SIGINT json] exits" 124 "$RC"
if jq -e . "$out" >/dev/null 2>&1; then
	e2e_ok "[SIGINT json] output is one valid JSON document"
else
	e2e_fail "[SIGINT json] output is not valid JSON"
	sed 's/^/    | /' "$out" | tail -n 20
fi
assert_eq "[SIGINT json] marked interrupted" true "$(jq -r '.interrupted' "$out")"
assert_lt "[SIGINT json] fewer than 20 hosts have results" \
    "$(jq '.stats | length' "$out")" 20

# --- two Ctrl-C: the second one means now ---------------------------------
out=$E2E_TMP/int2.out
start_run "$out" probe -f 2 --timeout 5 "${slow[@]}"
wait_for "$out" '^PLAY \[' 10
sleep 1
kill -INT "$PID"
sleep 0.3
kill -INT "$PID"
t0=$(now)
wait_exit "$PID" 5
secs=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }')
assert_lt "[2x SIGINT] exits at once" "$secs" 2
assert_eq "[2x SIGINT] killed by SIGINT (exit 130)" 130 "$RC"

# The lab is fine afterwards: nothing was left half-done on the hosts.
e2e_run 30 tt ping
assert_rc "after the interrupts every host still answers" 0

e2e_finish
