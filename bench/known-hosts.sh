#!/bin/bash
# known-hosts.sh - controller CPU of `tcptune probe` against a lab when the
# known_hosts lists a whole fleet, hashed (Debian's HashKnownHosts yes).
#
# For each TCPTUNE given, probes every host of the lab (-f = the lab's size,
# strict host keys) RUNS times with each of two known_hosts files and prints
# the median wall time and controller CPU (user + sys, /usr/bin/time):
#   small  the lab's own lines, hashed by ssh-keygen -H
#   big    LINES hashed lines of other hosts (random ed25519 keys), then the
#          lab's own lines: every file line is hashed
# and the ratio big / small of the CPU. The connect timeout is 120 s: when
# libssh read the file inside ssh_connect (before known_hosts was read once
# per run), 20,000 hashed lines took 50 hosts on a loaded 2-core machine
# past the default 10 s.
#
# usage: bench/known-hosts.sh LAB_DIR [-l LINES] [-r RUNS] TCPTUNE...
# e.g.   tests/lab/lab.sh up -n 50 -p hfc -a 198.19 -d /tmp/h-fleetcost-lab
#        bench/known-hosts.sh /tmp/h-fleetcost-lab OLD/tcptune build/tcptune
set -euo pipefail

lab=${1:?usage: known-hosts.sh LAB_DIR [-l LINES] [-r RUNS] TCPTUNE...}
shift
lines=20000
runs=3
while [[ $# -gt 0 && $1 == -* ]]; do
	case $1 in
	-l) lines=$2; shift 2 ;;
	-r) runs=$2; shift 2 ;;
	*) echo "known-hosts.sh: unknown option $1" >&2; exit 1 ;;
	esac
done
[[ $# -ge 1 ]] || { echo "known-hosts.sh: no TCPTUNE given" >&2; exit 1; }
for t in ssh-keygen python3 /usr/bin/time; do
	command -v "$t" >/dev/null || { echo "known-hosts.sh: needs $t" >&2; exit 1; }
done
# shellcheck source=/dev/null
. "$lab/lab.env"
work=$(mktemp -d /tmp/tcptune-known-hosts.XXXXXX)
trap 'rm -rf "$work"' EXIT

cp "$LAB_KNOWN_HOSTS" "$work/small"
ssh-keygen -q -H -f "$work/small" >/dev/null 2>&1
python3 - "$lines" >"$work/big" <<'EOF'
import base64, os, struct, sys
for i in range(int(sys.argv[1])):
    blob = (struct.pack(">I", 11) + b"ssh-ed25519" +
            struct.pack(">I", 32) + os.urandom(32))
    print("h%05d.fleet.example ssh-ed25519 %s" %
          (i, base64.b64encode(blob).decode()))
EOF
cat "$LAB_KNOWN_HOSTS" >>"$work/big"
ssh-keygen -q -H -f "$work/big" >/dev/null 2>&1
if grep -qv '^|1|' "$work/big" "$work/small"; then
	echo "known-hosts.sh: ssh-keygen -H left lines unhashed" >&2
	exit 1
fi

# median of the arguments
median() { printf '%s\n' "$@" | sort -g | sed -n "$(( ($# + 1) / 2 ))p"; }

printf '| tcptune | known_hosts | wall s | CPU s | CPU ms/host |\n'
printf '| --- | --- | --- | --- | --- |\n'
for tt in "$@"; do
	declare -A cpu=()
	for kh in small big; do
		walls=() cpus=()
		for ((r = 0; r < runs; r++)); do
			/usr/bin/time -o "$work/time" -f '%e %U %S' "$tt" probe \
			    -i "$LAB_INVENTORY" --known-hosts "$work/$kh" \
			    --no-color -f "$LAB_N" --timeout 120 >"$work/out" 2>&1 || {
				echo "known-hosts.sh: $tt probe failed:" >&2
				tail -n 5 "$work/out" >&2
				exit 1
			}
			read -r w u s <"$work/time"
			walls+=("$w")
			cpus+=("$(echo "$u + $s" | bc)")
		done
		cpu[$kh]=$(median "${cpus[@]}")
		printf '| %s | %s (%s lines) | %s | %s | %.1f |\n' "$tt" "$kh" \
		    "$(wc -l <"$work/$kh")" "$(median "${walls[@]}")" \
		    "${cpu[$kh]}" "$(echo "${cpu[$kh]} * 1000 / $LAB_N" | bc -l)"
	done
	printf '| %s | big / small | | %.2f | |\n' "$tt" \
	    "$(echo "${cpu[big]} / ${cpu[small]}" | bc -l)"
	unset cpu
done
