#!/bin/bash
# probe-script.sh - the host CPU of the probe's program alone (issue 25): the
# program as tcptune sends it for a plan with no peer (the header, the
# prelude and lib/remote/probe.sh, as embedded: for a build dir, the
# embedded text it compiled in; for a git revision, the files at that
# revision), run by `sh -s` RUNS times inside lab host HOST, each REV in
# turn, ROUNDS rounds interleaved. CPU = user + sys of the children (bash's
# `times`), i.e. the shell and every process it starts, in ms per run; CPU
# time, not wall time, as the machine is shared (run it under nice -n 19).
#
# usage: bench/probe-script.sh LAB_DIR HOST [-n RUNS] [-r ROUNDS] SOURCE...
#   SOURCE: a build directory (its embedded/prelude.sh.c.txt and
#           embedded/probe.sh.c.txt when the scripts were embedded stripped,
#           else the tree's lib/remote files) or a git revision of this repo
#           (its files, stripped as cmake/embed.cmake does if it does)
# e.g.   nice -n 19 bench/probe-script.sh /tmp/p3a-lab lab01 -r 3 63a7166 build
set -euo pipefail

lab=${1:?usage: probe-script.sh LAB_DIR HOST [-n RUNS] [-r ROUNDS] SOURCE...}
h=${2:?usage: probe-script.sh LAB_DIR HOST [-n RUNS] [-r ROUNDS] SOURCE...}
shift 2
runs=100
rounds=3
while [[ ${1:-} == -[nr] ]]; do
	case $1 in
	-n) runs=$2 ;;
	-r) rounds=$2 ;;
	esac
	shift 2
done
src=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d /tmp/tcptune-probe-script.XXXXXX)
trap 'rm -rf "$work"' EXIT
header="TARGETS=''
ONLY=''
DROPIN='/etc/sysctl.d/90-tcptune.conf'
LINKS=''"

# The loop that runs inside the host: RUNS runs, then the children's CPU.
cat >"$work/loop.sh" <<'LOOP'
for ((i = 0; i < $2; i++)); do sh -s <"$1" >/dev/null; done
times >"$1.times"	# not in a pipe: a subshell's times are its own
tail -n 1 "$1.times"
LOOP

i=0
for s in "$@"; do
	i=$((i + 1))
	p=$work/prog$i
	if [[ -d $s && -f $s/embedded/probe.sh.c.txt ]]; then
		{ echo "$header"; cat "$s/embedded/prelude.sh.c.txt" "$s/embedded/probe.sh.c.txt"; } >"$p"
	elif [[ -d $s ]]; then
		{ echo "$header"; cat "$src/lib/remote/prelude.sh" "$src/lib/remote/probe.sh"; } >"$p"
	elif git -C "$src" show "$s:cmake/embed.cmake" | grep -q STRIP; then
		# a revision that embeds them stripped (cmake/embed.cmake's rule)
		{ echo "$header"; git -C "$src" show "$s:lib/remote/prelude.sh" "$s:lib/remote/probe.sh" |
		    sed -e '/^[[:space:]]*#/d' -e '/^[[:space:]]*$/d'; } >"$p"
	else
		{ echo "$header"; git -C "$src" show "$s:lib/remote/prelude.sh"; git -C "$src" show "$s:lib/remote/probe.sh"; } >"$p"
	fi
done

declare -A T
for ((r = 0; r < rounds; r++)); do
	for ((j = 1; j <= $#; j++)); do
		t=$("$src/tests/lab/lab.sh" exec -d "$lab" "$h" bash "$work/loop.sh" "$work/prog$j" "$runs")
		# "0m1.234s 0m0.456s": the children's user and sys
		ms=$(awk -v n="$runs" '{ split($1, a, "m"); split($2, b, "m");
		    printf "%.1f", (a[1] * 60 + a[2] + b[1] * 60 + b[2]) * 1000 / n }' <<<"$t")
		T[$j]="${T[$j]:-}$ms "
	done
done
echo "| source | program bytes | CPU per run (ms), $rounds x $runs runs |"
echo "| --- | --- | --- |"
j=0
for s in "$@"; do
	j=$((j + 1))
	echo "| $s | $(wc -c <"$work/prog$j") | ${T[$j]% } |"
done
