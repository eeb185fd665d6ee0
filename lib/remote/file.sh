# tcptune file: the host's part of the file modules (template, copy,
# lineinfile, file, stat: modules/mod-*.c). `read` shows what a task
# decides by: the path's type, mode, owner, group and checksums, and a
# regular file's text. The decision and the new text are made on the
# controller (lib/remote/fileop.c, lib/tune/lineinfile.c); `write`, sent
# only when something is to be done and never in check mode, does it: the
# new text through a temp file beside the file, given its mode, owner and
# group, validated, then renamed over it (a reader sees the old file or the
# new, never half of one); or the file module's directory, link, touch or
# removal; then the attributes.
#
# Run as a remote program (lib/remote/prelude.sh), its header giving:
#   MODE      read | write
#   DEST      the path (absolute)
#   FOLLOW    1: when DEST is a link, its target is the file read and
#             written (lineinfile; copy and template with follow: true)
#   TEXT      read: 1 to print a regular file's text; write: the new text
#   CONTENT   write: 1 to replace the file with TEXT
#   SUM       write: the sum read printed for the file ("absent": none):
#             if it is another now, nothing is done
#   FMODE     write: the octal mode to give it, or ""
#   OWNER     write: the owner to give it (a name or an id), or ""
#   GROUP     write: the group, or ""
#   BACKUP    write: 1 to copy an existing file first to
#             FILE.PID.YYYY-MM-DD@HH:MM:SS~ (Ansible's backup_local)
#   VALIDATE  write: shell text run on the temp file before it replaces the
#             file, its "%s" (exactly one) standing for the temp file
#   MKDIRS    write: 1 to create the file's missing parent directories
#   ACTION    write: "" | mkdir | rm | link | touch (the file module)
#   SRC       the link's target (file state=link; read shows whether it
#             exists, relative to DEST's directory)
#
# Under the tests (TCPTUNE_TEST_ROOT), DEST is under ROOT.
#
# Output: "tcptune-file 1", then sections of "key=value" lines (escaped
# as the prelude's kv does): @stat (path: the file read, exists, type
# file|directory|link|other, mode, uid, gid, owner, group, size, mtime,
# target of a link, sum (cksum) and sha1 of a regular file, parent=1|0
# whether its directory exists, src_exists=1|0 when SRC is given), @text (no_newline, then the text as
# "|line" lines), @check (error= when the file changed since it was
# read), @validate (rc, out, err), @write (backup, status=written or
# error=), @after (the same keys as @stat), and "@done" at the end.

umask 022

# The sum write compares with read's: a regular file's cksum, else its
# kind (P is already the link's target when FOLLOW says so).
file_sum() {
	if [ -L "$1" ]; then
		echo link
	elif [ -f "$1" ]; then
		cksum <"$1" 2>/dev/null || echo unreadable
	elif [ -d "$1" ]; then
		echo directory
	elif [ -e "$1" ]; then
		echo other
	else
		echo absent
	fi
}

# The file a task works on: DEST, or with FOLLOW its link's target.
target() {
	P=$ROOT$DEST
	if [ "$FOLLOW" = 1 ] && [ -L "$P" ]; then
		P=$(readlink -f "$P") || P=$ROOT$DEST
	fi
}

# Section $1: the stat of P.
show_stat() {
	printf '@%s\n' "$1"
	kv path "${P#"$ROOT"}"
	ss_d=${P%/*}
	[ -n "$ss_d" ] || ss_d=/
	if [ -d "$ss_d" ]; then kv parent 1; else kv parent 0; fi
	if [ -n "$SRC" ] && [ "$1" = stat ]; then
		# A link's target as the file module checks it: relative to
		# the link's directory.
		case $SRC in
		/*) ss_t=$ROOT$SRC ;;
		*) ss_t=$ss_d/$SRC ;;
		esac
		if [ -e "$ss_t" ]; then kv src_exists 1; else kv src_exists 0; fi
	fi
	if [ ! -e "$P" ] && [ ! -L "$P" ]; then
		kv exists 0
		return 0
	fi
	kv exists 1
	if [ -L "$P" ]; then
		kv type link
		kv target "$(readlink "$P")"
	elif [ -f "$P" ]; then
		kv type file
	elif [ -d "$P" ]; then
		kv type directory
	else
		kv type other
	fi
	# One stat for the rest: mode (octal), ids, names, size, mtime.
	ss_s=$(stat -c '%a %u %g %s %Y %U %G' "$P" 2>/dev/null) || {
		kv error "cannot stat ${P#"$ROOT"}"
		return 0
	}
	# shellcheck disable=SC2086 # the fields are words
	set -- $ss_s
	kv mode "$1"
	kv uid "$2"
	kv gid "$3"
	kv size "$4"
	kv mtime "$5"
	kv owner "$6"
	kv group "$7"
	if [ -f "$P" ] && [ ! -L "$P" ]; then
		kv sum "$(cksum <"$P" 2>/dev/null || echo unreadable)"
		ss_h=$(sha1sum <"$P" 2>/dev/null) && kv sha1 "${ss_h%% *}"
	fi
}

show_text() {
	[ "$TEXT" = 1 ] && [ -f "$P" ] && [ ! -L "$P" ] || return 0
	printf '@text\n'
	[ -z "$(tail -c 1 "$P" 2>/dev/null)" ] || kv no_newline 1
	if ! sed -e 's/^/|/' "$P"; then
		kv error "cannot read ${P#"$ROOT"}"
		return 0
	fi
	[ -z "$(tail -c 1 "$P" 2>/dev/null)" ] || echo
}

# Write text $2 to the temp file $1.
# shellcheck disable=SC2317 # called through try
write_text() {
	printf '%s' "$2" | cat >"$1"
}

# Give file $1 the owner, group and mode asked for (chown before chmod:
# chown clears the set-id bits).
set_attrs() {
	if [ -n "$OWNER$GROUP" ]; then
		sa_o=$OWNER
		[ -z "$GROUP" ] || sa_o="$OWNER:$GROUP"
		try chown -h -- "$sa_o" "$1" || return 1
	fi
	if [ -n "$FMODE" ] && [ ! -L "$1" ]; then
		try chmod -- "$FMODE" "$1" || return 1
	fi
	return 0
}

# A failed step: its reason in @write, the temp file gone.
failed() {
	[ -z "$TMP" ] || rm -f "$TMP"
	unguard
	kv error "$1"
	return 1
}

# Run VALIDATE on the temp file: its status, output and messages.
validate() {
	printf '@validate\n'
	va_pre=${VALIDATE%%%s*}
	va_post=${VALIDATE#*%s}
	va_err=$(mktemp) || { kv rc 1; kv err "mktemp failed"; return 1; }
	va_out=$(sh -c "$va_pre'$TMP'$va_post" 2>"$va_err" </dev/null)
	va_rc=$?
	kv rc "$va_rc"
	kv out "$va_out"
	kv err "$(cat "$va_err")"
	rm -f "$va_err"
	return "$va_rc"
}

# Replace P with TEXT: a temp file beside it holding an existing file's
# mode and owner (a new one 0644 by the umask), the text, the attributes,
# validated, flushed, renamed.
write_content() {
	printf '@write\n'
	if [ "$MKDIRS" = 1 ] && [ ! -d "${P%/*}" ] && [ -n "${P%/*}" ]; then
		try mkdir -p -- "${P%/*}" ||
		    failed "cannot create ${P%/*}: $ERR" || return 1
	fi
	mk_temp "${P%/*}/.${P##*/}.XXXXXX" ||
	    failed "cannot create a temp file in ${P%/*}: $ERR" || return 1
	guard
	if [ -f "$P" ]; then
		try cp -p -- "$P" "$TMP" ||
		    failed "cannot copy ${P#"$ROOT"}: $ERR" || return 1
	else
		try chmod 0644 "$TMP" || failed "cannot chmod: $ERR" || return 1
	fi
	try write_text "$TMP" "$TEXT" ||
	    failed "cannot write a temp file for ${P#"$ROOT"}: $ERR" || return 1
	set_attrs "$TMP" || failed "cannot set the attributes: $ERR" ||
	    return 1
	if [ -n "$VALIDATE" ] && ! validate; then
		printf '@write\n'
		failed "failed to validate" || return 1
	fi
	[ -z "$VALIDATE" ] || printf '@write\n'
	if [ "$BACKUP" = 1 ] && [ -f "$P" ]; then
		wc_b="$P.$$.$(date +%Y-%m-%d@%H:%M:%S)~"
		try cp -p -- "$P" "$wc_b" ||
		    failed "cannot back up ${P#"$ROOT"}: $ERR" || return 1
		kv backup "${wc_b#"$ROOT"}"
	fi
	commit_temp "$P" || failed "cannot replace ${P#"$ROOT"}: $ERR" ||
	    return 1
	kv status written
}

# The file module's change of P's kind.
do_action() {
	printf '@write\n'
	case $ACTION in
	mkdir)
		# Each missing directory, from the top, gets the attributes.
		da_p=
		da_rest=${P#"$ROOT"}/
		while [ -n "$da_rest" ]; do
			da_c=${da_rest%%/*}
			da_rest=${da_rest#*/}
			[ -n "$da_c" ] || continue
			da_p=$da_p/$da_c
			[ ! -d "$ROOT$da_p" ] || continue
			try mkdir -- "$ROOT$da_p" && set_attrs "$ROOT$da_p" ||
			    failed "cannot create $da_p: $ERR" || return 1
		done
		;;
	rm)
		try rm -rf -- "$P" ||
		    failed "cannot remove ${P#"$ROOT"}: $ERR" || return 1
		;;
	link)
		da_t="${P%/*}/.${P##*/}.$$.link"
		try ln -s -- "$SRC" "$da_t" ||
		    failed "cannot create a link in ${P%/*}: $ERR" || return 1
		if ! try mv -fT -- "$da_t" "$P"; then
			rm -f "$da_t"
			failed "cannot replace ${P#"$ROOT"}: $ERR"
			return 1
		fi
		;;
	touch)
		try touch -- "$P" ||
		    failed "cannot touch ${P#"$ROOT"}: $ERR" || return 1
		;;
	esac
	kv status written
}

do_write() {
	target
	printf '@check\n'
	dw_sum=$(file_sum "$P")
	if [ "$dw_sum" != "$SUM" ]; then
		kv error "${P#"$ROOT"} changed since it was read (was $SUM, now $dw_sum); nothing was done"
		return
	fi
	if [ -n "$ACTION" ]; then
		do_action || return
	elif [ "$CONTENT" = 1 ]; then
		write_content || return
	fi
	if [ "$CONTENT" != 1 ] && [ "$ACTION" != rm ] && [ -e "$P" ]; then
		printf '@write\n'
		set_attrs "$P" || { kv error "cannot set the attributes of ${P#"$ROOT"}: $ERR"; return; }
		kv status written
	fi
	show_stat after
}

printf 'tcptune-file 1\n'
# shellcheck disable=SC2153 # MODE is an input of the header, as FMODE
case $MODE in
read) target; show_stat stat; show_text ;;
write) do_write ;;
*) printf '@stat\n'; kv error "unknown mode $MODE" ;;
esac
printf '@done\n'
