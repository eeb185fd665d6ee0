#!/bin/bash
# tune-rollback.sh - rollback (issue 4, item 9): after two applies (105 ms,
# then 50 ms: the second must keep the first backup), `tcptune play
# playbooks/rollback.yml` returns all 8 hosts to their stock live values
# (tcp_rmem "4096 131072 212992", reno) and removes the drop-in, except on
# lab05 where a hand-written 90-tcptune.conf existed before: its exact bytes
# and mode come back. No backup or temp file is left; a second rollback has
# nothing to do.
# Usage: tune-rollback.sh [TCPTUNE]. Exit 77 when not root.
set -uo pipefail
# shellcheck source=tests/e2e/tune-lib.sh
. "$(dirname "$0")/tune-lib.sh"
e2e_init tune-rollback "${1:-}"
e2e_lab_up 8 t44 198.18.44
HANDH=lab05
# Odd bytes on purpose: a tab, a comment, no final newline.
HAND=$'# ops: hand-tuned in 2021, see ticket 42\nnet.ipv4.tcp_rmem\t= 4096 87380 16777216\nnet.core.somaxconn = 1024'
lab "$HANDH" sh -c 'printf "%s" "$1" >"$2" && chmod 600 "$2"' sh "$HAND" "$DROPIN"
hand_sha=$(printf '%s' "$HAND" | sha256sum | cut -d' ' -f1)
assert_eq "$HANDH: hand-written file in place" "$hand_sha" \
    "$(file_sha "$HANDH" "$DROPIN")"

e2e_run 40 tt play "$TUNE_PB" "${TUNE_VARS[@]}"
assert_rc "first apply (105 ms)" 0
for h in "${HOSTS[@]}"; do
	expect_tuned "$h"
done
assert_ne "$HANDH: the drop-in replaced the hand-written file" "$hand_sha" \
    "$(file_sha "$HANDH" "$DROPIN")"

e2e_run 40 tt play "$TUNE_PB" --skip-tags verify -e rtt_ms=210 \
    -e bandwidth_mbit=100
assert_rc "second apply (210 ms)" 0
assert_eq "second apply: 8 hosts changed" 8 \
    "$(grep -cE '^lab0[1-8] +: ok=[0-9]+ +changed=1 +unreachable=0 +failed=0' <<<"$RUN_OUT")"
assert_eq "lab01: live tcp_rmem for 210 ms" "4096 131072 8388608" \
    "$(live lab01 net.ipv4.tcp_rmem)"

e2e_run 40 tt play playbooks/rollback.yml --format json
assert_rc "rollback exits 0" 0
for h in "${HOSTS[@]}"; do
	r=$(jq_out --arg h "$h" '.plays[0].results[$h][0] // {}')
	assert_eq "$h: rollback changed" changed "$(jq -r '.status // "none"' <<<"$r")"
	expect_stock "$h"
	if [[ $h == "$HANDH" ]]; then
		assert_match "$h: rollback says restored" "restored" \
		    "$(jq -r .msg <<<"$r")"
		assert_eq "$h: the hand-written bytes are back" "$hand_sha" \
		    "$(file_sha "$h" "$DROPIN")"
		assert_eq "$h: and its mode" 600 \
		    "$(lab "$h" stat -c %a "$DROPIN")"
	else
		assert_match "$h: rollback says removed" "removed" \
		    "$(jq -r .msg <<<"$r")"
		assert_eq "$h: drop-in removed" absent \
		    "$(file_sha "$h" "$DROPIN")"
	fi
	assert_eq "$h: no backup left" "" \
	    "$(lab "$h" find /var/lib/tcptune/backup -mindepth 1)"
	assert_eq "$h: no temp file" "" "$(stray_files "$h")"
	assert_eq "$h: sysctl.d as it was" \
	    "$([[ $h == "$HANDH" ]] && echo '90-tcptune.conf ')99-sysctl.conf README.sysctl" \
	    "$(lab "$h" ls -A /etc/sysctl.d | tr '\n' ' ' | sed 's/ $//')"
done
assert_eq "rollback's command task shows reno on 8 hosts" 8 \
    "$(jq_out '[.plays[0].results[][1] | select(.data.stdout // .msg | tostring | test("reno"))] | length')"

e2e_run 40 tt play playbooks/rollback.yml --format json
assert_rc "second rollback exits 0" 0
assert_eq "second rollback: nothing to roll back on 8 hosts" 8 \
    "$(jq_out '[.plays[0].results[][0] | select(.status == "ok" and (.msg | test("nothing to roll back")))] | length')"
assert_eq "second rollback: stats changed=0 on 8 hosts" 8 \
    "$(jq_out '[.stats[] | select(.changed == 0 and .failed == 0)] | length')"
assert_eq "$HANDH: still the hand-written bytes" "$hand_sha" \
    "$(file_sha "$HANDH" "$DROPIN")"

# Rollback to "previous": tune, make it worse, go back one step.
e2e_run 40 tt play "$TUNE_PB" "${TUNE_VARS[@]}" -l lab01
assert_rc "retune lab01" 0
tuned_sha=$(file_sha lab01 "$DROPIN")
e2e_run 40 tt play "$TUNE_DATA/small-then-previous.yml" -l lab01 -t small \
    -e rtt_ms=105 -e bandwidth_mbit=100
assert_rc "tiny buffers applied" 0
assert_eq "lab01: tiny tcp_rmem live" "4096 131072 131072" \
    "$(live lab01 net.ipv4.tcp_rmem)"
e2e_run 40 tt play "$TUNE_DATA/small-then-previous.yml" -l lab01 \
    -t previous
assert_rc "rollback to previous" 0
assert_eq "lab01: tcp_rmem back to the first tuning" "$TUNED_RMEM" \
    "$(live lab01 net.ipv4.tcp_rmem)"
assert_eq "lab01: tcp_wmem back to the first tuning" "$TUNED_WMEM" \
    "$(live lab01 net.ipv4.tcp_wmem)"
assert_eq "lab01: the first tuning's drop-in, byte for byte" "$tuned_sha" \
    "$(file_sha lab01 "$DROPIN")"
e2e_run 40 tt rollback -l lab01
assert_rc "rollback to first" 0
assert_eq "lab01: stock again" "$STOCK_RMEM" "$(live lab01 net.ipv4.tcp_rmem)"

tune_finish
