#!/bin/sh
# Runs tests/e2e/transport-driver against a real sshd of our own: loopback,
# a free high port, a generated sshd_config with its own host key and
# authorized_keys in a temp dir, killed by pid file on exit.
#
# usage: transport-sshd.sh DRIVER
# KEEP_LOG=FILE keeps a copy of the sshd log (DEBUG1);
# TCPTUNE_TEST_KEEPALIVE=1 adds a slow (17 s) keepalive case to the driver.
# Exit 77 (skip) when sshd or ssh-keygen is missing or we are not root.
set -eu
# shellcheck source=tests/e2e/sshd-lib.sh
. "$(dirname "$0")/sshd-lib.sh"

driver=${1:?usage: transport-sshd.sh DRIVER}
sshd_setup tcptune-transport ssh-keygen

ssh-keygen -q -t ed25519 -N '' -C tcptune-test-host -f "$dir/host" 
# A second host key: the driver's known_hosts that lists only this one
# makes the transport reconnect with it first (libssh offers ed25519 first).
ssh-keygen -q -t ecdsa -N '' -C tcptune-test-host-ecdsa -f "$dir/host_ecdsa"
ssh-keygen -q -t ed25519 -N '' -C tcptune-test-ok -f "$dir/id_ok"
ssh-keygen -q -t ed25519 -N '' -C tcptune-test-bad -f "$dir/id_bad"
ssh-keygen -q -t ed25519 -N '' -C tcptune-test-wrong -f "$dir/wrong"
cp "$dir/id_ok.pub" "$dir/authorized_keys"

port=$("$driver" freeport)
sshd_config_write "$dir" "$port" "AllowTcpForwarding yes" \
    "MaxStartups 50:30:100" "HostKey $dir/host_ecdsa"

mkdir -p /run/sshd
"$sshd" -t -f "$dir/sshd_config"
# sshd gets a private mount namespace with an empty /root: this machine's
# /root/.bashrc starts pyenv (~0.5 s per remote command). Without unshare
# the test still works, only slower.
if unshare -m --propagation private true 2>/dev/null; then
	unshare -m --propagation private sh -c \
	    'mount -t tmpfs -o mode=700 tmpfs /root && exec "$0" -f "$1" -E "$2"' \
	    "$sshd" "$dir/sshd_config" "$dir/sshd.log"
else
	"$sshd" -f "$dir/sshd_config" -E "$dir/sshd.log"
fi

# Wait until it listens (the pid file is written once the socket is up).
i=0
until [ -s "$dir/sshd.pid" ] && grep -q "Server listening" "$dir/sshd.log" 2>/dev/null; do
	i=$((i + 1))
	if [ $i -gt 100 ]; then
		echo "sshd did not start:"
		cat "$dir/sshd.log" 2>/dev/null || true
		exit 1
	fi
	sleep 0.05
done

rc=0
"$driver" run "$dir" "$port" || rc=$?
if [ $rc -ne 0 ]; then
	echo "# last lines of the sshd log:"
	tail -n 40 "$dir/sshd.log" | sed 's/^/# /'
fi
[ -n "${KEEP_LOG:-}" ] && cp "$dir/sshd.log" "$KEEP_LOG"
exit $rc
