#!/bin/bash
# smoke.sh - bring up a 3-host lab of its own (beside any running main lab),
# check that its hosts are what the e2e tests rely on, tear it down.
#
# Exit 77 (skipped) when not root; the lab needs namespaces and mounts.

set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
LAB=$HERE/lab.sh
DIR=/tmp/tcptune-lab-smoke
PREFIX=tts
NET=198.18.254

if [[ $(id -u) -ne 0 ]]; then
	echo "smoke: SKIP: the lab needs root"
	exit 77
fi

passed=0
failed=0
ok() {
	echo "ok: $*"
	passed=$((passed + 1))
}
bad() {
	echo "FAIL: $*"
	failed=$((failed + 1))
}
# check DESCRIPTION EXPECTED ACTUAL
check() {
	if [[ $2 == "$3" ]]; then
		ok "$1"
	else
		bad "$1: expected '$2', got '$3'"
	fi
}

cleanup() {
	"$LAB" down -d "$DIR" >/dev/null 2>&1 || true
}
trap cleanup EXIT

root_rmem_before=$(sysctl -n net.ipv4.tcp_rmem)
root_cc_before=$(sysctl -n net.ipv4.tcp_congestion_control)

"$LAB" up -n 3 -d "$DIR" -p "$PREFIX" -a "$NET"
# shellcheck disable=SC1091
. "$DIR/lab.env"
check "lab.env host list" "lab01 lab02 lab03" "$LAB_HOSTS"
check "lab.env addresses" "$NET.1 $NET.2 $NET.3" "$LAB_ADDRS"
check "lab.env namespaces" "$PREFIX-lab01 $PREFIX-lab02 $PREFIX-lab03" "$LAB_NETNS"
check "known_hosts has one line per host" 3 "$(wc -l <"$LAB_KNOWN_HOSTS")"

SSH=(ssh -F "$LAB_SSH_CONFIG")

for h in $LAB_HOSTS; do
	# shellcheck disable=SC2016
	out=$("${SSH[@]}" "$h" 'hostname; sysctl -n net.ipv4.tcp_rmem net.ipv4.tcp_wmem net.ipv4.tcp_congestion_control net.ipv4.tcp_no_metrics_save; echo "$HOME"; cmp -s "$HOME/.bashrc" /etc/skel/.bashrc && echo skel-bashrc' | tr '\t' ' ') ||
		out="ssh failed: $?"
	check "$h: hostname, stock TCP sysctls, own /root" \
	    "$h
4096 131072 212992
4096 16384 212992
reno
1
/root
skel-bashrc" "$out"
done

check "root namespace tcp_rmem untouched" "$root_rmem_before" \
    "$(sysctl -n net.ipv4.tcp_rmem)"
check "root namespace congestion control untouched" "$root_cc_before" \
    "$(sysctl -n net.ipv4.tcp_congestion_control)"

# Each host's /etc/sysctl.d is its own.
"${SSH[@]}" lab01 'echo "# smoke" >/etc/sysctl.d/99-lab-smoke.conf'
check "lab01 sees its new sysctl.d file (lab.sh exec)" yes \
    "$("$LAB" exec -d "$DIR" lab01 sh -c '[ -f /etc/sysctl.d/99-lab-smoke.conf ] && echo yes || echo no')"
check "lab02 does not see lab01's file" no \
    "$("${SSH[@]}" lab02 '[ -f /etc/sysctl.d/99-lab-smoke.conf ] && echo yes || echo no')"
check "the machine does not see lab01's file" no \
    "$([[ -e /etc/sysctl.d/99-lab-smoke.conf ]] && echo yes || echo no)"
check "lab02 /var/lib/tcptune is empty" "" \
    "$("${SSH[@]}" lab02 'ls -A /var/lib/tcptune')"

# Strict host key checking is on: an empty known_hosts must be refused.
if "${SSH[@]}" -o UserKnownHostsFile=/dev/null lab01 true 2>/dev/null; then
	bad "ssh with an empty known_hosts was accepted"
else
	ok "ssh with an empty known_hosts is refused"
fi

# become users.
if "${SSH[@]}" -l ttl-sudo lab01 'sudo -n true'; then
	ok "ttl-sudo: sudo -n works"
else
	bad "ttl-sudo: sudo -n failed"
fi
if err=$("${SSH[@]}" -l ttl-pw lab01 'sudo -n true' 2>&1); then
	bad "ttl-pw: sudo -n succeeded"
else
	check "ttl-pw: sudo -n needs a password" "sudo: a password is required" "$err"
fi

# up again is a no-op on a whole lab: same sshd.
pid_before=$(cat "$DIR/hosts/lab01/sshd.pid")
"$LAB" up -n 3 -d "$DIR" -p "$PREFIX" -a "$NET" >/dev/null
check "second up keeps the running sshd" "$pid_before" "$(cat "$DIR/hosts/lab01/sshd.pid")"
check "second up keeps lab01's files" yes \
    "$("$LAB" exec -d "$DIR" lab01 sh -c '[ -f /etc/sysctl.d/99-lab-smoke.conf ] && echo yes || echo no')"

# stop-host / start-host.
"$LAB" stop-host -d "$DIR" lab02
if "${SSH[@]}" lab02 true 2>/dev/null; then
	bad "lab02 answered after stop-host"
else
	ok "lab02 refuses after stop-host"
fi
"$LAB" start-host -d "$DIR" lab02
check "lab02 answers after start-host" lab02 "$("${SSH[@]}" lab02 hostname)"

# rekey-host: known_hosts no longer matches.
"$LAB" rekey-host -d "$DIR" lab03
if err=$("${SSH[@]}" lab03 true 2>&1); then
	bad "lab03 accepted with a changed host key"
elif [[ $err == *"REMOTE HOST IDENTIFICATION HAS CHANGED"* ]]; then
	ok "lab03's changed host key is refused"
else
	bad "lab03 failed for another reason: $err"
fi

# silent-host: accepts TCP, never sends a banner.
"$LAB" stop-host -d "$DIR" lab02
spid=$("$LAB" silent-host -d "$DIR" lab02 22)
addr2=$NET.2
# shellcheck disable=SC2016
if timeout 5 bash -c 'exec 3<>"/dev/tcp/$0/22" || exit 3; read -r -t 1 l <&3; exit $?' "$addr2"; then
	bad "silent lab02 sent something"
else
	rc=$?
	# read timing out gives > 128; 3 would be a refused connection.
	if ((rc > 128)); then
		ok "silent lab02 accepts and stays quiet"
	else
		bad "silent lab02: connection failed (rc $rc)"
	fi
fi

# down leaves nothing.
"$LAB" down -d "$DIR"
left=$(ip netns list | grep -c "^$PREFIX-lab" || true)
check "no namespaces left" 0 "$left"
check "no bridge left" no "$(ip link show dev "${PREFIX}br0" >/dev/null 2>&1 && echo yes || echo no)"
check "silent listener gone" no "$(kill -0 "$spid" 2>/dev/null && [[ $(cut -d' ' -f3 /proc/"$spid"/stat) != Z ]] && echo yes || echo no)"
check "sshd of lab01 gone" no "$(kill -0 "$pid_before" 2>/dev/null && [[ $(cut -d' ' -f3 /proc/"$pid_before"/stat) != Z ]] && echo yes || echo no)"
if "$LAB" down -d "$DIR" >/dev/null; then
	ok "down twice is fine"
else
	bad "second down failed"
fi

echo "$passed passed, $failed failed"
((failed == 0))
