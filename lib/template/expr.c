/* The expression language of templates and `when` (see template.h): a
 * tokenizer, a recursive descent parser following Jinja2's precedence, and
 * an evaluator over jansson values. */
#include "template/template.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/xalloc.h"

/* Tokens. */

enum tok_type { T_EOF, T_NAME, T_INT, T_FLOAT, T_STR, T_OP };

struct token {
	enum tok_type	 type;
	size_t		 off;	/* offset in the source */
	char		 op[3];	/* T_OP */
	char		*text;	/* T_NAME, T_STR (decoded) */
	json_int_t	 i;
	double		 f;
};

struct lexer {
	struct token	*toks;
	size_t		 n;
	size_t		 cap;
};

static void
lexer_free(struct lexer *lx)
{
	size_t i;

	for (i = 0; i < lx->n; i++)
		free(lx->toks[i].text);
	free(lx->toks);
	lx->toks = NULL;
	lx->n = lx->cap = 0;
}

/* Whether s[0..len) is well-formed UTF-8 (jansson refuses anything
 * else, and a string it refuses would be a NULL value). */
int
expr_utf8_valid(const char *s, size_t len)
{
	const unsigned char	*p = (const unsigned char *)s;
	const unsigned char	*end = p + len;
	unsigned		 c, need, min;

	while (p < end) {
		c = *p++;
		if (c < 0x80)
			continue;
		if (c >= 0xc2 && c <= 0xdf) {
			need = 1;
			min = 0x80;
			c &= 0x1f;
		} else if (c >= 0xe0 && c <= 0xef) {
			need = 2;
			min = 0x800;
			c &= 0x0f;
		} else if (c >= 0xf0 && c <= 0xf4) {
			need = 3;
			min = 0x10000;
			c &= 0x07;
		} else
			return 0;
		if ((size_t)(end - p) < need)
			return 0;
		for (; need > 0; need--, p++) {
			if ((*p & 0xc0) != 0x80)
				return 0;
			c = (c << 6) | (*p & 0x3f);
		}
		if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
			return 0;
	}
	return 1;
}

static struct token *
lexer_push(struct lexer *lx, enum tok_type type, size_t off)
{
	struct token *t;

	if (lx->n == lx->cap) {
		lx->cap = lx->cap < 16 ? 16 : lx->cap * 2;
		lx->toks = xreallocarray(lx->toks, lx->cap, sizeof *lx->toks);
	}
	t = &lx->toks[lx->n++];
	memset(t, 0, sizeof *t);
	t->type = type;
	t->off = off;
	return t;
}

static int
lex(const char *src, size_t base, struct lexer *lx, char **cause)
{
	static const char *const ops2[] = { "==", "!=", "<=", ">=", "//",
	    "**", NULL };
	const char	*p = src;
	struct token	*t;
	size_t		 i;

	memset(lx, 0, sizeof *lx);
	for (;;) {
		while (isspace((unsigned char)*p))
			p++;
		if (*p == '\0')
			break;
		if (isalpha((unsigned char)*p) || *p == '_') {
			const char *s = p;

			while (isalnum((unsigned char)*p) || *p == '_')
				p++;
			t = lexer_push(lx, T_NAME, (size_t)(s - src));
			t->text = xstrndup(s, (size_t)(p - s));
			continue;
		}
		if (isdigit((unsigned char)*p)) {
			const char	*s = p;
			size_t		 start = (size_t)(p - src), o = 0;
			int		 isfloat = 0;
			char		 buf[64];

			while (isdigit((unsigned char)*p) || *p == '_')
				p++;
			/* "1.5" is a float but the 0 in "groups.web.0" is an
			 * index */
			if (*p == '.' && isdigit((unsigned char)p[1]) &&
			    (s == src || s[-1] != '.')) {
				isfloat = 1;
				p++;
				while (isdigit((unsigned char)*p) || *p == '_')
					p++;
			}
			if ((*p == 'e' || *p == 'E') &&
			    (isdigit((unsigned char)p[1]) ||
			    ((p[1] == '+' || p[1] == '-') &&
			    isdigit((unsigned char)p[2])))) {
				isfloat = 1;
				p += 2;
				while (isdigit((unsigned char)*p))
					p++;
			}
			for (; s < p; s++) {
				if (*s == '_')
					continue;
				if (o + 1 >= sizeof buf) {
					lexer_free(lx);
					return fail(cause, "number too long at "
					    "character %zu", base + start + 1);
				}
				buf[o++] = *s;
			}
			buf[o] = '\0';
			t = lexer_push(lx, isfloat ? T_FLOAT : T_INT, start);
			errno = 0;
			if (isfloat)
				t->f = strtod(buf, NULL);
			else
				t->i = strtoll(buf, NULL, 10);
			if (errno == ERANGE) {
				lexer_free(lx);
				return fail(cause, "number too large at "
				    "character %zu", base + start + 1);
			}
			continue;
		}
		if (*p == '\'' || *p == '"') {
			char		 q = *p;
			const char	*s = p++;
			struct strbuf	 sb;

			strbuf_init(&sb);
			while (*p != '\0' && *p != q) {
				if (*p == '\\' && p[1] != '\0') {
					p++;
					switch (*p) {
					case 'n': strbuf_addch(&sb, '\n'); break;
					case 't': strbuf_addch(&sb, '\t'); break;
					case 'r': strbuf_addch(&sb, '\r'); break;
					default: strbuf_addch(&sb, *p); break;
					}
					p++;
					continue;
				}
				strbuf_addch(&sb, *p++);
			}
			if (*p != q) {
				strbuf_release(&sb);
				lexer_free(lx);
				return fail(cause, "unterminated string at "
				    "character %zu", base + (size_t)(s - src) + 1);
			}
			p++;
			if (!expr_utf8_valid(sb.buf, sb.len)) {
				strbuf_release(&sb);
				lexer_free(lx);
				return fail(cause, "invalid UTF-8 in string at "
				    "character %zu", base + (size_t)(s - src) + 1);
			}
			t = lexer_push(lx, T_STR, (size_t)(s - src));
			t->text = strbuf_detach(&sb, NULL);
			continue;
		}
		for (i = 0; ops2[i] != NULL; i++) {
			if (strncmp(p, ops2[i], 2) == 0)
				break;
		}
		if (ops2[i] != NULL) {
			t = lexer_push(lx, T_OP, (size_t)(p - src));
			memcpy(t->op, p, 2);
			p += 2;
			continue;
		}
		if (strchr("<>()[]{},.:|+-*/%~", *p) != NULL) {
			t = lexer_push(lx, T_OP, (size_t)(p - src));
			t->op[0] = *p++;
			continue;
		}
		{
			size_t off = (size_t)(p - src);

			lexer_free(lx);
			if (!isprint((unsigned char)*p))
				return fail(cause, "unexpected byte 0x%02x at "
				    "character %zu", (unsigned char)*p,
				    base + off + 1);
			return fail(cause, "unexpected '%c' at character %zu",
			    *p, base + off + 1);
		}
	}
	lexer_push(lx, T_EOF, (size_t)(p - src));
	return 0;
}

/* Syntax tree. */

enum node_kind {
	N_LIT, N_VAR, N_ATTR, N_INDEX, N_LIST, N_DICT, N_NOT, N_NEG, N_AND,
	N_OR, N_BIN, N_CMP, N_IN, N_FILTER, N_TEST, N_COND,
};

struct enode {
	enum node_kind	  kind;
	char		  op[3];	/* N_BIN, N_CMP */
	int		  negate;	/* N_IN, N_TEST */
	char		 *name;		/* N_VAR, N_ATTR, N_FILTER, N_TEST */
	json_t		 *lit;		/* N_LIT */
	struct enode	 *a, *b, *c;
	struct enode	**args;		/* N_LIST, N_DICT (k,v,k,v), calls */
	size_t		  nargs;
	unsigned	  depth;	/* of the tree below; leaves 0 */
};

static void
enode_free(struct enode *n)
{
	size_t i;

	if (n == NULL)
		return;
	free(n->name);
	json_decref(n->lit);
	enode_free(n->a);
	enode_free(n->b);
	enode_free(n->c);
	for (i = 0; i < n->nargs; i++)
		enode_free(n->args[i]);
	free(n->args);
	free(n);
}

static struct enode *
enode_new(enum node_kind kind)
{
	struct enode *n = xcalloc(1, sizeof *n);

	n->kind = kind;
	return n;
}

static void
enode_add_arg(struct enode *n, struct enode *arg)
{
	n->args = xreallocarray(n->args, n->nargs + 1, sizeof *n->args);
	n->args[n->nargs++] = arg;
}

struct parser {
	struct lexer	 lx;
	size_t		 i;
	size_t		 base;	/* added to reported character positions */
	char		*cause;
	unsigned	 nest;	/* recursion of the parser */
};

static struct token *
peek(struct parser *ps)
{
	return &ps->lx.toks[ps->i];
}

static int
is_op(struct parser *ps, const char *op)
{
	struct token *t = peek(ps);

	return t->type == T_OP && strcmp(t->op, op) == 0;
}

static int
is_name(struct parser *ps, const char *name)
{
	struct token *t = peek(ps);

	return t->type == T_NAME && strcmp(t->text, name) == 0;
}

static int
is_name_at(struct parser *ps, size_t ahead, const char *name)
{
	struct token *t;

	if (ps->i + ahead >= ps->lx.n)
		return 0;
	t = &ps->lx.toks[ps->i + ahead];
	return t->type == T_NAME && strcmp(t->text, name) == 0;
}

static struct enode *
syntax_error(struct parser *ps)
{
	struct token *t = peek(ps);

	if (ps->cause != NULL)
		return NULL;
	switch (t->type) {
	case T_EOF:
		ps->cause = xstrdup("unexpected end of expression");
		break;
	case T_NAME:
		ps->cause = xprintf("unexpected '%s' at character %zu", t->text,
		    ps->base + t->off + 1);
		break;
	case T_STR:
		ps->cause = xprintf("unexpected string at character %zu",
		    ps->base + t->off + 1);
		break;
	case T_INT:
	case T_FLOAT:
		ps->cause = xprintf("unexpected number at character %zu",
		    ps->base + t->off + 1);
		break;
	case T_OP:
		ps->cause = xprintf("unexpected '%s' at character %zu", t->op,
		    ps->base + t->off + 1);
		break;
	}
	return NULL;
}

/*
 * The parser recurses on brackets, `not` and unary signs, and evaluation
 * and freeing recurse over the tree, whose depth grows with every operator
 * in a chain: both are bounded (EXPR_MAX_NESTING, EXPR_MAX_DEPTH), so that
 * `when: ((((...` or `not not not ...` is an error, not a stack overflow.
 */
static int
enter(struct parser *ps)
{
	if (ps->nest < EXPR_MAX_NESTING) {
		ps->nest++;
		return 0;
	}
	if (ps->cause == NULL)
		ps->cause = xprintf("expression nests deeper than %d levels at "
		    "character %zu", EXPR_MAX_NESTING,
		    ps->base + peek(ps)->off + 1);
	return -1;
}

/* n with its children attached: its depth, or NULL past the limit. */
static struct enode *
grown(struct parser *ps, struct enode *n)
{
	const struct enode	*kids[3] = { n->a, n->b, n->c };
	unsigned		 d = 0;
	size_t			 i;

	for (i = 0; i < 3; i++) {
		if (kids[i] != NULL && kids[i]->depth > d)
			d = kids[i]->depth;
	}
	for (i = 0; i < n->nargs; i++) {
		if (n->args[i]->depth > d)
			d = n->args[i]->depth;
	}
	n->depth = d + 1;
	if (n->depth <= EXPR_MAX_DEPTH)
		return n;
	if (ps->cause == NULL)
		ps->cause = xprintf("expression has more than %d operators "
		    "in a chain at character %zu", EXPR_MAX_DEPTH,
		    ps->base + peek(ps)->off + 1);
	enode_free(n);
	return NULL;
}

static int
expect_op(struct parser *ps, const char *op)
{
	if (!is_op(ps, op)) {
		syntax_error(ps);
		return -1;
	}
	ps->i++;
	return 0;
}

struct callable {
	const char	*name;
	size_t		 min, max;	/* arguments */
};

static const struct callable filters[] = {
	{ "default", 0, 2 }, { "d", 0, 2 }, { "int", 0, 1 }, { "float", 0, 1 },
	{ "string", 0, 0 }, { "bool", 0, 0 }, { "lower", 0, 0 },
	{ "upper", 0, 0 }, { "trim", 0, 0 }, { "length", 0, 0 },
	{ "count", 0, 0 }, { "join", 0, 1 }, { "first", 0, 0 },
	{ "last", 0, 0 }, { "min", 0, 0 }, { "max", 0, 0 }, { "abs", 0, 0 },
	{ "round", 0, 1 }, { "replace", 2, 2 }, { NULL, 0, 0 },
};

static const struct callable tests[] = {
	{ "defined", 0, 0 }, { "undefined", 0, 0 }, { "none", 0, 0 },
	{ "string", 0, 0 }, { "number", 0, 0 }, { "integer", 0, 0 },
	{ "float", 0, 0 }, { "boolean", 0, 0 }, { "mapping", 0, 0 },
	{ "sequence", 0, 0 }, { "even", 0, 0 }, { "odd", 0, 0 },
	{ NULL, 0, 0 },
};

static struct enode *parse_expr(struct parser *);
static struct enode *parse_unary(struct parser *, int);

static int
parse_call_args(struct parser *ps, struct enode *n, const struct callable *tab,
    const char *what)
{
	const struct callable	*c;
	struct enode		*arg;
	size_t			 off = ps->base + ps->lx.toks[ps->i - 1].off;

	for (c = tab; c->name != NULL; c++) {
		if (strcmp(c->name, n->name) == 0)
			break;
	}
	if (c->name == NULL) {
		ps->cause = xprintf("unknown %s '%s' at character %zu", what,
		    n->name, off + 1);
		return -1;
	}
	if (is_op(ps, "(")) {
		ps->i++;
		while (!is_op(ps, ")")) {
			if ((arg = parse_expr(ps)) == NULL)
				return -1;
			enode_add_arg(n, arg);
			if (is_op(ps, ","))
				ps->i++;
			else if (!is_op(ps, ")")) {
				syntax_error(ps);
				return -1;
			}
		}
		ps->i++;
	}
	if (n->nargs < c->min || n->nargs > c->max) {
		ps->cause = xprintf("%s '%s' takes %zu to %zu arguments, got "
		    "%zu at character %zu", what, n->name, c->min, c->max,
		    n->nargs, off + 1);
		return -1;
	}
	return 0;
}

static struct enode *
parse_primary(struct parser *ps)
{
	struct token	*t = peek(ps);
	struct enode	*n, *k, *v;

	switch (t->type) {
	case T_NAME:
		ps->i++;
		n = enode_new(N_LIT);
		if (strcmp(t->text, "true") == 0 || strcmp(t->text, "True") == 0)
			n->lit = json_true();
		else if (strcmp(t->text, "false") == 0 ||
		    strcmp(t->text, "False") == 0)
			n->lit = json_false();
		else if (strcmp(t->text, "none") == 0 ||
		    strcmp(t->text, "None") == 0)
			n->lit = json_null();
		else if (strcmp(t->text, "and") == 0 ||
		    strcmp(t->text, "or") == 0 || strcmp(t->text, "in") == 0 ||
		    strcmp(t->text, "is") == 0 || strcmp(t->text, "if") == 0 ||
		    strcmp(t->text, "else") == 0) {
			ps->i--;
			free(n);
			return syntax_error(ps);
		} else {
			n->kind = N_VAR;
			n->name = xstrdup(t->text);
		}
		return n;
	case T_INT:
		ps->i++;
		n = enode_new(N_LIT);
		n->lit = json_integer(t->i);
		return n;
	case T_FLOAT:
		ps->i++;
		n = enode_new(N_LIT);
		n->lit = json_real(t->f);
		return n;
	case T_STR: {
		struct strbuf sb;

		/* adjacent literals concatenate, as in Python */
		strbuf_init(&sb);
		while (peek(ps)->type == T_STR)
			strbuf_addstr(&sb, ps->lx.toks[ps->i++].text);
		n = enode_new(N_LIT);
		n->lit = json_stringn(sb.buf, sb.len);
		strbuf_release(&sb);
		return n;
	}
	case T_OP:
		if (is_op(ps, "(")) {
			ps->i++;
			if ((n = parse_expr(ps)) == NULL)
				return NULL;
			if (expect_op(ps, ")") != 0) {
				enode_free(n);
				return NULL;
			}
			return n;
		}
		if (is_op(ps, "[")) {
			ps->i++;
			n = enode_new(N_LIST);
			while (!is_op(ps, "]")) {
				if ((v = parse_expr(ps)) == NULL)
					goto fail;
				enode_add_arg(n, v);
				if (is_op(ps, ","))
					ps->i++;
				else if (!is_op(ps, "]")) {
					syntax_error(ps);
					goto fail;
				}
			}
			ps->i++;
			return grown(ps, n);
		}
		if (is_op(ps, "{")) {
			ps->i++;
			n = enode_new(N_DICT);
			while (!is_op(ps, "}")) {
				if ((k = parse_expr(ps)) == NULL)
					goto fail;
				enode_add_arg(n, k);
				if (expect_op(ps, ":") != 0)
					goto fail;
				if ((v = parse_expr(ps)) == NULL)
					goto fail;
				enode_add_arg(n, v);
				if (is_op(ps, ","))
					ps->i++;
				else if (!is_op(ps, "}")) {
					syntax_error(ps);
					goto fail;
				}
			}
			ps->i++;
			return grown(ps, n);
		}
		break;
	case T_EOF:
		break;
	}
	return syntax_error(ps);
fail:
	enode_free(n);
	return NULL;
}

static struct enode *
parse_postfix(struct parser *ps, struct enode *n)
{
	struct enode	*m, *idx;
	struct token	*t;

	for (;;) {
		if (is_op(ps, ".")) {
			ps->i++;
			t = peek(ps);
			if (t->type == T_NAME) {
				m = enode_new(N_ATTR);
				m->name = xstrdup(t->text);
			} else if (t->type == T_INT) {
				/* groups.web.0 is groups.web[0] */
				m = enode_new(N_INDEX);
				m->b = enode_new(N_LIT);
				m->b->lit = json_integer(t->i);
			} else {
				enode_free(n);
				return syntax_error(ps);
			}
			ps->i++;
			m->a = n;
			if ((n = grown(ps, m)) == NULL)
				return NULL;
		} else if (is_op(ps, "[")) {
			ps->i++;
			if ((idx = parse_expr(ps)) == NULL) {
				enode_free(n);
				return NULL;
			}
			m = enode_new(N_INDEX);
			m->a = n;
			m->b = idx;
			if ((n = grown(ps, m)) == NULL)
				return NULL;
			if (expect_op(ps, "]") != 0) {
				enode_free(n);
				return NULL;
			}
		} else
			return n;
	}
}

static struct enode *
parse_filters(struct parser *ps, struct enode *n)
{
	struct enode *m;

	for (;;) {
		if (is_op(ps, "|")) {
			ps->i++;
			if (peek(ps)->type != T_NAME) {
				enode_free(n);
				return syntax_error(ps);
			}
			m = enode_new(N_FILTER);
			m->name = xstrdup(peek(ps)->text);
			m->a = n;
			n = m;
			ps->i++;
			if (parse_call_args(ps, n, filters, "filter") != 0) {
				enode_free(n);
				return NULL;
			}
			if ((n = grown(ps, n)) == NULL)
				return NULL;
		} else if (is_name(ps, "is")) {
			ps->i++;
			m = enode_new(N_TEST);
			m->a = n;
			n = m;
			if (is_name(ps, "not")) {
				n->negate = 1;
				ps->i++;
			}
			if (peek(ps)->type != T_NAME) {
				enode_free(n);
				return syntax_error(ps);
			}
			/* `is none`: the literal's name, not its value */
			n->name = xstrdup(peek(ps)->text);
			ps->i++;
			if (parse_call_args(ps, n, tests, "test") != 0) {
				enode_free(n);
				return NULL;
			}
			if ((n = grown(ps, n)) == NULL)
				return NULL;
		} else
			return n;
	}
}

static struct enode *
parse_unary(struct parser *ps, int with_filter)
{
	struct enode *n, *m;

	if (is_op(ps, "-") || is_op(ps, "+")) {
		int neg = is_op(ps, "-");

		ps->i++;
		if (enter(ps) != 0)
			return NULL;
		m = parse_unary(ps, 0);
		ps->nest--;
		if (m == NULL)
			return NULL;
		if (neg) {
			n = enode_new(N_NEG);
			n->a = m;
			if ((n = grown(ps, n)) == NULL)
				return NULL;
		} else
			n = m;
	} else if ((n = parse_primary(ps)) == NULL)
		return NULL;
	if ((n = parse_postfix(ps, n)) == NULL)
		return NULL;
	if (with_filter)
		n = parse_filters(ps, n);
	return n;
}

static struct enode *
binary(struct parser *ps, const char *op, enum node_kind kind,
    struct enode *a, struct enode *b)
{
	struct enode *n = enode_new(kind);

	snprintf(n->op, sizeof n->op, "%s", op);
	n->a = a;
	n->b = b;
	return grown(ps, n);
}

static struct enode *
parse_math2(struct parser *ps)
{
	static const char *const ops[] = { "*", "/", "//", "%", NULL };
	struct enode	*n, *b;
	size_t		 i;

	if ((n = parse_unary(ps, 1)) == NULL)
		return NULL;
	for (;;) {
		for (i = 0; ops[i] != NULL && !is_op(ps, ops[i]); i++)
			;
		if (ops[i] == NULL)
			return n;
		ps->i++;
		if ((b = parse_unary(ps, 1)) == NULL) {
			enode_free(n);
			return NULL;
		}
		if ((n = binary(ps, ops[i], N_BIN, n, b)) == NULL)
			return NULL;
	}
}

static struct enode *
parse_concat(struct parser *ps)
{
	struct enode *n, *b;

	if ((n = parse_math2(ps)) == NULL)
		return NULL;
	while (is_op(ps, "~")) {
		ps->i++;
		if ((b = parse_math2(ps)) == NULL) {
			enode_free(n);
			return NULL;
		}
		if ((n = binary(ps, "~", N_BIN, n, b)) == NULL)
			return NULL;
	}
	return n;
}

static struct enode *
parse_math1(struct parser *ps)
{
	struct enode	*n, *b;
	const char	*op;

	if ((n = parse_concat(ps)) == NULL)
		return NULL;
	while (is_op(ps, "+") || is_op(ps, "-")) {
		op = is_op(ps, "+") ? "+" : "-";
		ps->i++;
		if ((b = parse_concat(ps)) == NULL) {
			enode_free(n);
			return NULL;
		}
		if ((n = binary(ps, op, N_BIN, n, b)) == NULL)
			return NULL;
	}
	return n;
}

static struct enode *
parse_compare(struct parser *ps)
{
	static const char *const ops[] = { "==", "!=", "<=", ">=", "<", ">",
	    NULL };
	struct enode	*n, *b;
	size_t		 i;
	int		 negate;

	if ((n = parse_math1(ps)) == NULL)
		return NULL;
	for (;;) {
		for (i = 0; ops[i] != NULL && !is_op(ps, ops[i]); i++)
			;
		if (ops[i] != NULL) {
			ps->i++;
			if ((b = parse_math1(ps)) == NULL) {
				enode_free(n);
				return NULL;
			}
			if ((n = binary(ps, ops[i], N_CMP, n, b)) == NULL)
				return NULL;
			continue;
		}
		if (is_name(ps, "in") || (is_name(ps, "not") &&
		    is_name_at(ps, 1, "in"))) {
			negate = is_name(ps, "not");
			ps->i += negate ? 2 : 1;
			if ((b = parse_math1(ps)) == NULL) {
				enode_free(n);
				return NULL;
			}
			if ((n = binary(ps, "in", N_IN, n, b)) == NULL)
				return NULL;
			n->negate = negate;
			continue;
		}
		return n;
	}
}

static struct enode *
parse_not(struct parser *ps)
{
	struct enode *n;

	if (is_name(ps, "not")) {
		ps->i++;
		if (enter(ps) != 0)
			return NULL;
		n = enode_new(N_NOT);
		n->a = parse_not(ps);
		ps->nest--;
		if (n->a == NULL) {
			enode_free(n);
			return NULL;
		}
		return grown(ps, n);
	}
	return parse_compare(ps);
}

/* A left-associative chain of one keyword operator: next (WORD next)*. */
static struct enode *
parse_keyword_chain(struct parser *ps, const char *word, enum node_kind kind,
    struct enode *(*next)(struct parser *))
{
	struct enode *n, *b;

	if ((n = next(ps)) == NULL)
		return NULL;
	while (is_name(ps, word)) {
		ps->i++;
		if ((b = next(ps)) == NULL) {
			enode_free(n);
			return NULL;
		}
		if ((n = binary(ps, "", kind, n, b)) == NULL)
			return NULL;
	}
	return n;
}

static struct enode *
parse_and(struct parser *ps)
{
	return parse_keyword_chain(ps, "and", N_AND, parse_not);
}

static struct enode *
parse_or(struct parser *ps)
{
	return parse_keyword_chain(ps, "or", N_OR, parse_and);
}

static struct enode *
parse_expr_at(struct parser *ps)
{
	struct enode *n, *m;

	if ((n = parse_or(ps)) == NULL)
		return NULL;
	if (is_name(ps, "if")) {
		ps->i++;
		m = enode_new(N_COND);
		m->a = n;	/* value when true */
		n = m;
		if ((n->b = parse_or(ps)) == NULL)
			goto fail;
		if (is_name(ps, "else")) {
			ps->i++;
			if ((n->c = parse_expr(ps)) == NULL)
				goto fail;
		}
		return grown(ps, n);
	}
	return n;
fail:
	enode_free(n);
	return NULL;
}

/* Every nested expression (brackets, arguments, `else`) comes here. */
static struct enode *
parse_expr(struct parser *ps)
{
	struct enode *n;

	if (enter(ps) != 0)
		return NULL;
	n = parse_expr_at(ps);
	ps->nest--;
	return n;
}

static struct enode *
parse(const char *src, size_t base, char **cause)
{
	struct parser	 ps;
	struct enode	*n = NULL;

	memset(&ps, 0, sizeof ps);
	ps.base = base;
	if (lex(src, base, &ps.lx, cause) != 0)
		return NULL;
	if (peek(&ps)->type == T_EOF) {
		fail(cause, "empty expression");
		goto out;
	}
	if ((n = parse_expr(&ps)) != NULL && peek(&ps)->type != T_EOF) {
		syntax_error(&ps);
		enode_free(n);
		n = NULL;
	}
	if (n == NULL) {
		if (cause != NULL)
			*cause = ps.cause;
		else
			free(ps.cause);
	}
out:
	lexer_free(&ps.lx);
	return n;
}

int
expr_check(const char *src, size_t base, char **cause)
{
	struct enode *n;

	if ((n = parse(src, base, cause)) == NULL)
		return -1;
	enode_free(n);
	return 0;
}

/* Evaluation. A value of NULL with r == 0 is Jinja's Undefined; undef
 * remembers the node that first produced it, to name it in errors. */

struct ectx {
	const json_t		*vars;
	const struct enode	*undef;
	char			*cause;
	int			 code;
};

static int eval(struct ectx *, const struct enode *, json_t **);

static const char *
type_name(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT: return "mapping";
	case JSON_ARRAY: return "list";
	case JSON_STRING: return "string";
	case JSON_INTEGER: return "int";
	case JSON_REAL: return "float";
	case JSON_TRUE:
	case JSON_FALSE: return "bool";
	case JSON_NULL: return "none";
	}
	return "?";
}

static void
node_path(struct strbuf *sb, const struct enode *n)
{
	char *s;

	switch (n->kind) {
	case N_VAR:
		strbuf_addstr(sb, n->name);
		return;
	case N_ATTR:
		node_path(sb, n->a);
		strbuf_addf(sb, ".%s", n->name);
		return;
	case N_INDEX:
		node_path(sb, n->a);
		if (n->b->kind == N_LIT && json_is_string(n->b->lit))
			strbuf_addf(sb, "['%s']", json_string_value(n->b->lit));
		else if (n->b->kind == N_LIT) {
			s = template_to_text(n->b->lit);
			strbuf_addf(sb, "[%s]", s);
			free(s);
		} else {
			strbuf_addstr(sb, "[");
			node_path(sb, n->b);
			strbuf_addstr(sb, "]");
		}
		return;
	case N_LIT:
		s = template_to_text(n->lit);
		strbuf_addstr(sb, s);
		free(s);
		return;
	default:
		strbuf_addstr(sb, "(expression)");
		return;
	}
}

static int
eval_error(struct ectx *ctx, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int
eval_error(struct ectx *ctx, const char *fmt, ...)
{
	va_list ap;

	if (ctx->cause == NULL) {
		va_start(ap, fmt);
		ctx->cause = xvprintf(fmt, ap);
		va_end(ap);
		ctx->code = EXPR_ERROR;
	}
	return -1;
}

/* A float result: jansson holds no inf or nan (Python would print them). */
static int
real_out(struct ectx *ctx, double d, json_t **out)
{
	if (!isfinite(d))
		return eval_error(ctx, "float result out of range");
	*out = json_real(d);
	return 0;
}

/* A string result, bounded: chained `~` could otherwise double a value's
 * size with every operator. */
static int
string_out(struct ectx *ctx, struct strbuf *sb, json_t **out)
{
	if (sb->len > EXPR_MAX_STRING) {
		strbuf_release(sb);
		return eval_error(ctx, "string result longer than %d MiB",
		    EXPR_MAX_STRING / (1024 * 1024));
	}
	*out = json_stringn(sb->buf != NULL ? sb->buf : "", sb->len);
	strbuf_release(sb);
	return 0;
}

/* Evaluate and insist on a defined value. */
static int
need(struct ectx *ctx, const struct enode *n, json_t **out)
{
	struct strbuf sb;

	if (eval(ctx, n, out) != 0)
		return -1;
	if (*out != NULL)
		return 0;
	if (ctx->cause == NULL) {
		strbuf_init(&sb);
		node_path(&sb, ctx->undef != NULL ? ctx->undef : n);
		ctx->cause = xprintf("undefined variable '%s'", sb.buf);
		ctx->code = EXPR_UNDEFINED;
		strbuf_release(&sb);
	}
	return -1;
}

static int
is_num(const json_t *v)
{
	return json_is_integer(v) || json_is_real(v);
}

static double
num(const json_t *v)
{
	return json_number_value(v);
}

static int
values_equal(const json_t *a, const json_t *b)
{
	if (is_num(a) && is_num(b)) {
		if (json_is_integer(a) && json_is_integer(b))
			return json_integer_value(a) == json_integer_value(b);
		return num(a) == num(b);
	}
	return json_equal((json_t *)a, (json_t *)b);
}

/* <0, 0, >0, or -2 with an error when the types do not order. */
static int
values_order(struct ectx *ctx, const char *op, const json_t *a,
    const json_t *b, int *res)
{
	size_t i;

	if (is_num(a) && is_num(b)) {
		if (json_is_integer(a) && json_is_integer(b))
			*res = (json_integer_value(a) > json_integer_value(b)) -
			    (json_integer_value(a) < json_integer_value(b));
		else
			*res = (num(a) > num(b)) - (num(a) < num(b));
		return 0;
	}
	if (json_is_string(a) && json_is_string(b)) {
		*res = strcmp(json_string_value(a), json_string_value(b));
		return 0;
	}
	if (json_is_array(a) && json_is_array(b)) {
		for (i = 0; i < json_array_size(a) && i < json_array_size(b);
		    i++) {
			if (values_equal(json_array_get(a, i),
			    json_array_get(b, i)))
				continue;
			return values_order(ctx, op, json_array_get(a, i),
			    json_array_get(b, i), res);
		}
		*res = (json_array_size(a) > json_array_size(b)) -
		    (json_array_size(a) < json_array_size(b));
		return 0;
	}
	return eval_error(ctx, "'%s' not supported between %s and %s", op,
	    type_name(a), type_name(b));
}

static int
eval_cmp(struct ectx *ctx, const struct enode *n, json_t **out)
{
	json_t	*a = NULL, *b = NULL;
	int	 r = -1, c = 0, truth;

	if (need(ctx, n->a, &a) != 0 || need(ctx, n->b, &b) != 0)
		goto out;
	if (strcmp(n->op, "==") == 0)
		truth = values_equal(a, b);
	else if (strcmp(n->op, "!=") == 0)
		truth = !values_equal(a, b);
	else {
		if (values_order(ctx, n->op, a, b, &c) != 0)
			goto out;
		if (strcmp(n->op, "<") == 0)
			truth = c < 0;
		else if (strcmp(n->op, "<=") == 0)
			truth = c <= 0;
		else if (strcmp(n->op, ">") == 0)
			truth = c > 0;
		else
			truth = c >= 0;
	}
	*out = json_boolean(truth);
	r = 0;
out:
	json_decref(a);
	json_decref(b);
	return r;
}

static int
eval_in(struct ectx *ctx, const struct enode *n, json_t **out)
{
	json_t	*a = NULL, *b = NULL, *item;
	size_t	 i;
	int	 r = -1, found = 0;

	if (need(ctx, n->a, &a) != 0 || need(ctx, n->b, &b) != 0)
		goto out;
	if (json_is_string(b)) {
		if (!json_is_string(a)) {
			eval_error(ctx, "'in <string>' requires a string on "
			    "the left, not %s", type_name(a));
			goto out;
		}
		found = strstr(json_string_value(b), json_string_value(a)) !=
		    NULL;
	} else if (json_is_array(b)) {
		json_array_foreach(b, i, item) {
			if (values_equal(a, item)) {
				found = 1;
				break;
			}
		}
	} else if (json_is_object(b)) {
		found = json_is_string(a) &&
		    json_object_get(b, json_string_value(a)) != NULL;
	} else {
		eval_error(ctx, "argument of type %s is not iterable",
		    type_name(b));
		goto out;
	}
	*out = json_boolean(n->negate ? !found : found);
	r = 0;
out:
	json_decref(a);
	json_decref(b);
	return r;
}

static int
eval_bin(struct ectx *ctx, const struct enode *n, json_t **out)
{
	json_t		*a = NULL, *b = NULL;
	int		 r = -1;
	const char	*op = n->op;

	if (need(ctx, n->a, &a) != 0 || need(ctx, n->b, &b) != 0)
		goto out;
	if (strcmp(op, "~") == 0 || (strcmp(op, "+") == 0 &&
	    json_is_string(a) && json_is_string(b))) {
		char		*sa = template_to_text(a);
		char		*sb = template_to_text(b);
		struct strbuf	 buf;

		strbuf_init(&buf);
		strbuf_addstr(&buf, sa);
		strbuf_addstr(&buf, sb);
		free(sa);
		free(sb);
		r = string_out(ctx, &buf, out);
		goto out;
	}
	if (strcmp(op, "+") == 0 && json_is_array(a) && json_is_array(b)) {
		/* values are never changed in place: share the items */
		*out = json_copy(a);
		json_array_extend(*out, b);
		r = 0;
		goto out;
	}
	if (!is_num(a) || !is_num(b)) {
		eval_error(ctx, "unsupported operand types for %s: %s and %s",
		    op, type_name(a), type_name(b));
		goto out;
	}
	if (json_is_integer(a) && json_is_integer(b) && strcmp(op, "/") != 0) {
		json_int_t x = json_integer_value(a), y = json_integer_value(b);
		json_int_t q;
		int over;

		/* Python's ints do not overflow; ours say so */
		if (strcmp(op, "+") == 0)
			over = __builtin_add_overflow(x, y, &q);
		else if (strcmp(op, "-") == 0)
			over = __builtin_sub_overflow(x, y, &q);
		else if (strcmp(op, "*") == 0)
			over = __builtin_mul_overflow(x, y, &q);
		else
			over = y == -1 && x == LLONG_MIN;
		if (over) {
			eval_error(ctx, "integer overflow in '%s'", op);
			goto out;
		}
		if (strcmp(op, "+") == 0 || strcmp(op, "-") == 0 ||
		    strcmp(op, "*") == 0)
			*out = json_integer(q);
		else {
			if (y == 0) {
				eval_error(ctx, "division by zero");
				goto out;
			}
			/* Python floors, C truncates */
			q = x / y;
			if ((x % y != 0) && ((x < 0) != (y < 0)))
				q--;
			*out = json_integer(strcmp(op, "//") == 0 ? q :
			    x - q * y);
		}
		r = 0;
		goto out;
	}
	{
		double x = num(a), y = num(b), z;

		if (strcmp(op, "+") == 0)
			z = x + y;
		else if (strcmp(op, "-") == 0)
			z = x - y;
		else if (strcmp(op, "*") == 0)
			z = x * y;
		else {
			if (y == 0) {
				eval_error(ctx, "division by zero");
				goto out;
			}
			if (strcmp(op, "/") == 0)
				z = x / y;
			else if (strcmp(op, "//") == 0)
				z = floor(x / y);
			else
				z = x - floor(x / y) * y;
		}
		r = real_out(ctx, z, out);
		goto out;
	}
	r = 0;
out:
	json_decref(a);
	json_decref(b);
	return r;
}

static size_t
utf8_length(const char *s)
{
	size_t n = 0;

	for (; *s != '\0'; s++) {
		if (((unsigned char)*s & 0xc0) != 0x80)
			n++;
	}
	return n;
}

/* A double as an int, if it is one (the cast is undefined otherwise). */
static int
double_fits(double d)
{
	return isfinite(d) && d >= -9223372036854775808.0 &&
	    d < 9223372036854775808.0;
}

/* Jinja's int filter; NULL for a number beyond 64 bits, which Python
 * would keep exact. */
static json_t *
to_int(const json_t *v, const json_t *def)
{
	const char	*s;
	char		*end;
	long long	 l;
	double		 d;

	if (json_is_integer(v))
		return json_incref((json_t *)v);
	if (json_is_real(v))
		return double_fits(json_real_value(v)) ?
		    json_integer((json_int_t)json_real_value(v)) : NULL;
	if (json_is_boolean(v))
		return json_integer(json_is_true(v));
	if (json_is_string(v)) {
		s = json_string_value(v);
		errno = 0;
		l = strtoll(s, &end, 10);
		while (isspace((unsigned char)*end))
			end++;
		if (end != s && *end == '\0' && errno == 0)
			return json_integer(l);
		d = strtod(s, &end);
		while (isspace((unsigned char)*end))
			end++;
		if (end != s && *end == '\0' && isfinite(d))
			return double_fits(d) ? json_integer((json_int_t)d) :
			    NULL;
	}
	return def != NULL ? json_incref((json_t *)def) : json_integer(0);
}

static json_t *
to_float(const json_t *v, const json_t *def)
{
	const char	*s;
	char		*end;
	double		 d;

	if (is_num(v))
		return json_real(num(v));
	if (json_is_boolean(v))
		return json_real(json_is_true(v));
	if (json_is_string(v)) {
		s = json_string_value(v);
		d = strtod(s, &end);
		while (isspace((unsigned char)*end))
			end++;
		if (end != s && *end == '\0')
			return isfinite(d) ? json_real(d) : NULL;
	}
	return def != NULL ? json_incref((json_t *)def) : json_real(0);
}

/* Ansible's bool filter. */
static json_t *
to_bool(const json_t *v)
{
	static const char *const yes[] = { "yes", "on", "1", "true", NULL };
	const char	*s;
	size_t		 i;

	if (json_is_boolean(v))
		return json_incref((json_t *)v);
	if (json_is_integer(v))
		return json_boolean(json_integer_value(v) == 1);
	if (json_is_real(v))
		return json_boolean(json_real_value(v) == 1.0);
	if (json_is_string(v)) {
		s = json_string_value(v);
		for (i = 0; yes[i] != NULL; i++) {
			if (strcasecmp(s, yes[i]) == 0)
				return json_true();
		}
	}
	return json_false();
}

static int
eval_minmax(struct ectx *ctx, const char *name, json_t *v, json_t **out)
{
	json_t	*best = NULL, *item;
	size_t	 i;
	int	 c;

	if (!json_is_array(v))
		return eval_error(ctx, "%s expects a list, got %s", name,
		    type_name(v));
	json_array_foreach(v, i, item) {
		if (best == NULL) {
			best = item;
			continue;
		}
		if (values_order(ctx, "<", item, best, &c) != 0)
			return -1;
		if ((strcmp(name, "min") == 0 && c < 0) ||
		    (strcmp(name, "max") == 0 && c > 0))
			best = item;
	}
	if (best == NULL)
		return 0;	/* undefined, as Jinja */
	*out = json_incref(best);
	return 0;
}

static int
eval_filter(struct ectx *ctx, const struct enode *n, json_t **out)
{
	const char	*f = n->name;
	json_t		*v = NULL, *arg = NULL, *arg2 = NULL;
	char		*s;
	int		 r = -1;

	if (strcmp(f, "default") == 0 || strcmp(f, "d") == 0) {
		if (eval(ctx, n->a, &v) != 0)
			goto out;
		if (n->nargs > 1 && need(ctx, n->args[1], &arg2) != 0)
			goto out;
		if (v != NULL && !(arg2 != NULL && template_truthy(arg2) &&
		    !template_truthy(v))) {
			*out = v;
			v = NULL;
			r = 0;
			goto out;
		}
		ctx->undef = NULL;
		if (n->nargs == 0)
			*out = json_string("");
		else if (need(ctx, n->args[0], out) != 0)
			goto out;
		r = 0;
		goto out;
	}
	if (need(ctx, n->a, &v) != 0)
		goto out;
	if (n->nargs > 0 && need(ctx, n->args[0], &arg) != 0)
		goto out;
	if (n->nargs > 1 && need(ctx, n->args[1], &arg2) != 0)
		goto out;
	if (strcmp(f, "int") == 0 || strcmp(f, "float") == 0) {
		*out = f[0] == 'i' ? to_int(v, arg) : to_float(v, arg);
		if (*out == NULL) {
			eval_error(ctx, "value out of range for %s", f);
			goto out;
		}
	} else if (strcmp(f, "string") == 0) {
		s = template_to_text(v);
		*out = json_string(s);
		free(s);
	} else if (strcmp(f, "bool") == 0)
		*out = to_bool(v);
	else if (strcmp(f, "lower") == 0 || strcmp(f, "upper") == 0 ||
	    strcmp(f, "trim") == 0) {
		char *p, *e;

		s = template_to_text(v);
		for (p = s; *p != '\0'; p++) {
			if (f[0] == 'l')
				*p = (char)tolower((unsigned char)*p);
			else if (f[0] == 'u')
				*p = (char)toupper((unsigned char)*p);
		}
		p = s;
		if (f[0] == 't') {
			while (isspace((unsigned char)*p))
				p++;
			e = p + strlen(p);
			while (e > p && isspace((unsigned char)e[-1]))
				*--e = '\0';
		}
		*out = json_string(p);
		free(s);
	} else if (strcmp(f, "length") == 0 || strcmp(f, "count") == 0) {
		if (json_is_string(v))
			*out = json_integer((json_int_t)utf8_length(
			    json_string_value(v)));
		else if (json_is_array(v))
			*out = json_integer((json_int_t)json_array_size(v));
		else if (json_is_object(v))
			*out = json_integer((json_int_t)json_object_size(v));
		else {
			eval_error(ctx, "object of type %s has no length",
			    type_name(v));
			goto out;
		}
	} else if (strcmp(f, "join") == 0) {
		struct strbuf	 sb;
		json_t		*item;
		size_t		 i;

		if (!json_is_array(v)) {
			eval_error(ctx, "join expects a list, got %s",
			    type_name(v));
			goto out;
		}
		strbuf_init(&sb);
		json_array_foreach(v, i, item) {
			if (i > 0 && arg != NULL) {
				s = template_to_text(arg);
				strbuf_addstr(&sb, s);
				free(s);
			}
			s = template_to_text(item);
			strbuf_addstr(&sb, s);
			free(s);
			if (sb.len > EXPR_MAX_STRING)
				break;
		}
		if (string_out(ctx, &sb, out) != 0)
			goto out;
	} else if (strcmp(f, "first") == 0 || strcmp(f, "last") == 0) {
		size_t len;

		if (json_is_array(v)) {
			len = json_array_size(v);
			if (len > 0)
				*out = json_incref(json_array_get(v,
				    f[0] == 'f' ? 0 : len - 1));
		} else if (json_is_string(v)) {
			const char *str = json_string_value(v), *c;

			/* a character, not a byte of one */
			len = strlen(str);
			if (len > 0 && f[0] == 'f') {
				for (c = str + 1; ((unsigned char)*c & 0xc0) ==
				    0x80; c++)
					;
				*out = json_stringn(str, (size_t)(c - str));
			} else if (len > 0) {
				for (c = str + len - 1; c > str &&
				    ((unsigned char)*c & 0xc0) == 0x80; c--)
					;
				*out = json_stringn(c, len - (size_t)(c - str));
			}
		} else {
			eval_error(ctx, "%s expects a list, got %s", f,
			    type_name(v));
			goto out;
		}
	} else if (strcmp(f, "min") == 0 || strcmp(f, "max") == 0) {
		if (eval_minmax(ctx, f, v, out) != 0)
			goto out;
	} else if (strcmp(f, "abs") == 0 || strcmp(f, "round") == 0) {
		if (!is_num(v)) {
			eval_error(ctx, "%s expects a number, got %s", f,
			    type_name(v));
			goto out;
		}
		if (f[0] == 'a' && json_is_integer(v)) {
			if (json_integer_value(v) == LLONG_MIN) {
				eval_error(ctx, "integer overflow in abs");
				goto out;
			}
			*out = json_integer(llabs(json_integer_value(v)));
		} else if (f[0] == 'a')
			*out = json_real(fabs(num(v)));
		else {
			double digits = arg != NULL && is_num(arg) ? num(arg) : 0;
			double scale, x = num(v);

			/* beyond a double's range of digits, Python gives
			 * the number back (or zero) */
			if (digits > 300)
				*out = json_real(x);
			else if (digits < -300)
				*out = json_real(0);
			else {
				scale = pow(10, digits);
				if (real_out(ctx, round(x * scale) / scale,
				    out) != 0)
					goto out;
			}
		}
	} else if (strcmp(f, "replace") == 0) {
		struct strbuf	 sb;
		char		*hay = template_to_text(v);
		char		*from = template_to_text(arg);
		char		*to = template_to_text(arg2);
		const char	*p = hay, *q;

		strbuf_init(&sb);
		while (*from != '\0' && (q = strstr(p, from)) != NULL &&
		    sb.len <= EXPR_MAX_STRING) {
			strbuf_add(&sb, p, (size_t)(q - p));
			strbuf_addstr(&sb, to);
			p = q + strlen(from);
		}
		strbuf_addstr(&sb, p);
		free(hay);
		free(from);
		free(to);
		if (string_out(ctx, &sb, out) != 0)
			goto out;
	}
	r = 0;
out:
	json_decref(v);
	json_decref(arg);
	json_decref(arg2);
	return r;
}

static int
eval_test(struct ectx *ctx, const struct enode *n, json_t **out)
{
	const char	*t = n->name;
	json_t		*v = NULL;
	int		 truth, r = -1;

	if (strcmp(t, "defined") == 0 || strcmp(t, "undefined") == 0) {
		if (eval(ctx, n->a, &v) != 0)
			goto out;
		truth = (v != NULL) == (t[0] == 'd');
		ctx->undef = NULL;
	} else {
		if (need(ctx, n->a, &v) != 0)
			goto out;
		if (strcmp(t, "none") == 0)
			truth = json_is_null(v);
		else if (strcmp(t, "string") == 0)
			truth = json_is_string(v);
		else if (strcmp(t, "number") == 0)
			truth = is_num(v);
		else if (strcmp(t, "integer") == 0)
			truth = json_is_integer(v);
		else if (strcmp(t, "float") == 0)
			truth = json_is_real(v);
		else if (strcmp(t, "boolean") == 0)
			truth = json_is_boolean(v);
		else if (strcmp(t, "mapping") == 0)
			truth = json_is_object(v);
		else if (strcmp(t, "sequence") == 0)
			truth = json_is_array(v) || json_is_string(v) ||
			    json_is_object(v);
		else {
			if (!json_is_integer(v)) {
				eval_error(ctx, "'%s' test expects an int, got "
				    "%s", t, type_name(v));
				goto out;
			}
			truth = (json_integer_value(v) % 2 == 0) ==
			    (strcmp(t, "even") == 0);
		}
	}
	*out = json_boolean(n->negate ? !truth : truth);
	r = 0;
out:
	json_decref(v);
	return r;
}

static int
eval(struct ectx *ctx, const struct enode *n, json_t **out)
{
	json_t	*a = NULL, *b = NULL, *item;
	size_t	 i;
	int	 r = -1;

	*out = NULL;
	switch (n->kind) {
	case N_LIT:
		*out = json_incref(n->lit);
		return 0;
	case N_VAR:
		*out = json_object_get(ctx->vars, n->name);
		if (*out == NULL)
			ctx->undef = n;
		json_incref(*out);
		return 0;
	case N_ATTR:
	case N_INDEX:
		if (eval(ctx, n->a, &a) != 0)
			return -1;
		if (a == NULL)
			return 0;	/* undefined stays undefined */
		if (n->kind == N_ATTR) {
			item = json_object_get(a, n->name);
		} else {
			if (need(ctx, n->b, &b) != 0)
				goto out;
			if (json_is_array(a) && json_is_integer(b)) {
				json_int_t k = json_integer_value(b);

				/* negative indexes count from the end */
				if (k < 0)
					k += (json_int_t)json_array_size(a);
				item = k < 0 ? NULL :
				    json_array_get(a, (size_t)k);
			} else if (json_is_object(a) && json_is_string(b))
				item = json_object_get(a, json_string_value(b));
			else if (json_is_object(a) || json_is_array(a))
				item = NULL;
			else {
				eval_error(ctx, "%s is not subscriptable",
				    type_name(a));
				goto out;
			}
		}
		if (item == NULL)
			ctx->undef = n;
		*out = json_incref(item);
		r = 0;
		goto out;
	case N_LIST:
		*out = json_array();
		for (i = 0; i < n->nargs; i++) {
			if (need(ctx, n->args[i], &a) != 0)
				goto fail;
			json_array_append_new(*out, a);
		}
		a = NULL;
		return 0;
	case N_DICT:
		*out = json_object();
		for (i = 0; i + 1 < n->nargs; i += 2) {
			if (need(ctx, n->args[i], &a) != 0)
				goto fail;
			if (!json_is_string(a)) {
				eval_error(ctx, "mapping keys must be strings, "
				    "got %s", type_name(a));
				goto fail;
			}
			if (need(ctx, n->args[i + 1], &b) != 0)
				goto fail;
			json_object_set_new(*out, json_string_value(a), b);
			json_decref(a);
			a = b = NULL;
		}
		return 0;
	case N_NOT:
		if (need(ctx, n->a, &a) != 0)
			return -1;
		*out = json_boolean(!template_truthy(a));
		r = 0;
		goto out;
	case N_NEG:
		if (need(ctx, n->a, &a) != 0)
			return -1;
		if (json_is_integer(a) && json_integer_value(a) == LLONG_MIN) {
			eval_error(ctx, "integer overflow in unary -");
			goto out;
		} else if (json_is_integer(a))
			*out = json_integer(-json_integer_value(a));
		else if (json_is_real(a))
			*out = json_real(-json_real_value(a));
		else {
			eval_error(ctx, "bad operand type for unary -: %s",
			    type_name(a));
			goto out;
		}
		r = 0;
		goto out;
	case N_AND:
	case N_OR:
		if (need(ctx, n->a, &a) != 0)
			return -1;
		/* Python returns the deciding operand */
		if (template_truthy(a) == (n->kind == N_OR)) {
			*out = a;
			return 0;
		}
		json_decref(a);
		return need(ctx, n->b, out);
	case N_COND:
		if (need(ctx, n->b, &a) != 0)
			return -1;
		if (template_truthy(a))
			r = eval(ctx, n->a, out);
		else if (n->c != NULL)
			r = eval(ctx, n->c, out);
		else {
			*out = json_string("");
			r = 0;
		}
		goto out;
	case N_BIN:
		return eval_bin(ctx, n, out);
	case N_CMP:
		return eval_cmp(ctx, n, out);
	case N_IN:
		return eval_in(ctx, n, out);
	case N_FILTER:
		return eval_filter(ctx, n, out);
	case N_TEST:
		return eval_test(ctx, n, out);
	}
	return eval_error(ctx, "bad expression");
fail:
	json_decref(*out);
	*out = NULL;
out:
	json_decref(a);
	json_decref(b);
	return r;
}

int
expr_eval(const char *src, size_t base, const json_t *vars, json_t **out,
    char **cause)
{
	struct enode	*n;
	struct ectx	 ctx;
	json_t		*empty = NULL;

	*out = NULL;
	if ((n = parse(src, base, cause)) == NULL)
		return EXPR_SYNTAX;
	memset(&ctx, 0, sizeof ctx);
	if (vars == NULL)
		vars = empty = json_object();
	ctx.vars = vars;
	if (need(&ctx, n, out) != 0) {
		if (cause != NULL)
			*cause = ctx.cause;
		else
			free(ctx.cause);
		enode_free(n);
		json_decref(empty);
		return ctx.code != 0 ? ctx.code : EXPR_ERROR;
	}
	enode_free(n);
	json_decref(empty);
	return EXPR_OK;
}

int
template_truthy(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT: return json_object_size(v) != 0;
	case JSON_ARRAY: return json_array_size(v) != 0;
	case JSON_STRING: return json_string_length(v) != 0;
	case JSON_INTEGER: return json_integer_value(v) != 0;
	case JSON_REAL: return json_real_value(v) != 0.0;
	case JSON_TRUE: return 1;
	case JSON_FALSE:
	case JSON_NULL: return 0;
	}
	return 0;
}

/* Python's repr() of a float: the shortest text that reads back the same,
 * with ".0" on whole numbers and exponents only outside [1e-4, 1e16). */
static char *
float_text(double d)
{
	char	buf[64];
	int	prec, exp10;

	if (isnan(d))
		return xstrdup("nan");
	if (isinf(d))
		return xstrdup(d < 0 ? "-inf" : "inf");
	if (d == 0)
		return xstrdup(signbit(d) ? "-0.0" : "0.0");
	for (prec = 1; prec < 17; prec++) {
		snprintf(buf, sizeof buf, "%.*e", prec - 1, d);
		if (strtod(buf, NULL) == d)
			break;
	}
	snprintf(buf, sizeof buf, "%.*e", prec - 1, d);
	exp10 = atoi(strchr(buf, 'e') + 1);
	if (exp10 < -4 || exp10 >= 16) {
		/* 1e+16 as Python prints it */
		snprintf(buf, sizeof buf, "%.*g", prec, d);
		return xstrdup(buf);
	}
	snprintf(buf, sizeof buf, "%.*f",
	    prec - 1 - exp10 > 0 ? prec - 1 - exp10 : 0, d);
	if (strchr(buf, '.') == NULL)
		return xprintf("%s.0", buf);
	return xstrdup(buf);
}

char *
template_to_text(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_STRING:
		return xstrndup(json_string_value(v), json_string_length(v));
	case JSON_INTEGER:
		return xprintf("%lld", (long long)json_integer_value(v));
	case JSON_REAL:
		return float_text(json_real_value(v));
	case JSON_TRUE:
		return xstrdup("True");
	case JSON_FALSE:
		return xstrdup("False");
	case JSON_NULL:
		return xstrdup("None");
	default: {
		char *s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);

		if (s == NULL)
			return xstrdup("");
		return s;
	}
	}
}
