# shellcheck shell=bash
# Variables set here (FILE, B, CONF, RO_REASON...) are for the scripts that
# source it.
# shellcheck disable=SC2034
# lib.sh - helpers for the tests of lib/remote/apply.sh and lib/remote/probe.sh
# (tests/shell/*.sh). They run the scripts under dash in a temporary root and
# never touch this machine: TCPTUNE_TEST_ROOT points /proc/sys, /etc and the
# commands modprobe, tc and ip at a fake tree, and the keys (tcptune.test.*)
# exist on no kernel.
#
#   sh_init NAME          temp dir, traps, a guard snapshot of the real /etc
#   new_root NAME         a fake root R with FILE, STATE, keys a and b, stubs
#   program SCRIPT NAME=VALUE...  the remote program of SCRIPT: a header
#                         assigning each quoted VALUE, the prelude, SCRIPT
#                         (the convention of lib/remote/prelude.sh)
#   braced SCRIPT NAME=VALUE...  that program in one brace group, as
#                         tcptune sends it
#   call NAME SCRIPT NAME=VALUE...  run it as tcptune does: the braced
#                         program on the standard input of
#                         dash -c 'eval "$(cat)"' tcptune-NAME
#   stdin_value           this function's standard input, byte for byte
#                         (trailing newlines kept): an INPUT value
#   sh_words WORD...      the words quoted for sh, separated by spaces (a
#                         list value)
#   run_apply MODE [TO]   apply.sh under dash, stdin as its INPUT (apply and
#                         check), MODULES,
#                         ROUTE and PERSIST as set; OUT holds the output
#                         (also written to $R/out)
#   keep PATH / same PATH copy PATH aside / assert it is byte-identical
#                         (or still absent)
#   read_only DIR         DIR read-only: a read-only bind mount as root
#                         (chmod does not stop root), mode 0555 otherwise;
#                         RO_REASON is what the tools then say
#   small_tmpfs DIR       (root only) a tmpfs of 16 pages mounted on DIR
#   fill DIR PAGES        fill the tmpfs on DIR until PAGES pages are left
#   assert_line DESC LINE / assert_no_line DESC LINE / assert_eq DESC A B
#   assert_file DESC PATH TEXT  PATH holds TEXT and a newline
#   assert_block DESC TEXT  OUT holds the lines of TEXT, one after another
#   show PREFIX TEXT      TEXT with PREFIX before each line
#   sh_finish             totals; exit 1 if anything failed

SH_SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# Another script may be named, to show what a test catches in an old one.
APPLY_SH=${TCPTUNE_APPLY_SH:-$SH_SRC/lib/remote/apply.sh}
PROBE_SH=${TCPTUNE_PROBE_SH:-$SH_SRC/lib/remote/probe.sh}
PRELUDE_SH=$SH_SRC/lib/remote/prelude.sh
SH_PASSED=0
SH_FAILED=0
SH_MOUNTS=()
SH_TMP=
SH_GUARD=
IS_ROOT=
[ "$(id -u)" = 0 ] && IS_ROOT=1

# What the real host has where the scripts would write if a test leaked
# (not "..": /etc itself changes with anything else in it).
sh_guard() {
	ls -lA --time-style=full-iso /etc/sysctl.d /etc/modules-load.d \
	    /etc/systemd/system 2>&1
	ls /proc/sys/tcptune 2>&1
}

sh_cleanup() {
	local i
	for ((i = ${#SH_MOUNTS[@]} - 1; i >= 0; i--)); do
		umount "${SH_MOUNTS[i]}" 2>/dev/null ||
		    umount -l "${SH_MOUNTS[i]}"
	done
	SH_MOUNTS=()
	if [ -n "$SH_TMP" ]; then
		chmod -R u+w "$SH_TMP" 2>/dev/null
		rm -rf "$SH_TMP"
	fi
}

sh_init() {
	SH_NAME=$1
	command -v dash >/dev/null || { echo "dash not installed"; exit 77; }
	SH_TMP=$(mktemp -d "/tmp/tcptune-shell-$SH_NAME.XXXXXX") || exit 1
	trap sh_cleanup EXIT
	trap 'exit 130' HUP INT TERM
	SH_GUARD=$(sh_guard)
}

show() {
	local l
	while IFS= read -r l; do
		printf '%s%s\n' "$1" "$l"
	done <<<"$2"
}

ok() {
	echo "ok: $1"
	SH_PASSED=$((SH_PASSED + 1))
}

fail() {
	echo "FAIL: $1"
	SH_FAILED=$((SH_FAILED + 1))
}

assert_eq() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		fail "$1: expected '$2', got '$3'"
	fi
}

assert_line() {
	if grep -qxF -- "$2" <<<"$OUT"; then
		ok "$1"
	else
		fail "$1: no line '$2' in:"
		show "	| " "$OUT"
	fi
}

assert_file() {
	if printf '%s\n' "$3" | cmp -s - "$2"; then
		ok "$1"
	else
		fail "$1: $2 is not"
		show "	> " "$3"
		echo "	but:"
		sed 's/^/	| /' "$2"
	fi
}

assert_block() {
	if [[ $'\n'$OUT$'\n' == *$'\n'"$2"$'\n'* ]]; then
		ok "$1"
	else
		fail "$1: no lines"
		show "	> " "$2"
		echo "	in:"
		show "	| " "$OUT"
	fi
}

assert_no_line() {
	if grep -qxF -- "$2" <<<"$OUT"; then
		fail "$1: unexpected line '$2' in:"
		show "	| " "$OUT"
	else
		ok "$1"
	fi
}

# A stub that records its arguments and does what $2 says (shell text).
stub() {
	# shellcheck disable=SC2016 # $0 and $* are the stub's own
	printf '#!/bin/sh\necho "${0##*/} $*" >>%q/calls\n%s\n' "$R" "$2" \
	    >"$R/bin/$1"
	chmod 0755 "$R/bin/$1"
}

new_root() {
	R=$SH_TMP/$1
	mkdir -p "$R/proc/sys/tcptune/test" "$R/etc/sysctl.d" "$R/bin" \
	    "$R/state" || exit 1
	echo 1 >"$R/proc/sys/tcptune/test/a"
	echo 1 >"$R/proc/sys/tcptune/test/b"
	FILE=$R/etc/sysctl.d/90-tcptune.conf
	STATE=$R/state
	B=$STATE/backup/$(printf '%s' "$FILE" | tr / _)
	CONF=$R/etc/modules-load.d/tcptune.conf
	UNIT=$R/etc/systemd/system/tcptune-route.service
	MODULES=
	ROUTE=
	PERSIST=
	# The real tools must never run: every one the script may call for
	# the live state is a stub.
	stub modprobe 'exit 0'
	stub tc 'echo "stub tc" >&2; exit 1'
	stub ip 'echo "stub ip" >&2; exit 1'
	: >"$R/calls"
}

sh_words() {
	local w sep=
	for w; do
		printf "%s'%s'" "$sep" "${w//\'/\'\\\'\'}"
		sep=' '
	done
}

program() {
	local a
	for a in "${@:2}"; do
		printf '%s=%s\n' "${a%%=*}" "$(sh_words "${a#*=}")"
	done
	cat "$PRELUDE_SH" "$1"
}

braced() {
	printf '{\n'
	program "$@"
	printf '\n}\n'
}

call() {
	local name=$1
	shift
	# shellcheck disable=SC2016 # $(cat) is for the dash it starts
	braced "$@" | dash -c 'eval "$(cat)"' "tcptune-$name"
}

stdin_value() {
	local v
	v=$(cat; printf .)
	printf '%s' "${v%.}"
}

run_apply() {
	local input=
	[[ $1 == apply || $1 == check ]] && input=$(stdin_value; printf .)
	OUT=$(cd "$R" && TCPTUNE_TEST_ROOT=$R call apply "$APPLY_SH" \
	    MODE="$1" FILE="$FILE" STATE="$STATE" QDISC= DEV= TXQ=0 \
	    MODULES="$MODULES" ROUTE="$ROUTE" PROBE= PERSIST="$PERSIST" \
	    TO="${2:-}" INPUT="${input%.}")
	printf '%s\n' "$OUT" >"$R/out"
}

keep() {
	rm -rf "$SH_TMP/kept$1"
	mkdir -p "$SH_TMP/kept${1%/*}"
	if [ -e "$1" ]; then
		cp -a "$1" "$SH_TMP/kept$1"
	fi
}

same() {
	if [ ! -e "$SH_TMP/kept$1" ]; then
		if [ -e "$1" ]; then
			fail "${2:-$1}: created, was absent"
		else
			ok "${2:-$1}: still absent"
		fi
	elif cmp -s "$SH_TMP/kept$1" "$1"; then
		ok "${2:-$1}: byte-identical"
	else
		fail "${2:-$1}: changed (was $(wc -c <"$SH_TMP/kept$1") bytes, now $(wc -c <"$1" 2>&1) bytes)"
	fi
}

read_only() {
	if [ -n "$IS_ROOT" ]; then
		mount --bind "$1" "$1" && SH_MOUNTS+=("$1") &&
		    mount -o remount,bind,ro "$1" || exit 1
		RO_REASON="Read-only file system"
	else
		chmod 0555 "$1" || exit 1
		RO_REASON="Permission denied"
	fi
}

small_tmpfs() {
	mount -t tmpfs -o size=64k,mode=0755 tcptune-test "$1" &&
	    SH_MOUNTS+=("$1") || exit 1
}

fill() {
	dd if=/dev/zero of="$1/.fill" bs=4096 2>/dev/null
	[ "$2" = 0 ] || truncate -s "-$((4096 * $2))" "$1/.fill"
}

sh_finish() {
	sh_cleanup
	if [ "$(sh_guard)" != "$SH_GUARD" ]; then
		fail "the real /etc/sysctl.d, /etc/modules-load.d or /etc/systemd/system changed"
		diff <(echo "$SH_GUARD") <(sh_guard)
	else
		ok "the real /etc and /proc/sys untouched"
	fi
	echo "$SH_NAME: $SH_PASSED passed, $SH_FAILED failed"
	[ "$SH_FAILED" = 0 ]
}
