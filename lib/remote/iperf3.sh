# tcptune iperf3: the one-shot server on the peer, the client on the host,
# and the server's end (lib/remote/iperf.c builds the calls and reads what
# they print; modules/mod-iperf3_verify.c runs them).
#
# Run as a remote program (lib/remote/prelude.sh), its header giving:
#   ACTION    server | client | stop
#   PORT      server: the first port to try; client: the server's port
#   TRIES     server: how many ports to try, PORT .. PORT + TRIES - 1
#   ADDRESS   client: the peer's traffic address
#   DURATION  client: seconds measured (-t)
#   OMIT      client: seconds omitted first (-O)
#   PARALLEL  client: streams (-P when more than 1)
#   REVERSE   client: "1": the peer sends (-R --get-server-output)
#   LIMIT     client: seconds after which the client is killed
#   PID       stop: the server's pid
#
# Output. server: "PID PORT" of the server that listens, or a message on
# stderr and exit 1. client: iperf3's -J document. stop: nothing, exit 0.
# Without iperf3 (server, client): a message on stderr and exit 127.

need_iperf3() {
	have iperf3 || { echo 'iperf3 is not installed' >&2; exit 127; }
}

# Does something listen on TCP port $1? (ss -ltn's local address column.)
listening() {
	ss -ltn 2>/dev/null | awk -v p=":$1" 'NR > 1 &&
	    substr($4, length($4) - length(p) + 1) == p { f = 1 }
	    END { exit !f }'
}

# The first port from PORT on that is free (by ss, when there is ss) and
# that the server, started in the background, then listens on. Every
# descriptor of the server is redirected: the SSH channel closes as soon as
# this script exits, while the server waits for its one client (-1). Its -J
# output goes to the client through --get-server-output, so nothing is
# kept here.
server() {
	p=$PORT
	end=$((PORT + TRIES))
	have_ss=
	have ss && have_ss=1
	while [ "$p" -lt "$end" ] && [ "$p" -le 65535 ]; do
		if [ -z "$have_ss" ] || ! listening "$p"; then
			iperf3 -s -1 -J -p "$p" </dev/null >/dev/null 2>&1 &
			pid=$!
			i=0
			while [ "$i" -lt 30 ] && kill -0 "$pid" 2>/dev/null; do
				if [ -n "$have_ss" ]; then
					listening "$p" && { echo "$pid $p"; exit 0; }
				elif [ "$i" -ge 5 ]; then
					echo "$pid $p"; exit 0
				fi
				sleep 0.1
				i=$((i + 1))
			done
			kill "$pid" 2>/dev/null
		fi
		p=$((p + 1))
	done
	echo "no iperf3 server could listen on a port from $PORT to $((p - 1))" >&2
	exit 1
}

# A client stuck on a dead path must not outlive its welcome: the SSH exec
# timeout alone does not kill a remote command (see transport.h). With -R
# the peer sends: its own figures (retransmits, RTT) come back only with
# --get-server-output.
client() {
	t=
	have timeout && t="timeout -s KILL $LIMIT"
	set -- -c "$ADDRESS" -p "$PORT" -J -t "$DURATION" -O "$OMIT"
	[ "$PARALLEL" -gt 1 ] && set -- "$@" -P "$PARALLEL"
	[ "$REVERSE" = 1 ] && set -- "$@" -R --get-server-output
	# shellcheck disable=SC2086 # t is words of digits and options
	exec $t iperf3 "$@" </dev/null
}

# The pid must still be our iperf3: after a clean one-shot run the server
# is gone and the pid may be reused.
stop() {
	if [ "$(cat "/proc/$PID/comm" 2>/dev/null)" = iperf3 ]; then
		kill "$PID" 2>/dev/null
	fi
	exit 0
}

case $ACTION in
server) need_iperf3; server ;;
client) need_iperf3; client ;;
stop) stop ;;
*) echo "unknown action '$ACTION'" >&2; exit 2 ;;
esac
