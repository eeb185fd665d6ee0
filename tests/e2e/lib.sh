# shellcheck shell=bash
# Variables set here (RUN_OUT, HOSTS, ...) are for the scripts that source it;
# jq programs are in single quotes on purpose.
# shellcheck disable=SC2034,SC2016
# lib.sh - shared helpers for the fleet end-to-end tests (tests/e2e/fleet-*.sh).
#
# Source it from a bash script, then:
#
#   e2e_init NAME [TCPTUNE]     root check (exit 77 when not root), find the
#                               tcptune binary (argument, else $TCPTUNE, else
#                               build*/tcptune), make a temp dir, set traps
#   e2e_lab_up N PREFIX NET     a lab of N hosts of the test's own
#                               (DIR /tmp/tcptune-e2e-PREFIX, namespaces
#                               PREFIX-H, addresses NET.i), sourced lab.env;
#                               torn down on exit (KEEP_LAB=1 keeps it)
#   tt ARGS...                  tcptune against that lab (-i inventory,
#                               --known-hosts, --no-color added after ARGS)
#   e2e_run SECS CMD...         run CMD under timeout(1); sets RUN_OUT,
#                               RUN_ERR (text), RUN_RC, RUN_SECS (wall clock)
#   assert_* / e2e_ok / e2e_fail / e2e_known_bug / e2e_finish
#
# Every assertion prints one "ok:" or "FAIL:" line; e2e_finish prints the
# totals and exits 1 if anything failed. Each test owns its lab prefix and
# address block, so tests may run in any order and at the same time.

E2E_SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
LAB_SH_PATH=$E2E_SRC/tests/lab/lab.sh
E2E_PASSED=0
E2E_FAILED=0
E2E_KNOWN=0
E2E_FAILS=()
E2E_LAB_DIR=
E2E_PIDS=()
E2E_TMP=

e2e_log() {
	echo "[$E2E_NAME $(date +%T)] $*"
}

e2e_cleanup() {
	local pid
	for pid in "${E2E_PIDS[@]}"; do
		kill -TERM -- "$pid" 2>/dev/null || true
	done
	if [[ -n $E2E_LAB_DIR && ${KEEP_LAB:-0} != 1 ]]; then
		"$LAB_SH_PATH" down -d "$E2E_LAB_DIR" >/dev/null 2>&1 || true
	fi
	[[ -n $E2E_TMP ]] && rm -rf "$E2E_TMP"
}

# wan_needs [WANEM] [TOOL...]: what a test on the WAN emulator needs, or its
# exit: each TOOL and iperf3 and ss (77 without: SKIP), /dev/net/tun (77),
# a wanem binary (WANEM, else $WANEM, else the first build*/tests/lab/wanem
# of the tree; 1 without: FAIL), left in WANEM. Call after e2e_init.
wan_needs() {
	local tool b
	WANEM=${1:-${WANEM:-}}
	[[ $# -gt 0 ]] && shift
	if [[ -z $WANEM ]]; then
		for b in "$E2E_SRC"/build*/tests/lab/wanem; do
			[[ -x $b ]] && WANEM=$b && break
		done
	fi
	for tool in iperf3 ss "$@"; do
		command -v "$tool" >/dev/null 2>&1 || {
			echo "$E2E_NAME: SKIP: no '$tool'"
			exit 77
		}
	done
	[[ -c /dev/net/tun ]] || { echo "$E2E_NAME: SKIP: no /dev/net/tun"; exit 77; }
	[[ -x $WANEM ]] || { echo "$E2E_NAME: FAIL: no wanem binary"; exit 1; }
}

# e2e_init NAME [TCPTUNE]
e2e_init() {
	local b
	E2E_NAME=$1
	if [[ $(id -u) -ne 0 && ${E2E_NEEDS_ROOT:-1} == 1 ]]; then
		echo "$E2E_NAME: SKIP: the lab needs root"
		exit 77
	fi
	TCPTUNE=${2:-${TCPTUNE:-}}
	if [[ -z $TCPTUNE ]]; then
		for b in "$E2E_SRC"/build*/tcptune; do
			[[ -x $b ]] && TCPTUNE=$b && break
		done
	fi
	if [[ -z $TCPTUNE || ! -x $TCPTUNE ]]; then
		echo "$E2E_NAME: FAIL: no tcptune binary (give it as argument or \$TCPTUNE)"
		exit 1
	fi
	command -v jq >/dev/null 2>&1 || {
		echo "$E2E_NAME: FAIL: jq is not installed (scripts/setup.sh installs it)"
		exit 1
	}
	E2E_TMP=$(mktemp -d "/tmp/tcptune-e2e-$E2E_NAME.XXXXXX")
	trap e2e_cleanup EXIT
	trap 'exit 130' INT TERM
	e2e_log "tcptune: $TCPTUNE"
}

# e2e_lab_up N PREFIX NET
e2e_lab_up() {
	local n=$1 prefix=$2 net=$3 t0
	E2E_LAB_DIR=/tmp/tcptune-e2e-$prefix
	t0=$(date +%s.%N)
	# The lab is the test's bench, not what it tests: a bring-up that
	# fails is shown and tried once more (stop 22's CI lost a whole run
	# to one bare "1 host(s) failed" that no later run reproduced).
	if ! "$LAB_SH_PATH" up -n "$n" -d "$E2E_LAB_DIR" -p "$prefix" \
	    -a "$net" >"$E2E_TMP/lab-up.log" 2>&1; then
		e2e_log "warning: lab.sh up -n $n -p $prefix -a $net failed, trying again:"
		sed 's/^/    /' "$E2E_TMP/lab-up.log"
		if ! "$LAB_SH_PATH" up -n "$n" -d "$E2E_LAB_DIR" -p "$prefix" \
		    -a "$net" >"$E2E_TMP/lab-up.log" 2>&1; then
			echo "FAIL: lab.sh up -n $n -p $prefix -a $net failed twice:"
			sed 's/^/    /' "$E2E_TMP/lab-up.log"
			exit 1
		fi
	fi
	# shellcheck disable=SC1091
	. "$E2E_LAB_DIR/lab.env"
	read -r -a HOSTS <<<"$LAB_HOSTS"
	e2e_log "lab of ${#HOSTS[@]} hosts up in $E2E_LAB_DIR ($(
	    awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s)"
}

# lab HOST CMD... : run CMD inside a lab host (lab.sh exec).
lab() {
	"$LAB_SH_PATH" exec -d "$E2E_LAB_DIR" "$@"
}

# lab_cmd SUBCOMMAND ARGS... : lab.sh SUBCOMMAND -d DIR ARGS...
lab_cmd() {
	local sub=$1
	shift
	"$LAB_SH_PATH" "$sub" -d "$E2E_LAB_DIR" "$@"
}

tt() {
	"$TCPTUNE" "$@" -i "$LAB_INVENTORY" --known-hosts "$LAB_KNOWN_HOSTS" \
	    --no-color
}

now() {
	date +%s.%N
}

# e2e_run SECS CMD... : run CMD (a function is fine) under a hard time limit.
# A run killed by the limit gets RUN_RC 124 (or 137 after the KILL).
e2e_run() {
	local secs=$1 t0 t1
	shift
	t0=$(now)
	if declare -F "$1" >/dev/null; then
		# timeout(1) cannot run a shell function: expand tt by hand.
		if [[ $1 == tt ]]; then
			shift
			timeout -k 3 "$secs" "$TCPTUNE" "$@" -i "$LAB_INVENTORY" \
			    --known-hosts "$LAB_KNOWN_HOSTS" --no-color \
			    >"$E2E_TMP/out" 2>"$E2E_TMP/err"
		else
			"$@" >"$E2E_TMP/out" 2>"$E2E_TMP/err"
		fi
	else
		timeout -k 3 "$secs" "$@" >"$E2E_TMP/out" 2>"$E2E_TMP/err"
	fi
	RUN_RC=$?
	t1=$(now)
	RUN_SECS=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
	RUN_OUT=$(cat "$E2E_TMP/out")
	RUN_ERR=$(cat "$E2E_TMP/err")
	e2e_log "ran ($RUN_SECS s, exit $RUN_RC): $*"
}

# ansible_env: ansible-playbook's settings for a comparison with tcptune
# (its temporary files in the test's directory, no colour, the lab hosts'
# python3, no retry files).
ansible_env() {
	export ANSIBLE_LOCAL_TEMP=$E2E_TMP/ansible-tmp \
	    ANSIBLE_HOME=$E2E_TMP/ansible-home ANSIBLE_NOCOLOR=1 \
	    ANSIBLE_PYTHON_INTERPRETER=/usr/bin/python3 \
	    ANSIBLE_RETRY_FILES_ENABLED=0
}

# play_lines < OUTPUT: the lines ansible-playbook or tcptune printed for a
# play, without the banners' stars, blank lines, the recap and tcptune's
# run time; and without what tcptune's command module adds to its line
# (' => exit 0') and the probe's summary on a Gathering Facts line.
play_lines() {
	sed -e 's/ \**$//' -e '/^$/d' -e '/^PLAY RECAP/,$d' -e 's/ => exit 0$//' \
	    -e '/^TASK \[Gathering Facts\]/,/^TASK \[/s/^\(ok: \[[^]]*\]\) => .*$/\1/'
}

# play_recap < OUTPUT: host ok changed unreachable failed skipped, a line
# per host of the recap.
play_recap() {
	sed -n '/^PLAY RECAP/,$p' | awk '/ : ok=/ {
	    printf "%s", $1
	    for (i = 3; i <= NF; i++) {
		split($i, kv, "=")
		if (kv[1] ~ /^(ok|changed|unreachable|failed|skipped)$/)
			printf " %s=%s", kv[1], kv[2]
	    }
	    printf "\n" }'
}

# play_compare DESC PLAYBOOK ARGS...: ansible-playbook and tcptune play
# PLAYBOOK with ARGS on the lab's inventory ($LAB_INVENTORY), -f 1 so that
# hosts print in inventory order: the same exit status, the same lines
# (play_lines) and the same recap counts (play_recap). The tcptune run's
# output is left in RUN_OUT.
play_compare() {
	local desc=$1 pb=$2 rc
	shift 2
	e2e_run 120 ansible-playbook -i "$LAB_INVENTORY" -f 1 "$@" "$pb" \
	    </dev/null
	rc=$RUN_RC
	play_lines <<<"$RUN_OUT" >"$E2E_TMP/ansible"
	play_recap <<<"$RUN_OUT" >"$E2E_TMP/ansible-recap"
	e2e_run 60 tt play "$pb" -f 1 "$@" </dev/null
	assert_eq "[$desc] the same exit status" "$rc" "$RUN_RC"
	play_lines <<<"$RUN_OUT" >"$E2E_TMP/tcptune"
	assert_eq "[$desc] the same lines" "" \
	    "$(diff "$E2E_TMP/ansible" "$E2E_TMP/tcptune")"
	assert_eq "[$desc] the same recap counts" \
	    "$(cat "$E2E_TMP/ansible-recap")" "$(play_recap <<<"$RUN_OUT")"
}

# ansible_lines < ansible-playbook's JSON (ANSIBLE_STDOUT_CALLBACK=json),
# tcptune_lines < tcptune play --format json: host <TAB> task <TAB> status
# <TAB> output, or each item's item=status:output; a host's lines in the
# order its tasks ran.
ansible_lines() {
	jq -r '.plays[].tasks[] | .task.name as $t | .hosts | to_entries[] |
	    .value as $r |
	    # an include_tasks line itself (Ansible: one per task, tcptune:
	    # one per item) unless skipped; the tasks it included are
	    # compared
	    select($r.include == null and
	        (($r.results // []) | map(.include) | all(. == null))) |
	    [.key, $t,
	    (if $r.failed then "failed" elif $r.skipped then "skipped"
	     elif $r.changed then "changed" else "ok" end),
	    (if $r.results then ($r.results | map("\(.item | tojson)=" +
	      (if .failed then "failed" elif .skipped then "skipped"
	       elif .changed then "changed" else "ok" end) + ":" +
	      (.stdout // "")) | join(","))
	     else ($r.stdout // "") end)] | @tsv' | sort -s -k1,1
}
tcptune_lines() {
	jq -r '.plays[].results | to_entries[] | .key as $h | .value[] |
	    select(.module != "include_tasks" or .status == "skipped") |
	    [$h, .task, .status,
	    (if .data.results then (.data.results | map("\(.item | tojson)=" +
	      .status + ":" + ((.stdout // "") | rtrimstr("\n"))) | join(","))
	     else ((.data.stdout // "") | rtrimstr("\n")) end)] | @tsv' |
	    sort -s -k1,1
}

# ansible_stats / tcptune_stats < the same JSON: the recap's counts per
# host under tcptune's names, keys sorted.
ansible_stats() {
	jq -S '.stats | map_values({ok, changed, failed: .failures, skipped,
	    rescued, ignored, unreachable})'
}
tcptune_stats() {
	jq -S '.stats | map_values({ok, changed, failed, skipped, rescued,
	    ignored, unreachable})'
}

# Print the last run's output, indented, after a failed assertion.
e2e_show_run() {
	echo "    --- exit $RUN_RC after $RUN_SECS s; stdout (last 25 lines):"
	tail -n 25 "$E2E_TMP/out" | sed 's/^/    | /'
	echo "    --- stderr (last 15 lines):"
	tail -n 15 "$E2E_TMP/err" | sed 's/^/    | /'
}

e2e_ok() {
	echo "ok: $*"
	E2E_PASSED=$((E2E_PASSED + 1))
}

e2e_fail() {
	echo "FAIL: $*"
	E2E_FAILED=$((E2E_FAILED + 1))
	E2E_FAILS+=("$*")
}

# e2e_known_bug DESCRIPTION: an assertion skipped on purpose, loudly.
e2e_known_bug() {
	echo "KNOWN BUG: $* (assertion skipped)"
	E2E_KNOWN=$((E2E_KNOWN + 1))
}

# assert_eq DESC EXPECTED ACTUAL
assert_eq() {
	if [[ $2 == "$3" ]]; then
		e2e_ok "$1"
	else
		e2e_fail "$1: expected '$2', got '$3'"
		return 1
	fi
}

# assert_ne DESC UNEXPECTED ACTUAL
assert_ne() {
	if [[ $2 != "$3" ]]; then
		e2e_ok "$1"
	else
		e2e_fail "$1: got '$3', which it must not be"
		return 1
	fi
}

# assert_match DESC ERE TEXT
assert_match() {
	if [[ $3 =~ $2 ]]; then
		e2e_ok "$1"
	else
		e2e_fail "$1: /$2/ not found in:"
		printf '%s\n' "$3" | tail -n 20 | sed 's/^/    | /'
		return 1
	fi
}

# assert_rc DESC EXPECTED : the last run's exit status is exactly EXPECTED.
assert_rc() {
	if [[ $RUN_RC == "$2" ]]; then
		e2e_ok "$1 (exit $RUN_RC)"
	else
		e2e_fail "$1: expected exit $2, got $RUN_RC"
		e2e_show_run
		return 1
	fi
}

# assert_rc_bit DESC BIT : the last run exited with bit BIT set, was not
# killed by the test's time limit, and is not "could not run" (1).
assert_rc_bit() {
	if ((RUN_RC != 124 && RUN_RC != 137 && RUN_RC != 1 &&
	    RUN_RC < 16 && (RUN_RC & $2) != 0)); then
		e2e_ok "$1 (exit $RUN_RC has bit $2)"
	else
		e2e_fail "$1: expected an exit status with bit $2, got $RUN_RC"
		e2e_show_run
		return 1
	fi
}

# assert_lt DESC A B : A < B as decimal numbers.
assert_lt() {
	if awk -v a="$2" -v b="$3" 'BEGIN { exit !(a + 0 < b + 0) }'; then
		e2e_ok "$1 ($2 < $3)"
	else
		e2e_fail "$1: expected $2 < $3"
		return 1
	fi
}

# assert_not_timed_out DESC : the last run ended by itself.
assert_not_timed_out() {
	if [[ $RUN_RC != 124 && $RUN_RC != 137 ]]; then
		e2e_ok "$1 (finished in $RUN_SECS s)"
	else
		e2e_fail "$1: killed by the test's time limit after $RUN_SECS s"
		e2e_show_run
		return 1
	fi
}

# jq_out FILTER : apply FILTER to the last run's stdout (raw output).
jq_out() {
	jq -r "$@" <"$E2E_TMP/out"
}

# Status of HOST's first result in the last --format json run.
json_status() {
	jq_out --arg h "$1" '.plays[0].results[$h][0].status // "none"'
}

json_msg() {
	jq_out --arg h "$1" '.plays[0].results[$h][0].msg // ""'
}

e2e_finish() {
	local f
	echo "$E2E_NAME: $E2E_PASSED passed, $E2E_FAILED failed, $E2E_KNOWN known bugs skipped"
	# Again after the totals: CI keeps only the tail of a long log, and a
	# failure named there can be diagnosed without a rerun.
	for f in "${E2E_FAILS[@]}"; do
		echo "$E2E_NAME: FAILED: $f"
	done
	((E2E_FAILED == 0)) || exit 1
	exit 0
}
