/* The before/after table of iperf3_verify and its gate.
 *
 * The table is plain text, one per host and peer, for a terminal (the
 * module puts it in res->data "table"; cmd/ prints it). Rows are the runs
 * that were measured (single/multi stream x up/down); columns are the
 * receiver's Mbit/s before and after, their ratio, the sender's
 * retransmits, the sender's mean smoothed RTT and congestion control:
 *
 *   lab01 -> lab02 (198.19.0.2): iperf3 -t 10 -O 2, multi = -P 4
 *     test          Mbit/s before     after    ratio  retransmits  ...
 *     single up               9.6      93.4     9.7x       0 -> 0  ...
 *
 * With only a baseline the table has one column per figure instead.
 *
 * The gate, for phase after:
 *   - min_gain (when > 0): after/before of one run (gain_kind, by default
 *     the single-stream upload, the figure the seeds headline) must be at
 *     least min_gain; at an end that measured that run only the other way
 *     (verify_gain_kind) the mirrored run instead; a run that was not
 *     measured in both phases either way fails it;
 *   - max_regression (when >= 0): every run measured in both phases must
 *     keep after >= before * (1 - max_regression);
 *   - the latency guard, max_rtt_increase (when set): every run measured
 *     in both phases must keep its loaded RTT (the sender's mean smoothed
 *     RTT while iperf3 loads the path) within before + N ms, or within
 *     before * R for a ratio; a guard that no run can answer fails;
 *   - max_retransmit_rate (when set): every run measured after must have
 *     retransmitted at most this fraction of the segments it sent
 *     (verify_retransmit_rate); a guard that no run can answer fails. */
#ifndef TCPTUNE_VERIFY_TABLE_H
#define TCPTUNE_VERIFY_TABLE_H

#include "remote/iperf.h"

struct verify_head {
	const char	*host;
	const char	*peer;
	const char	*address;
	int		 duration;
	int		 omit;
	int		 parallel;
};

enum verify_rtt_kind {
	VERIFY_RTT_NONE = 0,		/* not checked */
	VERIFY_RTT_MS,			/* after - before <= value ms */
	VERIFY_RTT_RATIO,		/* after / before <= value */
};

struct verify_gate {
	double		 min_gain;	/* <= 0: not checked */
	enum iperf_kind	 gain_kind;
	double		 max_regression; /* < 0: not checked */
	enum verify_rtt_kind rtt_kind;	/* max_rtt_increase */
	double		 rtt_value;
	int		 retr_guard;	/* max_retransmit_rate given */
	double		 max_retr_rate;	/* a fraction: 0.01 = 1% */
};

/* The MSS assumed when iperf3 does not report one (Ethernet's 1500 less
 * IP, TCP and timestamp headers). */
#define VERIFY_DEFAULT_MSS	1448

/* max_rtt_increase's value: milliseconds ("50", "50ms", "12.5 ms") or a
 * ratio of at least 1 ("1.5x"). 0, or -1 with *cause naming the key. */
int	 verify_rtt_limit_parse(const char *text, enum verify_rtt_kind *kind,
	    double *value, char **cause);

/* The fraction of the segments a run sent that were retransmitted:
 * retransmits / (sent Mbit/s * seconds / 8 / MSS), the MSS iperf3 reports
 * or VERIFY_DEFAULT_MSS. -1 when a figure is unknown. */
double	 verify_retransmit_rate(const struct iperf_run *r);

/* after/before of one run: -1 when either is missing, HUGE_VAL when the
 * baseline was 0 and after is not. */
double	 verify_ratio(const struct iperf_set *before,
	    const struct iperf_set *after, enum iperf_kind k);

/* The run min_gain checks for gain_on k at one end of a pair: k, or where
 * the pair ran k's streams only the other way (reverse: false runs the
 * client's up alone, which its server sees as down) the mirrored run, the
 * flow the pair did measure: a direction never run from this end is no
 * regression of it. */
enum iperf_kind verify_gain_kind(const struct iperf_set *before,
	    const struct iperf_set *after, enum iperf_kind k);

/* 1 if the gate passes, 0 if not; *why (allocated) says what failed,
 * "; "-separated, or on a pass what was checked. */
int	 verify_gate_check(const struct iperf_set *before,
	    const struct iperf_set *after, const struct verify_gate *g,
	    char **why);

/* The table's "limited by" cell of a diagnosis (modules/verify-diag.h):
 * "receive_window lab02", "link_rate", "-" for NULL. Written into buf. */
const char *verify_diag_cell(const json_t *diag, char *buf, size_t len);

/* The table; after may be NULL (baseline only); diagnosis (may be NULL)
 * is {kind: verify_diagnose's} of the runs measured last (after, or the
 * baseline), its "limited by" column; footer (may be NULL) is added as a
 * last line. Allocated, ends with a newline. */
char	*verify_table(const struct verify_head *h,
	    const struct iperf_set *before, const struct iperf_set *after,
	    const json_t *diagnosis, const char *footer);

/* One line: "single up 9.6 -> 93.4 Mbit/s (9.7x), multi up ...", or with
 * after NULL "single up 9.6 Mbit/s, ...". Allocated. */
char	*verify_summary(const struct iperf_set *before,
	    const struct iperf_set *after);

#endif
