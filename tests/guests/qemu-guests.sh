#!/bin/bash
# qemu-guests.sh - a lab of QEMU guests: stock Debian 12 with Debian's own
# kernel (linux-image-amd64) on a multiqueue virtio-net NIC, as GCP and most
# OVH VMs are: the root qdisc is mq with one fq_codel leaf per queue, the
# MTU 1460 (GCP's). What User-mode Linux (guests.sh) cannot give: a NIC with
# several queue pairs. Same interface as guests.sh where that makes sense;
# see tests/guests/README.md ("QEMU guests").
#
# QEMU runs with KVM where this machine has a usable one, else with its
# software emulation (TCG: several times slower, fine for the qdisc, queue
# and reboot paths, not for throughput).
#
# Must run as root. Touches nothing of this machine but its own bridge and
# taps, its DIR, the image cache under /var/tmp and the guests' QEMU
# processes: never a sysctl, never a route but the bridge's own.

set -euo pipefail

PROG=qemu-guests.sh
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
DEFAULT_DIR=/tmp/tcptune-qemu-guests
DEFAULT_N=1
DEFAULT_PREFIX=tgq
DEFAULT_NET=198.18.215
DEFAULT_QUEUES=2
MAX_N=4			# 2 cores: each TCG guest wants one
MTU=1460		# GCP's VPC MTU
CACHE=${GUESTS_CACHE:-/var/tmp/tcptune-guests}
MEM=${QEMU_GUESTS_MEM:-768M}
BOOT_SECS=${GUESTS_BOOT_SECS:-300}	# boot (or reboot) to sshd, TCG under load
LAB_USER=tcptune
QEMU=${QEMU_GUESTS_QEMU:-qemu-system-x86_64}

die() {
	echo "$PROG: $*" >&2
	exit 1
}

warn() {
	echo "$PROG: $*" >&2
}

usage() {
	cat >&2 <<EOF
usage: $PROG up [-n N] [-q QUEUES] [-d DIR] [-p PREFIX] [-a NET]
       $PROG down [-d DIR]
       $PROG status [-d DIR]
       $PROG exec [-d DIR] GUEST CMD [ARG...]
       $PROG reboot [-d DIR] GUEST
       $PROG image            build (or find) the cached image; prints its path
       $PROG check            can QEMU guests run here? (exit 1 with the reason)
defaults: N=$DEFAULT_N QUEUES=$DEFAULT_QUEUES DIR=\${GUESTS_DIR:-$DEFAULT_DIR} PREFIX=$DEFAULT_PREFIX NET=$DEFAULT_NET
EOF
	exit 2
}

now() {
	date +%s.%N
}

since() {
	awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'
}

# --- can QEMU run here? -----------------------------------------------------

# kvm or tcg. KVM only where it can boot Debian's kernel: /dev/kvm usable
# and the CPU's own virtualisation (vmx/svm); a paravirtual kvm_pvm (no
# vmx/svm flag) runs only kernels built for it and hangs Debian's.
# QEMU_GUESTS_ACCEL forces one.
accel() {
	if [[ -n ${QEMU_GUESTS_ACCEL:-} ]]; then
		echo "$QEMU_GUESTS_ACCEL"
	elif [[ -r /dev/kvm && -w /dev/kvm && ! -d /sys/module/kvm_pvm ]] &&
	    grep -qwE 'vmx|svm' /proc/cpuinfo; then
		echo kvm
	else
		echo tcg
	fi
}

cmd_check() {
	local missing=()
	command -v "$QEMU" >/dev/null || missing+=("$QEMU (apt-get install qemu-system-x86)")
	command -v qemu-img >/dev/null || missing+=("qemu-img (apt-get install qemu-utils)")
	command -v mmdebstrap >/dev/null || missing+=("mmdebstrap (apt-get install mmdebstrap)")
	command -v mkfs.ext4 >/dev/null || missing+=("mkfs.ext4 (apt-get install e2fsprogs)")
	command -v ssh-keygen >/dev/null || missing+=("ssh-keygen (apt-get install openssh-client)")
	[[ -c /dev/net/tun ]] || missing+=("/dev/net/tun (taps)")
	if ((${#missing[@]} == 0)); then
		ip tuntap add dev "${DEFAULT_PREFIX}chk0" mode tap multi_queue \
		    2>/dev/null && ip link del "${DEFAULT_PREFIX}chk0" ||
			missing+=("multi-queue taps (ip tuntap add ... multi_queue failed)")
	fi
	if ((${#missing[@]})); then
		local IFS=';'
		printf '%s: cannot run QEMU guests here: missing %s\n' \
		    "$PROG" "${missing[*]}" >&2
		return 1
	fi
	echo "$PROG: QEMU $("$QEMU" --version | sed -n '1s/.*version \([^ ]*\).*/\1/p') can run here (accel $(accel))"
}

# --- the cached image ------------------------------------------------------

# The recipe of guests.sh's image with Debian's kernel in it: the same
# files make the key, plus the flavour.
image_key() {
	{
		echo qemu
		cat "$HERE/packages.list" "$HERE/build-image.sh" \
		    "$HERE"/image/*
	} | sha256sum | cut -c1-16
}

# IMG, IMG.vmlinuz, IMG.initrd.
ensure_image() {
	local img t0
	img=$CACHE/qemu-$(image_key).img
	[[ -s $img && -s $img.vmlinuz && -s $img.initrd ]] &&
		{ echo "$img"; return 0; }
	mkdir -p "$CACHE"
	chmod 0755 "$CACHE"
	exec 8>"$CACHE/.lock"
	flock -w 900 8 || die "the image cache $CACHE is locked by another builder"
	if [[ ! -s $img ]]; then
		t0=$(now)
		warn "building the QEMU guest image $img (several minutes)"
		"$HERE/build-image.sh" "$img" qemu >"$CACHE/build-qemu.log" 2>&1 || {
			tail -n 30 "$CACHE/build-qemu.log" >&2
			die "image build failed (log: $CACHE/build-qemu.log)"
		}
		# Old images of other recipes are dead weight.
		find "$CACHE" -maxdepth 1 -name 'qemu-*.img*' ! -path "$img" \
		    ! -path "$img.*" -delete
		warn "image built in $(since "$t0") s"
	fi
	exec 8>&-
	echo "$img"
}

# --- state -------------------------------------------------------------------

gdir() {
	echo "$DIR/guests/$1"
}

plan_layout() {
	local i name
	HOSTS=() ADDRS=() TAPS=() MACS=()
	LAB_BRIDGE=${LAB_PREFIX}br0
	LAB_GW=$LAB_NET.1
	for ((i = 1; i <= LAB_N; i++)); do
		printf -v name 'guest%02d' "$i"
		HOSTS+=("$name")
		ADDRS+=("$LAB_NET.$((10 + i))")
		TAPS+=("${LAB_PREFIX}t$i")
		# QEMU's locally administered range; one per network and guest.
		MACS+=("$(printf '52:54:00:%02x:00:%02x' "${LAB_NET##*.}" "$i")")
	done
}

save_state() {
	printf 'LAB_N=%q\nLAB_PREFIX=%q\nLAB_NET=%q\nLAB_IMAGE=%q\nLAB_QUEUES=%q\nLAB_ACCEL=%q\n' \
	    "$LAB_N" "$LAB_PREFIX" "$LAB_NET" "$LAB_IMAGE" "$LAB_QUEUES" \
	    "$LAB_ACCEL" >"$DIR/guests.conf"
}

load_state() {
	[[ -f $DIR/guests.conf ]] || return 1
	# shellcheck disable=SC1091
	. "$DIR/guests.conf"
	plan_layout
}

host_index() {
	local i
	for i in "${!HOSTS[@]}"; do
		[[ ${HOSTS[$i]} == "$1" ]] && echo "$i" && return 0
	done
	die "no guest '$1' in $DIR (guests: ${HOSTS[*]})"
}

# The pid of guest H's QEMU, when that process is ours (its command line
# names our disk: guards against a stale pid file and pid reuse).
qemu_pid() {
	local g pid
	g=$(gdir "$1")
	[[ -f $g/qemu.pid ]] || return 1
	read -r pid <"$g/qemu.pid" 2>/dev/null || return 1
	[[ $pid =~ ^[0-9]+$ ]] || return 1
	tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null |
		grep -qF "file=$g/disk.qcow2," || return 1
	echo "$pid"
}

stop_guest() {
	local h=$1 pid n
	pid=$(qemu_pid "$h") || { rm -f "$(gdir "$h")/qemu.pid"; return 0; }
	kill -TERM "$pid" 2>/dev/null || true
	for ((n = 0; n < 50; n++)); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	kill -KILL "$pid" 2>/dev/null || true
	rm -f "$(gdir "$h")/qemu.pid"
}

# QEMUs running a disk under DIR/guests whose state was removed by hand.
kill_orphans() {
	local pid
	for pid in $(ps -e -o pid= -o args= | awk -v q="$QEMU" \
	    -v m="file=$DIR/guests/" '$2 == q && index($0, m) { print $1 }'); do
		warn "stopping a leftover guest (pid $pid)"
		kill -KILL "$pid" 2>/dev/null || true
	done
}

# --- network -----------------------------------------------------------------

# The bridge (controller at NET.1/24) and one multi-queue tap per guest
# (QEMU opens one fd per queue pair), MTU 1460 on both.
make_net() {
	local i batch
	batch="link add $LAB_BRIDGE type bridge"$'\n'
	batch+="link set $LAB_BRIDGE addrgenmode none mtu $MTU"$'\n'
	batch+="addr add $LAB_GW/24 dev $LAB_BRIDGE"$'\n'
	batch+="link set $LAB_BRIDGE up"$'\n'
	ip -batch - <<<"$batch" || die "could not create the bridge $LAB_BRIDGE"
	for i in "${!HOSTS[@]}"; do
		ip tuntap add dev "${TAPS[$i]}" mode tap multi_queue ||
			die "could not create the tap ${TAPS[$i]}"
		ip link set "${TAPS[$i]}" addrgenmode none mtu "$MTU" \
		    master "$LAB_BRIDGE" up
	done
}

remove_net() {
	local i
	for i in "${!HOSTS[@]}"; do
		if ip link show dev "${TAPS[$i]}" >/dev/null 2>&1; then
			ip link del dev "${TAPS[$i]}" || true
		fi
	done
	if ip link show dev "$LAB_BRIDGE" >/dev/null 2>&1; then
		ip link del dev "$LAB_BRIDGE" || true
	fi
}

# --- keys and client files -------------------------------------------------

ensure_client_key() {
	if [[ ! -f $DIR/id_ed25519 || ! -f $DIR/id_ed25519.pub ]]; then
		rm -f "$DIR/id_ed25519" "$DIR/id_ed25519.pub"
		ssh-keygen -q -t ed25519 -N '' -C "tcptune-qemu-guests" \
		    -f "$DIR/id_ed25519"
	fi
}

# Guest H's share (a read-only virtio 9p export): the host key made here,
# before boot, and the lab key; the image's identity unit installs them at
# every boot, so known_hosts is exact from the first connection.
make_share() {
	local s
	s=$(gdir "$1")/share
	mkdir -p "$s"
	chmod 0700 "$s"
	ssh-keygen -q -t ed25519 -N '' -C "$1" -f "$s/ssh_host_ed25519_key"
	cp "$DIR/id_ed25519.pub" "$s/authorized_keys"
}

write_client_files() {
	local i h key common
	: >"$DIR/known_hosts.tmp"
	for i in "${!HOSTS[@]}"; do
		read -r key <"$(gdir "${HOSTS[$i]}")/share/ssh_host_ed25519_key.pub"
		echo "${ADDRS[$i]} ${key% *}" >>"$DIR/known_hosts.tmp"
	done
	mv "$DIR/known_hosts.tmp" "$DIR/known_hosts"
	chmod 0644 "$DIR/known_hosts"
	{
		echo "# QEMU guest lab ssh client config (written by $PROG): ssh -F $DIR/ssh_config GUEST"
		for i in "${!HOSTS[@]}"; do
			printf 'Host %s %s\n    HostName %s\n' \
			    "${HOSTS[$i]}" "${ADDRS[$i]}" "${ADDRS[$i]}"
		done
		printf '%s\n' 'Host *' '    User root' \
		    "    IdentityFile $DIR/id_ed25519" '    IdentitiesOnly yes' \
		    "    UserKnownHostsFile $DIR/known_hosts" \
		    '    GlobalKnownHostsFile /dev/null' \
		    '    StrictHostKeyChecking yes' \
		    '    KexAlgorithms curve25519-sha256' '    BatchMode yes' \
		    '    ConnectTimeout 30' '    LogLevel ERROR'
	} >"$DIR/ssh_config"
	common="-o UserKnownHostsFile=$DIR/known_hosts -o StrictHostKeyChecking=yes -o KexAlgorithms=curve25519-sha256"
	{
		echo "# QEMU guest lab inventory (written by $PROG)"
		printf '%s\n' all: '  children:' '    guests:' '      hosts:'
		for i in "${!HOSTS[@]}"; do
			printf '        %s:\n          ansible_host: %s\n' \
			    "${HOSTS[$i]}" "${ADDRS[$i]}"
		done
		printf '%s\n' '      vars:' "        ansible_user: $LAB_USER" \
		    '        ansible_become: true' \
		    "        ansible_ssh_private_key_file: $DIR/id_ed25519" \
		    "        ansible_ssh_common_args: \"$common\""
	} >"$DIR/inventory.yml"
	q() { printf '%s=%q\n' "$1" "$2"; }
	{
		echo "# QEMU guest lab environment (written by $PROG): . $DIR/lab.env"
		q LAB_KIND qemu
		q LAB_DIR "$DIR"
		q LAB_N "$LAB_N"
		q LAB_PREFIX "$LAB_PREFIX"
		q LAB_BRIDGE "$LAB_BRIDGE"
		q LAB_GATEWAY "$LAB_GW"
		q LAB_HOSTS "${HOSTS[*]}"
		q LAB_ADDRS "${ADDRS[*]}"
		q LAB_USER "$LAB_USER"
		q LAB_KEY "$DIR/id_ed25519"
		q LAB_KNOWN_HOSTS "$DIR/known_hosts"
		q LAB_SSH_CONFIG "$DIR/ssh_config"
		q LAB_INVENTORY "$DIR/inventory.yml"
		q LAB_SH "$HERE/qemu-guests.sh"
		q LAB_IMAGE "$LAB_IMAGE"
		q LAB_QUEUES "$LAB_QUEUES"
		q LAB_ACCEL "$LAB_ACCEL"
		q LAB_MTU "$MTU"
	} >"$DIR/lab.env"
}

# --- guests ------------------------------------------------------------------

# Guest I's kernel command line: root on the virtio disk, eth0 as on a VM
# with one NIC (net.ifnames=0), its name and address with a default route
# via the bridge address (the controller does not forward: the route only
# gives tcptune's probe a default-route interface) and MTU 1460
# (systemd-network-generator turns ip= into networkd config), the share.
# ahci is not loaded: q35's built-in SATA controller has no disk, and
# under TCG its six ports' link probing takes minutes, during which every
# modprobe waits (a module's init waits for all async probing), the identity
# unit's and tcptune's too; a cloud VM has no AHCI either. Nothing else:
# Debian's amd64 kernel has fq_codel as its built-in default.
kernel_cmdline() {
	local i=$1
	printf '%s ' root=/dev/vda rw console=ttyS0 net.ifnames=0 \
	    modprobe.blacklist=ahci \
	    "systemd.hostname=${HOSTS[$i]}" \
	    "ip=${ADDRS[$i]}::$LAB_GW:255.255.255.0:${HOSTS[$i]}:eth0:off:$MTU" \
	    tcptune.share=9p
}

# Start guest I's QEMU, daemonized: the disk a qcow2 overlay over the cached
# image (never written), the NIC a virtio-net with LAB_QUEUES queue pairs
# (mq=on; vectors: one per queue, one for config, one for control) and as
# many vCPUs, at least 2 (the driver uses min(queues, CPUs) pairs).
start_guest() {
	local i=$1 h g smp cpu
	h=${HOSTS[$i]}
	g=$(gdir "$h")
	smp=$((LAB_QUEUES > 2 ? LAB_QUEUES : 2))
	cpu=max
	[[ $LAB_ACCEL == kvm ]] && cpu=host
	rm -f "$g/disk.qcow2" "$g/console.log"
	qemu-img create -q -f qcow2 -F raw -b "$LAB_IMAGE" "$g/disk.qcow2" ||
		die "guest '$h': could not make its disk overlay"
	kernel_cmdline "$i" >"$g/cmdline"
	"$QEMU" -name "$h" -machine "q35,accel=$LAB_ACCEL" -cpu "$cpu" \
	    -smp "$smp" -m "$MEM" -nodefaults -no-user-config -display none \
	    -kernel "$LAB_IMAGE.vmlinuz" -initrd "$LAB_IMAGE.initrd" \
	    -append "$(cat "$g/cmdline")" \
	    -drive "file=$g/disk.qcow2,if=virtio,format=qcow2" \
	    -netdev "tap,id=n0,ifname=${TAPS[$i]},script=no,downscript=no,queues=$LAB_QUEUES" \
	    -device "virtio-net-pci,netdev=n0,mq=on,vectors=$((2 * LAB_QUEUES + 2)),mac=${MACS[$i]}" \
	    -virtfs "local,path=$g/share,mount_tag=tcptune,security_model=none,readonly=on" \
	    -device virtio-rng-pci \
	    -serial "file:$g/console.log" -monitor none \
	    -pidfile "$g/qemu.pid" -daemonize 9>&- 8>&- ||
		die "guest '$h': QEMU did not start"
}

gssh() {
	ssh -F "$DIR/ssh_config" "$@"
}

wait_guest() {
	local i=$1 h t0
	h=${HOSTS[$i]}
	t0=$SECONDS
	while ((SECONDS - t0 < BOOT_SECS)); do
		qemu_pid "$h" >/dev/null || {
			tail -n 20 "$(gdir "$h")/console.log" >&2
			die "guest '$h': its QEMU exited (console: $(gdir "$h")/console.log)"
		}
		if gssh -o ConnectTimeout=15 "$h" true 2>/dev/null; then
			return 0
		fi
		sleep 1
	done
	tail -n 20 "$(gdir "$h")/console.log" >&2
	die "guest '$h': no sshd after $BOOT_SECS s (console: $(gdir "$h")/console.log)"
}

all_running() {
	local h
	for h in "${HOSTS[@]}"; do
		qemu_pid "$h" >/dev/null || return 1
	done
	ip link show dev "$LAB_BRIDGE" >/dev/null 2>&1
}

cmd_up() {
	local i t0 want=("$LAB_N" "$LAB_PREFIX" "$LAB_NET" "$LAB_QUEUES")
	t0=$(now)
	if ! [[ $LAB_N =~ ^[0-9]+$ ]] || ((LAB_N < 1 || LAB_N > MAX_N)); then
		die "N must be 1..$MAX_N, not '$LAB_N'"
	fi
	if ! [[ $LAB_QUEUES =~ ^[0-9]+$ ]] || ((LAB_QUEUES < 1 || LAB_QUEUES > 4)); then
		die "QUEUES must be 1..4, not '$LAB_QUEUES'"
	fi
	[[ $LAB_PREFIX =~ ^[a-z][a-z0-9]{0,5}$ ]] ||
		die "prefix must be 1-6 lower-case letters and digits, not '$LAB_PREFIX'"
	if ! [[ $LAB_NET =~ ^198\.1[89]\.([0-9]{1,3})$ ]] ||
	    ((BASH_REMATCH[1] > 255)); then
		die "net must be three octets inside 198.18.0.0/15 (e.g. $DEFAULT_NET), not '$LAB_NET'"
	fi
	cmd_check >/dev/null || exit 1
	LAB_IMAGE=$(ensure_image)
	LAB_ACCEL=$(accel)
	if load_state; then
		if [[ "$LAB_N $LAB_PREFIX $LAB_NET $LAB_QUEUES" == "${want[*]}" ]] &&
		    all_running; then
			for i in "${!HOSTS[@]}"; do
				wait_guest "$i"
			done
			write_client_files
			echo "$PROG: $LAB_N guests already up in $DIR"
			return 0
		fi
		cmd_down >/dev/null
	fi
	LAB_N=${want[0]} LAB_PREFIX=${want[1]} LAB_NET=${want[2]} LAB_QUEUES=${want[3]}
	LAB_IMAGE=$(ensure_image)
	LAB_ACCEL=$(accel)
	plan_layout
	mkdir -p "$DIR"
	chmod 0755 "$DIR"
	rm -rf "$DIR/guests"
	mkdir -p "$DIR/guests"
	kill_orphans
	remove_net
	save_state
	ensure_client_key
	for i in "${!HOSTS[@]}"; do
		mkdir -p "$(gdir "${HOSTS[$i]}")"
		make_share "${HOSTS[$i]}"
	done
	write_client_files
	make_net
	for i in "${!HOSTS[@]}"; do
		start_guest "$i"
	done
	for i in "${!HOSTS[@]}"; do
		wait_guest "$i"
	done
	echo "$PROG: $LAB_N guests up in $DIR ($(since "$t0") s, accel $LAB_ACCEL, $LAB_QUEUES queue pairs)"
	cat "$DIR/inventory.yml"
}

cmd_down() {
	local h p
	load_state || return 0
	for h in "${HOSTS[@]}"; do
		stop_guest "$h"
	done
	remove_net
	# Keep only the client key, so a new lab accepts the same key.
	for p in "$DIR"/* "$DIR"/.[!.]*; do
		[[ -e $p || -L $p ]] || continue
		case ${p##*/} in
		id_ed25519 | id_ed25519.pub | .lock) ;;
		*) rm -rf "$p" ;;
		esac
	done
	echo "$PROG: guests in $DIR are down"
}

cmd_status() {
	local i h ok=0 pid
	load_state || { echo "no guests in $DIR"; return 1; }
	printf 'guests in %s: %s, bridge %s (%s), accel %s, %s queue pairs, image %s\n' \
	    "$DIR" "$LAB_N" "$LAB_BRIDGE" "$(ip link show dev "$LAB_BRIDGE" \
		>/dev/null 2>&1 && echo present || echo missing)" \
	    "$LAB_ACCEL" "$LAB_QUEUES" "$LAB_IMAGE"
	printf '%-8s %-15s %-8s %s\n' GUEST ADDRESS PID SSH
	for i in "${!HOSTS[@]}"; do
		h=${HOSTS[$i]}
		pid=$(qemu_pid "$h") || pid=-
		printf '%-8s %-15s %-8s %s\n' "$h" "${ADDRS[$i]}" "$pid" \
		    "$(gssh -o ConnectTimeout=15 "$h" true 2>/dev/null && echo up || echo down)"
		[[ $pid != - ]] || ok=1
	done
	return $ok
}

need_lab() {
	load_state || die "no guests in $DIR (run '$PROG up')"
}

cmd_exec() {
	local h=$1
	shift
	need_lab
	host_index "$h" >/dev/null
	exec ssh -F "$DIR/ssh_config" "$h" -- "$(printf '%q ' "$@")"
}

boot_id() {
	gssh -o ConnectTimeout=15 "$1" cat /proc/sys/kernel/random/boot_id 2>/dev/null
}

# systemctl reboot (QEMU resets the machine and boots the same kernel and
# initrd again); returns once sshd answers from a new boot.
cmd_reboot() {
	local h=$1 i old new t0
	need_lab
	i=$(host_index "$h")
	t0=$(now)
	old=$(boot_id "$h") || die "guest '$h' does not answer over ssh"
	gssh "$h" 'systemctl reboot' >/dev/null 2>&1 || true
	while :; do
		qemu_pid "$h" >/dev/null || {
			tail -n 20 "$(gdir "$h")/console.log" >&2
			die "guest '$h': its QEMU exited during the reboot"
		}
		if new=$(boot_id "$h") && [[ -n $new && $new != "$old" ]]; then
			break
		fi
		awk -v a="$t0" -v b="$(now)" -v m="$BOOT_SECS" \
		    'BEGIN { exit !(b - a > m) }' && {
			tail -n 20 "$(gdir "$h")/console.log" >&2
			die "guest '$h': not back after $BOOT_SECS s"
		}
		sleep 1
	done
	wait_guest "$i"
	echo "$PROG: $h rebooted ($(since "$t0") s)"
}

# --- main --------------------------------------------------------------------

[[ $# -ge 1 ]] || usage
CMD=$1
shift
DIR=${GUESTS_DIR:-$DEFAULT_DIR}
LAB_N=$DEFAULT_N
LAB_PREFIX=$DEFAULT_PREFIX
LAB_NET=$DEFAULT_NET
LAB_QUEUES=${QEMU_GUESTS_QUEUES:-$DEFAULT_QUEUES}
LAB_IMAGE=
LAB_ACCEL=
while [[ $# -gt 0 ]]; do
	case $1 in
	-d) [[ $# -ge 2 ]] || usage; DIR=$2; shift 2 ;;
	-n) [[ $CMD == up && $# -ge 2 ]] || usage; LAB_N=$2; shift 2 ;;
	-q | --queues) [[ $CMD == up && $# -ge 2 ]] || usage; LAB_QUEUES=$2; shift 2 ;;
	-p | --prefix) [[ $CMD == up && $# -ge 2 ]] || usage; LAB_PREFIX=$2; shift 2 ;;
	-a | --net) [[ $CMD == up && $# -ge 2 ]] || usage; LAB_NET=$2; shift 2 ;;
	--) shift; break ;;
	-h | --help) usage ;;
	*) break ;;
	esac
done
DIR=$(readlink -m "$DIR")

[[ $(id -u) -eq 0 ]] || die "must run as root"

# One changer at a time per DIR.
case $CMD in
up | down | reboot)
	[[ $CMD == up ]] && mkdir -p "$DIR"
	if [[ -d $DIR ]]; then
		exec 9>"$DIR/.lock"
		flock -w 300 9 || die "'$DIR' is locked by another $PROG"
	fi
	;;
esac

case $CMD in
up) [[ $# -eq 0 ]] || usage; cmd_up ;;
down) [[ $# -eq 0 ]] || usage; cmd_down ;;
status) [[ $# -eq 0 ]] || usage; cmd_status ;;
exec) [[ $# -ge 2 ]] || usage; cmd_exec "$@" ;;
reboot) [[ $# -eq 1 ]] || usage; cmd_reboot "$1" ;;
image) [[ $# -eq 0 ]] || usage; cmd_check >/dev/null || exit 1; ensure_image ;;
check) [[ $# -eq 0 ]] || usage; cmd_check ;;
help) usage ;;
*) usage ;;
esac
