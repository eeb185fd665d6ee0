#!/bin/bash
# look-start-at.sh - --start-at-task on real hosts: a lab of 2, and
# tests/data/playbooks/look/start-at.yml, whose tasks each leave a marker
# in the host's /root.
#  A: --start-at-task 'mark p2-b': on both hosts the tasks before it (the
#     whole first play, p2-a) left no marker, p2-b and everything after
#     did; the first play gathered no facts, the second did, per serial
#     batch; p2-a is skipped in the second batch too;
#  B: control: the same play without --start-at-task leaves every marker;
#  C: a pattern in the last play: only that play's task runs.
# Usage: look-start-at.sh [TCPTUNE]. Exit 77 when not root.
set -uo pipefail
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
e2e_init look-start-at "${1:-}"
e2e_lab_up 2 lk1 198.18.137
PB=$E2E_SRC/tests/data/playbooks/look/start-at.yml
MARKS=(p1-a p2-a p2-b p2-c p3-a)

# markers HOST : the markers present on HOST, in the order of MARKS.
markers() {
	local m out=()
	for m in "${MARKS[@]}"; do
		lab "$1" test -e "/root/look-$m" && out+=("$m")
	done
	echo "${out[*]}"
}

clear_markers() {
	local h
	for h in "${HOSTS[@]}"; do
		lab "$h" sh -c 'rm -f /root/look-*'
	done
}

# --- A
clear_markers
e2e_run 60 tt play "$PB" --start-at-task 'mark p2-b'
assert_rc "A: play --start-at-task 'mark p2-b'" 0
for h in "${HOSTS[@]}"; do
	assert_eq "A: $h: only p2-b and after ran" "p2-b p2-c p3-a" "$(markers "$h")"
done
assert_eq "A: no task line of a skipped task" 0 \
    "$(grep -cE 'TASK \[mark (p1-a|p2-a)\]' <<<"$RUN_OUT")"
assert_eq "A: facts gathered once per batch of the second play only" 2 \
    "$(grep -c 'TASK \[Gathering Facts\]' <<<"$RUN_OUT")"
# (Ansible's recap counts a changed task in ok too)
for h in "${HOSTS[@]}"; do
	assert_match "A: $h: recap ok=4 (facts, p2-b, p2-c, p3-a) changed=3 (p2-b, p2-c, p3-a)" \
	    "$h +: ok=4 +changed=3 +unreachable=0 +failed=0" "$RUN_OUT"
done

# --- B: control
clear_markers
e2e_run 60 tt play "$PB"
assert_rc "B: control: the whole play" 0
for h in "${HOSTS[@]}"; do
	assert_eq "B: $h: every task ran" "${MARKS[*]}" "$(markers "$h")"
done

# --- C: a pattern matching in the last play
clear_markers
e2e_run 60 tt play "$PB" --start-at-task '*p3*'
assert_rc "C: play --start-at-task '*p3*'" 0
for h in "${HOSTS[@]}"; do
	assert_eq "C: $h: only the last play's task ran" "p3-a" "$(markers "$h")"
done
assert_eq "C: no facts gathered (the plays that gather are skipped)" 0 \
    "$(grep -c 'TASK \[Gathering Facts\]' <<<"$RUN_OUT")"
clear_markers
e2e_finish
