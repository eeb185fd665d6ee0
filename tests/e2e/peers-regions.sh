#!/bin/bash
# peers-regions.sh - sizing for many peers on the multi-region lab
# (tests/lab/regions.sh: ten hosts in four regions, 0.5 to 120 ms one way).
#
# 1. `tcptune plan` then `play` of playbooks/wan-tuning.yml (without the
#    iperf3 tasks): each host's tcp_rmem/tcp_wmem ceiling, read back from its
#    namespace, is the one the widest path gives, computed here from the
#    emulator's configured delays (RTT = 2 x one way) and the inventory's
#    bandwidth_mbit_by_group; the drop-in's reason names a peer of the
#    widest group and that group.
# 2. A peer that cannot be reached (asia9: a WAN address no host has): the
#    host reports it by name and is sized by its other peers; with only that
#    peer it fails with "no rtt", and with var rtt_ms it falls back to it.
# 3. Forty peers: the probe measures 32 (the limit), names how many it left
#    out, and takes about as long as with one peer.
# 4. A tcp_buffers task after an apply in the same play (one that set the
#    route too, so the apply's own probe replaced the facts) still finds
#    the RTTs the play's probe measured, and sizes eu1 as before.
#
# Usage: peers-regions.sh [TCPTUNE [WANEM]]. Needs root (exit 77 otherwise).
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
# shellcheck source=tests/e2e/regions-lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/regions-lib.sh"

e2e_init peers-regions "${1:-}"
WANEM_BIN=${2:-}
cd "$E2E_SRC" || exit 1
RDIR=/tmp/tcptune-e2e-tpr
PB=playbooks/wan-tuning.yml
DROPIN=/etc/sysctl.d/90-tcptune.conf

regions_up "$RDIR" tpr 198.18.92 "$WANEM_BIN"

# shellcheck disable=SC2317 # called through e2e_run
rt() {
	"$TCPTUNE" "$@" --known-hosts "$REGIONS_KNOWN_HOSTS" --no-color
}

# ---- 1. every host sized by its widest path --------------------------------

e2e_run 60 rt plan "$PB" -i "$REGIONS_INVENTORY" --skip-tags verify \
    --format json --detailed-exitcode
assert_rc "plan of wan-tuning on the ten hosts: changes pending" 8
cp "$E2E_TMP/out" "$E2E_TMP/plan.json"
e2e_run 60 rt play "$PB" -i "$REGIONS_INVENTORY" --skip-tags verify \
    --format json
assert_rc "play of wan-tuning on the ten hosts" 0
cp "$E2E_TMP/out" "$E2E_TMP/play.json"

for h in $REGIONS_HOSTS; do
	read -r _ _ group peers <<<"$(regions_expected "$h")"
	l=$(lab_name "$h")
	planned=$(jq -r --arg h "$h" '.plays[0].results[$h][]
	    | select(.module == "tcp_buffers") | .data.group' \
	    "$E2E_TMP/plan.json")
	assert_eq "$h: the plan's widest path is to $group" "$group" \
	    "$planned"
	# What the play applied, from its own probe.
	data=$(jq -c --arg h "$h" '.plays[0].results[$h][]
	    | select(.module == "tcp_buffers") | .data' "$E2E_TMP/play.json")
	assert_sized_by_widest "$h" "$data"
	to=$(jq -r '.to' <<<"$data")
	reason=$(lab "$l" grep -B1 '^net.ipv4.tcp_rmem' "$DROPIN" | head -n 1)
	assert_match "$h: the drop-in's reason names the peer and its group" \
	    "^# BDP [0-9.]+ Mbit/s × [0-9.]+ ms to $to \\($group\\) = " \
	    "$reason"
done

# ---- 2. a peer that cannot be measured ----------------------------------

# asia9: an inventory host of region_asia whose WAN address no lab host has
# (wanem drops its packets) and whose SSH address answers nothing.
INV2=$E2E_TMP/unreachable.yml
awk '{ print }
    /^        region_asia:$/ { asia = 1 }
    asia && /^          hosts:$/ {
	print "            asia9:"
	print "              ansible_host: 198.18.92.250"
	print "              iperf_address: 198.19.0.250"
	asia = 0
    }' "$REGIONS_INVENTORY" >"$INV2"
grep -q 'asia9:' "$INV2" || {
	e2e_fail "could not add asia9 to the inventory"
	e2e_finish
}

read -r _ ceiling_eu1 _ _ <<<"$(regions_expected eu1)"
e2e_run 60 rt plan "$PB" -i "$INV2" -l eu1 --skip-tags verify
assert_match "eu1: the probe names the unmeasured peer" \
    "ok: \\[eu1\\] => .*RTT to 8 of 9 peers.*warning: no RTT to peer asia9 \\(198\\.19\\.0\\.250\\)" \
    "$RUN_OUT"
assert_match "eu1: sizing warns about asia9 and sizes by the others" \
    "ok: \\[eu1\\] => BDP 100 Mbit/s x 24[0-9.]+ ms to asia[12] \\(region_asia\\) = .*ceiling $((ceiling_eu1 >> 20)) MiB.*warning: no RTT to peer asia9 \\(198\\.19\\.0\\.250\\): .*sized without it" \
    "$RUN_OUT"

# Only the unreachable peer, no rtt_ms: the host cannot be sized.
ONLY_ASIA9='{"iperf_peers": ["asia9"], "iperf_peer": null}'
e2e_run 60 rt plan "$PB" -i "$INV2" -l eu1 --skip-tags verify \
    -e "$ONLY_ASIA9"
assert_rc_bit "eu1 with only asia9 fails" 2
assert_match "eu1: no rtt, and why" \
    "fatal: \\[eu1\\]: FAILED! => no rtt: set rtt_ms \\(the host's peers could not be measured\\); warning: no RTT to peer asia9" \
    "$RUN_OUT"

# With var rtt_ms the host falls back to it for that peer's path: 400 ms
# plans 16 MiB, above the 8 MiB eu1 has now, so the diff shows the reason.
e2e_run 60 rt plan "$PB" -i "$INV2" -l eu1 --skip-tags verify \
    -e "$ONLY_ASIA9" -e rtt_ms=400 -D --detailed-exitcode
assert_rc "eu1 with only asia9 and rtt_ms=400 plans a change" 8
assert_match "eu1: sized by rtt_ms for asia9" \
    "ok: \\[eu1\\] => BDP 100 Mbit/s x 400.0 ms to asia9 \\(region_asia\\) = 5 MB -> ceiling 16 MiB; warning: no RTT to peer asia9 .*rtt_ms 400 ms assumed" \
    "$RUN_OUT"
assert_match "eu1: the reason says the RTT was not measured" \
    "\\+# BDP 100 Mbit/s × 400 ms to asia9 \\(region_asia; rtt_ms, not measured\\) = 5 MB, " \
    "$RUN_OUT"

# ---- 3. many peers: a bounded probe -------------------------------------

# far: 40 hosts at loopback addresses (each answers ping inside eu1).
INV3=$E2E_TMP/many.yml
{
	cat "$REGIONS_INVENTORY"
	echo "    far:"
	echo "      hosts:"
	for i in $(seq 1 40); do
		echo "        far$i: {ansible_host: 198.18.92.250," \
		    "iperf_address: 127.0.0.$((i + 1))}"
	done
} >"$INV3"
e2e_run 30 rt probe -i "$INV3" eu1 -e '{"iperf_peers": ["asia1"], "iperf_peer": null}'
one=$RUN_SECS
assert_match "eu1: one peer" "RTT to 1 of 1 peers: 24[0-9.]+ ms \\(asia1\\)" \
    "$RUN_OUT"
e2e_run 30 rt probe -i "$INV3" eu1 -e '{"iperf_peers": ["regions", "far"]}'
many=$RUN_SECS
# eu1's iperf_peer eu2, then 8 of regions' other 9 hosts, then far: 32.
assert_match "eu1: 32 of 49 peers probed, the rest reported" \
    "RTT to 32 of 49 peers: [0-9.]+ to 24[0-9.]+ ms \\(farthest asia[12]\\); warning: 17 peers not probed \\(at most 32 targets\\)" \
    "$RUN_OUT"
assert_match "probe lists far23 as measured" \
    "rtt to far23 \\(127\\.0\\.0\\.24\\) +0\\.[0-9]+ ms \\(ping\\)" "$RUN_OUT"
assert_match "probe lists far24 as not probed" \
    "rtt to far24 +not probed" "$RUN_OUT"
e2e_log "probe of eu1: 1 peer $one s, 49 peers (32 measured) $many s"
# Sizing reports the peers left out in one warning, not one each.
e2e_run 30 rt plan "$PB" -i "$INV3" -l eu1 --skip-tags verify \
    -e '{"iperf_peers": ["regions", "far"]}'
assert_match "eu1: sized by its widest path, the left-out peers in one warning" \
    "ok: \\[eu1\\] => BDP 100 Mbit/s x 24[0-9.]+ ms to asia[12] \\(region_asia\\) = [^;]* \\(the widest path of 49 peers\\); warning: 17 peers not probed \\(far24 and the ones after it: the probe measures at most 32 targets\\); sized without them$" \
    "$(grep 'ok: \[eu1\] => BDP' <<<"$RUN_OUT")"
assert_lt "32 measured peers take less than twice one peer's time + 1 s" \
    "$many" "$(awk -v a="$one" 'BEGIN { print 2 * a + 1 }')"

# ---- 4. sizing again after an apply in the same play -----------------------

PB4=$E2E_TMP/resize.yml
cat >"$PB4" <<'EOF'
- name: size, apply with a route change, size again
  hosts: eu1
  gather_facts: true
  tasks:
    - name: route
      route:
        initcwnd: 10
    - name: buffers
      tcp_buffers:
        bandwidth_mbit: 1000
        max_buffer: 64MiB
    - name: not a tuning module (what is staged is applied before it)
      command:
        cmd: "true"
    - name: buffers again
      tcp_buffers:
        bandwidth_mbit: 1000
        max_buffer: 64MiB
EOF
e2e_run 60 rt play "$PB4" -i "$REGIONS_INVENTORY" --format json
assert_rc "eu1: the play with two tcp_buffers around an apply" 0
assert_eq "eu1: both tcp_buffers sized from a measured RTT (no failure)" \
    "ok ok" "$(jq_out '[.plays[0].results.eu1[]
    | select(.module == "tcp_buffers") | .status] | join(" ")')"
assert_sized_by_widest eu1 "$(jq_out -c '[.plays[0].results.eu1[]
    | select(.module == "tcp_buffers")][1].data')"

e2e_finish
