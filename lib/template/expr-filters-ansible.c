/* Ansible's everyday filters of lists and mappings, as its own code
 * (ansible/plugins/filter/core.py, mathstuff.py) computes them: rows of
 * the table in expr-filters.c. What each leaves out of Ansible's is said
 * at the function; docs/playbooks.md has the table. */
#include "template/expr-int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "template/value.h"

/* A key or value name argument: a string, else the default. */
static const char *
name_arg(const json_t *arg, const char *def)
{
	return json_is_string(arg) ? json_string_value(arg) : def;
}

/* dict2items(key_name='key', value_name='value'): [{key: k, value: v}]. */
int
expr_filter_dict2items(struct expr_call *c, json_t **out)
{
	const char	*k, *kn = name_arg(c->arg[0], "key");
	const char	*vn = name_arg(c->arg[1], "value");
	json_t		*v;

	if (!json_is_object(c->v))
		return expr_error(c->ctx, "dict2items requires a dictionary, "
		    "got %s instead", expr_type_name(c->v));
	*out = json_array();
	json_object_foreach(c->v, k, v)
		json_array_append_new(*out, json_pack("{s:s, s:O}", kn, k, vn,
		    v));
	return 0;
}

/* items2dict(key_name='key', value_name='value'): the reverse; a key must
 * be a string (a mapping's keys are, here). */
int
expr_filter_items2dict(struct expr_call *c, json_t **out)
{
	const char	*kn = name_arg(c->arg[0], "key");
	const char	*vn = name_arg(c->arg[1], "value");
	json_t		*item, *k, *v;
	size_t		 i;

	if (!json_is_array(c->v))
		return expr_error(c->ctx, "items2dict requires a list, got %s "
		    "instead", expr_type_name(c->v));
	*out = json_object();
	json_array_foreach(c->v, i, item) {
		k = json_object_get(item, kn);
		v = json_object_get(item, vn);
		if (!json_is_object(item) || k == NULL || v == NULL) {
			json_decref(*out);
			*out = NULL;
			return expr_error(c->ctx, "items2dict requires each "
			    "dictionary in the list to contain the keys '%s' "
			    "and '%s'", kn, vn);
		}
		if (!json_is_string(k)) {
			json_decref(*out);
			*out = NULL;
			return expr_error(c->ctx, "items2dict: a key of %s is "
			    "not supported (keys are strings)",
			    expr_type_name(k));
		}
		json_object_set(*out, json_string_value(k), v);
	}
	return 0;
}

/* The list_merge values of merge_hash, in its order. */
static const char *const list_merges[] = { "replace", "keep", "append",
	"prepend", "append_rp", "prepend_rp", NULL };

/* The items of x that are not in y, then y's (rp: y's first, when
 * prepend is set). */
static json_t *
list_join(const json_t *x, const json_t *y, int prepend, int rp)
{
	json_t	*out = json_array(), *item, *other;
	size_t	 i, j;
	int	 dup;

	if (prepend)
		json_array_extend(out, (json_t *)y);
	json_array_foreach(x, i, item) {
		dup = 0;
		json_array_foreach(y, j, other)
			dup |= rp && expr_values_equal(item, other);
		if (!dup)
			json_array_append(out, item);
	}
	if (!prepend)
		json_array_extend(out, (json_t *)y);
	return out;
}

/* Ansible's merge_hash(x, y, recursive, list_merge): y's keys over x's;
 * with recursive, mappings under the same key merged too; lists under
 * the same key as list_merge says. A new value. */
static json_t *
merge_hash(const json_t *x, const json_t *y, int recursive, int lm)
{
	json_t		*out = json_deep_copy(x), *xv, *yv;
	const char	*k;

	json_object_foreach((json_t *)y, k, yv) {
		xv = json_object_get(out, k);
		if (xv != NULL && json_is_object(xv) && json_is_object(yv) &&
		    recursive)
			json_object_set_new(out, k, merge_hash(xv, yv, recursive,
			    lm));
		else if (xv != NULL && json_is_array(xv) && json_is_array(yv) &&
		    lm != 0) {
			if (lm != 1)	/* keep: x's list stays */
				json_object_set_new(out, k, list_join(xv, yv,
				    lm == 3 || lm == 5, lm >= 4));
		} else
			json_object_set(out, k, yv);
	}
	return out;
}

/* combine(d2, d3, ..., recursive=false, list_merge='replace'): the
 * mappings merged, a later one's keys winning (merge_hash); the operand
 * may be a list of mappings. */
int
expr_filter_combine(struct expr_call *c, json_t **out)
{
	json_t		*terms = json_array(), *t, *next;
	const char	*lm = json_string_value(c->kw[1]);
	size_t		 i;
	int		 m = 0;

	if (c->kw[1] != NULL) {
		for (m = 0; list_merges[m] != NULL && (lm == NULL ||
		    strcmp(list_merges[m], lm) != 0); m++)
			;
		if (list_merges[m] == NULL) {
			json_decref(terms);
			return expr_error(c->ctx, "merge_hash: 'list_merge' "
			    "argument can only be equal to 'replace', 'keep', "
			    "'append', 'prepend', 'append_rp' or 'prepend_rp'");
		}
	}
	if (json_is_array(c->v))
		json_array_extend(terms, c->v);
	else
		json_array_append(terms, c->v);
	for (i = 0; i < c->nargs; i++) {
		if (json_is_array(c->arg[i]))
			json_array_extend(terms, c->arg[i]);
		else
			json_array_append(terms, c->arg[i]);
	}
	*out = json_object();
	json_array_foreach(terms, i, t) {
		if (!json_is_object(t)) {
			json_decref(terms);
			json_decref(*out);
			*out = NULL;
			return expr_error(c->ctx, "failed to combine variables, "
			    "expected dicts but got %s", expr_type_name(t));
		}
		next = merge_hash(*out, t, c->kw[0] != NULL &&
		    template_truthy(c->kw[0]), m);
		json_decref(*out);
		*out = next;
	}
	json_decref(terms);
	return 0;
}

/* None and the strings 'None' and 'null' are left out, as flatten's
 * skip_nulls (its default) does. */
static int
is_null_item(const json_t *v)
{
	return json_is_null(v) || (json_is_string(v) &&
	    (strcmp(json_string_value(v), "None") == 0 ||
	    strcmp(json_string_value(v), "null") == 0));
}

static void
flatten_into(json_t *out, const json_t *list, long long levels, int skip)
{
	json_t	*item;
	size_t	 i;

	json_array_foreach(list, i, item) {
		if (skip && is_null_item(item))
			continue;
		if (json_is_array(item) && levels != 0)
			flatten_into(out, item, levels < 0 ? -1 : levels - 1,
			    skip);
		else
			json_array_append(out, item);
	}
}

/* flatten(levels=none, skip_nulls=true): nested lists made one, every
 * level or levels of them. The depth of a value is bounded by the parser's nesting. */
int
expr_filter_flatten(struct expr_call *c, json_t **out)
{
	long long levels = -1;

	if (!json_is_array(c->v))
		return expr_error(c->ctx, "flatten expects a list, got %s",
		    expr_type_name(c->v));
	if (c->arg[0] != NULL && !json_is_null(c->arg[0])) {
		if (!json_is_integer(c->arg[0]) ||
		    json_integer_value(c->arg[0]) < 0)
			return expr_error(c->ctx, "flatten's levels must be a "
			    "whole number >= 0");
		levels = json_integer_value(c->arg[0]);
	}
	*out = json_array();
	flatten_into(*out, c->v, levels, c->arg[1] == NULL ||
	    template_truthy(c->arg[1]));
	return 0;
}

/* Jinja2's unique with case_sensitive false (how Ansible calls it, its
 * None made bool): strings equal whatever their case (ASCII). */
static int
same_item(const json_t *a, const json_t *b)
{
	if (json_is_string(a) && json_is_string(b))
		return json_string_length(a) == json_string_length(b) &&
		    strncasecmp(json_string_value(a), json_string_value(b),
		    json_string_length(a)) == 0;
	return expr_values_equal(a, b);
}

/* unique: the first of the items equal to one another (Python's ==: 1 ==
 * 1.0; strings whatever their case), in order. */
int
expr_filter_unique(struct expr_call *c, json_t **out)
{
	json_t	*item, *seen;
	size_t	 i, j;
	int	 dup;

	if (!json_is_array(c->v))
		return expr_error(c->ctx, "unique expects a list, got %s",
		    expr_type_name(c->v));
	*out = json_array();
	json_array_foreach(c->v, i, item) {
		dup = 0;
		json_array_foreach(*out, j, seen) {
			if (same_item(seen, item)) {
				dup = 1;
				break;
			}
		}
		if (!dup)
			json_array_append(*out, item);
	}
	return 0;
}

/* json.dumps' text of v with jansson's flags: non-ASCII as \uXXXX, its
 * hex digits in lower case as Python writes them. */
static int
json_text(struct expr_call *c, size_t flags, json_t **out)
{
	char	*s = json_dumps(c->v, flags | JSON_ENCODE_ANY |
		    JSON_ENSURE_ASCII), *p;
	int	 i;

	if (s == NULL)
		return expr_error(c->ctx, "%s: cannot encode %s", c->name,
		    expr_type_name(c->v));
	for (p = s; *p != '\0'; p++) {
		if (p[0] != '\\')
			continue;
		if (p[1] == 'u')
			for (i = 2; i < 6 && p[i] != '\0'; i++)
				p[i] = (char)tolower((unsigned char)p[i]);
		if (p[1] != '\0')
			p++;
	}
	*out = json_string(s);
	free(s);
	return 0;
}

/* to_json: json.dumps' text (", " and ": " between items). A float may
 * print with more digits than Python's repr. */
int
expr_filter_to_json(struct expr_call *c, json_t **out)
{
	return json_text(c, 0, out);
}

/* to_nice_json(indent=4, sort_keys=true): indented, "," and ": " between
 * items (jansson indents at most 31). */
int
expr_filter_to_nice_json(struct expr_call *c, json_t **out)
{
	json_int_t	indent = 4;
	size_t		flags;

	if (c->arg[0] != NULL) {
		if (!json_is_integer(c->arg[0]) ||
		    json_integer_value(c->arg[0]) < 0 ||
		    json_integer_value(c->arg[0]) > 31)
			return expr_error(c->ctx, "to_nice_json: indent must be "
			    "an int from 0 to 31");
		indent = json_integer_value(c->arg[0]);
	}
	flags = JSON_INDENT(indent);
	if (c->arg[1] == NULL || template_truthy(c->arg[1]))
		flags |= JSON_SORT_KEYS;
	if (indent == 0)	/* Python: newlines, no indent; jansson: none */
		return expr_error(c->ctx, "to_nice_json: indent 0 is not "
		    "supported");
	return json_text(c, flags, out);
}

/* from_json: a string's JSON value (NaN and Infinity, which Python reads,
 * are refused). */
int
expr_filter_from_json(struct expr_call *c, json_t **out)
{
	json_error_t err;

	if (!json_is_string(c->v))
		return expr_error(c->ctx, "from_json expects a string, got %s",
		    expr_type_name(c->v));
	*out = json_loadb(json_string_value(c->v), json_string_length(c->v),
	    JSON_DECODE_ANY, &err);
	if (*out == NULL)
		return expr_error(c->ctx, "from_json: %s at character %d",
		    err.text, err.position + 1);
	return 0;
}

/* ternary(true_val, false_val, none_val=none): by the operand's truth;
 * none_val, when given, for none. */
int
expr_filter_ternary(struct expr_call *c, json_t **out)
{
	if (json_is_null(c->v) && c->arg[2] != NULL) {
		*out = json_incref(c->arg[2]);
		return 0;
	}
	*out = json_incref(c->arg[template_truthy(c->v) ? 0 : 1]);
	return 0;
}

/* ---- Jinja2's filters that run another filter or a test on each item:
 * the one named by a string argument, with the positional arguments given
 * after the name (keywords for it are not supported). map runs only a
 * filter that takes its operand evaluated (not default). They give a list
 * where Jinja2 gives a generator, so `| list` after them changes
 * nothing. */

int
expr_item_args(struct expr_call *c, const char *what, size_t min,
    size_t max, size_t from)
{
	size_t nargs = c->nargs > from ? c->nargs - from : 0;

	if (nargs < min || nargs > max)
		return expr_error(c->ctx, "%s: '%s' takes %zu to %zu "
		    "arguments, got %zu", c->name, what, min, max, nargs);
	return 0;
}

/* The call of the row named name on one item, with the arguments given
 * from position from on. */
static void
item_call(const struct expr_call *c, struct expr_call *ic, const char *name,
    json_t *item, size_t from)
{
	size_t i;

	memset(ic, 0, sizeof *ic);
	ic->ctx = c->ctx;
	ic->n = c->n;
	ic->name = name;
	ic->v = item;
	ic->item = 1;
	for (i = from; i < c->nargs; i++)
		ic->arg[i - from] = c->arg[i];
	ic->nargs = c->nargs > from ? c->nargs - from : 0;
}

int
expr_item_test(struct expr_call *c, const struct expr_test *row,
    const char *name, json_t *item, size_t from)
{
	struct expr_call ic;

	item_call(c, &ic, name, item, from);
	return row->fn(&ic);
}

/* map(filter, args...) or map(attribute=name[, default=value]) */
int
expr_filter_map(struct expr_call *c, json_t **out)
{
	const struct expr_filter	*row = NULL;
	struct expr_call		 ic;
	const char			*name = json_string_value(c->arg[0]);
	json_t				*item, *o;
	size_t				 i;

	if (!json_is_array(c->v))
		return expr_error(c->ctx, "map expects a list, got %s",
		    expr_type_name(c->v));
	if (c->kw[0] != NULL) {
		if (c->nargs > 0)
			return expr_error(c->ctx, "map: a filter and an "
			    "attribute both given");
	} else if (name == NULL || (row = expr_filter_find(name)) == NULL)
		return expr_error(c->ctx, "map: no filter named '%s'",
		    name != NULL ? name : "");
	else if (row->lazy)
		return expr_error(c->ctx, "map: '%s' cannot run on each item",
		    name);
	else if (expr_item_args(c, name, row->min_args, row->max_args, 1) !=
	    0)
		return -1;
	*out = json_array();
	json_array_foreach(c->v, i, item) {
		o = NULL;
		if (row == NULL) {
			o = expr_attribute(c, item, c->kw[0], c->kw[1] == NULL);
			o = json_incref(o != NULL ? o : c->kw[1]);
		} else {
			item_call(c, &ic, name, item, 1);
			if (row->fn(&ic, &o) != 0)
				o = NULL;
			else if (o == NULL)
				expr_error(c->ctx, "map: '%s' gave nothing",
				    name);
		}
		if (o == NULL) {
			json_decref(*out);
			*out = NULL;
			return -1;
		}
		json_array_append_new(*out, o);
	}
	return 0;
}

/* list: a list as it is, a mapping's keys, a string's characters. */
int
expr_filter_list(struct expr_call *c, json_t **out)
{
	const char	*s, *k, *e;
	json_t		*v;

	if (json_is_array(c->v)) {
		*out = json_incref(c->v);
		return 0;
	}
	if (json_is_object(c->v)) {
		*out = json_array();
		json_object_foreach(c->v, k, v)
			json_array_append_new(*out, json_string(k));
		return 0;
	}
	if (!json_is_string(c->v))
		return expr_error(c->ctx, "'%s' object is not iterable",
		    expr_type_name(c->v));
	*out = json_array();
	for (s = json_string_value(c->v); *s != '\0'; s = e) {
		for (e = s + 1; ((unsigned char)*e & 0xc0) == 0x80; e++)
			;
		json_array_append_new(*out, json_stringn(s, (size_t)(e - s)));
	}
	return 0;
}

/* extract(container, morekeys=None): container[item], then each of
 * morekeys (a list, or one key) in turn, as core.py's extract with
 * Jinja2's getitem: undefined when a key is missing. hostvars is a
 * container: `groups.k3s | map('extract', hostvars, 'ansible_host')`. */
int
expr_filter_extract(struct expr_call *c, json_t **out)
{
	json_t	*value = json_incref(c->arg[0]), *next;
	json_t	*more = c->arg[1];
	size_t	 i, n = json_is_array(more) ? json_array_size(more) :
		    more != NULL && !json_is_null(more) ? 1 : 0;

	for (i = 0; i <= n && value != NULL; i++) {
		const json_t *key = i == 0 ? c->v : json_is_array(more) ?
		    json_array_get(more, i - 1) : more;

		if (expr_getitem(c->ctx, value, key, &next) != 0) {
			json_decref(value);
			return -1;
		}
		json_decref(value);
		value = next;
	}
	*out = value;
	return 0;
}
