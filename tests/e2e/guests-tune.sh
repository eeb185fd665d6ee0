#!/bin/bash
# guests-tune.sh - the tuning path on real kernels (issue 13, deliverable 2):
# two User-mode Linux guests (tests/guests/guests.sh, stock Debian 12:
# fq_codel, cubic, rmem_max 212992), tuned through the normal CLI as the
# non-root user with become and strict host keys, with
# playbooks/wan-tuning.yml sized for 200 Mbit/s x 150 ms:
#   1. plan shows fq/bbr/rmem_max as settable (no "cannot be set here") and
#      changes nothing: the files under /etc/sysctl.d, /etc/modules-load.d,
#      /var/lib/tcptune, /etc/systemd/system and the whole `sysctl -a`
#      (minus the counters that move by themselves) are the same after it;
#   2. play sets default_qdisc=fq, replaces eth0's live root qdisc with fq
#      without losing the session, loads tcp_bbr and sch_fq and lists them
#      in /etc/modules-load.d/tcptune.conf (0644), raises rmem_max/wmem_max
#      to the planned value; a second play changes nothing;
#   3. after a reboot of one guest every key of the drop-in is live again,
#      the root qdisc is fq, tcp_bbr is loaded, the route unit has put
#      initcwnd/initrwnd 20 back on the default route, and drift exits 0;
#   4. rollback puts fq_codel back as the live root qdisc and leaves both
#      guests as before the first play (files and `sysctl -a`; tcp_bbr and
#      sch_fq may stay loaded, so the kernel's lists of congestion controls
#      keep bbr), the default route without initcwnd, the unit gone;
#   5. the multiqueue path on a real kernel's mq: one guest's default route
#      through a 4-queue device (an ifb: UML's NIC has one queue), whose
#      root is the kernel's own mq 0: with an fq_codel per queue, as a
#      multiqueue cloud NIC boots: plan shows fq_codel on 4 mq queues -> fq,
#      play leaves the kernel's mq 0: with fq on every queue (as a boot
#      with default_qdisc=fq does), a rerun changes nothing,
#      drift is in sync, rollback gives back tc's exact lines.
# Wall times of every step are logged as "figure:" lines.
#
# Usage: guests-tune.sh [TCPTUNE]. Exit 77 only when not root; when UML
# cannot run here it FAILS with the reason.
# Programs for the guests' sh are in single quotes on purpose.
# shellcheck disable=SC2016
set -uo pipefail
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
e2e_init guests-tune "${1:-}"
# shellcheck source=tests/e2e/guests-lib.sh
. "$(dirname "$0")/guests-lib.sh"
cd "$E2E_SRC" || exit 1

GDIR=/tmp/tcptune-e2e-guests-tune
PB=playbooks/wan-tuning.yml
VARS=(--skip-tags verify -e rtt_ms=150 -e bandwidth_mbit=200 -e route_initcwnd=20)
ROUTE_UNIT=/etc/systemd/system/tcptune-route.service
DROPIN=/etc/sysctl.d/90-tcptune.conf
MODCONF=/etc/modules-load.d/tcptune.conf
# root_qdisc HOST : the kind of eth0's root qdisc.
root_qdisc() {
	guest "$1" tc qdisc show dev eth0 root | awk '{ print $2; exit }'
}

live() {
	guest "$1" sysctl -n "$2" | tr -s ' \t' '  '
}

# route_opts HOST : the initcwnd/initrwnd options of the default route.
route_opts() {
	guest "$1" ip route show default | grep -oE 'init(cwnd|rwnd) [0-9]+' |
	    paste -sd' '
}

# dropin_live HOST : "key: live value" for every key of the drop-in that is
# not live with the drop-in's value (nothing when all are).
dropin_live() {
	guest "$1" sh -c '
		sed -n "s/^\([a-z0-9_.]*\) = \(.*\)$/\1 \2/p" "$1" |
		while read -r k v; do
			l=$(sysctl -n "$k" | tr -s " \t" "  ")
			[ "$l" = "$v" ] || echo "$k: live $l, drop-in $v"
		done' sh "$DROPIN"
}

# modules_state HOST : "loaded" or "absent" for tcp_bbr, then for sch_fq.
modules_state() {
	guest "$1" sh -c 'for m in tcp_bbr sch_fq; do
		[ -d /sys/module/$m ] && echo loaded || echo absent; done' |
	    paste -sd' '
}

# recap_count REGEX : how many PLAY RECAP lines of the last run match.
recap_count() {
	grep -cE "^guest0[12] +: $1" <<<"$RUN_OUT"
}

guests_up 2 tgt 198.18.212
assert_eq "inventory: the non-root user with become" \
    "ansible_user: tcptune|ansible_become: true" \
    "$(grep -oE 'ansible_(user|become): .*' "$LAB_INVENTORY" | paste -sd'|')"
assert_eq "inventory: strict host key checking" 1 \
    "$(grep -c 'StrictHostKeyChecking=yes' "$LAB_INVENTORY")"

volatile_calibrate "${HOSTS[@]}"
for h in "${HOSTS[@]}"; do
	snap "$h" stock
	assert_eq "$h: stock: root qdisc fq_codel, cubic, rmem_max 212992" \
	    "fq_codel cubic 212992" \
	    "$(root_qdisc "$h") $(live "$h" net.ipv4.tcp_congestion_control) $(live "$h" net.core.rmem_max)"
	e2e_log "$h: stock: $(wc -l <"$E2E_TMP/$h.stock.sysctl") sysctl keys compared, $(grep -c '^/' "$E2E_TMP/$h.stock.files") paths"
done

# ---- 1. plan: everything settable, nothing changed
e2e_run 300 tt plan "$PB" "${VARS[@]}"
figure "plan"
assert_rc "plan exits 0" 0
assert_eq "plan: no 'cannot be set here' anywhere" "" \
    "$(grep -i 'cannot be set here' <<<"$RUN_OUT$RUN_ERR")"
assert_eq "plan: no live qdisc 'left as is'" "" \
    "$(grep -i 'left as is' <<<"$RUN_OUT$RUN_ERR")"
declare -A PLANNED_RMEM PLANNED_WMEM
for h in "${HOSTS[@]}"; do
	tbl=$(host_block "$h")
	assert_match "$h: plan: default_qdisc fq_codel -> fq" \
	    'net\.core\.default_qdisc +fq_codel -> fq ' "$tbl"
	assert_match "$h: plan: cubic -> bbr" \
	    'net\.ipv4\.tcp_congestion_control +cubic -> bbr ' "$tbl"
	assert_match "$h: plan: live qdisc fq_codel -> fq" \
	    '  eth0: fq_codel -> fq \(carries the default route' "$tbl"
	PLANNED_RMEM[$h]=$(sed -n 's/^  net\.core\.rmem_max  *212992 -> \([0-9]*\) .*/\1/p' <<<"$tbl")
	PLANNED_WMEM[$h]=$(sed -n 's/^  net\.core\.wmem_max  *212992 -> \([0-9]*\) .*/\1/p' <<<"$tbl")
	assert_match "$h: plan: rmem_max/wmem_max 212992 -> a larger value" \
	    '^[0-9]{7,} [0-9]{7,}$' "${PLANNED_RMEM[$h]} ${PLANNED_WMEM[$h]}"
	e2e_log "$h: planned rmem_max ${PLANNED_RMEM[$h]}, wmem_max ${PLANNED_WMEM[$h]}"
	snap "$h" plan
	assert_same "$h: plan changed no file (path, type, mode, mtime, sha256)" \
	    "$E2E_TMP/$h.stock.files" "$E2E_TMP/$h.plan.files"
	assert_same "$h: plan changed no sysctl (sysctl -a, filtered)" \
	    "$E2E_TMP/$h.stock.sysctl" "$E2E_TMP/$h.plan.sysctl"
	assert_eq "$h: plan loaded no module" "absent absent" \
	    "$(modules_state "$h")"
done

# ---- 2. play
e2e_run 300 tt play "$PB" "${VARS[@]}"
figure "play"
assert_rc "play exits 0 (no session lost while eth0's qdisc was replaced)" 0
assert_eq "play: both guests changed=1 unreachable=0 failed=0" 2 \
    "$(recap_count 'ok=[0-9]+ +changed=1 +unreachable=0 +failed=0')"
assert_eq "play: no 'cannot be set here' and no 'left as is'" "" \
    "$(grep -iE 'cannot be set here|left as is' <<<"$RUN_OUT$RUN_ERR")"
for h in "${HOSTS[@]}"; do
	assert_eq "$h: default_qdisc fq, bbr" "fq bbr" \
	    "$(live "$h" net.core.default_qdisc) $(live "$h" net.ipv4.tcp_congestion_control)"
	assert_eq "$h: eth0's live root qdisc is fq" fq "$(root_qdisc "$h")"
	assert_eq "$h: tcp_bbr and sch_fq loaded" "loaded loaded" \
	    "$(modules_state "$h")"
	assert_eq "$h: $MODCONF lists tcp_bbr and sch_fq, root 0644" \
	    "tcp_bbr sch_fq|root 644" \
	    "$(guest "$h" sh -c 'paste -sd" " "$1"; stat -c "%U %a" "$1"' sh "$MODCONF" | paste -sd'|')"
	assert_eq "$h: rmem_max/wmem_max raised to the planned value" \
	    "${PLANNED_RMEM[$h]} ${PLANNED_WMEM[$h]}" \
	    "$(live "$h" net.core.rmem_max) $(live "$h" net.core.wmem_max)"
	assert_eq "$h: every key of the drop-in is live" "" "$(dropin_live "$h")"
	assert_eq "$h: default route has initcwnd/initrwnd 20" \
	    "initcwnd 20 initrwnd 20" "$(route_opts "$h")"
	assert_eq "$h: $ROUTE_UNIT written and enabled" "yes enabled" \
	    "$(guest "$h" sh -c '[ -f "$1" ] && printf yes; printf " %s" "$(systemctl is-enabled tcptune-route.service)"' sh "$ROUTE_UNIT")"
	e2e_log "$h: after play: $(guest "$h" tc qdisc show dev eth0 root | cut -c1-60)"
	snap "$h" play
done

e2e_run 300 tt play "$PB" "${VARS[@]}"
figure "second play"
assert_rc "second play exits 0" 0
assert_eq "second play: changed=0 on both guests" 2 \
    "$(recap_count 'ok=[0-9]+ +changed=0 +unreachable=0 +failed=0')"

# ---- 3. reboot persistence
h=${HOSTS[1]}
old=$(guest "$h" cat /proc/sys/kernel/random/boot_id)
e2e_run 400 "$GUESTS" reboot -d "$GDIR" "$h"
figure "reboot $h (to sshd of the new boot)"
assert_rc "reboot $h" 0
assert_ne "$h: a new boot" "$old" \
    "$(guest "$h" cat /proc/sys/kernel/random/boot_id)"
assert_eq "$h: after the reboot every key of the drop-in is live" "" \
    "$(dropin_live "$h")"
assert_eq "$h: after the reboot the root qdisc is fq" fq "$(root_qdisc "$h")"
assert_eq "$h: after the reboot tcp_bbr and sch_fq are loaded" \
    "loaded loaded" \
    "$(modules_state "$h")"
assert_eq "$h: after the reboot rmem_max/wmem_max as planned" \
    "${PLANNED_RMEM[$h]} ${PLANNED_WMEM[$h]}" \
    "$(live "$h" net.core.rmem_max) $(live "$h" net.core.wmem_max)"
# sshd is up before the boot is over: units ordered after
# network-online.target (tcptune-route.service) may still be waiting.
e2e_run 200 guest "$h" timeout 150 systemctl is-system-running --wait
figure "$h: boot finished (systemctl is-system-running --wait)"
assert_eq "$h: the boot finished with no failed unit" running "$RUN_OUT"
assert_eq "$h: after the reboot the route unit put initcwnd/initrwnd back" \
    "initcwnd 20 initrwnd 20|inactive|0" \
    "$(route_opts "$h")|$(guest "$h" systemctl is-active tcptune-route.service)|$(guest "$h" systemctl show -p ExecMainStatus --value tcptune-route.service)"
snap "$h" reboot
e2e_run 300 tt drift "$PB" "${VARS[@]}" -l "$h"
figure "drift $h"
assert_rc "drift of $h after its reboot exits 0" 0
assert_match "drift: $h in sync" 'drift: 1 in sync, 0 drifted' "$RUN_OUT"

# ---- 4. rollback
e2e_run 300 tt rollback
figure "rollback"
assert_rc "rollback exits 0" 0
for g in "${HOSTS[@]}"; do
	assert_eq "$g: rollback: eth0's live root qdisc is fq_codel again" \
	    fq_codel "$(root_qdisc "$g")"
	assert_eq "$g: rollback: default route without initcwnd/initrwnd" "" \
	    "$(route_opts "$g")"
	assert_eq "$g: rollback: $MODCONF as before the play (absent)" absent \
	    "$(guest "$g" sh -c '[ -e "$1" ] && cat "$1" | paste -sd" " || echo absent' sh "$MODCONF")"
	snap "$g" rollback
	# Without mtimes: a restored file is the same file, not the same inode.
	sed 's/|[^|]*$//' "$E2E_TMP/$g.stock.files" >"$E2E_TMP/$g.a.files"
	sed 's/|[^|]*$//' "$E2E_TMP/$g.rollback.files" >"$E2E_TMP/$g.b.files"
	assert_same "$g: rollback: files as before the play (path, type, mode, sha256)" \
	    "$E2E_TMP/$g.a.files" "$E2E_TMP/$g.b.files"
	# bbr stays loaded (rollback unloads nothing), so the kernel lists it;
	# on the rebooted guest, the keys that the reboot alone changed (the
	# kernel sizes some at boot) may differ from the first boot.
	allowed="net.ipv4.tcp_allowed_congestion_control net.ipv4.tcp_available_congestion_control"
	if [[ -f $E2E_TMP/$g.reboot.sysctl ]]; then
		allowed+=" $(changed_keys "$E2E_TMP/$g.play.sysctl" \
		    "$E2E_TMP/$g.reboot.sysctl" | paste -sd' ')"
		allowed=${allowed% }
		e2e_log "$g: rebooted: keys allowed to differ: $allowed"
	fi
	re="^($(tr ' ' '|' <<<"${allowed//./\\.}")) "
	grep -Ev "$re" "$E2E_TMP/$g.stock.sysctl" >"$E2E_TMP/$g.a.sysctl"
	grep -Ev "$re" "$E2E_TMP/$g.rollback.sysctl" >"$E2E_TMP/$g.b.sysctl"
	assert_same "$g: rollback: sysctl -a as before the play (but $allowed)" \
	    "$E2E_TMP/$g.a.sysctl" "$E2E_TMP/$g.b.sysctl"
	assert_eq "$g: rollback: bbr still available (not unloaded), cubic in use" \
	    "reno cubic bbr|cubic" \
	    "$(live "$g" net.ipv4.tcp_available_congestion_control)|$(live "$g" net.ipv4.tcp_congestion_control)"
done

# ---- 5. the multiqueue path: a real kernel's mq, on a 4-queue device
h=${HOSTS[0]}
MQ=(-e rtt_ms=150 -e bandwidth_mbit=200 --tags congestion -l "$h")
guest "$h" sh -c 'modprobe ifb numifbs=0 &&
	ip link add ifbq numtxqueues 4 type ifb && ip link set ifbq up &&
	ip route replace default dev ifbq'
guest "$h" tc qdisc show dev ifbq >"$E2E_TMP/mq.stock"
assert_eq "$h: ifbq boots with the kernel's mq 0: and 4 fq_codel leaves" \
    "mq 0: root|4 fq_codel" \
    "$(awk 'NR == 1 { print $2, $3, $4 }' "$E2E_TMP/mq.stock")|$(grep -c '^qdisc fq_codel 0: parent :[1-4] ' "$E2E_TMP/mq.stock") fq_codel"
e2e_run 300 tt plan "$PB" "${MQ[@]}"
figure "plan (mq)"
assert_rc "plan (mq) exits 0" 0
assert_match "$h: plan: fq_codel on 4 mq queues -> fq on every queue" \
    '  ifbq: fq_codel on 4 mq queues -> fq on every mq queue \(carries the default route' \
    "$RUN_OUT"
guest "$h" tc qdisc show dev ifbq >"$E2E_TMP/mq.plan"
assert_same "$h: plan changed no qdisc of ifbq" "$E2E_TMP/mq.stock" \
    "$E2E_TMP/mq.plan"
e2e_run 300 tt play "$PB" "${MQ[@]}"
figure "play (mq)"
assert_rc "play (mq) exits 0" 0
assert_eq "$h: the kernel's own mq 0: kept at the root, fq on each of the 4 queues" \
    "mq 0: root|fq :1 fq :2 fq :3 fq :4" \
    "$(guest "$h" tc qdisc show dev ifbq | awk 'NR == 1 { print $2, $3, $4 }')|$(guest "$h" tc qdisc show dev ifbq | awk '$4 == "parent" { print $2, $5 }' | sort -k2 | paste -sd' ')"
e2e_run 300 tt play "$PB" "${MQ[@]}"
assert_rc "second play (mq) exits 0" 0
assert_match "second play (mq): changed=0" \
    "$h +: ok=[0-9]+ +changed=0 +unreachable=0 +failed=0" "$RUN_OUT"
e2e_run 300 tt drift "$PB" "${MQ[@]}"
assert_rc "drift (mq) exits 0" 0
assert_match "drift (mq): in sync" 'drift: 1 in sync, 0 drifted' "$RUN_OUT"
e2e_run 300 tt rollback -l "$h"
assert_rc "rollback (mq) exits 0" 0
guest "$h" tc qdisc show dev ifbq >"$E2E_TMP/mq.rollback"
assert_same "$h: rollback: ifbq's qdiscs exactly as booted (tc's lines)" \
    "$E2E_TMP/mq.stock" "$E2E_TMP/mq.rollback"
guest "$h" sh -c 'ip route replace default via "$1" dev eth0 &&
	ip link del ifbq' sh "$LAB_GATEWAY"

e2e_log "took $SECONDS s"
e2e_finish
