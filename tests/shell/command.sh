#!/bin/bash
# command.sh - lib/remote/command.sh (the guard of a command/shell task's
# chdir, creates and removes) under dash, on a line built as
# lib/remote/command.c builds it: the three inputs quoted, the guard, then
# the command. Into chdir first (errno 2 or 20 when it cannot, the
# command not run), creates and removes as globs relative to it, ~ as
# HOME, a pattern's quotes and $() never run, and the command running in
# chdir after "@run" with its own output after that line.
# shellcheck source=tests/shell/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
sh_init command
GUARD_SH=$SH_SRC/lib/remote/command.sh
D=$SH_TMP/d
mkdir -p "$D/sub" "$SH_TMP/home"
echo x >"$D/there.txt"
echo x >"$D/plain"
ln -s /nonexistent "$D/dangling"

# guarded CHDIR CREATES REMOVES BODY: the line, run by dash as sshd runs a
# command (LOGIN-SHELL -c LINE); OUT its stdout, RC its status.
guarded() {
	local line
	line="TCPTUNE_CHDIR=$(sh_words "$1")
TCPTUNE_CREATES=$(sh_words "$2")
TCPTUNE_REMOVES=$(sh_words "$3")
$(cat "$GUARD_SH")
$4"
	OUT=$(cd "$SH_TMP" && HOME=$SH_TMP/home dash -c "$line" 2>"$SH_TMP/err")
	RC=$?
}

guarded "" "$D/there.*" "" "echo ran"
assert_eq "creates matching a glob: not run" \
    $'tcptune-command 1\n@skip\nwhy=creates\n@done' "$OUT"
assert_eq "creates: exit 0" 0 "$RC"

guarded "" "$D/nothing*" "" "echo ran"
assert_eq "creates matching nothing: run, its output after @run" \
    $'tcptune-command 1\n@run\nran' "$OUT"

guarded "" "$D/dangling" "" "echo ran"
assert_eq "creates: a dangling link exists (glob.glob's lexists)" \
    $'tcptune-command 1\n@skip\nwhy=creates\n@done' "$OUT"

guarded "" "" "$D/nothing*" "echo ran"
assert_eq "removes matching nothing: not run" \
    $'tcptune-command 1\n@skip\nwhy=removes\n@done' "$OUT"

guarded "" "" "$D/pl[a-z]in" "echo ran"
assert_eq "removes matching: run" $'tcptune-command 1\n@run\nran' "$OUT"

guarded "" "$D/nothing" "$D/nothing" "echo ran"
assert_eq "creates first, then removes" \
    $'tcptune-command 1\n@skip\nwhy=removes\n@done' "$OUT"

guarded "$D" "there.txt" "" "echo ran"
assert_eq "a relative creates is in chdir" \
    $'tcptune-command 1\n@skip\nwhy=creates\n@done' "$OUT"

guarded "$D/sub" "" "" "pwd"
assert_eq "the command runs in chdir" $'tcptune-command 1\n@run\n'"$D/sub" \
    "$OUT"

guarded "$D/nope" "" "" "echo ran"
assert_eq "chdir missing: errno 2, not run" \
    $'tcptune-command 1\n@chdir\nerrno=2\n@done' "$OUT"
assert_eq "chdir missing: exit 1" 1 "$RC"

guarded "$D/plain" "" "" "echo ran"
assert_eq "chdir a file: errno 20" \
    $'tcptune-command 1\n@chdir\nerrno=20\n@done' "$OUT"

echo x >"$SH_TMP/home/made"
# shellcheck disable=SC2088 # the ~ is the guard's to expand
guarded "" "~/made" "" "echo ran"
assert_eq "a leading ~ is HOME" \
    $'tcptune-command 1\n@skip\nwhy=creates\n@done' "$OUT"
guarded "~" "made" "" "pwd"
assert_eq "chdir ~ is HOME" \
    $'tcptune-command 1\n@skip\nwhy=creates\n@done' "$OUT"

guarded "" "$D/x \$(touch $SH_TMP/pwned)'\"*" "" "echo ran"
assert_eq "a pattern's \$() and quotes are data" \
    $'tcptune-command 1\n@run\nran' "$OUT"
assert_eq "and nothing ran of it" no "$([ -e "$SH_TMP/pwned" ] && echo yes || echo no)"

echo x >"$D/a b.txt"
echo x >"$D/b"
guarded "$D" "a b*" "" "echo ran"
assert_eq "a pattern with a space is one pattern" \
    $'tcptune-command 1\n@skip\nwhy=creates\n@done' "$OUT"
guarded "$D" "" "c b" "echo ran"
assert_eq "and is not split into words" \
    $'tcptune-command 1\n@skip\nwhy=removes\n@done' "$OUT"

guarded "" "" "" "echo out; echo err >&2; exit 3"
assert_eq "the command's status is the line's" 3 "$RC"
assert_eq "its stderr is its own" "err" "$(cat "$SH_TMP/err")"

guarded "$D" "nothing" "" ""
assert_eq "check mode (no command): the guard alone says it would run" \
    $'tcptune-command 1\n@run' "$OUT"
assert_eq "and the line exits 0" 0 "$RC"

sh_finish
