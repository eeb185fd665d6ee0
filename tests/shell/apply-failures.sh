#!/bin/bash
# apply-failures.sh - lib/remote/apply.sh under dash, in a temporary root, when a
# step fails: a missing or unreadable backup, a read-only directory, a full
# filesystem (a small tmpfs, as root only), a module name that is a glob, a
# modules-load.d that cannot be written. After each, the managed files are
# byte-identical to before and the script's output says what failed (the
# exact lines, which lib/remote/apply.c turns into a failed task); it never says
# "restored", "removed", "written" or "persisted" for a step that failed.
# shellcheck source=tests/shell/lib.sh
. "$(dirname "$0")/lib.sh"
sh_init apply-failures

# The contents, each written with a final newline.
OLD=$'# the host\'s own\ntcptune.test.a = 1'
NEW1=$'# tcptune\ntcptune.test.a = 5'
NEW2=$'# tcptune\ntcptune.test.a = 6'

key() {
	cat "$R/proc/sys/tcptune/test/$1"
}

# A root whose FILE held OLD and now holds NEW1, with its first backup.
applied() {
	new_root "$1"
	printf '%s\n' "$OLD" >"$FILE"
	run_apply apply <<<"$NEW1"
	if [ "$(key a)" != 5 ] || ! grep -qx status=written <<<"$OUT"; then
		fail "$1: the apply before the test did not write"
		show "	| " "$OUT"
	fi
}

# No temp file left beside FILE.
no_temp() {
	assert_eq "$1: no temp file left" "" \
	    "$(cd "${FILE%/*}" && find . -maxdepth 1 -name '.90-tcptune.conf.*')"
}

# ---- check mode reads the new file's keys from INPUT (stdin is the
# program: a check that read its stdin showed "?" for every live value)
new_root check
printf '%s\n' "$OLD" >"$FILE"
keep "$FILE"
run_apply check <<<"$NEW1"
assert_block "check: each key of the new file, its live value, no write" \
    $'@key tcptune.test.a\nwant=5\nbefore=1\nlive=1'
same "$FILE" "check: the file"
assert_eq "check: the live value untouched" 1 "$(key a)"

# ---- the normal paths, for contrast
applied normal
keep "$FILE"
run_apply rollback
assert_block "rollback: the file restored" $'@rollback\nfile=restored'
assert_block "rollback: the status" $'@rollback\nstatus=restored\n@done'
assert_file "rollback: the file is the host's own" "$FILE" "$OLD"
assert_eq "rollback: the live value" 1 "$(key a)"

applied normal-previous
run_apply apply <<<"$NEW2"
run_apply rollback previous
assert_block "rollback previous: the file restored" $'@rollback\nfile=restored'
assert_file "rollback previous: the file" "$FILE" "$NEW1"
assert_eq "rollback previous: the live value" 5 "$(key a)"

# ---- a program cut short (a connection lost while it was sent) runs nothing:
# the brace group around it never closes, and sh refuses it as a whole. Cut
# in the header, in the middle, and just before the last "}".
whole_program() {
	braced "$APPLY_SH" MODE=apply FILE="$FILE" STATE="$STATE" QDISC= \
	    DEV= TXQ=0 MODULES= ROUTE= PROBE= PERSIST= TO= INPUT="$NEW2"$'\n'
}
applied cut
keep "$FILE"
len=$(whole_program | wc -c)
for n in 200 $((len / 2)) $((len - 2)); do
	# shellcheck disable=SC2016 # $(cat) is for the dash it starts
	OUT=$(cd "$R" && whole_program | head -c "$n" |
	    TCPTUNE_TEST_ROOT=$R dash -c 'eval "$(cat)"' tcptune-apply \
	    2>"$R/err")
	assert_eq "cut at $n of $len bytes: no output" "" "$OUT"
	assert_eq "cut at $n of $len bytes: sh refused it" 1 \
	    "$(grep -c 'tcptune-apply: .*Syntax error' "$R/err")"
	same "$FILE" "cut at $n of $len bytes: $FILE"
	assert_eq "cut at $n of $len bytes: the live value" 5 "$(key a)"
done

# ---- a missing backup: the file stays, the backup stays for a retry
applied missing-orig
rm "$B/orig"
keep "$FILE"
run_apply rollback
assert_block "missing backup: reported" $'@rollback\nerror=cannot restore '"$FILE from $B/orig: No such file or directory"$'\nstatus=failed\n@done'
assert_no_line "missing backup: not 'removed'" "file=removed"
same "$FILE" "missing backup: $FILE"
assert_eq "missing backup: the live value stays" 5 "$(key a)"
assert_eq "missing backup: the backup is kept" yes "$([ -d "$B" ] && echo yes)"

# ---- an unreadable backup (a directory: unreadable as a file, even to root)
applied orig-dir
rm "$B/orig" && mkdir "$B/orig"
keep "$FILE"
run_apply rollback
assert_block "backup is a directory: reported" $'@rollback\nerror=cannot restore '"$FILE from $B/orig: Is a directory"$'\nstatus=failed\n@done'
same "$FILE" "backup is a directory: $FILE"
no_temp "backup is a directory"

if [ -z "$IS_ROOT" ]; then
	applied orig-0000
	chmod 0000 "$B/orig"
	keep "$FILE"
	run_apply rollback
	assert_block "unreadable backup: reported" $'@rollback\nerror=cannot restore '"$FILE from $B/orig: Permission denied"$'\nstatus=failed\n@done'
	same "$FILE" "unreadable backup: $FILE"
	no_temp "unreadable backup"
fi

applied previous-dir
run_apply apply <<<"$NEW2"
rm "$B/previous" && mkdir "$B/previous"
keep "$FILE"
run_apply rollback previous
assert_block "previous is a directory: reported" $'@rollback\nerror=cannot restore '"$FILE from $B/previous: Is a directory"$'\nstatus=failed\n@done'
same "$FILE" "previous is a directory: $FILE"
assert_eq "previous is a directory: the live value stays" 6 "$(key a)"

# ---- a read-only directory
applied rollback-ro
keep "$FILE"
read_only "${FILE%/*}"
run_apply rollback
assert_block "rollback, read-only dir: reported" $'@rollback\nerror=cannot restore '"$FILE from $B/orig: $RO_REASON"$'\nstatus=failed\n@done'
same "$FILE" "rollback, read-only dir: $FILE"
assert_eq "rollback, read-only dir: the live value stays" 5 "$(key a)"

new_root rollback-absent-ro
run_apply apply <<<"$NEW1"
keep "$FILE"
read_only "${FILE%/*}"
run_apply rollback
assert_block "rollback to no file, read-only dir: reported" $'@rollback\nerror=cannot remove '"$FILE: $RO_REASON"$'\nstatus=failed\n@done'
same "$FILE" "rollback to no file, read-only dir: $FILE"

new_root apply-ro
printf '%s\n' "$OLD" >"$FILE"
keep "$FILE"
read_only "${FILE%/*}"
run_apply apply <<<"$NEW1"
assert_block "apply, read-only dir: reported" $'@write\nerror=cannot create a temp file in '"${FILE%/*}: $RO_REASON"$'\n@done'
same "$FILE" "apply, read-only dir: $FILE"
assert_eq "apply, read-only dir: the live value" 1 "$(key a)"

new_root state-ro
printf '%s\n' "$OLD" >"$FILE"
mkdir -p "$STATE/backup"
keep "$FILE"
read_only "$STATE/backup"
run_apply apply <<<"$NEW1"
assert_block "apply, read-only state: reported" $'@write\nerror=cannot save a backup in '"$B: $RO_REASON"$'\n@done'
same "$FILE" "apply, read-only state: $FILE"
no_temp "apply, read-only state"
assert_eq "apply, read-only state: the live value" 1 "$(key a)"

# ---- a full filesystem
if [ -n "$IS_ROOT" ]; then
	new_root apply-full
	small_tmpfs "${FILE%/*}"
	printf '%s\n' "$OLD" >"$FILE"
	fill "${FILE%/*}" 0
	keep "$FILE"
	run_apply apply <<<"$NEW1"
	assert_block "apply, full fs: reported" $'@write\nerror=cannot write a temp file in '"${FILE%/*}: No space left on device"$'\n@done'
	same "$FILE" "apply, full fs: $FILE"
	no_temp "apply, full fs"
	assert_eq "apply, full fs: the live value" 1 "$(key a)"

	new_root rollback-full
	small_tmpfs "${FILE%/*}"
	printf '%s\n' "$OLD" >"$FILE"
	run_apply apply <<<"$NEW1"
	fill "${FILE%/*}" 0
	keep "$FILE"
	run_apply rollback
	assert_block "rollback, full fs: reported" $'@rollback\nerror=cannot restore '"$FILE from $B/orig: No space left on device"$'\nstatus=failed\n@done'
	same "$FILE" "rollback, full fs: $FILE"
	no_temp "rollback, full fs"

	new_root previous-full
	small_tmpfs "${FILE%/*}"
	printf '%s\n' "$OLD" >"$FILE"
	run_apply apply <<<"$NEW1"
	run_apply apply <<<"$NEW2"
	fill "${FILE%/*}" 0
	keep "$FILE"
	run_apply rollback previous
	assert_block "rollback previous, full fs: reported" $'@rollback\nerror=cannot restore '"$FILE from $B/previous: No space left on device"$'\nstatus=failed\n@done'
	same "$FILE" "rollback previous, full fs: $FILE"
	assert_eq "rollback previous, full fs: the live value stays" 6 "$(key a)"

	new_root state-full
	printf '%s\n' "$OLD" >"$FILE"
	mkdir -p "$STATE/backup"
	small_tmpfs "$STATE/backup"
	fill "$STATE/backup" 0
	keep "$FILE"
	run_apply apply <<<"$NEW1"
	assert_block "apply, full state: reported" $'@write\nerror=cannot save a backup in '"$B: No space left on device"$'\n@done'
	same "$FILE" "apply, full state: $FILE"
	assert_eq "apply, full state: no half backup" "" \
	    "$(find "$STATE/backup" -mindepth 1 -maxdepth 1 ! -name .fill)"

	# The kernel refuses key b after a took the last free page: the undo
	# cannot put the previous file back. It must say so, not "restored".
	new_root undo-full
	small_tmpfs "${FILE%/*}"
	: >"${FILE%/*}/.key-a"
	ln -sf "${FILE%/*}/.key-a" "$R/proc/sys/tcptune/test/a"
	rm "$R/proc/sys/tcptune/test/b" && mkdir "$R/proc/sys/tcptune/test/b"
	printf '%s\n' "$OLD" >"$FILE"
	fill "${FILE%/*}" 1
	keep "$FILE"
	run_apply apply <<<$'tcptune.test.a = 5\ntcptune.test.b = 7'
	assert_block "undo, full fs: reported" $'@undo\nerror=cannot put back the previous '"$FILE: No space left on device"$'\nstatus=failed\n@done'
	assert_no_line "undo, full fs: not 'restored'" "file=restored"
	assert_eq "undo, full fs: the value of a put back" "" "$(key a)"
else
	echo "skip: the full filesystem cases need root (a tmpfs)"
fi

# ---- modules: names are words, never globs; the file is the system's mode
new_root modules-glob
MODULES='tcp_*'
: >"$R/tcp_evil"
run_apply apply </dev/null
assert_block "module glob: refused" $'@module tcp_*\nerror=refused module name \'tcp_*\' (only letters, digits, \'_\' and \'-\')'
assert_eq "module glob: modprobe not run" "" "$(cat "$R/calls")"
assert_eq "module glob: not persisted" absent "$([ -e "$CONF" ] || echo absent)"

new_root modules
MODULES='tcp_bbr  sch_fq'
run_apply apply </dev/null
assert_block "modules: loaded and persisted" $'@module tcp_bbr\nloaded=1\npersisted=1\n@module sch_fq\nloaded=1\npersisted=1'
assert_eq "modules: modprobe" $'modprobe -- tcp_bbr\nmodprobe -- sch_fq' "$(cat "$R/calls")"
assert_eq "modules: $CONF" $'tcp_bbr\nsch_fq' "$(cat "$CONF")"
assert_eq "modules: $CONF mode" 644 "$(stat -c %a "$CONF")"

# A rollback leaves modules-load.d as it was before tcptune: no file when
# there was none, the same bytes when there was one.
new_root modules-rollback
MODULES=tcp_bbr
run_apply apply <<<"$NEW1"
assert_eq "modules, rollback: persisted by the apply" tcp_bbr "$(cat "$CONF")"
run_apply rollback
assert_line "modules, rollback: restored" "status=restored"
assert_eq "modules, rollback: $CONF removed (there was none)" absent \
    "$([ -e "$CONF" ] || echo absent)"

new_root modules-rollback-kept
MODULES=tcp_bbr
mkdir -p "${CONF%/*}"
echo sch_fq >"$CONF"
chmod 0640 "$CONF"
keep "$CONF"
run_apply apply <<<"$NEW1"
assert_eq "modules, rollback over a file: added" $'sch_fq\ntcp_bbr' "$(cat "$CONF")"
run_apply rollback
assert_line "modules, rollback over a file: restored" "status=restored"
same "$CONF" "modules, rollback over a file: $CONF"
assert_eq "modules, rollback over a file: mode kept" 640 "$(stat -c %a "$CONF")"

new_root modules-ro
MODULES=tcp_bbr
mkdir -p "${CONF%/*}"
echo sch_fq >"$CONF"
keep "$CONF"
read_only "${CONF%/*}"
run_apply apply </dev/null
assert_block "modules, read-only dir: reported" $'@module tcp_bbr\nloaded=1\nerror=cannot persist tcp_bbr in '"$CONF: $RO_REASON"
assert_no_line "modules, read-only dir: not 'persisted'" "persisted=1"
same "$CONF" "modules, read-only dir: $CONF"

new_root modules-notdir
MODULES=tcp_bbr
mkdir -p "$R/etc"
: >"${CONF%/*}"
run_apply apply </dev/null
assert_block "modules, no directory: reported" $'@module tcp_bbr\nloaded=1\nerror=cannot persist tcp_bbr in '"$CONF: File exists"
assert_no_line "modules, no directory: not 'persisted'" "persisted=1"

# ---- the unit that keeps the route: enabling it can fail too
new_root route-unit
stub ip 'case "$*" in
"route show default") echo "default via 192.0.2.1 dev eth9" ;;
"route change default via 192.0.2.1 dev eth9 initcwnd 10") ;;
*) exit 1 ;;
esac'
ROUTE='initcwnd 10'
PERSIST=unit
mkdir -p "${UNIT%/*}/multi-user.target.wants"
read_only "${UNIT%/*}/multi-user.target.wants"
run_apply apply </dev/null
assert_block "route unit, wants not writable: reported" $'@route\nlive=default via 192.0.2.1 dev eth9\npersisted='"$UNIT"$'\nerror=cannot enable '"$UNIT: $RO_REASON"
assert_eq "route unit: its mode" 644 "$(stat -c %a "$UNIT")"
assert_eq "route unit: the route set through the stub" \
    "ip route change default via 192.0.2.1 dev eth9 initcwnd 10" \
    "$(grep -x 'ip route change.*' "$R/calls")"

# ---- a key never leads out of /proc/sys (a guard: '.' always separates)
new_root key-escape
echo 0 >"$R/escape"
run_apply apply <<<$'tcptune/../../../escape = 1\ntcptune.//.//.//.escape = 2'
assert_block "key with '/..': no such key" $'@key tcptune/../../../escape\nwant=1\nerror=no such key on this kernel'
assert_block "key with '//' parts: no such key" $'@key tcptune.//.//.//.escape\nwant=2\nerror=no such key on this kernel'
assert_eq "key escape: the file outside /proc/sys" 0 "$(cat "$R/escape")"

sh_finish
