/* The filters and tests of the expression language: one table each, one
 * small function per row (expr-int.h says what a row means and how a
 * function is called). */
#include "template/expr-int.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/strbuf.h"
#include "template/expr.h"
#include "template/value.h"

/* Conversions. */

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

	if (expr_is_num(v))
		return json_real(json_number_value(v));
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


/* Filters, in the order of the table. */

/* default(value[, boolean]): the operand, or value when it is undefined
 * (with boolean true, also when it is false); value is evaluated only
 * then. */
static int
filter_default(struct expr_call *c, json_t **out)
{
	const struct enode	*n = c->n;
	json_t			*v = NULL, *boolean = NULL;
	int			 r = -1;

	if (expr_eval_node(c->ctx, n->a, &v) != 0)
		goto out;
	if (n->nargs > 1 && n->args[1] != NULL &&
	    expr_need(c->ctx, n->args[1], &boolean) != 0)
		goto out;
	if (v != NULL && !(boolean != NULL && template_truthy(boolean) &&
	    !template_truthy(v))) {
		*out = v;
		v = NULL;
		r = 0;
		goto out;
	}
	c->ctx->undef = NULL;
	if (n->nargs == 0 || n->args[0] == NULL) {
		*out = json_string("");
		r = 0;
	} else
		r = expr_need(c->ctx, n->args[0], out);
out:
	json_decref(v);
	json_decref(boolean);
	return r;
}

/* int and float give NULL for a value beyond their range. */
static int
number_out(struct expr_call *c, json_t *v, json_t **out)
{
	if (v == NULL)
		return expr_error(c->ctx, "value out of range for %s", c->name);
	*out = v;
	return 0;
}

static int
filter_int(struct expr_call *c, json_t **out)
{
	return number_out(c, to_int(c->v, c->arg[0]), out);
}

static int
filter_float(struct expr_call *c, json_t **out)
{
	return number_out(c, to_float(c->v, c->arg[0]), out);
}

static int
filter_string(struct expr_call *c, json_t **out)
{
	char *s = template_to_text(c->v);

	*out = json_string(s);
	free(s);
	return 0;
}

static int
filter_bool(struct expr_call *c, json_t **out)
{
	*out = to_bool(c->v);
	return 0;
}

/* The text of v with each byte mapped: ASCII case (the bytes of a UTF-8
 * sequence are not ASCII letters). */
static int
map_bytes(const json_t *v, int (*map)(int), json_t **out)
{
	char *s = template_to_text(v), *p;

	for (p = s; *p != '\0'; p++)
		*p = (char)map((unsigned char)*p);
	*out = json_string(s);
	free(s);
	return 0;
}

static int
filter_lower(struct expr_call *c, json_t **out)
{
	return map_bytes(c->v, tolower, out);
}

static int
filter_upper(struct expr_call *c, json_t **out)
{
	return map_bytes(c->v, toupper, out);
}

static int
filter_trim(struct expr_call *c, json_t **out)
{
	char *s = template_to_text(c->v), *p = s, *e;

	while (isspace((unsigned char)*p))
		p++;
	e = p + strlen(p);
	while (e > p && isspace((unsigned char)e[-1]))
		*--e = '\0';
	*out = json_string(p);
	free(s);
	return 0;
}

static int
filter_length(struct expr_call *c, json_t **out)
{
	const json_t *v = c->v;

	if (json_is_string(v))
		*out = json_integer((json_int_t)utf8_length(
		    json_string_value(v)));
	else if (json_is_array(v))
		*out = json_integer((json_int_t)json_array_size(v));
	else if (json_is_object(v))
		*out = json_integer((json_int_t)json_object_size(v));
	else
		return expr_error(c->ctx, "object of type %s has no length",
		    expr_type_name(v));
	return 0;
}

/* join([d[, attribute]]): the items' text, d between; with attribute,
 * each item's attribute (a dotted path, as Jinja2's). */
static int
filter_join(struct expr_call *c, json_t **out)
{
	struct strbuf	 sb;
	json_t		*item;
	size_t		 i;
	char		*s;

	if (!json_is_array(c->v))
		return expr_error(c->ctx, "join expects a list, got %s",
		    expr_type_name(c->v));
	strbuf_init(&sb);
	json_array_foreach(c->v, i, item) {
		if (c->arg[1] != NULL && (item = expr_attribute(c, item,
		    c->arg[1], 1)) == NULL) {
			strbuf_release(&sb);
			return -1;
		}
		if (i > 0 && c->arg[0] != NULL) {
			s = template_to_text(c->arg[0]);
			strbuf_addstr(&sb, s);
			free(s);
		}
		s = template_to_text(item);
		strbuf_addstr(&sb, s);
		free(s);
		if (sb.len > EXPR_MAX_STRING)
			break;
	}
	return expr_string_out(c->ctx, &sb, out);
}

static int
expects_list(struct expr_call *c)
{
	return expr_error(c->ctx, "%s expects a list, got %s", c->name,
	    expr_type_name(c->v));
}

/* first and last: of a list, or of a string a character (not a byte of
 * one); an empty one gives undefined. */
static int
filter_first(struct expr_call *c, json_t **out)
{
	const char *s, *e;

	if (json_is_array(c->v)) {
		if (json_array_size(c->v) > 0)
			*out = json_incref(json_array_get(c->v, 0));
		return 0;
	}
	if (json_is_object(c->v)) {	/* its first key, as Jinja2 */
		void *it = json_object_iter(c->v);

		if (it != NULL)
			*out = json_string(json_object_iter_key(it));
		return 0;
	}
	if (!json_is_string(c->v))
		return expects_list(c);
	s = json_string_value(c->v);
	if (*s != '\0') {
		for (e = s + 1; ((unsigned char)*e & 0xc0) == 0x80; e++)
			;
		*out = json_stringn(s, (size_t)(e - s));
	}
	return 0;
}

static int
filter_last(struct expr_call *c, json_t **out)
{
	const char	*s, *b;
	size_t		 len;

	if (json_is_array(c->v)) {
		if ((len = json_array_size(c->v)) > 0)
			*out = json_incref(json_array_get(c->v, len - 1));
		return 0;
	}
	if (json_is_object(c->v)) {	/* its last key, as Jinja2 */
		const char	*k, *lastk = NULL;
		json_t		*v;

		json_object_foreach(c->v, k, v)
			lastk = k;
		if (lastk != NULL)
			*out = json_string(lastk);
		return 0;
	}
	if (!json_is_string(c->v))
		return expects_list(c);
	s = json_string_value(c->v);
	if ((len = strlen(s)) > 0) {
		for (b = s + len - 1; b > s && ((unsigned char)*b & 0xc0) ==
		    0x80; b--)
			;
		*out = json_stringn(b, len - (size_t)(b - s));
	}
	return 0;
}

/* The least (sign < 0) or greatest (sign > 0) item of a list, in Python's
 * order; the first of equals; undefined for an empty list, as Jinja. */
static int
list_extreme(struct expr_call *c, int sign, json_t **out)
{
	json_t	*best = NULL, *item;
	size_t	 i;
	int	 order;

	if (!json_is_array(c->v))
		return expects_list(c);
	json_array_foreach(c->v, i, item) {
		if (best == NULL) {
			best = item;
			continue;
		}
		if (expr_values_order(c->ctx, "<", item, best, &order) != 0)
			return -1;
		if ((sign < 0 && order < 0) || (sign > 0 && order > 0))
			best = item;
	}
	if (best != NULL)
		*out = json_incref(best);
	return 0;
}

static int
filter_min(struct expr_call *c, json_t **out)
{
	return list_extreme(c, -1, out);
}

static int
filter_max(struct expr_call *c, json_t **out)
{
	return list_extreme(c, 1, out);
}

static int
expects_number(struct expr_call *c)
{
	return expr_error(c->ctx, "%s expects a number, got %s", c->name,
	    expr_type_name(c->v));
}

static int
filter_abs(struct expr_call *c, json_t **out)
{
	if (!expr_is_num(c->v))
		return expects_number(c);
	if (!json_is_integer(c->v))
		*out = json_real(fabs(json_number_value(c->v)));
	else if (json_integer_value(c->v) == LLONG_MIN)
		return expr_error(c->ctx, "integer overflow in abs");
	else
		*out = json_integer(llabs(json_integer_value(c->v)));
	return 0;
}

/* round([digits]): a float, half away from zero (Jinja's "common"). */
static int
filter_round(struct expr_call *c, json_t **out)
{
	double digits = 0, scale, x;

	if (!expr_is_num(c->v))
		return expects_number(c);
	if (c->arg[0] != NULL && expr_is_num(c->arg[0]))
		digits = json_number_value(c->arg[0]);
	x = json_number_value(c->v);
	/* beyond a double's range of digits, Python gives the number back
	 * (or zero) */
	if (digits > 300)
		*out = json_real(x);
	else if (digits < -300)
		*out = json_real(0);
	else if (digits >= 0 && isfinite(x)) {
		/* Python's round(): the exact value rounded, a tie to even;
		 * printf rounds the same way. */
		char buf[400];

		snprintf(buf, sizeof buf, "%.*f", (int)digits, x);
		return expr_real_out(c->ctx, strtod(buf, NULL), out);
	} else {
		scale = pow(10, -digits);
		return expr_real_out(c->ctx, nearbyint(x / scale) * scale,
		    out);
	}
	return 0;
}

static int
filter_replace(struct expr_call *c, json_t **out)
{
	struct strbuf	 sb;
	char		*hay = template_to_text(c->v);
	char		*from = template_to_text(c->arg[0]);
	char		*to = template_to_text(c->arg[1]);
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
	return expr_string_out(c->ctx, &sb, out);
}

/*
 * The filters (template.h lists them for users). A row: name, least and
 * most arguments, function, and whether the evaluator evaluates its operand
 * and arguments first (EXPR_EAGER) or the function does (EXPR_LAZY; see
 * expr-int.h). An alias is a row of its own with the same
 * function.
 */
static const struct expr_filter filters[] = {
	{ "default",	0, 2,	filter_default,	EXPR_LAZY,
	  "default_value boolean", NULL },
	{ "d",		0, 2,	filter_default,	EXPR_LAZY,
	  "default_value boolean", NULL },
	{ "int",	0, 1,	filter_int,	EXPR_EAGER,
	  "default", NULL },
	{ "float",	0, 1,	filter_float,	EXPR_EAGER,
	  "default", NULL },
	{ "string",	0, 0,	filter_string,	EXPR_EAGER,
	  NULL, NULL },
	{ "bool",	0, 0,	filter_bool,	EXPR_EAGER,
	  NULL, NULL },
	{ "lower",	0, 0,	filter_lower,	EXPR_EAGER,
	  NULL, NULL },
	{ "upper",	0, 0,	filter_upper,	EXPR_EAGER,
	  NULL, NULL },
	{ "trim",	0, 0,	filter_trim,	EXPR_EAGER,
	  NULL, NULL },
	{ "length",	0, 0,	filter_length,	EXPR_EAGER,
	  NULL, NULL },
	{ "count",	0, 0,	filter_length,	EXPR_EAGER,
	  NULL, NULL },
	{ "join",	0, 2,	filter_join,	EXPR_EAGER,
	  "d attribute", NULL },
	{ "first",	0, 0,	filter_first,	EXPR_EAGER,
	  NULL, NULL },
	{ "last",	0, 0,	filter_last,	EXPR_EAGER,
	  NULL, NULL },
	{ "min",	0, 0,	filter_min,	EXPR_EAGER,
	  NULL, NULL },
	{ "max",	0, 0,	filter_max,	EXPR_EAGER,
	  NULL, NULL },
	{ "abs",	0, 0,	filter_abs,	EXPR_EAGER,
	  NULL, NULL },
	{ "round",	0, 1,	filter_round,	EXPR_EAGER,
	  "precision", NULL },
	{ "replace",	2, 2,	filter_replace,	EXPR_EAGER,
	  "old new", NULL },
	{ "dict2items",	0, 2,	expr_filter_dict2items,	EXPR_EAGER,
	  "key_name value_name", NULL },
	{ "items2dict",	0, 2,	expr_filter_items2dict,	EXPR_EAGER,
	  "key_name value_name", NULL },
	{ "combine",	0, EXPR_MAX_ARGS,	expr_filter_combine,	EXPR_EAGER,
	  NULL, "recursive list_merge" },
	{ "flatten",	0, 2,	expr_filter_flatten,	EXPR_EAGER,
	  "levels skip_nulls", NULL },
	{ "unique",	0, 0,	expr_filter_unique,	EXPR_EAGER,
	  NULL, NULL },
	{ "intersect",	1, 1,	expr_filter_intersect,	EXPR_EAGER,
	  "b", NULL },
	{ "difference",	1, 1,	expr_filter_difference,	EXPR_EAGER,
	  "b", NULL },
	{ "symmetric_difference", 1, 1, expr_filter_symmetric_difference,
	  EXPR_EAGER, "b", NULL },
	{ "union",	1, 1,	expr_filter_union,	EXPR_EAGER,
	  "b", NULL },
	{ "comment",	0, 1,	expr_filter_comment,	EXPR_EAGER,
	  "style", "newline beginning prefix prefix_count decoration postfix "
	  "postfix_count end" },
	{ "extract",	1, 2,	expr_filter_extract,	EXPR_EAGER,
	  "container morekeys", NULL },
	{ "random",	0, 3,	expr_filter_random,	EXPR_EAGER,
	  "start step seed", NULL },
	{ "to_json",	0, 0,	expr_filter_to_json,	EXPR_EAGER,
	  NULL, NULL },
	{ "from_json",	0, 0,	expr_filter_from_json,	EXPR_EAGER,
	  NULL, NULL },
	{ "ternary",	2, 3,	expr_filter_ternary,	EXPR_EAGER,
	  "true_val false_val none_val", NULL },
	{ "map",	0, EXPR_MAX_ARGS,	expr_filter_map,	EXPR_EAGER,
	  NULL, "attribute default" },
	{ "select",	0, EXPR_MAX_ARGS,	expr_filter_select,	EXPR_EAGER,
	  NULL, NULL },
	{ "reject",	0, EXPR_MAX_ARGS,	expr_filter_reject,	EXPR_EAGER,
	  NULL, NULL },
	{ "list",	0, 0,	expr_filter_list,	EXPR_EAGER,
	  NULL, NULL },
	{ "regex_replace", 0, 4,	expr_filter_regex_replace, EXPR_EAGER,
	  "pattern replacement ignorecase multiline", NULL },
	{ "regex_search", 1, EXPR_MAX_ARGS, expr_filter_regex_search,
	  EXPR_EAGER, "regex", "ignorecase multiline" },
	{ "regex_findall", 1, 3,	expr_filter_regex_findall, EXPR_EAGER,
	  "regex multiline ignorecase", NULL },
	{ "regex_escape", 0, 1,	expr_filter_regex_escape, EXPR_EAGER,
	  "re_type", NULL },
	{ "selectattr",	1, EXPR_MAX_ARGS, expr_filter_selectattr, EXPR_EAGER,
	  NULL, NULL },
	{ "rejectattr",	1, EXPR_MAX_ARGS, expr_filter_rejectattr, EXPR_EAGER,
	  NULL, NULL },
	{ "sort",	0, 3,	expr_filter_sort, EXPR_EAGER,
	  "reverse case_sensitive attribute", NULL },
	{ "dictsort",	0, 3,	expr_filter_dictsort, EXPR_EAGER,
	  "case_sensitive by reverse", NULL },
	{ "split",	0, 2,	expr_str_split,	EXPR_EAGER,
	  "sep maxsplit", NULL },
	{ "basename",	0, 0,	expr_filter_basename, EXPR_EAGER,
	  NULL, NULL },
	{ "dirname",	0, 0,	expr_filter_dirname, EXPR_EAGER,
	  NULL, NULL },
	{ "quote",	0, 0,	expr_filter_quote, EXPR_EAGER,
	  NULL, NULL },
	{ "b64encode",	0, 0,	expr_filter_b64encode, EXPR_EAGER,
	  NULL, NULL },
	{ "b64decode",	0, 0,	expr_filter_b64decode, EXPR_EAGER,
	  NULL, NULL },
	{ "to_nice_json", 0, 2,	expr_filter_to_nice_json, EXPR_EAGER,
	  "indent sort_keys", NULL },
	{ "mandatory",	0, 1,	expr_filter_mandatory, EXPR_LAZY,
	  "msg", NULL },
	{ "zip",	0, EXPR_MAX_ARGS, expr_filter_zip, EXPR_EAGER,
	  NULL, NULL },
	{ "product",	0, EXPR_MAX_ARGS, expr_filter_product, EXPR_EAGER,
	  NULL, NULL },
	{ "sum",	0, 2,	expr_filter_sum, EXPR_EAGER,
	  "attribute start", NULL },
	{ "format",	0, EXPR_MAX_ARGS, expr_filter_format, EXPR_EAGER,
	  NULL, NULL },
};

/* Tests: 1 true, 0 false, -1 with an error. */

/* defined and undefined see the operand as it is: undefined is no error
 * here, so it is not the one that names a later error either. */
static int
is_defined(struct expr_call *c)
{
	json_t	*v;
	int	 defined;

	if (c->item)	/* an item of select, an attribute of selectattr */
		return c->v != NULL;
	if (expr_eval_node(c->ctx, c->n->a, &v) != 0)
		return -1;
	defined = v != NULL;
	json_decref(v);
	c->ctx->undef = NULL;
	return defined;
}

static int
test_defined(struct expr_call *c)
{
	return is_defined(c);
}

static int
test_undefined(struct expr_call *c)
{
	int r = is_defined(c);

	return r < 0 ? -1 : !r;
}

static int
test_none(struct expr_call *c)
{
	return json_is_null(c->v);
}

static int
test_string(struct expr_call *c)
{
	return json_is_string(c->v);
}

static int
test_number(struct expr_call *c)
{
	return expr_is_num(c->v);
}

static int
test_integer(struct expr_call *c)
{
	return json_is_integer(c->v);
}

static int
test_float(struct expr_call *c)
{
	return json_is_real(c->v);
}

static int
test_boolean(struct expr_call *c)
{
	return json_is_boolean(c->v);
}

static int
test_mapping(struct expr_call *c)
{
	return json_is_object(c->v);
}

static int
test_sequence(struct expr_call *c)
{
	return json_is_array(c->v) || json_is_string(c->v) ||
	    json_is_object(c->v);
}

/* even (rest 0) and odd (rest 1), of an int only. */
static int
parity(struct expr_call *c, int rest)
{
	if (!json_is_integer(c->v))
		return expr_error(c->ctx, "'%s' test expects an int, got %s",
		    c->name, expr_type_name(c->v));
	return (json_integer_value(c->v) % 2 == 0) == (rest == 0);
}

static int
test_even(struct expr_call *c)
{
	return parity(c, 0);
}

static int
test_odd(struct expr_call *c)
{
	return parity(c, 1);
}

/* The tests (template.h lists them for users), rows as filters[]. */
static const struct expr_test tests[] = {
	{ "defined",	0, 0,	test_defined,	EXPR_LAZY,
	  NULL, NULL },
	{ "undefined",	0, 0,	test_undefined,	EXPR_LAZY,
	  NULL, NULL },
	{ "none",	0, 0,	test_none,	EXPR_EAGER,
	  NULL, NULL },
	{ "string",	0, 0,	test_string,	EXPR_EAGER,
	  NULL, NULL },
	{ "number",	0, 0,	test_number,	EXPR_EAGER,
	  NULL, NULL },
	{ "integer",	0, 0,	test_integer,	EXPR_EAGER,
	  NULL, NULL },
	{ "float",	0, 0,	test_float,	EXPR_EAGER,
	  "default", NULL },
	{ "boolean",	0, 0,	test_boolean,	EXPR_EAGER,
	  NULL, NULL },
	{ "mapping",	0, 0,	test_mapping,	EXPR_EAGER,
	  NULL, NULL },
	{ "sequence",	0, 0,	test_sequence,	EXPR_EAGER,
	  NULL, NULL },
	{ "even",	0, 0,	test_even,	EXPR_EAGER,
	  NULL, NULL },
	{ "odd",	0, 0,	test_odd,	EXPR_EAGER,
	  NULL, NULL },
	{ "version",	1, 4,	expr_test_version, EXPR_EAGER,
	  "version operator strict version_type", NULL },
	{ "version_compare", 1, 4, expr_test_version, EXPR_EAGER,
	  "version operator strict version_type", NULL },
	{ "match",	0, 3,	expr_test_match, EXPR_EAGER,
	  "pattern ignorecase multiline", NULL },
	{ "search",	0, 3,	expr_test_search, EXPR_EAGER,
	  "pattern ignorecase multiline", NULL },
	{ "regex",	0, 4,	expr_test_regex, EXPR_EAGER,
	  "pattern ignorecase multiline match_type", NULL },
	{ "in",		1, 1,	expr_test_in,	EXPR_EAGER,	"seq", NULL },
	{ "contains",	1, 1,	expr_test_contains, EXPR_EAGER, "value", NULL },
	{ "subset",	1, 1,	expr_test_subset, EXPR_EAGER,	"b", NULL },
	{ "issubset",	1, 1,	expr_test_subset, EXPR_EAGER,	"b", NULL },
	{ "superset",	1, 1,	expr_test_superset, EXPR_EAGER, "b", NULL },
	{ "issuperset",	1, 1,	expr_test_superset, EXPR_EAGER, "b", NULL },
	{ "success",	0, 0,	expr_test_success, EXPR_EAGER,	NULL, NULL },
	{ "succeeded",	0, 0,	expr_test_success, EXPR_EAGER,	NULL, NULL },
	{ "successful",	0, 0,	expr_test_success, EXPR_EAGER,	NULL, NULL },
	{ "failed",	0, 0,	expr_test_failed, EXPR_EAGER,	NULL, NULL },
	{ "failure",	0, 0,	expr_test_failed, EXPR_EAGER,	NULL, NULL },
	{ "changed",	0, 0,	expr_test_changed, EXPR_EAGER,	NULL, NULL },
	{ "change",	0, 0,	expr_test_changed, EXPR_EAGER,	NULL, NULL },
	{ "skipped",	0, 0,	expr_test_skipped, EXPR_EAGER,	NULL, NULL },
	{ "skip",	0, 0,	expr_test_skipped, EXPR_EAGER,	NULL, NULL },
	{ "reachable",	0, 0,	expr_test_reachable, EXPR_EAGER, NULL, NULL },
	{ "unreachable", 0, 0,	expr_test_unreachable, EXPR_EAGER, NULL, NULL },
	{ "truthy",	0, 1,	expr_test_truthy, EXPR_EAGER,
	  "convert_bool", NULL },
	{ "falsy",	0, 1,	expr_test_falsy, EXPR_EAGER,
	  "convert_bool", NULL },
	{ "true",	0, 0,	expr_test_true,	EXPR_EAGER,	NULL, NULL },
	{ "false",	0, 0,	expr_test_false, EXPR_EAGER,	NULL, NULL },
	{ "any",	0, 0,	expr_test_any,	EXPR_EAGER,	NULL, NULL },
	{ "all",	0, 0,	expr_test_all,	EXPR_EAGER,	NULL, NULL },
	{ "eq",		1, 1,	expr_test_eq,	EXPR_EAGER,	"b", NULL },
	{ "equalto",	1, 1,	expr_test_eq,	EXPR_EAGER,	"b", NULL },
	{ "==",		1, 1,	expr_test_eq,	EXPR_EAGER,	"b", NULL },
	{ "ne",		1, 1,	expr_test_ne,	EXPR_EAGER,	"b", NULL },
	{ "!=",		1, 1,	expr_test_ne,	EXPR_EAGER,	"b", NULL },
	{ "lt",		1, 1,	expr_test_lt,	EXPR_EAGER,	"b", NULL },
	{ "lessthan",	1, 1,	expr_test_lt,	EXPR_EAGER,	"b", NULL },
	{ "<",		1, 1,	expr_test_lt,	EXPR_EAGER,	"b", NULL },
	{ "le",		1, 1,	expr_test_le,	EXPR_EAGER,	"b", NULL },
	{ "<=",		1, 1,	expr_test_le,	EXPR_EAGER,	"b", NULL },
	{ "gt",		1, 1,	expr_test_gt,	EXPR_EAGER,	"b", NULL },
	{ "greaterthan", 1, 1,	expr_test_gt,	EXPR_EAGER,	"b", NULL },
	{ ">",		1, 1,	expr_test_gt,	EXPR_EAGER,	"b", NULL },
	{ "ge",		1, 1,	expr_test_ge,	EXPR_EAGER,	"b", NULL },
	{ ">=",		1, 1,	expr_test_ge,	EXPR_EAGER,	"b", NULL },
	{ "divisibleby", 1, 1,	expr_test_divisibleby, EXPR_EAGER,
	  "num", NULL },
	{ "lower",	0, 0,	expr_test_lower, EXPR_EAGER,	NULL, NULL },
	{ "upper",	0, 0,	expr_test_upper, EXPR_EAGER,	NULL, NULL },
	{ "iterable",	0, 0,	expr_test_iterable, EXPR_EAGER,	NULL, NULL },
};

const struct expr_filter *
expr_filter_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof filters / sizeof filters[0]; i++) {
		if (strcmp(filters[i].name, name) == 0)
			return &filters[i];
	}
	return NULL;
}

const struct expr_test *
expr_test_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof tests / sizeof tests[0]; i++) {
		if (strcmp(tests[i].name, name) == 0)
			return &tests[i];
	}
	return NULL;
}
