#!/bin/bash
# guests-ifaces.sh - the interfaces that carry the traffic, found on real
# kernels, not assumed (issue 21, deliverable 1). Two labs of two User-mode
# Linux guests (stock Debian 12: fq_codel on every NIC), each guest the
# other's iperf_peer, a play of tcp_buffers + congestion (bbr, fq):
#   A. two NICs (--private): eth0 with the default route on the
#      controller's bridge, vec1 (the guests' name for it) on a private
#      bridge that carries every byte to the peer (iperf_address): the
#      probe routes the peer out of vec1; plan shows "vec1: fq_codel -> fq
#      (carries traffic to PEER)" and eth0's line (the default route);
#      after the play both are fq live; drift exits 0, and 8 (drift)
#      naming vec1 after `tc qdisc replace dev vec1 root fq_codel`;
#      rollback puts fq_codel back on both interfaces (their backups, one
#      per interface);
#   B. no default route (--no-default-route: a private network, like a
#      vRack): the probe says so and routes the peer out of eth0; after the
#      play eth0 is fq; drift 0, then 8 after the replace on eth0;
#   C. no interface can be determined: a play without peers on B's guests
#      (no default route and no peers) and one whose peer has no route
#      (198.19.99.99: nothing is sent, the lookup fails) FAIL the task with
#      the reason and leave the live qdisc and the files as they were.
# Wall times are logged as "figure:" lines.
#
# Usage: guests-ifaces.sh [TCPTUNE]. Exit 77 only when not root; when UML
# cannot run here it FAILS with the reason.
# Programs for the guests' sh and jq are in single quotes on purpose.
# shellcheck disable=SC2016
set -uo pipefail
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
e2e_init guests-ifaces "${1:-}"
# shellcheck source=tests/e2e/guests-lib.sh
. "$(dirname "$0")/guests-lib.sh"
cd "$E2E_SRC" || exit 1

PB=$E2E_TMP/ifaces.yml
PB_CC=$E2E_TMP/congestion.yml
VARS=(-e rtt_ms=100 -e bandwidth_mbit=100)

cat >"$PB" <<'EOF'
- name: tune the paths to the peers
  hosts: guests
  tasks:
    - name: buffers
      tcp_buffers: {}
    - name: congestion
      congestion: {algorithm: bbr, qdisc: fq, load_module: true}
EOF
cat >"$PB_CC" <<'EOF'
- name: congestion only
  hosts: guests
  tasks:
    - name: congestion
      congestion: {algorithm: bbr, qdisc: fq, load_module: true}
EOF

# peer_inventory OUT [PEER...] : the lab's inventory with guest0N's
# iperf_peer set to the Nth PEER (none past the last). A peer "far" is a
# host outside the play's group at 198.19.99.99, which no guest has a
# route to (its lookup fails on the guest: nothing is sent to it).
peer_inventory() {
	local out=$1 line far=0
	shift
	[[ " $* " != *" far "* ]] || far=1
	while IFS= read -r line; do
		printf '%s\n' "$line"
		if [[ $line =~ ^\ {8}guest0[0-9]+:$ && $# -gt 0 ]]; then
			[[ -z $1 ]] || echo "          iperf_peer: $1"
			shift
		fi
	done <"$LAB_INVENTORY" >"$out"
	((far)) || return 0
	cat >>"$out" <<'EOF'
    others:
      hosts:
        far:
          ansible_host: 198.19.99.99
EOF
}

# ti INVENTORY ARGS... : tcptune against INVENTORY.
# shellcheck disable=SC2317 # called through e2e_run
ti() {
	local inv=$1
	shift
	"$TCPTUNE" "$@" -i "$inv" --known-hosts "$LAB_KNOWN_HOSTS" --no-color
}

# root_qdisc HOST DEV : the kind of DEV's root qdisc.
root_qdisc() {
	guest "$1" tc qdisc show dev "$2" root | awk '{ print $2; exit }'
}

# files_snap HOST : what a play writes (drop-in, modules, backups).
files_snap() {
	guest "$1" sh -c 'for d in /etc/sysctl.d /etc/modules-load.d \
	    /var/lib/tcptune; do [ -d $d ] && find $d ! -type d \
	    -exec sha256sum {} +; done; :' | sort
}

# probe_facts INVENTORY : the probe's facts of every guest, as JSON.
probe_facts() {
	e2e_run 300 ti "$1" probe guests --format json
	assert_rc "probe exits 0" 0
	printf '%s\n' "$RUN_OUT" >"$E2E_TMP/probe.json"
}

# pj HOST JQ : a fact of HOST from the last probe_facts.
pj() {
	jq -r --arg h "$1" ".plays[0].results[\$h][0].data | $2" \
	    "$E2E_TMP/probe.json"
}

# drift_cycle INVENTORY DEV : drift in sync after the play; the live
# qdisc of DEV replaced by hand on the first guest is drift (bit 8) that
# names DEV.
drift_cycle() {
	local inv=$1 dev=$2 h=${HOSTS[0]}
	e2e_run 300 ti "$inv" drift "$PB" "${VARS[@]}"
	figure "drift"
	assert_rc "drift after the play exits 0" 0
	assert_match "drift: 2 in sync" 'drift: 2 in sync, 0 drifted' "$RUN_OUT"
	guest "$h" tc qdisc replace dev "$dev" root fq_codel
	assert_eq "$h: $dev's root qdisc replaced by hand" fq_codel \
	    "$(root_qdisc "$h" "$dev")"
	e2e_run 300 ti "$inv" drift "$PB" "${VARS[@]}"
	figure "drift (replaced)"
	assert_rc "drift after the replace exits with the drift bit" 8
	assert_match "drift: $h drifted" 'drift: 1 in sync, 1 drifted' "$RUN_OUT"
	assert_match "drift names the qdisc of $dev (fq_codel, not fq)" \
	    "qdisc.*fq_codel.*$dev|$dev.*fq_codel" "$RUN_OUT"
}

# ---- A. two NICs: the default route on eth0, the peers on the private one
GDIR=/tmp/tcptune-e2e-guests-ifaces-a
guests_up 2 tgk 198.18.222 --private 198.19.222
INV=$E2E_TMP/two-nics.yml
peer_inventory "$INV" "${HOSTS[1]}" "${HOSTS[0]}"
read -r -a PADDRS <<<"$LAB_PRIVATE_ADDRS"
P=$LAB_PRIVATE_IF	# the NIC on the private bridge
for i in 0 1; do
	h=${HOSTS[$i]}
	assert_eq "$h: stock: eth0 and $P fq_codel, the default route on eth0" \
	    "fq_codel fq_codel eth0" \
	    "$(root_qdisc "$h" eth0) $(root_qdisc "$h" "$P") $(guest "$h" ip route show default | awk '{ print $5 }')"
done
probe_facts "$INV"
for i in 0 1; do
	h=${HOSTS[$i]} p=${PADDRS[1 - i]}
	assert_eq "$h: probe: the peer $p is routed out of $P from ${PADDRS[$i]}" \
	    "$P ${PADDRS[$i]}" \
	    "$(pj "$h" ".routes[\"$p\"] | \"\(.interface) \(.source)\"")"
	assert_eq "$h: probe: eth0 and $P with qdisc, queues, MTU" \
	    "eth0 true fq_codel 1 1500|$P false fq_codel 1 1500" \
	    "$(pj "$h" '.interfaces | to_entries | sort_by(.key) | map("\(.key) \(.value.default_route) \(.value.qdisc.kind) \(.value.tx_queues) \(.value.mtu)") | join("|")')"
done
e2e_run 300 ti "$INV" probe guests
assert_match "probe's line names both interfaces" \
    "eth0 qdisc fq_codel, $P qdisc fq_codel" "$RUN_OUT"

e2e_run 300 ti "$INV" plan "$PB" "${VARS[@]}"
figure "plan (two NICs)"
assert_rc "plan exits 0" 0
for i in 0 1; do
	h=${HOSTS[$i]} peer=${HOSTS[1 - i]}
	tbl=$(host_block "$h")
	assert_match "$h: plan: $P: fq_codel -> fq (carries traffic to $peer)" \
	    "  $P: fq_codel -> fq \\(carries traffic to $peer\\)" "$tbl"
	assert_match "$h: plan: eth0: fq_codel -> fq (the default route)" \
	    '  eth0: fq_codel -> fq \(carries the default route\)' "$tbl"
	assert_eq "$h: plan changed no qdisc" "fq_codel fq_codel" \
	    "$(root_qdisc "$h" eth0) $(root_qdisc "$h" "$P")"
done
for h in "${HOSTS[@]}"; do
	files_snap "$h" >"$E2E_TMP/$h.stock.files"
done

e2e_run 300 ti "$INV" play "$PB" "${VARS[@]}"
figure "play (two NICs)"
assert_rc "play exits 0" 0
for h in "${HOSTS[@]}"; do
	assert_eq "$h: after the play: $P (the peer's) and eth0 are fq live" \
	    "fq fq" "$(root_qdisc "$h" "$P") $(root_qdisc "$h" eth0)"
	assert_eq "$h: a backup per interface" "qdisc@eth0 qdisc@$P" \
	    "$(guest "$h" sh -c 'cd /var/lib/tcptune/backup/* && ls -d qdisc@*' | paste -sd' ')"
done
drift_cycle "$INV" "$P"
e2e_run 300 ti "$INV" rollback guests
figure "rollback (two NICs)"
assert_rc "rollback exits 0" 0
for h in "${HOSTS[@]}"; do
	assert_eq "$h: rollback: fq_codel on eth0 and $P again" \
	    "fq_codel fq_codel" "$(root_qdisc "$h" eth0) $(root_qdisc "$h" "$P")"
	files_snap "$h" >"$E2E_TMP/$h.rollback.files"
	assert_eq "$h: rollback: the files as before the play" \
	    "$(cat "$E2E_TMP/$h.stock.files")" "$(cat "$E2E_TMP/$h.rollback.files")"
done
"$GUESTS" down -d "$GDIR" >/dev/null 2>&1

# ---- B. no default route: the peers on the only network
GDIR=/tmp/tcptune-e2e-guests-ifaces-b
guests_up 2 tgj 198.18.221 --no-default-route
INV=$E2E_TMP/no-default.yml
peer_inventory "$INV" "${HOSTS[1]}" "${HOSTS[0]}"
probe_facts "$INV"
for i in 0 1; do
	h=${HOSTS[$i]} p=${ADDRS[1 - i]}
	assert_eq "$h: no default route (ip route show default is empty)" "" \
	    "$(guest "$h" ip route show default)"
	assert_eq "$h: probe: no default route, the peer routed out of eth0" \
	    "null no default route|eth0" \
	    "$(pj "$h" '"\(.default_route) \(.default_route_reason)"')|$(pj "$h" ".routes[\"$p\"].interface")"
done
e2e_run 300 ti "$INV" plan "$PB" "${VARS[@]}"
assert_rc "plan (no default route) exits 0" 0
assert_match "plan: eth0: fq_codel -> fq (carries traffic to ${HOSTS[1]})" \
    "  eth0: fq_codel -> fq \\(carries traffic to ${HOSTS[1]}\\)" "$RUN_OUT"
e2e_run 300 ti "$INV" play "$PB" "${VARS[@]}"
figure "play (no default route)"
assert_rc "play exits 0" 0
for h in "${HOSTS[@]}"; do
	assert_eq "$h: after the play eth0 is fq live" fq "$(root_qdisc "$h" eth0)"
done
drift_cycle "$INV" eth0

# ---- C. no interface can be determined: the task fails with the reason
h=${HOSTS[0]}
files_snap "$h" >"$E2E_TMP/c.before.files"
NOPEERS=$E2E_TMP/no-peers.yml
peer_inventory "$NOPEERS"
e2e_run 300 ti "$NOPEERS" play "$PB_CC" -l "$h"
figure "play (no default route, no peers)"
assert_rc "play with no default route and no peers fails (bit 2)" 2
assert_match "$h: the reason: no default route and no peers" \
    "cannot tell which interface carries the traffic: no interface carries this host's traffic: no default route and no peers" \
    "$RUN_OUT$RUN_ERR"
FAR=$E2E_TMP/far.yml
peer_inventory "$FAR" far
e2e_run 300 ti "$FAR" play "$PB_CC" -l "$h"
figure "play (a peer with no route)"
assert_rc "play with a peer that has no route fails (bit 2)" 2
assert_match "$h: the reason names the peer and the kernel's answer" \
    'no route to peer far \(198\.19\.99\.99\): RTNETLINK answers: Network is unreachable' \
    "$RUN_OUT$RUN_ERR"
assert_eq "$h: the failed plays left eth0's qdisc as it was (fq_codel)" \
    fq_codel "$(root_qdisc "$h" eth0)"
files_snap "$h" >"$E2E_TMP/c.after.files"
assert_eq "$h: the failed plays wrote no file" \
    "$(cat "$E2E_TMP/c.before.files")" "$(cat "$E2E_TMP/c.after.files")"

e2e_log "took $SECONDS s"
e2e_finish
