#!/bin/bash
# tune-plan.sh - a plan changes nothing (issue 4, item 9): on 8 stock hosts,
# `tcptune plan` and `play --check --diff` leave every host's /etc/sysctl.d,
# /var/lib/tcptune, /etc/modules-load.d (names, modes, sizes, mtimes, inodes,
# contents), live tuned keys, qdisc and route exactly as they were, and leave
# no temp file; they show the diff and the live before -> planned table, and
# --detailed-exitcode exits 8 because changes are pending.
# Usage: tune-plan.sh [TCPTUNE]. Exit 77 when not root.
set -uo pipefail
# shellcheck source=tests/e2e/tune-lib.sh
. "$(dirname "$0")/tune-lib.sh"
e2e_init tune-plan "${1:-}"
e2e_lab_up 8 t40 198.18.40

fleet_snapshot >"$E2E_TMP/before"
assert_eq "the snapshot sees 8 hosts" 8 "$(grep -c '^== ' "$E2E_TMP/before")"
for h in "${HOSTS[@]}"; do
	expect_stock "$h"
done

e2e_run 40 tt plan "$TUNE_PB" "${TUNE_VARS[@]}"
assert_rc "plan exits 0 without --detailed-exitcode" 0
assert_eq "plan: 8 hosts 'changed' (would write)" 8 \
    "$(grep -c '=> would write /etc/sysctl.d/90-tcptune.conf (3 keys)' <<<"$RUN_OUT")"
assert_eq "plan: the diff adds the tcp_rmem line on 8 hosts" 8 \
    "$(grep -c '^+net.ipv4.tcp_rmem = 4096 131072 4194304$' <<<"$RUN_OUT")"
assert_eq "plan: the diff adds the tcp_wmem line on 8 hosts" 8 \
    "$(grep -c '^+net.ipv4.tcp_wmem = 4096 65536 4194304$' <<<"$RUN_OUT")"
assert_eq "plan: the diff adds bbr on 8 hosts" 8 \
    "$(grep -c '^+net.ipv4.tcp_congestion_control = bbr$' <<<"$RUN_OUT")"
assert_eq "plan: live before -> planned of tcp_rmem on 8 hosts" 8 \
    "$(grep -cE '^ +net.ipv4.tcp_rmem +4096 131072 212992 -> 4096 131072 4194304 ' <<<"$RUN_OUT")"
assert_eq "plan: live reno -> bbr on 8 hosts" 8 \
    "$(grep -cE '^ +net.ipv4.tcp_congestion_control +reno -> bbr ' <<<"$RUN_OUT")"
assert_match "plan: read-only rmem_max is reported" \
    "net.core.rmem_max: cannot be set here" "$RUN_OUT"
assert_match "plan: recap of lab08, nothing failed" \
    "lab08 +: ok=[0-9]+ +changed=1 +unreachable=0 +failed=0" "$RUN_OUT"

e2e_run 40 tt plan "$TUNE_PB" "${TUNE_VARS[@]}" --detailed-exitcode
assert_rc "plan --detailed-exitcode: changes pending" 8

e2e_run 40 tt play "$TUNE_PB" --check --diff "${TUNE_VARS[@]}"
assert_rc "play --check --diff exits 0" 0
assert_eq "play --check --diff shows 8 diffs" 8 \
    "$(grep -c '^+++ /etc/sysctl.d/90-tcptune.conf$' <<<"$RUN_OUT")"

e2e_run 40 tt play "$TUNE_PB" --check --diff --detailed-exitcode \
    --format json "${TUNE_VARS[@]}"
assert_rc "play --check --diff --detailed-exitcode --format json" 8
assert_eq "json: 8 hosts' apply step 'changed' (pending) in check mode" 8 \
    "$(jq_out '[.plays[0].results[][-1] | select(.status == "changed")] | length')"
assert_eq "json: the rendered content is in the result data" 8 \
    "$(jq_out '[.plays[0].results[][-1].data.content | select(test("net.ipv4.tcp_rmem = 4096 131072 4194304"))] | length')"

# A key the probe does not read: check mode reads it on the host, so the
# table shows its live value, not "?".
cat >"$E2E_TMP/unprobed.yml" <<'EOF'
- hosts: all
  become: true
  tasks:
    - sysctl:
        values:
          net.ipv4.tcp_adv_win_scale: 2
EOF
e2e_run 40 tt play "$E2E_TMP/unprobed.yml" --check --diff
assert_rc "play --check --diff of a key the probe does not read" 0
assert_eq "the live value of that key on 8 hosts, read in check mode" 8 \
    "$(grep -cE "^ +net.ipv4.tcp_adv_win_scale +$(lab "${HOSTS[0]}" sysctl -n net.ipv4.tcp_adv_win_scale) -> 2 " <<<"$RUN_OUT")"

fleet_snapshot >"$E2E_TMP/after"
if cmp -s "$E2E_TMP/before" "$E2E_TMP/after"; then
	e2e_ok "8 hosts: files, mtimes, inodes, contents, live keys, qdisc, route unchanged ($(wc -l <"$E2E_TMP/after") lines compared)"
else
	e2e_fail "a plan changed a host:"
	diff "$E2E_TMP/before" "$E2E_TMP/after" | head -n 30 | sed 's/^/    | /'
fi
for h in "${HOSTS[@]}"; do
	assert_eq "$h: no temp file left" "" "$(stray_files "$h")"
	assert_eq "$h: no drop-in written" absent "$(file_sha "$h" "$DROPIN")"
done
assert_eq "no backup directory made on any host" "" \
    "$(grep -E '^/var/lib/tcptune/.+' "$E2E_TMP/after")"

tune_finish
