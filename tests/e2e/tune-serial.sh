#!/bin/bash
# tune-serial.sh - rolling batches end to end (issue 4, item 9):
# tests/data/tune/serial-2.yml (serial: 2, max_fail_percentage: 0) over 6
# hosts. When a host of the first batch (lab01, lab02) fails, the second and
# third batches (lab03..lab06) must not start: no drop-in there, stock live
# values, the output says the remaining batches were not started.
#  A: lab02's sshd is stopped (unreachable, exit bit 4);
#  B: lab01 has /etc/sysctl.d/99-zzz.conf overriding tcp_rmem (its apply
#     fails, exit bit 2);
#  C: control: with no failure all three batches run.
# Usage: tune-serial.sh [TCPTUNE]. Exit 77 when not root.
set -uo pipefail
# shellcheck source=tests/e2e/tune-lib.sh
. "$(dirname "$0")/tune-lib.sh"
e2e_init tune-serial "${1:-}"
e2e_lab_up 6 t46 198.18.46
PB=$TUNE_DATA/serial-2.yml
VARS=(-e rtt_ms=105 -e bandwidth_mbit=100)

# expect_not_started DESC : lab03..lab06 untouched, the run says so.
expect_not_started() {
	local h
	assert_match "$1: the output says the remaining batches were not started" \
	    "remaining batches not started" "$RUN_OUT"
	for h in lab03 lab04 lab05 lab06; do
		assert_eq "$1: $h has no drop-in" absent "$(file_sha "$h" "$DROPIN")"
		assert_eq "$1: $h live tcp_rmem is stock" "$STOCK_RMEM" \
		    "$(live "$h" net.ipv4.tcp_rmem)"
		assert_eq "$1: $h has no result in the recap" 0 \
		    "$(grep -cE "^$h +: ok=[1-9]" <<<"$RUN_OUT")"
	done
}

# --- A: an unreachable host in the first batch
lab_cmd stop-host lab02 >/dev/null
e2e_run 50 tt play "$PB" "${VARS[@]}"
assert_rc_bit "A: exit has bit 4 (unreachable)" 4
assert_match "A: lab02 is unreachable in the recap" \
    "lab02 +: ok=0 +changed=0 +unreachable=1" "$RUN_OUT"
assert_match "A: lab01 (same batch) was applied" \
    "lab01 +: ok=[0-9]+ +changed=1 +unreachable=0 +failed=0" "$RUN_OUT"
assert_eq "A: lab01 has the drop-in" 1 \
    "$(lab lab01 grep -cxF "net.ipv4.tcp_rmem = $TUNED_RMEM" "$DROPIN")"
expect_not_started A
lab_cmd start-host lab02 >/dev/null

# JSON says it too.
lab_cmd stop-host lab02 >/dev/null
e2e_run 50 tt play "$PB" "${VARS[@]}" --format json
assert_rc_bit "A (json): exit has bit 4" 4
assert_match "A (json): .stopped names max_fail_percentage" \
    "max_fail_percentage 0% exceeded: 1 of 2 host\(s\) failed or unreachable in batch 1" \
    "$(jq_out '.stopped // ""')"
assert_eq "A (json): only batch 1 has results" "lab01 lab02" \
    "$(jq_out '.plays[0].results | keys | join(" ")')"
lab_cmd start-host lab02 >/dev/null
e2e_run 30 tt play playbooks/rollback.yml -l lab01
assert_rc "A: lab01 rolled back" 0

# --- B: an apply that fails in the first batch
lab lab01 sh -c "printf 'net.ipv4.tcp_rmem = 4096 87380 6291456\n' >/etc/sysctl.d/99-zzz.conf"
e2e_run 50 tt play "$PB" "${VARS[@]}"
assert_rc_bit "B: exit has bit 2 (failed)" 2
assert_eq "B: no host unreachable" 0 $((RUN_RC & 4))
assert_match "B: lab01 failed naming 99-zzz.conf" \
    "fatal: \[lab01\]: FAILED! => .*/etc/sysctl.d/99-zzz.conf" "$RUN_OUT"
assert_match "B: lab02 (same batch) was applied" \
    "lab02 +: ok=[0-9]+ +changed=1 +unreachable=0 +failed=0" "$RUN_OUT"
expect_not_started B

# --- C: control, no failure: every batch runs
lab lab01 rm -f /etc/sysctl.d/99-zzz.conf
e2e_run 50 tt play "$PB" "${VARS[@]}"
assert_rc "C: no failure, exit 0" 0
assert_eq "C: no stop message" 0 "$(grep -c 'not started' <<<"$RUN_OUT")"
for h in "${HOSTS[@]}"; do
	assert_eq "C: $h has the drop-in" 1 \
	    "$(lab "$h" grep -cxF "net.ipv4.tcp_rmem = $TUNED_RMEM" "$DROPIN")"
done
assert_eq "C: Gathering Facts ran once per batch (3 batches)" 3 \
    "$(grep -c '^TASK \[Gathering Facts\]' <<<"$RUN_OUT")"

tune_finish
