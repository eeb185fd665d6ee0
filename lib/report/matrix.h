/* The path matrix: iperf3_verify's pair results aggregated group x group.
 *
 * A pair is a host that ran the test and its peer. Its src group is the
 * host's group, its dst group the peer's; "up" runs are src sending, "down"
 * (-R) dst sending, as in the per-pair tables. Per cell (src group, dst
 * group) and run kind (single/multi x up/down), per phase (before, after):
 * the median and the minimum of the pairs' receiver Mbit/s, the median of
 * their mean smoothed RTT, the sum of their retransmits, and how many pairs
 * were measured.
 *
 * The groups (matrix-groups.c) are matrix_groups when given, else the
 * inventory groups that partition the measured hosts (docs/verify.md, "The
 * path matrix"). Everything here is pure: the renderers (matrix-text.c,
 * matrix-html.c, matrix-prom.c) return text; writing files is the caller's
 * (base/atomicfile.h). */
#ifndef TCPTUNE_MATRIX_H
#define TCPTUNE_MATRIX_H

#include <jansson.h>
#include <stddef.h>

#include "remote/iperf.h"

enum matrix_phase { MATRIX_BEFORE = 0, MATRIX_AFTER, MATRIX_NPHASES };

/* One measured pair, read from an iperf3_verify result. */
/* What limited a run (its diagnosis, docs/verify.md) and at which end:
 * "receive_window dst", "link_rate"; "" when not diagnosed. */
#define MATRIX_LIMIT_LEN	40

struct matrix_pair {
	char			*host;		/* ran the test: src */
	char			*peer;		/* dst */
	int			 have[MATRIX_NPHASES];
	struct iperf_set	 set[MATRIX_NPHASES];
	char			 limit[IPERF_NKINDS][MATRIX_NPHASES]
				      [MATRIX_LIMIT_LEN];
};

struct matrix_input {
	struct matrix_pair	*pairs;
	size_t			 n;
};

/* Which group each measured host is in. rule says where the groups came
 * from: "matrix_groups", "inventory" (the partition) or "all" (nothing
 * partitions the hosts: one group named all). */
struct matrix_groups {
	char		**names;	/* matrix order */
	size_t		  n;
	json_t		 *host_group;	/* host name -> index in names */
	const char	 *rule;
};

/* A phase's figures over the pairs of one cell and kind; n == 0: none. */
struct matrix_stat {
	size_t		 n;
	double		 mbps_median;
	double		 mbps_min;
	double		 rtt_ms_median;	/* < 0: no pair had an RTT */
	long long	 retransmits;	/* sum; < 0: no pair had a count */
	char		 limited_by[MATRIX_LIMIT_LEN]; /* the pairs' most
					 * frequent limit ("" none) */
	size_t		 limited_n;	/* pairs it limited */
};

struct matrix_cell {
	size_t			 src, dst;	/* indexes in groups->names */
	size_t			 npairs;
	struct matrix_stat	 run[IPERF_NKINDS][MATRIX_NPHASES];
};

/* Per host that ran tests: the median over its pairs of the headline
 * kind's Mbit/s per phase (< 0: not measured), for the bar chart. */
struct matrix_host {
	const char	*name;		/* borrowed from the input */
	size_t		 group;
	double		 mbps[MATRIX_NPHASES];
};

struct matrix {
	const struct matrix_groups *groups;	/* borrowed */
	struct matrix_cell	*cells;		/* measured group pairs only,
						   src then dst in group order */
	size_t			 ncells;
	struct matrix_host	*hosts;		/* input order */
	size_t			 nhosts;
	size_t			 npairs;	/* pairs in some cell */
	size_t			 unassigned;	/* pairs with a host in no
						   group (matrix_groups) */
	enum iperf_kind		 headline;	/* single up, else the first
						   kind measured */
	int			 have[MATRIX_NPHASES];
};

void	matrix_input_init(struct matrix_input *in);
void	matrix_input_release(struct matrix_input *in);
/* Add the pairs of one iperf3_verify result (its data: "pairs" with
 * "peer", "before", "after"), host being the host that ran it. A later
 * result for the same host and peer replaces an earlier one, so a play's
 * baseline task and its after task count once. -1 and *cause on data
 * that is not that shape (nothing is added then). */
int	matrix_input_add(struct matrix_input *in, const char *host,
	    const json_t *data, char **cause);

void	matrix_groups_init(struct matrix_groups *g, const char *rule);
void	matrix_groups_release(struct matrix_groups *g);
/* Put host in group (added at the end if new); a host already placed
 * stays where it is. Returns the group's index. */
size_t	matrix_groups_place(struct matrix_groups *g, const char *group,
	    const char *host);
/* The host's group index, or -1. */
int	matrix_groups_of(const struct matrix_groups *g, const char *host);

/* Aggregate. m borrows g and in: keep both until matrix_release. */
void	matrix_build(struct matrix *m, const struct matrix_input *in,
	    const struct matrix_groups *g);
void	matrix_release(struct matrix *m);

/* The cell of src -> dst, or NULL when no pair was measured there. */
const struct matrix_cell *matrix_cell(const struct matrix *m, size_t src,
	    size_t dst);

/* Renderers (allocated text). */
json_t	*matrix_json(const struct matrix *m);
char	*matrix_text(const struct matrix *m);

#endif
