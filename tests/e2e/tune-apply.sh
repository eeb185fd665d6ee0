#!/bin/bash
# tune-apply.sh - apply and idempotence (issue 4, items 8-9): `tcptune play
# wan-tuning.yml` (rtt 105 ms x 100 Mbit/s) on 8 stock hosts sets the live
# per-namespace tcp_rmem/tcp_wmem (max 4194304) and bbr, writes the drop-in
# with the expected lines; a rerun reports changed=0 and touches no file
# (mtime, inode, ctime), and a plan afterwards has nothing pending.
# Usage: tune-apply.sh [TCPTUNE]. Exit 77 when not root.
set -uo pipefail
# shellcheck source=tests/e2e/tune-lib.sh
. "$(dirname "$0")/tune-lib.sh"
e2e_init tune-apply "${1:-}"
e2e_lab_up 8 t41 198.18.41

e2e_run 40 tt play "$TUNE_PB" "${TUNE_VARS[@]}" --format json
assert_rc "play applies on 8 hosts" 0
assert_eq "json stats: 8 hosts changed=1 failed=0 unreachable=0" 8 \
    "$(jq_out '[.stats[] | select(.changed == 1 and .failed == 0 and .unreachable == 0)] | length')"
for h in "${HOSTS[@]}"; do
	assert_match "$h: the apply step says it wrote the drop-in" \
	    "^wrote /etc/sysctl.d/90-tcptune.conf \(3 keys\)" \
	    "$(apply_result "$h" | jq -r .msg)"
	expect_tuned "$h"
	content=$(lab "$h" cat "$DROPIN")
	for line in "net.ipv4.tcp_rmem = $TUNED_RMEM" \
	    "net.ipv4.tcp_wmem = $TUNED_WMEM" \
	    "net.ipv4.tcp_congestion_control = bbr"; do
		assert_eq "$h: drop-in has '$line'" 1 \
		    "$(grep -cxF "$line" <<<"$content")"
	done
	assert_match "$h: drop-in says it is managed" \
	    "^# Managed by tcptune" "$content"
	assert_match "$h: each value says why (BDP comment)" \
	    "# BDP 100 Mbit/s × 105 ms = 1.3 MB" "$content"
	assert_eq "$h: no read-only key in the drop-in" 0 \
	    "$(grep -c '^net.core' <<<"$content")"
	assert_eq "$h: drop-in mode and owner" "644 root" \
	    "$(lab "$h" stat -c '%a %U' "$DROPIN")"
	assert_eq "$h: sysctl.d holds only the drop-in beside the stock files" \
	    "90-tcptune.conf 99-sysctl.conf README.sysctl" \
	    "$(lab "$h" ls -A /etc/sysctl.d | tr '\n' ' ' | sed 's/ $//')"
	assert_eq "$h: no temp file" "" "$(stray_files "$h")"
done

# The rerun: nothing to do, nothing touched.
for h in "${HOSTS[@]}"; do
	lab "$h" stat -c '%n %i %.9Y %.9Z %s' "$DROPIN" \
	    /var/lib/tcptune/backup/_etc_sysctl.d_90-tcptune.conf/live
done >"$E2E_TMP/stat1"
sleep 0.05
e2e_run 40 tt play "$TUNE_PB" "${TUNE_VARS[@]}" --format json
assert_rc "rerun exits 0" 0
assert_eq "json stats of the rerun: 8 hosts changed=0 failed=0" 8 \
    "$(jq_out '[.stats[] | select(.changed == 0 and .failed == 0 and .unreachable == 0)] | length')"
assert_eq "rerun: every apply step is ok (up to date)" 8 \
    "$(jq_out '[.plays[0].results[][-1] | select(.status == "ok" and (.msg | test("is up to date")))] | length')"
for h in "${HOSTS[@]}"; do
	lab "$h" stat -c '%n %i %.9Y %.9Z %s' "$DROPIN" \
	    /var/lib/tcptune/backup/_etc_sysctl.d_90-tcptune.conf/live
done >"$E2E_TMP/stat2"
if cmp -s "$E2E_TMP/stat1" "$E2E_TMP/stat2"; then
	e2e_ok "rerun: drop-in and backup inode/mtime/ctime unchanged on 8 hosts"
else
	e2e_fail "rerun touched files:"
	diff "$E2E_TMP/stat1" "$E2E_TMP/stat2" | sed 's/^/    | /'
fi

e2e_run 40 tt play "$TUNE_PB" "${TUNE_VARS[@]}"
assert_rc "text rerun exits 0" 0
assert_match "PLAY RECAP: lab01 changed=0" \
    "lab01 +: ok=[0-9]+ +changed=0 +unreachable=0 +failed=0" "$RUN_OUT"
assert_eq "PLAY RECAP: 8 hosts changed=0" 8 \
    "$(grep -cE '^lab0[1-8] +: ok=[0-9]+ +changed=0 +unreachable=0 +failed=0' <<<"$RUN_OUT")"

e2e_run 40 tt plan "$TUNE_PB" "${TUNE_VARS[@]}" --detailed-exitcode
assert_rc "plan --detailed-exitcode after the apply: nothing pending" 0
assert_eq "plan: 8 hosts' live tcp_rmem is the planned one (same)" 8 \
    "$(grep -cE '^ +net.ipv4.tcp_rmem +4096 131072 4194304 -> 4096 131072 4194304 \(same\)' <<<"$RUN_OUT")"

tune_finish
