#!/bin/bash
# cli-install.sh - `cmake --install` into a temporary prefix puts every file
# where cmake/install.cmake says, the units and the cron wrapper name the
# installed binary (not /usr/local/bin/tcptune), the installed binary runs
# and the installed bash completion completes with it. No root, no host;
# the .deb itself is scripts/package-test.sh's.
# Usage: cli-install.sh BUILD_DIR
set -u
build=${1:?usage: cli-install.sh BUILD_DIR}
# shellcheck source=tests/e2e/cli-lib.sh
. "$(dirname "$0")/cli-lib.sh"
prefix=$(mktemp -d /tmp/tcptune-install-XXXXXX)
trap 'rm -rf "$prefix"' EXIT

if out=$(cmake --install "$build" --prefix "$prefix" 2>&1); then
	ok "cmake --install --prefix $prefix"
else
	not_ok "cmake --install: $out"
fi
for f in bin/tcptune share/man/man1/tcptune.1 share/man/man7/tcptune-modules.7 \
    share/bash-completion/completions/tcptune share/zsh/vendor-completions/_tcptune \
    lib/systemd/system/tcptune-drift.service lib/systemd/system/tcptune-drift.timer \
    share/doc/tcptune/examples/cron/tcptune-drift \
    share/doc/tcptune/examples/cron/tcptune-drift-cron \
    share/tcptune/playbooks/wan-tuning.yml share/tcptune/playbooks/drift-check.yml \
    share/tcptune/playbooks/rollback.yml; do
	[[ -s $prefix/$f ]] && ok "$f" || not_ok "$f is not installed"
done
grep -q "^ExecStart=$prefix/bin/tcptune drift " \
    "$prefix/lib/systemd/system/tcptune-drift.service" &&
    ok "the service runs the installed tcptune" ||
    not_ok "the service's ExecStart: $(grep ExecStart= "$prefix/lib/systemd/system/tcptune-drift.service")"
grep -qx "tcptune=$prefix/bin/tcptune" \
    "$prefix/share/doc/tcptune/examples/cron/tcptune-drift-cron" &&
    [[ -x $prefix/share/doc/tcptune/examples/cron/tcptune-drift-cron ]] &&
    ok "the cron wrapper runs the installed tcptune, and is executable" ||
    not_ok "the cron wrapper does not name $prefix/bin/tcptune"
! grep -rq /usr/local/bin/tcptune "$prefix/lib" "$prefix/share/doc" &&
    ok "no installed example names /usr/local/bin/tcptune" ||
    not_ok "an installed example still names /usr/local/bin/tcptune"
[[ $("$prefix/bin/tcptune" --version) == "tcptune "* ]] &&
    ok "the installed tcptune runs" || not_ok "the installed tcptune --version"
# shellcheck disable=SC2016 # the inner bash expands
got=$(PATH=$prefix/bin:/usr/bin:/bin bash --norc -c '
	. "$1/share/bash-completion/completions/tcptune"
	COMP_WORDS=(tcptune play x.yml --che); COMP_CWORD=3; _tcptune
	echo "${COMPREPLY[*]}"' bash "$prefix")
[[ $got == --check ]] && ok "the installed bash completion completes --che" ||
    not_ok "the installed bash completion: '$got'"
cli_finish cli-install
