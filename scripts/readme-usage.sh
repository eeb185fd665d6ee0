#!/bin/sh
# README.md's "## Usage" block is generated from the command table: the
# first fenced block after the "## Usage" heading is exactly what
# `tcptune __doc readme` prints (cmd/tcptune/help.c).
#   scripts/readme-usage.sh TCPTUNE [README]          rewrite the block
#   scripts/readme-usage.sh --check TCPTUNE [README]  exit 1, with a diff,
#                                                     when it differs
# The lint/readme-usage test runs --check.
set -eu
check=0
if [ "${1:-}" = --check ]; then
	check=1
	shift
fi
tcptune=${1:?usage: readme-usage.sh [--check] TCPTUNE [README]}
readme=${2:-$(dirname "$0")/../README.md}
gen=$(mktemp)
new=$(mktemp)
trap 'rm -f "$gen" "$new"' EXIT
"$tcptune" __doc readme >"$gen"
# Replace the lines between the first ``` after "## Usage" and its closing
# ``` with the generated text.
awk -v gen="$gen" '
	state == 0 && /^## Usage$/ { state = 1 }
	state == 1 && /^```/ { print; while ((getline l < gen) > 0) print l
		state = 2; next }
	state == 2 { if (/^```/) { state = 3; print } ; next }
	{ print }
	END { if (state != 3) exit 1 }
' "$readme" >"$new" || {
	echo "readme-usage.sh: no fenced block after '## Usage' in $readme" >&2
	exit 1
}
if [ $check = 1 ]; then
	if ! diff -u "$readme" "$new"; then
		echo "readme-usage.sh: $readme's usage block is not what" \
		    "'tcptune __doc readme' prints; run scripts/readme-usage.sh" \
		    "build/tcptune" >&2
		exit 1
	fi
	echo "readme-usage.sh: $readme's usage block is up to date"
	exit 0
fi
cat "$new" >"$readme"
