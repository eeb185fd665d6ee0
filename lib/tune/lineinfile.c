/* lineinfile's present() and absent(), as the module writes them (see
 * lineinfile.h); the comments name the module's own steps. */
#include "tune/lineinfile.h"

#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/xalloc.h"
#include "tune/pyre.h"

/* A line of the file: bytes, with its '\n' when it has one. */
struct lline {
	char	*s;
	size_t	 n;
};

struct lines {
	struct lline	*v;
	size_t		 n, cap;
};

static void
lines_insert(struct lines *l, size_t at, const char *s, size_t n)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 16;
		l->v = xreallocarray(l->v, l->cap, sizeof *l->v);
	}
	memmove(&l->v[at + 1], &l->v[at], (l->n - at) * sizeof *l->v);
	l->v[at].s = xmalloc(n + 1);
	memcpy(l->v[at].s, s, n);
	l->v[at].s[n] = '\0';
	l->v[at].n = n;
	l->n++;
}

static void
lines_append(struct lines *l, const char *s, size_t n)
{
	lines_insert(l, l->n, s, n);
}

static void
lines_set(struct lines *l, size_t at, const char *s, size_t n)
{
	free(l->v[at].s);
	l->v[at].s = xmalloc(n + 1);
	memcpy(l->v[at].s, s, n);
	l->v[at].s[n] = '\0';
	l->v[at].n = n;
}

static void
lines_free(struct lines *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->v[i].s);
	free(l->v);
	memset(l, 0, sizeof *l);
}

/* Python's readlines() on bytes: each line ends after its '\n'. */
static void
lines_split(struct lines *l, const char *text, size_t len)
{
	const char	*p = text, *end = text + len, *nl;

	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		nl = nl != NULL ? nl + 1 : end;
		lines_append(l, p, (size_t)(nl - p));
		p = nl;
	}
}

/* b_cur_line.rstrip(b'\r\n') == line */
static int
stripped_is(const struct lline *cur, const char *line, size_t ll)
{
	size_t n = cur->n;

	while (n > 0 && (cur->s[n - 1] == '\r' || cur->s[n - 1] == '\n'))
		n--;
	return n == ll && memcmp(cur->s, line, n) == 0;
}

/* b_lines[-1][-1:] in (b'\n', b'\r') */
static int
ends_in_break(const struct lline *cur)
{
	return cur->n > 0 && (cur->s[cur->n - 1] == '\n' ||
	    cur->s[cur->n - 1] == '\r');
}

/* Group g of the match, into sb (an unmatched group adds nothing). */
static int
add_group(struct strbuf *sb, const struct lline *subj, pcre2_code *code,
    pcre2_match_data *md, unsigned g, char **cause)
{
	PCRE2_SIZE	*ov = pcre2_get_ovector_pointer(md);
	uint32_t	 ngroups;

	pcre2_pattern_info(code, PCRE2_INFO_CAPTURECOUNT, &ngroups);
	if (g > ngroups)
		return fail(cause, "line: invalid group reference %u", g);
	if (ov[2 * g] == PCRE2_UNSET)
		return 0;
	strbuf_add(sb, subj->s + ov[2 * g], ov[2 * g + 1] - ov[2 * g]);
	return 0;
}

static int
is_oct(char c)
{
	return c >= '0' && c <= '7';
}

static int
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* match.expand(line), as sre_parse.parse_template reads the template. */
static int
expand(const char *t, const struct lline *subj, pcre2_code *code,
    pcre2_match_data *md, struct strbuf *sb, char **cause)
{
	static const char esc_from[] = "abfnrtv\\";
	static const char esc_to[] = "\a\b\f\n\r\t\v\\";
	const char	*e;
	char		*name;
	int		 num;
	size_t		 i, k;

	for (i = 0; t[i] != '\0'; i++) {
		char c;

		if (t[i] != '\\' || t[i + 1] == '\0') {
			if (t[i] == '\\')
				return fail(cause, "line: bad escape (end of "
				    "pattern)");
			strbuf_addch(sb, t[i]);
			continue;
		}
		c = t[++i];
		if (c == 'g') {
			if (t[i + 1] != '<' || (e = strchr(t + i + 2, '>')) ==
			    NULL)
				return fail(cause, "line: missing group name "
				    "in \\g<...>");
			name = xstrndup(t + i + 2, (size_t)(e - t - i - 2));
			for (k = 0; name[k] != '\0' && is_digit(name[k]); k++)
				;
			if (name[0] != '\0' && name[k] == '\0')
				num = atoi(name);
			else
				num = pcre2_substring_number_from_name(code,
				    (PCRE2_SPTR)name);
			free(name);
			if (num < 0)
				return fail(cause, "line: unknown group name "
				    "in \\g<...>");
			if (add_group(sb, subj, code, md, (unsigned)num,
			    cause) != 0)
				return -1;
			i = (size_t)(e - t);
		} else if (c == '0') {
			/* \0 and up to two more octal digits */
			num = 0;
			for (k = 0; k < 2 && is_oct(t[i + 1]); k++)
				num = num * 8 + (t[++i] - '0');
			strbuf_addch(sb, (char)num);
		} else if (is_digit(c)) {
			if (is_digit(t[i + 1])) {
				if (is_oct(c) && is_oct(t[i + 1]) &&
				    is_oct(t[i + 2])) {
					num = (c - '0') * 64 +
					    (t[i + 1] - '0') * 8 +
					    (t[i + 2] - '0');
					if (num > 0377)
						return fail(cause, "line: "
						    "octal escape value "
						    "outside of range");
					strbuf_addch(sb, (char)num);
					i += 2;
					continue;
				}
				num = (c - '0') * 10 + (t[i + 1] - '0');
				i++;
			} else
				num = c - '0';
			if (add_group(sb, subj, code, md, (unsigned)num,
			    cause) != 0)
				return -1;
		} else if ((e = strchr(esc_from, c)) != NULL)
			strbuf_addch(sb, esc_to[e - esc_from]);
		else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
			return fail(cause, "line: bad escape \\%c", c);
		else {
			strbuf_addch(sb, '\\');
			strbuf_addch(sb, c);
		}
	}
	return 0;
}

static void
join(const struct lines *l, struct lif_out *out)
{
	struct strbuf	sb;
	size_t		i;

	strbuf_init(&sb);
	for (i = 0; i < l->n; i++)
		strbuf_add(&sb, l->v[i].s, l->v[i].n);
	out->text = strbuf_detach(&sb, &out->len);
}

/* line + os.linesep */
static char *
with_sep(const char *line, size_t *n)
{
	char *s = xprintf("%s\n", line);

	*n = strlen(s);
	return s;
}

static int
present(const struct lif_task *t, struct lines *bl, struct lif_out *out,
    char **cause)
{
	pcre2_code		*re_m = NULL, *re_ins = NULL;
	pcre2_match_data	*md = NULL, *md_ins = NULL;
	const char		*ia = t->insertafter, *ib = t->insertbefore;
	const char		*line = t->line;
	size_t			 ll = strlen(line), i, nn;
	long			 index0 = -1, index1 = -1;
	int			 match = 0, exact = 0, r = -1, s;
	char			*nl = NULL;
	struct strbuf		 nb;

	strbuf_init(&nb);
	out->msg = "";
	if (t->regexp != NULL &&
	    (re_m = pyre_compile("regexp", t->regexp, cause)) == NULL)
		goto out;
	if (ia != NULL && strcmp(ia, "BOF") != 0 && strcmp(ia, "EOF") != 0) {
		if ((re_ins = pyre_compile("insertafter", ia, cause)) == NULL)
			goto out;
	} else if (ib != NULL && strcmp(ib, "BOF") != 0) {
		if ((re_ins = pyre_compile("insertbefore", ib, cause)) == NULL)
			goto out;
	}
	if (re_m != NULL)
		md = pcre2_match_data_create_from_pattern(re_m, NULL);
	if (re_ins != NULL)
		md_ins = pcre2_match_data_create_from_pattern(re_ins, NULL);
	/* 1. the regexp; the match kept is the last (firstmatch: the first) */
	if (re_m != NULL) {
		pcre2_match_data *tmp =
		    pcre2_match_data_create_from_pattern(re_m, NULL);
		long at = -1;

		for (i = 0; i < bl->n; i++) {
			if ((s = pyre_search(re_m, bl->v[i].s, bl->v[i].n, tmp)) < 0) {
				pcre2_match_data_free(tmp);
				fail(cause, "regexp: the match limit was hit");
				goto out;
			}
			if (s) {
				at = (long)i;
				pcre2_match_data_free(md);
				md = tmp;
				tmp = pcre2_match_data_create_from_pattern(re_m,
				    NULL);
				if (t->firstmatch)
					break;
			}
		}
		pcre2_match_data_free(tmp);
		if (at >= 0) {
			index0 = at;
			match = 1;
		}
	}
	/* 2. the search string */
	if (t->search_string != NULL) {
		for (i = 0; i < bl->n; i++) {
			if (memmem(bl->v[i].s, bl->v[i].n, t->search_string,
			    strlen(t->search_string)) != NULL) {
				index0 = (long)i;
				match = 1;
				if (t->firstmatch)
					break;
			}
		}
	}
	/* 3. no match: the exact line, and where to insert */
	if (!match) {
		for (i = 0; i < bl->n; i++) {
			if (stripped_is(&bl->v[i], line, ll)) {
				index0 = (long)i;
				exact = 1;
			} else if (re_ins != NULL &&
			    (s = pyre_search(re_ins, bl->v[i].s, bl->v[i].n, md_ins)) != 0) {
				if (s < 0) {
					fail(cause, "insertafter/insertbefore: "
					    "the match limit was hit");
					goto out;
				}
				if (ia != NULL && *ia != '\0') {
					index1 = (long)i + 1;
					if (t->firstmatch)
						break;
				}
				if (ib != NULL && *ib != '\0') {
					index1 = (long)i;
					if (t->firstmatch)
						break;
				}
			}
		}
	}
	if (index0 != -1) {
		if (t->backrefs && match) {
			if (expand(line, &bl->v[index0], re_m, md, &nb,
			    cause) != 0)
				goto out;
		} else
			strbuf_addstr(&nb, line);
		if (nb.len == 0 || nb.buf[nb.len - 1] != '\n')
			strbuf_addch(&nb, '\n');
		if (t->regexp == NULL && t->search_string == NULL && !match &&
		    !exact) {
			/* unreachable in the module too: index0 is set only
			 * by a match or the exact line */
		} else if (bl->v[index0].n != nb.len ||
		    memcmp(bl->v[index0].s, nb.buf, nb.len) != 0) {
			lines_set(bl, (size_t)index0, nb.buf, nb.len);
			out->msg = "line replaced";
			out->changed = 1;
		}
	} else if (t->backrefs) {
		/* nothing: no match to expand the backrefs from */
	} else if ((ib != NULL && strcmp(ib, "BOF") == 0) ||
	    (ia != NULL && strcmp(ia, "BOF") == 0)) {
		nl = with_sep(line, &nn);
		lines_insert(bl, 0, nl, nn);
		out->msg = "line added";
		out->changed = 1;
	} else if ((ia != NULL && strcmp(ia, "EOF") == 0) || index1 == -1) {
		if (bl->n > 0 && !ends_in_break(&bl->v[bl->n - 1]))
			lines_append(bl, "\n", 1);
		nl = with_sep(line, &nn);
		lines_append(bl, nl, nn);
		out->msg = "line added";
		out->changed = 1;
	} else if (ia != NULL && *ia != '\0' && index1 != -1) {
		if ((long)bl->n == index1) {
			if (!stripped_is(&bl->v[index1 - 1], line, ll)) {
				nl = with_sep(line, &nn);
				lines_append(bl, nl, nn);
				out->msg = "line added";
				out->changed = 1;
			}
		} else if (!stripped_is(&bl->v[index1], line, ll)) {
			nl = with_sep(line, &nn);
			lines_insert(bl, (size_t)index1, nl, nn);
			out->msg = "line added";
			out->changed = 1;
		}
	} else {
		nl = with_sep(line, &nn);
		lines_insert(bl, (size_t)index1, nl, nn);
		out->msg = "line added";
		out->changed = 1;
	}
	r = 0;
out:
	free(nl);
	strbuf_release(&nb);
	pcre2_match_data_free(md);
	pcre2_match_data_free(md_ins);
	pcre2_code_free(re_m);
	pcre2_code_free(re_ins);
	return r;
}

static int
absent(const struct lif_task *t, struct lines *bl, struct lif_out *out,
    char **cause)
{
	pcre2_code		*re_c = NULL;
	pcre2_match_data	*md = NULL;
	struct lines		 kept;
	size_t			 i;
	int			 m, r = -1;

	memset(&kept, 0, sizeof kept);
	if (t->regexp != NULL) {
		if ((re_c = pyre_compile("regexp", t->regexp, cause)) == NULL)
			goto out;
		md = pcre2_match_data_create_from_pattern(re_c, NULL);
	}
	for (i = 0; i < bl->n; i++) {
		if (re_c != NULL) {
			if ((m = pyre_search(re_c, bl->v[i].s, bl->v[i].n, md)) < 0) {
				fail(cause, "regexp: the match limit was hit");
				goto out;
			}
		} else if (t->search_string != NULL)
			m = memmem(bl->v[i].s, bl->v[i].n, t->search_string,
			    strlen(t->search_string)) != NULL;
		else
			m = stripped_is(&bl->v[i], t->line, strlen(t->line));
		if (m)
			out->found++;
		else
			lines_append(&kept, bl->v[i].s, bl->v[i].n);
	}
	lines_free(bl);
	*bl = kept;
	memset(&kept, 0, sizeof kept);
	out->changed = out->found > 0;
	out->msg = "";
	r = 0;
out:
	lines_free(&kept);
	pcre2_match_data_free(md);
	pcre2_code_free(re_c);
	return r;
}

int
lif_decide(const struct lif_task *t, const char *text, size_t len,
    struct lif_out *out, char **cause)
{
	struct lines	bl;
	int		r;

	memset(out, 0, sizeof *out);
	memset(&bl, 0, sizeof bl);
	lines_split(&bl, text, len);
	r = t->present ? present(t, &bl, out, cause) : absent(t, &bl, out,
	    cause);
	if (r == 0)
		join(&bl, out);
	lines_free(&bl);
	return r;
}

void
lif_out_clear(struct lif_out *out)
{
	free(out->text);
	memset(out, 0, sizeof *out);
}
