#!/bin/bash
# systemd.sh - lib/remote/systemd.sh (the host's part of a systemd/service
# task) under dash with a systemctl stub in a fake root (the machine's own
# systemd is never asked): read shows the unit's states and is-enabled's
# status, after daemon-reload only when asked and stopping at a failed
# one; write runs enable/disable, then the state's command, in that order,
# and stops after a failed enable.
# shellcheck source=tests/shell/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
sh_init systemd
SYSTEMD_SH=$SH_SRC/lib/remote/systemd.sh

# sd_root NAME [STUB]: a fake root whose systemctl answers show with an
# inactive, disabled unit (or runs STUB).
sd_root() {
	new_root "$1"
	# shellcheck disable=SC2016 # for the stub
	stub systemctl "${2:-case "\$1" in
	show) printf 'LoadState=loaded\nActiveState=inactive\nSubState=dead\nUnitFileState=disabled\nLoadError=\n' ;;
	is-enabled) echo disabled; exit 1 ;;
	esac}"
}

run_sd() {
	local mode=$1
	shift
	OUT=$(cd "$R" && TCPTUNE_TEST_ROOT=$R call systemd "$SYSTEMD_SH" \
	    MODE="$mode" UNIT=demo.service RELOAD=0 ENABLE= ACTION= "$@")
}

calls() {
	cat "$R/calls"
}

sd_root read
run_sd read
assert_block "read: the unit's states" \
    $'@show\nLoadState=loaded\nActiveState=inactive\nSubState=dead\nUnitFileState=disabled\nLoadError='
assert_block "read: is-enabled's status and answer" \
    $'@enabled\nrc=1\nout=disabled'
assert_eq "read: show and is-enabled, nothing else" \
    $'systemctl show demo.service --no-pager -p LoadState -p ActiveState -p SubState -p UnitFileState -p LoadError\nsystemctl is-enabled demo.service -l' \
    "$(calls)"
assert_no_line "read: no daemon-reload unless asked" "@reload"

sd_root reload
run_sd read RELOAD=1
assert_eq "read: daemon-reload first" "systemctl daemon-reload" \
    "$(head -n 1 "$R/calls")"
assert_block "read: its status" $'@reload\nrc=0'
# shellcheck disable=SC2016 # for the stub
sd_root reload-fails 'case "$1" in daemon-reload) echo "Access denied" >&2; exit 1 ;; esac'
run_sd read RELOAD=1
assert_block "read: a failed daemon-reload said" \
    $'@reload\nrc=1\nout=\nerr=Access denied\n@done'
assert_eq "read: and nothing after it" 1 "$(calls | wc -l)"

sd_root write
run_sd write ENABLE=enable ACTION=restart
assert_eq "write: enable, then the state's command" \
    $'systemctl enable demo.service\nsystemctl restart demo.service' \
    "$(calls)"
assert_block "write: each one's status" $'@enable\nrc=0\nout=\nerr=\n@action\nrc=0'
# shellcheck disable=SC2016 # for the stub
sd_root enable-fails 'case "$1" in enable) echo "no such unit" >&2; exit 1 ;; esac'
run_sd write ENABLE=enable ACTION=start
assert_block "write: a failed enable said" $'@enable\nrc=1\nout=\nerr=no such unit\n@done'
assert_eq "write: and no start after it" "systemctl enable demo.service" \
    "$(calls)"
sd_root none
run_sd write
assert_eq "write: nothing asked, nothing run" "" "$(calls)"

sh_finish
