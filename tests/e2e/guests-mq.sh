#!/bin/bash
# guests-mq.sh - the multiqueue path on a real kernel (issue 21, deliverable
# 2): QEMU guests (tests/guests/qemu-guests.sh), each a stock Debian 12 with
# Debian's own 6.1 kernel on a virtio-net NIC with several queue pairs, MTU
# 1460, as on GCP: root qdisc mq with an fq_codel leaf per queue, cubic.
# playbooks/wan-tuning.yml's congestion task (bbr + fq, load_module: true)
# through the normal CLI as the non-root user with become and strict host
# keys:
#   1. plan shows the mq tree before -> after (fq_codel on N mq queues -> fq
#      on every mq queue) and changes no qdisc;
#   2. play leaves mq at the root with fq on every queue, over one SSH
#      connection that lives through the qdisc change (the run's own count
#      of connections, and the guest's sshd log); a rerun changes nothing;
#      drift is in sync;
#   3. a reboot (default_qdisc=fq from the drop-in) gives the very tree the
#      play left: kinds, handles and parents of `tc -j qdisc show dev eth0`;
#      drift is in sync after it;
#   4. rollback gives back the stock tree (fq_codel leaves), tc's kinds,
#      handles and parents as booted.
# `tc -s qdisc show dev eth0` before and after, the boot and reboot times
# and every step's wall time are logged as "figure:" lines.
#
# CI runs one guest with 2 queue pairs (375 s with TCG on a shared 2-core
# machine at load ~9: boot 118 s, reboot 123 s). The long
# tier: MQ_GUESTS=2 MQ_QUEUES=4 (two guests, 4 queue pairs and 4 vCPUs
# each), by hand:
#   MQ_GUESTS=2 MQ_QUEUES=4 bash tests/e2e/guests-mq.sh build/tcptune
#
# Usage: guests-mq.sh [TCPTUNE]. Exit 77 only when not root; when QEMU
# cannot run here it FAILS with the reason.
# jq programs are in single quotes on purpose.
# shellcheck disable=SC2016
set -uo pipefail
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
e2e_init guests-mq "${1:-}"
GUESTS=$E2E_SRC/tests/guests/qemu-guests.sh
GUESTS_KIND=QEMU
# shellcheck source=tests/e2e/guests-lib.sh
. "$(dirname "$0")/guests-lib.sh"
cd "$E2E_SRC" || exit 1

GDIR=/tmp/tcptune-e2e-guests-mq
PB=playbooks/wan-tuning.yml
NQ=${MQ_QUEUES:-2}
# A software-emulated guest on a busy machine answers slowly: connect
# within 60 s (default 10), boot within 15 min.
TAGS=(--tags congestion --timeout 60)
export GUESTS_BOOT_SECS=${GUESTS_BOOT_SECS:-900} GUESTS_UP_SECS=${GUESTS_UP_SECS:-960}

# tree HOST : eth0's qdiscs as "KIND HANDLE PARENT" (root for the root),
# sorted, without ingress/clsact: what a reboot and the play must agree on.
tree() {
	guest "$1" tc -j qdisc show dev eth0 | jq -r '.[] |
	    select((.parent // "") | startswith("ffff:") | not) |
	    "\(.kind) \(.handle) \(.parent // "root")"' | sort
}

# shape TREE : "ROOTKIND|N LEAFKIND..." for the tree's root and its leaves.
shape() {
	awk '$3 == "root" { r = $1; next } { n++; k[$1]++ }
	    END { s = r "|" n; for (x in k) s = s " " x; print s }' <<<"$1"
}

qsetting() {
	guest "$1" sysctl -n net.core.default_qdisc net.ipv4.tcp_congestion_control |
	    paste -sd' '
}

# accepted HOST SINCE : sshd's accepted logins of the tcptune user since
# the guest's own clock read SINCE.
accepted() {
	guest "$1" journalctl -u ssh --since "@$2" -o cat --no-pager |
	    grep -c 'Accepted publickey for tcptune '
}

guests_up "${MQ_GUESTS:-1}" tgmq 198.18.216 -q "$NQ"
e2e_log "accel $LAB_ACCEL, $LAB_QUEUES queue pairs, MTU $LAB_MTU"

declare -A STOCK PLAYED
for h in "${HOSTS[@]}"; do
	assert_match "$h: Debian's own kernel" '^6\.1\.[0-9]+-[0-9]+-amd64$' \
	    "$(guest "$h" uname -r)"
	assert_eq "$h: eth0 has $NQ tx queues, MTU 1460" "$NQ 1460" \
	    "$(guest "$h" sh -c 'ls -d /sys/class/net/eth0/queues/tx-* | wc -l; cat /sys/class/net/eth0/mtu' | paste -sd' ')"
	STOCK[$h]=$(tree "$h")
	assert_eq "$h: stock: the kernel's mq 0: with an fq_codel leaf per queue" \
	    "mq|$NQ fq_codel" "$(shape "${STOCK[$h]}")"
	assert_eq "$h: stock: default_qdisc fq_codel, cubic" "fq_codel cubic" \
	    "$(qsetting "$h")"
	e2e_log "$h: stock: tc -s qdisc show dev eth0:"
	guest "$h" tc -s qdisc show dev eth0 | sed 's/^/    | /'
done

# ---- 1. plan
e2e_run 300 tt plan "$PB" "${TAGS[@]}"
figure "plan"
assert_rc "plan exits 0" 0
for h in "${HOSTS[@]}"; do
	# The host's block of the plan.
	blk=$(awk -v h="$h" '/^(ok|changed|failed|skipping): \[/ {
	    on = index($0, "[" h "]") > 0 } on' <<<"$RUN_OUT")
	assert_match "$h: plan shows the mq tree before -> after" \
	    "eth0: fq_codel on $NQ mq queues -> fq on every mq queue \\(carries the default route\\)" \
	    "$blk"
	assert_eq "$h: plan changed no qdisc" "${STOCK[$h]}" "$(tree "$h")"
	assert_eq "$h: plan changed no setting" "fq_codel cubic" "$(qsetting "$h")"
done
e2e_log "plan: $(grep -m1 'live qdisc on eth0' <<<"$RUN_OUT")"

# ---- 2. play, over one connection
declare -A T0
for h in "${HOSTS[@]}"; do
	T0[$h]=$(guest "$h" date +%s)
done
# --confirm-timeout 0: the claim is that the one connection the play
# opens survives eth0's qdiscs being replaced (a confirmation would open a
# second one: e2e/guests-confirm tests that).
e2e_run 300 tt play "$PB" "${TAGS[@]}" --format json --confirm-timeout 0
figure "play"
assert_rc "play exits 0 (no session lost while eth0's qdiscs were replaced)" 0
for h in "${HOSTS[@]}"; do
	assert_eq "$h: play: changed=1 failed=0 unreachable=0, over 1 connection" \
	    "1 0 0 1" \
	    "$(jq_out --arg h "$h" '.stats[$h] | "\(.changed) \(.failed) \(.unreachable) \(.connections)"')"
	assert_eq "$h: sshd accepted one login of tcptune during the play" 1 \
	    "$(accepted "$h" "${T0[$h]}")"
	PLAYED[$h]=$(tree "$h")
	assert_eq "$h: play: mq kept at the root, fq on each of the $NQ queues" \
	    "mq|$NQ fq" "$(shape "${PLAYED[$h]}")"
	assert_eq "$h: play: default_qdisc fq, bbr" "fq bbr" "$(qsetting "$h")"
	e2e_log "$h: after the play: tc -s qdisc show dev eth0:"
	guest "$h" tc -s qdisc show dev eth0 | sed 's/^/    | /'
done

e2e_run 300 tt play "$PB" "${TAGS[@]}" --format json
figure "second play"
assert_rc "second play exits 0" 0
for h in "${HOSTS[@]}"; do
	assert_eq "$h: second play: changed=0" "0 0 0" \
	    "$(jq_out --arg h "$h" '.stats[$h] | "\(.changed) \(.failed) \(.unreachable)"')"
	assert_eq "$h: second play touched no qdisc" "${PLAYED[$h]}" "$(tree "$h")"
done

e2e_run 300 tt drift "$PB" "${TAGS[@]}"
figure "drift"
assert_rc "drift after the play exits 0" 0
assert_match "drift: all in sync" "drift: ${#HOSTS[@]} in sync, 0 drifted" "$RUN_OUT"

# ---- 3. the tree a reboot gives
h=${HOSTS[0]}
e2e_run 960 "$GUESTS" reboot -d "$GDIR" "$h"
figure "reboot $h (to sshd of the new boot)"
assert_rc "reboot $h" 0
assert_eq "$h: after the reboot eth0's tree is the play's (kinds, handles, parents)" \
    "${PLAYED[$h]}" "$(tree "$h")"
assert_eq "$h: after the reboot default_qdisc fq, bbr" "fq bbr" "$(qsetting "$h")"
e2e_run 300 tt drift "$PB" "${TAGS[@]}" -l "$h"
figure "drift $h after its reboot"
assert_rc "drift of $h after its reboot exits 0" 0
assert_match "drift: $h in sync" 'drift: 1 in sync, 0 drifted' "$RUN_OUT"

# ---- 4. rollback
e2e_run 300 tt rollback
figure "rollback"
assert_rc "rollback exits 0" 0
for h in "${HOSTS[@]}"; do
	assert_eq "$h: rollback: the stock tree, fq_codel leaves (kinds, handles, parents)" \
	    "${STOCK[$h]}" "$(tree "$h")"
	assert_eq "$h: rollback: default_qdisc fq_codel, cubic" "fq_codel cubic" \
	    "$(qsetting "$h")"
done

e2e_log "took $SECONDS s"
e2e_finish
