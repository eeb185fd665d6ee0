/* What limited a measured flow, from both ends' TCP_INFO (remote/tcpinfo.h),
 * iperf3's figures and the path's known rate: iperf3_verify's diagnosis
 * (docs/verify.md, "Diagnosis").
 *
 * The limits, in the order they are tried (the first that holds wins):
 *   link_rate       the receiver got at least DIAG_LINK_SHARE of the
 *                   payload the path's known rate carries (goodput_share:
 *                   a 100 Mbit/s path carries 96.5 Mbit/s of a 1448-byte
 *                   MSS): nothing to fix;
 *   unknown         no sample of the sender's socket, or a kernel without
 *                   the chrono times (< 4.10): why says which;
 *   receive_window  the sender waited on the receiver's advertised window
 *                   (rwnd_limited) at least DIAG_LIMIT_SHARE of its busy
 *                   time, and more than on its buffer: the receiver's
 *                   net.ipv4.tcp_rmem;
 *                   or, for a paced sender that seldom hits the window,
 *                   each stream kept at least DIAG_WINDOW_FULL of the
 *                   receiver's largest window in flight, cwnd open and
 *                   the receiver's buffer at its tcp_rmem ceiling;
 *   send_buffer     the same for its own send buffer (sndbuf_limited), or
 *                   neither cwnd nor the receiver's window held it (both
 *                   at least DIAG_WINDOW_SLACK x rate x RTT) and its send
 *                   buffer was at most twice that: the sender's
 *                   net.ipv4.tcp_wmem. (The
 *                   kernel counts sndbuf_limited only while nothing unsent
 *                   is queued; on 6.18 a 64 KiB ceiling over 104 ms gave
 *                   19 Mbit/s, cwnd 496, and 5% sndbuf_limited);
 *   congestion      otherwise the congestion window held it, with loss: at
 *                   least DIAG_LOSS of the segments sent retransmitted
 *                   (the loss rate is named): the sender's
 *                   net.ipv4.tcp_congestion_control;
 *   application     the sender had data to send less than DIAG_BUSY_SHARE
 *                   of the run (neither window nor cwnd was the limit);
 *   unknown         cwnd-limited without loss below the path's rate, or
 *                   with no known rate to compare with.
 * Pure code. */
#ifndef TCPTUNE_VERIFY_DIAG_H
#define TCPTUNE_VERIFY_DIAG_H

#include <jansson.h>

#include "remote/iperf.h"

#define DIAG_LINK_SHARE		0.9
#define DIAG_LIMIT_SHARE	0.2
#define DIAG_LOSS		0.001
#define DIAG_BUSY_SHARE		0.5
/* A window is "open" when it is this many times what the flow kept in
 * flight (rate x RTT). Measured: a sender held by a 64 KiB send buffer
 * had a cwnd 1.98-2.7x its flight; one held by cwnd at a one-BDP queue,
 * 1.18x. */
#define DIAG_WINDOW_SLACK	1.5
/* A window is "full" when a stream kept this share of it in flight, and a
 * receive buffer at its ceiling when it reached this share of tcp_rmem's
 * maximum (verify-diag.c, receiver_window_full). */
#define DIAG_WINDOW_FULL	0.8
#define DIAG_BUFFER_CEILING	0.9
/* Many streams "reach the path" at this share of its payload rate: 16
 * reno streams at a one-BDP drop-tail queue fill it, losing 5% to each
 * other, and average 85-88%. */
#define DIAG_MANY_SHARE		0.8
/* Bytes of headers per segment the path's rate also carries: IPv4 20,
 * TCP 20, timestamps 12. */
#define DIAG_HEADERS		52

/* The share of a path's rate that is TCP payload at this MSS (<= 0: the
 * default, VERIFY_DEFAULT_MSS). */
double	 goodput_share(long long mss);

struct verify_diag_in {
	const char		*sender;	/* host names */
	const char		*receiver;
	const struct iperf_run	*run;
	const json_t		*sender_info;	/* tcpinfo_parse's, or NULL */
	const json_t		*receiver_info;
	double			 path_mbit;	/* <= 0: unknown */
};

/* {"limit", "host" (whose setting limits it, or null), "key", "value"
 * (that host's live value), "module" (the tcptune module that sets the
 * key), "dropin" (what that host's tcptune drop-in assigns it, or null),
 * "detail" (one sentence with the evidence), "evidence": {...}}. */
json_t	*verify_diagnose(const struct verify_diag_in *in);

/* The seeds' single-vs-many reading of one direction (up: this end
 * sending) where a single and a multi-stream run were both measured, or
 * NULL: {"verdict", "text", "single_mbps", "multi_mbps", "path_mbit",
 * "payload_mbit", "nic_mbit"}. verdict:
 *   per_flow_limit  many streams reach DIAG_MANY_SHARE of the path's
 *                   payload rate and one does not reach DIAG_LINK_SHARE,
 *                   or neither does but the
 *                   streams were each held by a window (the multi run's
 *                   diagnosis is receive_window or send_buffer): "per-flow
 *                   limit: TCP settings", naming the single run's key and
 *                   host;
 *   path_or_nic     neither reaches it, and no window held the streams:
 *                   "the path or the NIC, not TCP settings", with the NIC
 *                   speed the probe read (nic_mbit, <= 0 unknown);
 *   single_reaches  one stream reaches it already;
 *   unknown         no known path rate.
 * diagnosis is {kind: verify_diagnose's} of set's runs. */
json_t	*verify_reading(const struct iperf_set *set, const json_t *diagnosis,
	    int up, double path_mbit, double nic_mbit);

#endif
