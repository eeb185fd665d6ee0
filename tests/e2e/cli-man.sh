#!/bin/bash
# cli-man.sh - the man pages generated at build time (cmake/install.cmake)
# are what the binary prints now (`tcptune __doc NAME`), have a section for
# every command and every module, and format without a warning under
# groff -ww and man --warnings. No host needed.
# Usage: cli-man.sh TCPTUNE MANDIR
set -u
tcptune=${1:?usage: cli-man.sh TCPTUNE MANDIR}
mandir=${2:?usage: cli-man.sh TCPTUNE MANDIR}
# shellcheck source=tests/e2e/cli-lib.sh
. "$(dirname "$0")/cli-lib.sh"

for page in tcptune.1 tcptune-modules.7; do
	f=$mandir/$page
	if [[ ! -s $f ]]; then
		not_ok "$f was not generated"
		continue
	fi
	if cmp -s "$f" <("$tcptune" __doc "$page"); then
		ok "$page: the build's page is the binary's"
	else
		not_ok "$page differs from 'tcptune __doc $page'"
	fi
	out=$(groff -man -ww -z "$f" 2>&1)
	[[ -z $out ]] && ok "$page: groff -man -ww -z is silent" ||
	    not_ok "$page: groff -ww: $out"
	out=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$f" 2>&1 >/dev/null)
	[[ -z $out ]] && ok "$page: man --warnings is silent" ||
	    not_ok "$page: man --warnings: $out"
done

text=$(MANWIDTH=80 man -l "$mandir/tcptune.1" 2>/dev/null)
for cmd in $("$tcptune" __complete commands | cut -f1); do
	alias_of=$("$tcptune" "$cmd" --help | sed -n 's/^usage: tcptune \([^ ]*\).*/\1/p')
	grep -q "^ *tcptune $alias_of\b" <<<"$text" ||
	    not_ok "tcptune(1) has no section for $cmd"
done
grep -q -- '--log-file FILE' <<<"$text" && ok "tcptune(1): --log-file" ||
    not_ok "tcptune(1) does not document --log-file"
mods=$(MANWIDTH=80 man -l "$mandir/tcptune-modules.7" 2>/dev/null)
for m in $("$tcptune" modules | awk '{ print $1 }'); do
	grep -q "^   $m\$" <<<"$mods" || not_ok "tcptune-modules(7) has no section for $m"
done
grep -q 'max_buffer (size, optional, default 256MiB' <<<"$mods" &&
    ok "tcptune-modules(7): tcp_buffers' max_buffer with its default" ||
    not_ok "tcptune-modules(7): no max_buffer row"

cli_finish cli-man
