# sshd-lib.sh - a throwaway sshd of our own for the transport tests:
# loopback only, its own host key and authorized_keys in DIR, root login by
# key. Source it, then sshd_config_write DIR PORT [EXTRA LINE...].
# shellcheck shell=sh

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
