/* iperf3: command lines for a one-shot server and a client, and the
 * figures read from a client's `iperf3 -J` output.
 *
 * A measurement is one client run against a fresh one-shot server on the
 * peer (`iperf3 -s -1`). "up" is the host sending to its peer; "down" is the
 * peer sending to the host (-R). Where each figure lives in iperf3 3.12's
 * JSON (the client's document):
 *
 *   throughput   end.sum_received.bits_per_second: what the receiver got
 *                (the headline figure, like iperf3's "receiver" line), and
 *                end.sum_sent.bits_per_second for the sender; both exclude
 *                the -O omitted seconds.
 *   retransmits  the sender's: end.sum_sent.retransmits. With -R the sender
 *                is the server: its own document is in server_output_json
 *                (only with --get-server-output and a server run with -J);
 *                the client's end.sum_sent.retransmits also carries the
 *                server's count in 3.12, used when there is no server JSON.
 *   RTT          the sender's smoothed RTT in microseconds,
 *                end.streams[].sender.{mean_rtt,min_rtt,max_rtt}; with -R
 *                it is only in server_output_json (the client's copy has 0).
 *                Several streams: the mean of the means, the smallest min
 *                and the largest max.
 *   congestion   end.sender_tcp_congestion (with -R: the server's).
 *   MSS          start.tcp_mss_default (with -R: the server's), for the
 *                retransmit rate (retransmits per segment sent).
 *   errors       a top-level "error" string (iperf3 still prints JSON, and
 *                exits 1).
 *
 * The remote calls run lib/remote/iperf3.sh (built by remote_call, every
 * value through shquote_add). */
#ifndef TCPTUNE_IPERF_H
#define TCPTUNE_IPERF_H

#include <jansson.h>
#include <stddef.h>

#include "remote/remote-cmd.h"

/* The four runs of a phase, in table order. */
enum iperf_kind {
	IPERF_SINGLE_UP = 0,
	IPERF_SINGLE_DOWN,
	IPERF_MULTI_UP,
	IPERF_MULTI_DOWN,
	IPERF_NKINDS
};

/* One run's figures. Unknown numbers are negative. */
struct iperf_run {
	double		 mbps;		/* receiver's Mbit/s */
	double		 sent_mbps;	/* sender's Mbit/s */
	double		 seconds;	/* measured seconds (after -O) */
	long long	 retransmits;	/* sender's, -1 unknown */
	double		 rtt_mean_ms;	/* sender's smoothed RTT */
	double		 rtt_min_ms;
	double		 rtt_max_ms;
	int		 streams;
	int		 reverse;	/* -R: the peer sent */
	int		 mss;		/* sender's start.tcp_mss_default,
					 * -1 unknown */
	char		 congestion[32]; /* sender's algorithm, "" unknown */
};

/* A phase: which kinds were measured, and their figures. */
struct iperf_set {
	int		 have[IPERF_NKINDS];
	struct iperf_run run[IPERF_NKINDS];
};

struct iperf_client_opts {
	const char	*address;	/* the peer's traffic address */
	int		 port;
	int		 duration;	/* -t */
	int		 omit;		/* -O */
	int		 parallel;	/* -P, 1 = single stream */
	int		 reverse;	/* -R --get-server-output */
	int		 sample;	/* sample this end's TCP_INFO */
	const char	*dropin;	/* reported with the samples, or NULL */
};

/* The most streams a run has (iperf3's own -P limit), and the largest
 * count (retransmits) taken from its JSON: beyond, the output is refused. */
#define IPERF_MAX_STREAMS	128
#define IPERF_MAX_COUNT		(1LL << 53)

/* Exit status of the remote commands when iperf3 is missing. */
#define IPERF_EXIT_MISSING	127
/* Ports tried by the server command: port .. port + IPERF_PORT_TRIES - 1. */
#define IPERF_PORT_TRIES	10

/* "single_up", "single_down", "multi_up", "multi_down". */
const char	*iperf_kind_name(enum iperf_kind k);
/* "single up", ... for tables and messages. */
const char	*iperf_kind_label(enum iperf_kind k);
int		 iperf_kind_from_name(const char *name);	/* -1 unknown */
int		 iperf_kind_reverse(enum iperf_kind k);
int		 iperf_kind_multi(enum iperf_kind k);
/* The same streams the other way: single_up <-> single_down, multi_up <->
 * multi_down. */
enum iperf_kind	 iperf_kind_mirror(enum iperf_kind k);
/* A pair's set as its other end sees it: that end's up is this one's
 * down (the server's view of the client's runs). */
void		 iperf_set_mirror(struct iperf_set *s);

/* The client call (run on the host): prints the client's -J document on
 * stdout; bounded by `timeout -s KILL` at duration + omit + 30 s. */
void	 iperf_client_call(const struct iperf_client_opts *o,
	    struct remote_call *call);
/* The server call (run on the peer): finds a free port from port on
 * (ss -ltn, then the server must still be alive and listening), starts
 * `iperf3 -s -1 -J -p P` in the background with all three descriptors
 * redirected (so the SSH exec returns at once), and prints "PID PORT";
 * with sample, its TCP_INFO sampler too, and "PID PORT FILE". */
void	 iperf_server_call(int port, int sample, const char *dropin,
	    struct remote_call *call);
/* Parse the server call's output; *info (allocated, NULL without a
 * sampler) is the sample file. */
int	 iperf_server_parse(const char *out, long *pid, int *port,
	    char **info, char **cause);
/* Kill the server by pid, only if that pid is still an iperf3, and with
 * info (may be NULL) print the server's samples and remove their file. */
void	 iperf_kill_call(long pid, const char *info,
	    struct remote_call *call);
/* The checks of the path to address (lib/remote/pathcheck.h reads what
 * it prints): the route's interface, its MTU and drop counters, and with
 * pings > 0 a loss burst of that many pings and the path MTU check. */
void	 iperf_path_call(const char *address, int pings,
	    struct remote_call *call);
/* A sampled client's output is iperf3's document, a line "@tcp_info" and
 * the client's samples: the document's length, and *info (pointing into
 * out, NUL-terminated as out is) at the samples, or NULL. */
size_t	 iperf_client_split(const char *out, size_t len, const char **info);

/* Parse a client's -J document. -1 with *cause on unreadable JSON or an
 * iperf3 error (the error text is in the message). */
int	 iperf_parse(const char *text, size_t len, struct iperf_run *run,
	    char **cause);

/* JSON forms (for res->data and the baseline kept in the host's memo). */
json_t	*iperf_run_json(const struct iperf_run *r);
int	 iperf_run_from_json(const json_t *j, struct iperf_run *r);
json_t	*iperf_set_json(const struct iperf_set *s);
int	 iperf_set_from_json(const json_t *j, struct iperf_set *s);

#endif
