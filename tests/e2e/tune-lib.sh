# shellcheck shell=bash
# tune-lib.sh - helpers for the tuning end-to-end tests (tests/e2e/tune-*.sh),
# on top of tests/e2e/lib.sh (lab, tt, e2e_run, assert_*).
#
#   live H KEY            the live value of KEY in host H (tabs -> spaces)
#   host_snapshot H       everything a plan must not change on H: the files
#                         under /etc/sysctl.d, /var/lib/tcptune and
#                         /etc/modules-load.d (path, type, mode, size,
#                         mtime, inode, link target, sha256), the live
#                         tuned keys, the live qdisc and default route
#   fleet_snapshot        host_snapshot of every lab host
#   file_sha H PATH       sha256 of PATH in H, or "absent"
#   stray_files H         dot-files in /etc/sysctl.d and *.tmp backups
#   apply_result H        the last result of H in the last --format json run
#                         (the flush of the staged tuning: "apply tuning ...")
#   expect_tuned H        assert the live values of rtt 105 ms x 100 Mbit/s
#   expect_stock H        assert the lab's stock values
# shellcheck source=tests/e2e/lib.sh disable=SC2034
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

TUNE_PB=playbooks/wan-tuning.yml
TUNE_DATA=tests/data/tune
# The tuning tasks only (no iperf3 peer in these labs), sized for a 105 ms
# RTT at 100 Mbit/s: BDP 1.3 MB, x2 headroom -> 4 MiB ceilings.
TUNE_VARS=(--skip-tags verify -e rtt_ms=105 -e bandwidth_mbit=100)
DROPIN=/etc/sysctl.d/90-tcptune.conf
STOCK_RMEM="4096 131072 212992"
STOCK_WMEM="4096 16384 212992"
TUNED_RMEM="4096 131072 4194304"
TUNED_WMEM="4096 65536 4194304"
TUNE_KEYS="net.ipv4.tcp_rmem net.ipv4.tcp_wmem net.ipv4.tcp_congestion_control net.core.rmem_max net.core.wmem_max net.ipv4.tcp_no_metrics_save"

# tcptune's path arguments are relative to the source tree.
cd "$E2E_SRC" || exit 1

live() {
	lab "$1" sysctl -n "$2" | tr -s ' \t' '  '
}

host_snapshot() {
	# shellcheck disable=SC2016
	lab "$1" sh -c '
		for d in /etc/sysctl.d /var/lib/tcptune /etc/modules-load.d; do
			find "$d" -printf "%p %y %m %s %T@ %i %l\n"
			find "$d" -type f -exec sha256sum {} +
		done | sort
		for k in '"$TUNE_KEYS"'; do
			printf "%s = %s\n" "$k" "$(sysctl -n "$k" 2>&1)"
		done
		tc qdisc show dev eth0
		ip route show default'
}

fleet_snapshot() {
	local h
	for h in "${HOSTS[@]}"; do
		echo "== $h"
		host_snapshot "$h"
	done
}

file_sha() {
	lab "$1" sh -c '[ -f "$1" ] && sha256sum <"$1" | cut -d" " -f1 || echo absent' \
	    sh "$2"
}

stray_files() {
	lab "$1" sh -c 'find /etc/sysctl.d -maxdepth 1 -name ".*" ! -name . ! -name ..;
	    find /var/lib/tcptune -name "*.tmp" 2>/dev/null' | sort
}

apply_result() {
	jq_out --arg h "$1" '.plays[0].results[$h][-1] // {}'
}

expect_tuned() {
	assert_eq "$1: live tcp_rmem" "$TUNED_RMEM" "$(live "$1" net.ipv4.tcp_rmem)"
	assert_eq "$1: live tcp_wmem" "$TUNED_WMEM" "$(live "$1" net.ipv4.tcp_wmem)"
	assert_eq "$1: live congestion control" bbr \
	    "$(live "$1" net.ipv4.tcp_congestion_control)"
}

expect_stock() {
	assert_eq "$1: live tcp_rmem is stock" "$STOCK_RMEM" \
	    "$(live "$1" net.ipv4.tcp_rmem)"
	assert_eq "$1: live tcp_wmem is stock" "$STOCK_WMEM" \
	    "$(live "$1" net.ipv4.tcp_wmem)"
	assert_eq "$1: live congestion control is stock" reno \
	    "$(live "$1" net.ipv4.tcp_congestion_control)"
}

# e2e_finish with the test's wall clock.
tune_finish() {
	e2e_log "took ${SECONDS} s"
	e2e_finish
}

# assert_line DESC LINE TEXT : TEXT has LINE as a whole line.
assert_line() {
	if grep -qxF -- "$2" <<<"$3"; then
		e2e_ok "$1"
	else
		e2e_fail "$1: no line '$2' in:"
		printf '%s\n' "$3" | tail -n 20 | sed 's/^/    | /'
		return 1
	fi
}
