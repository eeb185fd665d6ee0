#!/bin/bash
# guest-bbr-ceiling.sh - one flow over a 240 ms, 100 Mbit/s path (BDP 3 MB)
# between two User-mode Linux guests (their own kernels: fq on the sender,
# bbr or cubic), against the tcp_rmem/tcp_wmem ceiling: is the 2 x BDP
# ceiling that tcp_buffers gives such a path (8 MiB) enough? See
# bench/README.md, "BBR and cubic against the ceiling". About 6 minutes; root.
#
#   bench/guest-bbr-ceiling.sh [DIR]     (default /tmp/tcptune-bench-bbr)
#
# Prints one line per run: congestion control, ceiling, iperf3's receiver
# Mbit/s over the 8 s measured (-O 5 omitted), retransmits, and the 1 s
# intervals (omitted ones first; the last one can be partial).
set -uo pipefail
G=$(cd "$(dirname "$0")/.." && pwd)/tests/guests/guests.sh
D=${1:-/tmp/tcptune-bench-bbr}
"$G" up -n 2 -d "$D" -p tbx -a 198.18.215 >/dev/null || exit 1
trap '"$G" down -d "$D" >/dev/null' EXIT
status=$("$G" status -d "$D")
mapfile -t H < <(awk 'NR > 2 { print $1 }' <<<"$status")
mapfile -t ADDR < <(awk 'NR > 2 { print $2 }' <<<"$status")
"$G" wan -d "$D" "${H[0]}" "${H[1]}" --delay-ms 120 --rate-mbit 100 \
    --one-way || exit 1
x() { "$G" exec -d "$D" "$@"; }
x "${H[1]}" sh -c 'iperf3 -s -D'
for cc in bbr cubic; do
	for mb in 4 8 16 32; do
		b=$((mb << 20))
		for g in "${H[@]}"; do
			x "$g" sh -c "modprobe tcp_bbr; sysctl -qw \
			    net.ipv4.tcp_rmem='4096 131072 $b' \
			    net.ipv4.tcp_wmem='4096 65536 $b' \
			    net.ipv4.tcp_congestion_control=$cc &&
			    tc qdisc replace dev eth0 root fq"
		done
		for run in 1 2; do
			r=$(x "${H[0]}" sh -c "iperf3 -c ${ADDR[1]} -t 8 -O 5 -J" |
			    jq -r '"\(.end.sum_received.bits_per_second / 1e6 | floor) Mbit/s, \(.end.sum_sent.retransmits) retransmits | \([.intervals[].sum.bits_per_second / 1e6 | floor] | join(" "))"')
			echo "$cc, ceiling $mb MiB, run $run: $r"
		done
	done
done
