#!/bin/sh
# wan.sh: start and stop the lab's WAN emulator (wanem) between existing
# network namespaces. See the "WAN emulator" section of tests/lab/README.md.
#
#   wan.sh up CONFIG [-d DIR] [-w WANEM]   start wanem, configure every wan0
#   wan.sh stats [-d DIR]                  per-pipe counters (SIGUSR1), each
#                                          host's wan0 TX drops
#   wan.sh down [-d DIR]                   stop wanem; the wan0 devices vanish
#
# DIR holds wanem.pid, wanem.log and wanem.stats (default /tmp/ttl-wan).
# WANEM (or -w) is the wanem binary; by default the first of build*/ in the
# source tree that has one, or wanem on PATH.
set -eu

TXQUEUELEN=10000

die() {
	echo "wan.sh: $*" >&2
	exit 1
}

usage() {
	echo "usage: wan.sh up CONFIG [-d DIR] [-w WANEM] | stats [-d DIR] |" \
	    "down [-d DIR]" >&2
	exit 2
}

find_wanem() {
	if [ -n "${WANEM:-}" ]; then
		echo "$WANEM"
		return
	fi
	top=$(cd "$(dirname "$0")/../.." && pwd)
	for b in "$top"/build/tests/lab/wanem "$top"/build*/tests/lab/wanem; do
		if [ -x "$b" ]; then
			echo "$b"
			return
		fi
	done
	command -v wanem || die "no wanem binary (build it, or set WANEM)"
}

# The running wanem's pid, or nothing. The pid must still be a wanem: a
# stale pid file must not make us signal an unrelated process.
running_pid() {
	[ -f "$DIR/wanem.pid" ] || return 0
	pid=$(cat "$DIR/wanem.pid" 2>/dev/null || true)
	case "$pid" in
	'' | *[!0-9]*) return 0 ;;
	esac
	if [ "$(cat "/proc/$pid/comm" 2>/dev/null || true)" = wanem ]; then
		echo "$pid"
	fi
}

# Host lines of the checked config: "NAME NETNS ADDR" per line, in
# $DIR/wanem.hosts, read with `done <"$HOSTS"` so that die() in a loop body
# exits the script, not a pipeline's subshell.
configure_host() {
	ns=$1
	addr=$2
	# wanem owns the device; addresses and routes are plain ip(8)
	# configuration. addrgenmode none: no IPv6 link-local chatter.
	# txqueuelen sizes the TUN device's ring between the sender's kernel
	# and wanem. At the default 500, a burst from one sender while wanem,
	# one thread for every host, served others overflowed it: the packet
	# was dropped before the emulated path (1675-4036 TX drops per sender
	# in one round of five 100-150 Mbit/s pairs), a loss no real path has,
	# and a 240 ms reno flow that met it halved to 48 of 100 Mbit/s. The
	# emulated queue (queue=) is where a path drops; 10000 packets (15 MB
	# at most, only while wanem lags) keeps the ring out of the way.
	ip -n "$ns" link set wan0 addrgenmode none mtu 1500 txqueuelen "$TXQUEUELEN" ||
	    return 1
	ip -n "$ns" addr add "$addr/32" dev wan0 || return 1
	ip -n "$ns" link set wan0 up || return 1
	case "$addr" in
	198.19.*)
		ip -n "$ns" route add 198.19.0.0/16 dev wan0 src "$addr" ||
		    return 1
		;;
	esac
	while read -r _ _ peer; do
		case "$peer" in
		"$addr" | 198.19.*) ;;
		*) ip -n "$ns" route add "$peer/32" dev wan0 src "$addr" ||
		    return 1 ;;
		esac
	done <"$HOSTS"
}

cmd_up() {
	[ -r "$CONFIG" ] || die "cannot read '$CONFIG'"
	wanem=$(find_wanem)
	[ -x "$wanem" ] || die "'$wanem' is not executable"
	mkdir -p "$DIR"
	if [ -n "$(running_pid)" ]; then
		die "wanem already running (pid $(running_pid), dir $DIR)"
	fi
	rm -f "$DIR/wanem.pid"
	"$wanem" --check --config "$CONFIG" >"$DIR/wanem.conf.checked" ||
	    exit 1
	HOSTS=$DIR/wanem.hosts
	awk '$1 == "host" { print $2, $3, $4 }' "$DIR/wanem.conf.checked" \
	    >"$HOSTS"

	while read -r name ns addr; do
		[ -e "/run/netns/$ns" ] ||
		    die "host '$name': namespace '$ns' does not exist" \
			"(start the lab first)"
		if ip -n "$ns" link show wan0 >/dev/null 2>&1; then
			die "host '$name': '$ns' already has a wan0"
		fi
	done <"$HOSTS"

	# setsid: the emulator must outlive the shell that started it and
	# not get the terminal's signals.
	setsid "$wanem" --config "$CONFIG" --pidfile "$DIR/wanem.pid" \
	    --stats "$DIR/wanem.stats" >"$DIR/wanem.log" 2>&1 </dev/null &
	child=$!
	i=0
	while [ ! -s "$DIR/wanem.pid" ]; do
		if ! kill -0 "$child" 2>/dev/null; then
			cat "$DIR/wanem.log" >&2
			die "wanem exited before it was ready"
		fi
		i=$((i + 1))
		if [ $i -ge 100 ]; then
			kill -TERM "$child" 2>/dev/null || true
			die "wanem not ready after 10 s"
		fi
		sleep 0.1
	done

	while read -r name ns addr; do
		if ! configure_host "$ns" "$addr" ||
		    ! ip -n "$ns" -o link show wan0 | grep -q '[<,]UP[,>]' ||
		    ! ip -n "$ns" -o addr show dev wan0 |
		    grep -q "inet $addr/"; then
			cmd_down >/dev/null
			die "host '$name': configuring wan0 in '$ns' failed"
		fi
	done <"$HOSTS"
	echo "wan.sh: wanem pid $(cat "$DIR/wanem.pid") up;" \
	    "$(wc -l <"$HOSTS") hosts, log $DIR/wanem.log"
}

cmd_stats() {
	pid=$(running_pid)
	[ -n "$pid" ] || die "wanem is not running (dir $DIR)"
	rm -f "$DIR/wanem.stats"
	kill -USR1 "$pid"
	i=0
	while [ ! -s "$DIR/wanem.stats" ]; do
		i=$((i + 1))
		[ $i -lt 50 ] || die "no stats from wanem"
		sleep 0.1
	done
	cat "$DIR/wanem.stats"
	# Drops before the emulator: the sender's TUN ring was full (see
	# configure_host). Not a path's loss; a test may require none.
	while read -r name ns _; do
		dropped=$(ip netns exec "$ns" \
		    cat /sys/class/net/wan0/statistics/tx_dropped 2>/dev/null) ||
		    dropped=unknown
		echo "host $name tx_dropped=$dropped"
	done <"$DIR/wanem.hosts"
}

cmd_down() {
	pid=$(running_pid)
	if [ -z "$pid" ]; then
		echo "wan.sh: wanem is not running (dir $DIR)"
		return 0
	fi
	kill -TERM "$pid"
	i=0
	while kill -0 "$pid" 2>/dev/null; do
		i=$((i + 1))
		if [ $i -ge 50 ]; then
			echo "wan.sh: wanem pid $pid ignored SIGTERM;" \
			    "killing it" >&2
			kill -KILL "$pid" 2>/dev/null || true
			break
		fi
		sleep 0.1
	done
	rm -f "$DIR/wanem.pid"
	echo "wan.sh: wanem pid $pid stopped"
}

[ $# -ge 1 ] || usage
action=$1
shift
CONFIG=
if [ "$action" = up ]; then
	[ $# -ge 1 ] || usage
	CONFIG=$1
	shift
fi
DIR=${TMPDIR:-/tmp}/ttl-wan
while getopts d:w: opt; do
	case $opt in
	d) DIR=$OPTARG ;;
	w) WANEM=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || usage

case $action in
up) cmd_up ;;
down) cmd_down ;;
stats) cmd_stats ;;
*) usage ;;
esac
