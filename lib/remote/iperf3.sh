# tcptune iperf3: the one-shot server on the peer, the client on the host,
# and the server's end (lib/remote/iperf.c builds the calls and reads what
# they print; modules/mod-iperf3_verify.c runs them).
#
# Run as a remote program (lib/remote/prelude.sh), its header giving:
#   ACTION    server | client | stop | path
#   PORT      server: the first port to try; client: the server's port
#   TRIES     server: how many ports to try, PORT .. PORT + TRIES - 1
#   ADDRESS   client: the peer's traffic address; path: the other end's
#   DURATION  client: seconds measured (-t)
#   OMIT      client: seconds omitted first (-O)
#   PARALLEL  client: streams (-P when more than 1)
#   REVERSE   client: "1": the peer sends (-R --get-server-output)
#   LIMIT     client: seconds after which the client is killed
#   PID       stop: the server's pid
#   SAMPLE    server, client: "1": sample this end's TCP_INFO of the test's
#             sockets while it runs (ss -tinm, SAMPLE_EVERY s apart)
#   DROPIN    server, client: the drop-in tcptune manages here, whose
#             assignments of the limit keys are reported with the samples
#   INFO      stop: the server's sample file (the third word the server
#             printed), or empty
#   PINGS     path: the loss burst's pings, 0 = only the interface and its
#             drop counters (no ping, no MTU check)
#
# Output. server: "PID PORT" of the server that listens, with SAMPLE "PID
# PORT FILE", or a message on stderr and exit 1. client: iperf3's -J
# document; with SAMPLE then a line "@tcp_info" and this end's samples
# (below). stop: with INFO the server's samples, else nothing; exit 0.
# Without iperf3 (server, client): a message on stderr and exit 127.
# path: the checks of the path to ADDRESS (below), exit 0.
#
# Samples (lib/remote/tcpinfo.h reads them): "@samples N" (how many
# samples found a socket), "@sysctl KEY=VALUE" for the keys that limit a
# flow, "@dropin KEY=VALUE" for the drop-in's assignments of them, then the
# last sample that found a socket: ss's lines for each socket of the test
# (address line, then a tab-indented line of TCP_INFO), each socket's last
# sample, because busy, rwnd_limited and sndbuf_limited are totals since
# the socket opened.

# The path to ADDRESS, each line a fact (lib/remote/pathcheck.h reads
# them), every check bounded (ping -w):
#   @route DEV SRC        the interface the route uses, this end's address
#   @mtu N                DEV's MTU
#   @drops RX TX          DEV's rx_dropped and tx_dropped counters
#   @ping SENT RECEIVED   the loss burst (PINGS > 0)
#   @pmtu SIZE RESULT     a packet of SIZE bytes with DF (ping -M do):
#                         ok (an answer), lost (none), or local=N (this
#                         host already knows the path's MTU is N, from an
#                         ICMP "fragmentation needed"); DEV's MTU first,
#                         then, while lost, the MTUs paths commonly have
#                         below it (PPPoE 1492, GCP's VPC 1460, 1400,
#                         IPv6's minimum 1280); each probe 3 pings
#                         within 2 s (-w: any answer is a pass)
# Without ip(8) the route is unknown and only the pings run.
path() {
	dev=
	if have ip; then
		# shellcheck disable=SC2046 # two words, or none
		set -- $(ip -o route get "$ADDRESS" 2>/dev/null | awk '
		    { for (i = 1; i < NF; i++) {
			if ($i == "dev") d = $(i + 1)
			if ($i == "src") s = $(i + 1) } }
		    END { if (d != "") print d, (s != "" ? s : "-") }')
		[ $# -eq 2 ] && dev=$1 && echo "@route $1 $2"
	fi
	mtu=
	if [ -n "$dev" ] && [ -r "/sys/class/net/$dev/mtu" ]; then
		mtu=$(cat "/sys/class/net/$dev/mtu")
		echo "@mtu $mtu"
		d=/sys/class/net/$dev/statistics
		echo "@drops $(cat "$d/rx_dropped" 2>/dev/null || echo -)" \
		    "$(cat "$d/tx_dropped" 2>/dev/null || echo -)"
	fi
	[ "$PINGS" -gt 0 ] && have ping || return 0
	# 10 ms apart; where only root may ping that fast, 0.2 s (the
	# unprivileged minimum of older iputils). Not -w: with a deadline
	# ping sends on until COUNT answers came, and the pings still in
	# flight when it stops count as lost. -W 2: the last answers may take
	# 2 s; timeout(1) bounds the whole burst.
	t=
	have timeout && t="timeout $((PINGS / 5 + 5))"
	# shellcheck disable=SC2086 # t is words of digits
	out=$($t ping -n -q -c "$PINGS" -i 0.01 -W 2 "$ADDRESS" 2>&1)
	# shellcheck disable=SC2086
	case $out in
	*"packets transmitted"*) ;;
	*) out=$($t ping -n -q -c "$PINGS" -i 0.2 -W 2 "$ADDRESS" 2>&1) ;;
	esac
	echo "$out" | awk '/packets transmitted/ { print "@ping", $1, $4 }'
	# No answer at all: ICMP does not pass, the MTU cannot be told.
	case $out in *" 0 received"*|*" 0 packets received"*) return 0 ;; esac
	[ -n "$mtu" ] || return 0
	first=1
	for size in "$mtu" 1492 1460 1400 1280; do
		[ -n "$first" ] || [ "$size" -lt "$mtu" ] || continue
		first=
		r=$(ping -n -q -M "do" -s $((size - 28)) -c 3 -i 0.01 -w 2 \
		    "$ADDRESS" 2>&1)
		case $r in
		*"mtu="*)
			echo "@pmtu $size local=$(echo "$r" |
			    sed -n 's/.*mtu=\([0-9]*\).*/\1/p' | head -n 1)"
			return 0 ;;
		*" 0 received"*) echo "@pmtu $size lost" ;;
		*"packets transmitted"*) echo "@pmtu $size ok"; return 0 ;;
		*) return 0 ;;
		esac
	done
	return 0
}

need_iperf3() {
	have iperf3 || { echo 'iperf3 is not installed' >&2; exit 127; }
}

# Does something listen on TCP port $1? (ss -ltn's local address column.)
listening() {
	ss -ltn 2>/dev/null | awk -v p=":$1" 'NR > 1 &&
	    substr($4, length($4) - length(p) + 1) == p { f = 1 }
	    END { exit !f }'
}

SAMPLE_EVERY=0.25
LIMIT_KEYS='net.ipv4.tcp_rmem net.ipv4.tcp_wmem net.ipv4.tcp_congestion_control net.core.default_qdisc'

# The limit keys' live values and the drop-in's assignments of them.
limit_keys() {
	for k in $LIMIT_KEYS; do
		f=/proc/sys/$(echo "$k" | tr . /)
		[ -r "$ROOT$f" ] &&
		    echo "@sysctl $k=$(tr -s ' \t' '  ' <"$ROOT$f")"
		[ -n "$DROPIN" ] && [ -r "$ROOT$DROPIN" ] &&
		    awk -v k="$k" '{ sub(/#.*/, ""); l = $0; sub(/=.*/, "", l)
			gsub(/[ \t]/, "", l) }
			l == k { v = $0; sub(/^[^=]*=[ \t]*/, "", v)
			gsub(/[ \t]+/, " ", v); sub(/ $/, "", v); last = v }
			END { if (last != "") print "@dropin " k "=" last }' \
			"$ROOT$DROPIN"
	done
}

# Is PID running? A child that exited stays a zombie until waited for, and
# kill -0 still reaches it: /proc's state says (Linux; elsewhere kill -0).
alive() {
	kill -0 "$1" 2>/dev/null || return 1
	st=$(cat "/proc/$1/stat" 2>/dev/null) || return 0
	st=${st##*) }
	[ "${st%% *}" != Z ]
}

# The samples on stdin, oldest first, as one: each socket (its local and
# peer address) with its last line of TCP_INFO. Per socket, because the
# data connection closes before iperf3's control connection does: the last
# sample alone would miss it.
merge_sample() {
	awk '/^\t/ { if (k != "") info[k] = $0; next }
	    NF >= 4 { k = $3 " " $4; if (!(k in addr)) order[n++] = k
		addr[k] = $0 }
	    END { for (i = 0; i < n; i++)
		if (order[i] in info) print addr[order[i]] "\n" info[order[i]] }'
}

# sample_while PID FILTER: while PID lives, ss the established sockets
# FILTER selects every SAMPLE_EVERY s; then print the count, the keys and
# each socket's last sample.
sample_while() {
	n=0
	last=
	while alive "$1"; do
		s=$(ss -tinmH state established "$2" 2>/dev/null)
		if [ -n "$s" ]; then
			last=$(printf '%s\n%s\n' "$last" "$s" | merge_sample)
			n=$((n + 1))
		fi
		sleep "$SAMPLE_EVERY"
	done
	echo "@samples $n"
	limit_keys
	[ -n "$last" ] && printf '%s\n' "$last"
	return 0
}

# The first port from PORT on that is free (by ss, when there is ss) and
# that the server, started in the background, then listens on. Every
# descriptor of the server is redirected: the SSH channel closes as soon as
# this script exits, while the server waits for its one client (-1). Its -J
# output goes to the client through --get-server-output, so nothing is
# kept here. With SAMPLE a sampler runs beside it, into a file of its own
# (mktemp) that stop prints and removes; its last line "@end" says it is
# complete.
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
					listening "$p" && { started "$pid" "$p"; exit 0; }
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

# started PID PORT: the server's line, and its sampler when SAMPLE.
started() {
	if [ "$SAMPLE" != 1 ] || ! have ss ||
	    ! f=$(mktemp "${TMPDIR:-/tmp}/tcptune-tcpinfo.XXXXXXXX"); then
		echo "$1 $2"
		return
	fi
	{ sample_while "$1" "( sport = :$2 )"; echo @end; } \
	    </dev/null >"$f" 2>/dev/null &
	echo "$1 $2 $f"
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
	if [ "$SAMPLE" != 1 ] || ! have ss ||
	    ! out=$(mktemp "${TMPDIR:-/tmp}/tcptune-iperf3.XXXXXXXX"); then
		# shellcheck disable=SC2086 # t is words of digits and options
		exec $t iperf3 "$@" </dev/null
	fi
	# shellcheck disable=SC2086
	$t iperf3 "$@" </dev/null >"$out" &
	pid=$!
	samples=$(sample_while "$pid" "( dport = :$PORT )")
	wait "$pid"
	rc=$?
	cat "$out"
	rm -f "$out"
	printf '@tcp_info\n%s\n' "$samples"
	exit "$rc"
}

# The pid must still be our iperf3: after a clean one-shot run the server
# is gone and the pid may be reused.
# The sample file must be one this script made (its name, a regular file
# not a link); its sampler ends when the server does, within a second.
stop() {
	if [ "$(cat "/proc/$PID/comm" 2>/dev/null)" = iperf3 ]; then
		kill "$PID" 2>/dev/null
	fi
	case $INFO in
	"${TMPDIR:-/tmp}"/tcptune-tcpinfo.*) ;;
	*) exit 0 ;;
	esac
	[ -f "$INFO" ] && [ ! -L "$INFO" ] || exit 0
	i=0
	while [ "$i" -lt 20 ] && [ "$(tail -n 1 "$INFO")" != @end ]; do
		sleep 0.1
		i=$((i + 1))
	done
	sed '/^@end$/d' "$INFO"
	rm -f "$INFO"
	exit 0
}

case $ACTION in
server) need_iperf3; server ;;
client) need_iperf3; client ;;
stop) stop ;;
path) path ;;
*) echo "unknown action '$ACTION'" >&2; exit 2 ;;
esac
