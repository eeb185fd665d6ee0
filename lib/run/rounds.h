/* Pairs of hosts measured against each other, scheduled in rounds.
 *
 * Pure: hosts are indexes 0..nhosts-1 (the caller's order, the inventory's
 * for the runner), groups are small integers; no I/O, no clock.
 *
 * The pair set. A host "wants" each of its peers. A pair is unordered:
 * {a, b} is measured once, with both directions (the client sends "up",
 * the server "down", -R), whether a lists b, b lists a, or both. Its
 * client is the host that listed the other; when both did, the one first
 * in the caller's order. So a pair's before and after run the same way.
 *
 * Sampling (verify_sample: N). Pairs are counted per unordered group pair
 * {group of a, group of b}; at most N of each are kept. Which: the
 * candidates in a fixed pseudo-random order (a hash of the two indexes),
 * each time the one whose busier end has the fewest pairs kept so far, so
 * the load spreads over the group's hosts and the rounds stay few.
 *
 * Rounds. A round is a matching: no host in two pairs of it, so every
 * pair of a round can run at once. The number of rounds is at least
 * Delta, the most pairs any host has, and at least ceil(E / floor(V/2))
 * (a round holds at most floor(V/2) pairs of V hosts): min_rounds. The
 * schedule is an edge colouring:
 *   - every pair of V hosts present (a complete graph): the round-robin
 *     tournament (circle method), V-1 rounds for even V, V for odd V:
 *     both the minimum;
 *   - else Misra and Gries' colouring with Delta+1 colours (always
 *     succeeds), then the last colour is emptied where Kempe-chain swaps
 *     allow, giving Delta rounds; on a bipartite pair graph (hosts of one
 *     region against another's) this always succeeds (Koenig).
 * So rounds <= Delta + 1 always, and rounds == Delta on complete graphs of
 * even size and on bipartite graphs. */
#ifndef TCPTUNE_ROUNDS_H
#define TCPTUNE_ROUNDS_H

#include <stddef.h>

struct pair_edge {
	size_t		 client;	/* the host that runs iperf3 -c */
	size_t		 server;	/* its peer (iperf3 -s) */
	size_t		 round;		/* 0-based, after pair_rounds */
};

struct pair_plan {
	struct pair_edge *pairs;	/* sorted by round, then client */
	size_t		  npairs;
	size_t		  nrounds;
	size_t		  max_pairs;	/* Delta: most pairs of one host */
	size_t		  min_rounds;	/* the lower bound above */
};

/* A host's wish to be measured against a peer. */
struct pair_want {
	size_t		 host;
	size_t		 peer;
};

/* The pair set from the wants (host == peer is ignored), deduplicated, in
 * (client, server) order; then, when sample > 0, at most sample pairs per
 * unordered group pair (group[i]: host i's group; NULL: one group); then
 * the rounds. nhosts bounds every index. Never fails (allocation aborts). */
void	 pair_plan_build(struct pair_plan *p, size_t nhosts,
	    const struct pair_want *wants, size_t nwants, const int *group,
	    size_t sample);
void	 pair_plan_free(struct pair_plan *p);

/* The rounds alone, over pairs already in p->pairs (sets round, sorts,
 * fills nrounds, max_pairs and min_rounds). */
void	 pair_rounds(struct pair_plan *p, size_t nhosts);

/* Wall time of the plan when each pair takes pair_seconds and at most
 * forks pairs run at once: a round of k pairs takes ceil(k / forks)
 * times pair_seconds. */
double	 pair_plan_seconds(const struct pair_plan *p, double pair_seconds,
	    size_t forks);
/* The same for the rounds first..end-1 alone. */
double	 pair_plan_seconds_of(const struct pair_plan *p, size_t first,
	    size_t end, double pair_seconds, size_t forks);
/* What is left after the first rounds_done rounds took elapsed seconds:
 * the plan's seconds for the rounds left, times elapsed over the plan's
 * seconds for the rounds done, so that the pace so far carries on (a lab
 * whose pairs end sooner than their estimate gets a shorter one); the
 * plan's own seconds when nothing ran yet. 0 after the last round. */
double	 pair_plan_seconds_left(const struct pair_plan *p,
	    size_t rounds_done, double elapsed, double pair_seconds,
	    size_t forks);

#endif
