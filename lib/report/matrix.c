/* The path matrix: reading pair results, aggregating them by group pair,
 * and its JSON form; see matrix.h. */
#include "report/matrix.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

static const char *const phase_names[MATRIX_NPHASES] = { "before",
	"after" };

void
matrix_input_init(struct matrix_input *in)
{
	memset(in, 0, sizeof *in);
}

void
matrix_input_release(struct matrix_input *in)
{
	size_t i;

	for (i = 0; i < in->n; i++) {
		free(in->pairs[i].host);
		free(in->pairs[i].peer);
	}
	free(in->pairs);
	memset(in, 0, sizeof *in);
}

static struct matrix_pair *
find_pair(struct matrix_input *in, const char *host, const char *peer)
{
	size_t i;

	for (i = 0; i < in->n; i++) {
		if (strcmp(in->pairs[i].host, host) == 0 &&
		    strcmp(in->pairs[i].peer, peer) == 0)
			return &in->pairs[i];
	}
	return NULL;
}

/* The diagnosis of the phase the item measured (its "phase") into
 * p->limit: the limit, and which end's setting, src (host, the client) or
 * dst. */
static void
read_limits(const json_t *it, const char *host, struct matrix_pair *p)
{
	const json_t	*diag = json_object_get(it, "diagnosis"), *d;
	const char	*phase = json_string_value(json_object_get(it, "phase"));
	const char	*limit, *who;
	int		 k, ph;

	ph = phase != NULL && strcmp(phase, "after") == 0 ? MATRIX_AFTER :
	    MATRIX_BEFORE;
	for (k = 0; k < IPERF_NKINDS; k++) {
		d = json_object_get(diag, iperf_kind_name(k));
		if ((limit = json_string_value(json_object_get(d, "limit"))) ==
		    NULL || strlen(limit) > 20)
			continue;
		who = json_string_value(json_object_get(d, "host"));
		snprintf(p->limit[k][ph], sizeof p->limit[k][ph], "%s%s",
		    limit, who == NULL ? "" : strcmp(who, host) == 0 ?
		    " src" : " dst");
	}
}

/* One item of data.pairs into p (not yet in the input). */
static int
read_pair(const json_t *it, size_t i, struct matrix_pair *p, char **cause)
{
	const json_t	*j;
	int		 ph;

	memset(p, 0, sizeof *p);
	if (!json_is_string(json_object_get(it, "peer")))
		return fail(cause, "pairs item %zu has no 'peer'", i + 1);
	for (ph = 0; ph < MATRIX_NPHASES; ph++) {
		j = json_object_get(it, phase_names[ph]);
		if (j == NULL)
			continue;
		if (iperf_set_from_json(j, &p->set[ph]) != 0)
			return fail(cause, "pairs item %zu: unreadable '%s' "
			    "figures", i + 1, phase_names[ph]);
		p->have[ph] = 1;
	}
	return 0;
}

int
matrix_input_add(struct matrix_input *in, const char *host,
    const json_t *data, char **cause)
{
	const json_t		*pairs = json_object_get(data, "pairs");
	const json_t		*it;
	struct matrix_pair	*read, *old;
	size_t			 i, n = json_array_size(pairs);
	int			 r = -1, k, ph;

	if (!json_is_array(pairs))
		return fail(cause, "'%s': the result has no 'pairs' list",
		    host);
	/* All or nothing: a bad item leaves the input as it was. */
	read = xcalloc(n > 0 ? n : 1, sizeof *read);
	json_array_foreach(pairs, i, it) {
		if (read_pair(it, i, &read[i], cause) != 0)
			goto out;
	}
	for (i = 0; i < n; i++) {
		const json_t *item = json_array_get(pairs, i);
		const char *peer = json_string_value(json_object_get(item,
		    "peer"));

		/* A pair is measured once and reported by both ends; the
		 * server's entry mirrors the client's (its up is the
		 * client's down), so only the client's is counted: src is
		 * the client's group, dst the server's. */
		if (json_is_string(json_object_get(item, "role")) &&
		    strcmp(json_string_value(json_object_get(item, "role")),
		    "server") == 0)
			continue;
		if ((old = find_pair(in, host, peer)) == NULL) {
			in->pairs = xreallocarray(in->pairs, in->n + 1,
			    sizeof *in->pairs);
			old = &in->pairs[in->n++];
			/* realloc's new bytes are not zero: the limits of a
			 * run that was not diagnosed must read "" */
			memset(old, 0, sizeof *old);
			old->host = xstrdup(host);
			old->peer = xstrdup(peer);
		}
		memcpy(old->have, read[i].have, sizeof old->have);
		memcpy(old->set, read[i].set, sizeof old->set);
		/* The after task diagnoses its runs only: the baseline's
		 * diagnosis stays. */
		read_limits(item, host, &read[i]);
		for (k = 0; k < IPERF_NKINDS; k++)
			for (ph = 0; ph < MATRIX_NPHASES; ph++)
				if (read[i].limit[k][ph][0] != '\0')
					memcpy(old->limit[k][ph],
					    read[i].limit[k][ph],
					    sizeof old->limit[k][ph]);
	}
	r = 0;
out:
	free(read);
	return r;
}

void
matrix_groups_init(struct matrix_groups *g, const char *rule)
{
	memset(g, 0, sizeof *g);
	g->host_group = json_object();
	g->rule = rule;
}

void
matrix_groups_release(struct matrix_groups *g)
{
	size_t i;

	for (i = 0; i < g->n; i++)
		free(g->names[i]);
	free(g->names);
	json_decref(g->host_group);
	memset(g, 0, sizeof *g);
}

size_t
matrix_groups_place(struct matrix_groups *g, const char *group,
    const char *host)
{
	size_t i;

	for (i = 0; i < g->n; i++) {
		if (strcmp(g->names[i], group) == 0)
			break;
	}
	if (i == g->n) {
		g->names = xreallocarray(g->names, g->n + 1, sizeof *g->names);
		g->names[g->n++] = xstrdup(group);
	}
	if (host != NULL && json_object_get(g->host_group, host) == NULL)
		json_object_set_new(g->host_group, host,
		    json_integer((json_int_t)i));
	return i;
}

int
matrix_groups_of(const struct matrix_groups *g, const char *host)
{
	const json_t *j = json_object_get(g->host_group, host);

	return j != NULL ? (int)json_integer_value(j) : -1;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Median of v[0..n), n > 0; sorts v. */
static double
median(double *v, size_t n)
{
	qsort(v, n, sizeof *v, cmp_double);
	return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The most frequent limit of kind k, phase ph among the pairs (the first
 * seen of equals). The limits are few (verify-diag's words, each with an
 * end): counted in one pass, a cell may hold thousands of pairs. */
#define MAX_LIMITS	16

static void
limit_of(struct matrix_stat *st, const struct matrix_pair **pairs, size_t n,
    enum iperf_kind k, int ph)
{
	const char	*seen[MAX_LIMITS];
	size_t		 count[MAX_LIMITS], nseen = 0, i, j;

	for (i = 0; i < n; i++) {
		const char *l = pairs[i]->limit[k][ph];

		if (l[0] == '\0')
			continue;
		for (j = 0; j < nseen && strcmp(seen[j], l) != 0; j++)
			;
		if (j == nseen) {
			if (nseen == MAX_LIMITS)
				continue;
			seen[nseen] = l;
			count[nseen++] = 0;
		}
		count[j]++;
	}
	for (j = 0; j < nseen; j++) {
		if (count[j] > st->limited_n) {
			st->limited_n = count[j];
			snprintf(st->limited_by, sizeof st->limited_by, "%s",
			    seen[j]);
		}
	}
}

/* The figures of kind k, phase ph over the pairs of one cell. */
static void
stat_of(struct matrix_stat *st, const struct matrix_pair **pairs, size_t n,
    enum iperf_kind k, int ph)
{
	double	*mbps = xcalloc(n, sizeof *mbps);
	double	*rtt = xcalloc(n, sizeof *rtt);
	size_t	 i, nrtt = 0;

	memset(st, 0, sizeof *st);
	st->retransmits = -1;
	for (i = 0; i < n; i++) {
		const struct iperf_run *r = &pairs[i]->set[ph].run[k];

		if (!pairs[i]->have[ph] || !pairs[i]->set[ph].have[k] ||
		    r->mbps < 0)
			continue;
		mbps[st->n++] = r->mbps;
		if (r->rtt_mean_ms >= 0)
			rtt[nrtt++] = r->rtt_mean_ms;
		if (r->retransmits >= 0)
			st->retransmits = (st->retransmits < 0 ? 0 :
			    st->retransmits) + r->retransmits;
	}
	if (st->n > 0) {
		st->mbps_median = median(mbps, st->n);
		st->mbps_min = mbps[0];		/* sorted by median() */
	}
	st->rtt_ms_median = nrtt > 0 ? median(rtt, nrtt) : -1;
	free(mbps);
	free(rtt);
	limit_of(st, pairs, n, k, ph);
}

static void
build_hosts(struct matrix *m, const struct matrix_input *in,
    const struct matrix_groups *g)
{
	double	*v = xcalloc(in->n > 0 ? in->n : 1, sizeof *v);
	size_t	 i, j, n;
	int	 ph, gi;

	for (i = 0; i < in->n; i++) {
		const char *h = in->pairs[i].host;

		if ((gi = matrix_groups_of(g, h)) < 0)
			continue;
		for (j = 0; j < m->nhosts; j++) {
			if (strcmp(m->hosts[j].name, h) == 0)
				break;
		}
		if (j < m->nhosts)
			continue;
		m->hosts = xreallocarray(m->hosts, m->nhosts + 1,
		    sizeof *m->hosts);
		m->hosts[m->nhosts].name = h;
		m->hosts[m->nhosts].group = (size_t)gi;
		for (ph = 0; ph < MATRIX_NPHASES; ph++) {
			n = 0;
			for (j = 0; j < in->n; j++) {
				const struct matrix_pair *p = &in->pairs[j];

				if (strcmp(p->host, h) == 0 && p->have[ph] &&
				    p->set[ph].have[m->headline] &&
				    p->set[ph].run[m->headline].mbps >= 0)
					v[n++] = p->set[ph].run[m->headline].mbps;
			}
			m->hosts[m->nhosts].mbps[ph] = n > 0 ? median(v, n) :
			    -1;
		}
		m->nhosts++;
	}
	free(v);
}

/* Single up when any pair has it, else the first kind some pair has. */
static enum iperf_kind
headline_kind(const struct matrix_input *in)
{
	size_t	i;
	int	k, ph;

	for (k = 0; k < IPERF_NKINDS; k++) {
		for (i = 0; i < in->n; i++) {
			for (ph = 0; ph < MATRIX_NPHASES; ph++) {
				if (in->pairs[i].have[ph] &&
				    in->pairs[i].set[ph].have[k])
					return k;
			}
		}
	}
	return IPERF_SINGLE_UP;
}

void
matrix_build(struct matrix *m, const struct matrix_input *in,
    const struct matrix_groups *g)
{
	const struct matrix_pair **cp;
	struct matrix_cell	  *c;
	size_t			   i, s, d, n;
	int			   k, ph, gs, gd;

	memset(m, 0, sizeof *m);
	m->groups = g;
	m->headline = headline_kind(in);
	cp = xcalloc(in->n > 0 ? in->n : 1, sizeof *cp);
	for (i = 0; i < in->n; i++) {
		if (matrix_groups_of(g, in->pairs[i].host) < 0 ||
		    matrix_groups_of(g, in->pairs[i].peer) < 0)
			m->unassigned++;
	}
	for (s = 0; s < g->n; s++) {
		for (d = 0; d < g->n; d++) {
			n = 0;
			for (i = 0; i < in->n; i++) {
				gs = matrix_groups_of(g, in->pairs[i].host);
				gd = matrix_groups_of(g, in->pairs[i].peer);
				if (gs == (int)s && gd == (int)d)
					cp[n++] = &in->pairs[i];
			}
			if (n == 0)
				continue;
			m->cells = xreallocarray(m->cells, m->ncells + 1,
			    sizeof *m->cells);
			c = &m->cells[m->ncells++];
			memset(c, 0, sizeof *c);
			c->src = s;
			c->dst = d;
			c->npairs = n;
			m->npairs += n;
			for (k = 0; k < IPERF_NKINDS; k++) {
				for (ph = 0; ph < MATRIX_NPHASES; ph++) {
					stat_of(&c->run[k][ph], cp, n, k, ph);
					if (c->run[k][ph].n > 0)
						m->have[ph] = 1;
				}
			}
		}
	}
	free(cp);
	build_hosts(m, in, g);
}

void
matrix_release(struct matrix *m)
{
	free(m->cells);
	free(m->hosts);
	memset(m, 0, sizeof *m);
}

const struct matrix_cell *
matrix_cell(const struct matrix *m, size_t src, size_t dst)
{
	size_t i;

	for (i = 0; i < m->ncells; i++) {
		if (m->cells[i].src == src && m->cells[i].dst == dst)
			return &m->cells[i];
	}
	return NULL;
}

static json_t *
num_or_null(double v)
{
	return v >= 0 ? json_real(v) : json_null();
}

static json_t *
stat_json(const struct matrix_stat *st)
{
	return json_pack("{s:I, s:o, s:o, s:o, s:o, s:o, s:I}",
	    "pairs", (json_int_t)st->n,
	    "mbps_median", json_real(st->mbps_median),
	    "mbps_min", json_real(st->mbps_min),
	    "rtt_ms_median", num_or_null(st->rtt_ms_median),
	    "retransmits", st->retransmits >= 0 ?
	    json_integer(st->retransmits) : json_null(),
	    "limited_by", st->limited_by[0] != '\0' ?
	    json_string(st->limited_by) : json_null(),
	    "limited_pairs", (json_int_t)st->limited_n);
}

static json_t *
cell_json(const struct matrix *m, const struct matrix_cell *c)
{
	json_t	*runs = json_object(), *run;
	int	 k, ph;

	for (k = 0; k < IPERF_NKINDS; k++) {
		run = NULL;
		for (ph = 0; ph < MATRIX_NPHASES; ph++) {
			if (c->run[k][ph].n == 0)
				continue;
			if (run == NULL)
				run = json_object();
			json_object_set_new(run, phase_names[ph],
			    stat_json(&c->run[k][ph]));
		}
		if (run != NULL)
			json_object_set_new(runs, iperf_kind_name(k), run);
	}
	return json_pack("{s:s, s:s, s:I, s:o}",
	    "src_group", m->groups->names[c->src],
	    "dst_group", m->groups->names[c->dst],
	    "pairs", (json_int_t)c->npairs, "runs", runs);
}

json_t *
matrix_json(const struct matrix *m)
{
	json_t	*groups = json_array(), *cells = json_array();
	json_t	*hosts = json_array(), *h;
	size_t	 i;
	int	 ph;

	for (i = 0; i < m->groups->n; i++)
		json_array_append_new(groups,
		    json_string(m->groups->names[i]));
	for (i = 0; i < m->ncells; i++)
		json_array_append_new(cells, cell_json(m, &m->cells[i]));
	for (i = 0; i < m->nhosts; i++) {
		h = json_pack("{s:s, s:s}", "host", m->hosts[i].name, "group",
		    m->groups->names[m->hosts[i].group]);
		for (ph = 0; ph < MATRIX_NPHASES; ph++) {
			if (m->hosts[i].mbps[ph] >= 0)
				json_object_set_new(h, phase_names[ph],
				    json_real(m->hosts[i].mbps[ph]));
		}
		json_array_append_new(hosts, h);
	}
	return json_pack("{s:o, s:s, s:s, s:I, s:I, s:o, s:o}",
	    "groups", groups, "group_rule", m->groups->rule,
	    "headline", iperf_kind_name(m->headline),
	    "pairs", (json_int_t)m->npairs,
	    "unassigned_pairs", (json_int_t)m->unassigned,
	    "cells", cells, "hosts", hosts);
}
