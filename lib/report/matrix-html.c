/* The path matrix as one self-contained HTML page (--report FILE.html),
 * for a change ticket: a heatmap of the headline run (single up) per phase,
 * one SVG cell per measured group pair, coloured by median Mbit/s on one
 * scale for both phases, values as text; a per-host before/after bar
 * chart; and every figure in a table. No script, no external asset, and a
 * Content-Security-Policy that forbids both, so a name that escaped the
 * escaping still could not run. Every inventory-derived string (group and
 * host names) goes through matrix_html_escape. */
#include "report/matrix-html.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/xalloc.h"

#define CELL_W		120
#define CELL_H		78
#define LABEL_W		160	/* row labels (src groups) */
#define HEAD_H		56	/* column labels (dst groups) */
#define BAR_H		14
#define BAR_CHART_W	560

static const char *const phase_names[MATRIX_NPHASES] = { "before",
	"after" };

char *
matrix_html_escape(const char *s)
{
	struct strbuf sb;

	strbuf_init(&sb);
	for (; *s != '\0'; s++) {
		switch (*s) {
		case '&': strbuf_addstr(&sb, "&amp;"); break;
		case '<': strbuf_addstr(&sb, "&lt;"); break;
		case '>': strbuf_addstr(&sb, "&gt;"); break;
		case '"': strbuf_addstr(&sb, "&quot;"); break;
		case '\'': strbuf_addstr(&sb, "&#39;"); break;
		default:
			/* control characters have no business in a name */
			if ((unsigned char)*s < 0x20)
				strbuf_addch(&sb, '?');
			else
				strbuf_addch(&sb, *s);
		}
	}
	return strbuf_detach(&sb, NULL);
}

/* Append s escaped. */
static void
add_esc(struct strbuf *sb, const char *s)
{
	char *e = matrix_html_escape(s);

	strbuf_addstr(sb, e);
	free(e);
}

/* Red (slow) through yellow to green (the fastest figure of the page). */
static void
add_colour(struct strbuf *sb, double mbps, double max)
{
	double t = max > 0 ? mbps / max : 0;

	if (t < 0)
		t = 0;
	if (t > 1)
		t = 1;
	strbuf_addf(sb, "hsl(%.0f,70%%,%.0f%%)", t * 120, 38 + t * 4);
}

static double
max_mbps(const struct matrix *m)
{
	double	max = 0;
	size_t	i;
	int	ph;

	for (i = 0; i < m->ncells; i++) {
		for (ph = 0; ph < MATRIX_NPHASES; ph++) {
			const struct matrix_stat *st =
			    &m->cells[i].run[m->headline][ph];

			if (st->n > 0 && st->mbps_median > max)
				max = st->mbps_median;
		}
	}
	for (i = 0; i < m->nhosts; i++) {
		for (ph = 0; ph < MATRIX_NPHASES; ph++) {
			if (m->hosts[i].mbps[ph] > max)
				max = m->hosts[i].mbps[ph];
		}
	}
	return max;
}

/* A group pair with no measurement in this phase: grey, no value. */
static void
empty_cell(struct strbuf *sb, const char *src, const char *dst, int x,
    int y)
{
	strbuf_addf(sb, "<rect class=\"empty\" x=\"%d\" y=\"%d\" "
	    "width=\"%d\" height=\"%d\"><title>", x, y, CELL_W - 4,
	    CELL_H - 4);
	add_esc(sb, src);
	strbuf_addstr(sb, " \xe2\x86\x92 ");
	add_esc(sb, dst);
	strbuf_addstr(sb, ": not measured</title></rect>\n");
}

/* A limit short enough for a cell: "rwnd dst", "link". The limit is one
 * of verify-diag's words (matrix.c reads no other). */
static const char *
short_limit(const char *limit)
{
	static const char *const names[][2] = {
		{ "receive_window src", "rwnd src" },
		{ "receive_window dst", "rwnd dst" },
		{ "send_buffer src", "sndbuf src" },
		{ "send_buffer dst", "sndbuf dst" },
		{ "congestion src", "loss src" },
		{ "congestion dst", "loss dst" },
		{ "link_rate", "link" },
		{ "application", "app" },
		{ "unknown", "limit ?" },
	};
	size_t i;

	for (i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(names[i][0], limit) == 0)
			return names[i][1];
	return "limit ?";
}

static void
heatmap_cell(struct strbuf *sb, const struct matrix *m,
    const struct matrix_cell *c, int ph, int x, int y, double max)
{
	const struct matrix_stat *st = &c->run[m->headline][ph];
	const char *src = m->groups->names[c->src];
	const char *dst = m->groups->names[c->dst];

	if (st->n == 0) {
		empty_cell(sb, src, dst, x, y);
		return;
	}
	strbuf_addstr(sb, "<g class=\"cell\" data-src=\"");
	add_esc(sb, src);
	strbuf_addstr(sb, "\" data-dst=\"");
	add_esc(sb, dst);
	strbuf_addf(sb, "\" data-phase=\"%s\" data-mbps=\"%.1f\">"
	    "<title>", phase_names[ph], st->mbps_median);
	add_esc(sb, src);
	strbuf_addstr(sb, " \xe2\x86\x92 ");
	add_esc(sb, dst);
	strbuf_addf(sb, ", %s: median %.1f Mbit/s, min %.1f, %zu pair%s",
	    phase_names[ph], st->mbps_median, st->mbps_min, st->n,
	    st->n == 1 ? "" : "s");
	if (st->limited_n > 0)
		strbuf_addf(sb, "; limited by %s in %zu", st->limited_by,
		    st->limited_n);
	strbuf_addstr(sb, "</title>");
	strbuf_addf(sb, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
	    "rx=\"4\" fill=\"", x, y, CELL_W - 4, CELL_H - 4);
	add_colour(sb, st->mbps_median, max);
	strbuf_addf(sb, "\"/><text class=\"v\" x=\"%d\" y=\"%d\">%.1f</text>"
	    "<text class=\"s\" x=\"%d\" y=\"%d\">min %.1f \xc2\xb7 n=%zu"
	    "</text>", x + (CELL_W - 4) / 2, y + 27, st->mbps_median,
	    x + (CELL_W - 4) / 2, y + 46, st->mbps_min, st->n);
	if (st->limited_n > 0)
		strbuf_addf(sb, "<text class=\"s lim\" x=\"%d\" y=\"%d\">"
		    "%s %zu/%zu</text>", x + (CELL_W - 4) / 2, y + 63,
		    short_limit(st->limited_by), st->limited_n, st->n);
	strbuf_addstr(sb, "</g>\n");
}

static void
heatmap(struct strbuf *sb, const struct matrix *m, int ph, double max)
{
	const struct matrix_groups *g = m->groups;
	const struct matrix_cell *c;
	size_t	s, d;
	int	w = LABEL_W + (int)g->n * CELL_W + 8;
	int	h = HEAD_H + (int)g->n * CELL_H + 8;

	strbuf_addf(sb, "<figure><figcaption>%s: %s, median Mbit/s "
	    "(rows: src group, columns: dst group)</figcaption>\n",
	    ph == MATRIX_BEFORE ? "Before" : "After",
	    iperf_kind_label(m->headline));
	strbuf_addf(sb, "<svg class=\"heatmap\" data-phase=\"%s\" "
	    "xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
	    "viewBox=\"0 0 %d %d\" role=\"img\">\n", phase_names[ph], w, h,
	    w, h);
	for (d = 0; d < g->n; d++) {
		strbuf_addf(sb, "<text class=\"col\" x=\"%d\" y=\"%d\">",
		    LABEL_W + (int)d * CELL_W + (CELL_W - 4) / 2, HEAD_H - 12);
		add_esc(sb, g->names[d]);
		strbuf_addstr(sb, "</text>\n");
	}
	for (s = 0; s < g->n; s++) {
		int y = HEAD_H + (int)s * CELL_H;

		strbuf_addf(sb, "<text class=\"row\" x=\"%d\" y=\"%d\">",
		    LABEL_W - 10, y + CELL_H / 2 + 2);
		add_esc(sb, g->names[s]);
		strbuf_addstr(sb, "</text>\n");
		for (d = 0; d < g->n; d++) {
			int x = LABEL_W + (int)d * CELL_W;

			if ((c = matrix_cell(m, s, d)) != NULL)
				heatmap_cell(sb, m, c, ph, x, y, max);
			else
				empty_cell(sb, g->names[s], g->names[d], x,
				    y);
		}
	}
	strbuf_addstr(sb, "</svg></figure>\n");
}

static void
legend(struct strbuf *sb, double max)
{
	strbuf_addstr(sb, "<svg class=\"legend\" xmlns=\"http://www.w3.org/"
	    "2000/svg\" width=\"320\" height=\"44\" viewBox=\"0 0 320 44\">"
	    "<defs><linearGradient id=\"scale\">");
	strbuf_addstr(sb, "<stop offset=\"0\" stop-color=\"hsl(0,70%,38%)\"/>"
	    "<stop offset=\"0.5\" stop-color=\"hsl(60,70%,40%)\"/>"
	    "<stop offset=\"1\" stop-color=\"hsl(120,70%,42%)\"/>"
	    "</linearGradient></defs>");
	strbuf_addf(sb, "<rect x=\"10\" y=\"4\" width=\"300\" height=\"14\" "
	    "fill=\"url(#scale)\"/><text x=\"10\" y=\"36\">0</text>"
	    "<text x=\"310\" y=\"36\" text-anchor=\"end\">%.1f Mbit/s</text>"
	    "</svg>\n", max);
}

static void
bars(struct strbuf *sb, const struct matrix *m, double max)
{
	int	h = 24 + (int)m->nhosts * (2 * BAR_H + 12);
	int	w = LABEL_W + BAR_CHART_W + 90, y, len, ph;
	size_t	i;

	strbuf_addf(sb, "<figure><figcaption>Per host: median %s Mbit/s over "
	    "its pairs (grey before, green after)</figcaption>\n",
	    iperf_kind_label(m->headline));
	strbuf_addf(sb, "<svg class=\"bars\" xmlns=\"http://www.w3.org/2000/"
	    "svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
	    "role=\"img\">\n", w, h, w, h);
	for (i = 0; i < m->nhosts; i++) {
		const struct matrix_host *mh = &m->hosts[i];

		y = 12 + (int)i * (2 * BAR_H + 12);
		strbuf_addf(sb, "<text class=\"row\" x=\"%d\" y=\"%d\">",
		    LABEL_W - 10, y + BAR_H + 4);
		add_esc(sb, mh->name);
		strbuf_addstr(sb, "</text>\n");
		for (ph = 0; ph < MATRIX_NPHASES; ph++) {
			if (mh->mbps[ph] < 0)
				continue;
			len = max > 0 ? (int)(mh->mbps[ph] / max *
			    BAR_CHART_W) : 0;
			strbuf_addstr(sb, "<g class=\"bar\" data-host=\"");
			add_esc(sb, mh->name);
			strbuf_addf(sb, "\" data-phase=\"%s\"><rect class=\"%s\" "
			    "x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>"
			    "<text x=\"%d\" y=\"%d\">%.1f</text></g>\n",
			    phase_names[ph], phase_names[ph], LABEL_W,
			    y + ph * BAR_H, len > 0 ? len : 1, BAR_H - 2,
			    LABEL_W + len + 6, y + ph * BAR_H + BAR_H - 3,
			    mh->mbps[ph]);
		}
	}
	strbuf_addstr(sb, "</svg></figure>\n");
}

static void
stat_cells(struct strbuf *sb, const struct matrix_stat *st)
{
	if (st->n == 0) {
		strbuf_addstr(sb, "<td>-</td><td>-</td><td>-</td><td>-</td>"
		    "<td>-</td>");
		return;
	}
	strbuf_addf(sb, "<td>%.1f</td><td>%.1f</td>", st->mbps_median,
	    st->mbps_min);
	if (st->rtt_ms_median >= 0)
		strbuf_addf(sb, "<td>%.1f</td>", st->rtt_ms_median);
	else
		strbuf_addstr(sb, "<td>-</td>");
	if (st->retransmits >= 0)
		strbuf_addf(sb, "<td>%lld</td>", st->retransmits);
	else
		strbuf_addstr(sb, "<td>-</td>");
	if (st->limited_n > 0)
		strbuf_addf(sb, "<td>%s (%zu)</td>", st->limited_by,
		    st->limited_n);
	else
		strbuf_addstr(sb, "<td>-</td>");
}

static void
table(struct strbuf *sb, const struct matrix *m)
{
	size_t	i;
	int	k;

	strbuf_addstr(sb, "<table><thead><tr><th rowspan=\"2\">src</th>"
	    "<th rowspan=\"2\">dst</th><th rowspan=\"2\">run</th>"
	    "<th rowspan=\"2\">pairs</th><th colspan=\"5\">before</th>"
	    "<th colspan=\"5\">after</th></tr><tr>"
	    "<th>median Mbit/s</th><th>min</th><th>RTT ms</th><th>retr.</th>"
	    "<th>limited by</th>"
	    "<th>median Mbit/s</th><th>min</th><th>RTT ms</th><th>retr.</th>"
	    "<th>limited by</th>"
	    "</tr></thead><tbody>\n");
	for (i = 0; i < m->ncells; i++) {
		const struct matrix_cell *c = &m->cells[i];

		for (k = 0; k < IPERF_NKINDS; k++) {
			const struct matrix_stat *b = &c->run[k][MATRIX_BEFORE];
			const struct matrix_stat *a = &c->run[k][MATRIX_AFTER];

			if (b->n == 0 && a->n == 0)
				continue;
			strbuf_addstr(sb, "<tr><td>");
			add_esc(sb, m->groups->names[c->src]);
			strbuf_addstr(sb, "</td><td>");
			add_esc(sb, m->groups->names[c->dst]);
			strbuf_addf(sb, "</td><td>%s</td><td>%zu</td>",
			    iperf_kind_label(k), b->n > a->n ? b->n : a->n);
			stat_cells(sb, b);
			stat_cells(sb, a);
			strbuf_addstr(sb, "</tr>\n");
		}
	}
	strbuf_addstr(sb, "</tbody></table>\n");
}

static const char style[] =
"body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#1a202c}"
"h1{font-size:20px}figure{margin:16px 0}figcaption{font-weight:600;"
"margin-bottom:6px}svg text{font:12px system-ui,sans-serif}"
".heatmap text.v{fill:#fff;font-size:16px;font-weight:700;"
"text-anchor:middle}.heatmap text.s{fill:#fff;text-anchor:middle}"
"text.row{text-anchor:end}text.col{text-anchor:middle;font-weight:600}"
"rect.empty{fill:#edf2f7;stroke:#cbd5e0}rect.before{fill:#a0aec0}"
"rect.after{fill:#2f855a}table{border-collapse:collapse}"
"td,th{border:1px solid #cbd5e0;padding:3px 8px;text-align:right}"
"td:nth-child(-n+3){text-align:left}.maps{display:flex;flex-wrap:wrap;"
"gap:24px}";

char *
matrix_html(const struct matrix *m, const char *when)
{
	struct strbuf	sb;
	double		max = max_mbps(m);
	size_t		i;
	int		ph;

	strbuf_init(&sb);
	strbuf_addf(&sb, "<!DOCTYPE html>\n<html lang=\"en\"><head>"
	    "<meta charset=\"utf-8\">\n<meta http-equiv=\"Content-Security-"
	    "Policy\" content=\"default-src 'none'; style-src "
	    "'unsafe-inline'\">\n<title>tcptune path matrix</title>\n"
	    "<style>%s</style></head><body>\n", style);
	strbuf_addstr(&sb, "<h1>tcptune path matrix</h1>\n<p>");
	add_esc(&sb, when);
	strbuf_addf(&sb, ": %zu pair%s in %zu group%s (", m->npairs,
	    m->npairs == 1 ? "" : "s", m->groups->n,
	    m->groups->n == 1 ? "" : "s");
	for (i = 0; i < m->groups->n; i++) {
		if (i > 0)
			strbuf_addstr(&sb, ", ");
		add_esc(&sb, m->groups->names[i]);
	}
	strbuf_addf(&sb, "; groups by %s). src is the group of the host that "
	    "ran the test, dst its peer's; up = src sends.", m->groups->rule);
	if (m->unassigned > 0)
		strbuf_addf(&sb, " %zu pair%s left out: a host in none of "
		    "matrix_groups.", m->unassigned, m->unassigned == 1 ? "" :
		    "s");
	strbuf_addstr(&sb, "</p>\n");
	if (m->ncells == 0)
		strbuf_addstr(&sb, "<p>No pair was measured.</p>\n");
	else {
		strbuf_addstr(&sb, "<div class=\"maps\">\n");
		for (ph = 0; ph < MATRIX_NPHASES; ph++) {
			if (m->have[ph])
				heatmap(&sb, m, ph, max);
		}
		strbuf_addstr(&sb, "</div>\n");
		legend(&sb, max);
		bars(&sb, m, max);
		table(&sb, m);
	}
	strbuf_addstr(&sb, "</body></html>\n");
	return strbuf_detach(&sb, NULL);
}
