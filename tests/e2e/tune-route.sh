#!/usr/bin/env bash
# The route module: initcwnd/initrwnd set live on the default route, a
# oneshot unit (persist: unit) written into the host's own
# /etc/systemd/system and enabled by its wants link, no empty drop-in, a
# rerun that changes nothing, and a rollback that takes both away.
# shellcheck source=tests/e2e/tune-lib.sh
. "$(dirname "$0")/tune-lib.sh"
e2e_init tune-route "${1:-}"
e2e_lab_up 2 t47 198.18.47
PB=$TUNE_DATA/route-unit.yml
UNIT=/etc/systemd/system/tcptune-route.service
LINK=/etc/systemd/system/multi-user.target.wants/tcptune-route.service

e2e_run 40 tt plan "$PB"
assert_rc "plan exits 0" 0
assert_match "plan shows the route options and the unit" \
    "default route: initcwnd 10 initrwnd 10, kept across reboots" "$RUN_OUT"
assert_eq "plan changed nothing live" "" \
    "$(lab lab01 ip route show default | grep -o initcwnd)"

e2e_run 40 tt play "$PB"
assert_rc "play exits 0" 0
for h in lab01 lab02; do
	assert_match "$h: live route has the options" \
	    "initcwnd 10 initrwnd 10" "$(lab "$h" ip route show default)"
	assert_match "$h: the unit sets them at boot" \
	    "ExecStart=/bin/sh -c 'exec ip route change \\\$\\\$\(ip route show default \| head -n 1\) initcwnd 10 initrwnd 10'" \
	    "$(lab "$h" cat "$UNIT")"
	assert_eq "$h: the unit is enabled" ../tcptune-route.service \
	    "$(lab "$h" readlink "$LINK")"
	assert_eq "$h: no empty drop-in" absent "$(file_sha "$h" "$DROPIN")"
done
assert_eq "the machine's own /etc/systemd/system is untouched" "" \
    "$(ls /etc/systemd/system | grep tcptune || true)"

e2e_run 40 tt play "$PB" --format json
assert_eq "rerun: nothing changed" 0 \
    "$(jq_out '[.stats[].changed] | add')"

e2e_run 40 tt rollback
assert_rc "rollback exits 0" 0
for h in lab01 lab02; do
	assert_eq "$h: route options gone" "" \
	    "$(lab "$h" ip route show default | grep -o initcwnd || true)"
	assert_eq "$h: unit removed" absent "$(file_sha "$h" "$UNIT")"
done
e2e_finish
