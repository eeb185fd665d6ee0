/* The path matrix as a table for a terminal, printed after the per-pair
 * verification tables:
 *
 *   PATH MATRIX: 4 pairs, groups eu, us (inventory groups ...)
 *     src -> dst  test         pairs  median Mbit/s   min Mbit/s  ...
 *     eu -> us    single up        2  9.6 -> 93.4     9.5 -> 93.1 ...
 *
 * One row per measured group pair and run kind; with one phase only, each
 * figure is a single column instead of "before -> after". */
#include "report/matrix.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/xalloc.h"

static void
fmt_mbps(char *buf, size_t len, const struct matrix_stat *st, int min)
{
	if (st->n == 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.1f", min ? st->mbps_min :
		    st->mbps_median);
}

static void
fmt_rtt(char *buf, size_t len, const struct matrix_stat *st)
{
	if (st->n == 0 || st->rtt_ms_median < 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.1f", st->rtt_ms_median);
}

static void
fmt_retr(char *buf, size_t len, const struct matrix_stat *st)
{
	if (st->n == 0 || st->retransmits < 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%lld", st->retransmits);
}

static void
fmt_ratio(char *buf, size_t len, const struct matrix_stat *b,
    const struct matrix_stat *a)
{
	double r;

	if (b->n == 0 || a->n == 0 || b->mbps_median <= 0) {
		snprintf(buf, len, "-");
		return;
	}
	r = a->mbps_median / b->mbps_median;
	snprintf(buf, len, r < 1 ? "%.2fx" : "%.1fx", r);
}

/* "b -> a", or the one phase the matrix has. */
static void
pair_of(char *buf, size_t len, const struct matrix *m, const char *b,
    const char *a)
{
	if (m->have[MATRIX_BEFORE] && m->have[MATRIX_AFTER])
		snprintf(buf, len, "%s -> %s", b, a);
	else
		snprintf(buf, len, "%s", m->have[MATRIX_AFTER] ? a : b);
}

static const char *
rule_text(const char *rule)
{
	if (strcmp(rule, "matrix_groups") == 0)
		return "from matrix_groups";
	if (strcmp(rule, "inventory") == 0)
		return "the inventory groups that partition the measured hosts";
	return "no inventory groups partition the measured hosts: one group; "
	    "set matrix_groups to choose";
}

char *
matrix_text(const struct matrix *m)
{
	const struct matrix_groups *g = m->groups;
	struct strbuf	 sb;
	char		 path[512], v[2][32], med[80], mn[80], ratio[32];
	char		 rtt[80], retr[80];
	const char	*phase;
	size_t		 i, w = 10;
	int		 k, both;

	strbuf_init(&sb);
	both = m->have[MATRIX_BEFORE] && m->have[MATRIX_AFTER];
	phase = both ? "before -> after" : m->have[MATRIX_AFTER] ? "after" :
	    "before";
	strbuf_addf(&sb, "PATH MATRIX (%s): %zu pair%s, group%s ", phase,
	    m->npairs, m->npairs == 1 ? "" : "s", g->n == 1 ? "" : "s");
	for (i = 0; i < g->n; i++)
		strbuf_addf(&sb, "%s%s", i > 0 ? ", " : "", g->names[i]);
	strbuf_addf(&sb, " (%s)\n", rule_text(g->rule));
	strbuf_addstr(&sb, "  src = the group of the host that ran the test, "
	    "dst = its peer's; up = src sends; over the pairs of each cell\n");
	for (i = 0; i < m->ncells; i++) {
		snprintf(path, sizeof path, "%s -> %s",
		    g->names[m->cells[i].src], g->names[m->cells[i].dst]);
		if (strlen(path) > w)
			w = strlen(path);
	}
	strbuf_addf(&sb, "  %-*s  %-12s %5s  %-16s %-16s %6s  %-16s %s\n",
	    (int)w, "src -> dst", "test", "pairs", "median Mbit/s",
	    "min Mbit/s", "ratio", "RTT ms (median)", "retransmits");
	for (i = 0; i < m->ncells; i++) {
		const struct matrix_cell *c = &m->cells[i];

		snprintf(path, sizeof path, "%s -> %s", g->names[c->src],
		    g->names[c->dst]);
		for (k = 0; k < IPERF_NKINDS; k++) {
			const struct matrix_stat *b = &c->run[k][MATRIX_BEFORE];
			const struct matrix_stat *a = &c->run[k][MATRIX_AFTER];
			size_t n = b->n > a->n ? b->n : a->n;

			if (n == 0)
				continue;
			fmt_mbps(v[0], sizeof v[0], b, 0);
			fmt_mbps(v[1], sizeof v[1], a, 0);
			pair_of(med, sizeof med, m, v[0], v[1]);
			fmt_mbps(v[0], sizeof v[0], b, 1);
			fmt_mbps(v[1], sizeof v[1], a, 1);
			pair_of(mn, sizeof mn, m, v[0], v[1]);
			fmt_ratio(ratio, sizeof ratio, b, a);
			fmt_rtt(v[0], sizeof v[0], b);
			fmt_rtt(v[1], sizeof v[1], a);
			pair_of(rtt, sizeof rtt, m, v[0], v[1]);
			fmt_retr(v[0], sizeof v[0], b);
			fmt_retr(v[1], sizeof v[1], a);
			pair_of(retr, sizeof retr, m, v[0], v[1]);
			strbuf_addf(&sb, "  %-*s  %-12s %5zu  %-16s %-16s %6s  "
			    "%-16s %s\n", (int)w, path, iperf_kind_label(k), n,
			    med, mn, ratio, rtt, retr);
		}
	}
	if (m->unassigned > 0)
		strbuf_addf(&sb, "  %zu pair%s left out: a host in none of "
		    "matrix_groups\n", m->unassigned, m->unassigned == 1 ?
		    "" : "s");
	return strbuf_detach(&sb, NULL);
}
