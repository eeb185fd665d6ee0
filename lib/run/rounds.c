/* Pairs of hosts in rounds: the pair set, sampling and the edge colouring
 * (rounds.h says what and why). */
#include "run/rounds.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

/* A pair being built: its ends in index order, and who wanted it. */
struct want_key {
	size_t	lo, hi;
	int	by_lo, by_hi;
};

static int
cmp_key(const void *va, const void *vb)
{
	const struct want_key *a = va, *b = vb;

	if (a->lo != b->lo)
		return a->lo < b->lo ? -1 : 1;
	if (a->hi != b->hi)
		return a->hi < b->hi ? -1 : 1;
	return 0;
}

/* A fixed pseudo-random order of pairs (splitmix64 of both ends): the
 * same inventory samples the same pairs on every run. */
static uint64_t
pair_hash(size_t a, size_t b)
{
	uint64_t z = ((uint64_t)a << 32 ^ (uint64_t)b) + 0x9e3779b97f4a7c15ULL;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

struct cand {
	size_t		 i;		/* index in the pair set */
	size_t		 glo, ghi;	/* its group pair */
	uint64_t	 hash;
	int		 taken;
};

static int
cmp_cand(const void *va, const void *vb)
{
	const struct cand *a = va, *b = vb;

	if (a->glo != b->glo)
		return a->glo < b->glo ? -1 : 1;
	if (a->ghi != b->ghi)
		return a->ghi < b->ghi ? -1 : 1;
	if (a->hash != b->hash)
		return a->hash < b->hash ? -1 : 1;
	return a->i < b->i ? -1 : a->i > b->i;
}

static size_t
max_sz(size_t a, size_t b)
{
	return a > b ? a : b;
}

/* Keep at most sample pairs per group pair, spreading them over hosts. */
static void
sample_pairs(struct pair_plan *p, size_t nhosts, const int *group,
    size_t sample)
{
	struct cand		*c = xcalloc(p->npairs + 1, sizeof *c);
	struct pair_edge	*kept = xcalloc(p->npairs + 1, sizeof *kept);
	size_t			*deg = xcalloc(nhosts + 1, sizeof *deg);
	int			*keep = xcalloc(p->npairs + 1, sizeof *keep);
	size_t			 i, j, start, end, best, nkept = 0, k;
	size_t			 ga, gb, load, best_load = 0;

	for (i = 0; i < p->npairs; i++) {
		ga = group != NULL ? (size_t)group[p->pairs[i].client] : 0;
		gb = group != NULL ? (size_t)group[p->pairs[i].server] : 0;
		c[i].i = i;
		c[i].glo = ga < gb ? ga : gb;
		c[i].ghi = ga < gb ? gb : ga;
		c[i].hash = pair_hash(p->pairs[i].client, p->pairs[i].server);
	}
	qsort(c, p->npairs, sizeof *c, cmp_cand);
	for (start = 0; start < p->npairs; start = end) {
		for (end = start; end < p->npairs && c[end].glo ==
		    c[start].glo && c[end].ghi == c[start].ghi; end++)
			;
		for (k = 0; k < sample && k < end - start; k++) {
			best = end;
			for (j = start; j < end; j++) {
				const struct pair_edge *e = &p->pairs[c[j].i];

				if (c[j].taken)
					continue;
				load = max_sz(deg[e->client], deg[e->server]);
				if (best == end || load < best_load) {
					best = j;
					best_load = load;
				}
			}
			c[best].taken = 1;
			deg[p->pairs[c[best].i].client]++;
			deg[p->pairs[c[best].i].server]++;
		}
	}
	/* The kept pairs in their original (client, server) order. */
	for (j = 0; j < p->npairs; j++)
		keep[c[j].i] = c[j].taken;
	for (i = 0; i < p->npairs; i++) {
		if (keep[i])
			kept[nkept++] = p->pairs[i];
	}
	free(p->pairs);
	p->pairs = kept;
	p->npairs = nkept;
	free(keep);
	free(deg);
	free(c);
}

void
pair_plan_build(struct pair_plan *p, size_t nhosts,
    const struct pair_want *wants, size_t nwants, const int *group,
    size_t sample)
{
	struct want_key	*k = xcalloc(nwants + 1, sizeof *k);
	size_t		 i, n = 0, m = 0;

	memset(p, 0, sizeof *p);
	for (i = 0; i < nwants; i++) {
		const struct pair_want *w = &wants[i];

		if (w->host == w->peer || w->host >= nhosts ||
		    w->peer >= nhosts)
			continue;
		k[n].lo = w->host < w->peer ? w->host : w->peer;
		k[n].hi = w->host < w->peer ? w->peer : w->host;
		k[n].by_lo = w->host == k[n].lo;
		k[n].by_hi = !k[n].by_lo;
		n++;
	}
	qsort(k, n, sizeof *k, cmp_key);
	p->pairs = xcalloc(n + 1, sizeof *p->pairs);
	for (i = 0; i < n; i++) {
		if (m > 0 && cmp_key(&k[i], &k[m - 1]) == 0) {
			k[m - 1].by_lo |= k[i].by_lo;
			k[m - 1].by_hi |= k[i].by_hi;
			continue;
		}
		k[m++] = k[i];
	}
	for (i = 0; i < m; i++) {
		/* The host that listed the other runs the client; both did:
		 * the first in order. */
		p->pairs[i].client = k[i].by_lo ? k[i].lo : k[i].hi;
		p->pairs[i].server = k[i].by_lo ? k[i].hi : k[i].lo;
	}
	p->npairs = m;
	free(k);
	if (sample > 0)
		sample_pairs(p, nhosts, group, sample);
	pair_rounds(p, nhosts);
}

void
pair_plan_free(struct pair_plan *p)
{
	free(p->pairs);
	memset(p, 0, sizeof *p);
}

/*
 * The colouring: at[v * k + c] is v's neighbour over the edge coloured c,
 * or -1 when c is free at v.
 */
struct colouring {
	long	*at;
	size_t	 k;
	size_t	 nv;
	long	*path;		/* scratch, nv + 1 */
	long	*fan;		/* scratch, nv + 1 */
	size_t	*mark;		/* scratch, nv */
	size_t	 stamp;
};

#define AT(cl, v, c)	((cl)->at[(size_t)(v) * (cl)->k + (size_t)(c)])

static int
is_free(const struct colouring *cl, long v, size_t c)
{
	return AT(cl, v, c) < 0;
}

static long
colour_of(const struct colouring *cl, long u, long v)
{
	size_t c;

	for (c = 0; c < cl->k; c++) {
		if (AT(cl, u, c) == v)
			return (long)c;
	}
	return -1;
}

static void
set_edge(struct colouring *cl, long u, long v, size_t c)
{
	AT(cl, u, c) = v;
	AT(cl, v, c) = u;
}

static long
first_free(const struct colouring *cl, long v, size_t limit)
{
	size_t c;

	for (c = 0; c < limit; c++) {
		if (is_free(cl, v, c))
			return (long)c;
	}
	return -1;
}

/* The path from v that starts with v's a-edge and alternates a, b: its
 * vertices into cl->path. v has b free, so it is a path, not a cycle. */
static size_t
kempe_path(struct colouring *cl, long v, size_t a, size_t b)
{
	size_t	n = 0, c = a;
	long	x = v, y;

	cl->path[n++] = v;
	while ((y = AT(cl, x, c)) >= 0 && n <= cl->nv) {
		cl->path[n++] = y;
		x = y;
		c = c == a ? b : a;
	}
	return n;
}

/* Swap a and b along cl->path[0..n) (first edge coloured a). */
static void
kempe_swap(struct colouring *cl, size_t n, size_t a, size_t b)
{
	size_t i;

	for (i = 0; i + 1 < n; i++) {
		AT(cl, cl->path[i], i % 2 == 0 ? a : b) = -1;
		AT(cl, cl->path[i + 1], i % 2 == 0 ? a : b) = -1;
	}
	for (i = 0; i + 1 < n; i++)
		set_edge(cl, cl->path[i], cl->path[i + 1], i % 2 == 0 ? b : a);
}

/* Whether fan[0..i] is still a fan of x: the colour of x-fan[j+1] is free
 * at fan[j]. */
static int
prefix_is_fan(const struct colouring *cl, long x, size_t i)
{
	size_t	j;
	long	c;

	for (j = 0; j < i; j++) {
		c = colour_of(cl, x, cl->fan[j + 1]);
		if (c < 0 || !is_free(cl, cl->fan[j], (size_t)c))
			return 0;
	}
	return 1;
}

/* Misra and Gries: colour the uncoloured edge x-f0 with k = Delta + 1
 * colours, recolouring a fan of x and one cd-path. */
static void
misra_gries_edge(struct colouring *cl, long x, long f0)
{
	size_t	nf = 1, i, j, c;
	long	w, last, cfree, dfree, *cols;
	int	grown;

	cl->stamp++;
	cl->fan[0] = f0;
	cl->mark[f0] = cl->stamp;
	do {
		grown = 0;
		last = cl->fan[nf - 1];
		for (c = 0; c < cl->k; c++) {
			w = AT(cl, x, c);
			if (w < 0 || cl->mark[w] == cl->stamp ||
			    !is_free(cl, last, c))
				continue;
			cl->fan[nf++] = w;
			cl->mark[w] = cl->stamp;
			grown = 1;
			break;
		}
	} while (grown);
	cfree = first_free(cl, x, cl->k);
	dfree = first_free(cl, cl->fan[nf - 1], cl->k);
	if (cfree != dfree)
		kempe_swap(cl, kempe_path(cl, x, (size_t)dfree,
		    (size_t)cfree), (size_t)dfree, (size_t)cfree);
	for (i = 0; i < nf; i++) {
		if (is_free(cl, cl->fan[i], (size_t)dfree) &&
		    prefix_is_fan(cl, x, i))
			break;
	}
	if (i == nf)
		i = nf - 1;	/* cannot happen (the theorem) */
	cols = xcalloc(i + 1, sizeof *cols);
	for (j = 0; j < i; j++) {
		cols[j] = colour_of(cl, x, cl->fan[j + 1]);
		AT(cl, x, cols[j]) = -1;
		AT(cl, cl->fan[j + 1], cols[j]) = -1;
	}
	for (j = 0; j < i; j++)
		set_edge(cl, x, cl->fan[j], (size_t)cols[j]);
	set_edge(cl, x, cl->fan[i], (size_t)dfree);
	free(cols);
}

/* Swap the Kempe chain from `from` (its a-edge first, then b, a, ...)
 * unless it reaches `avoid`; then colour u-v with a, now free at both. */
static int
try_chain(struct colouring *cl, long from, long avoid, size_t a, size_t b,
    long u, long v)
{
	size_t	n, i;

	n = kempe_path(cl, from, a, b);
	for (i = 0; i < n; i++) {
		if (cl->path[i] == avoid)
			return 0;
	}
	kempe_swap(cl, n, a, b);
	set_edge(cl, u, v, a);
	return 1;
}

/* Move the edge u-v out of colour t (the last) into 0..t-1: a colour free
 * at both ends, else one made free at one end by swapping a Kempe chain
 * that does not reach the other. Bounded tries; 0 when it stays. */
static int
move_down(struct colouring *cl, long u, long v, size_t t)
{
	size_t	a, b, tries = 0;

	AT(cl, u, t) = -1;
	AT(cl, v, t) = -1;
	for (a = 0; a < t; a++) {
		if (is_free(cl, u, a) && is_free(cl, v, a)) {
			set_edge(cl, u, v, a);
			return 1;
		}
	}
	for (a = 0; a < t && tries < 64; a++) {
		if (!is_free(cl, u, a))
			continue;
		for (b = 0; b < t && tries < 64; b++) {
			if (!is_free(cl, v, b))
				continue;
			tries++;
			/* a free at u, b at v: free a at v, or b at u */
			if (try_chain(cl, v, u, a, b, u, v) ||
			    try_chain(cl, u, v, b, a, u, v))
				return 1;
		}
	}
	set_edge(cl, u, v, t);
	return 0;
}

/* One colouring of the pairs in the order order[]: Misra-Gries with
 * Delta + 1 colours, then the last colour emptied where Kempe chains
 * allow (a few passes). Each pair's colour into col[]; returns the number
 * of colours used. */
static size_t
colour_once(struct colouring *cl, const struct pair_plan *p, const long *id,
    const size_t *order, size_t delta, size_t *col)
{
	size_t	i, t = delta, pass, left = 1;
	long	u, v;

	memset(cl->at, 0xff, (cl->nv * cl->k + 1) * sizeof *cl->at);
	for (i = 0; i < p->npairs; i++)
		misra_gries_edge(cl, id[p->pairs[order[i]].client],
		    id[p->pairs[order[i]].server]);
	for (pass = 0; pass < 3 && left > 0; pass++) {
		left = 0;
		for (u = 0; (size_t)u < cl->nv; u++) {
			if ((v = AT(cl, u, t)) >= 0 && !move_down(cl, u, v, t))
				left++;
		}
	}
	for (i = 0; i < p->npairs; i++)
		col[i] = (size_t)colour_of(cl, id[p->pairs[i].client],
		    id[p->pairs[i].server]);
	return left > 0 ? delta + 1 : delta;
}

struct ordered {
	uint64_t	key;
	size_t		i;
};

static int
cmp_ordered(const void *va, const void *vb)
{
	const struct ordered *a = va, *b = vb;

	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return a->i < b->i ? -1 : a->i > b->i;
}

static int
cmp_edge(const void *va, const void *vb)
{
	const struct pair_edge *a = va, *b = vb;

	if (a->round != b->round)
		return a->round < b->round ? -1 : 1;
	if (a->client != b->client)
		return a->client < b->client ? -1 : 1;
	return a->server < b->server ? -1 : a->server > b->server;
}

/* The general case: colour_once in the pairs' order, then, while it
 * needs Delta + 1, in a few other fixed orders (small graphs only: each
 * try costs O(pairs * Delta * hosts) at worst). */
static void
colour_general(struct pair_plan *p, const long *id, size_t nv, size_t delta)
{
	struct colouring cl;
	struct ordered	*ord = xcalloc(p->npairs + 1, sizeof *ord);
	size_t		*order = xcalloc(p->npairs + 1, sizeof *order);
	size_t		*col = xcalloc(p->npairs + 1, sizeof *col);
	size_t		 i, try, used, tries;

	memset(&cl, 0, sizeof cl);
	cl.k = delta + 1;
	cl.nv = nv;
	cl.at = xcalloc(nv * cl.k + 1, sizeof *cl.at);
	cl.path = xcalloc(nv + 2, sizeof *cl.path);
	cl.fan = xcalloc(nv + 2, sizeof *cl.fan);
	cl.mark = xcalloc(nv + 1, sizeof *cl.mark);
	tries = p->npairs * delta < 200000 ? 16 : 1;
	for (try = 0; try < tries; try++) {
		for (i = 0; i < p->npairs; i++) {
			ord[i].i = i;
			ord[i].key = try == 0 ? i : pair_hash(i, try);
		}
		qsort(ord, p->npairs, sizeof *ord, cmp_ordered);
		for (i = 0; i < p->npairs; i++)
			order[i] = ord[i].i;
		used = colour_once(&cl, p, id, order, delta, col);
		if (try == 0 || used == delta) {
			for (i = 0; i < p->npairs; i++)
				p->pairs[i].round = col[i];
		}
		if (used == delta)
			break;
	}
	free(cl.at);
	free(cl.path);
	free(cl.fan);
	free(cl.mark);
	free(col);
	free(order);
	free(ord);
}

void
pair_rounds(struct pair_plan *p, size_t nhosts)
{
	size_t	*deg = xcalloc(nhosts + 1, sizeof *deg);
	long	*id = xcalloc(nhosts + 1, sizeof *id);
	size_t	*used;
	size_t	 i, nv = 0, delta = 0, per, r;
	long	 a, b;

	for (i = 0; i < p->npairs; i++) {
		deg[p->pairs[i].client]++;
		deg[p->pairs[i].server]++;
	}
	for (i = 0; i < nhosts; i++) {
		id[i] = deg[i] > 0 ? (long)nv++ : -1;
		delta = max_sz(delta, deg[i]);
	}
	p->max_pairs = delta;
	p->min_rounds = delta;
	if (nv >= 2) {
		per = nv / 2;
		p->min_rounds = max_sz(delta, (p->npairs + per - 1) / per);
	}
	if (p->npairs > 0 && p->npairs == nv * (nv - 1) / 2) {
		/* Every pair: the circle method in closed form. Even nv: the
		 * last host meets host r in round r, and a, b (both
		 * smaller) meet in the round r with a + b = 2r mod nv-1;
		 * odd nv: a + b = 2r mod nv (a bye each round). */
		for (i = 0; i < p->npairs; i++) {
			a = id[p->pairs[i].client];
			b = id[p->pairs[i].server];
			if (nv % 2 == 1)
				r = (size_t)(a + b) * ((nv + 1) / 2) % nv;
			else if ((size_t)a == nv - 1 || (size_t)b == nv - 1)
				r = (size_t)((size_t)a == nv - 1 ? b : a);
			else
				r = (size_t)(a + b) * (nv / 2) % (nv - 1);
			p->pairs[i].round = r;
		}
	} else if (p->npairs > 0)
		colour_general(p, id, nv, delta);
	/* Rounds numbered 0.. without gaps. */
	used = xcalloc(delta + 2 + nv, sizeof *used);
	for (i = 0; i < p->npairs; i++)
		used[p->pairs[i].round] = 1;
	for (i = 0, r = 0; i < delta + 2 + nv; i++)
		used[i] = used[i] ? ++r : 0;
	for (i = 0; i < p->npairs; i++)
		p->pairs[i].round = used[p->pairs[i].round] - 1;
	p->nrounds = r;
	qsort(p->pairs, p->npairs, sizeof *p->pairs, cmp_edge);
	free(used);
	free(id);
	free(deg);
}

double
pair_plan_seconds_of(const struct pair_plan *p, size_t first, size_t end,
    double pair_seconds, size_t forks)
{
	size_t	i, start, waves = 0;

	if (forks == 0)
		forks = 1;
	for (start = 0; start < p->npairs; start = i) {
		for (i = start; i < p->npairs &&
		    p->pairs[i].round == p->pairs[start].round; i++)
			;
		if (p->pairs[start].round >= first &&
		    p->pairs[start].round < end)
			waves += (i - start + forks - 1) / forks;
	}
	return (double)waves * pair_seconds;
}

double
pair_plan_seconds(const struct pair_plan *p, double pair_seconds,
    size_t forks)
{
	return pair_plan_seconds_of(p, 0, p->nrounds, pair_seconds, forks);
}

double
pair_plan_seconds_left(const struct pair_plan *p, size_t rounds_done,
    double elapsed, double pair_seconds, size_t forks)
{
	double	done, left;

	done = pair_plan_seconds_of(p, 0, rounds_done, pair_seconds, forks);
	left = pair_plan_seconds_of(p, rounds_done, p->nrounds, pair_seconds,
	    forks);
	if (done <= 0 || elapsed <= 0)
		return left;
	return left * elapsed / done;
}
