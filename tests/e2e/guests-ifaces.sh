#!/bin/bash
# guests-ifaces.sh - the interfaces that carry the traffic, found on real
# kernels, not assumed (issue 21, deliverable 1). One lab of two User-mode
# Linux guests (stock Debian 12: fq_codel on every NIC) booted with no
# default route and a second NIC, vec1, on a private bridge that carries
# every byte to the peer (iperf_address: an OVH vRack, a GCP second NIC);
# eth0 is the controller's network. Each guest is the other's iperf_peer;
# the play is tcp_buffers + congestion (bbr, fq):
#   A. no default route: the probe says so and routes the peer out of vec1
#      from its own address; the play's diff (what plan shows) has
#      "vec1: fq_codel -> fq (carries traffic to PEER)" and nothing for
#      eth0; after it vec1 is fq live and eth0 as it was; drift exits 0,
#      then 8 (the drift bit) naming vec1 after `tc qdisc replace dev vec1
#      root fq_codel`;
#   C. no interface can be determined: a play without peers (no default
#      route and no peers) and one whose peer has no route (198.19.99.99:
#      the lookup fails on the guest, nothing is sent) FAIL the task with
#      the reason and change no qdisc and no file;
#   B. two NICs: a default route added on eth0: the play shows both lines
#      (eth0: the default route) and puts fq on both, eth0's qdiscs saved
#      beside vec1's in the first backup; the same drift cycle on vec1;
#      rollback gives fq_codel on both and the files as before the first
#      play.
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
	# A guest's forks are slow on a loaded machine (a probe took 100 s
	# at a load of 15 on 2 cores): wait for the answer, not for the clock.
	"$TCPTUNE" "$@" -i "$inv" --known-hosts "$LAB_KNOWN_HOSTS" --no-color \
	    --timeout 60 --command-timeout 600
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
	e2e_run 900 ti "$1" probe guests --format json
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
	e2e_run 900 ti "$inv" drift "$PB" "${VARS[@]}"
	figure "drift"
	assert_rc "drift after the play exits 0" 0
	assert_match "drift: 2 in sync" 'drift: 2 in sync, 0 drifted' "$RUN_OUT"
	guest "$h" tc qdisc replace dev "$dev" root fq_codel
	assert_eq "$h: $dev's root qdisc replaced by hand" fq_codel \
	    "$(root_qdisc "$h" "$dev")"
	e2e_run 900 ti "$inv" drift "$PB" "${VARS[@]}"
	figure "drift (replaced)"
	assert_rc "drift after the replace exits with the drift bit" 8
	assert_match "drift: $h drifted" 'drift: 1 in sync, 1 drifted' "$RUN_OUT"
	assert_match "drift names the qdisc of $dev (fq_codel, not fq)" \
	    "$h: qdisc: expected 'fq', live 'fq_codel' \\(qdisc differs from the config: $dev\\)" \
	    "$RUN_OUT"
}

# One lab for all three: booted with no default route and the private NIC
# (a, c); the default route is added at runtime for b.
GDIR=/tmp/tcptune-e2e-guests-ifaces
guests_up 2 tgk 198.18.222 --no-default-route --private 198.19.222
read -r -a PADDRS <<<"$LAB_PRIVATE_ADDRS"
P=$LAB_PRIVATE_IF	# the NIC on the private bridge
INV=$E2E_TMP/peers.yml
peer_inventory "$INV" "${HOSTS[1]}" "${HOSTS[0]}"

# ---- A. no default route, the peers on the private network
for h in "${HOSTS[@]}"; do
	assert_eq "$h: stock: no default route, fq_codel on eth0 and $P" \
	    "|fq_codel fq_codel" \
	    "$(guest "$h" ip route show default)|$(root_qdisc "$h" eth0) $(root_qdisc "$h" "$P")"
	files_snap "$h" >"$E2E_TMP/$h.stock.files"
done
probe_facts "$INV"
for i in 0 1; do
	h=${HOSTS[$i]} p=${PADDRS[1 - i]}
	assert_eq "$h: probe: no default route; the peer $p routed out of $P from ${PADDRS[$i]}" \
	    "null no default route|$P ${PADDRS[$i]}" \
	    "$(pj "$h" '"\(.default_route) \(.default_route_reason)"')|$(pj "$h" ".routes[\"$p\"] | \"\(.interface) \(.source)\"")"
	assert_eq "$h: probe: the one traffic interface with its qdisc, queues, MTU" \
	    "$P false fq_codel 1 1500" \
	    "$(pj "$h" '.interfaces | to_entries | sort_by(.key) | map("\(.key) \(.value.default_route) \(.value.qdisc.kind) \(.value.tx_queues) \(.value.mtu)") | join("|")')"
done
# The play's --diff shows what it set, the plan's lines (what plan shows).
e2e_run 900 ti "$INV" play -D "$PB" "${VARS[@]}"
figure "play (no default route)"
assert_rc "play exits 0" 0
assert_match "probe's line names the traffic interface" \
    "$P qdisc fq_codel, tcp_rmem" "$RUN_OUT"
for i in 0 1; do
	h=${HOSTS[$i]} peer=${HOSTS[1 - i]}
	tbl=$(host_block "$h")
	assert_match "$h: diff: $P: fq_codel -> fq (carries traffic to $peer)" \
	    "  $P: fq_codel -> fq \\(carries traffic to $peer\\)" "$tbl"
	assert_eq "$h: diff: no line for eth0 (it carries no traffic of ours)" "" \
	    "$(grep -E '^  eth0: ' <<<"$tbl")"
	assert_eq "$h: after the play $P is fq live, eth0 left as it was" \
	    "fq fq_codel" "$(root_qdisc "$h" "$P") $(root_qdisc "$h" eth0)"
done
# Leaves guest01's vec1 at fq_codel (the hand-made drift).
drift_cycle "$INV" "$P"

# ---- C. no interface can be determined: the task fails with the reason
h=${HOSTS[0]}
files_snap "$h" >"$E2E_TMP/c.before.files"
NOPEERS=$E2E_TMP/no-peers.yml
peer_inventory "$NOPEERS"
e2e_run 900 ti "$NOPEERS" play "$PB_CC" -l "$h"
figure "play (no default route, no peers)"
assert_rc "play with no default route and no peers fails (bit 2)" 2
assert_match "$h: the reason: no default route and no peers" \
    "cannot tell which interface carries the traffic: no interface carries this host's traffic: no default route and no peers" \
    "$RUN_OUT$RUN_ERR"
FAR=$E2E_TMP/far.yml
peer_inventory "$FAR" far
e2e_run 900 ti "$FAR" play "$PB_CC" -l "$h"
figure "play (a peer with no route)"
assert_rc "play with a peer that has no route fails (bit 2)" 2
assert_match "$h: the reason names the peer and the kernel's answer" \
    'no route to peer far \(198\.19\.99\.99\): RTNETLINK answers: Network is unreachable' \
    "$RUN_OUT$RUN_ERR"
assert_eq "$h: the failed plays changed no qdisc (fq_codel on eth0 and $P)" \
    "fq_codel fq_codel" "$(root_qdisc "$h" eth0) $(root_qdisc "$h" "$P")"
files_snap "$h" >"$E2E_TMP/c.after.files"
assert_eq "$h: the failed plays wrote no file" \
    "$(cat "$E2E_TMP/c.before.files")" "$(cat "$E2E_TMP/c.after.files")"

# ---- B. two NICs: a default route on eth0, the peers on the private one
for h in "${HOSTS[@]}"; do
	guest "$h" ip route add default via "$LAB_GATEWAY" dev eth0
	assert_eq "$h: a default route on eth0 now" eth0 \
	    "$(guest "$h" ip route show default | awk '{ print $5 }')"
done
e2e_run 900 ti "$INV" play -D "$PB" "${VARS[@]}"
figure "play (two NICs)"
assert_rc "play exits 0" 0
assert_match "probe's line names both interfaces" \
    "eth0 qdisc fq_codel, $P qdisc f" "$RUN_OUT"
h=${HOSTS[0]} peer=${HOSTS[1]}
tbl=$(host_block "$h")
assert_match "$h: diff: $P: fq_codel -> fq (carries traffic to $peer)" \
    "  $P: fq_codel -> fq \\(carries traffic to $peer\\)" "$tbl"
assert_match "$h: diff: eth0: fq_codel -> fq (the default route)" \
    '  eth0: fq_codel -> fq \(carries the default route\)' "$tbl"
h=${HOSTS[1]} peer=${HOSTS[0]}
assert_match "$h: diff: $P: fq -> fq (same) (carries traffic to $peer)" \
    "  $P: fq -> fq \\(same\\) \\(carries traffic to $peer\\)" \
    "$(host_block "$h")"
for h in "${HOSTS[@]}"; do
	assert_eq "$h: after the play: $P (the peer's) and eth0 are fq live" \
	    "fq fq" "$(root_qdisc "$h" "$P") $(root_qdisc "$h" eth0)"
	# eth0's taken at this play: the first backup (A's) lacked it.
	assert_eq "$h: a backup per interface" "qdisc@$P qdisc@eth0" \
	    "$(guest "$h" sh -c 'cd /var/lib/tcptune/backup/* && ls -d qdisc@*' | sort -r | paste -sd' ')"
done
drift_cycle "$INV" "$P"
e2e_run 900 ti "$INV" rollback guests
figure "rollback (two NICs)"
assert_rc "rollback exits 0" 0
for h in "${HOSTS[@]}"; do
	assert_eq "$h: rollback: fq_codel on eth0 and $P again" \
	    "fq_codel fq_codel" "$(root_qdisc "$h" eth0) $(root_qdisc "$h" "$P")"
	files_snap "$h" >"$E2E_TMP/$h.rollback.files"
	assert_eq "$h: rollback: the files as before the first play" \
	    "$(cat "$E2E_TMP/$h.stock.files")" "$(cat "$E2E_TMP/$h.rollback.files")"
done

e2e_log "took $SECONDS s"
e2e_finish
