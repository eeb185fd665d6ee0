#!/bin/bash
# guests-diag.sh - what limited a flow, on User-mode Linux guests (issue 24,
# done-when: cases (a) and (d) on real kernels with real TCP_INFO): two
# guests (tests/guests/guests.sh, stock Debian 12: cubic, fq_codel,
# tcp_rmem max 3971360 from 512 MiB of RAM, a window of 1985680) joined by
# the guest WAN. One pair, HOSTS[0] the client, one stream up,
# bandwidth_mbit given as the path's known rate:
#   (a) RATE_A Mbit/s x DELAY_A ms each way (100 x 200: BDP 5 MB, the stock
#       window carries at most 40 Mbit/s of it); HOSTS[0] tuned
#       (tcp_buffers for the path, bbr), HOSTS[1] stock: the up flow is
#       receive_window, naming HOSTS[1], net.ipv4.tcp_rmem and its live
#       value, the window full (rwnd_limited most of the sender's busy
#       time, or for bbr the flight most of the receiver's window at its
#       tcp_rmem ceiling: docs/verify.md), under 90% of
#       the path's payload rate;
#   (d) RATE_D x DELAY_D (60 x 25), HOSTS[1] tuned for it too: link_rate
#       (no host to blame), at least 90% of the payload rate (1448 of each
#       1500 bytes).
# Why two paths: on this machine a tuned bbr flow carried 37.9 Mbit/s of a
# 60 Mbit/s x 400 ms guest WAN (1.6% retransmitted; the stock receiver's
# flow 34.1, its cwnd the limit 83% of the time, rwnd 17%: congestion, as
# the diagnosis said), so no long path lets both a stock window bind and a
# tuned flow reach the rate; (d) needs a path the guests can fill.
# Each case from --format json, the table's "limited by" column and the
# report's cell; the tables and diagnosis lines are logged.
# The precondition is checked, not assumed: in (a) the stock window (tcp_rmem
# max minus max >> tcp_adv_win_scale) must be under the BDP.
#
# Usage: guests-diag.sh [TCPTUNE]. Exit 77 only when not root; when UML
# cannot run here it FAILS with the reason. Long tier (label guests-long):
# two guests, four plays, ~3 min on a quiet machine.
# jq programs are in single quotes on purpose.
# shellcheck disable=SC2016
set -uo pipefail
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
e2e_init guests-diag "${1:-}"
# shellcheck source=tests/e2e/guests-lib.sh
. "$(dirname "$0")/guests-lib.sh"
cd "$E2E_SRC" || exit 1

GDIR=/tmp/tcptune-e2e-guests-diag
RATE_A=100		# Mbit/s, the tbf rate of case (a)
DELAY_A=200		# ms each way
RATE_D=60		# case (d)
DELAY_D=25
BDP=$((RATE_A * 1000000 * 2 * DELAY_A / 8 / 1000))

# bar RATE : 90% of the payload RATE carries in 1448-byte segments (what
# the diagnosis calls link_rate).
bar() {
	awk -v r="$1" 'BEGIN { print 0.9 * r * 1448 / 1500 }'
}

guests_up 2 tgd 198.19.184
H0=${HOSTS[0]}
H1=${HOSTS[1]}

# wan RATE DELAY : the guest WAN between the two (again: it replaces
# the last one).
wan() {
	e2e_run 120 "$GUESTS" wan -d "$GDIR" "$H0" "$H1" --delay-ms "$2" \
	    --rate-mbit "$1"
	assert_rc "wan $H0 <-> $H1: $1 Mbit/s, $2 ms each way" 0
}

{
	echo "all:"
	echo "  hosts:"
	echo "    $H0:"
	echo "      iperf_peer: $H1"
	echo "    $H1:"
	echo "      iperf_peer: $H0"
} >"$E2E_TMP/peers.yml"
# tune_yml RATE DELAY : tune.yml, buffers for that path and bbr.
tune_yml() {
	{
		echo "- name: buffers for the path, and bbr"
		echo "  hosts: all"
		echo "  gather_facts: true"
		echo "  tasks:"
		echo "    - name: buffers"
		echo "      tcp_buffers:"
		echo "        bandwidth_mbit: $1"
		echo "        rtt_ms: $((2 * $2))"
		echo "    - name: bbr"
		echo "      congestion:"
		echo "        algorithm: bbr"
	} >"$E2E_TMP/tune.yml"
}
{
	echo "- name: one pair, one stream up"
	echo "  hosts: all"
	echo "  gather_facts: false"
	echo "  tasks:"
	echo "    - name: measure"
	echo "      iperf3_verify:"
	echo "        pairs: [{host: $H0, peer: $H1}]"
	echo "        phase: before"
	echo "        duration: 12"
	echo "        omit: 5"
	echo "        parallel: 1"
	echo "        reverse: false"
} >"$E2E_TMP/measure.yml"

R='.plays[0].results[$h][] | select(.module == "iperf3_verify")'

# jqc FILTER [FILE] : FILTER on H0's pair in the last run's JSON (or FILE).
jqc() {
	jq -r --arg h "$H0" "$R | .data.pairs[0] | $1" "${2:-$E2E_TMP/out}"
}

# window HOST : the largest receive window HOST's tcp_rmem allows.
window() {
	local rmax scale
	rmax=$(guest "$1" sysctl -n net.ipv4.tcp_rmem | awk '{ print $3 }')
	scale=$(guest "$1" sysctl -n net.ipv4.tcp_adv_win_scale)
	echo $((rmax - (rmax >> scale)))
}

# table : H0's before table in the last run's JSON.
table() {
	jq -r --arg h "$H0" "$R | .data.table" "$E2E_TMP/out"
}

# measure NAME RATE : the measurement play, its JSON kept as NAME.json,
# its table and diagnosis logged.
measure() {
	e2e_run 240 tt play "$E2E_TMP/measure.yml" -i "$E2E_TMP/peers.yml" \
	    -e "bandwidth_mbit=$2" --format json --report "$E2E_TMP/$1.html"
	assert_rc "$1: the measurement" 0
	cp "$E2E_TMP/out" "$E2E_TMP/$1.json"
	table | sed "s/^/[$E2E_NAME] $1: table: /"
	jqc '.diagnosis | to_entries[] |
	    "diagnosis: \(.key): \(.value.limit): \(.value.detail)"' |
	    sed "s/^/[$E2E_NAME] $1: /"
}

# report_has CASE DESC TEXT : CASE's --report page has TEXT.
report_has() {
	if grep -qF -- "$3" "$E2E_TMP/$1.html"; then
		e2e_ok "$2"
	else
		e2e_fail "$2: '$3' not in $1.html"
	fi
}

# (a): H0 tuned, H1 stock
wan "$RATE_A" "$DELAY_A"
tune_yml "$RATE_A" "$DELAY_A"
e2e_run 240 tt play "$E2E_TMP/tune.yml" -i "$E2E_TMP/peers.yml" --limit "$H0"
assert_rc "$H0 tuned" 0
stock=$(window "$H1")
tuned=$(window "$H0")
e2e_log "BDP $BDP bytes; $H1's stock window $stock (tcp_rmem $(guest "$H1" sysctl -n net.ipv4.tcp_rmem)), $H0's tuned $tuned (tcp_rmem $(guest "$H0" sysctl -n net.ipv4.tcp_rmem))"
assert_lt "the stock window is under the BDP" "$stock" "$BDP"
measure stock-receiver "$RATE_A"
assert_eq "(a) up: receive_window, $H1 limits it, its tcp_rmem" \
    "receive_window $H1 net.ipv4.tcp_rmem" \
    "$(jqc '.diagnosis.single_up | "\(.limit) \(.host) \(.key)"')"
assert_eq "(a) up: $H1's live tcp_rmem named" \
    "$(guest "$H1" sysctl -n net.ipv4.tcp_rmem | tr -s ' \t' '  ')" \
    "$(jqc '.diagnosis.single_up.value')"
assert_eq "(a) up: tcp_buffers would change it" tcp_buffers \
    "$(jqc '.diagnosis.single_up.module')"
e2e_log "(a) evidence: $(jqc '.diagnosis.single_up.evidence | tojson')"
# A reno/cubic sender runs into the window (rwnd_limited); a paced one
# (bbr) keeps the window full without the kernel counting it: the flight
# (rate x RTT) is most of the receiver's largest window, its buffer at its
# tcp_rmem ceiling.
assert_eq "(a) up: the receiver's window held it (rwnd_limited most of the busy time, or a full window at its ceiling)" yes \
    "$(jqc '.diagnosis.single_up.evidence | if (.rwnd_limited_ms / .busy_ms > 0.5) or ((.mbps * 1e6 / 8 * .rtt_ms / 1000) >= 0.8 * .receiver_rcv_ssthresh and .receiver_rcvbuf >= 0.9 * .receiver_rmem_max) then "yes" else "no: \(tojson)" end')"
assert_lt "(a) up: under 90% of the payload rate" \
    "$(jqc '.before.single_up.mbps')" "$(bar "$RATE_A")"
assert_match "(a) the table's limited-by column" \
    "^  single up +[0-9.]+ .* receive_window $H1\$" \
    "$(table | grep '^  single up')"
report_has stock-receiver "(a) the report's cell: rwnd at dst" \
    '>rwnd dst 1/1</text>'

# (d): both tuned, a path the guests fill
wan "$RATE_D" "$DELAY_D"
tune_yml "$RATE_D" "$DELAY_D"
e2e_run 240 tt play "$E2E_TMP/tune.yml" -i "$E2E_TMP/peers.yml" --limit "$H1"
assert_rc "$H1 tuned" 0
assert_eq "$H1 runs bbr" bbr \
    "$(guest "$H1" sysctl -n net.ipv4.tcp_congestion_control)"
measure tuned "$RATE_D"
assert_eq "(d) up: link_rate, no host to blame" "link_rate null" \
    "$(jqc '.diagnosis.single_up | "\(.limit) \(.host)"')"
assert_lt "(d) up: at least 90% of the payload rate" "$(bar "$RATE_D")" \
    "$(jqc '.before.single_up.mbps')"
assert_match "(d) the table's limited-by column" \
    '^  single up +[0-9.]+ .* link_rate$' "$(table | grep '^  single up')"
report_has tuned "(d) the report's cell: the link" '>link 1/1</text>'
e2e_log "figure: single up: (a) $(jqc '.before.single_up.mbps' "$E2E_TMP/stock-receiver.json") Mbit/s at $RATE_A x $DELAY_A ms, (d) $(jqc '.before.single_up.mbps') Mbit/s at $RATE_D x $DELAY_D ms; load $(cut -d' ' -f1-3 /proc/loadavg)"
e2e_log "took $SECONDS s"
e2e_finish
