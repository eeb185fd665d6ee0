#!/bin/sh
# check-lab-prefixes.sh - no two labs share a name prefix or an address net.
#
# Every lab of the tests, the demo and the benches is named by a prefix (its
# namespaces, veths and bridge: PREFIX-h1, PREFIXbr...) and addressed in a
# 198.18/15 net. Two labs with the same prefix or net tear each other down or
# answer each other's addresses when they run at once (a demo beside a test
# run, `ctest -j`, a helper's run): guests-diag and the demo both used tgd
# once. This lists every literal prefix and net passed to e2e_lab_up,
# wan_lab_up, fleet_wan_lab_up, guests_up, or to lab.sh/guests.sh up
# (-p PREFIX -a NET) and fails, naming both files and lines, when one is
# used by two files (a file may reuse its own).
#
# Usage: scripts/check-lab-prefixes.sh [SOURCE_DIR]
set -eu
cd "${1:-$(dirname "$0")/..}"

# file:line kind value, one per prefix and net found
found=$(grep -nE '^[[:space:]]*(e2e_lab_up|wan_lab_up|fleet_wan_lab_up|guests_up)[[:space:]]|[[:space:]]up[[:space:]].*-p[[:space:]]+[a-z0-9]+[[:space:]].*-a[[:space:]]+198\.' \
    tests/e2e/*.sh tests/lab/*.sh tests/guests/*.sh scripts/*.sh bench/*.sh \
    2>/dev/null | awk '
	{
		where = $1; sub(/:[^:]*$/, "", where)	# file:line
		split($0, a, /:/); line = $0; sub(/^[^:]*:[^:]*:/, "", line)
		n = split(line, w, /[[:space:]]+/)
		prefix = ""; net = ""
		for (i = 1; i <= n; i++) {
			if (w[i] == "-p" && i < n) prefix = w[i + 1]
			if (w[i] == "-a" && i < n) net = w[i + 1]
			if (w[i] ~ /^(e2e_lab_up|guests_up|fleet_wan_lab_up)$/) {
				prefix = w[i + 2]; net = w[i + 3]
			}
			if (w[i] == "wan_lab_up") {
				prefix = w[i + 1]; net = w[i + 2]
			}
			if (w[i] == "--private" && i < n)
				print where, "net", w[i + 1]
		}
		if (prefix ~ /^[a-z][a-z0-9]*$/) print where, "prefix", prefix
		if (net ~ /^198\.1[89]\.[0-9]+$/) print where, "net", net
	}')

echo "$found" | awk '
	NF == 3 {
		file = $1; sub(/:[0-9]+$/, "", file)
		key = $2 " " $3
		if (key in first && first_file[key] != file) {
			printf "%s: lab %s %s is also used by %s\n", $1, $2, $3, \
			    first[key]
			bad = 1
		} else if (!(key in first)) {
			first[key] = $1; first_file[key] = file
		}
		if ($2 == "prefix") labs++
	}
	END {
		if (labs == 0) { print "check-lab-prefixes: no lab found"; exit 1 }
		if (bad) exit 1
		printf "check-lab-prefixes: %d labs, no prefix or net shared\n", labs
	}'
