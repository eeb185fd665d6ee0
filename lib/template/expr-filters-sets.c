/* Ansible's set theory filters on lists (plugins/filter/mathstuff.py of
 * ansible-core 2.14): a list is unhashable in Python, so each is the
 * items in order, duplicates dropped as unique(case_sensitive=True)
 * drops them, compared with Python's ==. */
#include "template/expr-int.h"

#include <string.h>

#include "template/value.h"

/* Python's `x in list`; a string for the list is `in` on text (os_hardening's
 * difference('vfat'): a substring). */
static int
has(const json_t *list, const json_t *x)
{
	const json_t	*e;
	size_t		 i;

	if (json_is_string(list))
		return json_is_string(x) && strstr(json_string_value(list),
		    json_string_value(x)) != NULL;
	json_array_foreach(list, i, e) {
		if (expr_values_equal(e, x))
			return 1;
	}
	return 0;
}

/* x appended to out unless out has it (unique's case-sensitive path). */
static void
add_new(json_t *out, json_t *x)
{
	if (!has(out, x))
		json_array_append(out, x);
}

int
expr_filter_sets(struct expr_call *c, json_t **out)
{
	const json_t	*a = c->v, *b = c->arg[0];
	json_t		*x;
	size_t		 i;

	if (b == NULL)
		return expr_error(c->ctx, "%s expects a list to compare with",
		    c->name);
	/* a string b: only `in` takes it (union's a + b fails in Python) */
	if (!json_is_array(a) || !(json_is_array(b) || (json_is_string(b) &&
	    (c->name[0] == 'i' || c->name[0] == 'd'))))
		return expr_error(c->ctx, "%s expects lists, got %s and %s",
		    c->name, expr_type_name(a), expr_type_name(b));
	*out = json_array();
	if (strcmp(c->name, "union") == 0 ||
	    strcmp(c->name, "symmetric_difference") == 0) {
		json_array_foreach(a, i, x) {
			if (c->name[0] == 'u' || !has(b, x))
				add_new(*out, x);
		}
		json_array_foreach(json_is_array(b) ? b : NULL, i, x) {
			if (c->name[0] == 'u' || !has(a, x))
				add_new(*out, x);
		}
		return 0;
	}
	/* intersect, difference */
	json_array_foreach(a, i, x) {
		if (has(b, x) == (c->name[0] == 'i'))
			add_new(*out, x);
	}
	return 0;
}
