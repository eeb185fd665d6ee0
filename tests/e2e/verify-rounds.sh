#!/bin/bash
# verify-rounds.sh TCPTUNE WANEM: iperf3_verify over every pair of a fleet,
# in rounds, and its latency guard.
#
# Four lab hosts joined by the WAN emulator, every path 5 ms each way,
# 20 Mbit/s, a deep 2 MB queue (800 ms at that rate: room for bufferbloat).
# The play gives every host every other host as its peers (iperf_peers:
# all): 6 unordered pairs, 3 rounds of 2 disjoint pairs. It measures a
# baseline, writes large buffers (16 MB ceilings) in a drop-in of its own,
# and measures again with max_rtt_increase as the guard and on_regression:
# rollback. Large buffers let one flow fill the emulator's queue, so the
# loaded RTT grows many times over (the issue's 105 -> 200 ms, magnified).
#
#   1. guard 2x, verify_sample=1, --format jsonl: one pair measured; both
#      its ends fail the guard (the client on its single up, the server on
#      the same run seen as its single down) and are rolled back (drop-in
#      gone, stock tcp_rmem live);
#      the two hosts without a sampled pair are skipped. Each phase's one
#      round is a `round` event (1/1 rounds, 1/1 pairs) between its
#      schedule and its results; nothing on stderr.
#   2. guard 5000ms, every pair, --format json into files, --log-file:
#      passes. Per phase each pair is measured exactly once, the rounds
#      reported (stderr line, data.schedule) are the rounds the pairs ran
#      in, the two pairs of a round overlapped in time (their start/end),
#      and no host was in two tests at once. Stderr has a line per round
#      as it ends (round 1/3 done: 2/6 pairs ... 3/3: 6/6), after the
#      schedule line; the run log a `round` event per round, the same
#      counts.
# ~40 s. Needs root (77 otherwise).
set -u
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=tests/e2e/verify-lib.sh
. "$(dirname "$0")/verify-lib.sh"

e2e_init verify-rounds "${1:-}"
wan_needs "${2:-}" jq

fleet_wan_lab_up 4 tvr 198.18.76 "$WANEM" "delay=5ms rate=20mbit queue=2m"
GATE_FILE=/etc/sysctl.d/95-tcptune-rounds.conf
STOCK_RMEM=$(lab_sysctl lab01 net.ipv4.tcp_rmem)

cat >"$E2E_TMP/rounds.yml" <<EOF
- name: every pair of the lab, before and after
  hosts: lab
  gather_facts: false
  vars:
    iperf_peers: lab
  tasks:
    - name: baseline
      iperf3_verify:
        phase: before
        duration: 2
        omit: 1
        parallel: 1
        reverse: false
    - name: large buffers
      sysctl:
        values:
          net.ipv4.tcp_rmem: "4096 131072 16777216"
          net.ipv4.tcp_wmem: "4096 16384 16777216"
        sysctl_file: $GATE_FILE
    - name: after
      iperf3_verify:
        phase: after
        duration: 2
        omit: 1
        parallel: 1
        reverse: false
        max_regression: 1
        max_rtt_increase: "{{ guard }}"
        on_regression: rollback
        sysctl_file: $GATE_FILE
EOF

# --- 1. the tight guard on one sampled pair ---------------------------------
vt_run 60 play "$E2E_TMP/rounds.yml" -e guard=2x -e verify_sample=1 \
    --format jsonl
assert_rc "tight guard: the sampled pair's hosts fail" 2 || e2e_show_run
# The event stream; the results as --format json's document has them
# (each host's in the order they came), for the checks below.
mv "$E2E_TMP/out" "$E2E_TMP/events"
jq -s '{plays: [{results: (reduce (.[] | select(.event == "host_result"))
    as $e ({}; .[$e.host] += [$e | del(.schema, .event, .timestamp, .play,
    .host, .kind)]))}]}' "$E2E_TMP/events" >"$E2E_TMP/out"
ROUNDS_OF='select(.event == "round") | "\(.task) \(.rounds_done)/\(.rounds) \(.pairs_done)/\(.pairs)"'
assert_eq "jsonl: one round event per phase, 1/1 rounds and 1/1 pairs" \
    "baseline 1/1 1/1,after 1/1 1/1" \
    "$(jq -r "$ROUNDS_OF" "$E2E_TMP/events" | paste -sd,)" || true
# Per phase, in the stream: schedule, round, then the first result.
assert_eq "jsonl: each round event after its schedule, before its results" \
    "baseline schedule,baseline round,baseline host_result,after schedule,after round,after host_result" \
    "$(jq -r 'select(.task == "baseline" or .task == "after")
        | select(.event == "schedule" or .event == "round"
        or .event == "host_result") | "\(.task) \(.event)"' \
        "$E2E_TMP/events" | uniq | paste -sd,)" || true
assert_eq "jsonl: a round event's schema, times and estimate" "1 true 0" \
    "$(jq -r 'select(.event == "round") | "\(.schema) \(.seconds >= .round_seconds and .round_seconds > 0) \(.seconds_left)"' \
        "$E2E_TMP/events" | sort -u | paste -sd,)" || true
assert_eq "jsonl: nothing on stderr" "" "$(cat "$E2E_TMP/err")" || true
A='[.plays[0].results[][] | select(.task == "after")]'
jq -r "${A}[] | \"    \(.status): \(.msg)\"" "$E2E_TMP/out"
assert_eq "after: 2 hosts failed, 2 skipped" "failed failed skipped skipped" \
    "$(jq_out "$A | map(.status) | sort | join(\" \")")" || true
assert_eq "one pair was measured" 1 \
    "$(jq_out "[${A}[] | .data.schedule.pairs // empty][0]")" ||
    true
FAILED_HOSTS=$(jq -r '.plays[0].results | to_entries[]
    | select(.value[-1].status == "failed") | .key' "$E2E_TMP/out")
for h in $FAILED_HOSTS; do
	R=".plays[0].results.${h}[-1]"
	assert_match "$h: the guard failed on the loaded RTT and rolled back" \
	    '^regression: single (up|down) loaded RTT [0-9.]+ -> [0-9.]+ ms \([0-9.]+x, more than max_rtt_increase 2x\); rolled back' \
	    "$(jq_out "$R.msg")" || true
	assert_eq "$h: data.action" rollback "$(jq_out "$R.data.action")" ||
	    true
	assert_eq "$h: its drop-in is gone" absent "$(lab "$h" sh -c \
	    "test -e $GATE_FILE && echo present || echo absent")" || true
	assert_eq "$h: live tcp_rmem restored" "$STOCK_RMEM" \
	    "$(lab_sysctl "$h" net.ipv4.tcp_rmem)" || true
done
assert_match "the skipped hosts had no sampled pair" \
    '^none of this host.s pairs was sampled' \
    "$(jq_out "$A | map(select(.status == \"skipped\"))[0].msg")" || true

# --- 2. every pair, rounds, a loose guard ----------------------------------
vt_run 90 play "$E2E_TMP/rounds.yml" -e guard=5000ms --format json \
    --log-file "$E2E_TMP/run.log"
assert_rc "loose guard: every host passes" 0 || e2e_show_run
sed 's/^/    stderr: /' "$E2E_TMP/err"
assert_eq "the schedule is shown before each phase" 2 \
    "$(grep -c '^verify: 6 pairs in 3 rounds (the fewest possible: 3), about [0-9]' "$E2E_TMP/err")" ||
    true
# A line per round as it ends, the schedule's line first in each phase.
assert_eq "stderr: the schedule, then a line per round, each phase" \
    "schedule,1/3 2/6,2/3 4/6,3/3 6/6,schedule,1/3 2/6,2/3 4/6,3/3 6/6" \
    "$(sed -n -e 's/^verify: [0-9]* pairs in .*/schedule/p' \
        -e 's|^verify: round \([0-9]*/[0-9]*\) done: \([0-9]*/[0-9]*\) pairs, .*|\1 \2|p' \
        "$E2E_TMP/err" | paste -sd,)" || true
assert_eq "stderr: each round line has the time, the last no estimate" \
    "4 2" \
    "$(grep -c '^verify: round [12]/3 done: [0-9]/6 pairs, [0-9]*s elapsed, about [0-9]*s left$' "$E2E_TMP/err") $(grep -c '^verify: round 3/3 done: 6/6 pairs, [0-9]*s elapsed$' "$E2E_TMP/err")" ||
    true
assert_eq "run log: a round event per round, the same counts" \
    "baseline 1/3 2/6,baseline 2/3 4/6,baseline 3/3 6/6,after 1/3 2/6,after 2/3 4/6,after 3/3 6/6" \
    "$(jq -r "$ROUNDS_OF" "$E2E_TMP/run.log" | paste -sd,)" || true
for task in baseline after; do
	# Every pair of the phase once, from its client's result.
	P="[.plays[0].results[][] | select(.task == \"$task\") | .data.pairs[]
	    | select(.role == \"client\")]"
	assert_eq "$task: every pair measured exactly once" \
	    "lab01-lab02 lab01-lab03 lab01-lab04 lab02-lab03 lab02-lab04 lab03-lab04" \
	    "$(jq_out "$P | map([.client, .server] | sort | join(\"-\")) | sort | join(\" \")")" ||
	    true
	assert_eq "$task: data.schedule says 3 rounds" 3 \
	    "$(jq_out "[.plays[0].results[][] | select(.task == \"$task\")
	        | .data.schedule.rounds] | unique | join(\" \")")" || true
	assert_eq "$task: the pairs ran in rounds 0..2, two a round" "2 2 2" \
	    "$(jq_out "$P | group_by(.round) | map(length) | join(\" \")")" ||
	    true
	# The two pairs of each round overlapped in time.
	jq -r "$P | group_by(.round)[] | \"    round \(.[0].round):
	    \(map(\"\(.client)->\(.server) \(.started) .. \(.ended)\") | join(\", \"))\"" \
	    "$E2E_TMP/out"
	assert_eq "$task: the pairs of each round ran at the same time" \
	    "true true true" \
	    "$(jq_out "$P | group_by(.round) | map((map(.started) | max) <
	        (map(.ended) | min)) | join(\" \")")" || true
	# No host in two tests at once: its pairs' intervals are disjoint.
	assert_eq "$task: no host was in two tests at once" "" \
	    "$(jq_out "$P as \$p | [\"lab01\", \"lab02\", \"lab03\", \"lab04\"][]
	        as \$h | [\$p[] | select(.client == \$h or .server == \$h)]
	        | sort_by(.started) | . as \$s | range(1; length)
	        | select(\$s[.].started < \$s[. - 1].ended) | \$h")" || true
done
assert_eq "after: every gate passed" "true" \
    "$(jq_out '[.plays[0].results[][] | select(.task == "after")
        | .data.pairs[].gate.passed] | unique | map(tostring) | join(" ")')" ||
    true
assert_match "the gate reports the loaded RTT" \
    'loaded RTT at most \+[0-9.]+ ms \(max_rtt_increase 5000 ms\)' \
    "$(jq_out '[.plays[0].results[][] | select(.task == "after")][0]
        .data.pairs[0].gate.detail')" || true
assert_eq "no iperf3 server left in the lab" "" "$(iperf_pids)" || true
e2e_finish
