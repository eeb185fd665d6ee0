/* Tests beyond the types: Ansible's of task results, sets and truth
 * (ansible/plugins/test/core.py, mathstuff.py) and Jinja2's comparisons,
 * containment, case and divisibility (jinja2/tests.py). Rows of the table
 * in expr-filters.c; version is in expr-version.c, match, search and regex
 * in expr-regex.c. A test here gives true or false, where Python's may
 * give the value it read (`{{ r is failed }}` prints True, not the value
 * of r.failed). */
#include "template/expr-int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "template/expr.h"
#include "template/value.h"

/* ---- task results: a registered result is a mapping. */

/* The truth of a result's key: false when it has none. */
static int
key_truth(const json_t *result, const char *key)
{
	const json_t *v = json_object_get(result, key);

	return v != NULL && template_truthy(v);
}

static int
result_key(struct expr_call *c, const char *test, const char *key)
{
	if (!json_is_object(c->v))
		return expr_error(c->ctx, "The '%s' test expects a dictionary",
		    test);
	return key_truth(c->v, key);
}

int
expr_test_failed(struct expr_call *c)
{
	return result_key(c, "failed", "failed");
}

int
expr_test_success(struct expr_call *c)
{
	int r = result_key(c, "failed", "failed");

	return r < 0 ? -1 : !r;
}

int
expr_test_skipped(struct expr_call *c)
{
	return result_key(c, "skipped", "skipped");
}

int
expr_test_unreachable(struct expr_call *c)
{
	return result_key(c, "unreachable", "unreachable");
}

int
expr_test_reachable(struct expr_call *c)
{
	int r = result_key(c, "unreachable", "unreachable");

	return r < 0 ? -1 : !r;
}

/* changed: the result's own, else (a loop's result) whether any of its
 * results changed. */
int
expr_test_changed(struct expr_call *c)
{
	json_t	*results, *res;
	size_t	 i;

	if (!json_is_object(c->v))
		return expr_error(c->ctx, "The 'changed' test expects a "
		    "dictionary");
	if (json_object_get(c->v, "changed") != NULL)
		return key_truth(c->v, "changed");
	results = json_object_get(c->v, "results");
	if (!json_is_array(results) ||
	    !json_is_object(json_array_get(results, 0)))
		return 0;
	json_array_foreach(results, i, res) {
		if (key_truth(res, "changed"))
			return 1;
	}
	return 0;
}

/* ---- truth */

/* Ansible's boolean(): true, yes, on, 1 and the like; false, no, off, 0;
 * anything else is left as it is (convert_bool's TypeError). */
static int
truth(struct expr_call *c)
{
	int b;

	if (c->arg[0] == NULL || !template_truthy(c->arg[0]) ||
	    !json_is_string(c->v))
		return template_truthy(c->v);
	if (ansible_bool_text(json_string_value(c->v), &b))
		return b;
	return template_truthy(c->v);
}

int
expr_test_truthy(struct expr_call *c)
{
	return truth(c);
}

int
expr_test_falsy(struct expr_call *c)
{
	return !truth(c);
}

int
expr_test_true(struct expr_call *c)
{
	return json_is_true(c->v);
}

int
expr_test_false(struct expr_call *c)
{
	return json_is_false(c->v);
}

/* any and all (Python's builtins, as Ansible has them): of a list. */
static int
any_all(struct expr_call *c, int all)
{
	json_t	*item;
	size_t	 i;

	if (!json_is_array(c->v))
		return expr_error(c->ctx, "'%s' test expects a list, got %s",
		    c->name, expr_type_name(c->v));
	json_array_foreach(c->v, i, item) {
		if (template_truthy(item) != all)
			return !all;
	}
	return all;
}

int
expr_test_any(struct expr_call *c)
{
	return any_all(c, 0);
}

int
expr_test_all(struct expr_call *c)
{
	return any_all(c, 1);
}

/* ---- containment and sets */

int
expr_test_in(struct expr_call *c)
{
	return expr_contains(c->ctx, c->arg[0], c->v);
}

int
expr_test_contains(struct expr_call *c)
{
	return expr_contains(c->ctx, c->v, c->arg[0]);
}

/* The items of Python's set(v): a list's items, a mapping's keys, a
 * string's characters; lists and mappings inside are unhashable. */
static json_t *
set_items(struct expr_call *c, const json_t *v)
{
	json_t		*items, *item;
	const char	*s, *e, *k;
	size_t		 i;

	if (json_is_string(v)) {
		items = json_array();
		for (s = json_string_value(v); *s != '\0'; s = e) {
			for (e = s + 1; ((unsigned char)*e & 0xc0) == 0x80; e++)
				;
			json_array_append_new(items, json_stringn(s,
			    (size_t)(e - s)));
		}
		return items;
	}
	if (json_is_object(v)) {
		items = json_array();
		json_object_foreach((json_t *)v, k, item)
			json_array_append_new(items, json_string(k));
		return items;
	}
	if (!json_is_array(v)) {
		expr_error(c->ctx, "'%s' object is not iterable",
		    expr_type_name(v));
		return NULL;
	}
	json_array_foreach(v, i, item) {
		if (json_is_array(item) || json_is_object(item)) {
			expr_error(c->ctx, "unhashable type: '%s'",
			    json_is_array(item) ? "list" : "dict");
			return NULL;
		}
	}
	return json_incref((json_t *)v);
}

/* Whether every item of a is in b, as sets. */
static int
is_subset(struct expr_call *c, const json_t *a, const json_t *b)
{
	json_t	*sa, *sb, *item;
	size_t	 i;
	int	 r = 1;

	if ((sa = set_items(c, a)) == NULL)
		return -1;
	if ((sb = set_items(c, b)) == NULL) {
		json_decref(sa);
		return -1;
	}
	json_array_foreach(sa, i, item) {
		if (expr_contains(c->ctx, sb, item) == 0) {
			r = 0;
			break;
		}
	}
	json_decref(sa);
	json_decref(sb);
	return r;
}

int
expr_test_subset(struct expr_call *c)
{
	return is_subset(c, c->v, c->arg[0]);
}

int
expr_test_superset(struct expr_call *c)
{
	return is_subset(c, c->arg[0], c->v);
}

/* ---- comparisons: Jinja2's eq, ne, lt, le, gt, ge (and their other
 * names), the same as the operators. */

int
expr_test_eq(struct expr_call *c)
{
	return expr_values_equal(c->v, c->arg[0]);
}

int
expr_test_ne(struct expr_call *c)
{
	return !expr_values_equal(c->v, c->arg[0]);
}

static int
order(struct expr_call *c, const char *op, int lt, int eq, int gt)
{
	int res;

	if (expr_values_order(c->ctx, op, c->v, c->arg[0], &res) != 0)
		return -1;
	return res < 0 ? lt : res == 0 ? eq : gt;
}

int
expr_test_lt(struct expr_call *c)
{
	return order(c, "<", 1, 0, 0);
}

int
expr_test_le(struct expr_call *c)
{
	return order(c, "<=", 1, 1, 0);
}

int
expr_test_gt(struct expr_call *c)
{
	return order(c, ">", 0, 0, 1);
}

int
expr_test_ge(struct expr_call *c)
{
	return order(c, ">=", 0, 1, 1);
}

/* divisibleby(num): value % num == 0, Python's %. */
int
expr_test_divisibleby(struct expr_call *c)
{
	json_t	*rest;
	int	 r;

	if (expr_arith(c->ctx, "%", c->v, c->arg[0], &rest) != 0)
		return -1;
	r = json_number_value(rest) == 0;
	json_decref(rest);
	return r;
}

/* lower and upper: str(value).islower() / isupper(): a cased character,
 * none of the other case (ASCII letters: others are not cased here). */
static int
one_case(struct expr_call *c, int upper)
{
	char	*s = template_to_text(c->v), *p;
	int	 cased = 0, other = 0;

	for (p = s; *p != '\0'; p++) {
		if (isupper((unsigned char)*p))
			upper ? (cased = 1) : (other = 1);
		else if (islower((unsigned char)*p))
			upper ? (other = 1) : (cased = 1);
	}
	free(s);
	return cased && !other;
}

int
expr_test_lower(struct expr_call *c)
{
	return one_case(c, 0);
}

int
expr_test_upper(struct expr_call *c)
{
	return one_case(c, 1);
}

/* iterable: what `for` can loop over. */
int
expr_test_iterable(struct expr_call *c)
{
	return json_is_array(c->v) || json_is_object(c->v) ||
	    json_is_string(c->v);
}
