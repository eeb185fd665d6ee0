# sshd-lib.sh - a throwaway sshd of our own for the transport tests:
# loopback only, its own host key and authorized_keys in DIR, root login by
# key. Source it; sshd_setup PREFIX TOOL... then sshd_config_write DIR
# PORT [EXTRA LINE...].
# shellcheck shell=sh

# sshd_setup PREFIX TOOL...: skip the test (exit 77) unless we are root and
# sshd and each TOOL are installed; then sets sshd (its path) and dir (a
# new /tmp/PREFIX-XXXXXX), which an EXIT trap empties after stopping the
# sshd started with PidFile dir/sshd.pid.
sshd_setup() {
	_prefix=$1
	shift
	sshd=$(command -v sshd || echo /usr/sbin/sshd)
	[ -x "$sshd" ] || { echo "skip: sshd not installed"; exit 77; }
	for _tool in "$@"; do
		command -v "$_tool" >/dev/null 2>&1 ||
		    { echo "skip: $_tool not installed"; exit 77; }
	done
	if [ "$(id -u)" != 0 ]; then
		echo "skip: needs root (sshd logs in as root)"
		exit 77
	fi
	dir=$(mktemp -d "/tmp/$_prefix-XXXXXX")
	chmod 755 "$dir"
	trap 'sshd_stop; rm -rf "$dir"' EXIT
	trap 'exit 1' INT TERM HUP
}

# sshd_stop: stop the sshd of dir, if one runs.
sshd_stop() {
	if [ -s "$dir/sshd.pid" ]; then
		kill "$(cat "$dir/sshd.pid")" 2>/dev/null || true
		rm -f "$dir/sshd.pid"
	fi
}

# sshd_config_write DIR PORT [LINE...]: DIR/sshd_config, with each LINE
# appended (e.g. "AllowTcpForwarding yes").
sshd_config_write() {
	_dir=$1
	_port=$2
	shift 2
	cat >"$_dir/sshd_config" <<CONF
Port $_port
ListenAddress 127.0.0.1
HostKey $_dir/host
PidFile $_dir/sshd.pid
AuthorizedKeysFile $_dir/authorized_keys
StrictModes no
UsePAM no
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
LogLevel DEBUG1
CONF
	for _line in "$@"; do
		echo "$_line" >>"$_dir/sshd_config"
	done
}
