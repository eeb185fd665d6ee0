# tcptune modprobe: the host's part of a community.general.modprobe task
# (modules/mod-modprobe.c). `read` shows what the module's decisions read:
# whether the module is loaded, modprobe's dry run of the change, and every
# regular file of /etc/modules-load.d and /etc/modprobe.d with its checksum.
# The decisions and the new files are made on the controller
# (lib/tune/modprobeconf.c); `write`, sent only when something is to be
# done and never in check mode, does what the module does, in its order.
#
# Run as a remote program (lib/remote/prelude.sh), its header giving:
#   MODE     read | write
#   NAME     the module, a word of [A-Za-z0-9_-] (the controller refuses any
#            other)
#   PARAMS   its parameters as a list of sh words ("key=value"...)
#   STATE    read: present | absent, for the dry run (`modprobe -n NAME
#            PARAMS` when present and not loaded, `modprobe -n -r NAME` when
#            absent and loaded)
#   ACTION   write: load | unload | "" (leave the live module alone)
#   WRITES   write: a list of sh words, three per file: its path, the "sum"
#            read printed for it ("absent" for a new file) and its new text.
#            Every file must still have its sum, else nothing is done.
#
# Under the tests (TCPTUNE_TEST_ROOT), /proc, /lib/modules and /etc are
# under ROOT and ROOT/bin holds a modprobe stub.
#
# Output: "tcptune-modprobe 1", then sections of "key=value" lines (escaped
# as the prelude's kv does): @module (loaded, or error=), @dry (the dry
# run's rc, out and err), @file (path, sum, no_newline, then the text as
# "|line" lines), @load / @unload (rc, out, err), @after (loaded, and warn=
# what `modprobe -n --first-time` says when a load left it unloaded),
# @write (path, then status=written or error=), and "@done" at the end.

umask 022

LOAD_DIR=$ROOT/etc/modules-load.d
OPT_DIR=$ROOT/etc/modprobe.d

# Whether NAME is loaded, as the module decides: /proc/modules (NAME with
# '_' for '-') or the kernel's modules.builtin. ERR says why it cannot tell.
loaded() {
	ld_n=$(printf '%s' "$NAME" | tr - _)
	if ! ld_m=$(cat "$ROOT/proc/modules" 2>&1); then
		ERR="cannot read /proc/modules: ${ld_m##*: }"
		return 2
	fi
	case "$NL$ld_m" in
	*"$NL$ld_n "*) return 0 ;;
	esac
	ld_b=$ROOT/lib/modules/$(uname -r)/modules.builtin
	if [ ! -r "$ld_b" ]; then
		ERR="cannot read ${ld_b#"$ROOT"}"
		return 2
	fi
	grep -q "/$NAME\\.ko[[:space:]]*\$" "$ld_b" && return 0
	return 1
}

# "loaded=1|0" (or the error), and loaded's status.
show_loaded() {
	loaded
	sl_rc=$?
	case $sl_rc in
	0) kv loaded 1 ;;
	1) kv loaded 0 ;;
	*) kv error "$ERR" ;;
	esac
	return "$sl_rc"
}

file_sum() {
	if [ -f "$1" ]; then
		cksum <"$1" 2>/dev/null || echo unreadable
	else
		echo absent
	fi
}

# Every regular file of directory $1 (links to one included, as Python's
# os.path.isfile), dot-files too.
show_dir() {
	[ -d "$1" ] || return 0
	for sd_f in "$1"/* "$1"/.[!.]* "$1"/..?*; do
		[ -f "$sd_f" ] || continue
		printf '@file\n'
		kv path "${sd_f#"$ROOT"}"
		kv sum "$(file_sum "$sd_f")"
		[ -z "$(tail -c 1 "$sd_f" 2>/dev/null)" ] || kv no_newline 1
		if ! sed -e 's/^/|/' "$sd_f"; then
			kv error "cannot read ${sd_f#"$ROOT"}"
			continue
		fi
		[ -z "$(tail -c 1 "$sd_f" 2>/dev/null)" ] || echo
	done
}

# shellcheck disable=SC2120 # its arguments are the lists it sets
do_read() {
	printf '@module\n'
	show_loaded
	ml=$?
	eval "set -- $PARAMS"
	if [ "$STATE" = present ] && [ "$ml" = 1 ]; then
		run_shown dry modprobe -n "$NAME" "$@"
	elif [ "$STATE" = absent ] && [ "$ml" = 0 ]; then
		run_shown dry modprobe -n -r "$NAME"
	fi
	show_dir "$LOAD_DIR"
	show_dir "$OPT_DIR"
}

# Write text $2 to the temp file.
# shellcheck disable=SC2317 # called through try
write_text() {
	printf '%s' "$2" | cat >"$1"
}

# Replace file $1 with text $2 as the module's open(path, 'w') does: through
# a link to its target, keeping an existing file's mode and owner, a new
# one 0644; atomically here, through a temp file beside it.
write_file() {
	wf_p=$ROOT$1
	printf '@write\n'
	kv path "$1"
	if [ -L "$wf_p" ]; then
		wf_p=$(readlink -f "$wf_p") || {
			kv error "cannot resolve the link $1"
			return 1
		}
	fi
	if ! mk_temp "${wf_p%/*}/.${wf_p##*/}.XXXXXX"; then
		kv error "cannot create a temp file in ${wf_p%/*}: $ERR"
		return 1
	fi
	guard
	wf_mode=0644
	if [ -f "$wf_p" ]; then
		wf_mode=
		if ! try cp -p "$wf_p" "$TMP"; then
			rm -f "$TMP"
			unguard
			kv error "cannot copy $1: $ERR"
			return 1
		fi
	fi
	if ! try write_text "$TMP" "$2"; then
		rm -f "$TMP"
		unguard
		kv error "cannot write a temp file for $1: $ERR"
		return 1
	fi
	# shellcheck disable=SC2086 # wf_mode is one word or nothing
	if ! commit_temp "$wf_p" $wf_mode; then
		kv error "cannot replace $1: $ERR"
		return 1
	fi
	kv status written
}

# shellcheck disable=SC2120 # its arguments are the lists it sets
do_write() {
	eval "set -- $WRITES"
	printf '@check\n'
	while [ $# -ge 3 ]; do
		dw_sum=$(file_sum "$ROOT$1")
		if [ "$dw_sum" != "$2" ]; then
			kv error "$1 changed since it was read (cksum $2, now $dw_sum); nothing was done"
			return
		fi
		shift 3
	done
	eval "set -- $PARAMS"
	case $ACTION in
	load)
		run_shown load modprobe "$NAME" "$@" || return
		printf '@after\n'
		show_loaded
		if [ $? = 1 ]; then
			dw_w=$(modprobe -n --first-time "$NAME" "$@" 2>&1 >/dev/null) ||
			    kv warn "$dw_w"
		fi
		;;
	unload)
		run_shown unload modprobe -r "$NAME" || return
		;;
	esac
	eval "set -- $WRITES"
	while [ $# -ge 3 ]; do
		write_file "$1" "$3"
		shift 3
	done
}

printf 'tcptune-modprobe 1\n'
# shellcheck disable=SC2119 # neither takes the script's arguments
case $MODE in
read) do_read ;;
write) do_write ;;
*) printf '@module\n'; kv error "unknown mode $MODE" ;;
esac
printf '@done\n'
