#!/bin/bash
# close-fds-test.sh - close_inherited_fds (tests/lab/close-fds.sh, sourced by
# lab.sh and regions.sh) closes every inherited descriptor above 2 and leaves
# 0, 1 and 2 as they were: its first version left stderr on /dev/null for
# the rest of the script, and every error of lab.sh went unsaid.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
failed=0
check() {
	if [[ $2 == "$3" ]]; then
		echo "ok: $1"
	else
		echo "FAIL: $1: expected '$3', got '$2'"
		failed=1
	fi
}
# The script under test: inherits fds 7 and 12, closes them, then writes to
# stderr and lists what is open.
cat >"$t/s.sh" <<EOS
set -euo pipefail
. "$HERE/close-fds.sh"
close_inherited_fds
echo "to stderr" >&2
# One command, its output a file: a pipeline's pipes are the shell's own
# descriptors for a moment, and ls could list one of them.
ls /proc/\$\$/fd >"$t/fds"
EOS
bash "$t/s.sh" 7>"$t/seven" 12</dev/null 2>"$t/err"
check "the script ran to its end" "$?" 0
check "stderr still goes where it went" "$(cat "$t/err")" "to stderr"
check "only 0 1 2 (and bash's script fd 255) are open after it" \
    "$(grep -Ev '^(0|1|2|255)$' "$t/fds" | paste -sd' ')" ""
exit "$failed"
