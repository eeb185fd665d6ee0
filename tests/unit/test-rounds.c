/* rounds: the pair set of iperf3_verify, sampling and the rounds (edge
 * colouring): every wanted pair exactly once, no host twice in a round, and
 * the number of rounds against its bounds on complete graphs, bipartite
 * region graphs, stars and random graphs. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "run/rounds.h"

#define MAXH	64

/* The plan is a schedule of exactly the unordered pairs in want[][]: each
 * once, rounds sorted and numbered without gaps, a matching each. */
static void
check_plan(const struct pair_plan *p, size_t nhosts,
    int want[MAXH][MAXH])
{
	int	 seen[MAXH][MAXH];
	size_t	 i, a, b, expect = 0, deg[MAXH], delta = 0;
	size_t	 busy[MAXH];

	memset(seen, 0, sizeof seen);
	memset(deg, 0, sizeof deg);
	for (i = 0; i < MAXH; i++)
		busy[i] = (size_t)-1;
	for (i = 0; i < p->npairs; i++) {
		const struct pair_edge *e = &p->pairs[i];

		assert_true(e->client < nhosts && e->server < nhosts);
		assert_true(e->client != e->server);
		assert_true(e->round < p->nrounds);
		if (i > 0)
			assert_true(p->pairs[i - 1].round <= e->round);
		a = e->client < e->server ? e->client : e->server;
		b = e->client < e->server ? e->server : e->client;
		assert_int_equal(seen[a][b], 0);	/* exactly once */
		seen[a][b] = 1;
		assert_true(want[a][b] || want[b][a]);
		/* no host twice in a round */
		assert_true(busy[e->client] != e->round);
		assert_true(busy[e->server] != e->round);
		busy[e->client] = e->round;
		busy[e->server] = e->round;
		deg[a]++;
		deg[b]++;
	}
	for (a = 0; a < nhosts; a++) {
		for (b = a + 1; b < nhosts; b++)
			expect += want[a][b] || want[b][a];
		if (deg[a] > delta)
			delta = deg[a];
	}
	assert_int_equal(p->npairs, expect);
	assert_int_equal(p->max_pairs, delta);
	/* every round number is used */
	for (i = 0; i < p->nrounds && p->npairs > 0; i++) {
		size_t j;
		int found = 0;

		for (j = 0; j < p->npairs; j++)
			found |= p->pairs[j].round == i;
		assert_true(found);
	}
	assert_true(p->nrounds >= p->min_rounds);
	assert_true(p->nrounds <= delta + 1);
}

/* Plan the wants of want[][] (host a wants b), no sampling. */
static void
plan_matrix(struct pair_plan *p, size_t nhosts, int want[MAXH][MAXH])
{
	struct pair_want	 w[MAXH * MAXH];
	size_t			 n = 0, a, b;

	for (a = 0; a < nhosts; a++) {
		for (b = 0; b < nhosts; b++) {
			if (want[a][b]) {
				w[n].host = a;
				w[n].peer = b;
				n++;
			}
		}
	}
	pair_plan_build(p, nhosts, w, n, NULL, 0);
}

/* want[][] symmetric: a wants b and b wants a. */
static void
both(int want[MAXH][MAXH], size_t a, size_t b)
{
	want[a][b] = want[b][a] = 1;
}

static void
complete_graphs(void **state)
{
	static int		want[MAXH][MAXH];
	struct pair_plan	p;
	size_t			n, a, b;

	(void)state;
	for (n = 2; n <= 24; n++) {
		memset(want, 0, sizeof want);
		for (a = 0; a < n; a++)
			for (b = a + 1; b < n; b++)
				both(want, a, b);
		plan_matrix(&p, n, want);
		check_plan(&p, n, want);
		/* the round-robin tournament: optimal */
		assert_int_equal(p.nrounds, n % 2 == 0 ? n - 1 : n);
		assert_int_equal(p.nrounds, p.min_rounds);
		pair_plan_free(&p);
	}
}

/* Hosts in regions of size per (region = host / per): every host wants
 * every host of another region (the cross-region paths only). */
static void
regions(size_t nreg, size_t per, int want[MAXH][MAXH])
{
	size_t a, b;

	memset(want, 0, sizeof(int) * MAXH * MAXH);
	for (a = 0; a < nreg * per; a++)
		for (b = 0; b < nreg * per; b++)
			if (a / per != b / per)
				want[a][b] = 1;
}

static void
bipartite_regions(void **state)
{
	static int		want[MAXH][MAXH];
	struct pair_plan	p;
	size_t			x, y, a, b;

	(void)state;
	/* two regions, every cross pair: K(x,y) needs max(x,y) rounds */
	for (x = 1; x <= 6; x++) {
		for (y = 1; y <= 6; y++) {
			memset(want, 0, sizeof want);
			for (a = 0; a < x; a++)
				for (b = 0; b < y; b++)
					want[a][x + b] = 1;
			plan_matrix(&p, x + y, want);
			check_plan(&p, x + y, want);
			assert_int_equal(p.nrounds, x > y ? x : y);
			pair_plan_free(&p);
		}
	}
	/* a bipartite graph that is not complete: each host of region A
	 * wants three of region B's, shifted (a 3-regular ring) */
	memset(want, 0, sizeof want);
	for (a = 0; a < 10; a++)
		for (b = 0; b < 3; b++)
			want[a][10 + (a + b) % 10] = 1;
	plan_matrix(&p, 20, want);
	check_plan(&p, 20, want);
	assert_int_equal(p.nrounds, 3);
	pair_plan_free(&p);
}

static void
multi_region_lab(void **state)
{
	static int		want[MAXH][MAXH];
	struct pair_plan	p;
	size_t			nreg, per;

	(void)state;
	/* cross-region pairs only, 2..4 regions of 2..3 hosts: within
	 * Delta + 1, and Delta wherever that is possible */
	for (nreg = 2; nreg <= 4; nreg++) {
		for (per = 2; per <= 3; per++) {
			regions(nreg, per, want);
			plan_matrix(&p, nreg * per, want);
			check_plan(&p, nreg * per, want);
			if (p.min_rounds == p.max_pairs && nreg * per % 2 == 0)
				assert_int_equal(p.nrounds, p.max_pairs);
			pair_plan_free(&p);
		}
	}
	/* The multi-region lab (tests/lab/regions.sh): eu 3, uk 2, ca 3,
	 * asia 2 hosts, each peering with the other regions' hosts: 37
	 * pairs, Delta 8, 5 pairs a round at most: 8 rounds, the minimum */
	{
		static const size_t reg[10] = { 0, 0, 0, 1, 1, 2, 2, 2, 3, 3 };
		size_t a, b;

		memset(want, 0, sizeof want);
		for (a = 0; a < 10; a++)
			for (b = 0; b < 10; b++)
				want[a][b] = reg[a] != reg[b];
		plan_matrix(&p, 10, want);
		check_plan(&p, 10, want);
		assert_int_equal(p.npairs, 37);
		assert_int_equal(p.max_pairs, 8);
		assert_int_equal(p.min_rounds, 8);
		assert_int_equal(p.nrounds, 8);
		pair_plan_free(&p);
	}
	/* 4 regions of 2 hosts: Delta = 6, 24 pairs, 4 a round */
	regions(4, 2, want);
	plan_matrix(&p, 8, want);
	assert_int_equal(p.npairs, 24);
	assert_int_equal(p.max_pairs, 6);
	assert_int_equal(p.nrounds, 6);
	pair_plan_free(&p);
}

static void
stars(void **state)
{
	static int		want[MAXH][MAXH];
	struct pair_plan	p;
	size_t			n, b;

	(void)state;
	for (n = 1; n <= 30; n++) {
		memset(want, 0, sizeof want);
		for (b = 1; b <= n; b++)
			want[0][b] = 1;
		plan_matrix(&p, n + 1, want);
		check_plan(&p, n + 1, want);
		/* the hub is in every pair: one pair a round */
		assert_int_equal(p.nrounds, n);
		pair_plan_free(&p);
	}
}

static void
random_graphs(void **state)
{
	static int		want[MAXH][MAXH];
	struct pair_plan	p;
	unsigned		seed = 12345;
	size_t			t, n, a, b, at_delta = 0;

	(void)state;
	for (t = 0; t < 300; t++) {
		memset(want, 0, sizeof want);
		n = 2 + t % 40;
		for (a = 0; a < n; a++) {
			for (b = 0; b < n; b++) {
				seed = seed * 1103515245u + 12345u;
				if (a != b && (seed >> 16) % 100 < 30)
					want[a][b] = 1;
			}
		}
		plan_matrix(&p, n, want);
		check_plan(&p, n, want);
		at_delta += p.nrounds == p.max_pairs;
		pair_plan_free(&p);
	}
	/* the Kempe pass brings most of them down to Delta */
	assert_true(at_delta > 200);
}

static void
dedup_and_client(void **state)
{
	struct pair_plan	p;
	struct pair_want	w[] = {
		{ 1, 0 },	/* only 1 lists 0: 1 is the client */
		{ 2, 3 }, { 3, 2 },	/* both: the first, 2 */
		{ 4, 4 },	/* itself: ignored */
		{ 5, 6 }, { 5, 6 },	/* twice: once */
		{ 7, 99 },	/* out of range: ignored */
	};

	(void)state;
	pair_plan_build(&p, 8, w, sizeof w / sizeof w[0], NULL, 0);
	assert_int_equal(p.npairs, 3);
	assert_int_equal(p.nrounds, 1);
	assert_int_equal(p.pairs[0].client, 1);
	assert_int_equal(p.pairs[0].server, 0);
	assert_int_equal(p.pairs[1].client, 2);
	assert_int_equal(p.pairs[1].server, 3);
	assert_int_equal(p.pairs[2].client, 5);
	assert_int_equal(p.pairs[2].server, 6);
	pair_plan_free(&p);

	pair_plan_build(&p, 8, NULL, 0, NULL, 0);
	assert_int_equal(p.npairs, 0);
	assert_int_equal(p.nrounds, 0);
	pair_plan_free(&p);
}

static void
sampling(void **state)
{
	static int		want[MAXH][MAXH];
	struct pair_want	w[MAXH * MAXH];
	struct pair_plan	p, q;
	int			group[MAXH], count[4][4];
	size_t			n = 0, a, b, i, deg[MAXH];

	(void)state;
	/* 3 regions of 4 hosts, every pair wanted both ways */
	for (a = 0; a < 12; a++) {
		group[a] = (int)(a / 4);
		for (b = 0; b < 12; b++) {
			if (a == b)
				continue;
			w[n].host = a;
			w[n].peer = b;
			n++;
		}
	}
	pair_plan_build(&p, 12, w, n, group, 2);
	/* 6 group pairs ({0,0} {0,1} {0,2} {1,1} {1,2} {2,2}), 2 each */
	assert_int_equal(p.npairs, 12);
	memset(count, 0, sizeof count);
	memset(deg, 0, sizeof deg);
	memset(want, 0, sizeof want);
	for (i = 0; i < p.npairs; i++) {
		int ga = group[p.pairs[i].client], gb = group[p.pairs[i].server];

		count[ga < gb ? ga : gb][ga < gb ? gb : ga]++;
		deg[p.pairs[i].client]++;
		deg[p.pairs[i].server]++;
		both(want, p.pairs[i].client, p.pairs[i].server);
	}
	check_plan(&p, 12, want);
	for (a = 0; a < 3; a++)
		for (b = a; b < 3; b++)
			assert_int_equal(count[a][b], 2);
	/* spread: 24 ends over 12 hosts, none with more than 3 */
	for (a = 0; a < 12; a++)
		assert_true(deg[a] <= 3);
	/* deterministic */
	pair_plan_build(&q, 12, w, n, group, 2);
	assert_int_equal(q.npairs, p.npairs);
	for (i = 0; i < p.npairs; i++) {
		assert_int_equal(q.pairs[i].client, p.pairs[i].client);
		assert_int_equal(q.pairs[i].server, p.pairs[i].server);
		assert_int_equal(q.pairs[i].round, p.pairs[i].round);
	}
	pair_plan_free(&q);
	pair_plan_free(&p);
	/* N larger than a group pair keeps all of it */
	pair_plan_build(&p, 12, w, n, group, 100);
	assert_int_equal(p.npairs, 66);
	pair_plan_free(&p);
}

static void
wall_time(void **state)
{
	static int		want[MAXH][MAXH];
	struct pair_plan	p;
	size_t			a, b;

	(void)state;
	memset(want, 0, sizeof want);
	for (a = 0; a < 8; a++)
		for (b = a + 1; b < 8; b++)
			both(want, a, b);
	plan_matrix(&p, 8, want);
	/* 7 rounds of 4 pairs */
	assert_true(pair_plan_seconds(&p, 10, 50) == 70);
	assert_true(pair_plan_seconds(&p, 10, 4) == 70);
	assert_true(pair_plan_seconds(&p, 10, 2) == 140);
	assert_true(pair_plan_seconds(&p, 10, 1) == 280);
	/* after 3 rounds (30 s planned at 4 forks) that took 15 s: the
	 * other 4 at that pace */
	assert_true(pair_plan_seconds_of(&p, 3, 7, 10, 4) == 40);
	assert_true(pair_plan_seconds_left(&p, 3, 15, 10, 4) == 20);
	assert_true(pair_plan_seconds_left(&p, 3, 60, 10, 4) == 80);
	assert_true(pair_plan_seconds_left(&p, 0, 0, 10, 4) == 70);
	assert_true(pair_plan_seconds_left(&p, 7, 50, 10, 4) == 0);
	pair_plan_free(&p);
}

/* Rounds of 3, 1 and 2 pairs at 2 forks: 2, 1 and 1 waves, so the time
 * left follows the waves of the rounds left, not their count. */
static void
time_left_by_waves(void **state)
{
	struct pair_edge	e[6] = { { 0, 1, 0 }, { 2, 3, 0 }, { 4, 5, 0 },
	    { 0, 2, 1 }, { 0, 3, 2 }, { 1, 4, 2 } };
	struct pair_plan	p = { e, 6, 3, 3, 3 };

	(void)state;
	assert_true(pair_plan_seconds(&p, 10, 2) == 40);
	assert_true(pair_plan_seconds_of(&p, 0, 1, 10, 2) == 20);
	assert_true(pair_plan_seconds_of(&p, 1, 3, 10, 2) == 20);
	assert_true(pair_plan_seconds_left(&p, 1, 10, 10, 2) == 10);
	assert_true(pair_plan_seconds_left(&p, 2, 45, 10, 2) == 15);
	assert_true(pair_plan_seconds_left(&p, 3, 45, 10, 2) == 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(complete_graphs),
		cmocka_unit_test(bipartite_regions),
		cmocka_unit_test(multi_region_lab),
		cmocka_unit_test(stars),
		cmocka_unit_test(random_graphs),
		cmocka_unit_test(dedup_and_client),
		cmocka_unit_test(sampling),
		cmocka_unit_test(wall_time),
		cmocka_unit_test(time_left_by_waves),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
