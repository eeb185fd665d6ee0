#!/bin/bash
# guests.sh - a lab of User-mode Linux guests: real, separate Debian 12
# kernels (Debian's user-mode-linux 6.1) with systemd as PID 1, sshd,
# iperf3 and sudo, for tcptune's real-kernel tests. Same interface as
# tests/lab/lab.sh where that makes sense; see tests/guests/README.md.
#
# Must run as root. Touches nothing of this machine but its own bridge and
# veths, its DIR, the image cache under /var/tmp and the guests' processes:
# never a sysctl, never a route but the bridge's own, never ip_forward.

set -euo pipefail

PROG=guests.sh
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
DEFAULT_DIR=/tmp/tcptune-guests
DEFAULT_N=2
DEFAULT_PREFIX=tg
DEFAULT_NET=198.18.210
MAX_N=8			# 2 cores: more guests than this only thrash
CACHE=${GUESTS_CACHE:-/var/tmp/tcptune-guests}
MEM=${GUESTS_MEM:-512M}
BOOT_SECS=${GUESTS_BOOT_SECS:-240}	# boot (or reboot) to sshd, under load
LAB_USER=tcptune
UML=${GUESTS_UML:-/usr/bin/linux.uml}
UML_MODULES=/usr/lib/uml/modules
PRIVATE_IF=vec1		# the guests' NIC on the --private bridge

die() {
	echo "$PROG: $*" >&2
	exit 1
}

warn() {
	echo "$PROG: $*" >&2
}

usage() {
	cat >&2 <<EOF
usage: $PROG up [-n N] [-d DIR] [-p PREFIX] [-a NET] [--no-default-route] [--private NET2]
       $PROG down [-d DIR]
       $PROG status [-d DIR]
       $PROG exec [-d DIR] GUEST CMD [ARG...]
       $PROG reboot [-d DIR] GUEST
       $PROG wan [-d DIR] A B --delay-ms D --rate-mbit R [--one-way]
       $PROG unwan [-d DIR] GUEST...
       $PROG image            build (or find) the cached root filesystem; prints its path
       $PROG check            can User-mode Linux run here? (exit 1 with the reason)
defaults: N=$DEFAULT_N DIR=\${GUESTS_DIR:-$DEFAULT_DIR} PREFIX=$DEFAULT_PREFIX NET=$DEFAULT_NET
--no-default-route: the guests get no default route (only NET's own)
--private NET2: a second NIC ($PRIVATE_IF, NET2.11...) on a second bridge that this
    machine has no address on, the guests' iperf_address in the inventory
EOF
	exit 2
}

now() {
	date +%s.%N
}

since() {
	awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'
}

# --- can UML run here? ------------------------------------------------------

uml_kver() {
	local d
	for d in "$UML_MODULES"/*; do
		[[ -d $d ]] && echo "${d##*/}" && return 0
	done
	return 1
}

# Everything up needs, each missing piece named with what installs it.
cmd_check() {
	local missing=()
	[[ -x $UML ]] || missing+=("$UML (apt-get install user-mode-linux)")
	uml_kver >/dev/null || missing+=("$UML_MODULES/* (apt-get install user-mode-linux)")
	command -v mmdebstrap >/dev/null || missing+=("mmdebstrap (apt-get install mmdebstrap)")
	command -v mkfs.ext4 >/dev/null || missing+=("mkfs.ext4 (apt-get install e2fsprogs)")
	command -v ssh-keygen >/dev/null || missing+=("ssh-keygen (apt-get install openssh-client)")
	command -v setsid >/dev/null || missing+=("setsid (util-linux)")
	command -v cc >/dev/null || missing+=("cc, for uml-xstate.so (apt-get install gcc)")
	ip link add "${DEFAULT_PREFIX}chk0" type bridge 2>/dev/null &&
		ip link del "${DEFAULT_PREFIX}chk0" ||
		missing+=("bridge devices (ip link add type bridge failed)")
	if ((${#missing[@]})); then
		local IFS=';'
		printf '%s: cannot run User-mode Linux guests here: missing %s\n' \
		    "$PROG" "${missing[*]}" >&2
		return 1
	fi
	ensure_shim
	uml_starts || return 1
	echo "$PROG: User-mode Linux $(uml_kver) can run here (preloaded: $SHIM)"
}

# Start the kernel with no root disk and see it get as far as mounting root
# (2 s): that proves what a guest needs from this machine (ptrace of its
# processes, an exec-able tmpfs for its memory) before any image is built.
# The preloaded wrapper that completes UML's FPU-state writes on a host
# whose XSAVE area is larger than UML 6.1's 832 bytes (AVX-512, AMX: there
# every guest's init dies with "ptrace set fp regs failed, errno = 14";
# tests/guests/uml-xstate.c says how). Built once into the cache, named by
# the hash of its source; harmless where the area fits (it passes through).
# Beside it, uml-rawbuf.so: the raw sockets of the guests' NICs get an 8 MiB
# buffer instead of the host's 212992-byte default, which a guest descheduled
# for a few ms overflowed (2-5% of a 150 Mbit/s flow lost; uml-rawbuf.c).
# SHIM is the LD_PRELOAD value: both, colon-separated.
SHIM=
ensure_shim() {
	local name src key so list=
	for name in uml-xstate uml-rawbuf; do
		src=$HERE/$name.c
		key=$(sha256sum "$src" | cut -c1-16)
		so=$CACHE/$name-$key.so
		list+=${list:+:}$so
		[[ -f $so ]] && continue
		mkdir -p "$CACHE"
		cc -O2 -Wall -Wextra -Werror -shared -fPIC -o "$so.tmp" "$src" -ldl ||
			die "cannot build $src (a C compiler is needed: apt-get install gcc)"
		mv "$so.tmp" "$so"
	done
	SHIM=$list
}

uml_starts() {
	local t pid n ok=1
	t=$(mktemp -d /tmp/guests-check.XXXXXX)
	LD_PRELOAD=$SHIM setsid "$UML" mem=64M root=/dev/ubda umid=check "uml_dir=$t" \
	    con0=null,fd:1 con=null ssl=null </dev/null >"$t/console.log" \
	    2>&1 9>&- 8>&- &
	pid=$!
	disown "$pid"	# its abort at the panic is expected: no job notice
	for ((n = 0; n < 300; n++)); do
		if grep -qs 'Unable to mount root' "$t/console.log"; then
			ok=0
			break
		fi
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	kill -KILL -- "-$pid" 2>/dev/null || true
	for ((n = 0; n < 50; n++)); do
		[[ -z $(pgrp_members "$pid") ]] && break
		sleep 0.1
	done
	if ((ok != 0)); then
		echo "$PROG: cannot run User-mode Linux guests here: $UML did not start a kernel (console: $(tail -n 5 "$t/console.log" | tr '\n' ' '))" >&2
	fi
	rm -rf "$t"
	return $ok
}

# --- the cached root filesystem ------------------------------------------

# The recipe: whatever changes the image changes the key.
image_key() {
	{
		cat "$HERE/packages.list" "$HERE/build-image.sh" \
		    "$HERE"/image/*
		dpkg-query -W -f '${Version}\n' user-mode-linux 2>/dev/null ||
			uml_kver
	} | sha256sum | cut -c1-16
}

image_path() {
	echo "$CACHE/base-$(image_key).img"
}

# Build the image unless the cache has it; one builder at a time.
ensure_image() {
	local img t0
	img=$(image_path)
	[[ -s $img ]] && { echo "$img"; return 0; }
	mkdir -p "$CACHE"
	chmod 0755 "$CACHE"
	exec 8>"$CACHE/.lock"
	flock -w 900 8 || die "the image cache $CACHE is locked by another builder"
	if [[ ! -s $img ]]; then
		t0=$(now)
		warn "building the guest image $img (several minutes)"
		"$HERE/build-image.sh" "$img" >"$CACHE/build.log" 2>&1 || {
			tail -n 30 "$CACHE/build.log" >&2
			die "image build failed (log: $CACHE/build.log)"
		}
		# Old images of other recipes are dead weight (~850 MiB each).
		find "$CACHE" -maxdepth 1 -name 'base-*.img' ! -path "$img" \
		    -delete
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
	HOSTS=() ADDRS=() VETHS=() PADDRS=() PVETHS=()
	LAB_BRIDGE=${LAB_PREFIX}br0
	LAB_PBRIDGE=
	[[ -z $LAB_PRIVATE ]] || LAB_PBRIDGE=${LAB_PREFIX}br1
	LAB_GW=$LAB_NET.1
	for ((i = 1; i <= LAB_N; i++)); do
		printf -v name 'guest%02d' "$i"
		HOSTS+=("$name")
		ADDRS+=("$LAB_NET.$((10 + i))")
		VETHS+=("${LAB_PREFIX}v$i")
		if [[ -n $LAB_PRIVATE ]]; then
			PADDRS+=("$LAB_PRIVATE.$((10 + i))")
			PVETHS+=("${LAB_PREFIX}w$i")
		fi
	done
}

save_state() {
	{
		printf 'LAB_N=%q\nLAB_PREFIX=%q\nLAB_NET=%q\nLAB_IMAGE=%q\n' \
		    "$LAB_N" "$LAB_PREFIX" "$LAB_NET" "$LAB_IMAGE"
		printf 'LAB_NODEFAULT=%q\nLAB_PRIVATE=%q\n' "$LAB_NODEFAULT" \
		    "$LAB_PRIVATE"
	} >"$DIR/guests.conf"
}

load_state() {
	[[ -f $DIR/guests.conf ]] || return 1
	LAB_NODEFAULT='' LAB_PRIVATE=''
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

# Members of process group PGID (pids).
pgrp_members() {
	ps -e -o pid= -o pgid= | awk -v g="$1" '$2 == g { print $1 }'
}

# Is process group PGID a guest of this lab (its kernel's command line names
# our COW file)? Guards against a stale pid file and pid reuse.
ours() {
	local pgid=$1 cow=$2 p
	for p in $(pgrp_members "$pgid"); do
		tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null |
			grep -qF "ubd0=$cow," && return 0
	done
	return 1
}

uml_pgid() {
	local g pgid
	g=$(gdir "$1")
	[[ -f $g/uml.pid ]] || return 1
	read -r pgid <"$g/uml.pid" || return 1
	[[ $pgid =~ ^[0-9]+$ ]] || return 1
	ours "$pgid" "$g/cow.img" || return 1
	echo "$pgid"
}

# Stop the whole process group of guest H: its kernel, the previous boots'
# stopped processes and the guest's own (each is a host process in UML).
stop_guest() {
	local h=$1 pgid n
	pgid=$(uml_pgid "$h") || { rm -f "$(gdir "$h")/uml.pid"; return 0; }
	kill -TERM -- "-$pgid" 2>/dev/null || true
	kill -CONT -- "-$pgid" 2>/dev/null || true
	for ((n = 0; n < 50; n++)); do
		[[ -z $(pgrp_members "$pgid") ]] && break
		sleep 0.1
	done
	kill -KILL -- "-$pgid" 2>/dev/null || true
	for ((n = 0; n < 50; n++)); do
		[[ -z $(pgrp_members "$pgid") ]] && break
		sleep 0.1
	done
	[[ -z $(pgrp_members "$pgid") ]] || warn "guest '$h': process group $pgid outlived SIGKILL"
	rm -f "$(gdir "$h")/uml.pid"
}

# Process groups of guest kernels booted from a COW file under DIR/guests
# (a lab whose guests.conf was removed by hand): killed by process group.
# Only processes running the UML binary count (never this script, nor the
# awk below, whose own command lines hold the same string), and never our
# own process group.
kill_orphans() {
	local pgid self
	self=$(ps -o pgid= -p $$ | tr -d ' ')
	for pgid in $(ps -e -o pgid= -o args= | awk -v uml="$UML" \
	    -v m="ubd0=$DIR/guests/" '$2 == uml && index($0, m) { print $1 }' |
	    sort -u); do
		[[ $pgid != "$self" ]] || continue
		warn "stopping a leftover guest (process group $pgid)"
		kill -KILL -- "-$pgid" 2>/dev/null || true
	done
}

# --- network -----------------------------------------------------------------

# The bridge (controller at NET.1/24) and one veth pair per guest: the
# guest's kernel sends and receives raw frames on VETHu (the vector
# driver's raw transport survives a guest reboot; tap does not), VETH is
# on the bridge.
make_net() {
	local batch
	batch=$(bridge_batch "$LAB_BRIDGE" "$LAB_GW/24" "${VETHS[@]}")
	# The private network: a bridge with no address here, so that only
	# the guests reach each other over it (the second NIC of a cloud VM:
	# an OVH vRack, a GCP VPC of its own).
	[[ -z $LAB_PBRIDGE ]] ||
		batch+=$'\n'$(bridge_batch "$LAB_PBRIDGE" "" "${PVETHS[@]}")
	ip -batch - <<<"$batch" || die "could not create the guests' network"
	# Segment here: the guest's raw socket reads each frame into an
	# MTU-sized buffer, and a GSO/TSO super-frame of this machine's own TCP
	# (ssh to a guest) is cut there and lost whole, every time it is sent.
	# A 400 KB upload lost 385 KB of 1.2 MB so; the controller's bbr then
	# paced at 680 bit/s and guests-timer hung for 8 minutes in it.
	local v
	for v in "${VETHS[@]}" "${PVETHS[@]}"; do
		if ! ethtool -K "$v" tso off gso off gro off >/dev/null 2>&1 ||
		    ! ethtool -K "${v}u" tso off gso off gro off >/dev/null 2>&1
		then
			die "could not turn off segmentation offloads on $v"
		fi
	done
}

# The `ip -batch` lines of bridge $1 (address $2 here, "" for none) with
# a veth pair per name that follows: NAME on the bridge, NAMEu for a guest.
bridge_batch() {
	local br=$1 addr=$2 v
	shift 2
	echo "link add $br type bridge"
	echo "link set $br addrgenmode none"
	[[ -z $addr ]] || echo "addr add $addr dev $br"
	echo "link set $br up"
	for v in "$@"; do
		echo "link add $v type veth peer name ${v}u"
		echo "link set $v addrgenmode none"
		echo "link set ${v}u addrgenmode none"
		echo "link set $v master $br up"
		echo "link set ${v}u up"
	done
}

remove_net() {
	local d
	for d in "${VETHS[@]}" "${PVETHS[@]}" "$LAB_BRIDGE" $LAB_PBRIDGE; do
		if ip link show dev "$d" >/dev/null 2>&1; then
			ip link del dev "$d" || true
		fi
	done
}

# --- keys and client files -------------------------------------------------

ensure_client_key() {
	if [[ ! -f $DIR/id_ed25519 || ! -f $DIR/id_ed25519.pub ]]; then
		rm -f "$DIR/id_ed25519" "$DIR/id_ed25519.pub"
		ssh-keygen -q -t ed25519 -N '' -C "tcptune-guests" \
		    -f "$DIR/id_ed25519"
	fi
}

# Guest H's share (its hostfs root): the host key made here, before boot,
# and the lab key. Only the guest reads it (mounted read-only at boot).
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
		h=${HOSTS[$i]}
		read -r key <"$(gdir "$h")/share/ssh_host_ed25519_key.pub"
		key=${key% *}
		echo "${ADDRS[$i]} $key" >>"$DIR/known_hosts.tmp"
	done
	mv "$DIR/known_hosts.tmp" "$DIR/known_hosts"
	chmod 0644 "$DIR/known_hosts"

	{
		echo "# guest lab ssh client config (written by $PROG): ssh -F $DIR/ssh_config GUEST"
		for i in "${!HOSTS[@]}"; do
			printf 'Host %s %s\n    HostName %s\n' \
			    "${HOSTS[$i]}" "${ADDRS[$i]}" "${ADDRS[$i]}"
		done
		cat <<EOF
Host *
    User root
    IdentityFile $DIR/id_ed25519
    IdentitiesOnly yes
    UserKnownHostsFile $DIR/known_hosts
    GlobalKnownHostsFile /dev/null
    StrictHostKeyChecking yes
    KexAlgorithms curve25519-sha256
    BatchMode yes
    ConnectTimeout 5
    LogLevel ERROR
EOF
	} >"$DIR/ssh_config"

	common="-o UserKnownHostsFile=$DIR/known_hosts -o StrictHostKeyChecking=yes -o KexAlgorithms=curve25519-sha256"
	{
		echo "# guest lab inventory (written by $PROG)"
		echo "all:"
		echo "  children:"
		echo "    guests:"
		echo "      hosts:"
		for i in "${!HOSTS[@]}"; do
			echo "        ${HOSTS[$i]}:"
			echo "          ansible_host: ${ADDRS[$i]}"
			[[ -z $LAB_PRIVATE ]] ||
				echo "          iperf_address: ${PADDRS[$i]}"
		done
		echo "      vars:"
		echo "        ansible_user: $LAB_USER"
		echo "        ansible_become: true"
		echo "        ansible_ssh_private_key_file: $DIR/id_ed25519"
		echo "        ansible_ssh_common_args: \"$common\""
	} >"$DIR/inventory.yml"
	{
		echo "# guest lab inventory (written by $PROG)"
		echo "[guests]"
		for i in "${!HOSTS[@]}"; do
			echo "${HOSTS[$i]} ansible_host=${ADDRS[$i]}${LAB_PRIVATE:+ iperf_address=${PADDRS[$i]}}"
		done
		echo
		echo "[guests:vars]"
		echo "ansible_user=$LAB_USER"
		echo "ansible_become=true"
		echo "ansible_ssh_private_key_file=$DIR/id_ed25519"
		echo "ansible_ssh_common_args='$common'"
	} >"$DIR/inventory.ini"

	q() { printf '%s=%q\n' "$1" "$2"; }
	{
		echo "# guest lab environment (written by $PROG): . $DIR/lab.env"
		q LAB_KIND guests
		q LAB_DIR "$DIR"
		q LAB_N "$LAB_N"
		q LAB_PREFIX "$LAB_PREFIX"
		q LAB_BRIDGE "$LAB_BRIDGE"
		q LAB_GATEWAY "$LAB_GW"
		q LAB_HOSTS "${HOSTS[*]}"
		q LAB_ADDRS "${ADDRS[*]}"
		q LAB_NODEFAULT "$LAB_NODEFAULT"
		q LAB_PRIVATE "$LAB_PRIVATE"
		q LAB_PRIVATE_BRIDGE "$LAB_PBRIDGE"
		q LAB_PRIVATE_IF "${LAB_PRIVATE:+$PRIVATE_IF}"
		q LAB_PRIVATE_ADDRS "${PADDRS[*]}"
		q LAB_USER "$LAB_USER"
		q LAB_KEY "$DIR/id_ed25519"
		q LAB_KNOWN_HOSTS "$DIR/known_hosts"
		q LAB_SSH_CONFIG "$DIR/ssh_config"
		q LAB_INVENTORY "$DIR/inventory.yml"
		q LAB_INVENTORY_INI "$DIR/inventory.ini"
		q LAB_SH "$HERE/guests.sh"
		q LAB_IMAGE "$LAB_IMAGE"
		q LAB_KERNEL "$(uml_kver)"
	} >"$DIR/lab.env"
}

# --- guests ------------------------------------------------------------------

# The kernel command line of guest I: the stock look of a Debian VM
# (default_qdisc fq_codel is built into Debian's amd64 kernel, not into its
# UML build), its name and address (systemd-network-generator turns ip=
# into networkd config), a default route via the bridge address (the
# controller does not forward: it only gives tcptune's probe a
# default-route interface) unless --no-default-route, and with --private
# a second NIC with an address on the private bridge and no route but its
# own network's: vec1, the kernel's name (the image renames only vec0, to
# eth0: a second .link would change the image for every lab).
uml_cmdline() {
	local i=$1 g gw=$LAB_GW
	g=$(gdir "${HOSTS[$i]}")
	[[ -z $LAB_NODEFAULT ]] || gw=
	printf '%s\n' \
	    "mem=$MEM" "umid=${HOSTS[$i]}" "uml_dir=$g" \
	    "ubd0=$g/cow.img,$LAB_IMAGE" \
	    "root=/dev/ubda" rw \
	    "vec0:transport=raw,ifname=${VETHS[$i]}u" \
	    "hostfs=$g/share" \
	    "con0=null,fd:1" "con=null" "ssl=null" \
	    "systemd.hostname=${HOSTS[$i]}" \
	    "ip=${ADDRS[$i]}::$gw:255.255.255.0:${HOSTS[$i]}:eth0:off" \
	    "sysctl.net.core.default_qdisc=fq_codel"
	if [[ -n $LAB_PRIVATE ]]; then
		printf '%s\n' "vec1:transport=raw,ifname=${PVETHS[$i]}u" \
		    "ip=${PADDRS[$i]}:::255.255.255.0::$PRIVATE_IF:off"
	fi
}

# Start guest I's kernel in a session of its own (its pid is the process
# group of everything the guest runs, and of the stopped processes a UML
# reboot leaves behind).
start_guest() {
	local i=$1 g pid args
	g=$(gdir "${HOSTS[$i]}")
	mapfile -t args < <(uml_cmdline "$i")
	printf '%s\n' "${args[@]}" >"$g/cmdline"
	# The COW layer: UML makes it on first boot; it records the base's
	# path, size and mtime, so the cached base must never change.
	rm -f "$g/cow.img"
	LD_PRELOAD=$SHIM setsid "$UML" "${args[@]}" </dev/null \
	    >"$g/console.log" 2>&1 9>&- 8>&- &
	pid=$!
	echo "$pid" >"$g/uml.pid"
}

# ssh to guest H as root with the lab's client files.
gssh() {
	ssh -F "$DIR/ssh_config" "$@"
}

# Wait until guest I's sshd accepts the lab key with strict host key
# checking; fail naming the guest, with the tail of its console.
wait_guest() {
	local i=$1 h t0 pgid
	h=${HOSTS[$i]}
	t0=$SECONDS
	while ((SECONDS - t0 < BOOT_SECS)); do
		pgid=$(uml_pgid "$h") || {
			tail -n 20 "$(gdir "$h")/console.log" >&2
			die "guest '$h': its kernel exited (console: $(gdir "$h")/console.log)"
		}
		if gssh -o ConnectTimeout=3 "$h" true 2>/dev/null; then
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
		uml_pgid "$h" >/dev/null || return 1
	done
	ip link show dev "$LAB_BRIDGE" >/dev/null 2>&1
}

cmd_up() {
	local i t0 want_n=$LAB_N want_prefix=$LAB_PREFIX want_net=$LAB_NET
	local want_nodefault=$LAB_NODEFAULT want_private=$LAB_PRIVATE
	t0=$(now)
	if ! [[ $LAB_N =~ ^[0-9]+$ ]] || ((LAB_N < 1 || LAB_N > MAX_N)); then
		die "N must be 1..$MAX_N, not '$LAB_N'"
	fi
	[[ $LAB_PREFIX =~ ^[a-z][a-z0-9]{0,5}$ ]] ||
		die "prefix must be 1-6 lower-case letters and digits, not '$LAB_PREFIX'"
	if ! [[ $LAB_NET =~ ^198\.1[89]\.([0-9]{1,3})$ ]] ||
	    ((BASH_REMATCH[1] > 255)); then
		die "net must be three octets inside 198.18.0.0/15 (e.g. $DEFAULT_NET), not '$LAB_NET'"
	fi
	if [[ -n $LAB_PRIVATE ]] && { ! [[ $LAB_PRIVATE =~ ^198\.1[89]\.([0-9]{1,3})$ ]] ||
	    ((BASH_REMATCH[1] > 255)) || [[ $LAB_PRIVATE == "$LAB_NET" ]]; }; then
		die "--private must be three octets inside 198.18.0.0/15 other than NET, not '$LAB_PRIVATE'"
	fi
	cmd_check >/dev/null || exit 1
	LAB_IMAGE=$(ensure_image)

	if load_state; then
		if [[ $LAB_N == "$want_n" && $LAB_PREFIX == "$want_prefix" &&
		    $LAB_NET == "$want_net" && $LAB_NODEFAULT == "$want_nodefault" &&
		    $LAB_PRIVATE == "$want_private" ]] && all_running; then
			for i in "${!HOSTS[@]}"; do
				wait_guest "$i"
			done
			write_client_files
			echo "$PROG: $LAB_N guests already up in $DIR"
			return 0
		fi
		cmd_down >/dev/null
	fi
	LAB_N=$want_n LAB_PREFIX=$want_prefix LAB_NET=$want_net
	LAB_NODEFAULT=$want_nodefault LAB_PRIVATE=$want_private
	LAB_IMAGE=$(ensure_image)
	plan_layout

	mkdir -p "$DIR"
	chmod 0755 "$DIR"
	rm -rf "$DIR/guests"
	mkdir -p "$DIR/guests"
	# Leftovers of a lab in this DIR whose state was removed by hand.
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
	echo "$PROG: $LAB_N guests up in $DIR ($(since "$t0") s)"
	cat "$DIR/inventory.yml"
}

cmd_down() {
	local h p
	load_state || return 0
	for h in "${HOSTS[@]}"; do
		stop_guest "$h" &
	done
	wait
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
	local i h ok=0 pgid
	load_state || { echo "no guests in $DIR"; return 1; }
	printf 'guests in %s: %s, bridge %s (%s), image %s\n' "$DIR" "$LAB_N" \
	    "$LAB_BRIDGE" "$(ip link show dev "$LAB_BRIDGE" >/dev/null 2>&1 &&
		echo present || echo missing)" "$LAB_IMAGE"
	printf '%-8s %-15s %-8s %-8s %s\n' GUEST ADDRESS PGID PROCS SSH
	for i in "${!HOSTS[@]}"; do
		h=${HOSTS[$i]}
		pgid=$(uml_pgid "$h") || pgid=-
		printf '%-8s %-15s %-8s %-8s %s\n' "$h" "${ADDRS[$i]}" "$pgid" \
		    "$(pgrp_members "$pgid" | wc -l)" \
		    "$(gssh -o ConnectTimeout=3 "$h" true 2>/dev/null && echo up || echo down)"
		[[ $pgid != - ]] || ok=1
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
	# GUESTS_SSH_TIMEOUT: a longer connect timeout than the config's 5 s,
	# for a test on a loaded machine.
	exec ssh -F "$DIR/ssh_config" \
	    ${GUESTS_SSH_TIMEOUT:+-o "ConnectTimeout=$GUESTS_SSH_TIMEOUT"} \
	    "$h" -- "$(printf '%q ' "$@")"
}

boot_id() {
	gssh -o ConnectTimeout=3 "$1" cat /proc/sys/kernel/random/boot_id 2>/dev/null
}

# Reboot guest H with systemctl and return once its sshd answers from a
# new boot (another boot_id).
cmd_reboot() {
	local h=$1 i old new t0
	need_lab
	i=$(host_index "$h")
	t0=$(now)
	old=$(boot_id "$h") || die "guest '$h' does not answer over ssh"
	gssh "$h" 'systemctl reboot' >/dev/null 2>&1 || true
	while :; do
		uml_pgid "$h" >/dev/null || {
			tail -n 20 "$(gdir "$h")/console.log" >&2
			die "guest '$h': its kernel exited during the reboot"
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
	apply_wan "$h"
	echo "$PROG: $h rebooted ($(since "$t0") s)"
}

# --- WAN between two guests --------------------------------------------------

# Each direction of the path sits inside the two guests, on ifb devices hung
# off their eth0 clsact hooks, so that no root qdisc is taken (tcptune
# replaces the roots with fq, and the emulation stays). On guest X with peer
# P: packets from P enter through ifb "wand" (tbf at the rate, a queue of one
# bandwidth-delay product of the round trip: the bottleneck), packets to P
# leave through ifb "wana" (netem delay). mirred hands the ifb a clone, so
# the sender's TCP small queues do not count the delayed packets (unlike a
# netem root qdisc on the sender), but the sender's fq no longer sees its
# socket: BBR paces by itself there.
#
# wan_script PEER DELAY_MS RATE_MBIT RTT_MS: RTT_MS sizes the tbf queue.
wan_script() {
	local peer=$1 delay=$2 rate=$3 rtt=$4 bdp burst
	bdp=$((rate * 1000000 * rtt / 8000))
	((bdp >= 30000)) || bdp=30000
	burst=$((rate * 1000000 / 8 / 100))	# one jiffy (HZ=100) worth
	((burst >= 15140)) || burst=15140
	unwan_script
	cat <<EOF
set -e
modprobe ifb numifbs=0
modprobe -a sch_ingress sch_tbf sch_netem cls_u32 act_mirred
for d in wand wana; do
	ip link add \$d type ifb
	ip link set \$d up
done
tc qdisc add dev eth0 clsact
tc filter add dev eth0 ingress protocol ip u32 match ip src $peer/32 \\
    action mirred egress redirect dev wand
tc filter add dev eth0 egress protocol ip u32 match ip dst $peer/32 \\
    action mirred egress redirect dev wana
tc qdisc add dev wand root tbf rate ${rate}mbit burst $burst limit $bdp
tc qdisc add dev wana root netem delay ${delay}ms limit 100000
EOF
}

unwan_script() {
	cat <<'EOF'
tc qdisc del dev eth0 clsact 2>/dev/null || true
for d in wand wana; do ip link del $d 2>/dev/null || true; done
EOF
}

offloads_off='ethtool -K eth0 tso off gso off gro off'

# wan A B --delay-ms D --rate-mbit R [--one-way]: both directions R and D
# each way; with --one-way only data from A to B is limited, and the whole
# round trip (2 x D) sits on B's ACK path, so that A's data is never delayed
# at A (cleaner single-flow figures; the facts page's setup).
# Guest H's end of the WAN, as saved by wan: run it (again after a reboot:
# it is runtime state of the guest's kernel).
apply_wan() {
	local f
	f=$(gdir "$1")/wan.sh
	[[ -f $f ]] || return 0
	gssh "$1" sh <"$f" || die "guest '$1': could not set up its end of the WAN ($f)"
}

cmd_wan() {
	local a=$1 b=$2 delay="" rate="" oneway=0 ia ib
	shift 2
	while [[ $# -gt 0 ]]; do
		case $1 in
		--delay-ms) [[ $# -ge 2 ]] || usage; delay=$2; shift 2 ;;
		--rate-mbit) [[ $# -ge 2 ]] || usage; rate=$2; shift 2 ;;
		--one-way) oneway=1; shift ;;
		*) usage ;;
		esac
	done
	if ! [[ $delay =~ ^[0-9]+$ ]] || ((delay > 5000)); then
		die "--delay-ms must be 0..5000 (one way, ms), not '$delay'"
	fi
	if ! [[ $rate =~ ^[0-9]+$ ]] || ((rate < 1 || rate > 10000)); then
		die "--rate-mbit must be 1..10000, not '$rate'"
	fi
	need_lab
	ia=$(host_index "$a")
	ib=$(host_index "$b")
	[[ $a != "$b" ]] || die "the two guests must differ"
	if ((oneway)); then
		{ echo "$offloads_off"; unwan_script; echo true; } >"$(gdir "$a")/wan.sh"
		{ echo "$offloads_off"; wan_script "${ADDRS[$ia]}" \
		    "$((2 * delay))" "$rate" "$((2 * delay))"; } >"$(gdir "$b")/wan.sh"
		apply_wan "$a"
		apply_wan "$b"
		echo "$PROG: $a -> $b: ${rate} Mbit/s, rtt $((2 * delay)) ms (all on $b's ACK path); $b -> $a delayed, not rate-limited; offloads off on both"
		return 0
	fi
	{ echo "$offloads_off"; wan_script "${ADDRS[$ib]}" "$delay" "$rate" \
	    "$((2 * delay))"; } >"$(gdir "$a")/wan.sh"
	{ echo "$offloads_off"; wan_script "${ADDRS[$ia]}" "$delay" "$rate" \
	    "$((2 * delay))"; } >"$(gdir "$b")/wan.sh"
	apply_wan "$a"
	apply_wan "$b"
	echo "$PROG: $a <-> $b: ${rate} Mbit/s and ${delay} ms each way (rtt $((2 * delay)) ms), offloads off on both"
}

cmd_unwan() {
	local h
	need_lab
	for h in "$@"; do
		host_index "$h" >/dev/null
		rm -f "$(gdir "$h")/wan.sh"
		{ unwan_script; echo true; } | gssh "$h" sh
	done
}

# --- main --------------------------------------------------------------------

[[ $# -ge 1 ]] || usage
CMD=$1
shift
DIR=${GUESTS_DIR:-$DEFAULT_DIR}
LAB_N=$DEFAULT_N
LAB_PREFIX=$DEFAULT_PREFIX
LAB_NET=$DEFAULT_NET
LAB_NODEFAULT=
LAB_PRIVATE=
LAB_IMAGE=
while [[ $# -gt 0 ]]; do
	case $1 in
	-d) [[ $# -ge 2 ]] || usage; DIR=$2; shift 2 ;;
	-n) [[ $CMD == up && $# -ge 2 ]] || usage; LAB_N=$2; shift 2 ;;
	-p | --prefix) [[ $CMD == up && $# -ge 2 ]] || usage; LAB_PREFIX=$2; shift 2 ;;
	-a | --net) [[ $CMD == up && $# -ge 2 ]] || usage; LAB_NET=$2; shift 2 ;;
	--no-default-route) [[ $CMD == up ]] || usage; LAB_NODEFAULT=1; shift ;;
	--private) [[ $CMD == up && $# -ge 2 ]] || usage; LAB_PRIVATE=$2; shift 2 ;;
	--) shift; break ;;
	-h | --help) usage ;;
	*) break ;;
	esac
done
DIR=$(readlink -m "$DIR")

[[ $(id -u) -eq 0 ]] || die "must run as root"

# One changer at a time per DIR.
case $CMD in
up | down | reboot | wan | unwan)
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
wan) [[ $# -ge 2 ]] || usage; cmd_wan "$@" ;;
unwan) [[ $# -ge 1 ]] || usage; cmd_unwan "$@" ;;
image) [[ $# -eq 0 ]] || usage; cmd_check >/dev/null || exit 1; ensure_image ;;
check) [[ $# -eq 0 ]] || usage; cmd_check ;;
help) usage ;;
*) usage ;;
esac
