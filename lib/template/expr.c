/* The evaluator of the expression language (expr-int.h): a tree from
 * expr-parse.c to a jansson value, with Python's semantics for operators;
 * filters and tests are called through their rows (expr-filters.c). */
#include "template/expr-int.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/xalloc.h"
#include "template/expr.h"
#include "template/value.h"

const char *
expr_type_name(const json_t *v)
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

char *
expr_undefined_name(const struct ectx *ctx, const struct enode *n)
{
	struct strbuf sb;

	strbuf_init(&sb);
	node_path(&sb, ctx->undef != NULL ? ctx->undef : n);
	return strbuf_detach(&sb, NULL);
}

int
expr_error(struct ectx *ctx, const char *fmt, ...)
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
int
expr_real_out(struct ectx *ctx, double d, json_t **out)
{
	if (!isfinite(d))
		return expr_error(ctx, "float result out of range");
	*out = json_real(d);
	return 0;
}

/* A string result, bounded: chained `~` could otherwise double a value's
 * size with every operator. */
int
expr_string_out(struct ectx *ctx, struct strbuf *sb, json_t **out)
{
	if (sb->len > EXPR_MAX_STRING) {
		strbuf_release(sb);
		return expr_error(ctx, "string result longer than %d MiB",
		    EXPR_MAX_STRING / (1024 * 1024));
	}
	*out = json_stringn(sb->buf != NULL ? sb->buf : "", sb->len);
	strbuf_release(sb);
	return 0;
}

/* Evaluate and insist on a defined value. */
int
expr_need(struct ectx *ctx, const struct enode *n, json_t **out)
{
	struct strbuf sb;

	if (expr_eval_node(ctx, n, out) != 0)
		return -1;
	if (*out != NULL)
		return 0;
	if (ctx->cause == NULL) {
		strbuf_init(&sb);
		node_path(&sb, ctx->undef != NULL ? ctx->undef : n);
		if (ctx->hint != NULL && ctx->undef == ctx->hint_node)
			ctx->cause = xprintf("undefined variable '%s' (%s)",
			    sb.buf, ctx->hint);
		else
			ctx->cause = xprintf("undefined variable '%s'",
			    sb.buf);
		ctx->code = EXPR_UNDEFINED;
		strbuf_release(&sb);
	}
	return -1;
}

int
expr_is_num(const json_t *v)
{
	return json_is_integer(v) || json_is_real(v);
}

static double
num(const json_t *v)
{
	return json_number_value(v);
}

int
expr_values_equal(const json_t *a, const json_t *b)
{
	if (expr_is_num(a) && expr_is_num(b)) {
		if (json_is_integer(a) && json_is_integer(b))
			return json_integer_value(a) == json_integer_value(b);
		return num(a) == num(b);
	}
	return json_equal((json_t *)a, (json_t *)b);
}

/* <0, 0, >0, or -2 with an error when the types do not order. */
int
expr_values_order(struct ectx *ctx, const char *op, const json_t *a,
    const json_t *b, int *res)
{
	size_t i;

	if (expr_is_num(a) && expr_is_num(b)) {
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
			if (expr_values_equal(json_array_get(a, i),
			    json_array_get(b, i)))
				continue;
			return expr_values_order(ctx, op, json_array_get(a, i),
			    json_array_get(b, i), res);
		}
		*res = (json_array_size(a) > json_array_size(b)) -
		    (json_array_size(a) < json_array_size(b));
		return 0;
	}
	return expr_error(ctx, "'%s' not supported between %s and %s", op,
	    expr_type_name(a), expr_type_name(b));
}

static int
eval_cmp(struct ectx *ctx, const struct enode *n, json_t **out)
{
	json_t	*a = NULL, *b = NULL;
	int	 r = -1, c = 0, truth;

	if (expr_need(ctx, n->a, &a) != 0 || expr_need(ctx, n->b, &b) != 0)
		goto out;
	if (strcmp(n->op, "==") == 0)
		truth = expr_values_equal(a, b);
	else if (strcmp(n->op, "!=") == 0)
		truth = !expr_values_equal(a, b);
	else {
		if (expr_values_order(ctx, n->op, a, b, &c) != 0)
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

int
expr_contains(struct ectx *ctx, const json_t *b, const json_t *a)
{
	json_t	*item;
	size_t	 i;

	if (json_is_string(b)) {
		if (!json_is_string(a))
			return expr_error(ctx, "'in <string>' requires a string "
			    "on the left, not %s", expr_type_name(a));
		return strstr(json_string_value(b), json_string_value(a)) !=
		    NULL;
	}
	if (json_is_array(b)) {
		json_array_foreach(b, i, item) {
			if (expr_values_equal(a, item))
				return 1;
		}
		return 0;
	}
	if (json_is_object(b))
		return json_is_string(a) &&
		    json_object_get(b, json_string_value(a)) != NULL;
	return expr_error(ctx, "argument of type %s is not iterable",
	    expr_type_name(b));
}

static int
eval_in(struct ectx *ctx, const struct enode *n, json_t **out)
{
	json_t	*a = NULL, *b = NULL;
	int	 r = -1, found;

	if (expr_need(ctx, n->a, &a) != 0 || expr_need(ctx, n->b, &b) != 0 ||
	    (found = expr_contains(ctx, b, a)) < 0)
		goto out;
	*out = json_boolean(n->negate ? !found : found);
	r = 0;
out:
	json_decref(a);
	json_decref(b);
	return r;
}

/* a ~ b, and + of two strings. */
static int
concat(struct ectx *ctx, const json_t *a, const json_t *b, json_t **out)
{
	char		*sa = template_to_text(a);
	char		*sb = template_to_text(b);
	struct strbuf	 buf;

	strbuf_init(&buf);
	strbuf_addstr(&buf, sa);
	strbuf_addstr(&buf, sb);
	free(sa);
	free(sb);
	return expr_string_out(ctx, &buf, out);
}

/* + - * // % of two ints, as Python's (that do not overflow: ours say so
 * instead). */
static int
int_arith(struct ectx *ctx, const char *op, json_int_t x, json_int_t y,
    json_t **out)
{
	json_int_t	q;
	int		over;

	if (strcmp(op, "+") == 0)
		over = __builtin_add_overflow(x, y, &q);
	else if (strcmp(op, "-") == 0)
		over = __builtin_sub_overflow(x, y, &q);
	else if (strcmp(op, "*") == 0)
		over = __builtin_mul_overflow(x, y, &q);
	else
		over = y == -1 && x == LLONG_MIN;
	if (over)
		return expr_error(ctx, "integer overflow in '%s'", op);
	if (strcmp(op, "+") == 0 || strcmp(op, "-") == 0 ||
	    strcmp(op, "*") == 0) {
		*out = json_integer(q);
		return 0;
	}
	if (y == 0)
		return expr_error(ctx, "division by zero");
	/* Python floors, C truncates */
	q = x / y;
	if ((x % y != 0) && ((x < 0) != (y < 0)))
		q--;
	*out = json_integer(strcmp(op, "//") == 0 ? q : x - q * y);
	return 0;
}

/* + - * / // % with a float on either side, or / of two ints. */
static int
float_arith(struct ectx *ctx, const char *op, double x, double y,
    json_t **out)
{
	double z;

	if (strcmp(op, "+") == 0)
		z = x + y;
	else if (strcmp(op, "-") == 0)
		z = x - y;
	else if (strcmp(op, "*") == 0)
		z = x * y;
	else if (y == 0)
		return expr_error(ctx, "division by zero");
	else if (strcmp(op, "/") == 0)
		z = x / y;
	else if (strcmp(op, "//") == 0)
		z = floor(x / y);
	else
		z = x - floor(x / y) * y;
	return expr_real_out(ctx, z, out);
}

int
expr_arith(struct ectx *ctx, const char *op, const json_t *a,
    const json_t *b, json_t **out)
{
	int r;

	if (strcmp(op, "%") == 0 && json_is_string(a))
		return expr_format_op(ctx, a, b, out);
	if (strcmp(op, "~") == 0 || (strcmp(op, "+") == 0 &&
	    json_is_string(a) && json_is_string(b)))
		r = concat(ctx, a, b, out);
	else if (strcmp(op, "+") == 0 && json_is_array(a) &&
	    json_is_array(b)) {
		/* values are never changed in place: share the items */
		*out = json_copy((json_t *)a);
		json_array_extend(*out, (json_t *)b);
		r = 0;
	} else if (!expr_is_num(a) || !expr_is_num(b))
		r = expr_error(ctx, "unsupported operand types for %s: %s and "
		    "%s", op, expr_type_name(a), expr_type_name(b));
	else if (json_is_integer(a) && json_is_integer(b) &&
	    strcmp(op, "/") != 0)
		r = int_arith(ctx, op, json_integer_value(a),
		    json_integer_value(b), out);
	else
		r = float_arith(ctx, op, num(a), num(b), out);
	return r;
}

static int
eval_bin(struct ectx *ctx, const struct enode *n, json_t **out)
{
	json_t	*a = NULL, *b = NULL;
	int	 r = -1;

	if (expr_need(ctx, n->a, &a) == 0 && expr_need(ctx, n->b, &b) == 0)
		r = expr_arith(ctx, n->op, a, b, out);
	json_decref(a);
	json_decref(b);
	return r;
}

static int
eval_lit(struct ectx *ctx, const struct enode *n, json_t **out)
{
	(void)ctx;
	*out = json_incref(n->lit);
	return 0;
}

static int
eval_var(struct ectx *ctx, const struct enode *n, json_t **out)
{
	return expr_lazy_var(ctx, n, out);
}

/* The lazy mapping (template_set_lazy_mapping): set before the threads
 * that render start, read by them. */
static struct {
	const json_t	 *obj;
	json_t		*(*get)(void *, const char *);
	void		 *arg;
} lazy_mapping;

void
template_set_lazy_mapping(const json_t *obj,
    json_t *(*get)(void *arg, const char *key), void *arg)
{
	if (obj == NULL && arg != lazy_mapping.arg)
		return;		/* another's: a later runner replaced it */
	lazy_mapping.obj = obj;
	lazy_mapping.get = get;
	lazy_mapping.arg = arg;
}

/* a's item key (a mapping), a new reference or NULL. */
static json_t *
object_item(const json_t *a, const char *key)
{
	json_t *item;

	if (a == lazy_mapping.obj && a != NULL &&
	    (item = lazy_mapping.get(lazy_mapping.arg, key)) != NULL)
		return item;
	return json_incref(json_object_get(a, key));
}

int
expr_getitem(struct ectx *ctx, const json_t *a, const json_t *b,
    json_t **item)
{
	json_int_t k;

	*item = NULL;
	if (json_is_array(a) && json_is_integer(b)) {
		k = json_integer_value(b);
		/* negative indexes count from the end */
		if (k < 0)
			k += (json_int_t)json_array_size(a);
		if (k >= 0)
			*item = json_incref(json_array_get(a, (size_t)k));
	} else if (json_is_object(a) && json_is_string(b))
		*item = object_item(a, json_string_value(b));
	else if (!json_is_object(a) && !json_is_array(a))
		return expr_error(ctx, "%s is not subscriptable",
		    expr_type_name(a));
	return 0;
}

/* a.name and a[b]: undefined when a is or when there is no such item. */
static int
eval_item(struct ectx *ctx, const struct enode *n, json_t **out)
{
	json_t	*a = NULL, *b = NULL, *item = NULL;
	int	 r = -1;

	if (expr_eval_node(ctx, n->a, &a) != 0)
		return -1;
	if (a == NULL)
		return 0;	/* undefined stays undefined */
	if (n->kind == N_ATTR)
		item = object_item(a, n->name);
	else if (expr_need(ctx, n->b, &b) != 0 ||
	    expr_getitem(ctx, a, b, &item) != 0)
		goto out;
	if (item == NULL)
		ctx->undef = n;
	*out = item;
	r = 0;
out:
	json_decref(a);
	json_decref(b);
	return r;
}

static int
eval_list(struct ectx *ctx, const struct enode *n, json_t **out)
{
	json_t	*v;
	size_t	 i;

	*out = json_array();
	for (i = 0; i < n->nargs; i++) {
		if (expr_need(ctx, n->args[i], &v) != 0) {
			json_decref(*out);
			*out = NULL;
			return -1;
		}
		json_array_append_new(*out, v);
	}
	return 0;
}

static int
eval_dict(struct ectx *ctx, const struct enode *n, json_t **out)
{
	json_t	*k = NULL, *v = NULL;
	size_t	 i;

	*out = json_object();
	for (i = 0; i + 1 < n->nargs; i += 2) {
		if (expr_need(ctx, n->args[i], &k) != 0)
			goto fail;
		if (!json_is_string(k)) {
			expr_error(ctx, "mapping keys must be strings, got %s",
			    expr_type_name(k));
			goto fail;
		}
		if (expr_need(ctx, n->args[i + 1], &v) != 0)
			goto fail;
		json_object_set_new(*out, json_string_value(k), v);
		json_decref(k);
		k = v = NULL;
	}
	return 0;
fail:
	json_decref(k);
	json_decref(*out);
	*out = NULL;
	return -1;
}

static int
eval_not(struct ectx *ctx, const struct enode *n, json_t **out)
{
	json_t *a;

	if (expr_need(ctx, n->a, &a) != 0)
		return -1;
	*out = json_boolean(!template_truthy(a));
	json_decref(a);
	return 0;
}

static int
eval_neg(struct ectx *ctx, const struct enode *n, json_t **out)
{
	json_t	*a;
	int	 r = 0;

	if (expr_need(ctx, n->a, &a) != 0)
		return -1;
	if (json_is_integer(a) && json_integer_value(a) == LLONG_MIN)
		r = expr_error(ctx, "integer overflow in unary -");
	else if (json_is_integer(a))
		*out = json_integer(-json_integer_value(a));
	else if (json_is_real(a))
		*out = json_real(-json_real_value(a));
	else
		r = expr_error(ctx, "bad operand type for unary -: %s",
		    expr_type_name(a));
	json_decref(a);
	return r;
}

/* and, or: Python returns the deciding operand. */
static int
eval_logic(struct ectx *ctx, const struct enode *n, json_t **out)
{
	json_t *a;

	if (expr_need(ctx, n->a, &a) != 0)
		return -1;
	if (template_truthy(a) == (n->kind == N_OR)) {
		*out = a;
		return 0;
	}
	json_decref(a);
	return expr_need(ctx, n->b, out);
}

/* a if b else c; without else, "" when b is false. */
static int
eval_cond(struct ectx *ctx, const struct enode *n, json_t **out)
{
	json_t	*b;
	int	 r;

	if (expr_need(ctx, n->b, &b) != 0)
		return -1;
	if (template_truthy(b))
		r = expr_eval_node(ctx, n->a, out);
	else if (n->c != NULL)
		r = expr_eval_node(ctx, n->c, out);
	else {
		*out = json_string("");
		r = 0;
	}
	json_decref(b);
	return r;
}

/* The arguments given to a call, evaluated in order, each defined. */
static int
call_args(struct ectx *ctx, const struct enode *n, struct expr_call *c)
{
	size_t i;

	c->nargs = n->nargs;
	for (i = 0; i < n->nargs && i < EXPR_MAX_ARGS; i++) {
		if (n->args[i] != NULL &&
		    expr_need(ctx, n->args[i], &c->arg[i]) != 0)
			return -1;
	}
	for (i = 0; i < EXPR_MAX_KW; i++) {
		if (n->kw[i] != NULL && expr_need(ctx, n->kw[i], &c->kw[i]) != 0)
			return -1;
	}
	return 0;
}

/* A filter or test call: its operand and arguments evaluated in order
 * unless its row is lazy (expr-int.h). */
static int
call_init(struct ectx *ctx, const struct enode *n, int lazy,
    struct expr_call *c)
{
	memset(c, 0, sizeof *c);
	c->ctx = ctx;
	c->n = n;
	c->name = n->name;
	if (lazy)
		return 0;
	if (expr_need(ctx, n->a, &c->v) != 0)
		return -1;
	return call_args(ctx, n, c);
}

static void
call_release(struct expr_call *c)
{
	size_t i;

	json_decref(c->v);
	for (i = 0; i < EXPR_MAX_ARGS; i++)
		json_decref(c->arg[i]);
	for (i = 0; i < EXPR_MAX_KW; i++)
		json_decref(c->kw[i]);
}

static int
eval_filter(struct ectx *ctx, const struct enode *n, json_t **out)
{
	struct expr_call	c;
	int			r = -1;

	if (call_init(ctx, n, n->filter->lazy, &c) == 0)
		r = n->filter->fn(&c, out);
	call_release(&c);
	return r;
}

static int
eval_test(struct ectx *ctx, const struct enode *n, json_t **out)
{
	struct expr_call	c;
	int			truth = -1;

	if (call_init(ctx, n, n->test->lazy, &c) == 0)
		truth = n->test->fn(&c);
	call_release(&c);
	if (truth < 0)
		return -1;
	*out = json_boolean(n->negate ? !truth : truth);
	return 0;
}

/* x.name(args): the method of x's type (expr-methods.c). */
static int
eval_method(struct ectx *ctx, const struct enode *n, json_t **out)
{
	const struct expr_method	*row;
	struct expr_call		 c;
	int				 r = -1;

	(void)call_init(ctx, n, EXPR_LAZY, &c);
	if (expr_need(ctx, n->a, &c.v) != 0)
		goto out;
	if ((row = expr_method_find(n->name, c.v)) == NULL) {
		expr_error(ctx, "'%s' object has no attribute '%s'",
		    expr_type_name(c.v), n->name);
		goto out;
	}
	if (n->nargs < row->min_args || n->nargs > row->max_args) {
		expr_error(ctx, "%s.%s() takes %zu to %zu arguments, got %zu",
		    expr_type_name(c.v), n->name, row->min_args, row->max_args,
		    n->nargs);
		goto out;
	}
	if (call_args(ctx, n, &c) == 0)
		r = row->fn(&c, out);
out:
	call_release(&c);
	return r;
}

/* name(args): a function of its table (expr-lookup.c); no operand. */
static int
eval_call(struct ectx *ctx, const struct enode *n, json_t **out)
{
	struct expr_call	c;
	int			r = -1;

	(void)call_init(ctx, n, EXPR_LAZY, &c);
	if (call_args(ctx, n, &c) == 0)
		r = n->filter->fn(&c, out);
	call_release(&c);
	return r;
}

/* The evaluator of each kind of node. */
static int (*const evaluators[])(struct ectx *, const struct enode *,
    json_t **) = {
	[N_LIT] = eval_lit,
	[N_VAR] = eval_var,
	[N_ATTR] = eval_item,
	[N_INDEX] = eval_item,
	[N_LIST] = eval_list,
	[N_DICT] = eval_dict,
	[N_NOT] = eval_not,
	[N_NEG] = eval_neg,
	[N_AND] = eval_logic,
	[N_OR] = eval_logic,
	[N_BIN] = eval_bin,
	[N_CMP] = eval_cmp,
	[N_IN] = eval_in,
	[N_FILTER] = eval_filter,
	[N_TEST] = eval_test,
	[N_COND] = eval_cond,
	[N_METHOD] = eval_method,
	[N_CALL] = eval_call,
};

int
expr_eval_node(struct ectx *ctx, const struct enode *n, json_t **out)
{
	*out = NULL;
	return evaluators[n->kind](ctx, n, out);
}

int
expr_eval(const char *src, size_t base, const json_t *vars, json_t **out,
    char **cause)
{
	return expr_eval_flags(src, base, vars, 0, out, cause);
}

int
expr_eval_flags(const char *src, size_t base, const json_t *vars, int flags,
    json_t **out, char **cause)
{
	struct enode	*n;
	struct ectx	 ctx;
	json_t		*empty = NULL;
	int		 r = EXPR_OK;

	*out = NULL;
	if ((n = expr_parse(src, base, flags, cause)) == NULL)
		return EXPR_SYNTAX;
	memset(&ctx, 0, sizeof ctx);
	if (vars == NULL)
		vars = empty = json_object();
	ctx.vars = vars;
	if (expr_need(&ctx, n, out) != 0) {
		if (cause != NULL)
			*cause = ctx.cause;
		else
			free(ctx.cause);
		r = ctx.code != 0 ? ctx.code : EXPR_ERROR;
	}
	free(ctx.hint);
	expr_node_free(n);
	json_decref(empty);
	return r;
}
