#!/bin/bash
# guests-smoke.sh - the real-kernel lab works: two User-mode Linux guests
# (tests/guests/guests.sh) come up with strict host keys from the first
# connection; tcptune ping and probe reach them through the normal CLI as
# the non-root user with become; the probe's facts match the guest's own
# commands (a stock Debian VM: kernel release, cubic, fq_codel root qdisc,
# rmem_max 212992, /boot/config); a reboot comes back; down leaves nothing.
# Prints the figures (image, boot, reboot, memory per guest).
#
# Usage: guests-smoke.sh [TCPTUNE]. Exit 77 only when not root; when UML
# cannot run here it FAILS with the reason.
set -uo pipefail
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
e2e_init guests-smoke "${1:-}"

GUESTS=$E2E_SRC/tests/guests/guests.sh
GDIR=/tmp/tcptune-e2e-guests
# shellcheck disable=SC2317 # called by the EXIT trap
guests_cleanup() {
	if [[ ${KEEP_LAB:-0} != 1 ]]; then
		"$GUESTS" down -d "$GDIR" >/dev/null 2>&1 || true
	fi
	e2e_cleanup
}
trap guests_cleanup EXIT

if ! out=$("$GUESTS" check 2>&1); then
	echo "FAIL: User-mode Linux guests cannot run here: $out"
	exit 1
fi
e2e_log "$out"

# guest HOST CMD... : run CMD as root in a guest (guests.sh exec).
guest() {
	"$GUESTS" exec -d "$GDIR" "$@"
}

secs_since() {
	awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'
}

t0=$(now)
if ! img=$("$GUESTS" image 2>"$E2E_TMP/image.log"); then
	echo "FAIL: guests.sh image failed:"
	sed 's/^/    /' "$E2E_TMP/image.log"
	exit 1
fi
e2e_log "figure: image $img ready in $(secs_since "$t0") s ($(grep -q 'built in' "$E2E_TMP/image.log" && echo built || echo cached))"

t0=$(now)
if ! "$GUESTS" up -n 2 -d "$GDIR" -p tgs -a 198.18.211 >"$E2E_TMP/up.log" 2>&1; then
	echo "FAIL: guests.sh up -n 2 failed:"
	sed 's/^/    /' "$E2E_TMP/up.log"
	exit 1
fi
e2e_log "figure: 2 guests up (boot to sshd) in $(secs_since "$t0") s"
# shellcheck disable=SC1091
. "$GDIR/lab.env"
read -r -a HOSTS <<<"$LAB_HOSTS"
read -r -a ADDRS <<<"$LAB_ADDRS"

assert_eq "inventory: the non-root user with become" \
    "ansible_user: tcptune|ansible_become: true" \
    "$(grep -oE 'ansible_(user|become): .*' "$LAB_INVENTORY" | paste -sd'|')"
assert_eq "known_hosts: one exact ed25519 key per guest" "2" \
    "$(grep -cE '^198\.18\.211\.1[12] ssh-ed25519 [A-Za-z0-9+/=]+$' "$LAB_KNOWN_HOSTS")"

e2e_run 60 tt ping
assert_rc "ping (tcptune as tcptune, become, strict host keys) exits 0" 0
assert_eq "ping: 2 'ok:' lines" 2 "$(grep -c '^ok: \[' <<<"$RUN_OUT")"

# Strict host key checking: a guest whose key is not known is refused.
: >"$E2E_TMP/empty_known_hosts"
e2e_run 60 "$TCPTUNE" ping -i "$LAB_INVENTORY" --known-hosts \
    "$E2E_TMP/empty_known_hosts" --no-color -l "${HOSTS[0]}"
assert_rc_bit "ping with an empty known_hosts: unreachable" 4

e2e_run 120 tt probe --format json
assert_rc "probe exits 0" 0
for h in "${HOSTS[@]}"; do
	d=".plays[0].results[\"$h\"][0].data"
	rel=$(guest "$h" uname -r)
	assert_eq "[$h] probe ran as root (become)" 0 "$(jq_out "$d.uid")"
	assert_eq "[$h] hostname" "$h" "$(jq_out "$d.hostname")"
	assert_eq "[$h] kernel release = uname -r" "$rel" "$(jq_out "$d.kernel.release")"
	assert_eq "[$h] virtualization uml" uml "$(jq_out "$d.virtualization.type")"
	assert_eq "[$h] distribution Debian 12" "debian 12" \
	    "$(jq_out "$d.distribution.id + \" \" + $d.distribution.version_id")"
	assert_eq "[$h] congestion control = the guest's (cubic)" \
	    "cubic $(guest "$h" sysctl -n net.ipv4.tcp_congestion_control)" \
	    "cubic $(jq_out "$d.congestion.current")"
	assert_eq "[$h] default_qdisc = the guest's (fq_codel)" \
	    "fq_codel $(guest "$h" sysctl -n net.core.default_qdisc)" \
	    "fq_codel $(jq_out "$d.default_qdisc")"
	assert_eq "[$h] rmem_max = the guest's (212992), writable" \
	    "212992 $(guest "$h" sysctl -n net.core.rmem_max) true" \
	    "212992 $(jq_out "$d.sysctl[\"net.core.rmem_max\"] | \"\(.value) \(.writable)\"")"
	assert_eq "[$h] default-route interface eth0 via the bridge" \
	    "eth0 $LAB_GATEWAY" \
	    "$(jq_out "$d.default_route | \"\(.interface) \(.gateway)\"")"
	assert_eq "[$h] root qdisc kind = tc's (fq_codel)" \
	    "fq_codel $(guest "$h" tc qdisc show dev eth0 root | awk '{ print $2; exit }')" \
	    "fq_codel $(jq_out "$d.default_route.qdisc.kind")"
	assert_eq "[$h] kernel config from /boot/config-RELEASE" \
	    "/boot/config-$rel" "$(jq_out "$d.kernel_config.source")"
	assert_eq "[$h] CONFIG_TCP_CONG_BBR and CONFIG_NET_SCH_FQ as in the config file" \
	    "$(guest "$h" grep -hE '^CONFIG_(TCP_CONG_BBR|NET_SCH_FQ)=' "/boot/config-$rel" | sort | paste -sd' ')" \
	    "$(jq_out "$d.kernel_config | \"CONFIG_NET_SCH_FQ=\(.CONFIG_NET_SCH_FQ) CONFIG_TCP_CONG_BBR=\(.CONFIG_TCP_CONG_BBR)\"")"
	assert_eq "[$h] tcp_bbr and sch_fq: modules, loadable, not loaded" \
	    "false true false false true false" \
	    "$(jq_out "[$d.modules.tcp_bbr, $d.modules.sch_fq] | map(\"\(.builtin) \(.loadable) \(.loaded)\") | join(\" \")")"
	assert_eq "[$h] no link speed (ethtool shows none)" null \
	    "$(jq_out "$d.default_route.speed_mbit")"
done
m=$(jq_out ".plays[0].results[\"${HOSTS[0]}\"][0].data.default_route.speed_reason")
assert_eq "[${HOSTS[0]}] speed_reason says the driver reports no speed" \
    "ethtool shows no speed for eth0 (the driver reports none)" "$m"

# Memory per guest: proportional set size of every host process the
# guest runs (its kernel, its processes, its memory file in /dev/shm).
for h in "${HOSTS[@]}"; do
	pgid=$(cat "$GDIR/guests/$h/uml.pid")
	kb=0
	for p in $(ps -g "$pgid" -o pid=); do
		v=$(awk '/^Pss:/ { print $2 }' "/proc/$p/smaps_rollup" 2>/dev/null)
		kb=$((kb + ${v:-0}))
	done
	e2e_log "figure: $h uses $((kb / 1024)) MiB of host memory (PSS, $(ps -g "$pgid" -o pid= | wc -l) processes)"
done

# rtt_avg FROM TO_ADDR: ping's average round trip in ms.
rtt_avg() {
	guest "$1" ping -n -q -c 4 -i 0.3 "$2" | awk -F/ '/^rtt/ { print $5 }'
}
# assert_in_range DESC X LO HI : LO <= X <= HI as decimal numbers.
assert_in_range() {
	if awk -v x="$2" -v lo="$3" -v hi="$4" \
	    'BEGIN { exit !(x != "" && x >= lo && x <= hi) }'; then
		e2e_ok "$1 ($2)"
	else
		e2e_fail "$1: '$2' is not in $3..$4"
	fi
}

# The emulated WAN takes no root qdisc: both roots stay stock, and an fq
# root (what tcptune sets) leaves the emulation intact.
e2e_run 60 "$GUESTS" wan -d "$GDIR" "${HOSTS[0]}" "${HOSTS[1]}" \
    --delay-ms 25 --rate-mbit 100
assert_rc "wan ${HOSTS[0]} ${HOSTS[1]} (25 ms each way, 100 Mbit/s)" 0
r=$(rtt_avg "${HOSTS[0]}" "${ADDRS[1]}")
assert_in_range "wan: guest-to-guest rtt in ms (50 expected)" "$r" 49 60
r=$(ping -n -q -c 3 -i 0.3 "${ADDRS[1]}" | awk -F/ '/^rtt/ { print $5 }')
assert_in_range "wan: the controller's path is not delayed (rtt ms)" "$r" 0 5
for h in "${HOSTS[@]}"; do
	assert_eq "[$h] wan leaves the root qdisc stock" fq_codel \
	    "$(guest "$h" tc qdisc show dev eth0 root | awk '{ print $2; exit }')"
done
guest "${HOSTS[0]}" tc qdisc replace dev eth0 root fq
r=$(rtt_avg "${HOSTS[0]}" "${ADDRS[1]}")
assert_in_range "wan: intact under an fq root (rtt ms)" "$r" 49 60

h=${HOSTS[1]}
old=$(guest "$h" cat /proc/sys/kernel/random/boot_id)
t0=$(now)
e2e_run 300 "$GUESTS" reboot -d "$GDIR" "$h"
assert_rc "reboot $h returns" 0
e2e_log "figure: $h rebooted (back to sshd) in $(secs_since "$t0") s"
assert_ne "[$h] a new boot_id after reboot" "$old" \
    "$(guest "$h" cat /proc/sys/kernel/random/boot_id)"
assert_eq "[$h] systemd is PID 1 after the reboot" systemd \
    "$(guest "$h" cat /proc/1/comm)"
e2e_run 60 tt ping -l "$h"
assert_rc "ping $h after its reboot (same host key: strict checking holds)" 0
assert_eq "[$h] still the stock fq_codel root qdisc after the reboot" fq_codel \
    "$(guest "$h" tc qdisc show dev eth0 root | awk '{ print $2; exit }')"
r=$(rtt_avg "${HOSTS[0]}" "${ADDRS[1]}")
assert_in_range "wan: set up again after $h's reboot (rtt ms)" "$r" 49 60

pgids=$(cat "$GDIR"/guests/*/uml.pid | paste -sd' ')
e2e_run 60 "$GUESTS" down -d "$GDIR"
assert_rc "down exits 0" 0
left=
for g in $pgids; do
	left+=$(ps -g "$g" -o pid= | tr -d ' \n')
done
assert_eq "down: no guest process left (process groups $pgids)" "" "$left"
assert_eq "down: no bridge or veth left" "" \
    "$(ip -br link show | awk '$1 ~ /^tgs(br0|v[0-9])/ { print $1 }')"
e2e_run 60 "$GUESTS" down -d "$GDIR"
assert_rc "down again (nothing to do) exits 0" 0

e2e_finish
