#!/bin/bash
# apt.sh - lib/remote/apt.sh (the host's part of a package/apt task) under
# dash in a fake root with stubs of dpkg-query, apt-cache, apt-get and
# apt-mark (this machine's packages are never asked or touched): read
# shows the cache's time and each package's status, version and
# candidate, updating the cache only when asked and older than VALID;
# simulate runs apt-get with --simulate and nothing else; write installs
# then marks the names manual, removes without marking, and a failed
# install marks nothing.
# shellcheck source=tests/shell/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
sh_init apt
APT_SH=$SH_SRC/lib/remote/apt.sh

# apt_root NAME [APT-GET]: a fake root whose dpkg knows bash (installed)
# and hello (config files only), whose apt-cache knows bash (a newer
# candidate) and hello, and whose apt-get does APT-GET.
apt_root() {
	new_root "$1"
	mkdir -p "$R/var/lib/apt/lists"
	touch -d @1000 "$R/var/lib/apt/lists"
	# shellcheck disable=SC2016 # for the stubs
	stub dpkg-query 'eval "p=\${$#}"
	case $p:$2 in
	bash:-f*Status*) printf "ii " ;;
	bash:*) printf "5.2-1" ;;
	hello:-f*Status*) printf "rc " ;;
	hello:*) printf "" ;;
	*) echo "dpkg-query: no packages found matching $p" >&2; exit 1 ;;
	esac'
	# shellcheck disable=SC2016
	stub apt-cache 'shift
	for p; do
		case $p in
		bash) printf "bash:\n  Installed: 5.2-1\n  Candidate: 5.2-2\n  Version table:\n     5.2-2 500\n" ;;
		hello) printf "hello:\n  Installed: (none)\n  Candidate: 2.10-3\n" ;;
		esac
	done'
	# shellcheck disable=SC2016
	stub apt-get "${2:-echo \"DEBIAN_FRONTEND=\$DEBIAN_FRONTEND\"}
	[ \"\$1\" = update ] && touch -d @5000 \"$R/var/lib/apt/lists\"
	exit 0"
	stub apt-mark 'exit 0'
}

run_apt() {
	OUT=$(cd "$R" && TCPTUNE_TEST_ROOT=$R call apt "$APT_SH" "$@")
}

apt_root read
t0=$(date +%s)
run_apt MODE=read NAMES="$(sh_words bash hello nosuch)" UPDATE=0 VALID=0 \
    ACTION= LIST=
t1=$(date +%s)
assert_block "read: the cache's time" $'@cache\nmtime=1000'
# the clock as read during the call (a second may tick in between)
now=$(sed -n 's/^now=//p' <<<"$OUT")
if [[ $now =~ ^[0-9]+$ ]] && ((t0 <= now && now <= t1)); then
	ok "read: the host's clock"
else
	fail "read: the host's clock: 'now=$now' not in [$t0, $t1] in:"
	show "	| " "$OUT"
fi
assert_block "read: an installed package" \
    $'@pkg\nname=bash\nstatus=ii \nversion=5.2-1\nknown=1\ncandidate=5.2-2'
assert_block "read: one with its config files only" \
    $'@pkg\nname=hello\nstatus=rc \nversion=\nknown=1\ncandidate=2.10-3'
assert_block "read: one nobody knows" \
    $'@pkg\nname=nosuch\nstatus=\nversion=\nknown=0\ncandidate=\n@done'
assert_eq "read: one apt-cache for all, no apt-get" \
    "apt-cache policy bash hello nosuch" "$(grep -v dpkg-query "$R/calls")"

apt_root update
run_apt MODE=read NAMES="$(sh_words bash)" UPDATE=1 VALID=0 ACTION= LIST=
assert_block "read: apt-get update when asked" $'@update\nrc=0'
assert_block "read: the cache's time after it" $'@cache\nafter=5000'
assert_eq "read: update before the packages are read" "apt-get update -q" \
    "$(head -n 1 "$R/calls")"

apt_root fresh
touch "$R/var/lib/apt/lists"
run_apt MODE=read NAMES="$(sh_words bash)" UPDATE=1 VALID=999999999 \
    ACTION= LIST=
assert_no_line "read: no update while the cache is younger than VALID" "@update"
assert_eq "read: so no apt-get" "" "$(grep apt-get "$R/calls")"

apt_root update-fails 'echo "E: Could not get lock" >&2; exit 100'
run_apt MODE=read NAMES="$(sh_words bash)" UPDATE=1 VALID=0 ACTION= LIST=
assert_block "read: a failed update said" \
    $'@update\nrc=100\nout=\nerr=E: Could not get lock\n@done'
assert_no_line "read: and no package read after it" "@pkg"

apt_root simulate
run_apt MODE=simulate NAMES="$(sh_words hello)" UPDATE=0 VALID=0 \
    ACTION=install LIST="$(sh_words hello=2.10-3)"
assert_eq "simulate: the module's apt-get, with --simulate" \
    "apt-get -y -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold --simulate install hello=2.10-3" \
    "$(cat "$R/calls")"
assert_block "simulate: its output, non-interactive" \
    $'@action\nrc=0\nout=DEBIAN_FRONTEND=noninteractive'
assert_no_line "simulate: nothing marked" "@mark"

apt_root install
run_apt MODE=write NAMES="$(sh_words hello bash)" UPDATE=0 VALID=0 \
    ACTION=install LIST="$(sh_words hello=2.10-3)"
assert_eq "write: install, then the names marked manual" \
    $'apt-get -y -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold install hello=2.10-3\napt-mark manual hello bash' \
    "$(cat "$R/calls")"

apt_root remove
run_apt MODE=write NAMES= UPDATE=0 VALID=0 ACTION=remove \
    LIST="$(sh_words bash)"
assert_eq "write: remove, nothing marked" \
    "apt-get -q -y -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold remove bash" \
    "$(cat "$R/calls")"

apt_root install-fails 'echo "E: Unable to locate package" >&2; exit 100'
run_apt MODE=write NAMES="$(sh_words hello)" UPDATE=0 VALID=0 \
    ACTION=install LIST="$(sh_words hello=2.10-3)"
assert_block "write: a failed install said" \
    $'@action\nrc=100\nout=\nerr=E: Unable to locate package\n@done'
assert_eq "write: and nothing marked" "" "$(grep apt-mark "$R/calls")"

sh_finish
