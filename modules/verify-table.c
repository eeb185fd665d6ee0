/* The before/after table and the gate of iperf3_verify. */
#include "modules/verify-table.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/xalloc.h"

double
verify_ratio(const struct iperf_set *before, const struct iperf_set *after,
    enum iperf_kind k)
{
	double b, a;

	if (before == NULL || after == NULL || !before->have[k] ||
	    !after->have[k])
		return -1;
	b = before->run[k].mbps;
	a = after->run[k].mbps;
	if (b < 0 || a < 0)
		return -1;
	if (b == 0)
		return a > 0 ? HUGE_VAL : 1;
	return a / b;
}

static void
add_sep(struct strbuf *sb, const char *sep)
{
	if (sb->len > 0)
		strbuf_addstr(sb, sep);
}

static void
fmt_ratio(char *buf, size_t len, double r)
{
	if (r < 0)
		snprintf(buf, len, "-");
	else if (isinf(r))
		snprintf(buf, len, "inf");
	else if (r < 1)
		snprintf(buf, len, "%.2fx", r);
	else
		snprintf(buf, len, "%.1fx", r);
}

int
verify_rtt_limit_parse(const char *text, enum verify_rtt_kind *kind,
    double *value, char **cause)
{
	const char	*s = text;
	char		*end;
	double		 v;

	while (*s == ' ')
		s++;
	v = strtod(s, &end);
	if (end == s || !isfinite(v) || v < 0)
		goto bad;
	while (*end == ' ')
		end++;
	if (strcmp(end, "x") == 0) {
		if (v < 1)
			return fail(cause, "max_rtt_increase: a ratio must be "
			    "at least 1x, got '%s'", text);
		*kind = VERIFY_RTT_RATIO;
	} else if (*end == '\0' || strcmp(end, "ms") == 0)
		*kind = VERIFY_RTT_MS;
	else
		goto bad;
	*value = v;
	return 0;
bad:
	return fail(cause, "max_rtt_increase: expected milliseconds (50, "
	    "'50ms') or a ratio ('1.5x'), got '%s'", text);
}

double
verify_retransmit_rate(const struct iperf_run *r)
{
	double segments;
	int mss = r->mss > 0 ? r->mss : VERIFY_DEFAULT_MSS;

	if (r->retransmits < 0 || r->sent_mbps < 0 || r->seconds <= 0)
		return -1;
	segments = r->sent_mbps * 1e6 / 8 * r->seconds / mss;
	if (segments < 1)
		return r->retransmits > 0 ? 1 : 0;
	return (double)r->retransmits / segments;
}

static void
fmt_rtt_limit(char *buf, size_t len, const struct verify_gate *g)
{
	if (g->rtt_kind == VERIFY_RTT_RATIO)
		snprintf(buf, len, "%gx", g->rtt_value);
	else
		snprintf(buf, len, "%g ms", g->rtt_value);
}

/* The latency guard on the loaded RTT: failures into bad, else what was
 * checked into good. */
static void
gate_rtt(const struct iperf_set *before, const struct iperf_set *after,
    const struct verify_gate *g, struct strbuf *bad, struct strbuf *good)
{
	double	b, a, worst = 0;
	char	lim[32];
	int	k, checked = 0, over;
	size_t	len = bad->len;

	fmt_rtt_limit(lim, sizeof lim, g);
	for (k = 0; k < IPERF_NKINDS; k++) {
		if (!before->have[k] || !after->have[k])
			continue;
		b = before->run[k].rtt_mean_ms;
		a = after->run[k].rtt_mean_ms;
		if (b <= 0 || a < 0)
			continue;
		checked++;
		if (g->rtt_kind == VERIFY_RTT_RATIO) {
			over = a / b > g->rtt_value;
			worst = checked == 1 || a / b > worst ? a / b : worst;
		} else {
			over = a - b > g->rtt_value;
			worst = checked == 1 || a - b > worst ? a - b : worst;
		}
		if (!over)
			continue;
		add_sep(bad, "; ");
		strbuf_addf(bad, "%s loaded RTT %.1f -> %.1f ms (",
		    iperf_kind_label(k), b, a);
		if (g->rtt_kind == VERIFY_RTT_RATIO)
			strbuf_addf(bad, "%.2fx", a / b);
		else
			strbuf_addf(bad, "%+.1f ms", a - b);
		strbuf_addf(bad, ", more than max_rtt_increase %s)", lim);
	}
	if (checked == 0) {
		add_sep(bad, "; ");
		strbuf_addf(bad, "no run has a loaded RTT before and after: "
		    "max_rtt_increase %s cannot be checked", lim);
	} else if (bad->len == len) {
		add_sep(good, ", ");
		if (g->rtt_kind == VERIFY_RTT_RATIO)
			strbuf_addf(good, "loaded RTT at most %.2fx", worst);
		else
			strbuf_addf(good, "loaded RTT at most %+.1f ms", worst);
		strbuf_addf(good, " (max_rtt_increase %s)", lim);
	}
}

/* The retransmit guard, on the runs measured after. */
static void
gate_retransmits(const struct iperf_set *after, const struct verify_gate *g,
    struct strbuf *bad, struct strbuf *good)
{
	double	rate, worst = 0;
	int	k, checked = 0;
	size_t	len = bad->len;

	for (k = 0; k < IPERF_NKINDS; k++) {
		if (!after->have[k] ||
		    (rate = verify_retransmit_rate(&after->run[k])) < 0)
			continue;
		checked++;
		if (rate > worst)
			worst = rate;
		if (rate <= g->max_retr_rate)
			continue;
		add_sep(bad, "; ");
		strbuf_addf(bad, "%s retransmitted %.2f%% of its segments "
		    "(%lld), more than max_retransmit_rate %g%%",
		    iperf_kind_label(k), rate * 100,
		    after->run[k].retransmits, g->max_retr_rate * 100);
	}
	if (checked == 0) {
		add_sep(bad, "; ");
		strbuf_addf(bad, "no run has retransmit figures: "
		    "max_retransmit_rate %g%% cannot be checked",
		    g->max_retr_rate * 100);
	} else if (bad->len == len) {
		add_sep(good, ", ");
		strbuf_addf(good, "retransmits at most %.2f%% of segments "
		    "(max_retransmit_rate %g%%)", worst * 100,
		    g->max_retr_rate * 100);
	}
}

enum iperf_kind
verify_gain_kind(const struct iperf_set *before, const struct iperf_set *after,
    enum iperf_kind k)
{
	enum iperf_kind m = iperf_kind_mirror(k);

	if (!before->have[k] && !after->have[k] && before->have[m] &&
	    after->have[m])
		return m;
	return k;
}

/* min_gain on the run verify_gain_kind picks; a mirrored run says why it
 * is not the one gain_on names. */
static void
gate_gain(const struct iperf_set *before, const struct iperf_set *after,
    const struct verify_gate *g, struct strbuf *bad, struct strbuf *good)
{
	enum iperf_kind	 k = verify_gain_kind(before, after, g->gain_kind);
	double		 r = verify_ratio(before, after, k);
	char		 rb[32], here[160] = "";

	fmt_ratio(rb, sizeof rb, r);
	if (k != g->gain_kind)
		snprintf(here, sizeof here, "; the pair ran one direction, "
		    "%s at this end, no %s", iperf_kind_label(k),
		    iperf_kind_label(g->gain_kind));
	if (r < 0) {
		add_sep(bad, "; ");
		strbuf_addf(bad, "%s was not measured before and after: "
		    "min_gain %gx cannot be checked", iperf_kind_label(k),
		    g->min_gain);
	} else if (r < g->min_gain) {
		add_sep(bad, "; ");
		strbuf_addf(bad, "%s gained %s (%.1f -> %.1f Mbit/s), less "
		    "than min_gain %gx%s", iperf_kind_label(k), rb,
		    before->run[k].mbps, after->run[k].mbps, g->min_gain,
		    here);
	} else {
		add_sep(good, ", ");
		strbuf_addf(good, "%s gained %s (min_gain %gx%s)",
		    iperf_kind_label(k), rb, g->min_gain, here);
	}
}

int
verify_gate_check(const struct iperf_set *before,
    const struct iperf_set *after, const struct verify_gate *g, char **why)
{
	struct strbuf	 bad, good;
	double		 r, floor_mbps;
	int		 k, passed;

	strbuf_init(&bad);
	strbuf_init(&good);
	if (g->min_gain > 0)
		gate_gain(before, after, g, &bad, &good);
	if (g->max_regression >= 0) {
		int checked = 0;

		for (k = 0; k < IPERF_NKINDS; k++) {
			if ((r = verify_ratio(before, after, k)) < 0)
				continue;
			checked++;
			floor_mbps = before->run[k].mbps *
			    (1 - g->max_regression);
			if (after->run[k].mbps >= floor_mbps)
				continue;
			add_sep(&bad, "; ");
			strbuf_addf(&bad, "%s %.1f -> %.1f Mbit/s (%+.0f%%, "
			    "more than the %g%% allowed)", iperf_kind_label(k),
			    before->run[k].mbps, after->run[k].mbps,
			    (r - 1) * 100, g->max_regression * 100);
		}
		if (checked > 0 && bad.len == 0) {
			add_sep(&good, ", ");
			strbuf_addf(&good, "no run lost more than %g%%",
			    g->max_regression * 100);
		} else if (checked == 0) {
			add_sep(&good, ", ");
			strbuf_addstr(&good, "no run measured in both phases");
		}
	}
	if (g->rtt_kind != VERIFY_RTT_NONE)
		gate_rtt(before, after, g, &bad, &good);
	if (g->retr_guard)
		gate_retransmits(after, g, &bad, &good);
	passed = bad.len == 0;
	if (passed) {
		if (good.len == 0)
			strbuf_addstr(&good, "nothing to check");
		*why = strbuf_detach(&good, NULL);
		strbuf_release(&bad);
	} else {
		*why = strbuf_detach(&bad, NULL);
		strbuf_release(&good);
	}
	return passed;
}

static void
fmt_num(char *buf, size_t len, double v)
{
	if (v < 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.1f", v);
}

static void
fmt_retr(char *buf, size_t len, long long v)
{
	if (v < 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%lld", v);
}

static const char *
cc_of(const struct iperf_run *r)
{
	return r->congestion[0] != '\0' ? r->congestion : "-";
}

static void
add_head(struct strbuf *sb, const struct verify_head *h)
{
	strbuf_addf(sb, "%s -> %s (%s): iperf3 -t %d -O %d", h->host,
	    h->peer, h->address, h->duration, h->omit);
	if (h->parallel > 1)
		strbuf_addf(sb, ", multi = -P %d", h->parallel);
	strbuf_addstr(sb, "; up = host sends, down = peer sends (-R)\n");
}

const char *
verify_diag_cell(const json_t *diag, char *buf, size_t len)
{
	const char *limit = json_string_value(json_object_get(diag, "limit"));
	const char *host = json_string_value(json_object_get(diag, "host"));

	if (limit == NULL)
		snprintf(buf, len, "-");
	else if (host != NULL)
		snprintf(buf, len, "%s %s", limit, host);
	else
		snprintf(buf, len, "%s", limit);
	return buf;
}

/* The "limited by" cell of run k. */
static const char *
limited_by(const json_t *diagnosis, int k, char *buf, size_t len)
{
	return verify_diag_cell(json_object_get(diagnosis, iperf_kind_name(k)),
	    buf, len);
}

static void
table_before_only(struct strbuf *sb, const struct iperf_set *s,
    const json_t *diagnosis)
{
	char	m[32], rt[32], mn[32], mean[32], mx[32], rtt[100], lim[80];
	int	k;

	strbuf_addf(sb, "  %-12s %8s %12s  %-23s %-6s %s\n", "test", "Mbit/s",
	    "retransmits", "RTT ms min/mean/max", "cc", "limited by");
	for (k = 0; k < IPERF_NKINDS; k++) {
		const struct iperf_run *r = &s->run[k];

		if (!s->have[k])
			continue;
		fmt_num(m, sizeof m, r->mbps);
		fmt_retr(rt, sizeof rt, r->retransmits);
		fmt_num(mn, sizeof mn, r->rtt_min_ms);
		fmt_num(mean, sizeof mean, r->rtt_mean_ms);
		fmt_num(mx, sizeof mx, r->rtt_max_ms);
		snprintf(rtt, sizeof rtt, "%s/%s/%s", mn, mean, mx);
		strbuf_addf(sb, "  %-12s %8s %12s  %-23s %-6s %s\n",
		    iperf_kind_label(k), m, rt, rtt, cc_of(r),
		    limited_by(diagnosis, k, lim, sizeof lim));
	}
}

static void
table_before_after(struct strbuf *sb, const struct iperf_set *b,
    const struct iperf_set *a, const json_t *diagnosis)
{
	char	mb[32], ma[32], ratio[32], r1[32], r2[32], t1[32], t2[32];
	char	retr[80], rtt[80], cc[80], lim[80];
	int	k;

	strbuf_addf(sb, "  %-12s %13s %9s %8s  %-16s %-16s %-14s %s\n",
	    "test", "Mbit/s before", "after", "ratio", "retransmits",
	    "RTT ms (mean)", "cc", "limited by (after)");
	for (k = 0; k < IPERF_NKINDS; k++) {
		const struct iperf_run *rb = &b->run[k], *ra = &a->run[k];
		static const struct iperf_run none = {
			.mbps = -1, .retransmits = -1, .rtt_mean_ms = -1,
		};

		if (!b->have[k] && !a->have[k])
			continue;
		if (!b->have[k])
			rb = &none;
		if (!a->have[k])
			ra = &none;
		fmt_num(mb, sizeof mb, rb->mbps);
		fmt_num(ma, sizeof ma, ra->mbps);
		fmt_ratio(ratio, sizeof ratio, verify_ratio(b, a, k));
		fmt_retr(r1, sizeof r1, rb->retransmits);
		fmt_retr(r2, sizeof r2, ra->retransmits);
		snprintf(retr, sizeof retr, "%s -> %s", r1, r2);
		fmt_num(t1, sizeof t1, rb->rtt_mean_ms);
		fmt_num(t2, sizeof t2, ra->rtt_mean_ms);
		snprintf(rtt, sizeof rtt, "%s -> %s", t1, t2);
		snprintf(cc, sizeof cc, "%s -> %s", cc_of(rb), cc_of(ra));
		strbuf_addf(sb, "  %-12s %13s %9s %8s  %-16s %-16s %-14s %s\n",
		    iperf_kind_label(k), mb, ma, ratio, retr, rtt, cc,
		    limited_by(diagnosis, k, lim, sizeof lim));
	}
}

char *
verify_table(const struct verify_head *h, const struct iperf_set *before,
    const struct iperf_set *after, const json_t *diagnosis,
    const char *footer)
{
	struct strbuf sb;

	strbuf_init(&sb);
	add_head(&sb, h);
	if (after == NULL)
		table_before_only(&sb, before, diagnosis);
	else
		table_before_after(&sb, before, after, diagnosis);
	if (footer != NULL)
		strbuf_addf(&sb, "  %s\n", footer);
	return strbuf_detach(&sb, NULL);
}

char *
verify_summary(const struct iperf_set *before, const struct iperf_set *after)
{
	struct strbuf	sb;
	char		ratio[32];
	int		k;

	strbuf_init(&sb);
	for (k = 0; k < IPERF_NKINDS; k++) {
		if (after == NULL) {
			if (!before->have[k])
				continue;
			add_sep(&sb, ", ");
			strbuf_addf(&sb, "%s %.1f Mbit/s", iperf_kind_label(k),
			    before->run[k].mbps);
			continue;
		}
		if (!after->have[k])
			continue;
		add_sep(&sb, ", ");
		if (before == NULL || !before->have[k]) {
			strbuf_addf(&sb, "%s %.1f Mbit/s", iperf_kind_label(k),
			    after->run[k].mbps);
			continue;
		}
		fmt_ratio(ratio, sizeof ratio, verify_ratio(before, after, k));
		strbuf_addf(&sb, "%s %.1f -> %.1f Mbit/s (%s)",
		    iperf_kind_label(k), before->run[k].mbps,
		    after->run[k].mbps, ratio);
	}
	if (sb.len == 0)
		strbuf_addstr(&sb, "nothing measured");
	return strbuf_detach(&sb, NULL);
}
