#!/usr/bin/env bash
# Build the libFuzzer harnesses (build-fuzz/, clang, ASan + UBSan) and run
# them: every file of tests/fuzz/regress/<name>/ once as a plain input, then
# the fuzzer for --seconds over a scratch copy of tests/fuzz/corpus/<name>/
# and regress/<name>/ (nothing is written into the repository).
#
# usage: scripts/fuzz.sh [--replay | --seconds N] [--jobs J] [--no-build] [name ...]
#   --replay: no random search: every corpus and regression input once, the
#   same result on the same commit every time (the test command's mode).
#   --seconds N: the search, N seconds a harness (the long tier: 600).
#   --timeout S: one input running over S seconds of wall time is a hang
#   (default 10; a loaded machine needs more: libFuzzer's clock is the wall's).
#   --keep DIR: the grown corpus of each search stays in DIR/<name>/ (to
#   merge into tests/fuzz/corpus/ with -merge=1: tests/fuzz/README.md).
#   name: a harness, fuzz-<name> (ini-inventory, hostpattern, ...); default
#   every harness built. --jobs J runs J harnesses at once.
# A crash, leak, timeout or OOM fails the harness; its reproducer stays in
# build-fuzz/artifacts/<name>/ and its path is printed. Ends with the line
# "fuzz: N passed, M failed" and exits 1 if any failed.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

seconds=30
replay=0
keep=
timeout=10
jobs=1
build=1
names=()
while [ $# -gt 0 ]; do
	case $1 in
	--seconds) seconds=$2; replay=0; shift 2 ;;
	--replay) replay=1; shift ;;
	--keep) keep=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--jobs) jobs=$2; shift 2 ;;
	--no-build) build=0; shift ;;
	-h|--help) sed -n '2,20p' "$0"; exit 0 ;;
	-*) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
	*) names+=("${1#fuzz-}"); shift ;;
	esac
done

dir=$root/build-fuzz
if [ "$build" = 1 ]; then
	mkdir -p "$dir"
	if ! FUZZ=1 ./scripts/build.sh >"$dir/build.log" 2>&1; then
		tail -n 40 "$dir/build.log"
		echo "fuzz: 0 passed, 1 failed (the build, log: $dir/build.log)"
		exit 1
	fi
fi
if [ ${#names[@]} -eq 0 ]; then
	for exe in "$dir"/fuzz/fuzz-*; do
		names+=("$(basename "$exe" | sed 's/^fuzz-//')")
	done
fi

# The longest input worth trying, per parser: the inputs it sees in use
# (a host key and a pattern are a line; a probe's output some kilobytes).
max_len() {
	case $1 in
	hostpattern) echo 512 ;;
	template) echo 4096 ;;
	iperf-json|dynamic-json|apply-output|sysctld) echo 16384 ;;
	*) echo 32768 ;;
	esac
}

scratch=$(mktemp -d /tmp/tcptune-fuzz.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

# Replay: every seed of corpus/<name>/ once as a plain input (the
# regression inputs ran just before). Deterministic: no mutation.
replay_one() {
	local name=$1 exe=$2 art=$3 rep=$4 f
	shift 4
	local inputs=()
	for f in tests/fuzz/corpus/"$name"/*; do
		[ -f "$f" ] && inputs+=("$f")
	done
	if [ ${#inputs[@]} -eq 0 ]; then
		echo "fuzz-$name: FAILED: no corpus in tests/fuzz/corpus/$name" >>"$rep"
		echo 1 >"$scratch/$name.status"
		return
	fi
	if ! "$exe" "$@" -artifact_prefix="$art/" "${inputs[@]}" \
	    >"$scratch/$name/replay.log" 2>&1; then
		cp "$scratch/$name/replay.log" "$art/replay.log"
		{
			echo "fuzz-$name: FAILED on a corpus input:"
			grep -E 'Running: |ERROR|SUMMARY|runtime error' \
			    "$art/replay.log" | tail -n 8
			echo "log: $art/replay.log"
		} >>"$rep"
		echo 1 >"$scratch/$name.status"
		return
	fi
	echo "fuzz-$name: ok, replayed ${#inputs[@]} corpus and" \
	    "$(find tests/fuzz/regress/"$name" -type f 2>/dev/null | wc -l)" \
	    "regression inputs" >>"$rep"
	echo 0 >"$scratch/$name.status"
}

# Run one harness; its report goes to $scratch/<name>.report, its status
# to $scratch/<name>.status.
run_one() {
	local name=$1 exe=$dir/fuzz/fuzz-$1 work=$scratch/$1 corpus
	local art=$dir/artifacts/$1 rep=$scratch/$1.report
	local flags=(-rss_limit_mb=2048 -timeout="$timeout" -max_len="$(max_len "$1")")
	local regress=() f status=0 execs cov

	corpus=$work/corpus
	[ -n "$keep" ] && corpus=$keep/$name
	mkdir -p "$work" "$corpus" "$art"
	if [ ! -x "$exe" ]; then
		echo "fuzz-$name: FAILED: no harness $exe" >"$rep"
		echo 1 >"$scratch/$name.status"
		return
	fi
	if [ -d "tests/fuzz/regress/$name" ]; then
		for f in tests/fuzz/regress/"$name"/*; do
			[ -f "$f" ] && regress+=("$f")
		done
	fi
	: >"$rep"
	if [ ${#regress[@]} -gt 0 ] &&
	    ! "$exe" "${flags[@]}" -artifact_prefix="$art/" "${regress[@]}" \
	    >"$work/regress.log" 2>&1; then
		{
			echo "fuzz-$name: FAILED on a regression input:"
			grep -E 'Running: |ERROR|SUMMARY|Test unit written' \
			    "$work/regress.log" | tail -n 8
			echo "log: $art/regress.log"
		} >>"$rep"
		cp "$work/regress.log" "$art/regress.log"
		echo 1 >"$scratch/$name.status"
		return
	fi
	if [ "$replay" = 1 ]; then
		replay_one "$name" "$exe" "$art" "$rep" "${flags[@]}"
		return
	fi
	for f in tests/fuzz/corpus/"$name"/* ${regress[@]+"${regress[@]}"}; do
		[ -f "$f" ] && cp "$f" "$corpus/"
	done
	"$exe" "${flags[@]}" -max_total_time="$seconds" -print_final_stats=1 \
	    -artifact_prefix="$art/" "$corpus" >"$work/fuzz.log" 2>&1 ||
	    status=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' \
	    "$work/fuzz.log" | tail -n 1)
	cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$work/fuzz.log" | tail -n 1)
	if [ "$status" = 0 ]; then
		echo "fuzz-$name: ok, ${execs:-?} execs in ${seconds}s," \
		    "${cov:-no coverage line}" >>"$rep"
		echo 0 >"$scratch/$name.status"
	else
		cp "$work/fuzz.log" "$art/fuzz.log"
		{
			echo "fuzz-$name: FAILED (exit $status), ${execs:-?}" \
			    "execs, ${cov:-no coverage line}"
			grep -E '^==[0-9]+==ERROR|^SUMMARY|runtime error|ALARM|out-of-memory|Test unit written' \
			    "$work/fuzz.log" | head -n 6
			echo "log: $art/fuzz.log"
		} >>"$rep"
		echo 1 >"$scratch/$name.status"
	fi
}

running=0
for name in "${names[@]}"; do
	run_one "$name" &
	running=$((running + 1))
	if [ "$running" -ge "$jobs" ]; then
		wait -n || true
		running=$((running - 1))
	fi
done
wait

passed=0
failed=0
for name in "${names[@]}"; do
	cat "$scratch/$name.report"
	if [ "$(cat "$scratch/$name.status" 2>/dev/null)" = 0 ]; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
	fi
done
echo "fuzz: $passed passed, $failed failed"
[ "$failed" = 0 ]
