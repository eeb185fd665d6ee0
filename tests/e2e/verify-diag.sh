#!/bin/bash
# verify-diag.sh TCPTUNE WANEM: iperf3_verify names what limited each flow
# and which end's key would change it (issue 24), from both ends' TCP_INFO.
#
# The two-host WAN lab of verify-wan.sh (52 ms each way, 100 Mbit/s, a
# one-BDP queue; bandwidth_mbit=100 given as an extra var: the path's known
# rate). One pair, lab01 the client, single stream both ways:
#   (a) + (b), with 16 streams too: lab01 tuned (tcp_buffers), lab02 with
#       the stock tcp_rmem
#       (max 212992) and a 64 KiB tcp_wmem ceiling (the sysctl module, in
#       tcptune's drop-in): the up flow (lab01 sends) is receive_window
#       naming lab02 and net.ipv4.tcp_rmem; the down flow (lab02 sends) is
#       send_buffer naming lab02, net.ipv4.tcp_wmem and the drop-in's value;
#       16 streams reach the path both ways and one does not: the reading
#       is "per-flow limit: TCP settings", naming the single stream's key.
#       (The stock 212992 does not hold a sender back on this path: lab02
#       sent 35.9 Mbit/s with it, cwnd 494, sndbuf_limited 3% of its busy
#       time and 0.47% retransmitted at the one-BDP queue: congestion.)
#   (c) both tuned (buffers, reno), 1% random loss on the path (wanem
#       restarted with loss=1%): congestion, naming the sender, its
#       congestion control and the loss rate;
#   (d) both tuned, bbr too, the clean path again: link_rate both ways (a
#       second measurement when the first is not), the
#       single stream up at 90% of what 16 streams carried in (a) (a fixed
#       90 Mbit/s failed a quiet run at 89.3 of the 96.5 the path carries)
#       (reno's slow-start overshoot at the one-BDP queue left some runs at
#       88-89 Mbit/s with 0.1-0.9% retransmitted: congestion, or cwnd-limited
#       below 90%).
# Each case is asserted from --format json (both ends' results) and the
# table's "limited by" column. VD_KEEP=DIR keeps each case's JSON there.
# ~150 s. Root only.
set -u
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=tests/e2e/verify-lib.sh
. "$(dirname "$0")/verify-lib.sh"

e2e_init verify-diag "${1:-}"
wan_needs "${2:-}"

wan_lab_up tvd 198.18.77 "$WANEM"
# A lab host's /tmp is this machine's: only sample files this run made
# are its own to account for (a killed run elsewhere leaves its own).
touch "$E2E_TMP/started"

cat >"$E2E_TMP/tune.yml" <<EOF
- name: size the buffers of the hosts given
  hosts: all
  gather_facts: true
  tasks:
    - name: buffers for the path
      tcp_buffers:
        bandwidth_mbit: 100
EOF
cat >"$E2E_TMP/bbr.yml" <<EOF
- name: bbr, built in here (nothing to load), pacing by itself
  hosts: all
  gather_facts: true
  tasks:
    - name: bbr
      congestion:
        algorithm: bbr
        qdisc: keep
        load_module: false
EOF
cat >"$E2E_TMP/small-wmem.yml" <<EOF
- name: a small send buffer ceiling
  hosts: all
  gather_facts: false
  tasks:
    - name: tcp_wmem
      sysctl:
        values:
          net.ipv4.tcp_wmem: "4096 16384 65536"
EOF
cat >"$E2E_TMP/measure.yml" <<EOF
- name: one pair, both directions, one stream
  hosts: all
  gather_facts: false
  tasks:
    - name: measure
      iperf3_verify:
        pairs: [{host: lab01, peer: lab02}]
        phase: before
        duration: 10
        omit: 3
        parallel: "{{ streams | default(1) }}"
        reverse: true
EOF

C='.plays[0].results.lab01[0].data.pairs[0]'
S='.plays[0].results.lab02[0].data.pairs[0]'

# measure NAME [ARGS]: the measurement play (ARGS added), its JSON kept as
# $E2E_TMP/NAME.json and its report as NAME.html
measure() {
	local name=$1
	shift
	set -- "$name" "$@"
	vt_run 120 play "$E2E_TMP/measure.yml" -e bandwidth_mbit=100 \
	    --format json --report "$E2E_TMP/$1.html" "${@:2}"
	assert_rc "$1: the measurement" 0 || true
	cp "$E2E_TMP/out" "$E2E_TMP/$1.json"
	# VD_KEEP=DIR keeps each case's JSON (the samples are in it).
	[[ -z ${VD_KEEP:-} ]] || cp "$E2E_TMP/out" "$VD_KEEP/$1.json"
	[[ -z ${VD_KEEP:-} ]] || cp "$E2E_TMP/$1.html" "$VD_KEEP/$1.html"
	jq -r '.plays[0].results.lab01[0].data.table // empty' "$E2E_TMP/out"
	jq -r "$C.diagnosis | to_entries[] |
	    \"    lab01 \\(.key): \\(.value.limit): \\(.value.detail)\"" \
	    "$E2E_TMP/out"
}

# diag_is DESC KIND FIELD WANT: lab01's diagnosis of KIND has FIELD WANT.
diag_is() {
	assert_eq "$1" "$4" "$(jq_out "$C.diagnosis.$2.$3")" || true
}

# report_has CASE DESC TEXT: the --report page of CASE has TEXT (the
# heatmap's cell is the single up; the table has every run).
report_has() {
	if grep -qF -- "$3" "$E2E_TMP/$1.html"; then
		e2e_ok "$2"
	else
		e2e_fail "$2: '$3' not in $1.html"
	fi
}

# both_ends KIND: lab02 names the same limit and host for the same flow
# (its KIND is lab01's mirror).
both_ends() {
	local mine=$1 theirs=$2
	assert_eq "lab02 sees lab01's $mine as its $theirs, same limit" \
	    "$(jq_out "$C.diagnosis.$mine | [.limit, .host] | @tsv")" \
	    "$(jq_out "$S.diagnosis.$theirs | [.limit, .host] | @tsv")" || true
}

# (a) + (b): lab01 tuned, lab02 stock.
vt_run 60 play "$E2E_TMP/tune.yml" --limit lab01
assert_rc "lab01 tuned" 0 || true
vt_run 60 play "$E2E_TMP/small-wmem.yml" --limit lab02
assert_rc "lab02's tcp_wmem ceiling 64 KiB" 0 || true
e2e_log "lab01 tcp_rmem $(lab_sysctl lab01 net.ipv4.tcp_rmem), lab02 $(
    lab_sysctl lab02 net.ipv4.tcp_rmem)"
measure stock-peer -e streams=16
# What 16 streams carry on this path in this run: the calibration the
# single stream of (d) is held to (not this machine's speed).
PATH_MBPS=$(jq_out "$C.after.multi_up.mbps // $C.before.multi_up.mbps")
assert_match "16 streams up measured: $PATH_MBPS Mbit/s" '^[0-9]+(\.[0-9]+)?$' \
    "$PATH_MBPS" || PATH_MBPS=1e9
diag_is "(a) up: receive_window" single_up limit receive_window
diag_is "(a) up: the receiver lab02 limits it" single_up host lab02
diag_is "(a) up: its key" single_up key net.ipv4.tcp_rmem
diag_is "(a) up: lab02's live tcp_rmem" single_up value "4096 131072 212992"
diag_is "(a) up: lab02's drop-in does not set it" single_up dropin null
diag_is "(a) up: tcp_buffers would" single_up module tcp_buffers
assert_lt "(a) up: rwnd_limited most of the sender's busy time" 0.5 \
    "$(jq_out "$C.diagnosis.single_up.evidence |
	.rwnd_limited_ms / .busy_ms")" || true
diag_is "(b) down: send_buffer" single_down limit send_buffer
diag_is "(b) down: the sender lab02 limits it" single_down host lab02
diag_is "(b) down: its key" single_down key net.ipv4.tcp_wmem
diag_is "(b) down: lab02's live tcp_wmem" single_down value \
    "4096 16384 65536"
diag_is "(b) down: what lab02's drop-in sets" single_down dropin \
    "4096 16384 65536"
assert_eq "(b) down: lab02's send buffer was the 64 KiB ceiling" 65536 \
    "$(jq_out "$C.diagnosis.single_down.evidence.sender_sndbuf")" || true
# Evidence that the buffer, not cwnd, held it back: cwnd above what was in
# flight. Linux grows cwnd only while cwnd-limited (tcp_is_cwnd_limited:
# in slow start up to twice what is out), so a send-buffer-limited flow
# sits below 2x: 1.67 here, and 1.5 was too near it to hold in CI.
assert_lt "(b) down: its cwnd was 1.2x what it kept in flight" 1.2 \
    "$(jq_out "$C.diagnosis.single_down.evidence |
	.cwnd * .mss / (.mbps * 1e6 / 8 * .rtt_ms / 1000)")" || true
both_ends single_up single_down
both_ends single_down single_up
assert_match "(a) the table's limited-by column" \
    '^  single up +[0-9.]+ .* receive_window lab02$' \
    "$(jq_out '.plays[0].results.lab01[0].data.table' | grep '^  single up')" ||
    true
report_has stock-peer "(a) the report's cell: rwnd at dst" '>rwnd dst 1/1</text>'
# The seeds' reading: 16 streams reach the path, one does not.
assert_eq "(a) up: 16 streams and one: per-flow limit" per_flow_limit \
    "$(jq_out "$C.reading.up.verdict")" || true
assert_match "(a) up: the reading names the single's key" \
    '^per-flow limit: TCP settings: 16 streams reach the path .* the single stream.s limit is receive_window: lab02.s net.ipv4.tcp_rmem$' \
    "$(jq_out "$C.reading.up.text")" || true
assert_eq "(b) down: per-flow limit too" per_flow_limit \
    "$(jq_out "$C.reading.down.verdict")" || true
assert_match "(a) the table states the reading" \
    '^  up: per-flow limit: TCP settings' \
    "$(jq_out '.plays[0].results.lab01[0].data.table' | grep '^  up:')" ||
    true
report_has stock-peer "(b) the report's table: send_buffer at dst" \
    '<td>send_buffer dst (1)</td>'
assert_match "(b) the table's limited-by column" \
    '^  single down +[0-9.]+ .* send_buffer lab02$' \
    "$(jq_out '.plays[0].results.lab01[0].data.table' |
	grep '^  single down')" || true

# (c): both tuned (buffers; reno), 1% loss.
vt_run 60 play "$E2E_TMP/tune.yml"
assert_rc "both tuned" 0 || true
assert_lt "lab02's tcp_wmem ceiling raised again" 65536 \
    "$(lab_sysctl lab02 net.ipv4.tcp_wmem | cut -d' ' -f3)" || true
"$E2E_SRC/tests/lab/wan.sh" down -d "$WAN_DIR" >/dev/null 2>&1
sed -i 's/queue=bdp$/queue=bdp loss=1%/' "$E2E_TMP/wan.conf"
grep -q 'loss=1%' "$E2E_TMP/wan.conf" || e2e_fail "wan.conf has no loss"
wan_up "$WANEM"
measure lossy
diag_is "(c) up: congestion" single_up limit congestion
diag_is "(c) up: the sender lab01" single_up host lab01
diag_is "(c) up: its congestion control" single_up key \
    net.ipv4.tcp_congestion_control
diag_is "(c) down: congestion" single_down limit congestion
diag_is "(c) down: the sender lab02" single_down host lab02
# 1% of the packets each way are dropped; the sender's retransmitted share
# was 0.62-1.6% over the runs so far.
assert_lt "(c) up: a loss rate of at least 0.3% named" 0.003 \
    "$(jq_out "$C.diagnosis.single_up.evidence.loss_rate")" || true
report_has lossy "(c) the report's cell: loss at src" '>loss src 1/1</text>'
assert_match "(c) up: the detail names the loss rate" \
    '[0-9.]+% of segments retransmitted' \
    "$(jq_out "$C.diagnosis.single_up.detail")" || true
# (d): both tuned (buffers and bbr), a clean path.
"$E2E_SRC/tests/lab/wan.sh" stats -d "$WAN_DIR" | sed 's/^/    /'
"$E2E_SRC/tests/lab/wan.sh" down -d "$WAN_DIR" >/dev/null 2>&1
sed -i 's/ loss=1%$//' "$E2E_TMP/wan.conf"
wan_up "$WANEM"
vt_run 60 play "$E2E_TMP/bbr.yml"
assert_rc "both on bbr" 0 || true
measure tuned
# One bbr flow of 10 s left the path unfilled in some runs here (a quiet
# run: 82.9 Mbit/s of 96.5 down, 0 retransmitted: "congestion"), its
# ProbeRTT and startup inside the window: a second measurement decides,
# and both are in the log.
if [[ $(jq_out "[$C.diagnosis.single_up.limit, $C.diagnosis.single_down.limit] |
    unique == [\"link_rate\"]") != true ]]; then
	e2e_log "(d): not link_rate both ways in the first run; measuring again"
	measure tuned
fi
diag_is "(d) up: link_rate" single_up limit link_rate
diag_is "(d) up: no host to blame" single_up host null
diag_is "(d) down: link_rate" single_down limit link_rate
assert_lt "(d) up reached 90% of what 16 streams carried" \
    "$(awk -v p="$PATH_MBPS" 'BEGIN { print 0.9 * p }')" \
    "$(jq_out "$C.after.single_up.mbps // $C.before.single_up.mbps")" || true
both_ends single_up single_down
report_has tuned "(d) the report's cell: the link" '>link 1/1</text>'

"$E2E_SRC/tests/lab/wan.sh" stats -d "$WAN_DIR" | sed 's/^/    /'
assert_eq "no iperf3 server left in the lab" "" "$(iperf_pids)" || true
assert_eq "no sample file of this run left on lab02" "" \
    "$(lab lab02 find /tmp -maxdepth 1 -name 'tcptune-tcpinfo.*' \
    -newer "$E2E_TMP/started")" || true
e2e_finish
