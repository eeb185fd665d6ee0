/* Ansible's set theory filters of lists (ansible/plugins/filter/
 * mathstuff.py): intersect, difference, symmetric_difference, union. A
 * list is not hashable in Python, so for lists Ansible takes the path that
 * keeps order: the items of the left list (then the right's, for union)
 * that pass, the first of equal ones (Python's ==: 1 == 1.0), as its
 * unique(..., case_sensitive=True) does; a string on the left is its
 * characters. Two strings take Python's set path, whose order is the
 * process's string hashing: not reproducible, so refused here. */
#include "template/expr-int.h"

/* Append item to out unless an equal item is there already. */
static void
append_unique(json_t *out, json_t *item)
{
	json_t	*seen;
	size_t	 i;

	json_array_foreach(out, i, seen) {
		if (expr_values_equal(seen, item))
			return;
	}
	json_array_append(out, item);
}

/* The left list's items that are (want 1) or are not (want 0) in the
 * right operand (Python's `in`: a list's items, a string's substrings, a
 * mapping's keys), unique, in order; NULL with an error. */
static json_t *
filter_in(struct expr_call *c, const json_t *a, const json_t *b, int want)
{
	json_t	*out = json_array(), *item;
	size_t	 i;
	int	 in;

	json_array_foreach(a, i, item) {
		if ((in = expr_contains(c->ctx, b, item)) < 0) {
			json_decref(out);
			return NULL;
		}
		if (in == want)
			append_unique(out, item);
	}
	return out;
}

/* The left operand's items (a new reference): a list's, or a string's
 * characters (the list filter's); NULL with an error. */
static json_t *
left_items(struct expr_call *c)
{
	json_t *out = NULL;

	if ((!json_is_array(c->v) && !json_is_string(c->v)) ||
	    (json_is_string(c->v) && json_is_string(c->arg[0]))) {
		expr_error(c->ctx, "%s of %s and %s: Python's set of them has no "
		    "order to reproduce; give a list on the left", c->name,
		    expr_type_name(c->v), expr_type_name(c->arg[0]));
		return NULL;
	}
	return expr_filter_list(c, &out) == 0 ? out : NULL;
}

/* intersect (want 1) or difference (want 0). */
static int
filter_left(struct expr_call *c, int want, json_t **out)
{
	json_t *a = left_items(c);

	if (a == NULL)
		return -1;
	*out = filter_in(c, a, c->arg[0], want);
	json_decref(a);
	return *out != NULL ? 0 : -1;
}

int
expr_filter_intersect(struct expr_call *c, json_t **out)
{
	return filter_left(c, 1, out);
}

int
expr_filter_difference(struct expr_call *c, json_t **out)
{
	return filter_left(c, 0, out);
}

/* unique(a + b): Python's + of two lists, so both must be lists. */
static json_t *
union_of(struct expr_call *c)
{
	json_t	*out, *item;
	size_t	 i;

	if (!json_is_array(c->v) || !json_is_array(c->arg[0])) {
		if (json_is_string(c->v) && json_is_string(c->arg[0]))
			return left_items(c);	/* the set path: refused */
		expr_error(c->ctx, "%s: cannot add %s to %s", c->name,
		    expr_type_name(c->arg[0]), expr_type_name(c->v));
		return NULL;
	}
	out = json_array();
	json_array_foreach(c->v, i, item)
		append_unique(out, item);
	json_array_foreach(c->arg[0], i, item)
		append_unique(out, item);
	return out;
}

int
expr_filter_union(struct expr_call *c, json_t **out)
{
	*out = union_of(c);
	return *out != NULL ? 0 : -1;
}

/* The union's items not in the intersection, in the union's order. */
int
expr_filter_symmetric_difference(struct expr_call *c, json_t **out)
{
	json_t	*isect, *all, *item;
	size_t	 i;

	if ((all = union_of(c)) == NULL)
		return -1;
	if ((isect = filter_in(c, c->v, c->arg[0], 1)) == NULL) {
		json_decref(all);
		return -1;
	}
	*out = json_array();
	json_array_foreach(all, i, item) {
		if (expr_contains(c->ctx, isect, item) == 0)
			json_array_append(*out, item);
	}
	json_decref(isect);
	json_decref(all);
	return 0;
}
