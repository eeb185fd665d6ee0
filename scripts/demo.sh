#!/usr/bin/env bash
# The main job on the local lab, from a fresh Debian/Ubuntu machine (root):
# install what is needed, build, bring up two lab hosts joined by an
# emulated 105 ms / 100 Mbit/s path with stock small-VPS TCP settings, then
# probe them, show the plan (--check --diff), and run playbooks/wan-tuning.yml
# for real, which measures with iperf3 before and after and prints the table.
#
# The lab stays up afterwards so you can try other commands; the last lines
# say how to use it and how to take it down.
set -euo pipefail
cd "$(dirname "$0")/.."
top=$PWD
if [ "$(id -u)" -ne 0 ]; then
	echo "demo.sh: run as root (it installs packages and creates network namespaces)" >&2
	exit 1
fi

step() { printf '\n\033[1m==> %s\033[0m\n' "$*"; }

step "installing packages (apt-get) and building"
./scripts/setup.sh
./scripts/build.sh >/dev/null
tcptune=$top/build/tcptune

lab=/tmp/tcptune-demo
step "starting a 2-host lab in $lab (network namespaces, one sshd each)"
tests/lab/wan.sh down -d "$lab/wan" >/dev/null 2>&1 || true
tests/lab/lab.sh down -d "$lab" >/dev/null 2>&1 || true
tests/lab/lab.sh up -n 2 -d "$lab" -p ttd -a 198.18.60
# shellcheck disable=SC1091
. "$lab/lab.env"

step "starting the WAN emulator: lab01 <-> lab02, 52 ms each way, 100 Mbit/s"
cat >"$lab/wan.conf" <<CONF
host lab01 ttd-lab01 198.19.60.1
host lab02 ttd-lab02 198.19.60.2
link lab01 lab02 delay=52ms rate=100mbit queue=bdp
CONF
tests/lab/wan.sh up "$lab/wan.conf" -d "$lab/wan" -w "$top/build/tests/lab/wanem"

# The inventory: the lab's, plus each host's iperf3 peer (the other one),
# the address its traffic uses (the emulated path) and the path bandwidth.
cat >"$lab/demo.yml" <<INV
all:
  vars:
    ansible_user: root
    ansible_ssh_private_key_file: $LAB_KEY
    bandwidth_mbit: 100
  children:
    wan:
      hosts:
        lab01:
          ansible_host: ${LAB_ADDRS%% *}
          iperf_address: 198.19.60.1
          iperf_peer: lab02
        lab02:
          ansible_host: ${LAB_ADDRS##* }
          iperf_address: 198.19.60.2
          iperf_peer: lab01
INV
run=(-i "$lab/demo.yml" --known-hosts "$LAB_KNOWN_HOSTS")

step "tcptune probe: every fact in one round trip per host (note the RTT)"
"$tcptune" probe "${run[@]}"

step "tcptune plan: what would change (nothing is written)"
"$tcptune" plan playbooks/wan-tuning.yml "${run[@]}" --skip-tags verify || true

step "tcptune play: measure, tune, measure again"
set +e
"$tcptune" play playbooks/wan-tuning.yml "${run[@]}"
rc=$?
set -e

cat <<EOF

The lab is still up. Try, for example:
  $tcptune drift playbooks/wan-tuning.yml ${run[*]}
  $tcptune play playbooks/rollback.yml ${run[*]}
Take it down with:
  tests/lab/wan.sh down -d $lab/wan && tests/lab/lab.sh down -d $lab
EOF
exit $rc
