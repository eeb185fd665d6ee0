/* The path checks of the verify step (docs/verify.md, "Path checks"):
 * what lib/remote/iperf3.sh's path action prints about the path to a peer,
 * read, and the pair's summary of both ends' checks. Pure code.
 *
 * The text, one fact a line (iperf3.sh states them): "@route DEV SRC",
 * "@mtu N", "@drops RX TX", "@ping SENT RECEIVED", "@pmtu SIZE RESULT"
 * (RESULT ok, lost or local=N), in that order; a line that is not one of
 * them is ignored, a fact that is missing stays unknown. */
#ifndef TCPTUNE_PATHCHECK_H
#define TCPTUNE_PATHCHECK_H

#include <jansson.h>

/* The host memo where iperf3_verify keeps, on both ends of each pair it
 * measured, the pair's path ({peer: path}), for tcp_buffers's
 * mtu_probing: auto. */
#define PATHCHECK_MEMO	"path_checks"

/* One end's check as JSON: {"interface", "source", "mtu", "rx_dropped",
 * "tx_dropped", "pings": {"sent", "received"}, "pmtu": [{"size",
 * "result", "local_mtu"}]}, a member absent when unknown. NULL for NULL
 * text. */
json_t	*pathcheck_parse(const char *text);

/* The MTU's verdict from a check's pmtu probes (the interface's MTU
 * first): {"state", "path_mtu", "detail"}, state one of
 *   ok           the interface's MTU passes with DF set
 *   blackhole    it gets no answer while a smaller size does: a hop with
 *                a smaller MTU drops the packet and its ICMP "fragmentation
 *                needed" does not come back; path_mtu is the largest size
 *                that passed (the sizes tried are a ladder, so at least it)
 *   frag_needed  the host already knew a smaller path MTU (an ICMP came
 *                back): the kernel handles it, not a blackhole
 *   unknown      nothing passed (ICMP filtered, or the path is down), or
 *                no check (detail says which)
 * A new reference. */
json_t	*pathcheck_mtu(const json_t *check);

/* The pair's "path" (docs/verify.md): from the client's check before the
 * runs (with pings), the loss and the MTU; from each end's counters
 * before and after the runs, the drops the runs saw on that end's
 * interface, per host name. An end's check may be NULL (its drops are
 * then absent). A new reference. */
json_t	*pathcheck_summary(const json_t *client_before,
	    const json_t *client_after, const char *client,
	    const json_t *server_before, const json_t *server_after,
	    const char *server);

/* One line for the table, without a newline: "loss 0/50 (0.0%); MTU 1500
 * ok; drops during the runs: lab01 wan0 rx 0 tx 0, lab02 wan0 rx 0 tx 0".
 * A new string. */
char	*pathcheck_text(const json_t *path);

/* The blackholes in a PATHCHECK_MEMO object: "to lab02: 1500 lost, 1460
 * passes" (several joined by "; "), a new string, or NULL for none. */
char	*pathcheck_blackholes(const json_t *by_peer);

#endif
