/* Python's methods that templates call on their values, `x.name(args)`:
 * of dict (items, keys, values, get), of str (split, lower, upper, strip,
 * lstrip, rstrip, startswith, endswith, replace, join) and of list
 * (index, count). Ansible's Jinja2 is not sandboxed, so a template may call
 * any; these are the ones tuning roles use. Lists stand for Python's views
 * and tuples: `{{ d.keys() | list }}` is what it is in Python, `{{
 * d.keys() }}` prints a list, not dict_keys([...]). One table, a row per
 * (name, receiver type). */
#include "template/expr-int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/xalloc.h"
#include "template/expr.h"
#include "template/value.h"

/* ---- dict */

/* items(), keys(), values(): the mapping's pairs, keys or values, in
 * order. */
enum view { VIEW_ITEMS, VIEW_KEYS, VIEW_VALUES };

static int
dict_view(struct expr_call *c, enum view view, json_t **out)
{
	const char	*k;
	json_t		*v;

	*out = json_array();
	json_object_foreach(c->v, k, v) {
		if (view == VIEW_ITEMS)
			json_array_append_new(*out, json_pack("[s, O]", k, v));
		else if (view == VIEW_KEYS)
			json_array_append_new(*out, json_string(k));
		else
			json_array_append(*out, v);
	}
	return 0;
}

static int
dict_items(struct expr_call *c, json_t **out)
{
	return dict_view(c, VIEW_ITEMS, out);
}

static int
dict_keys(struct expr_call *c, json_t **out)
{
	return dict_view(c, VIEW_KEYS, out);
}

static int
dict_values(struct expr_call *c, json_t **out)
{
	return dict_view(c, VIEW_VALUES, out);
}

/* get(key, default=None) */
static int
dict_get(struct expr_call *c, json_t **out)
{
	json_t *v = NULL;

	if (json_is_string(c->arg[0]))
		v = json_object_get(c->v, json_string_value(c->arg[0]));
	if (v == NULL)
		v = c->arg[1] != NULL ? c->arg[1] : json_null();
	*out = json_incref(v);
	return 0;
}

/* ---- str */

static int
need_string(struct expr_call *c, const json_t *v)
{
	if (json_is_string(v))
		return 0;
	return expr_error(c->ctx, "str.%s() expects a string argument, got %s",
	    c->name, v != NULL ? expr_type_name(v) : "nothing");
}

/* lower, upper: ASCII letters, as the filters. */
static int
str_case(struct expr_call *c, int (*map)(int), json_t **out)
{
	char *s = xstrdup(json_string_value(c->v)), *p;

	for (p = s; *p != '\0'; p++)
		*p = (char)map((unsigned char)*p);
	*out = json_string(s);
	free(s);
	return 0;
}

static int
str_lower(struct expr_call *c, json_t **out)
{
	return str_case(c, tolower, out);
}

static int
str_upper(struct expr_call *c, json_t **out)
{
	return str_case(c, toupper, out);
}

/* strip([chars]) and its one-sided forms: whitespace (ASCII) or the
 * given characters (bytes: ASCII ones). */
static int
str_strip_sides(struct expr_call *c, int left, int right, json_t **out)
{
	const char	*s = json_string_value(c->v), *e = s + strlen(s);
	const char	*set = " \t\n\r\v\f";

	if (c->arg[0] != NULL && !json_is_null(c->arg[0])) {
		if (need_string(c, c->arg[0]) != 0)
			return -1;
		set = json_string_value(c->arg[0]);
	}
	while (left && *s != '\0' && strchr(set, *s) != NULL)
		s++;
	while (right && e > s && strchr(set, e[-1]) != NULL)
		e--;
	*out = json_stringn(s, (size_t)(e - s));
	return 0;
}

static int
str_strip(struct expr_call *c, json_t **out)
{
	return str_strip_sides(c, 1, 1, out);
}

static int
str_lstrip(struct expr_call *c, json_t **out)
{
	return str_strip_sides(c, 1, 0, out);
}

static int
str_rstrip(struct expr_call *c, json_t **out)
{
	return str_strip_sides(c, 0, 1, out);
}

/* startswith(prefix) and endswith(suffix): a string or a list of them. */
static int
str_affix(struct expr_call *c, int end, json_t **out)
{
	const char	*s = json_string_value(c->v), *a;
	json_t		*one[1] = { c->arg[0] }, *item;
	size_t		 i, n = 1, slen = strlen(s), alen;

	if (json_is_array(c->arg[0]))
		n = json_array_size(c->arg[0]);
	for (i = 0; i < n; i++) {
		item = json_is_array(c->arg[0]) ? json_array_get(c->arg[0], i) :
		    one[0];
		if (need_string(c, item) != 0)
			return -1;
		a = json_string_value(item);
		alen = strlen(a);
		if (alen <= slen && memcmp(end ? s + slen - alen : s, a, alen) ==
		    0) {
			*out = json_true();
			return 0;
		}
	}
	*out = json_false();
	return 0;
}

static int
str_startswith(struct expr_call *c, json_t **out)
{
	return str_affix(c, 0, out);
}

static int
str_endswith(struct expr_call *c, json_t **out)
{
	return str_affix(c, 1, out);
}

/* find(sub) and rfind(sub): the index of the first (last) occurrence, in
 * characters as Python counts them, or -1. */
static int
str_find_at(struct expr_call *c, int last, json_t **out)
{
	const char	*s = json_string_value(c->v), *sub, *hit = NULL, *p;

	if (need_string(c, c->arg[0]) != 0)
		return -1;
	sub = json_string_value(c->arg[0]);
	for (p = s; (p = strstr(p, sub)) != NULL; p++) {
		hit = p;
		if (!last || *p == '\0')
			break;
	}
	if (hit == NULL) {
		*out = json_integer(-1);
		return 0;
	}
	*out = json_integer((json_int_t)expr_char_count(s, (size_t)(hit -
	    s)));
	return 0;
}

static int
str_find(struct expr_call *c, json_t **out)
{
	return str_find_at(c, 0, out);
}

static int
str_rfind(struct expr_call *c, json_t **out)
{
	return str_find_at(c, 1, out);
}

/* replace(old, new[, count]) */
static int
str_replace(struct expr_call *c, json_t **out)
{
	const char	*s = json_string_value(c->v), *from, *to, *q;
	long long	 count = -1;
	struct strbuf	 sb;

	if (need_string(c, c->arg[0]) != 0 || need_string(c, c->arg[1]) != 0)
		return -1;
	if (c->arg[2] != NULL)
		count = json_integer_value(c->arg[2]);
	from = json_string_value(c->arg[0]);
	to = json_string_value(c->arg[1]);
	/* Python puts new between every character, and at both ends */
	if (*from == '\0')
		return expr_error(c->ctx, "str.replace() with an empty old "
		    "string is not supported");
	strbuf_init(&sb);
	while (count != 0 && (q = strstr(s, from)) != NULL &&
	    sb.len <= EXPR_MAX_STRING) {
		strbuf_add(&sb, s, (size_t)(q - s));
		strbuf_addstr(&sb, to);
		s = q + strlen(from);
		if (count > 0)
			count--;
	}
	strbuf_addstr(&sb, s);
	return expr_string_out(c->ctx, &sb, out);
}

/* sep.join(list of strings) */
static int
str_join(struct expr_call *c, json_t **out)
{
	struct strbuf	 sb;
	json_t		*item;
	size_t		 i;

	if (!json_is_array(c->arg[0]))
		return expr_error(c->ctx, "str.join() expects a list, got %s",
		    expr_type_name(c->arg[0]));
	strbuf_init(&sb);
	json_array_foreach(c->arg[0], i, item) {
		if (!json_is_string(item)) {
			strbuf_release(&sb);
			return expr_error(c->ctx, "sequence item %zu: expected "
			    "str instance, %s found", i, expr_type_name(item));
		}
		if (i > 0)
			strbuf_addstr(&sb, json_string_value(c->v));
		strbuf_addstr(&sb, json_string_value(item));
		if (sb.len > EXPR_MAX_STRING)
			break;
	}
	return expr_string_out(c->ctx, &sb, out);
}

/* ---- list */

static int
list_index(struct expr_call *c, json_t **out)
{
	json_t	*item;
	size_t	 i;

	json_array_foreach(c->v, i, item) {
		if (expr_values_equal(item, c->arg[0])) {
			*out = json_integer((json_int_t)i);
			return 0;
		}
	}
	return expr_error(c->ctx, "list.index(x): x not in list");
}

static int
list_count(struct expr_call *c, json_t **out)
{
	json_t		*item;
	size_t		 i;
	json_int_t	 n = 0;

	json_array_foreach(c->v, i, item)
		n += expr_values_equal(item, c->arg[0]);
	*out = json_integer(n);
	return 0;
}

static const struct expr_method methods[] = {
	{ "items",	JSON_OBJECT, 0, 0,	dict_items,	NULL },
	{ "keys",	JSON_OBJECT, 0, 0,	dict_keys,	NULL },
	{ "values",	JSON_OBJECT, 0, 0,	dict_values,	NULL },
	{ "get",	JSON_OBJECT, 1, 2,	dict_get,	NULL },
	{ "split",	JSON_STRING, 0, 2,	expr_str_split,	"sep maxsplit" },
	{ "lower",	JSON_STRING, 0, 0,	str_lower,	NULL },
	{ "upper",	JSON_STRING, 0, 0,	str_upper,	NULL },
	{ "strip",	JSON_STRING, 0, 1,	str_strip,	NULL },
	{ "lstrip",	JSON_STRING, 0, 1,	str_lstrip,	NULL },
	{ "rstrip",	JSON_STRING, 0, 1,	str_rstrip,	NULL },
	{ "startswith",	JSON_STRING, 1, 1,	str_startswith,	NULL },
	{ "endswith",	JSON_STRING, 1, 1,	str_endswith,	NULL },
	{ "replace",	JSON_STRING, 2, 3,	str_replace,	NULL },
	{ "find",	JSON_STRING, 1, 1,	str_find,	NULL },
	{ "rfind",	JSON_STRING, 1, 1,	str_rfind,	NULL },
	{ "join",	JSON_STRING, 1, 1,	str_join,	NULL },
	{ "index",	JSON_ARRAY, 1, 1,	list_index,	NULL },
	{ "count",	JSON_ARRAY, 1, 1,	list_count,	NULL },
};

const struct expr_method *
expr_method_find(const char *name, const json_t *recv)
{
	size_t i;

	for (i = 0; i < sizeof methods / sizeof methods[0]; i++) {
		if (strcmp(methods[i].name, name) == 0 && (recv == NULL ||
		    json_typeof(recv) == methods[i].recv))
			return &methods[i];
	}
	return NULL;
}
