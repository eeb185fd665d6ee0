#!/bin/bash
# stream.sh - results stream as hosts finish (issue 11, deliverable 1).
# tests/data/stream/stream.yml over a 4-host lab: lab01's task takes 8 s,
# the others' none. Each line is stamped with the kernel's uptime as it
# reaches the pipe; each host writes its uptime when its task ends (the lab
# shares the clock and /tmp), so a line's delay is measured, not guessed.
#  A: text on a pipe: the three fast hosts' lines arrive within 2 s of
#     their finishing, the run lasts at least 8 s, no progress line on the
#     pipe nor on stderr (not a terminal);
#  B: --format jsonl: the same timing for host_result events; every line is
#     an object with schema 1, an event and a timestamp; play_start first,
#     task_start before its results, recap last;
#  C: a terminal (tmux): the progress line names the slow host and its
#     elapsed time while it runs, and is erased at the end;
#  D: commands that cannot stream refuse --format jsonl;
#  E: a transport warning is printed once per host, before its result.
# Usage: stream.sh [TCPTUNE]. Exit 77 when not root. STREAM_SCREEN=PREFIX
# keeps the captures (PREFIX.run, .end: the terminal while lab01 runs and at
# the end; .pipe, .jsonl: the stamped pipe lines).
set -uo pipefail
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
e2e_init stream "${1:-}"
e2e_lab_up 4 tst 198.18.130
PB=$E2E_SRC/tests/data/stream/stream.yml
SLOW=lab01
FAST=(lab02 lab03 lab04)

uptime_now() {
	local up _
	read -r up _ </proc/uptime
	echo "$up"
}

# stamp : each line of stdin as "UPTIME LINE", stamped when it arrives.
stamp() {
	local line up _
	while IFS= read -r line; do
		read -r up _ </proc/uptime
		printf '%s %s\n' "$up" "$line"
	done
}

# play_piped DIR ARGS... : the play into a pipe; stamped lines in DIR/lines,
# stderr in DIR/err, the hosts' end stamps in DIR/HOST. Sets T0 and T1.
play_piped() {
	local dir=$1
	shift
	mkdir -p "$dir"
	T0=$(uptime_now)
	timeout -k 3 40 "$TCPTUNE" play "$PB" -e "stamp_dir=$dir" "$@" \
	    -i "$LAB_INVENTORY" --known-hosts "$LAB_KNOWN_HOSTS" --no-color \
	    2>"$dir/err" | stamp >"$dir/lines"
	T1=$(uptime_now)
	e2e_log "ran ($(awk -v a="$T0" -v b="$T1" 'BEGIN { print b - a }') s): play $*"
}

# arrival DIR ERE : the stamp of the first line matching ERE, or "none".
arrival() {
	awk -v re="$2" '{ t = $1; sub(/^[^ ]+ /, "") } $0 ~ re { print t; f = 1; exit }
	    END { if (!f) print "none" }' "$1/lines"
}

# ended DIR HOST : when HOST's task ended, by its own clock.
ended() {
	local up _
	if read -r up _ <"$1/$2" 2>/dev/null; then echo "$up"; else echo none; fi
}

# check_delays LABEL DIR ERE-PREFIX : the fast hosts' lines reached the pipe
# within 2 s of their task's end, and before the slow host ended.
check_delays() {
	local label=$1 dir=$2 pre=$3 h at end
	for h in "${FAST[@]}"; do
		at=$(arrival "$dir" "$pre$h")
		end=$(ended "$dir" "$h")
		if [[ $at == none || $end == none ]]; then
			e2e_fail "$label: $h: line at '$at', task end at '$end'"
			sed 's/^/    | /' "$dir/lines"
			continue
		fi
		assert_lt "$label: $h's result reached the pipe within 2 s of its end" \
		    "$(awk -v a="$at" -v b="$end" 'BEGIN { print a - b }')" 2
		assert_lt "$label: $h's result came before $SLOW ended" \
		    "$at" "$(ended "$dir" "$SLOW")"
	done
	assert_lt "$label: the run lasted at least 8 s" 8 \
	    "$(awk -v a="$T0" -v b="$T1" 'BEGIN { print b - a + 0.01 }')"
}

# --- A: text on a pipe
play_piped "$E2E_TMP/a"
check_delays A "$E2E_TMP/a" "changed: \\["
at=$(arrival "$E2E_TMP/a" "changed: \\[$SLOW\\]")
assert_ne "A: $SLOW's result arrived" none "$at"
assert_lt "A: $SLOW's line came after its 8 s task" \
    "$(awk -v a="$T0" 'BEGIN { print a + 7.9 }')" "$at"
assert_eq "A: one TASK [nap] header" 1 "$(grep -c 'TASK \[nap\]' "$E2E_TMP/a/lines")"
assert_match "A: the recap is sorted by host" \
    "lab01 .*lab02 .*lab03 .*lab04 " "$(grep -E '^[^ ]+ lab0[1-4] +: ok=' "$E2E_TMP/a/lines" | tr '\n' ' ')"
assert_eq "A: no progress line on a pipe (stdout)" 0 \
    "$(grep -c 'hosts done' "$E2E_TMP/a/lines")"
assert_eq "A: no progress line when stderr is not a terminal" 0 \
    "$(grep -c 'hosts done' "$E2E_TMP/a/err")"

# --- B: --format jsonl
play_piped "$E2E_TMP/b" --format jsonl
cut -d' ' -f2- "$E2E_TMP/b/lines" >"$E2E_TMP/b/events"
if jq -e . "$E2E_TMP/b/events" >/dev/null 2>&1; then
	e2e_ok "B: every line is JSON"
else
	e2e_fail "B: a line is not JSON"
	sed 's/^/    | /' "$E2E_TMP/b/events"
fi
assert_eq "B: every event has schema 1, an event name and a timestamp" 0 \
    "$(jq -c 'select(.schema != 1 or (.event | type) != "string" or
        (.timestamp | test("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}\\.[0-9]{3}Z$") | not))' \
        "$E2E_TMP/b/events" | wc -l)"
assert_eq "B: event order" \
    "play_start task_start host_result host_result host_result host_result recap" \
    "$(jq -r .event "$E2E_TMP/b/events" | tr '\n' ' ' | sed 's/ $//')"
assert_eq "B: the task_start names the task and its 4 hosts" "nap 4" \
    "$(jq -r 'select(.event == "task_start") | "\(.task) \(.host_count)"' "$E2E_TMP/b/events")"
assert_eq "B: $SLOW's result is the last" "$SLOW changed" \
    "$(jq -r 'select(.event == "host_result") | "\(.host) \(.status)"' "$E2E_TMP/b/events" | tail -n 1)"
assert_eq "B: the recap counts 4 hosts changed=1" 4 \
    "$(jq 'select(.event == "recap") | [.stats[] | select(.changed == 1)] | length' "$E2E_TMP/b/events")"
check_delays B "$E2E_TMP/b" '"event":"host_result".*"host":"'

# --- C: a terminal
if command -v tmux >/dev/null 2>&1; then
	# A tmux server of the test's own, on its own socket.
	tmx() { tmux -L "tcptune-stream-$$" "$@"; }
	mkdir -p "$E2E_TMP/c"
	printf '#!/bin/sh\nexec %q play %q -e stamp_dir=%q -i %q --known-hosts %q\n' \
	    "$TCPTUNE" "$PB" "$E2E_TMP/c" "$LAB_INVENTORY" "$LAB_KNOWN_HOSTS" \
	    >"$E2E_TMP/c/run.sh"
	tmx new-session -d -x 120 -y 20 -s stream \
	    "sh $E2E_TMP/c/run.sh; echo EXIT=\$?; sleep 60"
	# While lab01 sleeps: look at the screen a few times.
	# While lab01 sleeps: look at the screen until it has run 2 s.
	re='\[nap\] 3/4 hosts done, waiting on lab01 \(([2-9]|[1-9][0-9])\.[0-9]s\)'
	seen=
	for _ in $(seq 1 16); do
		sleep 0.5
		tmx capture-pane -p -t stream >"$E2E_TMP/c/screen-run"
		seen=$(grep -oE "$re" "$E2E_TMP/c/screen-run") && break
	done
	if [[ -n $seen ]]; then
		e2e_ok "C: the progress line names $SLOW and its elapsed time: $seen"
	else
		e2e_fail "C: no progress line naming $SLOW; the screen:"
		sed 's/^/    | /' "$E2E_TMP/c/screen-run"
	fi
	for _ in $(seq 1 40); do
		tmx capture-pane -p -t stream >"$E2E_TMP/c/screen-end"
		grep -q '^EXIT=' "$E2E_TMP/c/screen-end" && break
		sleep 0.5
	done
	assert_match "C: the run ended with exit 0" "EXIT=0" "$(cat "$E2E_TMP/c/screen-end")"
	assert_eq "C: the progress line was erased" 0 \
	    "$(grep -c 'hosts done' "$E2E_TMP/c/screen-end")"
	assert_match "C: the recap is on the screen" "lab04 +: ok=1 +changed=1" \
	    "$(cat "$E2E_TMP/c/screen-end")"
	if [[ -n ${STREAM_SCREEN:-} ]]; then
		cp "$E2E_TMP/c/screen-run" "$STREAM_SCREEN.run"
		cp "$E2E_TMP/c/screen-end" "$STREAM_SCREEN.end"
		cp "$E2E_TMP/a/lines" "$STREAM_SCREEN.pipe"
		cp "$E2E_TMP/b/lines" "$STREAM_SCREEN.jsonl"
	fi
	tmx kill-server 2>/dev/null || true
else
	e2e_fail "C: tmux is not installed"
fi

# --- E: a transport warning is printed once per host, before its result
e2e_run 30 tt ping --host-key-checking off
assert_rc "E: ping with host key checking off" 0
assert_eq "E: one [WARNING] per host on stderr" 4 \
    "$(grep -c '^\[WARNING\]: lab0[1-4]: host key checking is OFF' <<<"$RUN_ERR")"
e2e_run 30 tt ping --host-key-checking off --format jsonl
assert_eq "E: jsonl: each host's warning event, once, right before its result" \
    "lab01 lab02 lab03 lab04" \
    "$(jq -rs '[range(1; length) as $i | select(.[$i].event == "host_result" and
        .[$i - 1].event == "warning" and .[$i - 1].host == .[$i].host) |
        .[$i].host] | sort | join(" ")' <<<"$RUN_OUT")"
assert_eq "E: jsonl: 4 warning events" 4 \
    "$(jq -r 'select(.event == "warning") | .host' <<<"$RUN_OUT" | wc -l)"

# --- D: a command that cannot stream says so
e2e_run 10 "$TCPTUNE" drift "$PB" --format jsonl -i "$LAB_INVENTORY"
assert_rc "D: drift --format jsonl is refused" 1
assert_eq "D: the message" \
    "tcptune: error: option '--format jsonl' does not apply to 'drift'" "$RUN_ERR"

e2e_finish
