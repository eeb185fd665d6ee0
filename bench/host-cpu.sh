#!/bin/bash
# host-cpu.sh - the CPU a lab host spends on one tcptune run (issue 25): for
# each TCPTUNE given, RUNS rounds of, on lab host HOST,
#   ssh_true     `ssh HOST true` (OpenSSH): the session's own cost, the floor
#   probe        tcptune probe -l HOST
#   apply        tcptune play playbooks/wan-tuning.yml --skip-tags verify
#                -e rtt_ms=100 -l HOST on the stock host (become: sudo too)
#   apply_again  the same right after: nothing to change
# (the host rolled back after each round with playbooks/rollback.yml, not
# measured), each measured as the task-clock of the host's sshd and
# everything it forks (perf stat -p with inheritance: the session, sudo, the
# shell and its tools), printed as the mean ms per run.
#
# usage: bench/host-cpu.sh LAB_DIR HOST [-r RUNS] TCPTUNE...   (root, perf)
# e.g.   bench/host-cpu.sh /tmp/tcptune-bench lab001 -r 10 build/tcptune
set -euo pipefail

lab=${1:?usage: host-cpu.sh LAB_DIR HOST [-r RUNS] TCPTUNE...}
h=${2:?usage: host-cpu.sh LAB_DIR HOST [-r RUNS] TCPTUNE...}
shift 2
runs=10
if [[ ${1:-} == -r ]]; then
	runs=$2
	shift 2
fi
command -v perf >/dev/null || { echo "host-cpu.sh: perf is not installed (Debian: linux-perf)" >&2; exit 1; }
src=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck disable=SC1091
. "$lab/lab.env"
pid=$(<"$lab/hosts/$h/sshd.pid")
work=$(mktemp -d /tmp/tcptune-host-cpu.XXXXXX)
trap 'rm -rf "$work"' EXIT
C=(-i "$LAB_INVENTORY" --known-hosts "$LAB_KNOWN_HOSTS" --no-color -l "$h")
PB=("$src/playbooks/wan-tuning.yml" --skip-tags verify -e rtt_ms=100)
# rollback.yml's serial: 1 only slows a fleet down; one host here.
sed '/serial: 1/d' "$src/playbooks/rollback.yml" >"$work/rollback.yml"

declare -A T
# m NAME CMD... : one run of CMD; the host's CPU for it added to T[NAME].
m() {
	local k=$1 v
	shift
	perf stat -e task-clock -p "$pid" -x, -o "$work/stat" -- "$@" \
	    >"$work/out" 2>&1 || { echo "host-cpu.sh: $k failed:" >&2; tail -n 5 "$work/out" >&2; exit 1; }
	v=$(awk -F, '/task-clock/ { print $1 }' "$work/stat")
	T[$k]=$(awk -v a="${T[$k]:-0}" -v b="$v" 'BEGIN { print a + b }')
}

echo "| tcptune | runs | ssh true (ms) | probe (ms) | apply (ms) | apply again (ms) | probe - ssh true | apply - ssh true |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
for tt in "$@"; do
	T=()
	for ((i = 0; i < runs; i++)); do
		m ssh_true ssh -F "$LAB_SSH_CONFIG" "$h" true
		m probe "$tt" probe "${C[@]}"
		m apply "$tt" play "${C[@]}" "${PB[@]}"
		grep -q 'changed=[1-9]' "$work/out" ||
		    { echo "host-cpu.sh: the apply changed nothing (host not stock?)" >&2; exit 1; }
		m apply_again "$tt" play "${C[@]}" "${PB[@]}"
		"$tt" play "${C[@]}" "$work/rollback.yml" >"$work/rb" 2>&1 ||
		    { echo "host-cpu.sh: rollback failed:" >&2; tail -n 5 "$work/rb" >&2; exit 1; }
	done
	awk -v tt="$tt" -v n="$runs" -v s="${T[ssh_true]}" -v p="${T[probe]}" \
	    -v a="${T[apply]}" -v g="${T[apply_again]}" 'BEGIN {
		printf "| %s | %d | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f |\n",
		    tt, n, s / n, p / n, a / n, g / n, (p - s) / n, (a - s) / n }'
done
