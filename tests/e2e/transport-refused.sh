#!/bin/sh
# An sshd that refuses to start commands: tcptune asks again, a bounded
# number of times, and then names the refusal.
#
# sshd answers an exec request with a bare SSH_MSG_CHANNEL_FAILURE (no
# reason) when it cannot start the command: its pipe() or fork() failed.
# Seen twice on the UML guests right after boot; here it is made certain
# with a file-descriptor limit under which sshd still accepts and
# authenticates a connection but cannot make the pipes of a session. The
# limit that does that is found by trying (OpenSSH's own client says "exec
# request failed"), so the test does not hard-code sshd's fd count.
#
# usage: transport-refused.sh TCPTUNE DRIVER (tests/e2e/transport-driver,
# for a free port)
# Exit 77 (skip) when sshd, ssh or ssh-keygen is missing or we are not root.
set -eu
# shellcheck source=tests/e2e/sshd-lib.sh
. "$(dirname "$0")/sshd-lib.sh"

tcptune=${1:?usage: transport-refused.sh TCPTUNE DRIVER}
driver=${2:?usage: transport-refused.sh TCPTUNE DRIVER}
sshd_setup tcptune-refused ssh ssh-keygen

fails=0
ok() { echo "ok: $1"; }
fail() {
	echo "FAIL: $1"
	fails=$((fails + 1))
}

ssh-keygen -q -t ed25519 -N '' -C tcptune-test-host -f "$dir/host"
ssh-keygen -q -t ed25519 -N '' -C tcptune-test-ok -f "$dir/id"
cp "$dir/id.pub" "$dir/authorized_keys"
port=$("$driver" freeport)
sshd_config_write "$dir" "$port"
echo "[127.0.0.1]:$port $(cut -d' ' -f1,2 "$dir/host.pub")" >"$dir/known_hosts"
cat >"$dir/inventory.yml" <<INV
all:
  hosts:
    refuser:
      ansible_host: 127.0.0.1
      ansible_port: $port
      ansible_user: root
      ansible_ssh_private_key_file: $dir/id
INV
mkdir -p /run/sshd

# start_sshd N: sshd with at most N open files; 0 once it listens.
start_sshd() {
	sshd_stop
	: >"$dir/sshd.log"
	# shellcheck disable=SC3045 # dash and bash both have ulimit -n
	(ulimit -n "$1" && exec "$sshd" -f "$dir/sshd_config" -E "$dir/sshd.log") ||
	    return 1
	i=0
	until grep -q "Server listening" "$dir/sshd.log" 2>/dev/null; do
		i=$((i + 1))
		[ $i -gt 100 ] && return 1
		sleep 0.05
	done
}

client() {
	ssh -i "$dir/id" -p "$port" -o BatchMode=yes \
	    -o UserKnownHostsFile="$dir/known_hosts" \
	    -o StrictHostKeyChecking=yes root@127.0.0.1 true 2>&1
}

limit=
for n in 9 10 11 12 13 14 15 16; do
	start_sshd "$n" || continue
	out=$(client) && break
	case $out in
	*"exec request failed"*) limit=$n ;;
	esac
done
sshd_stop
if [ -z "$limit" ]; then
	echo "FAIL: found no fd limit under which sshd authenticates but refuses exec (this sshd: $("$sshd" -V 2>&1 | head -1))"
	exit 1
fi
ok "sshd with at most $limit open files authenticates and refuses every exec (OpenSSH's client says so)"

start_sshd "$limit" || { echo "FAIL: sshd did not start"; exit 1; }
start=$(date +%s.%N)
rc=0
out=$("$tcptune" ping -i "$dir/inventory.yml" --known-hosts "$dir/known_hosts" \
    --no-color 2>&1) || rc=$?
secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
echo "tcptune ping: exit $rc after $secs s:"
echo "$out" | sed 's/^/    | /'

want="starting a command on 'refuser' (127.0.0.1:$port) failed: the server refused it 4 times: sshd could not start it (see its log)"
case $out in
*"$want"*) ok "the failure says how often the server refused" ;;
*) fail "expected '$want'" ;;
esac
if [ "$rc" != 0 ]; then ok "ping exits non-zero ($rc)"; else fail "ping exited 0"; fi
# 250 + 1000 + 3000 ms between the four attempts.
if awk -v s="$secs" 'BEGIN { exit !(s >= 4.2 && s < 30) }'; then
	ok "the attempts were spaced out (4.25 s of pauses, $secs s in all)"
else
	fail "took $secs s; the pauses alone are 4.25 s"
fi
n=$(grep -c "pipe err: Too many open files" "$dir/sshd.log" || true)
if [ "$n" = 4 ]; then
	ok "sshd saw the exec request 4 times (its log: 4 x 'pipe err')"
else
	fail "sshd's log has $n 'pipe err' lines, expected 4"
	tail -n 30 "$dir/sshd.log" | sed 's/^/# /'
fi

# The same sshd with room for a session: no refusal, no pause.
start_sshd 64 || { echo "FAIL: sshd did not start"; exit 1; }
rc=0
out=$("$tcptune" ping -i "$dir/inventory.yml" --known-hosts "$dir/known_hosts" \
    --no-color 2>&1) || rc=$?
if [ "$rc" = 0 ]; then
	ok "with room for a session, ping exits 0"
else
	fail "ping exit $rc with a normal fd limit: $out"
fi

[ "$fails" = 0 ] || exit 1
echo "PASS"
