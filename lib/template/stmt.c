/* Jinja2's statements: the tags of a template as Ansible's Jinja2 reads
 * them (stmt.h), a tree of them, and its rendering over the expression
 * language (expr.h). */
#include "template/stmt.h"

#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/xalloc.h"
#include "template/expr-int.h"
#include "template/expr.h"
#include "template/value.h"

/* ---- tags */

enum tk { TK_TEXT, TK_EXPR, TK_STMT };

struct tag {
	enum tk		 kind;
	char		*s;	/* text, or a tag's inside */
	size_t		 off;	/* where the inside starts in the source */
};

struct tags {
	struct tag	*v;
	size_t		 n;
};

/* Python's str.strip() whitespace (ASCII), as Jinja's '-' strips it. */
static int
is_ws(int c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

static void
push(struct tags *t, enum tk kind, const char *s, size_t len, size_t off)
{
	t->v = xreallocarray(t->v, t->n + 1, sizeof *t->v);
	t->v[t->n].kind = kind;
	t->v[t->n].s = xstrndup(s, len);
	t->v[t->n++].off = off;
}

static void
toks_free(struct tags *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->v[i].s);
	free(t->v);
}

int
stmt_bracket_depth(int depth, char c)
{
	if (c == '{' || c == '[' || c == '(')
		return depth + 1;
	if ((c == '}' || c == ']' || c == ')') && depth > 0)
		return depth - 1;
	return depth;
}

/* The first tag opening at or after p, or NULL. */
static const char *
next_open(const char *p)
{
	for (; *p != '\0'; p++) {
		if (p[0] == '{' && (p[1] == '{' || p[1] == '%' || p[1] == '#'))
			return p;
	}
	return NULL;
}

/* The closing close of a tag whose inside starts at q; quotes and
 * brackets inside an expression or statement may hold it, as Jinja2's
 * lexer balances them. NULL: none. */
static const char *
find_close(const char *q, const char *close, int quotes)
{
	char	quote = 0;
	int	depth = 0;

	for (; *q != '\0'; q++) {
		if (quote != 0) {
			if (*q == '\\' && q[1] != '\0')
				q++;
			else if (*q == quote)
				quote = 0;
		} else if (quotes && (*q == '\'' || *q == '"'))
			quote = *q;
		else if ((depth == 0 || !quotes) && q[0] == close[0] &&
		    q[1] == close[1])
			return q;
		else if (quotes)
			depth = stmt_bracket_depth(depth, *q);
	}
	return NULL;
}

static int
tokenize(const char *src, struct tags *t, char **msg)
{
	const char	*p = src, *o, *c, *e, *close;
	struct strbuf	 text;
	int		 strip = 0, keep, r = -1;
	char		 kind;

	strbuf_init(&text);
	for (;;) {
		o = next_open(p);
		if (strip)
			while (p < (o != NULL ? o : p + strlen(p)) && is_ws(*p))
				p++;
		if (o == NULL) {
			strbuf_addstr(&text, p);
			break;
		}
		strbuf_add(&text, p, (size_t)(o - p));
		kind = o[1];
		c = o + 2;
		if (*c == '-')
			while (text.len > 0 && is_ws(text.buf[text.len - 1]))
				text.buf[--text.len] = '\0';
		if (*c == '-' || *c == '+')
			c++;
		if (text.len > 0)
			push(t, TK_TEXT, text.buf, text.len, 0);
		strbuf_reset(&text);
		close = kind == '{' ? "}}" : kind == '%' ? "%}" : "#}";
		if ((e = find_close(c, close, kind != '#')) == NULL) {
			*msg = xprintf("missing '%s' for the tag at character "
			    "%zu", close, (size_t)(o - src) + 1);
			goto out;
		}
		p = e + 2;
		strip = keep = 0;
		if (e > c && e[-1] == '-') {
			strip = 1;
			e--;
		} else if (e > c && e[-1] == '+' && kind != '{') {
			keep = 1;
			e--;
		}
		/* trim_blocks, as Ansible sets it */
		if (kind != '{' && !strip && !keep && *p == '\n')
			p++;
		if (kind != '#')
			push(t, kind == '{' ? TK_EXPR : TK_STMT, c,
			    (size_t)(e - c), (size_t)(c - src));
	}
	if (text.len > 0)
		push(t, TK_TEXT, text.buf, text.len, 0);
	r = 0;
out:
	strbuf_release(&text);
	return r;
}

/* ---- the tree */

enum nk { N_TEXT, N_OUT, N_IF, N_FOR, N_SET };

struct node;
struct nodes {
	struct node	*v;
	size_t		 n;
};

struct branch {
	const char	*cond;		/* NULL: else */
	size_t		 off;
	struct nodes	 body;
};

struct node {
	enum nk		 kind;
	const char	*s;		/* text, expression, iterable */
	size_t		 off;
	char		*var, *var2;	/* set's name; for's name(s) */
	struct branch	*br;		/* if */
	size_t		 nbr;
	struct nodes	 body, orelse;	/* for */
};

struct parser {
	struct tags	 t;
	size_t		 i;
	int		 depth;
	char		*msg;
};

static void nodes_free(struct nodes *);

static void
node_free(struct node *n)
{
	size_t i;

	free(n->var);
	free(n->var2);
	for (i = 0; i < n->nbr; i++)
		nodes_free(&n->br[i].body);
	free(n->br);
	nodes_free(&n->body);
	nodes_free(&n->orelse);
}

static void
nodes_free(struct nodes *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		node_free(&l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

static struct node *
add_node(struct nodes *l, enum nk kind, const char *s, size_t off)
{
	struct node *n;

	l->v = xreallocarray(l->v, l->n + 1, sizeof *l->v);
	n = &l->v[l->n++];
	memset(n, 0, sizeof *n);
	n->kind = kind;
	n->s = s;
	n->off = off;
	return n;
}

static int
perr(struct parser *ps, size_t off, const char *fmt, const char *what)
{
	char *m = xprintf(fmt, what);

	ps->msg = xprintf("%s at character %zu", m, off + 1);
	free(m);
	return -1;
}

/* A statement's keyword (its first word, in *kw) and the rest, blanks
 * around it dropped (in place). */
static char *
split_kw(char *s, char kw[16])
{
	size_t	 n = 0, len;

	while (is_ws(*s))
		s++;
	while ((s[n] >= 'a' && s[n] <= 'z') || s[n] == '_')
		n++;
	len = n < 15 ? n : 15;
	memcpy(kw, s, len);
	kw[len] = '\0';
	s += n;
	while (is_ws(*s))
		s++;
	len = strlen(s);
	while (len > 0 && is_ws(s[len - 1]))
		s[--len] = '\0';
	return s;
}

/* An identifier at *p, allocated in *name; *p moves past it. */
static int
ident(const char **p, char **name)
{
	const char *s = *p;

	if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
	    *s == '_'))
		return -1;
	while ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
	    (*s >= '0' && *s <= '9') || *s == '_')
		s++;
	*name = xstrndup(*p, (size_t)(s - *p));
	*p = s;
	return 0;
}

static int	parse_nodes(struct parser *, struct nodes *,
		    const char *const *, const char **, char **, size_t *);

/* `for NAME[, NAME] in EXPR` (rest: after "for"). */
static int
parse_for(struct parser *ps, struct node *n, char *rest, size_t off)
{
	static const char *const body_end[] = { "else", "endfor", NULL };
	static const char *const else_end[] = { "endfor", NULL };
	const char	*p = rest, *end;
	char		*r2;
	size_t		 o2;

	if (ident(&p, &n->var) != 0)
		return perr(ps, off, "%s", "expected a name after 'for'");
	while (*p == ' ')
		p++;
	if (*p == ',') {
		p++;
		while (*p == ' ')
			p++;
		if (ident(&p, &n->var2) != 0)
			return perr(ps, off, "%s", "expected a second name "
			    "after ','");
	}
	while (*p == ' ')
		p++;
	if (strncmp(p, "in", 2) != 0 || !is_ws(p[2]))
		return perr(ps, off, "%s", "expected 'in' in 'for'");
	p += 3;
	while (is_ws(*p))
		p++;
	n->s = p;
	n->off = off + (size_t)(p - rest);
	if (*p == '\0')
		return perr(ps, off, "%s", "expected a sequence after 'in'");
	if (parse_nodes(ps, &n->body, body_end, &end, &r2, &o2) != 0)
		return -1;
	if (strcmp(end, "else") == 0 &&
	    parse_nodes(ps, &n->orelse, else_end, &end, &r2, &o2) != 0)
		return -1;
	return 0;
}

static int
parse_if(struct parser *ps, struct node *n, const char *cond, size_t off)
{
	static const char *const body_end[] = { "elif", "else", "endif",
		NULL };
	static const char *const else_end[] = { "endif", NULL };
	const char	*end = "elif";
	char		*rest = (char *)cond;
	size_t		 o = off;

	while (strcmp(end, "endif") != 0) {
		struct branch *b;

		n->br = xreallocarray(n->br, n->nbr + 1, sizeof *n->br);
		b = &n->br[n->nbr++];
		memset(b, 0, sizeof *b);
		b->cond = strcmp(end, "else") == 0 ? NULL : rest;
		b->off = o;
		if (b->cond != NULL && *b->cond == '\0')
			return perr(ps, o, "%s", "expected a condition");
		if (parse_nodes(ps, &b->body, b->cond != NULL ? body_end :
		    else_end, &end, &rest, &o) != 0)
			return -1;
	}
	return 0;
}

/* The nodes up to one of ends (NULL: the end of the template); *end is
 * the keyword that ended them, *rest and *roff its statement's rest. */
static int
parse_nodes(struct parser *ps, struct nodes *out, const char *const *ends,
    const char **end, char **rest, size_t *roff)
{
	static const char *const closers[] = { "elif", "else", "endif",
		"endfor", NULL };
	struct tag	*t;
	struct node	*n;
	char		 kw[16], *r;
	size_t		 i, off;
	const char	*p;

	if (++ps->depth > STMT_MAX_NESTING)
		return perr(ps, ps->i < ps->t.n ? ps->t.v[ps->i].off : 0,
		    "%s", "statements nested too deeply");
	while (ps->i < ps->t.n) {
		t = &ps->t.v[ps->i++];
		if (t->kind == TK_TEXT) {
			add_node(out, N_TEXT, t->s, 0);
			continue;
		}
		if (t->kind == TK_EXPR) {
			add_node(out, N_OUT, t->s, t->off);
			continue;
		}
		r = split_kw(t->s, kw);
		off = t->off + (size_t)(r - t->s);
		for (i = 0; ends != NULL && ends[i] != NULL; i++) {
			if (strcmp(kw, ends[i]) == 0) {
				if (*r != '\0' && strcmp(kw, "elif") != 0)
					return perr(ps, off, "unexpected text "
					    "after '%s'", kw);
				*end = ends[i];
				*rest = r;
				*roff = off;
				ps->depth--;
				return 0;
			}
		}
		for (i = 0; closers[i] != NULL; i++) {
			if (strcmp(kw, closers[i]) == 0)
				return perr(ps, t->off, "unexpected '%s'", kw);
		}
		if (strcmp(kw, "if") == 0) {
			n = add_node(out, N_IF, NULL, off);
			if (parse_if(ps, n, r, off) != 0)
				return -1;
		} else if (strcmp(kw, "for") == 0) {
			n = add_node(out, N_FOR, NULL, off);
			if (parse_for(ps, n, r, off) != 0)
				return -1;
		} else if (strcmp(kw, "set") == 0) {
			n = add_node(out, N_SET, NULL, off);
			p = r;
			if (ident(&p, &n->var) != 0)
				return perr(ps, off, "%s", "expected a name "
				    "after 'set'");
			while (*p == ' ')
				p++;
			if (*p != '=' || p[1] == '=')
				return perr(ps, off, "%s", "expected '=' in "
				    "'set' (a block 'set' is not supported)");
			p++;
			while (is_ws(*p))
				p++;
			n->s = p;
			n->off = off + (size_t)(p - r);
		} else if (kw[0] == '\0')
			return perr(ps, t->off, "%s", "expected a statement");
		else
			return perr(ps, t->off, "'%s' statements are not "
			    "supported", kw);
	}
	if (ends != NULL) {
		for (i = 0; ends[i + 1] != NULL; i++)
			;
		return perr(ps, ps->t.n > 0 ? ps->t.v[ps->t.n - 1].off : 0,
		    "missing '{%% %s %%}'", ends[i]);
	}
	ps->depth--;
	return 0;
}

static int
parse(const char *src, struct parser *ps, struct nodes *tree)
{
	const char	*end;
	char		*rest;
	size_t		 off;

	memset(ps, 0, sizeof *ps);
	memset(tree, 0, sizeof *tree);
	if (tokenize(src, &ps->t, &ps->msg) != 0)
		return -1;
	return parse_nodes(ps, tree, NULL, &end, &rest, &off);
}

/* Every expression of the tree parses. */
static int
check_nodes(const struct nodes *l, char **msg)
{
	size_t i, j;

	for (i = 0; i < l->n; i++) {
		const struct node *n = &l->v[i];

		if (n->kind != N_TEXT && n->s != NULL &&
		    expr_check(n->s, n->off, msg) != 0)
			return -1;
		for (j = 0; j < n->nbr; j++) {
			if ((n->br[j].cond != NULL && expr_check(n->br[j].cond,
			    n->br[j].off, msg) != 0) ||
			    check_nodes(&n->br[j].body, msg) != 0)
				return -1;
		}
		if (check_nodes(&n->body, msg) != 0 ||
		    check_nodes(&n->orelse, msg) != 0)
			return -1;
	}
	return 0;
}

int
stmt_check(const char *src, char **msg)
{
	struct parser	ps;
	struct nodes	tree;
	int		r = -1;

	if (parse(src, &ps, &tree) != 0) {
		*msg = ps.msg;
		ps.msg = NULL;
	} else
		r = check_nodes(&tree, msg);
	nodes_free(&tree);
	toks_free(&ps.t);
	free(ps.msg);
	return r;
}

/* ---- rendering */

struct render {
	struct strbuf	 out;
	int		 flags;		/* of `{{ }}`: EXPR_RAW_STRINGS or 0 */
	size_t		 iterations;
	int		 code;
	char		*msg;
};

static int
rfail(struct render *rc, int code, char *msg)
{
	rc->code = code;
	rc->msg = msg;
	return -1;
}

/* An expression of a statement (flags 0) or of `{{ }}` (rc->flags). */
static json_t *
eval(struct render *rc, const char *s, size_t off, const json_t *scope,
    int flags)
{
	json_t	*v = NULL;
	char	*msg = NULL;
	int	 code;

	if ((code = expr_eval_flags(s, off, scope, flags, &v, &msg)) !=
	    EXPR_OK) {
		rfail(rc, code, msg);
		return NULL;
	}
	return v;
}

static int	render_nodes(struct render *, const struct nodes *, json_t *);

/* What a `for` walks: a new array, or NULL with rc failed. */
static json_t *
sequence(struct render *rc, const struct node *n, json_t *it)
{
	json_t		*seq;
	const char	*k;
	json_t		*v;

	if (json_is_array(it))
		return json_incref(it);
	if (!json_is_object(it))
		return rfail(rc, EXPR_ERROR, xprintf("cannot loop over %s "
		    "at character %zu", expr_type_name(it), n->off + 1)), NULL;
	/* a mapping: its keys (d.items() and the like are methods,
	 * expr-methods.c) */
	seq = json_array();
	json_object_foreach(it, k, v)
		json_array_append_new(seq, json_string(k));
	return seq;
}

static json_t *
loop_object(const json_t *seq, size_t i)
{
	size_t	 n = json_array_size(seq);
	json_t	*l;

	l = json_pack("{s:I, s:I, s:I, s:I, s:b, s:b, s:I}",
	    "index", (json_int_t)i + 1, "index0", (json_int_t)i,
	    "revindex", (json_int_t)(n - i), "revindex0",
	    (json_int_t)(n - i - 1), "first", i == 0, "last", i + 1 == n,
	    "length", (json_int_t)n);
	if (i > 0)
		json_object_set(l, "previtem", json_array_get(seq, i - 1));
	if (i + 1 < n)
		json_object_set(l, "nextitem", json_array_get(seq, i + 1));
	return l;
}

static int
render_for(struct render *rc, const struct node *n, json_t *scope)
{
	json_t	*it, *seq, *sub, *item;
	size_t	 i;
	int	 r = -1;

	if ((it = eval(rc, n->s, n->off, scope, 0)) == NULL)
		return -1;
	seq = sequence(rc, n, it);
	json_decref(it);
	if (seq == NULL)
		return -1;
	if (json_array_size(seq) == 0) {
		r = render_nodes(rc, &n->orelse, scope);
		goto out;
	}
	json_array_foreach(seq, i, item) {
		if (++rc->iterations > STMT_MAX_ITERATIONS) {
			rfail(rc, EXPR_ERROR, xprintf("more than %d loop "
			    "iterations", STMT_MAX_ITERATIONS));
			goto out;
		}
		if (n->var2 != NULL && (!json_is_array(item) ||
		    json_array_size(item) != 2)) {
			rfail(rc, EXPR_ERROR, xprintf("cannot unpack %s into "
			    "'%s, %s' at character %zu", expr_type_name(item),
			    n->var, n->var2, n->off + 1));
			goto out;
		}
		sub = json_copy(scope);
		if (n->var2 != NULL) {
			json_object_set(sub, n->var, json_array_get(item, 0));
			json_object_set(sub, n->var2, json_array_get(item, 1));
		} else
			json_object_set(sub, n->var, item);
		json_object_set_new(sub, "loop", loop_object(seq, i));
		r = render_nodes(rc, &n->body, sub);
		json_decref(sub);
		if (r != 0)
			goto out;
	}
	r = 0;
out:
	json_decref(seq);
	return r;
}

static int
render_nodes(struct render *rc, const struct nodes *l, json_t *scope)
{
	const struct node	*n;
	json_t			*v;
	char			*text;
	size_t			 i, j;

	for (i = 0; i < l->n; i++) {
		n = &l->v[i];
		if (rc->out.len > EXPR_MAX_STRING)
			return rfail(rc, EXPR_ERROR, xprintf("result longer "
			    "than %d MiB", EXPR_MAX_STRING / (1024 * 1024)));
		switch (n->kind) {
		case N_TEXT:
			strbuf_addstr(&rc->out, n->s);
			break;
		case N_OUT:
			if ((v = eval(rc, n->s, n->off, scope, rc->flags)) ==
			    NULL)
				return -1;
			text = template_to_text(v);
			strbuf_addstr(&rc->out, text);
			free(text);
			json_decref(v);
			break;
		case N_SET:
			if ((v = eval(rc, n->s, n->off, scope, 0)) == NULL)
				return -1;
			json_object_set_new(scope, n->var, v);
			break;
		case N_IF:
			for (j = 0; j < n->nbr; j++) {
				int truth = 1;

				if (n->br[j].cond != NULL) {
					if ((v = eval(rc, n->br[j].cond,
					    n->br[j].off, scope, 0)) == NULL)
						return -1;
					truth = template_truthy(v);
					json_decref(v);
				}
				if (!truth)
					continue;
				if (render_nodes(rc, &n->br[j].body,
				    scope) != 0)
					return -1;
				break;
			}
			break;
		case N_FOR:
			if (render_for(rc, n, scope) != 0)
				return -1;
			break;
		}
	}
	return 0;
}

int
stmt_render(const char *src, const json_t *vars, int flags, json_t **out,
    char **msg)
{
	struct parser	 ps;
	struct nodes	 tree;
	struct render	 rc;
	json_t		*scope;
	int		 code = EXPR_SYNTAX;

	*out = NULL;
	memset(&rc, 0, sizeof rc);
	rc.flags = flags;
	strbuf_init(&rc.out);
	if (parse(src, &ps, &tree) != 0) {
		*msg = ps.msg;
		ps.msg = NULL;
		goto out;
	}
	scope = json_is_object(vars) ? json_copy((json_t *)vars) :
	    json_object();
	if (render_nodes(&rc, &tree, scope) != 0) {
		code = rc.code;
		*msg = rc.msg;
	} else {
		code = EXPR_OK;
		*out = json_stringn(rc.out.buf, rc.out.len);
	}
	json_decref(scope);
out:
	nodes_free(&tree);
	toks_free(&ps.t);
	free(ps.msg);
	strbuf_release(&rc.out);
	return code;
}
