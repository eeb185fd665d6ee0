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
