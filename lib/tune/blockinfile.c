/* blockinfile's main() (see blockinfile.h); the comments name its steps. */
#include "tune/blockinfile.h"

#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/xalloc.h"
#include "tune/pyre.h"

struct bline {
	const char	*s;	/* borrowed from the text, the block or a
				 * marker */
	size_t		 n;
};

struct blines {
	struct bline	*v;
	size_t		 n, cap;
};

static void
bl_insert(struct blines *l, size_t at, const char *s, size_t n)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 16;
		l->v = xreallocarray(l->v, l->cap, sizeof *l->v);
	}
	memmove(&l->v[at + 1], &l->v[at], (l->n - at) * sizeof *l->v);
	l->v[at] = (struct bline){ s, n };
	l->n++;
}

static void
bl_remove(struct blines *l, size_t from, size_t to)
{
	memmove(&l->v[from], &l->v[to], (l->n - to) * sizeof *l->v);
	l->n -= to - from;
}

/* bytes.splitlines(True): a line ends after "\n", "\r\n" or a lone "\r". */
static void
bl_split(struct blines *l, const char *s, size_t len)
{
	size_t i = 0, start;

	while (i < len) {
		start = i;
		while (i < len && s[i] != '\n' && s[i] != '\r')
			i++;
		if (i < len && s[i] == '\r' && i + 1 < len && s[i + 1] == '\n')
			i += 2;
		else if (i < len)
			i++;
		bl_insert(l, l->n, s + start, i - start);
	}
}

static int
bl_is(const struct bline *b, const char *s)
{
	return b->n == strlen(s) && memcmp(b->s, s, b->n) == 0;
}

/* re.sub(b'{mark}', mark, marker) + os.linesep */
static char *
marker_line(const char *marker, const char *mark)
{
	struct strbuf	 sb;
	const char	*p = marker, *q;

	strbuf_init(&sb);
	while ((q = strstr(p, "{mark}")) != NULL) {
		strbuf_add(&sb, p, (size_t)(q - p));
		strbuf_addstr(&sb, mark);
		p = q + 6;
	}
	strbuf_addstr(&sb, p);
	strbuf_addch(&sb, '\n');
	return strbuf_detach(&sb, NULL);
}

static size_t
count_nl(const char *s, size_t upto)
{
	size_t i, n = 0;

	for (i = 0; i < upto; i++)
		n += s[i] == '\n';
	return n;
}

int
bif_decide(const struct bif_task *t, const char *text, size_t len,
    struct bif_out *out, char **cause)
{
	const char		*ia = t->insertafter, *ib = t->insertbefore;
	struct blines		 lines, blk;
	pcre2_code		*re = NULL;
	pcre2_match_data	*md = NULL;
	char			*m0, *m1, *block = NULL;
	size_t			 i, bn;
	long			 n0 = -1, n1 = -1;
	int			 r = -1, s, multi = 0;
	struct strbuf		 sb;

	memset(out, 0, sizeof *out);
	memset(&lines, 0, sizeof lines);
	memset(&blk, 0, sizeof blk);
	m0 = marker_line(t->marker, t->marker_begin);
	m1 = marker_line(t->marker, t->marker_end);
	if (text != NULL)
		bl_split(&lines, text, len);
	if (ia == NULL && ib == NULL)
		ia = "EOF";
	if (ia != NULL && strcmp(ia, "EOF") != 0) {
		if ((re = pyre_compile("insertafter", ia, cause)) == NULL)
			goto out;
	} else if (ib != NULL && strcmp(ib, "BOF") != 0) {
		if ((re = pyre_compile("insertbefore", ib, cause)) == NULL)
			goto out;
	}
	if (re != NULL) {
		md = pcre2_match_data_create_from_pattern(re, NULL);
		multi = pyre_multiline(ia != NULL && strcmp(ia, "EOF") != 0 ?
		    ia : ib);
	}
	/* the block between its markers */
	if (t->present && t->block != NULL && *t->block != '\0') {
		bn = strlen(t->block);
		block = t->block[bn - 1] == '\n' ? xstrdup(t->block) :
		    xprintf("%s\n", t->block);
		bl_insert(&blk, blk.n, m0, strlen(m0));
		bl_split(&blk, block, strlen(block));
		bl_insert(&blk, blk.n, m1, strlen(m1));
	}
	for (i = 0; i < lines.n; i++) {
		if (bl_is(&lines.v[i], m0))
			n0 = (long)i;
		if (bl_is(&lines.v[i], m1))
			n1 = (long)i;
	}
	if (n0 < 0 || n1 < 0) {
		n0 = -1;
		if (re != NULL) {
			if (multi && text == NULL) {
				/* the module searches None and raises */
				fail(cause, "a (?m) expression needs an "
				    "existing file");
				goto out;
			}
			if (multi) {
				s = pyre_search(re, text, len, md);
				if (s < 0) {
					fail(cause, "the match limit was hit");
					goto out;
				}
				if (s) {
					PCRE2_SIZE *ov =
					    pcre2_get_ovector_pointer(md);

					if (ia != NULL)
						n0 = (long)count_nl(text,
						    ov[1]);
					else
						n0 = (long)count_nl(text,
						    ov[0]);
				}
			} else {
				for (i = 0; i < lines.n; i++) {
					s = pyre_search(re, lines.v[i].s,
					    lines.v[i].n, md);
					if (s < 0) {
						fail(cause, "the match limit "
						    "was hit");
						goto out;
					}
					if (s)
						n0 = (long)i;
				}
			}
			if (n0 < 0)
				n0 = (long)lines.n;
			else if (ia != NULL)
				n0++;
		} else if (ib != NULL)
			n0 = 0;
		else
			n0 = (long)lines.n;
	} else if (n0 < n1)
		bl_remove(&lines, (size_t)n0, (size_t)n1 + 1);
	else {
		bl_remove(&lines, (size_t)n1, (size_t)n0 + 1);
		n0 = n1;
	}
	strbuf_init(&sb);
	/* the line before the block gets a line break if it has none */
	for (i = 0; i < lines.n; i++) {
		strbuf_add(&sb, lines.v[i].s, lines.v[i].n);
		if ((long)i == n0 - 1 && (lines.v[i].n == 0 ||
		    lines.v[i].s[lines.v[i].n - 1] != '\n'))
			strbuf_addch(&sb, '\n');
		if ((long)i == n0 - 1)
			for (bn = 0; bn < blk.n; bn++)
				strbuf_add(&sb, blk.v[bn].s, blk.v[bn].n);
	}
	if (n0 == 0 || (size_t)n0 > lines.n || lines.n == 0) {
		/* the block at the very start (or into an empty file) */
		struct strbuf pre;

		strbuf_init(&pre);
		for (bn = 0; bn < blk.n; bn++)
			strbuf_add(&pre, blk.v[bn].s, blk.v[bn].n);
		strbuf_add(&pre, sb.buf, sb.len);
		strbuf_release(&sb);
		sb = pre;
	}
	out->text = strbuf_detach(&sb, &out->len);
	if (text != NULL && out->len == len && memcmp(out->text, text,
	    len) == 0)
		out->msg = "";
	else if (text == NULL)
		out->msg = "File created";
	else if (blk.n == 0)
		out->msg = "Block removed";
	else
		out->msg = "Block inserted";
	out->changed = *out->msg != '\0';
	r = 0;
out:
	free(m0);
	free(m1);
	free(block);
	free(lines.v);
	free(blk.v);
	pcre2_match_data_free(md);
	pcre2_code_free(re);
	return r;
}

void
bif_out_clear(struct bif_out *out)
{
	free(out->text);
	memset(out, 0, sizeof *out);
}
