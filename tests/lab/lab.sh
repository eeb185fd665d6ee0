#!/bin/bash
# lab.sh - a lab of real "hosts" on one machine for tcptune's end-to-end tests.
#
# Each lab host is a network namespace with its own address on a bridge, its
# own sshd, its own stock TCP sysctls and a private mount namespace in which
# /etc/sysctl.d, /etc/sysctl.conf, /run/sysctl.d, /var/lib/tcptune,
# /etc/modules-load.d, /etc/modprobe.d, /etc/modules, /etc/systemd/system,
# /etc/sudoers.d, /etc/hosts and /root are per-host directories (and files). See tests/lab/README.md ("Lab hosts") for the interface.
#
# Must run as root. Never touches the root namespace's sysctls.

set -Eeuo pipefail

PROG=lab.sh
# A command that fails under set -e says nothing of itself: name it, so
# that a failed host's job is never a bare "1 host(s) failed".
trap 'echo "$PROG: line $LINENO: \"$BASH_COMMAND\" exited $?" >&2' ERR
SSHD=/usr/sbin/sshd
DEFAULT_DIR=/tmp/tcptune-lab
DEFAULT_N=8
DEFAULT_PREFIX=ttl
DEFAULT_NET=198.18
MAX_N=200
JOBS=16			# parallel per-host jobs during up
WAIT_SECS=10		# how long one sshd may take to answer

# Stock small-VPS TCP values set in every lab namespace (a new namespace
# copies the root namespace's values, which on this machine look tuned).
STOCK_SYSCTLS=(
	"net.ipv4.tcp_rmem=4096 131072 212992"
	"net.ipv4.tcp_wmem=4096 16384 212992"
	"net.ipv4.tcp_congestion_control=reno"
	"net.ipv4.tcp_no_metrics_save=1"
)

# Users for become tests (created on the machine, shared by all hosts).
SUDO_USER_NOPW=ttl-sudo
SUDO_USER_PW=ttl-pw

die() {
	echo "$PROG: $*" >&2
	exit 1
}

warn() {
	echo "$PROG: $*" >&2
}

usage() {
	cat >&2 <<EOF
usage: $PROG up [-n N] [-d DIR] [-p PREFIX] [-a NET]
       $PROG down [-d DIR]
       $PROG status [-d DIR]
       $PROG stop-host [-d DIR] HOST
       $PROG start-host [-d DIR] HOST
       $PROG rekey-host [-d DIR] HOST
       $PROG silent-host [-d DIR] HOST PORT
       $PROG exec [-d DIR] HOST CMD [ARG...]
defaults: N=$DEFAULT_N DIR=\${LAB_DIR:-$DEFAULT_DIR} PREFIX=$DEFAULT_PREFIX NET=$DEFAULT_NET
EOF
	exit 2
}

# --- state ----------------------------------------------------------------

# Alive and not a zombie (PID 1 here may not reap orphans quickly).
alive() {
	local pid=$1 stat
	[[ $pid =~ ^[0-9]+$ ]] || return 1
	{ read -r stat <"/proc/$pid/stat"; } 2>/dev/null || return 1
	stat=${stat##*) }
	[[ ${stat:0:1} != Z ]]
}

# Kill one pid (or process group with -g) and wait up to 5 s for it.
kill_wait() {
	local target=$1 pid=${1#-} i
	alive "$pid" || return 0
	kill -TERM -- "$target" 2>/dev/null || true
	for ((i = 0; i < 50; i++)); do
		alive "$pid" || return 0
		sleep 0.1
	done
	kill -KILL -- "$target" 2>/dev/null || true
	for ((i = 0; i < 20; i++)); do
		alive "$pid" || return 0
		sleep 0.1
	done
	warn "process $pid did not exit"
}

# Load DIR/lab.conf; returns 1 if there is no lab in DIR.
load_state() {
	[[ -f $DIR/lab.conf ]] || return 1
	# shellcheck disable=SC1091
	. "$DIR/lab.conf"
	HOSTS=()
	ADDRS=()
	NSS=()
	VETHS=()
	local name addr ns veth
	while read -r name addr ns veth; do
		[[ -n $name ]] || continue
		HOSTS+=("$name")
		ADDRS+=("$addr")
		NSS+=("$ns")
		VETHS+=("$veth")
	done < <(cat "$DIR/hosts.list" 2>/dev/null || true)
	return 0
}

# Compute the layout for N hosts with PREFIX and NET into the HOSTS/ADDRS/...
# arrays. NET of two octets is a /16 (gateway NET.0.1, host i at NET.1.i);
# three octets is a /24 (gateway NET.254, host i at NET.i).
plan_layout() {
	local i width=2 name
	((LAB_N >= 100)) && width=3
	case $LAB_NET in
	*.*.*)
		LAB_GW=$LAB_NET.254
		LAB_PLEN=24
		((LAB_N <= 253)) || die "at most 253 hosts in a /24 lab"
		;;
	*)
		LAB_GW=$LAB_NET.0.1
		LAB_PLEN=16
		;;
	esac
	LAB_BRIDGE=${LAB_PREFIX}br0
	HOSTS=()
	ADDRS=()
	NSS=()
	VETHS=()
	for ((i = 1; i <= LAB_N; i++)); do
		printf -v name "lab%0${width}d" "$i"
		HOSTS+=("$name")
		if ((LAB_PLEN == 24)); then
			ADDRS+=("$LAB_NET.$i")
		else
			ADDRS+=("$LAB_NET.1.$i")
		fi
		NSS+=("$LAB_PREFIX-$name")
		VETHS+=("${LAB_PREFIX}v$i")
	done
}

# Index of HOST in HOSTS, or die.
host_index() {
	local i
	for i in "${!HOSTS[@]}"; do
		if [[ ${HOSTS[$i]} == "$1" ]]; then
			echo "$i"
			return 0
		fi
	done
	die "no host '$1' in the lab in $DIR"
}

hdir() {
	echo "$DIR/hosts/$1"
}

anchor_pid() {
	local p
	{ read -r p <"$DIR/hosts/$1/ns.pid"; } 2>/dev/null || return 1
	alive "$p" || return 1
	echo "$p"
}

# The pid of HOST's sshd listener if it is running (and really is the one
# we started: an sshd in the host's network namespace).
sshd_pid() {
	local h=$1 p a comm
	{ read -r p <"$DIR/hosts/$h/sshd.pid"; } 2>/dev/null || return 1
	alive "$p" || return 1
	{ read -r comm <"/proc/$p/comm"; } 2>/dev/null || return 1
	[[ $comm == sshd ]] || return 1
	a=$(anchor_pid "$h") || return 1
	[[ $(readlink "/proc/$p/ns/net") == "$(readlink "/proc/$a/ns/net")" ]] ||
		return 1
	echo "$p"
}

# --- pieces of up ---------------------------------------------------------

ensure_users() {
	local u
	for u in "$SUDO_USER_NOPW" "$SUDO_USER_PW"; do
		if ! id "$u" >/dev/null 2>&1; then
			useradd --system --create-home --home-dir "/home/$u" \
			    --shell /bin/bash --comment "tcptune lab" "$u"
		fi
		# sshd with UsePAM no refuses accounts whose password starts
		# with "!" (locked), even for keys: give a random one instead.
		if [[ $(getent shadow "$u" | cut -d: -f2) == !* ]]; then
			echo "$u:$(head -c 33 /dev/urandom | base64)" | chpasswd
		fi
	done
}

# Mount points that must exist on the machine for the per-host bind mounts.
ensure_mountpoints() {
	mkdir -p /var/lib/tcptune /run/sysctl.d /etc/sysctl.d \
	    /etc/modules-load.d /etc/modprobe.d /etc/sudoers.d \
	    /etc/systemd/system
	# sshd's privilege separation directory (normally made by its unit).
	install -d -m 0755 /run/sshd
}

ensure_client_key() {
	if [[ ! -f $DIR/id_ed25519 || ! -f $DIR/id_ed25519.pub ]]; then
		rm -f "$DIR/id_ed25519" "$DIR/id_ed25519.pub"
		ssh-keygen -q -t ed25519 -N '' -C tcptune-lab \
		    -f "$DIR/id_ed25519"
	fi
	# sshd reads authorized_keys as the user logging in.
	install -m 0644 "$DIR/id_ed25519.pub" "$DIR/authorized_keys"
}

# The per-host filesystem template, copied once per host.
make_template() {
	local t=$DIR/template
	rm -rf "$t"
	mkdir -p "$t/etc" "$t/run/sysctl.d" "$t/var/lib/tcptune"
	cp -a /etc/sysctl.d "$t/etc/sysctl.d"
	if [[ -e /etc/sysctl.conf ]]; then
		cp -L /etc/sysctl.conf "$t/etc/sysctl.conf"
	else
		: >"$t/etc/sysctl.conf"
	fi
	cp -a /etc/modules-load.d "$t/etc/modules-load.d"
	cp -a /etc/modprobe.d "$t/etc/modprobe.d"
	# modules-load.d/modules.conf links to /etc/modules (Debian): a
	# host's own copy, so that nothing written through it reaches the
	# machine's.
	if [[ -e /etc/modules ]]; then
		cp -L /etc/modules "$t/etc/modules"
	fi
	# Units a play installs (route persistence) stay in the host.
	mkdir -p "$t/etc/systemd-system"
	cp -a /etc/systemd/system/. "$t/etc/systemd-system/" 2>/dev/null || true
	cp -a /etc/sudoers.d "$t/etc/sudoers.d"
	printf '%s ALL=(ALL) NOPASSWD: ALL\n%s ALL=(ALL) ALL\n' \
	    "$SUDO_USER_NOPW" "$SUDO_USER_PW" >"$t/etc/sudoers.d/tcptune-lab"
	chmod 0440 "$t/etc/sudoers.d/tcptune-lab"
	visudo -cqf "$t/etc/sudoers.d/tcptune-lab" ||
		die "bad sudoers file '$t/etc/sudoers.d/tcptune-lab'"
	cp -L /etc/hosts "$t/etc/hosts"
	mkdir -m 0700 "$t/root"
	cp -a /etc/skel/. "$t/root/"
	chown -R root:root "$t/root"
}

write_sshd_config() {
	local h=$1 addr=$2 d
	d=$(hdir "$h")
	cat >"$d/sshd_config" <<EOF
# sshd for lab host $h (written by $PROG)
ListenAddress $addr:22
HostKey $d/ssh_host_ed25519_key
PidFile $d/sshd.pid
AuthorizedKeysFile $DIR/authorized_keys
PermitRootLogin prohibit-password
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
MaxStartups 500
MaxSessions 100
LogLevel ERROR
UseDNS no
PrintMotd no
PrintLastLog no
X11Forwarding no
AcceptEnv LANG LC_*
Subsystem sftp /usr/lib/openssh/sftp-server
EOF
}

host_key() {
	local d
	d=$(hdir "$1")
	rm -f "$d/ssh_host_ed25519_key" "$d/ssh_host_ed25519_key.pub"
	ssh-keygen -q -t ed25519 -N '' -C "$1" -f "$d/ssh_host_ed25519_key"
}

# Start the process that holds HOST's private mount and UTS namespaces: an
# "anchor" that sleeps forever inside them. sshd and `lab.sh exec` enter its
# namespaces, so the host's view of its files survives sshd restarts.
start_anchor() {
	local h=$1 ns=$2 d p i comm
	d=$(hdir "$h")
	# shellcheck disable=SC2016
	setsid ip netns exec "$ns" unshare -m -u --propagation private \
	    sh -c '
		set -e
		f=$1/fs
		mount --bind "$f/etc/sysctl.d" /etc/sysctl.d
		if [ -e /etc/sysctl.conf ]; then
			mount --bind "$f/etc/sysctl.conf" /etc/sysctl.conf
		fi
		mount --bind "$f/run/sysctl.d" /run/sysctl.d
		mount --bind "$f/var/lib/tcptune" /var/lib/tcptune
		mount --bind "$f/etc/modules-load.d" /etc/modules-load.d
		mount --bind "$f/etc/modprobe.d" /etc/modprobe.d
		if [ -e /etc/modules ]; then
			mount --bind "$f/etc/modules" /etc/modules
		fi
		mount --bind "$f/etc/systemd-system" /etc/systemd/system
		mount --bind "$f/etc/sudoers.d" /etc/sudoers.d
		mount --bind "$f/etc/hosts" /etc/hosts
		mount --bind "$f/root" /root
		hostname "$2"
		exec sleep infinity
	    ' sh "$d" "$h" </dev/null >>"$d/anchor.log" 2>&1 9>&- &
	p=$!
	echo "$p" >"$d/ns.pid"
	# The mounts are done once the shell has become sleep.
	for ((i = 0; i < 500; i++)); do
		alive "$p" || break
		{ read -r comm <"/proc/$p/comm"; } 2>/dev/null || comm=
		[[ $comm == sleep ]] && return 0
		sleep 0.01
	done
	die "host '$h': could not set up its mount namespace: $(cat "$d/anchor.log" 2>/dev/null)"
}

start_sshd() {
	local h=$1 d a
	d=$(hdir "$h")
	a=$(anchor_pid "$h") || die "host '$h' has no namespace holder (run '$PROG up' again)"
	rm -f "$d/sshd.pid"
	# sshd forks before it binds: its log tells wait_sshd why it died.
	: >"$d/sshd.log"
	nsenter -t "$a" -m -n -u -- "$SSHD" -f "$d/sshd_config" \
	    -E "$d/sshd.log" </dev/null 9>&- ||
		die "host '$h': sshd failed to start: $(tail -n 3 "$d/sshd.log" 2>/dev/null)"
}

# Poll until HOST's sshd sends its banner; die naming the host if it does
# not within WAIT_SECS.
wait_sshd() {
	local h=$1 addr=$2 deadline d
	d=$(hdir "$h")
	deadline=$((SECONDS + WAIT_SECS))
	# shellcheck disable=SC2016
	while ((SECONDS <= deadline)); do
		# sshd writes its pid file once it listens. The probe sends a
		# banner back so that sshd does not log an error for it.
		if [[ -s $d/sshd.pid ]]; then
			if timeout 2 bash -c 'exec 3<>"/dev/tcp/$0/22" &&
			    read -r l <&3 && [[ $l == SSH-2.0-* ]] &&
			    printf "SSH-2.0-labprobe\r\n" >&3' "$addr" 2>/dev/null; then
				return 0
			fi
		elif [[ -s $d/sshd.log ]]; then
			break
		fi
		sleep 0.1
	done
	die "host '$h' ($addr): sshd died or did not answer on port 22 within ${WAIT_SECS}s: $(tail -n 3 "$d/sshd.log" 2>/dev/null)"
}

stop_sshd() {
	local h=$1 p
	if p=$(sshd_pid "$h"); then
		kill_wait "$p"
	fi
	rm -f "$(hdir "$h")/sshd.pid"
}

# Everything for host index i inside its (already created) namespace.
setup_host() {
	local i=$1 h=${HOSTS[$1]} addr=${ADDRS[$1]} ns=${NSS[$1]} d kv j
	local -a keys got
	d=$(hdir "$h")
	mkdir -p "$d"
	rm -rf "$d/fs"
	cp -a "$DIR/template" "$d/fs"
	printf '%s %s\n' "$addr" "$h" >>"$d/fs/etc/hosts"
	[[ -f $d/ssh_host_ed25519_key ]] || host_key "$h"
	write_sshd_config "$h" "$addr"

	ip -n "$ns" -batch - <<EOF
link set lo up
addr add $addr/$LAB_PLEN dev eth0
link set eth0 up
route add default via $LAB_GW dev eth0
EOF
	ip netns exec "$ns" sysctl -q -w "${STOCK_SYSCTLS[@]}" >/dev/null
	# sysctl -w exits 0 even when the kernel refuses: read back.
	keys=()
	for kv in "${STOCK_SYSCTLS[@]}"; do
		keys+=("${kv%%=*}")
	done
	mapfile -t got < <(ip netns exec "$ns" sysctl -n "${keys[@]}" | tr -s '\t ' '  ')
	for j in "${!STOCK_SYSCTLS[@]}"; do
		kv=${STOCK_SYSCTLS[$j]}
		[[ ${got[$j]:-} == "${kv#*=}" ]] ||
			die "host '$h': ${kv%%=*} is '${got[$j]:-}', wanted '${kv#*=}'"
	done

	start_anchor "$h" "$ns"
	start_sshd "$h"
}

# A job that a signal killed ran no trap of its own: say so here.
job_failed() {
	(($1 <= 128)) || warn "a host's job was killed by signal $(($1 - 128))"
}

# Run "FUNC i" for every host index, JOBS at a time; fail if any failed.
for_all_hosts() {
	local fn=$1 i n=0 fails=0 rc
	# Each job says which host it was and how it ended: a job killed by a
	# signal prints nothing of its own.
	for i in "${!HOSTS[@]}"; do
		(
			# shellcheck disable=SC2064
			trap "rc=\$?; ((rc == 0)) || warn \"host '${HOSTS[$i]}': $fn exited \$rc\"" EXIT
			"$fn" "$i"
		) &
		if ((++n >= JOBS)); then
			wait -n || { rc=$?; job_failed "$rc"; fails=$((fails + 1)); }
			n=$((n - 1))
		fi
	done
	while ((n > 0)); do
		wait -n || { rc=$?; job_failed "$rc"; fails=$((fails + 1)); }
		n=$((n - 1))
	done
	((fails == 0)) || die "$fails host(s) failed (see messages above)"
}

wait_host() {
	wait_sshd "${HOSTS[$1]}" "${ADDRS[$1]}"
}

ensure_sshd_host() {
	local h=${HOSTS[$1]}
	sshd_pid "$h" >/dev/null || start_sshd "$h"
}

write_client_files() {
	local i h addr key
	: >"$DIR/known_hosts.tmp"
	for i in "${!HOSTS[@]}"; do
		h=${HOSTS[$i]}
		addr=${ADDRS[$i]}
		read -r key <"$(hdir "$h")/ssh_host_ed25519_key.pub"
		key=${key% *}
		echo "$addr $key" >>"$DIR/known_hosts.tmp"
	done
	# Only up writes known_hosts: rekey-host leaves it alone on purpose,
	# and a later up trusts the host's current key again.
	mv "$DIR/known_hosts.tmp" "$DIR/known_hosts"
	chmod 0644 "$DIR/known_hosts"

	{
		echo "# lab ssh client config (written by $PROG): ssh -F $DIR/ssh_config HOST"
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

	local common="-o UserKnownHostsFile=$DIR/known_hosts -o StrictHostKeyChecking=yes -o KexAlgorithms=curve25519-sha256"
	{
		echo "# lab inventory (written by $PROG)"
		echo "all:"
		echo "  children:"
		echo "    lab:"
		echo "      hosts:"
		for i in "${!HOSTS[@]}"; do
			echo "        ${HOSTS[$i]}:"
			echo "          ansible_host: ${ADDRS[$i]}"
		done
		echo "      vars:"
		echo "        ansible_user: root"
		echo "        ansible_ssh_private_key_file: $DIR/id_ed25519"
		echo "        ansible_ssh_common_args: \"$common\""
	} >"$DIR/inventory.yml"
	{
		echo "# lab inventory (written by $PROG)"
		echo "[lab]"
		for i in "${!HOSTS[@]}"; do
			echo "${HOSTS[$i]} ansible_host=${ADDRS[$i]}"
		done
		echo
		echo "[lab:vars]"
		echo "ansible_user=root"
		echo "ansible_ssh_private_key_file=$DIR/id_ed25519"
		echo "ansible_ssh_common_args='$common'"
	} >"$DIR/inventory.ini"

	q() { printf '%s=%q\n' "$1" "$2"; }
	{
		echo "# lab environment (written by $PROG): . $DIR/lab.env"
		q LAB_DIR "$DIR"
		q LAB_N "$LAB_N"
		q LAB_PREFIX "$LAB_PREFIX"
		q LAB_BRIDGE "$LAB_BRIDGE"
		q LAB_GATEWAY "$LAB_GW"
		q LAB_HOSTS "${HOSTS[*]}"
		q LAB_ADDRS "${ADDRS[*]}"
		q LAB_NETNS "${NSS[*]}"
		q LAB_KEY "$DIR/id_ed25519"
		q LAB_KNOWN_HOSTS "$DIR/known_hosts"
		q LAB_SSH_CONFIG "$DIR/ssh_config"
		q LAB_INVENTORY "$DIR/inventory.yml"
		q LAB_INVENTORY_INI "$DIR/inventory.ini"
		q LAB_SH "$(readlink -f "$0")"
	} >"$DIR/lab.env"
}

save_state() {
	local i
	{
		printf 'LAB_N=%q\nLAB_PREFIX=%q\nLAB_NET=%q\n' \
		    "$LAB_N" "$LAB_PREFIX" "$LAB_NET"
		printf 'LAB_GW=%q\nLAB_PLEN=%q\nLAB_BRIDGE=%q\n' \
		    "$LAB_GW" "$LAB_PLEN" "$LAB_BRIDGE"
	} >"$DIR/lab.conf"
	: >"$DIR/hosts.list"
	for i in "${!HOSTS[@]}"; do
		echo "${HOSTS[$i]} ${ADDRS[$i]} ${NSS[$i]} ${VETHS[$i]}" \
		    >>"$DIR/hosts.list"
	done
}

# Is the lab described by DIR/lab.conf whole (bridge, namespaces, anchors)?
lab_intact() {
	local i
	ip link show dev "$LAB_BRIDGE" >/dev/null 2>&1 || return 1
	for i in "${!HOSTS[@]}"; do
		[[ -e /run/netns/${NSS[$i]} ]] || return 1
		anchor_pid "${HOSTS[$i]}" >/dev/null || return 1
	done
}

# Kill every process inside namespace NS (sessions, iperf3 servers, anchors).
kill_ns_procs() {
	local ns=$1 p pids
	[[ -e /run/netns/$ns ]] || return 0
	pids=$(ip netns pids "$ns" 2>/dev/null) || return 0
	for p in $pids; do
		kill -TERM "$p" 2>/dev/null || true
	done
	for p in $pids; do
		kill_wait "$p"
	done
}

# Remove namespaces named NS... and the bridge if they exist, killing what
# runs inside first.
remove_net() {
	local bridge=$1 ns batch=
	shift
	for ns in "$@"; do
		kill_ns_procs "$ns" &
	done
	wait
	for ns in "$@"; do
		[[ -e /run/netns/$ns ]] && batch+="netns del $ns"$'\n'
	done
	if [[ -n $batch ]]; then
		ip -force -batch - <<<"$batch" || true
	fi
	if ip link show dev "$bridge" >/dev/null 2>&1; then
		ip link del dev "$bridge"
	fi
}

cmd_up() {
	local i batch t0=$SECONDS
	if ! [[ $LAB_N =~ ^[0-9]+$ ]] || ((LAB_N < 1 || LAB_N > MAX_N)); then
		die "N must be 1..$MAX_N, not '$LAB_N'"
	fi
	[[ $LAB_PREFIX =~ ^[a-z][a-z0-9]{0,7}$ ]] ||
		die "prefix must be 1-8 lower-case letters and digits, not '$LAB_PREFIX'"
	[[ $LAB_NET =~ ^198\.1[89](\.[0-9]{1,3})?$ ]] ||
		die "net must be inside 198.18.0.0/15 (198.18, 198.19 or A.B.C), not '$LAB_NET'"
	case $(readlink -m "$DIR")/ in
	/root/* | /etc/* | /run/sysctl.d/* | /var/lib/tcptune/*)
		die "'$DIR' would be hidden by the lab's bind mounts";;
	esac

	local want_n=$LAB_N want_prefix=$LAB_PREFIX want_net=$LAB_NET
	if load_state; then
		if [[ $LAB_N == "$want_n" && $LAB_PREFIX == "$want_prefix" &&
		    $LAB_NET == "$want_net" ]] && lab_intact; then
			# Same lab and whole: make sure every sshd runs.
			ensure_users
			ensure_mountpoints
			ensure_client_key
			for_all_hosts ensure_sshd_host
			for_all_hosts wait_host
			write_client_files
			echo "$PROG: lab of $LAB_N hosts already up in $DIR"
			return 0
		fi
		cmd_down
	fi
	LAB_N=$want_n
	LAB_PREFIX=$want_prefix
	LAB_NET=$want_net
	plan_layout

	mkdir -p "$DIR"
	chmod 0755 "$DIR"
	rm -rf "$DIR/hosts" "$DIR/pids"
	mkdir -p "$DIR/hosts"
	: >"$DIR/pids"
	# Leftovers with our names (a lab whose DIR was removed by hand).
	remove_net "$LAB_BRIDGE" "${NSS[@]}"
	save_state

	ensure_users
	ensure_mountpoints
	ensure_client_key
	make_template

	batch="link add $LAB_BRIDGE type bridge"$'\n'
	batch+="link set $LAB_BRIDGE addrgenmode none"$'\n'
	batch+="addr add $LAB_GW/$LAB_PLEN dev $LAB_BRIDGE"$'\n'
	batch+="link set $LAB_BRIDGE up"$'\n'
	for i in "${!HOSTS[@]}"; do
		batch+="netns add ${NSS[$i]}"$'\n'
	done
	for i in "${!HOSTS[@]}"; do
		batch+="link add ${VETHS[$i]} type veth peer name eth0 netns ${NSS[$i]}"$'\n'
		batch+="link set ${VETHS[$i]} addrgenmode none"$'\n'
		batch+="link set ${VETHS[$i]} master $LAB_BRIDGE up"$'\n'
	done
	ip -batch - <<<"$batch" || die "could not create the lab's network"

	for_all_hosts setup_host
	for_all_hosts wait_host
	write_client_files
	echo "$PROG: lab of $LAB_N hosts up in $DIR ($((SECONDS - t0))s)"
}

cmd_down() {
	local i p pid rest
	if ! load_state; then
		return 0
	fi
	for i in "${!HOSTS[@]}"; do
		stop_sshd "${HOSTS[$i]}" &
	done
	wait
	if [[ -f $DIR/pids ]]; then
		while read -r pid rest; do
			[[ -n $pid ]] || continue
			kill_wait "-$pid"
		done <"$DIR/pids"
	fi
	remove_net "$LAB_BRIDGE" "${NSS[@]}"
	# Keep only the client key, so a new lab accepts the same key.
	for p in "$DIR"/* "$DIR"/.[!.]*; do
		[[ -e $p || -L $p ]] || continue
		case ${p##*/} in
		id_ed25519 | id_ed25519.pub | .lock) ;;
		*) rm -rf "$p" ;;
		esac
	done
	echo "$PROG: lab in $DIR is down"
}

cmd_status() {
	local i h ok=0 s a p
	load_state || {
		echo "no lab in $DIR"
		return 1
	}
	printf 'lab in %s: %s hosts, bridge %s (%s)\n' "$DIR" "$LAB_N" \
	    "$LAB_BRIDGE" "$(ip link show dev "$LAB_BRIDGE" >/dev/null 2>&1 &&
		echo present || echo missing)"
	printf '%-8s %-15s %-14s %-8s %-8s\n' HOST ADDRESS NETNS HOLDER SSHD
	for i in "${!HOSTS[@]}"; do
		h=${HOSTS[$i]}
		a=$(anchor_pid "$h") || a=-
		p=$(sshd_pid "$h") || p=-
		s=${NSS[$i]}
		[[ -e /run/netns/$s ]] || s="($s missing)"
		printf '%-8s %-15s %-14s %-8s %-8s\n' "$h" "${ADDRS[$i]}" "$s" "$a" "$p"
		[[ $a != - && $p != - ]] || ok=1
	done
	if [[ -s $DIR/pids ]]; then
		echo "other processes (pid host port):"
		sed 's/^/  /' "$DIR/pids"
	fi
	return $ok
}

need_lab() {
	load_state || die "no lab in $DIR (run '$PROG up')"
}

cmd_stop_host() {
	need_lab
	host_index "$1" >/dev/null
	stop_sshd "$1"
}

cmd_start_host() {
	local i
	need_lab
	i=$(host_index "$1")
	sshd_pid "$1" >/dev/null || start_sshd "$1"
	wait_sshd "$1" "${ADDRS[$i]}"
}

cmd_rekey_host() {
	local i
	need_lab
	i=$(host_index "$1")
	stop_sshd "$1"
	host_key "$1"
	start_sshd "$1"
	wait_sshd "$1" "${ADDRS[$i]}"
}

cmd_silent_host() {
	local h=$1 port=$2 i p n
	need_lab
	i=$(host_index "$h")
	if ! [[ $port =~ ^[0-9]+$ ]] || ((port < 1 || port > 65535)); then
		die "bad port '$port'"
	fi
	command -v socat >/dev/null ||
		die "socat is needed for silent-host (apt-get install socat)"
	# Accepts every connection, reads and discards, never writes a byte.
	# Its own session, so down can kill it and its per-connection children.
	setsid ip netns exec "${NSS[$i]}" socat -u \
	    "TCP-LISTEN:$port,reuseaddr,fork,backlog=128" OPEN:/dev/null \
	    </dev/null >>"$(hdir "$h")/silent-$port.log" 2>&1 9>&- &
	p=$!
	echo "$p $h $port" >>"$DIR/pids"
	for ((n = 0; n < 100; n++)); do
		alive "$p" || die "host '$h': silent listener on port $port failed: $(cat "$(hdir "$h")/silent-$port.log")"
		if ip netns exec "${NSS[$i]}" ss -Hltn "sport = :$port" | grep -q .; then
			echo "$p"
			return 0
		fi
		sleep 0.05
	done
	die "host '$h': silent listener on port $port did not start"
}

cmd_exec() {
	local h=$1 a
	shift
	need_lab
	host_index "$h" >/dev/null
	a=$(anchor_pid "$h") || die "host '$h' has no namespace holder"
	exec nsenter -t "$a" -m -n -u -- "$@"
}

# --- main -----------------------------------------------------------------

[[ $# -ge 1 ]] || usage
CMD=$1
shift
DIR=${LAB_DIR:-$DEFAULT_DIR}
LAB_N=$DEFAULT_N
LAB_PREFIX=$DEFAULT_PREFIX
LAB_NET=$DEFAULT_NET
while [[ $# -gt 0 ]]; do
	case $1 in
	-d) [[ $# -ge 2 ]] || usage; DIR=$2; shift 2 ;;
	-n) [[ $CMD == up && $# -ge 2 ]] || usage; LAB_N=$2; shift 2 ;;
	-p | --prefix) [[ $CMD == up && $# -ge 2 ]] || usage; LAB_PREFIX=$2; shift 2 ;;
	-a | --net) [[ $CMD == up && $# -ge 2 ]] || usage; LAB_NET=$2; shift 2 ;;
	--) shift; break ;;
	-*) usage ;;
	*) break ;;
	esac
done
DIR=$(readlink -m "$DIR")

[[ $(id -u) -eq 0 ]] || die "must run as root"

# One changer at a time per DIR (tests may run in parallel). Daemons we
# start get fd 9 closed so that they do not hold the lock.
# shellcheck source=tests/lab/close-fds.sh
. "$(dirname "${BASH_SOURCE[0]}")/close-fds.sh"
case $CMD in
up | down | stop-host | start-host | rekey-host | silent-host)
	close_inherited_fds
	if [[ $CMD == up ]]; then
		mkdir -p "$DIR"
	fi
	if [[ -d $DIR ]]; then
		exec 9>"$DIR/.lock"
		flock -w 120 9 || die "'$DIR' is locked by another $PROG"
	fi
	;;
esac

case $CMD in
up) [[ $# -eq 0 ]] || usage; cmd_up ;;
down) [[ $# -eq 0 ]] || usage; cmd_down ;;
status) [[ $# -eq 0 ]] || usage; cmd_status ;;
stop-host) [[ $# -eq 1 ]] || usage; cmd_stop_host "$1" ;;
start-host) [[ $# -eq 1 ]] || usage; cmd_start_host "$1" ;;
rekey-host) [[ $# -eq 1 ]] || usage; cmd_rekey_host "$1" ;;
silent-host) [[ $# -eq 2 ]] || usage; cmd_silent_host "$1" "$2" ;;
exec) [[ $# -ge 2 ]] || usage; cmd_exec "$@" ;;
-h | --help | help) usage ;;
*) usage ;;
esac
