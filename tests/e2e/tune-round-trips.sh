#!/bin/bash
# tune-round-trips.sh - what a plan, a drift and an apply cost a host
# (issue 12): the probe reads the managed drop-in whole, so that check mode
# needs no round trip of its own. On 3 stock hosts, counted by tcptune's
# own transport (stats.round_trips, stats.connections in --format json):
# plan = 1 command per host, apply = 2 (probe; write + read-back); a plan
# and a drift still see a hand edit of the drop-in, and change nothing. And
# the open connections follow --forks, not the fleet: 3 hosts under 4
# names each (12 inventory hosts), applied with -f 1 (at most 8 open), have
# their connection closed between the probe and the apply and reopened,
# while with -f 10 each keeps its one connection.
# Usage: tune-round-trips.sh [TCPTUNE]. Exit 77 when not root.
set -uo pipefail
# shellcheck source=tests/e2e/tune-lib.sh
. "$(dirname "$0")/tune-lib.sh"
e2e_init tune-round-trips "${1:-}"
e2e_lab_up 3 trt 198.18.147

# stats_count KEY : "VALUE:HOSTS" pairs of stats.KEY over the hosts, sorted
stats_count() {
	# shellcheck disable=SC2016 # $k is jq's
	jq_out --arg k "$1" '[.stats[] | .[$k]] | group_by(.) |
	    map("\(.[0]):\(length)") | join(" ")'
}

e2e_run 60 tt plan "$TUNE_PB" "${TUNE_VARS[@]}" --format json
assert_rc "plan exits 0" 0
assert_eq "plan: 3 hosts would change" 3 \
    "$(jq_out '[.plays[0].results[][-1] | select(.status == "changed")] | length')"
assert_eq "plan: one round trip per host" "1:3" "$(stats_count round_trips)"
assert_eq "plan: one connection per host" "1:3" "$(stats_count connections)"

e2e_run 60 tt play "$TUNE_PB" "${TUNE_VARS[@]}" --format json
assert_rc "apply exits 0" 0
assert_eq "apply: 3 hosts changed" 3 \
    "$(jq_out '[.plays[0].results[][-1] | select(.status == "changed")] | length')"
assert_eq "apply: two round trips per host (probe; write + read-back)" \
    "2:3" "$(stats_count round_trips)"
for h in "${HOSTS[@]}"; do
	expect_tuned "$h"
done

# drift's own report has no stats: that its check sends nothing beyond the
# probe is tests/unit/test-check-read.c's; here, that it still sees all.
e2e_run 60 tt drift "$TUNE_PB" "${TUNE_VARS[@]}" --format json
assert_rc "drift after the apply: in sync" 0
assert_eq "drift: 3 hosts in sync" 3 "$(jq_out '.summary.in_sync')"

# A hand edit of the drop-in: the plan's diff comes from the probe's copy.
h=${HOSTS[0]}
lab "$h" sh -c "sed -i 's/^net.ipv4.tcp_congestion_control = bbr\$/net.ipv4.tcp_congestion_control = cubic/' $DROPIN"
sha=$(file_sha "$h" "$DROPIN")
e2e_run 60 tt plan "$TUNE_PB" "${TUNE_VARS[@]}" -l "$h"
assert_rc "plan of the edited host exits 0" 0
assert_line "plan: the diff takes the edited line out" \
    "-net.ipv4.tcp_congestion_control = cubic" "$RUN_OUT"
assert_line "plan: and puts ours back" \
    "+net.ipv4.tcp_congestion_control = bbr" "$RUN_OUT"
assert_eq "plan: the edited file is left as it is" "$sha" \
    "$(file_sha "$h" "$DROPIN")"
e2e_run 60 tt drift "$TUNE_PB" "${TUNE_VARS[@]}" -l "$h" --format json
assert_rc "drift of the edited host: drift found" 8
assert_eq "drift: the congestion control line was edited" "file edited cubic" \
    "$(jq_out '.items[] | select(.key == "net.ipv4.tcp_congestion_control") |
    "\(.cause) \(.live)"')"

# 12 names for 3 hosts: -f 1 keeps at most 8 connections open, so the
# apply step reopens what the probe step's later hosts pushed out.
NAMES=$E2E_TMP/names.yml
{
	echo "all:"
	echo "  hosts:"
	read -r -a addrs <<<"$LAB_ADDRS"
	for ((i = 0; i < 12; i++)); do
		printf '    n%02d:\n      ansible_host: %s\n' "$i" "${addrs[i % 3]}"
	done
	echo "  vars:"
	echo "    ansible_user: root"
	echo "    ansible_ssh_private_key_file: $LAB_KEY"
} >"$NAMES"
for f in 1 10; do
	e2e_run 90 "$TCPTUNE" play "$TUNE_PB" "${TUNE_VARS[@]}" -i "$NAMES" \
	    --known-hosts "$LAB_KNOWN_HOSTS" --no-color --format json -f "$f"
	assert_rc "apply on 12 names, -f $f" 0
	assert_eq "-f $f: two round trips per name" "2:12" \
	    "$(stats_count round_trips)"
	if ((f == 1)); then
		assert_eq "-f 1: each name reconnected once for the apply" \
		    "2:12" "$(stats_count connections)"
	else
		assert_eq "-f 10: each name kept its one connection" "1:12" \
		    "$(stats_count connections)"
	fi
done

tune_finish
