/* Python's re as Ansible's filters and tests call it (ansible/plugins/
 * filter/core.py regex_*, plugins/test/core.py regex, match, search), run
 * by PCRE2 on the UTF-8 text: the same leftmost-first backtracking, with
 * PCRE2_UCP so that \d \w \s \b are Unicode's, as they are for Python's
 * str patterns; (?P<name>...), (?P=name), lookarounds, lazy quantifiers and
 * inline flags read the same. What PCRE2 spells differently is translated:
 * Python's end-only \Z is PCRE2's \z, \uXXXX and \UXXXXXXXX are \x{...}.
 * PCRE2 accepts some escapes Python refuses (\Q, \K, \p{...}): a pattern
 * Python rejects may run here. Replacements are Python's templates (\1,
 * \g<1>, \g<name>, \n), parsed as re does, before any match. */
#include "template/expr-int.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/xalloc.h"
#include "template/expr.h"
#include "template/value.h"

/* How a search is anchored (the regex test's match_type). */
enum rx_anchor { RX_SEARCH, RX_MATCH, RX_FULLMATCH };

static int
hexlen(const char *s, size_t want)
{
	size_t i;

	for (i = 0; i < want; i++) {
		if (strchr("0123456789abcdefABCDEF", s[i]) == NULL ||
		    s[i] == '\0')
			return 0;
	}
	return 1;
}

/* Python's pattern in PCRE2's spelling (see the head of the file). */
static void
translate(struct strbuf *sb, const char *re)
{
	size_t i, n;

	for (i = 0; re[i] != '\0'; i++) {
		if (re[i] != '\\' || re[i + 1] == '\0') {
			strbuf_addch(sb, re[i]);
			continue;
		}
		n = re[i + 1] == 'u' ? 4 : re[i + 1] == 'U' ? 8 : 0;
		if (n > 0 && hexlen(re + i + 2, n)) {
			strbuf_addf(sb, "\\x{%.*s}", (int)n, re + i + 2);
			i += 1 + n;
			continue;
		}
		strbuf_addch(sb, '\\');
		strbuf_addch(sb, re[i + 1] == 'Z' ? 'z' : re[i + 1]);
		i++;
	}
}

/* re.compile(pattern, flags): the code, or NULL with an error naming the
 * pattern and PCRE2's reason. */
static pcre2_code *
rx_compile(struct expr_call *c, const char *re, int ignorecase,
    int multiline)
{
	struct strbuf		 sb;
	pcre2_compile_context	*cc;
	pcre2_code		*code;
	PCRE2_UCHAR		 msg[120];
	PCRE2_SIZE		 off;
	uint32_t		 opts = PCRE2_UTF | PCRE2_UCP;
	int			 err;

	if (ignorecase)
		opts |= PCRE2_CASELESS;
	if (multiline)
		opts |= PCRE2_MULTILINE;
	strbuf_init(&sb);
	translate(&sb, re);
	cc = pcre2_compile_context_create(NULL);
	pcre2_set_newline(cc, PCRE2_NEWLINE_LF);
	code = pcre2_compile((PCRE2_SPTR)(sb.buf != NULL ? sb.buf : ""),
	    sb.len, opts, &err, &off, cc);
	pcre2_compile_context_free(cc);
	strbuf_release(&sb);
	if (code == NULL) {
		pcre2_get_error_message(err, msg, sizeof msg);
		expr_error(c->ctx, "%s: '%.64s' is not a regular expression: %s "
		    "at character %zu", c->name, re, (const char *)msg,
		    (size_t)off + 1);
	}
	return code;
}

/* One match from byte start: 1 with md, 0 for none, -1 with an error. */
static int
rx_match(struct expr_call *c, pcre2_code *code, const char *s, size_t len,
    size_t start, uint32_t opts, pcre2_match_data *md)
{
	int rc = pcre2_match(code, (PCRE2_SPTR)s, len, start, opts, md, NULL);

	if (rc >= 0)
		return 1;
	if (rc == PCRE2_ERROR_NOMATCH)
		return 0;
	return expr_error(c->ctx, "%s: the match failed (PCRE2 error %d: "
	    "too complex a pattern for this text)", c->name, rc);
}

/*
 * Each match of code in s, left to right, as Python's finditer: an empty
 * match is tried again at the same place as a non-empty one only (PCRE2's
 * NOTEMPTY_ATSTART | ANCHORED), else the search moves on one character, so
 * that an empty match right after a non-empty one counts, as in Python
 * 3.7 and later. fn gets each; it returns 0 to go on, 1 to stop, -1 on an
 * error.
 */
static int
rx_each(struct expr_call *c, pcre2_code *code, const char *s,
    int (*fn)(void *arg, const char *s, PCRE2_SIZE *ov, int groups),
    void *arg)
{
	pcre2_match_data	*md = pcre2_match_data_create_from_pattern(code,
				    NULL);
	size_t			 len = strlen(s), start = 0;
	uint32_t		 opts = 0, groups;
	PCRE2_SIZE		*ov;
	int			 r;

	pcre2_pattern_info(code, PCRE2_INFO_CAPTURECOUNT, &groups);
	for (;;) {
		r = rx_match(c, code, s, len, start, opts, md);
		if (r == 0 && opts != 0) {
			/* no non-empty match here: one character on */
			opts = 0;
			if (start >= len)
				break;
			for (start++; start < len &&
			    ((unsigned char)s[start] & 0xc0) == 0x80; start++)
				;
			continue;
		}
		if (r <= 0)
			break;
		ov = pcre2_get_ovector_pointer(md);
		if ((r = fn(arg, s, ov, (int)groups)) != 0)
			break;
		start = ov[1];
		opts = ov[0] == ov[1] ? PCRE2_NOTEMPTY_ATSTART |
		    PCRE2_ANCHORED : 0;
	}
	pcre2_match_data_free(md);
	return r < 0 ? -1 : 0;
}

/* A group's text; an unset group is "" (Python's sub and findall). */
static json_t *
group_text(const char *s, const PCRE2_SIZE *ov, int g)
{
	if (ov[2 * g] == PCRE2_UNSET)
		return json_string("");
	return json_stringn(s + ov[2 * g], ov[2 * g + 1] - ov[2 * g]);
}

static int
flag(const json_t *v)
{
	return v != NULL && template_truthy(v);
}

/* The operand as text and the pattern (a string argument, or ""). */
static char *
subject(struct expr_call *c)
{
	return template_to_text(c->v);
}

static const char *
pattern_arg(const json_t *v)
{
	return json_is_string(v) ? json_string_value(v) : "";
}

/* ---- the tests */

static int
rx_test(struct expr_call *c, enum rx_anchor anchor)
{
	static const uint32_t opts[] = { 0, PCRE2_ANCHORED,
	    PCRE2_ANCHORED | PCRE2_ENDANCHORED };
	pcre2_code		*code;
	pcre2_match_data	*md;
	char			*s;
	int			 r;

	if ((code = rx_compile(c, pattern_arg(c->arg[0]), flag(c->arg[1]),
	    flag(c->arg[2]))) == NULL)
		return -1;
	md = pcre2_match_data_create_from_pattern(code, NULL);
	s = subject(c);
	r = rx_match(c, code, s, strlen(s), 0, opts[anchor], md);
	free(s);
	pcre2_match_data_free(md);
	pcre2_code_free(code);
	return r;
}

int
expr_test_match(struct expr_call *c)
{
	return rx_test(c, RX_MATCH);
}

int
expr_test_search(struct expr_call *c)
{
	return rx_test(c, RX_SEARCH);
}

/* regex(pattern, ignorecase, multiline, match_type='search') */
int
expr_test_regex(struct expr_call *c)
{
	const char *type = c->arg[3] != NULL ? json_string_value(c->arg[3]) :
	    "search";

	if (type != NULL && strcmp(type, "match") == 0)
		return rx_test(c, RX_MATCH);
	if (type != NULL && strcmp(type, "fullmatch") == 0)
		return rx_test(c, RX_FULLMATCH);
	/* Python's getattr(_re, match_type, 'search') finds no other */
	if (type == NULL || strcmp(type, "search") != 0)
		return expr_error(c->ctx, "regex: match_type '%s' is not one "
		    "of search, match, fullmatch", type != NULL ? type : "");
	return rx_test(c, RX_SEARCH);
}

/* ---- regex_replace: Python's template, parsed first */

/* A replacement template: literal text and group references, in order. */
struct rx_piece {
	int	 group;		/* -1: text */
	size_t	 off, len;	/* text: its bytes in the template's buffer */
};

struct rx_template {
	struct strbuf	 text;
	struct rx_piece	*v;
	size_t		 n;
};

static void
piece_add(struct rx_template *t, int group, size_t off, size_t len)
{
	t->v = xreallocarray(t->v, t->n + 1, sizeof *t->v);
	t->v[t->n].group = group;
	t->v[t->n].off = off;
	t->v[t->n].len = len;
	t->n++;
}

static void
template_text(struct rx_template *t, const char *s, size_t len)
{
	size_t off = t->text.len;

	strbuf_add(&t->text, s, len);
	piece_add(t, -1, off, len);
}

static int
template_group(struct expr_call *c, struct rx_template *t, pcre2_code *code,
    int g)
{
	uint32_t groups;

	pcre2_pattern_info(code, PCRE2_INFO_CAPTURECOUNT, &groups);
	if (g < 0 || (uint32_t)g > groups)
		return expr_error(c->ctx, "regex_replace: invalid group "
		    "reference %d", g);
	piece_add(t, g, 0, 0);
	return 0;
}

/* \g<name> or \g<number> at p (after "\g"): its group, p moved on. */
static int
template_named(struct expr_call *c, struct rx_template *t, pcre2_code *code,
    const char **p)
{
	const char	*s = *p, *e;
	char		*name;
	int		 g;

	if (*s != '<' || (e = strchr(s, '>')) == NULL || e == s + 1)
		return expr_error(c->ctx, "regex_replace: missing group name "
		    "in \\g<...>");
	name = xstrndup(s + 1, (size_t)(e - s - 1));
	*p = e + 1;
	if (strspn(name, "0123456789") == strlen(name))
		g = atoi(name);
	else if ((g = pcre2_substring_number_from_name(code,
	    (PCRE2_SPTR)name)) < 0) {
		expr_error(c->ctx, "regex_replace: unknown group name '%s'",
		    name);
		free(name);
		return -1;
	}
	free(name);
	return template_group(c, t, code, g);
}

/* sre_parse.parse_template: \g<...>, \N and \NN groups, octal \0 and
 * \ooo, \a \b \f \n \r \t \v \\; another ASCII letter is an error, any
 * other character keeps its backslash. */
static int
template_parse(struct expr_call *c, struct rx_template *t, pcre2_code *code,
    const char *s)
{
	static const char esc[] = "a\ab\bf\fn\nr\rt\tv\v\\\\";
	const char	*p = s, *q;
	char		 ch;
	int		 v;

	while (*p != '\0') {
		if ((q = strchr(p, '\\')) == NULL) {
			template_text(t, p, strlen(p));
			break;
		}
		if (q > p)
			template_text(t, p, (size_t)(q - p));
		p = q + 1;
		if (*p == 'g') {
			p++;
			if (template_named(c, t, code, &p) != 0)
				return -1;
		} else if (*p == '0' || (*p >= '1' && *p <= '7' &&
		    p[1] >= '0' && p[1] <= '7' && p[2] >= '0' && p[2] <= '7')) {
			/* octal: \0, \0o, \0oo, or three digits */
			for (v = 0, q = p; q < p + 3 && *q >= '0' && *q <= '7';
			    q++)
				v = v * 8 + (*q - '0');
			if (v > 0377)
				return expr_error(c->ctx, "regex_replace: octal "
				    "escape value \\%.3s outside of range "
				    "0-0o377", p);
			p = q;
			/* a code point below 256, as UTF-8 */
			if (v < 0x80) {
				ch = (char)v;
				template_text(t, &ch, 1);
			} else {
				char u[2] = { (char)(0xc0 | (v >> 6)),
				    (char)(0x80 | (v & 0x3f)) };

				template_text(t, u, 2);
			}
		} else if (*p >= '1' && *p <= '9') {
			v = *p++ - '0';
			if (*p >= '0' && *p <= '9')
				v = v * 10 + (*p++ - '0');
			if (template_group(c, t, code, v) != 0)
				return -1;
		} else if (*p != '\0' && (q = strchr(esc, *p)) != NULL &&
		    (q - esc) % 2 == 0) {
			template_text(t, q + 1, 1);
			p++;
		} else if ((*p >= 'a' && *p <= 'z') ||
		    (*p >= 'A' && *p <= 'Z'))
			return expr_error(c->ctx, "regex_replace: bad escape "
			    "\\%c in the replacement", *p);
		else {
			/* a backslash before anything else stays */
			template_text(t, p - 1, *p != '\0' ? 2 : 1);
			if (*p != '\0')
				p++;
		}
	}
	return 0;
}

struct sub_state {
	struct rx_template	*t;
	struct strbuf		 out;
	size_t			 last;	/* end of the previous match */
};

static int
sub_one(void *arg, const char *s, PCRE2_SIZE *ov, int groups)
{
	struct sub_state	*st = arg;
	size_t			 i;
	int			 g;

	(void)groups;
	strbuf_add(&st->out, s + st->last, ov[0] - st->last);
	for (i = 0; i < st->t->n; i++) {
		g = st->t->v[i].group;
		if (g < 0)
			strbuf_add(&st->out, st->t->text.buf + st->t->v[i].off,
			    st->t->v[i].len);
		else if (ov[2 * g] != PCRE2_UNSET)
			strbuf_add(&st->out, s + ov[2 * g], ov[2 * g + 1] -
			    ov[2 * g]);
	}
	st->last = ov[1];
	return st->out.len > EXPR_MAX_STRING ? 1 : 0;
}

/* regex_replace(pattern='', replacement='', ignorecase, multiline) */
int
expr_filter_regex_replace(struct expr_call *c, json_t **out)
{
	struct rx_template	 t;
	struct sub_state	 st;
	pcre2_code		*code;
	char			*s;
	int			 r = -1;

	if ((code = rx_compile(c, pattern_arg(c->arg[0]), flag(c->arg[2]),
	    flag(c->arg[3]))) == NULL)
		return -1;
	memset(&t, 0, sizeof t);
	strbuf_init(&t.text);
	memset(&st, 0, sizeof st);
	st.t = &t;
	strbuf_init(&st.out);
	s = subject(c);
	if (template_parse(c, &t, code, pattern_arg(c->arg[1])) == 0 &&
	    rx_each(c, code, s, sub_one, &st) == 0) {
		strbuf_addstr(&st.out, s + st.last);
		r = expr_string_out(c->ctx, &st.out, out);
	}
	strbuf_release(&st.out);
	strbuf_release(&t.text);
	free(t.v);
	free(s);
	pcre2_code_free(code);
	return r;
}

/* ---- regex_findall and regex_search */

/* The most matches regex_findall lists (each is a value of its own). */
#define FINDALL_MAX	(1024 * 1024)

static int
findall_one(void *arg, const char *s, PCRE2_SIZE *ov, int groups)
{
	json_t	*list = arg, *t;
	int	 g;

	if (groups == 0)
		json_array_append_new(list, group_text(s, ov, 0));
	else if (groups == 1)
		json_array_append_new(list, group_text(s, ov, 1));
	else {
		t = json_array();
		for (g = 1; g <= groups; g++)
			json_array_append_new(t, group_text(s, ov, g));
		json_array_append_new(list, t);
	}
	return json_array_size(list) > FINDALL_MAX ? 1 : 0;
}

/* regex_findall(regex, multiline, ignorecase): each match (no groups),
 * its group (one), or the list of its groups (more). */
int
expr_filter_regex_findall(struct expr_call *c, json_t **out)
{
	pcre2_code	*code;
	char		*s;
	int		 r;

	if ((code = rx_compile(c, pattern_arg(c->arg[0]), flag(c->arg[2]),
	    flag(c->arg[1]))) == NULL)
		return -1;
	s = subject(c);
	*out = json_array();
	if ((r = rx_each(c, code, s, findall_one, *out)) == 0 &&
	    json_array_size(*out) > FINDALL_MAX)
		r = expr_error(c->ctx, "regex_findall: more than %d matches",
		    FINDALL_MAX);
	if (r != 0) {
		json_decref(*out);
		*out = NULL;
	}
	free(s);
	pcre2_code_free(code);
	return r;
}

/* A group argument of regex_search: '\\N' or '\\g<name>'. */
static int
search_group(struct expr_call *c, pcre2_code *code, const json_t *arg)
{
	const char	*a = json_string_value(arg), *e;
	char		*name;
	int		 g;

	if (a != NULL && strncmp(a, "\\g<", 3) == 0 &&
	    (e = strchr(a + 3, '>')) != NULL && e > a + 3) {
		name = xstrndup(a + 3, (size_t)(e - a - 3));
		g = pcre2_substring_number_from_name(code, (PCRE2_SPTR)name);
		free(name);
		if (g < 0)
			return expr_error(c->ctx, "regex_search: no such group "
			    "'%s'", a);
		return g;
	}
	if (a != NULL && a[0] == '\\' && a[1] >= '0' && a[1] <= '9') {
		uint32_t groups;

		g = atoi(a + 1);
		pcre2_pattern_info(code, PCRE2_INFO_CAPTURECOUNT, &groups);
		if ((uint32_t)g > groups)
			return expr_error(c->ctx, "regex_search: no such group "
			    "'%s'", a);
		return g;
	}
	return expr_error(c->ctx, "regex_search: unknown argument '%s' (a "
	    "group is '\\\\1' or '\\\\g<name>')", a != NULL ? a :
	    expr_type_name(arg));
}

/* regex_search(regex, groups..., ignorecase=, multiline=): the first
 * match's text, or the list of the groups asked for (an unset one is
 * none); none without a match. */
int
expr_filter_regex_search(struct expr_call *c, json_t **out)
{
	pcre2_code		*code;
	pcre2_match_data	*md;
	PCRE2_SIZE		*ov;
	int			 g[EXPR_MAX_ARGS], r = -1;
	size_t			 i;
	char			*s;

	if ((code = rx_compile(c, pattern_arg(c->arg[0]), flag(c->kw[0]),
	    flag(c->kw[1]))) == NULL)
		return -1;
	for (i = 1; i < c->nargs; i++) {
		if ((g[i] = search_group(c, code, c->arg[i])) < 0) {
			pcre2_code_free(code);
			return -1;
		}
	}
	md = pcre2_match_data_create_from_pattern(code, NULL);
	s = subject(c);
	if ((r = rx_match(c, code, s, strlen(s), 0, 0, md)) > 0) {
		ov = pcre2_get_ovector_pointer(md);
		if (c->nargs < 2)
			*out = group_text(s, ov, 0);
		else {
			*out = json_array();
			for (i = 1; i < c->nargs; i++)
				json_array_append_new(*out,
				    ov[2 * g[i]] == PCRE2_UNSET ? json_null() :
				    group_text(s, ov, g[i]));
		}
	} else if (r == 0)
		*out = json_null();
	free(s);
	pcre2_match_data_free(md);
	pcre2_code_free(code);
	return r < 0 ? -1 : 0;
}

/* regex_escape(re_type='python'): re.escape's text (every character
 * special to a pattern behind a backslash); posix_basic: BRE's. */
int
expr_filter_regex_escape(struct expr_call *c, json_t **out)
{
	const char	*type = c->arg[0] != NULL ?
			    json_string_value(c->arg[0]) : "python";
	const char	*special;
	struct strbuf	 sb;
	char		*s, *p;

	if (type != NULL && strcmp(type, "python") == 0)
		special = "()[]{}?*+-|^$\\.&~# \t\n\r\v\f";
	else if (type != NULL && strcmp(type, "posix_basic") == 0)
		special = "].[^$*\\";
	else
		return expr_error(c->ctx, "regex_escape: invalid regex type "
		    "(%s)", type != NULL ? type : expr_type_name(c->arg[0]));
	s = subject(c);
	strbuf_init(&sb);
	for (p = s; *p != '\0'; p++) {
		if (strchr(special, *p) != NULL)
			strbuf_addch(&sb, '\\');
		strbuf_addch(&sb, *p);
	}
	free(s);
	return expr_string_out(c->ctx, &sb, out);
}

int
expr_regex_names(struct expr_call *c, const char *re, const json_t *obj,
    json_t *ret)
{
	pcre2_code		*code;
	pcre2_match_data	*md;
	const char		*key;
	json_t			*v;
	int			 r = 0, m;

	if ((code = rx_compile(c, re, 0, 0)) == NULL)
		return -1;
	md = pcre2_match_data_create_from_pattern(code, NULL);
	json_object_foreach((json_t *)obj, key, v) {
		(void)v;
		if ((m = rx_match(c, code, key, strlen(key), 0, 0, md)) < 0) {
			r = -1;
			break;
		}
		if (m)
			json_array_append_new(ret, json_string(key));
	}
	pcre2_match_data_free(md);
	pcre2_code_free(code);
	return r;
}
