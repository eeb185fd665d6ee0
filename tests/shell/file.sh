#!/bin/bash
# file.sh - lib/remote/file.sh (the host's part of template, copy,
# lineinfile, file and stat) under dash in a fake root: read shows a
# file's kind, mode, ids, cksum, sha1 and text (a last line without a
# newline said), a link (followed or not), a missing file and its
# directory; write refuses a file changed since it was read, writes the
# new text atomically (a new file 0644, an existing file's mode kept, the
# mode asked for set before the rename, no temp file left, through a
# followed link), runs validate on the temp file and leaves the file as it
# was when it fails, backs up first, creates missing directories, and
# does the file module's mkdir (each new directory its mode), rm, link
# (replacing a link) and touch.
# shellcheck source=tests/shell/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
sh_init file
FILE_SH=$SH_SRC/lib/remote/file.sh

# run_file MODE [NAME=VALUE...]: the script as tcptune calls it, every
# input given (those after MODE override the defaults).
run_file() {
	local mode=$1
	shift
	OUT=$(cd "$R" && TCPTUNE_TEST_ROOT=$R call file "$FILE_SH" \
	    MODE="$mode" DEST=/etc/t/f FOLLOW=0 TEXT=0 CONTENT=0 SUM=absent \
	    FMODE= OWNER= GROUP= BACKUP=0 VALIDATE= MKDIRS=0 ACTION= SRC= "$@")
}

f_root() {
	new_root "$1"
	mkdir -p "$R/etc/t"
	printf 'a\nb' >"$R/etc/t/f"
	chmod 0640 "$R/etc/t/f"
	SUM=$(cksum <"$R/etc/t/f")
}

temps() {
	find "$R/etc" -name '.*.??????' -o -name '.*.link'
}

f_root read
run_file read TEXT=1
assert_block "read: a file's kind and mode" \
    $'@stat\npath=/etc/t/f\nparent=1\nexists=1\ntype=file\nmode=640'
assert_line "read: its cksum" "sum=$SUM"
assert_line "read: its sha1" "sha1=$(sha1sum <"$R/etc/t/f" | cut -d' ' -f1)"
assert_line "read: its owner" "owner=$(id -un)"
assert_block "read: its text, the last line without a newline said" \
    $'@text\nno_newline=1\n|a\n|b\n@done'
run_file read
assert_no_line "read: no text unless asked" "@text"
run_file read DEST=/etc/t/none
assert_block "read: a missing file in an existing directory" \
    $'parent=1\nexists=0'
run_file read DEST=/etc/none/f
assert_block "read: a missing directory" $'parent=0\nexists=0'
ln -s f "$R/etc/t/l"
run_file read DEST=/etc/t/l
assert_block "read: a link, not followed" $'exists=1\ntype=link\ntarget=f'
run_file read DEST=/etc/t/l FOLLOW=1
assert_block "read: followed, its target" \
    $'@stat\npath=/etc/t/f\nparent=1\nexists=1\ntype=file'
run_file read DEST=/etc/t/l SRC=f
assert_line "read: whether a link's src exists, beside the link" \
    "src_exists=1"

f_root check
keep "$R/etc/t/f"
run_file write CONTENT=1 TEXT=new SUM="1 2"
assert_line "write: a file changed since it was read is refused" \
    "error=/etc/t/f changed since it was read (was 1 2, now $SUM); nothing was done"
same "$R/etc/t/f" "write: refused, the file as it was"

f_root new
run_file write DEST=/etc/t/n CONTENT=1 TEXT=$'x\ny'
assert_line "write: written" "status=written"
assert_eq "write: the text, byte for byte" $'x\ny' "$(cat "$R/etc/t/n")"
assert_eq "write: no newline added" y "$(tail -c 1 "$R/etc/t/n")"
assert_eq "write: a new file is 0644" 644 "$(stat -c %a "$R/etc/t/n")"
assert_block "write: the stat after" $'@after\npath=/etc/t/n\nparent=1\nexists=1\ntype=file\nmode=644'
assert_eq "write: no temp file left" "" "$(temps)"

f_root keep
run_file write CONTENT=1 TEXT=$'new\n' SUM="$SUM"
assert_eq "write: an existing file's mode kept" 640 "$(stat -c %a "$R/etc/t/f")"
run_file write CONTENT=1 TEXT=$'new\n' SUM="$(cksum <"$R/etc/t/f")" FMODE=0600
assert_eq "write: the mode asked for" 600 "$(stat -c %a "$R/etc/t/f")"

f_root follow
ln -s f "$R/etc/t/l"
run_file write DEST=/etc/t/l FOLLOW=1 CONTENT=1 TEXT=$'via link\n' SUM="$SUM"
assert_eq "write: followed, the link stays" f "$(readlink "$R/etc/t/l")"
assert_file "write: and its target is written" "$R/etc/t/f" "via link"
run_file write DEST=/etc/t/l CONTENT=1 TEXT=$'own\n' SUM=link
assert_eq "write: not followed, the link is replaced by the file" \
    "regular file" "$(stat -c %F "$R/etc/t/l")"

f_root validate
keep "$R/etc/t/f"
run_file write CONTENT=1 TEXT=$'bad\n' SUM="$SUM" VALIDATE='grep -q good %s'
assert_block "write: validate's status" $'@validate\nrc=1'
assert_line "write: a failed validate" "error=failed to validate"
same "$R/etc/t/f" "write: the file as it was after a failed validate"
assert_eq "write: no temp file left after it" "" "$(temps)"
# shellcheck disable=SC2016 # for the validate command
run_file write CONTENT=1 TEXT=$'good\n' SUM="$SUM" \
    VALIDATE='t=%s; test "${t%/*}" = "'"$R/etc/t"'" && grep -q good "$t"'
assert_line "write: validate on the temp file beside it, then written" \
    "status=written"
assert_file "write: the validated text" "$R/etc/t/f" "good"

f_root backup
run_file write CONTENT=1 TEXT=$'new\n' SUM="$SUM" BACKUP=1
b=$(grep '^backup=' <<<"$OUT")
b=${b#backup=}
case $b in
/etc/t/f.*.[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]@[0-9][0-9]:[0-9][0-9]:[0-9][0-9]~)
	ok "write: the backup is named as Ansible's backup_local" ;;
*) fail "write: backup named '$b'" ;;
esac
assert_eq "write: the backup holds the old text" $'a\nb' "$(cat "$R$b")"
assert_eq "write: the backup keeps the mode" 640 "$(stat -c %a "$R$b")"

f_root mkdirs
run_file write DEST=/etc/t/x/y/f CONTENT=1 TEXT=$'x\n' MKDIRS=1
assert_file "write: missing directories made" "$R/etc/t/x/y/f" "x"
run_file write DEST=/etc/t/z/f CONTENT=1 TEXT=$'x\n'
assert_line "write: without MKDIRS, a missing directory fails" \
    "error=cannot create a temp file in $R/etc/t/z: No such file or directory"

f_root actions
run_file write DEST=/etc/t/d1/d2 ACTION=mkdir FMODE=0750
assert_eq "mkdir: each new directory its mode" "750 750" \
    "$(stat -c %a "$R/etc/t/d1" "$R/etc/t/d2" 2>/dev/null "$R/etc/t/d1/d2" | tr '\n' ' ' | sed 's/ $//')"
assert_eq "mkdir: an existing parent left alone" 755 "$(stat -c %a "$R/etc/t")"
touch "$R/etc/t/d1/d2/inside"
run_file write DEST=/etc/t/d1 ACTION=rm SUM=directory
assert_eq "rm: a directory with all in it" absent \
    "$(if [ -e "$R/etc/t/d1" ]; then echo there; else echo absent; fi)"
run_file write DEST=/etc/t/l ACTION=link SRC=f
assert_eq "link: made" f "$(readlink "$R/etc/t/l")"
run_file write DEST=/etc/t/l ACTION=link SRC=/etc/other SUM=link
assert_eq "link: a link replaced" /etc/other "$(readlink "$R/etc/t/l")"
assert_eq "link: no temp link left" "" "$(temps)"
run_file write DEST=/etc/t/new ACTION=touch FMODE=0600
assert_eq "touch: made, its mode" 600 "$(stat -c %a "$R/etc/t/new")"
run_file write DEST=/etc/t/f SUM="$SUM" FMODE=0604
assert_eq "attributes alone: the text kept" $'a\nb' "$(cat "$R/etc/t/f")"
assert_eq "attributes alone: the mode" 604 "$(stat -c %a "$R/etc/t/f")"

assert_eq "the machine's own directories untouched" "$SH_GUARD" "$(sh_guard)"
sh_finish
