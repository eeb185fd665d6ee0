/* The parser of the expression language (expr-int.h): recursive descent in
 * Jinja2's precedence, lowest first:
 *   a if b else c  /  or  /  and  /  not  /  == != < <= > >= in, not in  /
 *   + -  /  ~  /  * / // %  /  unary - +, then filters and tests  /
 *   .name [index]  /  literals, names, ( ), [ ], { }
 * The tree it builds is bounded (EXPR_MAX_NESTING, EXPR_MAX_DEPTH). */
#include "template/expr-int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/xalloc.h"
#include "template/expr.h"

void
expr_node_free(struct enode *n)
{
	size_t i;

	if (n == NULL)
		return;
	free(n->name);
	json_decref(n->lit);
	expr_node_free(n->a);
	expr_node_free(n->b);
	expr_node_free(n->c);
	for (i = 0; i < n->nargs; i++)
		expr_node_free(n->args[i]);
	for (i = 0; i < EXPR_MAX_KW; i++)
		expr_node_free(n->kw[i]);
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
		if (n->args[i] != NULL && n->args[i]->depth > d)
			d = n->args[i]->depth;
	}
	for (i = 0; i < EXPR_MAX_KW; i++) {
		if (n->kw[i] != NULL && n->kw[i]->depth > d)
			d = n->kw[i]->depth;
	}
	n->depth = d + 1;
	if (n->depth <= EXPR_MAX_DEPTH)
		return n;
	if (ps->cause == NULL)
		ps->cause = xprintf("expression has more than %d operators "
		    "in a chain at character %zu", EXPR_MAX_DEPTH,
		    ps->base + peek(ps)->off + 1);
	expr_node_free(n);
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

static struct enode *parse_expr(struct parser *);

/* The items up to the closing bracket, separated by commas (a trailing one
 * allowed), each added to n: an expression, or with pairs set key: value. */
static int
parse_items(struct parser *ps, struct enode *n, const char *close, int pairs)
{
	struct enode *k, *v;

	while (!is_op(ps, close)) {
		if (pairs) {
			if ((k = parse_expr(ps)) == NULL)
				return -1;
			enode_add_arg(n, k);
			if (expect_op(ps, ":") != 0)
				return -1;
		}
		if ((v = parse_expr(ps)) == NULL)
			return -1;
		enode_add_arg(n, v);
		if (is_op(ps, ","))
			ps->i++;
		else if (!is_op(ps, close)) {
			syntax_error(ps);
			return -1;
		}
	}
	ps->i++;
	return 0;
}

/* The position of word in a space-separated list of names, or -1. */
static int
name_index(const char *list, const char *word)
{
	size_t	len = strlen(word), l;
	int	i;

	for (i = 0; list != NULL && *list != '\0'; i++) {
		l = strcspn(list, " ");
		if (l == len && strncmp(list, word, len) == 0)
			return i;
		list += l;
		list += strspn(list, " ");
	}
	return -1;
}

/* What a call accepts: its row's counts and names (expr-int.h). */
struct call_sig {
	const char	*what;		/* "filter", "test", "method" */
	size_t		 min_args, max_args;
	const char	*params, *kwonly;
	size_t		 off;		/* the name's character */
};

/* Bind `NAME=value` to its position (params) or keyword slot (kwonly). */
static int
bind_keyword(struct parser *ps, struct enode *n, const struct call_sig *sig,
    const char *kw, struct enode *v)
{
	int i;

	if ((i = name_index(sig->params, kw)) >= 0) {
		while (n->nargs <= (size_t)i)
			enode_add_arg(n, NULL);
		if (n->args[i] == NULL) {
			n->args[i] = v;
			return 0;
		}
	} else if ((i = name_index(sig->kwonly, kw)) >= 0 &&
	    i < EXPR_MAX_KW) {
		if (n->kw[i] == NULL) {
			n->kw[i] = v;
			return 0;
		}
	} else {
		ps->cause = xprintf("%s '%s' has no argument named '%s' at "
		    "character %zu", sig->what, n->name, kw, sig->off);
		expr_node_free(v);
		return -1;
	}
	ps->cause = xprintf("%s '%s' got argument '%s' twice at character %zu",
	    sig->what, n->name, kw, sig->off);
	expr_node_free(v);
	return -1;
}

/* `(a, b, name=c)`: positional arguments, then keywords, as Python. */
static int
parse_args(struct parser *ps, struct enode *n, const struct call_sig *sig)
{
	struct enode	*v;
	char		*kw;
	int		 keywords = 0;

	ps->i++;
	while (!is_op(ps, ")")) {
		kw = NULL;
		if (peek(ps)->type == T_NAME && ps->i + 1 < ps->lx.n &&
		    ps->lx.toks[ps->i + 1].type == T_OP &&
		    strcmp(ps->lx.toks[ps->i + 1].op, "=") == 0) {
			kw = xstrdup(peek(ps)->text);
			ps->i += 2;
		} else if (keywords) {
			ps->cause = xprintf("positional argument after a "
			    "keyword argument at character %zu",
			    ps->base + peek(ps)->off + 1);
			return -1;
		}
		if ((v = parse_expr(ps)) == NULL) {
			free(kw);
			return -1;
		}
		if (kw != NULL) {
			keywords = 1;
			if (bind_keyword(ps, n, sig, kw, v) != 0) {
				free(kw);
				return -1;
			}
			free(kw);
		} else
			enode_add_arg(n, v);
		if (is_op(ps, ","))
			ps->i++;
		else if (!is_op(ps, ")")) {
			syntax_error(ps);
			return -1;
		}
	}
	ps->i++;
	return 0;
}

/* A call's arguments against what it accepts: at most max_args
 * positions, the first min_args of them given. */
static int
check_call_args(struct parser *ps, struct enode *n, const struct call_sig *sig)
{
	size_t i, given = 0;

	for (i = 0; i < n->nargs; i++)
		given += n->args[i] != NULL;
	for (i = 0; i < sig->min_args; i++) {
		if (i >= n->nargs || n->args[i] == NULL)
			given = 0;
	}
	if (given < sig->min_args || n->nargs > sig->max_args ||
	    n->nargs > EXPR_MAX_ARGS) {
		ps->cause = xprintf("%s '%s' takes %zu to %zu arguments, got "
		    "%zu at character %zu", sig->what, n->name, sig->min_args,
		    sig->max_args, given, sig->off);
		return -1;
	}
	return 0;
}

/* The arguments of a call in brackets, if any, checked. */
static int
parse_call_args(struct parser *ps, struct enode *n, const struct call_sig *sig)
{
	if (is_op(ps, "(") && parse_args(ps, n, sig) != 0)
		return -1;
	return check_call_args(ps, n, sig);
}

static struct enode	*parse_primary(struct parser *);
static struct enode	*parse_postfix(struct parser *, struct enode *);

/* Whether a test's one argument follows without brackets, as Jinja2's
 * parse_test sees it: a name (not else, or, and), a string, a number, a
 * list or a mapping. */
static int
bare_test_arg(struct parser *ps)
{
	struct token *t = peek(ps);

	if (t->type == T_NAME)
		return !is_name(ps, "else") && !is_name(ps, "or") &&
		    !is_name(ps, "and");
	return t->type == T_STR || t->type == T_INT || t->type == T_FLOAT ||
	    is_op(ps, "[") || is_op(ps, "{");
}

/*
 * The name of a filter (n is N_FILTER) or test (N_TEST) and its arguments:
 * the name is looked up in its table here, once, and the row kept in n, so
 * that an unknown name or a wrong count of arguments is a syntax error that
 * lint reports before anything runs.
 */
static int
parse_call(struct parser *ps, struct enode *n)
{
	struct call_sig sig;

	memset(&sig, 0, sizeof sig);
	sig.what = n->kind == N_FILTER ? "filter" : "test";
	if (peek(ps)->type != T_NAME) {
		syntax_error(ps);
		return -1;
	}
	/* `is none`: the literal's name, not its value */
	n->name = xstrdup(peek(ps)->text);
	sig.off = ps->base + peek(ps)->off + 1;
	ps->i++;
	/* a collection's name, ns.coll.name: ansible.builtin's (and
	 * ansible.legacy's) are the filters and tests here */
	while (is_op(ps, ".") && ps->i + 1 < ps->lx.n &&
	    ps->lx.toks[ps->i + 1].type == T_NAME) {
		char *dotted = xprintf("%s.%s", n->name,
		    ps->lx.toks[ps->i + 1].text);

		free(n->name);
		n->name = dotted;
		ps->i += 2;
	}
	if (strncmp(n->name, "ansible.builtin.", 16) == 0 ||
	    strncmp(n->name, "ansible.legacy.", 15) == 0) {
		char *bare = xstrdup(strchr(strchr(n->name, '.') + 1, '.') + 1);

		free(n->name);
		n->name = bare;
	}
	if (strchr(n->name, '.') != NULL) {
		ps->cause = xprintf("%s '%s' is a collection's Python plugin, "
		    "which tcptune does not run, at character %zu", sig.what,
		    n->name, sig.off);
		return -1;
	}
	if (n->kind == N_FILTER &&
	    (n->filter = expr_filter_find(n->name)) != NULL) {
		sig.min_args = n->filter->min_args;
		sig.max_args = n->filter->max_args;
		sig.params = n->filter->params;
		sig.kwonly = n->filter->kwonly;
	} else if (n->kind == N_TEST &&
	    (n->test = expr_test_find(n->name)) != NULL) {
		sig.min_args = n->test->min_args;
		sig.max_args = n->test->max_args;
		sig.params = n->test->params;
		sig.kwonly = n->test->kwonly;
	} else {
		ps->cause = xprintf("unknown %s '%s' at character %zu",
		    sig.what, n->name, sig.off);
		return -1;
	}
	/* `is divisibleby 3`, `is in groups.web`: one argument, a primary
	 * with its postfix (Jinja2's parse_test) */
	if (n->kind == N_TEST && !is_op(ps, "(") && bare_test_arg(ps)) {
		struct enode *arg;

		if ((arg = parse_primary(ps)) == NULL ||
		    (arg = parse_postfix(ps, arg)) == NULL)
			return -1;
		enode_add_arg(n, arg);
		return check_call_args(ps, n, &sig);
	}
	return parse_call_args(ps, n, &sig);
}

/* `.name(args)` after an operand: a method of the operand's type
 * (expr-methods.c), looked up by name here and by type when it runs. */
static int
parse_method(struct parser *ps, struct enode *m)
{
	const struct expr_method	*row;
	struct call_sig			 sig;

	memset(&sig, 0, sizeof sig);
	sig.what = "method";
	sig.off = ps->base + peek(ps)->off + 1;
	if ((row = expr_method_find(m->name, NULL)) == NULL) {
		ps->cause = xprintf("unknown method '%s' at character %zu",
		    m->name, sig.off);
		return -1;
	}
	sig.max_args = EXPR_MAX_ARGS;
	sig.params = row->params;
	return parse_call_args(ps, m, &sig);
}

static struct enode *
lit_node(json_t *v)
{
	struct enode *n = enode_new(N_LIT);

	n->lit = v;
	return n;
}

/* `name(args)`: a function of its table (expr-lookup.c). */
static struct enode *
parse_function(struct parser *ps, const char *name)
{
	struct enode	*n = enode_new(N_CALL);
	struct call_sig	 sig;

	memset(&sig, 0, sizeof sig);
	sig.what = "function";
	sig.off = ps->base + ps->lx.toks[ps->i - 1].off + 1;
	n->name = xstrdup(name);
	if ((n->filter = expr_function_find(name)) == NULL) {
		ps->cause = xprintf("unknown function '%s' at character %zu",
		    name, sig.off);
		expr_node_free(n);
		return NULL;
	}
	sig.min_args = n->filter->min_args;
	sig.max_args = n->filter->max_args;
	sig.params = n->filter->params;
	sig.kwonly = n->filter->kwonly;
	if (parse_call_args(ps, n, &sig) != 0) {
		expr_node_free(n);
		return NULL;
	}
	return grown(ps, n);
}

/* A name: a literal (true, none, ...), a variable, a function call, or a
 * keyword out of place. */
static struct enode *
parse_name(struct parser *ps)
{
	static const char *const keywords[] = { "and", "or", "in", "is", "if",
	    "else", NULL };
	const char	*s = peek(ps)->text;
	struct enode	*n;
	size_t		 i;

	for (i = 0; keywords[i] != NULL; i++) {
		if (strcmp(s, keywords[i]) == 0)
			return syntax_error(ps);
	}
	ps->i++;
	if (is_op(ps, "("))
		return parse_function(ps, s);
	if (strcmp(s, "true") == 0 || strcmp(s, "True") == 0)
		return lit_node(json_true());
	if (strcmp(s, "false") == 0 || strcmp(s, "False") == 0)
		return lit_node(json_false());
	if (strcmp(s, "none") == 0 || strcmp(s, "None") == 0)
		return lit_node(json_null());
	n = enode_new(N_VAR);
	n->name = xstrdup(s);
	return n;
}

/* Adjacent string literals concatenate, as in Python. */
static struct enode *
parse_strings(struct parser *ps)
{
	struct strbuf	 sb;
	struct enode	*n;

	strbuf_init(&sb);
	while (peek(ps)->type == T_STR)
		strbuf_addstr(&sb, ps->lx.toks[ps->i++].text);
	n = lit_node(json_stringn(sb.buf, sb.len));
	strbuf_release(&sb);
	return n;
}

/* [a, b] or {k: v}. */
static struct enode *
parse_collection(struct parser *ps)
{
	int		 dict = is_op(ps, "{");
	struct enode	*n = enode_new(dict ? N_DICT : N_LIST);

	ps->i++;
	if (parse_items(ps, n, dict ? "}" : "]", dict) != 0) {
		expr_node_free(n);
		return NULL;
	}
	return grown(ps, n);
}

/* (e), or a tuple: (), (a,), (a, b) — a list here, as Ansible's values
 * have no tuples. */
static struct enode *
parse_paren(struct parser *ps)
{
	struct enode *n, *t;

	ps->i++;
	if (is_op(ps, ")")) {
		ps->i++;
		return enode_new(N_LIST);
	}
	if ((n = parse_expr(ps)) == NULL)
		return NULL;
	if (is_op(ps, ",")) {
		ps->i++;
		t = enode_new(N_LIST);
		enode_add_arg(t, n);
		if (parse_items(ps, t, ")", 0) != 0) {
			expr_node_free(t);
			return NULL;
		}
		return grown(ps, t);
	}
	if (expect_op(ps, ")") != 0) {
		expr_node_free(n);
		return NULL;
	}
	return n;
}

static struct enode *
parse_primary(struct parser *ps)
{
	struct token	*t = peek(ps);

	switch (t->type) {
	case T_NAME:
		return parse_name(ps);
	case T_INT:
		ps->i++;
		return lit_node(json_integer(t->i));
	case T_FLOAT:
		ps->i++;
		return lit_node(json_real(t->f));
	case T_STR:
		return parse_strings(ps);
	case T_OP:
		if (is_op(ps, "[") || is_op(ps, "{"))
			return parse_collection(ps);
		if (!is_op(ps, "("))
			break;
		return parse_paren(ps);
	case T_EOF:
		break;
	}
	return syntax_error(ps);
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
			if (t->type == T_NAME && ps->i + 1 < ps->lx.n &&
			    ps->lx.toks[ps->i + 1].type == T_OP &&
			    strcmp(ps->lx.toks[ps->i + 1].op, "(") == 0) {
				m = enode_new(N_METHOD);
				m->name = xstrdup(t->text);
				m->a = n;
				ps->i++;
				if (parse_method(ps, m) != 0) {
					expr_node_free(m);
					return NULL;
				}
				if ((n = grown(ps, m)) == NULL)
					return NULL;
				continue;
			} else if (t->type == T_NAME) {
				m = enode_new(N_ATTR);
				m->name = xstrdup(t->text);
			} else if (t->type == T_INT) {
				/* groups.web.0 is groups.web[0] */
				m = enode_new(N_INDEX);
				m->b = lit_node(json_integer(t->i));
			} else {
				expr_node_free(n);
				return syntax_error(ps);
			}
			ps->i++;
			m->a = n;
			if ((n = grown(ps, m)) == NULL)
				return NULL;
		} else if (is_op(ps, "[")) {
			ps->i++;
			if ((idx = parse_expr(ps)) == NULL) {
				expr_node_free(n);
				return NULL;
			}
			m = enode_new(N_INDEX);
			m->a = n;
			m->b = idx;
			if ((n = grown(ps, m)) == NULL)
				return NULL;
			if (expect_op(ps, "]") != 0) {
				expr_node_free(n);
				return NULL;
			}
		} else
			return n;
	}
}

/* Filters (`| name(args)`) and tests (`is [not] name(args)`) after the
 * operand n. */
static struct enode *
parse_filters(struct parser *ps, struct enode *n)
{
	struct enode *m;

	for (;;) {
		if (is_op(ps, "|"))
			m = enode_new(N_FILTER);
		else if (is_name(ps, "is"))
			m = enode_new(N_TEST);
		else
			return n;
		ps->i++;
		m->a = n;
		if (m->kind == N_TEST && is_name(ps, "not")) {
			m->negate = 1;
			ps->i++;
		}
		if (parse_call(ps, m) != 0) {
			expr_node_free(m);
			return NULL;
		}
		if ((n = grown(ps, m)) == NULL)
			return NULL;
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
			expr_node_free(n);
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
			expr_node_free(n);
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
			expr_node_free(n);
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
				expr_node_free(n);
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
				expr_node_free(n);
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
			expr_node_free(n);
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
			expr_node_free(n);
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
	expr_node_free(n);
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

struct enode *
expr_parse(const char *src, size_t base, int flags, char **cause)
{
	struct parser	 ps;
	struct enode	*n = NULL;

	memset(&ps, 0, sizeof ps);
	ps.base = base;
	if (expr_lex(src, base, flags, &ps.lx, cause) != 0)
		return NULL;
	if (peek(&ps)->type == T_EOF) {
		fail(cause, "empty expression");
		goto out;
	}
	if ((n = parse_expr(&ps)) != NULL && peek(&ps)->type != T_EOF) {
		syntax_error(&ps);
		expr_node_free(n);
		n = NULL;
	}
	if (n == NULL) {
		if (cause != NULL)
			*cause = ps.cause;
		else
			free(ps.cause);
	}
out:
	expr_lexer_free(&ps.lx);
	return n;
}

int
expr_check(const char *src, size_t base, char **cause)
{
	return expr_check_flags(src, base, 0, cause);
}

int
expr_check_flags(const char *src, size_t base, int flags, char **cause)
{
	struct enode *n;

	if ((n = expr_parse(src, base, flags, cause)) == NULL)
		return -1;
	expr_node_free(n);
	return 0;
}

