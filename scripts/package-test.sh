#!/usr/bin/env bash
# shellcheck disable=SC2015 # "check && ok || not_ok": ok never fails
# The Debian package, for real: build it from BUILD_DIR (default build/,
# already built by scripts/build.sh) with CPack, install it with apt-get as
# a user would, check the installed tcptune, its man pages, its bash
# completion and the files it ships, then remove it (purge), leaving the
# machine as it was. Run as root on Debian 12; scripts/test.sh runs it
# after ctest. Its Depends (libssh, libcurl, ...) are already installed by
# scripts/setup.sh, so apt-get fetches nothing.
# usage: sudo scripts/package-test.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
passed=0
failed=0
ok() { echo "ok: $1"; passed=$((passed + 1)); }
not_ok() { echo "FAIL: $1"; failed=$((failed + 1)); }

# shellcheck source=scripts/as-root.sh
. scripts/as-root.sh
as_root "it installs and removes the package" "$@"
if dpkg-query -W -f='${Status}' tcptune 2>/dev/null | grep -q 'ok installed'; then
	echo "package-test.sh: a tcptune package is installed already; remove" \
	    "it first (apt-get remove tcptune): this test would replace it" >&2
	exit 1
fi
start=$(date +%s)
cmake --build "$build" -j"$(nproc)" >/dev/null
rm -f "$build"/tcptune_*.deb
(cd "$build" && cpack -G DEB >/dev/null)
debs=("$build"/tcptune_*.deb)
deb=${debs[0]}
case $deb in /*) ;; *) deb=./$deb ;; esac
version=$("$build/tcptune" --version)
arch=$(dpkg --print-architecture)
[[ $(basename "$deb") == "tcptune_${version#tcptune }_${arch}.deb" ]] &&
    ok "the package is $(basename "$deb")" ||
    not_ok "the package is named $(basename "$deb")"
depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
for lib in libc6 libssh-4 libcurl4 libjansson4 libyaml-0-2 libssl3 libpcre2-8-0; do
	[[ $depends == *"$lib "* || $depends == *"$lib," || $depends == *"$lib" ]] &&
	    ok "Depends names $lib" || not_ok "Depends lacks $lib: $depends"
done

trap 'apt-get remove --purge -y -qq tcptune >/dev/null 2>&1 || true' EXIT
if apt-get install -y "$deb"; then
	ok "apt-get install -y $deb"
else
	not_ok "apt-get install -y $deb"
	exit 1
fi

[[ $(tcptune --version) == "$version" ]] && ok "tcptune --version: $version" ||
    not_ok "tcptune --version: $(tcptune --version 2>&1)"
[[ $(command -v tcptune) == /usr/bin/tcptune ]] && ok "tcptune is /usr/bin/tcptune" ||
    not_ok "tcptune is $(command -v tcptune)"
page=$(man -w tcptune 2>&1) && [[ $page == /usr/share/man/man1/tcptune.1* ]] &&
    ok "man -w tcptune: $page" || not_ok "man -w tcptune: $page"
page=$(man -w 7 tcptune-modules 2>&1) &&
    ok "man -w 7 tcptune-modules: $page" || not_ok "man -w 7 tcptune-modules: $page"
MANWIDTH=80 man tcptune 2>/dev/null | grep -q '^GLOBAL OPTIONS' &&
    ok "man tcptune shows the page" || not_ok "man tcptune"

comp=/usr/share/bash-completion/completions/tcptune
[[ -f $comp ]] && ok "bash completion at $comp" || not_ok "no $comp"
[[ -f /usr/share/zsh/vendor-completions/_tcptune ]] &&
    ok "zsh completion installed" || not_ok "no zsh completion"
# In a clean bash, as a user's shell finds it: bash-completion's loader
# when it is installed, else the file itself.
# shellcheck disable=SC2016 # the $ are the inner bash's
got=$(env -i PATH=/usr/bin:/bin HOME=/root bash --norc -c '
	if [ -f /usr/share/bash-completion/bash_completion ]; then
		. /usr/share/bash-completion/bash_completion
		_completion_loader tcptune
	else
		. '"$comp"'
	fi
	COMP_WORDS=(tcptune modules tcp_b); COMP_CWORD=2; COMPREPLY=()
	$(complete -p tcptune | sed -E "s/.*-F ([^ ]+).*/\1/") tcptune tcp_b modules
	echo "${COMPREPLY[*]}"' 2>&1)
[[ $got == tcp_buffers ]] && ok "bash completes 'tcptune modules tcp_b'" ||
    not_ok "bash completion of 'tcptune modules tcp_b': $got"

unit=$(dpkg -L tcptune | grep '/systemd/system/tcptune-drift.service$')
grep -q '^ExecStart=/usr/bin/tcptune drift ' "$unit" &&
    ok "$unit runs /usr/bin/tcptune" || not_ok "$unit: $(grep ExecStart "$unit")"
cron=/usr/share/doc/tcptune/examples/cron
[[ -f $cron/tcptune-drift && -x $cron/tcptune-drift-cron ]] &&
    grep -qx 'tcptune=/usr/bin/tcptune' "$cron/tcptune-drift-cron" &&
    ok "cron example in $cron, naming /usr/bin/tcptune" ||
    not_ok "cron example in $cron"
tcptune lint /usr/share/tcptune/playbooks/*.yml >/dev/null &&
    ok "the installed playbooks lint clean" || not_ok "tcptune lint of the installed playbooks"

apt-get remove --purge -y -qq tcptune >/dev/null
trap - EXIT
! dpkg-query -W tcptune >/dev/null 2>&1 && [[ ! -e /usr/bin/tcptune && ! -e $comp ]] &&
    ok "apt-get remove --purge tcptune left nothing" || not_ok "tcptune still installed"
echo "package-test: $(($(date +%s) - start)) s"
echo "package-test: $passed passed, $failed failed"
[[ $failed == 0 ]]
