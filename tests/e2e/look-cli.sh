#!/bin/bash
# look-cli.sh - looking before running, without a lab (no root needed):
#  A: --list-hosts/--list-tasks --format json, read with jq: schema, plays,
#     patterns, hosts and serial batches, tasks with their tags, `when` and
#     the implicit steps; the same hosts and tasks as the text listing;
#  B: --start-at-task in the listing: the tasks and plays before the match
#     are not listed (a shell pattern, across plays);
#  C: nothing is contacted: an inventory of unreachable addresses plus one
#     loopback listener that counts connections; play, plan and drift list
#     in well under a second and the listener sees nothing (while `tcptune
#     ping` on it is seen: the listener does count);
#  D: no task matches --start-at-task: exit 1, the message, nothing run;
#  E: a --limit that leaves no host at all: exit 1, as ansible-playbook.
# Usage: look-cli.sh [TCPTUNE]
set -uo pipefail
E2E_NEEDS_ROOT=0
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
e2e_init look-cli "${1:-}"

EX=$E2E_SRC/inventory-examples
PLAYS=$E2E_SRC/tests/data/playbooks/look/plays.yml
WAN=$E2E_SRC/playbooks/wan-tuning.yml
cd "$E2E_TMP" || exit 1

# --- A: JSON, and the same content as the text
e2e_run 10 "$TCPTUNE" play -i "$EX/fleet.ini" "$PLAYS" --list-hosts \
    --list-tasks --format json
assert_rc "A: play --list-hosts --list-tasks --format json" 0
assert_eq "A: valid JSON with schema 1" 1 "$(jq_out .schema)"
assert_eq "A: three plays, numbered from 1" "1 2 3" \
    "$(jq_out '[.plays[].play] | map(tostring) | join(" ")')"
assert_eq "A: a play without a name is named by its patterns" \
    "OVH web servers|db,backup|US East" \
    "$(jq_out '[.plays[].name] | join("|")')"
assert_eq "A: patterns as written (a string, a list)" '["web:&ovh"]["db","backup"]' \
    "$(jq_out -c '.plays[0].pattern, .plays[1].pattern' | tr -d '\n')"
assert_eq "A: play tags" '["wan"]' "$(jq_out -c '.plays[0].tags')"
assert_eq "A: play 1 runs on the 7 OVH web servers" 7 \
    "$(jq_out '.plays[0].hosts | length')"
assert_eq "A: serial [1, 50%] over 7 hosts: batches of 1, 3, 3" "1 3 3" \
    "$(jq_out '[.plays[0].batches[] | length] | map(tostring) | join(" ")')"
assert_eq "A: the batches are the hosts, in order" true \
    "$(jq_out '.plays[0] | (.batches | add) == .hosts')"
assert_eq "A: play 1's steps (gathering and the apply are implicit)" \
    "Gathering Facts:probe:true|size TCP buffers:tcp_buffers:false|BBR:congestion:false|apply tuning (sysctl drop-in, qdisc, route):tune:true|ping:ping:false" \
    "$(jq_out '[.plays[0].tasks[] | "\(.name):\(.module):\(.implicit)"] | join("|")')"
assert_eq "A: a task's tags are its own and its play's, sorted" \
    '["buffers","tune","wan"]' "$(jq_out -c '.plays[0].tasks[1].tags')"
assert_eq "A: the never-tagged task is not listed" 0 \
    "$(jq_out '[.plays[].tasks[] | select(.name | test("debug"))] | length')"
assert_eq "A: when is given" "bbr_wanted | default(true)" \
    "$(jq_out '.plays[1].tasks[0].when')"
assert_eq "A: a task's line in the playbook" 31 "$(jq_out '.plays[1].tasks[0].line')"
assert_eq "A: gather_facts: false is shown" false \
    "$(jq_out '.plays[1].gather_facts')"
jq -r '.plays[] | "play \(.play)", (.hosts[] | "host \(.)"),
    (.tasks[] | "task \(.name)")' "$E2E_TMP/out" >"$E2E_TMP/from-json"
e2e_run 10 "$TCPTUNE" play -i "$EX/fleet.ini" "$PLAYS" --list-hosts \
    --list-tasks
assert_rc "A: the same as text" 0
awk -F '\t' '/^  play #/ { sub(/^  play #/, ""); sub(/ .*/, ""); print "play " $0 }
    /^    hosts \(/ { h = 1; next } /^    tasks:/ { h = 0; t = 1; next }
    /^    / && !/^      / { h = 0 }
    /^      / && h { sub(/^ +/, ""); print "host " $0 }
    /^      / && t { sub(/^ +/, "", $1); print "task " $1 }
    /^  play #/ { t = 0 }' "$E2E_TMP/out" >"$E2E_TMP/from-text"
assert_eq "A: the JSON has the text's plays, hosts and tasks" \
    "$(cat "$E2E_TMP/from-text")" "$(cat "$E2E_TMP/from-json")"
assert_match "A: text: the implicit steps are marked" \
    $'\n      Gathering Facts\t\\(implicit: probe\\)\n      size TCP buffers\tTAGS: \\[buffers, tune, wan\\]' \
    "$RUN_OUT"
assert_match "A: text: the serial batches" $'\n    serial batches \\(3\\): 1, 3, 3\n' \
    "$RUN_OUT"

# --- B: --start-at-task in the listing
e2e_run 10 "$TCPTUNE" plan -i "$EX/fleet.ini" "$PLAYS" --list-tasks \
    --start-at-task 'raise*'
assert_rc "B: plan --list-tasks --start-at-task 'raise*'" 0
assert_eq "B: the first play lists nothing; the second starts at the match" \
    "$(printf '%s\n' "" "playbook: $PLAYS" "" \
    "  play #1 (web:&ovh): OVH web servers	TAGS: [wan]" "    tasks:" "" \
    "  play #2 (db,backup): db,backup	TAGS: []" "    tasks:" \
    "      raise initcwnd	TAGS: [route]" \
    "      apply tuning (sysctl drop-in, qdisc, route)	(implicit: tune)" "" \
    "  play #3 (gcp_us_east1): US East	TAGS: []" "    tasks:" \
    "      Gathering Facts	(implicit: probe)" "      reachable	TAGS: []")" \
    "$RUN_OUT"
e2e_run 10 "$TCPTUNE" drift -i "$EX/fleet.ini" "$PLAYS" --list-tasks \
    --start-at-task 'raise*' --format json
assert_eq "B: drift, JSON: the first play gathers no facts" "false []" \
    "$(jq_out -c '.plays[0].gather_facts, .plays[0].tasks' | tr '\n' ' ' |
    sed 's/ $//')"
assert_eq "B: JSON echoes the selection" "raise*" "$(jq_out .start_at_task)"

# --- C: nothing is contacted
# A loopback listener that writes how many connections it accepted.
python3 -c '
import socket, sys
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(64)
print(s.getsockname()[1], flush=True)
n = 0
while True:
    c, _ = s.accept()
    n += 1
    open(sys.argv[1], "w").write(str(n))
    c.close()
' "$E2E_TMP/accepted" >"$E2E_TMP/port" &
E2E_PIDS+=($!)
for _ in $(seq 50); do
	[[ -s $E2E_TMP/port ]] && break
	sleep 0.1
done
PORT=$(cat "$E2E_TMP/port")
{
	echo "[unreachable]"
	# lab addresses with no lab behind them: a connection would wait for
	# the --timeout below, or fail at once where no route leads there --
	# the listener, not the clock, is the proof that nothing connects
	for i in $(seq 1 60); do
		echo "far$i ansible_host=198.18.199.$i"
	done
	echo "[listener]"
	echo "watch ansible_host=127.0.0.1 ansible_port=$PORT"
} >"$E2E_TMP/unreachable.ini"
for cmd in play plan drift; do
	e2e_run 10 "$TCPTUNE" "$cmd" -i "$E2E_TMP/unreachable.ini" "$WAN" \
	    --list-hosts --list-tasks --timeout 20 --start-at-task 'size*'
	assert_rc "C: $cmd --list-hosts --list-tasks on 61 hosts" 0
	assert_lt "C: $cmd listed in well under a second" "$RUN_SECS" 1.0
	assert_match "C: $cmd listed every host" "hosts \\(61\\):" "$RUN_OUT"
done
e2e_run 10 "$TCPTUNE" play -i "$E2E_TMP/unreachable.ini" "$WAN" \
    --list-hosts --format json --timeout 20
assert_lt "C: play --list-hosts --format json in well under a second" \
    "$RUN_SECS" 1.0
assert_eq "C: the listener saw no connection from any listing" 0 \
    "$(cat "$E2E_TMP/accepted" 2>/dev/null || echo 0)"
# Control: a command that does connect is seen by the listener.
e2e_run 20 "$TCPTUNE" ping -i "$E2E_TMP/unreachable.ini" watch --timeout 5
assert_ne "C: control: ping on the listener fails (no sshd there)" 0 "$RUN_RC"
assert_eq "C: control: the listener saw ping's connection" 1 \
    "$(cat "$E2E_TMP/accepted" 2>/dev/null || echo 0)"

# --- D: no task matches
for cmd in play plan drift; do
	e2e_run 10 "$TCPTUNE" "$cmd" -i "$E2E_TMP/unreachable.ini" "$WAN" \
	    --start-at-task 'no such task'
	assert_rc "D: $cmd --start-at-task 'no such task'" 1
	assert_eq "D: $cmd: the message" \
	    "tcptune: error: --start-at-task: no task is named 'no such task' or matches it; nothing was run" \
	    "$RUN_ERR"
	assert_eq "D: $cmd: nothing printed on stdout" "" "$RUN_OUT"
done
e2e_run 10 "$TCPTUNE" play -i "$E2E_TMP/unreachable.ini" "$WAN" \
    --start-at-task 'size*' --tags verify --list-tasks
assert_rc "D: a task the tags do not select cannot be started at" 1
assert_eq "D: the message says so" \
    "tcptune: error: --start-at-task: no task that --tags/--skip-tags select is named 'size*' or matches it; nothing was run" \
    "$RUN_ERR"
assert_lt "D: refused before connecting" "$RUN_SECS" 1.0
assert_eq "D: the listener saw nothing more" 1 \
    "$(cat "$E2E_TMP/accepted" 2>/dev/null || echo 0)"

# --- E: a --limit that selects no host of the inventory
for look in --list-hosts --list-tasks; do
	e2e_run 10 "$TCPTUNE" play -i "$EX/fleet.ini" "$PLAYS" "$look" \
	    --limit 'no-such-host*'
	assert_rc "E: $look --limit 'no-such-host*'" 1
	assert_eq "E: $look: the message" \
	    "tcptune: error: no host of the inventory matches --limit 'no-such-host*'" \
	    "$RUN_ERR"
done
e2e_finish
