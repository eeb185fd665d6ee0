# tcptune remote prelude: the calling convention of every remote script
# (lib/remote/*.sh) and the helpers they share. Embedded once; the one C
# function that builds a remote program (remote_program, lib/remote/
# remote-cmd.c) puts it between the header and the script.
#
# Calling convention. A script is run as
#   env TCPTUNE_TEST_ROOT= sh -c 'eval "$(cat)"' tcptune-NAME
# with its program on standard input: { HEADER PRELUDE SCRIPT } (one brace
# group, so that a program cut short is a syntax error and runs nothing).
# HEADER is one NAME='value' line per input the script documents, every one
# always given (an empty value when unused, so that nothing comes from the
# host's environment), each value quoted by lib/base/shquote.c. A list is
# one value holding its items as sh words, expanded by
# `eval "set -- $LIST"`. There are no positional arguments, and data (the
# new file of apply) is a value too. The command line is the same for every
# call of a script, short and without values: sudo logs it, ps shows it.
# A script that runs another (apply's probe) gets that program, built the
# same way without the braces, as a value and runs it with
# `sh -c "$VALUE" tcptune-NAME`.
#
# The probe, whose program is the same for every host, gets its few values
# as environment assignments instead, and one copy of the program serves
# every host:
#   env TCPTUNE_TEST_ROOT= NAME='value'... sh -s
# (remote_piped_command and remote_piped_program).
#
# TCPTUNE_TEST_ROOT is for the tests only (tcptune clears it): a directory
# that stands in for / (ROOT); ROOT/bin goes first in PATH, so that a test
# can put stubs in place of the tools.
#
# Output: values printed by kv are escaped: '\' as '\\' and a newline as
# '\n'; nothing else (remote_unescape in lib/remote/remote-cmd.c undoes it).

# What Ansible's env fact reports (probe.sh): the PATH and LC_ALL given.
# shellcheck disable=SC2034 # read by probe.sh
TT_PATH0=$PATH
# shellcheck disable=SC2034 # read by probe.sh; x: set, even if empty
TT_LC_ALL0=${LC_ALL+x$LC_ALL}
# shellcheck disable=SC2034 # read by probe.sh; dash's cd exports it
TT_OLDPWD0=${OLDPWD+x$OLDPWD}
PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:$PATH
LC_ALL=C
ROOT=${TCPTUNE_TEST_ROOT:-}
[ -z "$ROOT" ] || PATH=$ROOT/bin:$PATH
export PATH LC_ALL
NL='
'

have() {
	command -v "$1" >/dev/null 2>&1
}

# Set E to $1 escaped for the output format. The loop only runs for the rare
# value holding a backslash or a newline.
esc() {
	E=$1
	case $E in
	*\\*|*"$NL"*) ;;
	*) return ;;
	esac
	esc_s=$1
	E=
	while [ -n "$esc_s" ]; do
		esc_c=${esc_s%"${esc_s#?}"}
		esc_s=${esc_s#?}
		case $esc_c in
		\\) E="$E\\\\" ;;
		"$NL") E="$E\\n" ;;
		*) E="$E$esc_c" ;;
		esac
	done
}

# A "key=value" line, the value escaped.
kv() {
	esc "$2"
	printf '%s=%s\n' "$1" "$E"
}

# Section $1: run the rest ("$@" after it), its status (rc), output (out)
# and messages (err); returns its status.
run_shown() {
	printf '@%s\n' "$1"
	shift
	rs_err=$(mktemp) || { kv rc 1; kv err "mktemp failed"; return 1; }
	rs_out=$("$@" 2>"$rs_err")
	rs_rc=$?
	kv rc "$rs_rc"
	kv out "$rs_out"
	kv err "$(cat "$rs_err")"
	rm -f "$rs_err"
	return "$rs_rc"
}

# ---- replacing a file: steps that can fail set ERR to the reason and
# return 1. Every script that writes a file on a host writes it through
# these: a temp file beside it, flushed, then renamed, so a reader sees the
# old file or the new, never half of one.
TMP=

# ERR: the reason in the tool's message ERR (its last line, after the last
# ": ", e.g. "No space left on device"), or that $1 failed.
reason() {
	ERR=${ERR##*"$NL"}
	ERR=${ERR##*: }
	[ -n "$ERR" ] || ERR="$1 failed"
}

# Run "$@" (a command or a function), its output discarded.
try() {
	ERR=$("$@" 2>&1 >/dev/null) && return 0
	reason "$1"
	return 1
}

# TMP: a new file from mktemp template $1.
mk_temp() {
	TMP=$(mktemp "$1" 2>&1) && return 0
	ERR=$TMP
	TMP=
	reason mktemp
	return 1
}

# While TMP exists, the end of the script, a cut connection (HUP, PIPE) or a
# kill removes it: nothing half-written is ever renamed into place.
guard() {
	trap 'rm -f "$TMP"' EXIT
	trap 'rm -f "$TMP"; exit 1' HUP INT TERM PIPE
}
unguard() {
	trap - EXIT HUP INT TERM PIPE
	TMP=
}

# Flush file $1 to disk before a rename makes it visible, so that a crash
# leaves the old content or the new. coreutils >= 8.24 syncs just that file;
# an older sync refuses the operand, and a full sync is then what there is.
flush() {
	ERR=$(sync "$1" 2>&1) && return 0
	case $ERR in
	*"extra operand"*) sync; return 0 ;;
	esac
	reason sync
	return 1
}

# Replace file $1 with the temp file TMP (given mode $2, if any): flushed,
# then renamed. On failure TMP is removed and $1 is as it was.
commit_temp() {
	if { [ -z "${2:-}" ] || try chmod "$2" "$TMP"; } && flush "$TMP" &&
	    try mv -f "$TMP" "$1"; then
		unguard
		return 0
	fi
	rm -f "$TMP"
	unguard
	return 1
}

