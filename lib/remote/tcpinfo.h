/* TCP_INFO of a test's sockets, as lib/remote/iperf3.sh samples them with
 * `ss -tinmH` on each end while iperf3 runs.
 *
 * The text (iperf3.sh's "Samples"): "@samples N", "@sysctl KEY=VALUE" and
 * "@dropin KEY=VALUE" lines, then ss's last sample: per socket an address
 * line and a tab-indented line of fields, of which these are read (kernel
 * >= 4.10 for the chrono times; a field the kernel or ss lacks is absent):
 *
 *   cc name (bare word)  cwnd:N ssthresh:N mss:N pmtu:N rtt:MEAN/VAR (ms)
 *   minrtt:MS  snd_wnd:N (the peer's advertised window, bytes; iproute2
 *   >= 5.x)  rcv_space:N rcv_ssthresh:N  bytes_acked:N bytes_received:N
 *   bytes_retrans:N  retrans:CUR/TOTAL  data_segs_out:N  lost:N
 *   busy:MSms  rwnd_limited:MSms(P%)  sndbuf_limited:MSms(P%)
 *   delivery_rate Nbps  pacing_rate Nbps  app_limited
 *   skmem:(r..,rbN,t..,tbN,...): the receive and send buffer sizes
 *
 * busy is the time the socket had data to send (the kernel's busy +
 * rwnd_limited + sndbuf_limited chrono times), so the time it was limited
 * by the congestion window (or the application) is busy - rwnd_limited -
 * sndbuf_limited. Pure code. */
#ifndef TCPTUNE_TCPINFO_H
#define TCPTUNE_TCPINFO_H

#include <jansson.h>

/* One end's samples as JSON: {"samples": N, "sysctl": {KEY: VALUE},
 * "dropin": {KEY: VALUE}, "sockets": [{"local", "peer", "cc", FIELD: N,
 * ..., "app_limited": bool}]}, each FIELD named as in ss (rtt_ms and
 * minrtt_ms in milliseconds, the rates in bit/s, rb and tb from skmem).
 * NULL for NULL text or text with no "@samples" line. */
json_t	*tcpinfo_parse(const char *text);

/* One flow (a test's data sockets, summed) as one end saw it. */
struct tcpinfo_flow {
	int		 sockets;	/* data sockets found; 0: none */
	long long	 bytes;		/* bytes_acked (sender) or
					 * bytes_received (receiver) */
	long long	 busy_ms;	/* -1 unknown (no chrono times) */
	long long	 rwnd_limited_ms;
	long long	 sndbuf_limited_ms;
	long long	 retrans;	/* total retransmitted segments */
	long long	 data_segs_out;
	long long	 cwnd;		/* largest of the sockets, segments */
	long long	 mss;
	long long	 snd_wnd;	/* largest, bytes; -1 unknown */
	long long	 rcv_space;	/* largest, bytes; -1 unknown */
	long long	 rcv_ssthresh;	/* largest: the window this end would
					 * advertise at most, bytes */
	long long	 rb, tb;	/* largest skmem buffers; -1 unknown */
	double		 rtt_ms;	/* mean of the sockets; -1 unknown */
	char		 cc[16];
};

/* The flow of end (tcpinfo_parse's JSON) as its sender (sender 1: by
 * bytes_acked) or receiver (by bytes_received): the sockets that moved at
 * least a tenth of the busiest one's bytes (which leaves iperf3's control
 * connection out), summed. 0, or -1 when end is NULL or has no socket. */
int	 tcpinfo_flow(const json_t *end, int sender, struct tcpinfo_flow *f);

#endif
