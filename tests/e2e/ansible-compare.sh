#!/bin/sh
# Compare `tcptune inventory` with `ansible-inventory` on every example and
# test inventory: --list as JSON with sorted keys (jq -S), --graph as text.
# Usage: ansible-compare.sh TCPTUNE_BINARY [SOURCE_DIR]
# Exit 77 (skipped) when ansible-inventory or jq is missing.
set -u
tcptune=${1:?usage: ansible-compare.sh TCPTUNE [SRC]}
src=${2:-${TCPTUNE_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}}

command -v ansible-inventory >/dev/null 2>&1 || {
	echo "ansible-inventory not installed: skipped"; exit 77; }
command -v jq >/dev/null 2>&1 || { echo "jq not installed: skipped"; exit 77; }

ex=$src/inventory-examples
good=$src/tests/data/inventory/good
# One line per comparison: the -i arguments (space separated, no spaces
# inside paths).
cases="$ex/fleet.yml
$ex/fleet.ini
$ex/fleet.yml -i $ex/fleet.ini
$good/ini-typing.ini
$good/nested.yml
$good/nested/inventory.yml
$good/multi/one.yml -i $good/multi/two.ini
$good/dir
$good/dir -i $good/nested/inventory.yml
$good/dynamic-shape.yml
web1,web2:2222,[2001:db8::5]:22,"

# Run from an empty directory: ansible-inventory also reads group_vars/
# next to its working directory (its "playbook dir").
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
export ANSIBLE_LOCAL_TEMP="$work/tmp" ANSIBLE_HOME="$work/home"

fails=0 n=0
echo "$cases" | while IFS= read -r c; do
	[ -n "$c" ] || continue
	args=$(echo "-i $c")
	n=$((n + 1))
	# shellcheck disable=SC2086
	if ! "$tcptune" inventory $args --list >"$work/ours.json" 2>"$work/ours.err"; then
		echo "FAIL [$c]: tcptune failed: $(cat "$work/ours.err")"
		echo x >>"$work/failed"
		continue
	fi
	# shellcheck disable=SC2086
	ansible-inventory $args --list >"$work/theirs.json" 2>"$work/theirs.err"
	if ! jq -S . "$work/ours.json" >"$work/a" ||
	    ! jq -S . "$work/theirs.json" >"$work/b" ||
	    ! diff -u "$work/b" "$work/a"; then
		echo "FAIL [$c]: --list differs (- ansible, + tcptune)"
		echo x >>"$work/failed"
		continue
	fi
	# shellcheck disable=SC2086
	"$tcptune" inventory $args --graph >"$work/a" 2>/dev/null
	# shellcheck disable=SC2086
	ansible-inventory $args --graph >"$work/b" 2>/dev/null
	if ! diff -u "$work/b" "$work/a"; then
		echo "FAIL [$c]: --graph differs (- ansible, + tcptune)"
		echo x >>"$work/failed"
		continue
	fi
	echo "ok   [$c]"
done
if [ -s "$work/failed" ]; then
	echo "$(wc -l <"$work/failed") inventories differ"
	exit 1
fi
echo "all inventories identical"
