/* Ansible's comment filter (ansible/plugins/filter/core.py comment):
 * text as a comment block of a style (plain '# ', erlang '% ', c '// ',
 * cblock, xml), each part overridable by keyword, composed exactly as
 * core.py composes it, so `{{ ansible_managed | comment }}` heads a file
 * as Ansible's template module writes it. */
#include "template/expr-int.h"

#include <string.h>

#include "base/strbuf.h"

enum { K_NEWLINE, K_BEGINNING, K_PREFIX, K_PREFIX_COUNT, K_DECORATION,
	K_POSTFIX, K_POSTFIX_COUNT, K_END };

static const struct {
	const char *name, *beginning, *decoration, *end;
} styles[] = {
	{ "plain", "", "# ", "" },
	{ "erlang", "", "% ", "" },
	{ "c", "", "// ", "" },
	{ "cblock", "/*", " * ", " */" },
	{ "xml", "<!--", " - ", "-->" },
};

/* Every `from` in s replaced by `to`, appended to out (an empty from
 * replaces nothing). */
static void
replace_into(struct strbuf *out, const char *s, const char *from,
    const char *to)
{
	const char *hit;

	while (*from != '\0' && (hit = strstr(s, from)) != NULL) {
		strbuf_add(out, s, (size_t)(hit - s));
		strbuf_addstr(out, to);
		s = hit + strlen(from);
	}
	strbuf_addstr(out, s);
}

/* A keyword's text (a string or a whole number), else def. */
static int
kw_text(struct expr_call *c, int k, const char *def, const char **out)
{
	const json_t *v = c->kw[k];

	*out = def;
	if (v == NULL)
		return 0;
	if (!json_is_string(v))
		return expr_error(c->ctx, "comment: %s must be a string, got %s",
		    k == K_NEWLINE ? "newline" : "each part",
		    expr_type_name(v));
	*out = json_string_value(v);
	return 0;
}

static int
kw_count(struct expr_call *c, int k, long long *out)
{
	const json_t *v = c->kw[k];

	*out = 1;
	if (v == NULL)
		return 0;
	if (!json_is_integer(v) || json_integer_value(v) < 0)
		return expr_error(c->ctx, "comment: a count must be a whole "
		    "number");
	*out = json_integer_value(v);
	return 0;
}

int
expr_filter_comment(struct expr_call *c, json_t **out)
{
	const char	*style = "plain", *nl, *beg, *pre, *dec, *post, *end;
	const char	*prepost;
	struct strbuf	 o, t1, t2, rs, ps;
	long long	 npre, npost, i;
	int		 rc = -1;
	size_t		 s, nstyles = sizeof styles / sizeof styles[0];

	if (!json_is_string(c->v))
		return expr_error(c->ctx, "comment expects a string, got %s",
		    expr_type_name(c->v));
	if (c->arg[0] != NULL && json_is_string(c->arg[0]))
		style = json_string_value(c->arg[0]);
	for (s = 0; s < nstyles && strcmp(styles[s].name, style) != 0; s++)
		;
	if (s == nstyles)
		return expr_error(c->ctx, "comment: unknown style '%s'", style);
	strbuf_init(&rs);
	strbuf_init(&ps);
	/* the style's decoration, or the keyword's, gives prefix and postfix */
	if (kw_text(c, K_DECORATION, styles[s].decoration, &prepost) != 0 ||
	    kw_text(c, K_NEWLINE, "\n", &nl) != 0 ||
	    kw_text(c, K_BEGINNING, styles[s].beginning, &beg) != 0 ||
	    kw_text(c, K_DECORATION, styles[s].decoration, &dec) != 0 ||
	    kw_text(c, K_END, styles[s].end, &end) != 0 ||
	    kw_count(c, K_PREFIX_COUNT, &npre) != 0 ||
	    kw_count(c, K_POSTFIX_COUNT, &npost) != 0) {
		strbuf_release(&rs);
		strbuf_release(&ps);
		return -1;
	}
	strbuf_init(&o);
	strbuf_init(&t1);
	strbuf_init(&t2);
	strbuf_addstr(&ps, prepost);
	strbuf_rtrim(&ps);	/* Python's rstrip */
	if (kw_text(c, K_PREFIX, ps.buf, &pre) != 0 ||
	    kw_text(c, K_POSTFIX, ps.buf, &post) != 0)
		goto out;
	if (*beg != '\0') {
		strbuf_addstr(&o, beg);
		strbuf_addstr(&o, nl);
	}
	for (i = 0; *pre != '\0' && i < npre; i++) {
		if (strcmp(pre, nl) != 0)
			strbuf_addstr(&o, pre);
		strbuf_addstr(&o, nl);
	}
	/* each line decorated, then "decoration\n" without its trailing
	 * blanks where a line is empty */
	strbuf_addstr(&t1, dec);
	strbuf_reset(&rs);
	strbuf_addstr(&rs, nl);
	strbuf_addstr(&rs, dec);
	replace_into(&t1, json_string_value(c->v), nl, rs.buf);
	strbuf_reset(&rs);
	strbuf_addstr(&rs, dec);
	strbuf_addstr(&rs, nl);
	{
		struct strbuf to;

		strbuf_init(&to);
		strbuf_addstr(&to, dec);
		strbuf_rtrim(&to);
		strbuf_addstr(&to, nl);
		replace_into(&t2, t1.buf, rs.buf, to.buf);
		strbuf_release(&to);
	}
	strbuf_addstr(&o, t2.buf);
	for (i = 0; i < npost; i++) {
		strbuf_addstr(&o, nl);
		strbuf_addstr(&o, post);
	}
	if (*end != '\0') {
		strbuf_addstr(&o, nl);
		strbuf_addstr(&o, end);
	}
	*out = json_stringn(o.buf, o.len);
	rc = 0;
out:
	strbuf_release(&o);
	strbuf_release(&t1);
	strbuf_release(&t2);
	strbuf_release(&rs);
	strbuf_release(&ps);
	return rc;
}
