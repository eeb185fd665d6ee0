#!/bin/sh
# wan-test.sh WANEM: end-to-end test of the WAN emulator on two throwaway
# namespaces: a 52 ms each way, 100 Mbit/s link with a one-BDP queue must
# give a ~104 ms RTT, and a single BBR flow must crawl with stock buffers
# and fill the link with tuned ones. Exit 77 (skip) when not root.
#
# wan-test.sh --config WANEM: only the configuration parser (no root needed):
# derived values and file:line errors.
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)

config_tests() {
	work=$(mktemp -d "${TMPDIR:-/tmp}/wan-conf.XXXXXX")
	trap 'rm -rf "$work"' EXIT
	bad=0
	printf '%s\n' 'host a ns-a 198.19.0.1' 'host b ns-b 198.19.0.2' \
	    'host c ns-c 198.18.7.3  # comment' '' \
	    'link a b delay=52ms rate=100mbit queue=bdp' \
	    'pipe a c delay=250us rate=1gbit queue=64k loss=1% mtu=1460' \
	    'default delay=0.5 rate=none' >"$work/ok.conf"
	"$1" --check --config "$work/ok.conf" >"$work/out"
	for want in \
	    'pipe a b delay_ns=52000000 rate_bps=100000000 queue_bytes=1300000 loss=0' \
	    'pipe b a delay_ns=52000000 rate_bps=100000000 queue_bytes=1300000 loss=0' \
	    'pipe a c delay_ns=250000 rate_bps=1000000000 queue_bytes=65536 loss=0.01 mtu=1460' \
	    'pipe c a delay_ns=500000 rate_bps=0 queue_bytes=0 loss=0'; do
		if ! grep -qxF "$want" "$work/out"; then
			echo "wan-test: FAIL: no '$want' in:"
			cat "$work/out"
			bad=$((bad + 1))
		fi
	done
	while IFS='|' read -r line want; do
		printf 'host a ns-a 198.19.0.1\nhost b ns-b 198.19.0.2\n%s\n' \
		    "$line" >"$work/bad.conf"
		if "$1" --check --config "$work/bad.conf" >/dev/null \
		    2>"$work/err"; then
			echo "wan-test: FAIL: '$line' accepted"
			bad=$((bad + 1))
		elif ! grep -qF "$work/bad.conf:3: $want" "$work/err"; then
			echo "wan-test: FAIL: '$line': got '$(cat "$work/err")'"
			bad=$((bad + 1))
		fi
	done <<-EOF
	link a b delay=5parsecs|bad delay unit in '5parsecs'
	link a z|unknown host 'z'
	link a b rate=100mbit queue=bdp|queue=bdp needs a delay
	link a b delay=1 queue=9000|queue needs a rate
	link a b loss=2|loss '2' is over 1
	host c ns-c 10.1.2.3|address '10.1.2.3' is outside 198.18.0.0/15
	host c ns-a 198.19.0.3|namespace 'ns-a' already used at line 1
	link a b mtu=9000.5|bad mtu '9000.5' (bytes)
	link a b mtu=500|mtu '500' is outside 576 to 65535
	link a b jitter=5ms|unknown option 'jitter'
	frobnicate|unknown statement 'frobnicate'
	EOF
	echo "wan-test: config checks: $((15 - bad)) ok, $bad failed"
	[ $bad -eq 0 ]
}

if [ "${1:-}" = --config ]; then
	config_tests "$2"
	exit
fi

WANEM=${1:-${WANEM:-}}

if [ "$(id -u)" -ne 0 ]; then
	echo "wan-test: skipped: needs root (network namespaces, TUN)"
	exit 77
fi
for tool in ip iperf3 ping awk; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "wan-test: skipped: no '$tool'"
		exit 77
	fi
done
if [ ! -c /dev/net/tun ]; then
	echo "wan-test: skipped: no /dev/net/tun"
	exit 77
fi
[ -x "$WANEM" ] || { echo "wan-test: no wanem binary '$WANEM'" >&2; exit 1; }

# Names unique to this run so a leftover or a parallel run cannot collide.
NS1=ttl-wt$$a
NS2=ttl-wt$$b
WORK=$(mktemp -d "${TMPDIR:-/tmp}/wan-test.XXXXXX")
IPERF_PID=

cleanup() {
	WANEM=$WANEM "$HERE/wan.sh" down -d "$WORK" >/dev/null 2>&1 || true
	if [ -n "$IPERF_PID" ]; then
		kill "$IPERF_PID" 2>/dev/null || true
	fi
	ip netns del "$NS1" 2>/dev/null || true
	ip netns del "$NS2" 2>/dev/null || true
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

failures=0
check() {
	# check NAME VALUE LO HI: LO <= VALUE <= HI, printed either way.
	if awk -v v="$2" -v lo="$3" -v hi="$4" \
	    'BEGIN { exit !(v + 0 >= lo && v + 0 <= hi) }'; then
		echo "wan-test: ok: $1 = $2 (want $3..$4)"
	else
		echo "wan-test: FAIL: $1 = $2 (want $3..$4)"
		failures=$((failures + 1))
	fi
}

ip netns add "$NS1"
ip netns add "$NS2"
for ns in "$NS1" "$NS2"; do
	ip -n "$ns" link set lo up
	# Per-namespace keys only: these never touch the root namespace.
	ip netns exec "$ns" sysctl -q -w net.ipv4.tcp_no_metrics_save=1 \
	    net.ipv4.tcp_congestion_control=bbr
done

cat >"$WORK/wan.conf" <<EOF
host a $NS1 198.19.0.1
host b $NS2 198.19.0.2
link a b delay=52ms rate=100mbit queue=bdp
EOF
WANEM=$WANEM "$HERE/wan.sh" up "$WORK/wan.conf" -d "$WORK"

rtt=$(ip netns exec "$NS1" ping -q -c 20 -i 0.05 198.19.0.2 |
    awk -F/ '/^rtt/ { print $5 }')
check "rtt avg ms" "${rtt:-0}" 100 112

ip netns exec "$NS2" iperf3 -s -B 198.19.0.2 >"$WORK/iperf3-server.log" 2>&1 &
IPERF_PID=$!
i=0
until ip netns exec "$NS2" ss -ltnH 'sport = :5201' | grep -q .; do
	i=$((i + 1))
	[ $i -lt 50 ] || { echo "wan-test: iperf3 server did not start"; exit 1; }
	sleep 0.1
done

# flow LABEL RMEM/WMEM: one BBR stream for 8 s after 2 s of slow start,
# receiver's figure in Mbit/s.
flow() {
	for ns in "$NS1" "$NS2"; do
		ip netns exec "$ns" sysctl -q -w net.ipv4.tcp_rmem="$2" \
		    net.ipv4.tcp_wmem="$2"
	done
	ip netns exec "$NS1" iperf3 -c 198.19.0.2 -t 8 -O 2 -f m \
	    >"$WORK/iperf3-$1.log" 2>&1 ||
	    { cat "$WORK/iperf3-$1.log"; return 1; }
	awk '/receiver/ { for (i = 1; i < NF; i++)
	    if ($(i + 1) == "Mbits/sec") print $i }' "$WORK/iperf3-$1.log"
}

stock=$(flow stock "4096 131072 212992")
check "stock flow Mbit/s" "${stock:-0}" 0 25
tuned=$(flow tuned "4096 131072 33554432")
check "tuned flow Mbit/s" "${tuned:-0}" 60 1000

echo "wan-test: wanem counters:"
WANEM=$WANEM "$HERE/wan.sh" stats -d "$WORK" | sed 's/^/  /'

if [ $failures -ne 0 ]; then
	echo "wan-test: $failures check(s) failed"
	exit 1
fi
echo "wan-test: rtt ${rtt} ms, stock ${stock} Mbit/s, tuned ${tuned} Mbit/s"
