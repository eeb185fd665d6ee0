#!/bin/bash
# verify-path.sh TCPTUNE WANEM: iperf3_verify's path checks (issue 24,
# deliverable 3) and the tuning keys they and tcp_buffers plan
# (deliverable 4), on the two-host WAN lab of verify-wan.sh (52 ms each
# way, 100 Mbit/s, a one-BDP queue). One pair, lab01 the client, one
# stream up for 2 s, each case from --format json and the table's "path:"
# line:
#   clean     50 pings, none lost; MTU 1500 passes with DF; each end's
#             wan0 drop counters over the runs
#   drops     lab01's wan0 ring cut to 2 packets (txqueuelen): the up
#             flow's packets are dropped by lab01's own kernel; the drops
#             reported are lab01's, at most what its counter moved over
#             the whole play (read here before and after)
#   loss      5% random loss each way (wanem loss=5%), 200 pings: a round
#             trip loses 1 - 0.95^2 = 9.75%; the rate must be 2-25% (more
#             than 3 standard deviations of 200 pings either side)
#   blackhole lab01 -> lab02 carries at most 1460 bytes (wanem mtu=1460,
#             no ICMP back): the 1500-byte ping gets no answer, 1460 does:
#             "blackhole", path MTU 1460, the up flow's diagnosis naming
#             tcp_mtu_probing; in the same run tcp_buffers
#             (mtu_probing: auto, long_lived, latency_sensitive after the
#             congestion module's bbr) plans tcp_mtu_probing = 1 naming
#             the blackhole, tcp_slow_start_after_idle = 0 and
#             tcp_notsent_lowat = 16384 (the drop-in's lines and the live
#             values asserted); netdev_max_backlog is not planned (a
#             network namespace has no such key: the probe says it is
#             absent). The flow before tcp_mtu_probing
#             is compared with the one after, in the same run.
# ~70 s. Root only.
set -u
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=tests/e2e/verify-lib.sh
. "$(dirname "$0")/verify-lib.sh"

e2e_init verify-path "${1:-}"
wan_needs "${2:-}"

wan_lab_up dg1 198.18.180 "$WANEM"
DROPIN=/etc/sysctl.d/90-tcptune.conf

measure_task() {
	cat <<EOT
    - name: measure
      iperf3_verify:
        pairs: [{host: lab01, peer: lab02}]
        phase: before
        duration: ${1:-2}
        omit: 0
        parallel: 1
        reverse: false
        pings: "{{ pings | default(50) }}"
EOT
}
{
	echo '- name: one pair, one stream up, with the path checks'
	echo '  hosts: all'
	echo '  gather_facts: false'
	echo '  tasks:'
	measure_task
} >"$E2E_TMP/measure.yml"
{
	echo '- name: measure, then tune from what the path checks found'
	echo '  hosts: all'
	echo '  gather_facts: true'
	echo '  tasks:'
	measure_task
	cat <<EOT
    - name: bbr
      congestion:
        algorithm: bbr
        qdisc: keep
        load_module: false
    - name: buffers and the keys beyond them
      tcp_buffers:
        bandwidth_mbit: 100
        long_lived: true
        latency_sensitive: true
        netdev_backlog: true
EOT
} >"$E2E_TMP/tune.yml"
{
	echo '- name: the same pair, 10 s'
	echo '  hosts: all'
	echo '  gather_facts: false'
	echo '  tasks:'
	measure_task 10
} >"$E2E_TMP/again.yml"

# iperf3_verify's result of each host (tune.yml gathers facts first).
V='[.plays[0].results.lab01[] | select(.data.pairs != null)][0]'
W='[.plays[0].results.lab02[] | select(.data.pairs != null)][0]'
P="$V.data.pairs[0].path"
S="$W.data.pairs[0].path"
UP="$V.data.pairs[0].before.single_up.mbps"
TABLE="$V.data.table"

# measure NAME PLAYBOOK [ARGS]: the play, its JSON kept as NAME.json, the
# table's path line shown.
measure() {
	local name=$1 book=$2
	shift 2
	vt_run 120 play "$book" --format json "$@"
	assert_rc "$name: the play" 0 || true
	cp "$E2E_TMP/out" "$E2E_TMP/$name.json"
	jq -r "$TABLE // empty" "$E2E_TMP/out" |
	    sed "s/^/    $name: /"
}

tx_dropped() {
	lab "$1" cat /sys/class/net/wan0/statistics/tx_dropped
}

# clean
measure clean "$E2E_TMP/measure.yml"
assert_eq "clean: 50 pings sent, 50 answered" "50 50" \
    "$(jq_out "$P.loss | \"\\(.sent) \\(.received)\"")" || true
assert_eq "clean: loss rate 0" 0 "$(jq_out "$P.loss.rate")" || true
assert_eq "clean: the route's interface and MTU" "wan0 1500" \
    "$(jq_out "$P | \"\\(.interface) \\(.interface_mtu)\"")" || true
assert_eq "clean: MTU ok at 1500" "ok 1500" \
    "$(jq_out "$P.mtu | \"\\(.state) \\(.path_mtu)\"")" || true
assert_eq "clean: both ends' drop counters, on wan0" "lab01 wan0,lab02 wan0" \
    "$(jq_out "[$P.drops | to_entries[] | \"\\(.key) \\(.value.interface)\"] |
	join(\",\")")" || true
assert_match "clean: the counters are numbers" '^[0-9]+ [0-9]+$' \
    "$(jq_out "$P.drops.lab02 | \"\\(.rx_dropped) \\(.tx_dropped)\"")" || true
assert_eq "clean: lab02 reports the same path" \
    "$(jq_out "$P | tojson")" "$(jq_out "$S | tojson")" || true
assert_match "clean: the table's path line" \
    '^  path: loss 0/50 \(0\.0%\); MTU 1500 ok; drops during the runs: lab01 wan0 rx [0-9]+ tx [0-9]+, lab02 wan0 rx [0-9]+ tx [0-9]+$' \
    "$(jq_out "$TABLE" | grep '^  path:')" ||
    true

# drops: lab01's TUN ring of 2 packets
before=$(tx_dropped lab01)
lab lab01 ip link set wan0 txqueuelen 2
measure drops "$E2E_TMP/measure.yml"
lab lab01 ip link set wan0 txqueuelen 10000
moved=$(($(tx_dropped lab01) - before))
e2e_log "lab01 wan0 tx_dropped moved by $moved over the play"
got=$(jq_out "$P.drops.lab01.tx_dropped")
assert_lt "drops: lab01's tx drops over the runs are some" 0 "$got" || true
assert_lt "drops: at most what the counter moved over the play" \
    "$got" "$((moved + 1))" || true

# loss: 5% each way
"$E2E_SRC/tests/lab/wan.sh" down -d "$WAN_DIR" >/dev/null 2>&1
sed -i 's/queue=bdp$/queue=bdp loss=5%/' "$E2E_TMP/wan.conf"
wan_up "$WANEM"
measure loss "$E2E_TMP/measure.yml" -e pings=200
assert_eq "loss: 200 pings sent" 200 "$(jq_out "$P.loss.sent")" || true
assert_lt "loss: at least 2% lost" 0.02 "$(jq_out "$P.loss.rate")" || true
assert_lt "loss: at most 25% lost" "$(jq_out "$P.loss.rate")" 0.25 || true
assert_match "loss: the table names it" '^  path: loss [0-9]+/200 ' \
    "$(jq_out "$TABLE" | grep '^  path:')" ||
    true

# blackhole: lab01 -> lab02 at most 1460 bytes, no ICMP back
"$E2E_SRC/tests/lab/wan.sh" down -d "$WAN_DIR" >/dev/null 2>&1
sed -i 's/^link \(lab01\) \(lab02\) \(.*\) loss=5%$/pipe \1 \2 \3 mtu=1460\npipe \2 \1 \3/' \
    "$E2E_TMP/wan.conf"
grep -q '^pipe lab01 lab02 .* mtu=1460$' "$E2E_TMP/wan.conf" ||
    e2e_fail "wan.conf has no mtu=1460 pipe: $(cat "$E2E_TMP/wan.conf")"
wan_up "$WANEM"
assert_eq "blackhole: lab01's tcp_mtu_probing starts at 0" 0 \
    "$(lab_sysctl lab01 net.ipv4.tcp_mtu_probing)" || true
measure blackhole "$E2E_TMP/tune.yml"
assert_eq "blackhole: the state and the MTU that passes" "blackhole 1460" \
    "$(jq_out "$P.mtu | \"\\(.state) \\(.path_mtu)\"")" || true
assert_eq "blackhole: the probes" "1500 lost,1492 lost,1460 ok" \
    "$(jq_out "[$P.pmtu_probes[] | \"\\(.size) \\(.result)\"] | join(\",\")")" ||
    true
assert_match "blackhole: the table says it" \
    '; MTU BLACKHOLE: 1500 lost, 1460 passes;' \
    "$(jq_out "$TABLE" | grep '^  path:')" ||
    true
assert_eq "blackhole: the diagnosis names the key that gets through" \
    "the path has an MTU blackhole (to lab02: 1500 lost, 1460 passes): net.ipv4.tcp_mtu_probing=1 on the sender (tcp_buffers: mtu_probing)" \
    "$(jq_out "$V.data.pairs[0].diagnosis.single_up.path")" || true
stalled=$(jq_out "$UP")
e2e_log "blackhole: single up before tcp_mtu_probing: $stalled Mbit/s"
for h in lab01 lab02; do
	assert_eq "$h: the drop-in's tcp_mtu_probing line" \
	    "net.ipv4.tcp_mtu_probing = 1" \
	    "$(lab "$h" grep '^net.ipv4.tcp_mtu_probing' "$DROPIN")" || true
	assert_eq "$h: tcp_mtu_probing live" 1 \
	    "$(lab_sysctl "$h" net.ipv4.tcp_mtu_probing)" || true
	assert_eq "$h: tcp_slow_start_after_idle = 0 (long_lived)" \
	    "net.ipv4.tcp_slow_start_after_idle = 0|0" \
	    "$(lab "$h" grep '^net.ipv4.tcp_slow_start_after_idle' "$DROPIN")|$(
	    lab_sysctl "$h" net.ipv4.tcp_slow_start_after_idle)" || true
	assert_eq "$h: tcp_notsent_lowat = 16384 (latency_sensitive, bbr)" \
	    "net.ipv4.tcp_notsent_lowat = 16384|16384" \
	    "$(lab "$h" grep '^net.ipv4.tcp_notsent_lowat' "$DROPIN")|$(
	    lab_sysctl "$h" net.ipv4.tcp_notsent_lowat)" || true
	assert_eq "$h: no netdev_max_backlog line (absent in a namespace)" 0 \
	    "$(lab "$h" grep -c 'netdev_max_backlog' "$DROPIN")" || true
done
assert_match "lab01: the reason names the blackhole" \
    '^# the path check found an MTU blackhole \(to lab02: 1500 lost, 1460 passes\)' \
    "$(lab lab01 grep -B1 '^net.ipv4.tcp_mtu_probing' "$DROPIN" | head -n 1)" ||
    true
measure probing "$E2E_TMP/again.yml"
probing=$(jq_out "$UP")
e2e_log "blackhole: single up with tcp_mtu_probing: $probing Mbit/s"
assert_lt "blackhole: the flow gets through with probing, 2x the stalled" \
    "$(awk -v s="$stalled" 'BEGIN { print 2 * s + 0.5 }')" "$probing" || true

"$E2E_SRC/tests/lab/wan.sh" stats -d "$WAN_DIR" | sed 's/^/    /'
assert_eq "no iperf3 server left in the lab" "" "$(iperf_pids)" || true
e2e_finish
