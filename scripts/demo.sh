#!/usr/bin/env bash
# The main job on a local lab, from a fresh Debian/Ubuntu machine (root):
# install what is needed, build, bring up two lab hosts joined by an
# emulated long path with stock TCP settings, then probe them, show the
# plan (--check --diff), and run playbooks/wan-tuning.yml for real, which
# measures with iperf3 before and after and prints the table.
#
# Two labs, one story:
#   (default)  network namespaces with their own sshd and the seeds'
#              small-VPS settings, joined by tests/lab/wanem: 52 ms each
#              way, 100 Mbit/s. Fast (seconds to start), but they share
#              this machine's kernel.
#   --guests   two User-mode Linux guests (tests/guests/guests.sh), each a
#              real Debian 12 kernel with systemd, stock fq_codel/cubic,
#              joined by the guest WAN: 200 ms each way, 150 Mbit/s (a BDP
#              of 7.5 MB, far above the 3 MB window of a 1 GiB guest's
#              stock buffers). The play replaces the live qdisc with fq and
#              loads tcp_bbr for real. Slower: the image is built once (1-3
#              min), then boot ~25 s and a play of ~3 min; up to 1 GiB of
#              memory per guest.
#
# The lab stays up afterwards so you can try other commands; the last lines
# say how to use it and how to take it down.
set -euo pipefail
cd "$(dirname "$0")/.."
top=$PWD

usage() {
	cat <<'EOF'
usage: scripts/demo.sh [--guests]
  Install, build, start a 2-host lab on an emulated long path, then run
  tcptune probe, plan and play playbooks/wan-tuning.yml (before/after
  iperf3 table). The lab stays up; the last lines say how to take it down.

  (no option)  network namespaces sharing this kernel, 100 Mbit/s x 52 ms
               each way (fast)
  --guests     User-mode Linux guests, each a real Debian 12 kernel,
               150 Mbit/s x 200 ms each way (a few minutes; up to 1 GiB per guest)
  -h, --help   this text
EOF
}

mode=namespaces
for arg in "$@"; do
	case $arg in
	--guests) mode=guests ;;
	-h | --help) usage; exit 0 ;;
	*) echo "demo.sh: unknown argument '$arg'" >&2; usage >&2; exit 1 ;;
	esac
done
# shellcheck source=scripts/as-root.sh
. scripts/as-root.sh
as_root "it installs packages and creates network namespaces" "$@"

step() { printf '\n\033[1m==> %s\033[0m\n' "$*"; }

# demo_vars FILE BANDWIDTH HOST1 ADDR1 HOST2 ADDR2 : the inventory the
# demo adds to the lab's own: each host's iperf3 peer (the other one), the
# address its traffic uses (ADDR, or none: the host's ansible_host) and the
# path bandwidth.
demo_vars() {
	local file=$1 bw=$2
	{
		echo "all:"
		echo "  vars:"
		echo "    bandwidth_mbit: $bw"
		echo "  hosts:"
		echo "    $3:"
		echo "      iperf_peer: $5"
		[ -z "$4" ] || echo "      iperf_address: $4"
		echo "    $5:"
		echo "      iperf_peer: $3"
		[ -z "$6" ] || echo "      iperf_address: $6"
	} >"$file"
}

# Each lab_* function starts its lab and sets: lab (its directory), run
# (the tcptune options that reach it), extra (options of the play only),
# try (commands to suggest) and down (how to take it down).
lab_namespaces() {
	lab=/tmp/tcptune-demo
	step "starting a 2-host lab in $lab (network namespaces, one sshd each)"
	tests/lab/wan.sh down -d "$lab/wan" >/dev/null 2>&1 || true
	tests/lab/lab.sh down -d "$lab" >/dev/null 2>&1 || true
	tests/lab/lab.sh up -n 2 -d "$lab" -p ttd -a 198.18.62
	# shellcheck disable=SC1091
	. "$lab/lab.env"

	step "starting the WAN emulator: lab01 <-> lab02, 52 ms each way, 100 Mbit/s"
	cat >"$lab/wan.conf" <<CONF
host lab01 ttd-lab01 198.19.60.1
host lab02 ttd-lab02 198.19.60.2
link lab01 lab02 delay=52ms rate=100mbit queue=bdp
CONF
	tests/lab/wan.sh up "$lab/wan.conf" -d "$lab/wan" -w "$top/build/tests/lab/wanem"
	demo_vars "$lab/demo.yml" 100 lab01 198.19.60.1 lab02 198.19.60.2
	run=(-i "$LAB_INVENTORY" -i "$lab/demo.yml" --known-hosts "$LAB_KNOWN_HOSTS")
	extra=()
	try=()
	down="tests/lab/wan.sh down -d $lab/wan && tests/lab/lab.sh down -d $lab"
}

lab_guests() {
	local g=tests/guests/guests.sh h1 h2
	lab=/tmp/tcptune-demo-guests
	step "starting 2 User-mode Linux guests in $lab (Debian 12 kernels; the image is built once, 1-3 min)"
	"$g" down -d "$lab" >/dev/null 2>&1 || true
	GUESTS_MEM=1G "$g" up -n 2 -d "$lab" -p tgo -a 198.18.220
	# shellcheck disable=SC1091
	. "$lab/lab.env"
	read -r h1 h2 <<<"$LAB_HOSTS"

	step "the guest WAN: $h1 <-> $h2, 200 ms each way, 150 Mbit/s (inside the guests, eth0's root qdisc left free)"
	"$g" wan -d "$lab" "$h1" "$h2" --delay-ms 200 --rate-mbit 150
	for h in $h1 $h2; do
		# shellcheck disable=SC2016 # expanded in the guest
		echo "$h: $("$g" exec -d "$lab" "$h" sh -c 'echo "$(uname -r), $(sysctl -n net.ipv4.tcp_congestion_control), root qdisc $(tc qdisc show dev eth0 root | cut -d" " -f2), rmem_max $(sysctl -n net.core.rmem_max)"')"
	done
	demo_vars "$lab/demo.yml" 150 "$h1" "" "$h2" ""
	run=(-i "$LAB_INVENTORY" -i "$lab/demo.yml" --known-hosts "$LAB_KNOWN_HOSTS")
	# One stream: the single flow is the headline, and it halves the wait.
	extra=(-e verify_streams=1)
	try=("$g exec -d $lab $h1 tc qdisc show dev eth0"
	    "$g reboot -d $lab $h2    # then drift again: the drop-in is applied at boot")
	down="$g down -d $lab"
}

step "installing packages (apt-get) and building"
./scripts/setup.sh
./scripts/build.sh >/dev/null
tcptune=$top/build/tcptune

case $mode in
guests) lab_guests ;;
*) lab_namespaces ;;
esac

step "tcptune probe: every fact in one round trip per host (note the RTT)"
"$tcptune" probe "${run[@]}"

step "tcptune plan: what would change (nothing is written)"
"$tcptune" plan playbooks/wan-tuning.yml "${run[@]}" --skip-tags verify || true

step "tcptune play: measure, tune, measure again"
set +e
"$tcptune" play playbooks/wan-tuning.yml "${run[@]}" "${extra[@]}"
rc=$?
set -e

cat <<EOF

The lab is still up. Try, for example:
  $tcptune drift playbooks/wan-tuning.yml ${run[*]}
  $tcptune play playbooks/rollback.yml ${run[*]}
EOF
for t in "${try[@]}"; do
	echo "  $t"
done
cat <<EOF
Take it down with:
  $down
EOF
exit $rc
