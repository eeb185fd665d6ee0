/* Unified diff: the common head and tail are taken off, Myers' shortest
 * edit script is found for the lines between (files here are small, so the
 * whole trace is kept), each run of changes is printed deletions first (as
 * GNU diff does), and hunks are grouped with context as `diff -u` does. */

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/udiff.h"
#include "base/xalloc.h"

struct line {
	const char	*s;
	size_t		 len;	/* without the newline */
	int		 nl;	/* ends in a newline */
};

struct lines {
	struct line	*v;
	size_t		 n;
};

enum op_type { OP_EQ, OP_DEL, OP_INS };

struct op {
	enum op_type	type;
	size_t		a;	/* old line index (next old line for INS) */
	size_t		b;	/* new line index (next new line for DEL) */
};

static void
split_lines(const char *text, struct lines *l)
{
	const char	*p = text, *nl;

	l->v = NULL;
	l->n = 0;
	if (text == NULL)
		return;
	while (*p != '\0') {
		l->v = xreallocarray(l->v, l->n + 1, sizeof *l->v);
		nl = strchr(p, '\n');
		l->v[l->n].s = p;
		if (nl == NULL) {
			l->v[l->n].len = strlen(p);
			l->v[l->n].nl = 0;
			p += l->v[l->n].len;
		} else {
			l->v[l->n].len = nl - p;
			l->v[l->n].nl = 1;
			p = nl + 1;
		}
		l->n++;
	}
}

static int
line_eq(const struct line *x, const struct line *y)
{
	return x->len == y->len && x->nl == y->nl &&
	    memcmp(x->s, y->s, x->len) == 0;
}

static void
add_op(struct op **ops, size_t *n, enum op_type t, size_t a, size_t b)
{
	*ops = xreallocarray(*ops, *n + 1, sizeof **ops);
	(*ops)[*n].type = t;
	(*ops)[*n].a = a;
	(*ops)[*n].b = b;
	(*n)++;
}

/* Myers' O(ND) greedy algorithm on a[off..off+n) and b[off..off+m): the
 * shortest edit script, preferring deletions where two are as short (as
 * GNU diff does). Returns the ops in reverse order (*nops of them), or
 * NULL if the script is too long to trace within UDIFF_MAX_CELLS. */
static enum op_type *
myers(const struct lines *a, const struct lines *b, size_t off, size_t n,
    size_t m, size_t *nops)
{
	enum op_type	*out = NULL;
	ptrdiff_t	*v, *trace = NULL, *prev;
	ptrdiff_t	 N = n, M = m, max = N + M, d, k, x, y, px, pk, D = -1;
	size_t		 cap = 0, need;

	/* v[k + max + 1] is the furthest x on diagonal k = x - y. */
	v = xcalloc(2 * max + 3, sizeof *v);
	for (d = 0; d <= max && D < 0; d++) {
		/* The trace of step d holds diagonals -d..d at d*d. */
		need = (size_t)(d + 1) * (size_t)(d + 1);
		if (need > UDIFF_MAX_CELLS)
			goto out;
		if (need > cap) {
			cap = need * 2 < UDIFF_MAX_CELLS ? need * 2 :
			    UDIFF_MAX_CELLS;
			trace = xreallocarray(trace, cap, sizeof *trace);
		}
		for (k = -d; k <= d; k += 2) {
			if (k == -d || (k != d && v[k - 1 + max + 1] <
			    v[k + 1 + max + 1]))
				x = v[k + 1 + max + 1];		/* insert */
			else
				x = v[k - 1 + max + 1] + 1;	/* delete */
			y = x - k;
			while (x < N && y < M && line_eq(&a->v[off + x],
			    &b->v[off + y])) {
				x++;
				y++;
			}
			v[k + max + 1] = x;
			trace[d * d + k + d] = x;
			if (x >= N && y >= M)
				D = d;
		}
	}

	/* Walk back from (n, m) through the trace. */
	out = xreallocarray(NULL, n + m + 1, sizeof *out);
	*nops = 0;
	x = N;
	y = M;
	for (d = D; d > 0; d--) {
		prev = trace + (d - 1) * (d - 1) + (d - 1);	/* index by k */
		k = x - y;
		if (k == -d || (k != d && prev[k - 1] < prev[k + 1]))
			pk = k + 1;
		else
			pk = k - 1;
		px = prev[pk];
		/* The snake after the edit... */
		while (x > (pk == k + 1 ? px : px + 1)) {
			out[(*nops)++] = OP_EQ;
			x--;
			y--;
		}
		/* ...and the edit itself. */
		out[(*nops)++] = pk == k + 1 ? OP_INS : OP_DEL;
		x = px;
		y = px - pk;
	}
	while (x > 0) {
		out[(*nops)++] = OP_EQ;
		x--;
	}
out:
	free(v);
	free(trace);
	return out;
}

/* The edit script turning a into b. */
static struct op *
edit_script(const struct lines *a, const struct lines *b, size_t *nops)
{
	struct op	*ops = NULL;
	enum op_type	*mid;
	size_t		 head = 0, tail = 0, n, m, i, j, k, x, nmid;
	size_t		 ndel, nins;

	*nops = 0;
	while (head < a->n && head < b->n &&
	    line_eq(&a->v[head], &b->v[head]))
		head++;
	while (tail < a->n - head && tail < b->n - head &&
	    line_eq(&a->v[a->n - 1 - tail], &b->v[b->n - 1 - tail]))
		tail++;
	n = a->n - head - tail;
	m = b->n - head - tail;

	for (i = 0; i < head; i++)
		add_op(&ops, nops, OP_EQ, i, i);

	if (n != 0 && m != 0 &&
	    (mid = myers(a, b, head, n, m, &nmid)) != NULL) {
		/* Forward again; in each run of changes the deletions go
		 * first, as diff prints them. */
		i = head;
		j = head;
		for (k = nmid; k > 0;) {
			if (mid[k - 1] == OP_EQ) {
				add_op(&ops, nops, OP_EQ, i++, j++);
				k--;
				continue;
			}
			ndel = nins = 0;
			for (; k > 0 && mid[k - 1] != OP_EQ; k--) {
				if (mid[k - 1] == OP_DEL)
					ndel++;
				else
					nins++;
			}
			for (x = 0; x < ndel; x++)
				add_op(&ops, nops, OP_DEL, i + x, j);
			for (x = 0; x < nins; x++)
				add_op(&ops, nops, OP_INS, i + ndel, j + x);
			i += ndel;
			j += nins;
		}
		free(mid);
	} else {
		/* Nothing in common in the middle (or too large to look):
		 * delete it all, then insert it all. */
		for (i = 0; i < n; i++)
			add_op(&ops, nops, OP_DEL, head + i, head);
		for (j = 0; j < m; j++)
			add_op(&ops, nops, OP_INS, head + n, head + j);
	}

	for (i = 0; i < tail; i++)
		add_op(&ops, nops, OP_EQ, head + n + i, head + m + i);
	return ops;
}

static void
add_line(struct strbuf *sb, char prefix, const struct line *l)
{
	strbuf_addch(sb, prefix);
	strbuf_add(sb, l->s, l->len);
	strbuf_addch(sb, '\n');
	if (!l->nl)
		strbuf_addstr(sb, "\\ No newline at end of file\n");
}

/* "start,count" as diff prints it: ",1" is left out, and an empty range
 * names the line before it. */
static void
add_range(struct strbuf *sb, size_t start, size_t count)
{
	if (count == 1)
		strbuf_addf(sb, "%zu", start + 1);
	else if (count == 0)
		strbuf_addf(sb, "%zu,0", start);
	else
		strbuf_addf(sb, "%zu,%zu", start + 1, count);
}

static void
add_hunk(struct strbuf *sb, const struct op *ops, size_t from, size_t to,
    const struct lines *a, const struct lines *b)
{
	size_t	i, na = 0, nb = 0;

	for (i = from; i < to; i++) {
		if (ops[i].type != OP_INS)
			na++;
		if (ops[i].type != OP_DEL)
			nb++;
	}
	strbuf_addstr(sb, "@@ -");
	add_range(sb, ops[from].a, na);
	strbuf_addstr(sb, " +");
	add_range(sb, ops[from].b, nb);
	strbuf_addstr(sb, " @@\n");
	for (i = from; i < to; i++) {
		switch (ops[i].type) {
		case OP_EQ:
			add_line(sb, ' ', &a->v[ops[i].a]);
			break;
		case OP_DEL:
			add_line(sb, '-', &a->v[ops[i].a]);
			break;
		case OP_INS:
			add_line(sb, '+', &b->v[ops[i].b]);
			break;
		}
	}
}

char *
udiff(const char *old_text, const char *new_text, const char *old_label,
    const char *new_label, int context)
{
	struct strbuf	 sb;
	struct lines	 a, b;
	struct op	*ops;
	size_t		 nops, i, start, end, last, ctx;

	ctx = context < 0 ? 3 : (size_t)context;
	split_lines(old_text, &a);
	split_lines(new_text, &b);
	ops = edit_script(&a, &b, &nops);
	strbuf_init(&sb);

	for (i = 0; i < nops && ops[i].type == OP_EQ; i++)
		;
	if (i == nops)
		goto out;
	strbuf_addf(&sb, "--- %s\n+++ %s\n",
	    old_text == NULL ? "/dev/null" : old_label,
	    new_text == NULL ? "/dev/null" : new_label);
	while (i < nops) {
		/* i is a change: the hunk starts ctx lines before it. */
		start = i > ctx ? i - ctx : 0;
		last = i;
		for (;;) {
			/* Find the next change after the run ending at last. */
			for (i = last + 1; i < nops && ops[i].type != OP_EQ;
			    i++)
				;
			last = i - 1;
			while (i < nops && ops[i].type == OP_EQ)
				i++;
			/* Merge when the equal run between is at most two
			 * contexts long, as diff does. */
			if (i < nops && i - last - 1 <= 2 * ctx) {
				last = i;
				continue;
			}
			break;
		}
		end = last + 1 + ctx;
		if (end > nops)
			end = nops;
		add_hunk(&sb, ops, start, end, &a, &b);
	}
out:
	free(ops);
	free(a.v);
	free(b.v);
	return strbuf_detach(&sb, NULL);
}
