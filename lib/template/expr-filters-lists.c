/* Jinja2's and Ansible's filters that order, pick from and combine lists:
 * sort, dictsort, select, reject, selectattr, rejectattr, zip, product,
 * sum, and the attribute lookup that map, join, sort and selectattr share.
 * Rows of the table in expr-filters.c. */
#include "template/expr-int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "template/expr.h"
#include "template/value.h"

/* One step of an attribute path: a mapping's key, or a list's index when
 * the step is all digits (Jinja2's make_attrgetter). */
static json_t *
attribute_step(json_t *v, const char *step, size_t len)
{
	char		*key = xstrndup(step, len);
	json_t		*r = NULL;
	size_t		 i;

	if (json_is_object(v))
		r = json_object_get(v, key);
	else if (json_is_array(v) && len > 0 && strspn(key, "0123456789") ==
	    len) {
		i = (size_t)strtoull(key, NULL, 10);
		r = json_array_get(v, i);
	}
	free(key);
	return r;
}

json_t *
expr_attribute(struct expr_call *c, json_t *item, const json_t *attr,
    int need)
{
	const char	*p, *e;
	char		*text;
	json_t		*v = item;

	if (json_is_integer(attr))
		v = json_array_get(item, (size_t)json_integer_value(attr));
	else if (json_is_string(attr)) {
		for (p = json_string_value(attr); v != NULL; p = e + 1) {
			e = p + strcspn(p, ".");
			v = attribute_step(v, p, (size_t)(e - p));
			if (*e == '\0')
				break;
		}
	} else
		v = NULL;
	if (v == NULL && need) {
		text = template_to_text(attr);
		expr_error(c->ctx, "%s: %s has no attribute '%s'", c->name,
		    expr_type_name(item), text);
		free(text);
	}
	return v;
}

/* ---- sort and dictsort: Python's sorted(), stable, its order of values
 * (expr_values_order: a TypeError for mixed types), strings compared
 * without their ASCII case unless case_sensitive. */

struct sort_key {
	json_t	*key;		/* what is compared (a new reference) */
	json_t	*item;		/* what is kept */
};

/* The key of v: its ASCII-lowered text when case does not count. */
static json_t *
case_key(json_t *v, int case_sensitive)
{
	char *s, *p;

	if (case_sensitive || !json_is_string(v))
		return json_incref(v);
	s = xstrndup(json_string_value(v), json_string_length(v));
	for (p = s; *p != '\0'; p++)
		*p = (char)tolower((unsigned char)*p);
	v = json_string(s);
	free(s);
	return v;
}

static int
merge_sort(struct expr_call *c, struct sort_key *k, struct sort_key *tmp,
    size_t n, int reverse)
{
	size_t	i, j, o, h = n / 2;
	int	cmp;

	if (n < 2)
		return 0;
	if (merge_sort(c, k, tmp, h, reverse) != 0 ||
	    merge_sort(c, k + h, tmp, n - h, reverse) != 0)
		return -1;
	for (i = 0, j = h, o = 0; i < h && j < n; o++) {
		if (expr_values_order(c->ctx, "<", k[j].key, k[i].key, &cmp) !=
		    0)
			return -1;
		/* Python's reverse keeps equal items in their order too */
		if (reverse ? cmp > 0 : cmp < 0)
			tmp[o] = k[j++];
		else
			tmp[o] = k[i++];
	}
	while (i < h)
		tmp[o++] = k[i++];
	while (j < n)
		tmp[o++] = k[j++];
	memcpy(k, tmp, n * sizeof *k);
	return 0;
}

/* Sort n keys and make the list of their items. */
static int
sorted_out(struct expr_call *c, struct sort_key *k, size_t n, int reverse,
    json_t **out)
{
	struct sort_key	*tmp = xcalloc(n + 1, sizeof *tmp);
	size_t		 i;
	int		 r;

	r = merge_sort(c, k, tmp, n, reverse);
	if (r == 0) {
		*out = json_array();
		for (i = 0; i < n; i++)
			json_array_append(*out, k[i].item);
	}
	for (i = 0; i < n; i++) {
		json_decref(k[i].key);
		json_decref(k[i].item);
	}
	free(tmp);
	free(k);
	return r;
}

/* sort(reverse=false, case_sensitive=false, attribute=none): a list
 * sorted (a mapping's keys, a string's characters are not: lists only);
 * attribute may name several, comma-separated, as Jinja2 3.1. */
int
expr_filter_sort(struct expr_call *c, json_t **out)
{
	int		 reverse = c->arg[0] != NULL && template_truthy(c->arg[0]);
	int		 cs = c->arg[1] != NULL && template_truthy(c->arg[1]);
	const char	*attrs = json_string_value(c->arg[2]), *p, *e;
	struct sort_key	*k;
	json_t		*item, *a, *name;
	size_t		 i, n;

	if (!json_is_array(c->v))
		return expr_error(c->ctx, "sort expects a list, got %s",
		    expr_type_name(c->v));
	n = json_array_size(c->v);
	k = xcalloc(n + 1, sizeof *k);
	json_array_foreach(c->v, i, item) {
		k[i].item = json_incref(item);
		if (c->arg[2] == NULL) {
			k[i].key = case_key(item, cs);
			continue;
		}
		if (attrs == NULL || strchr(attrs, ',') == NULL) {
			if ((a = expr_attribute(c, item, c->arg[2], 1)) == NULL)
				goto fail;
			k[i].key = case_key(a, cs);
			continue;
		}
		/* several attributes: a list of keys, compared in order */
		k[i].key = json_array();
		for (p = attrs;; p = e + 1) {
			e = p + strcspn(p, ",");
			name = json_stringn(p, (size_t)(e - p));
			a = expr_attribute(c, item, name, 1);
			json_decref(name);
			if (a == NULL)
				goto fail;
			json_array_append_new(k[i].key, case_key(a, cs));
			if (*e == '\0')
				break;
		}
	}
	return sorted_out(c, k, n, reverse, out);
fail:
	for (i = 0; i < n; i++) {
		json_decref(k[i].key);
		json_decref(k[i].item);
	}
	free(k);
	return -1;
}

/* dictsort(case_sensitive=false, by='key', reverse=false): a mapping's
 * [key, value] pairs, sorted by one or the other. */
int
expr_filter_dictsort(struct expr_call *c, json_t **out)
{
	int		 cs = c->arg[0] != NULL && template_truthy(c->arg[0]);
	int		 reverse = c->arg[2] != NULL &&
			    template_truthy(c->arg[2]);
	const char	*by = "key", *key;
	struct sort_key	*k;
	json_t		*v;
	size_t		 n = 0;

	if (c->arg[1] != NULL)
		by = json_is_string(c->arg[1]) ? json_string_value(c->arg[1]) :
		    "";
	if (strcmp(by, "key") != 0 && strcmp(by, "value") != 0)
		return expr_error(c->ctx, "dictsort: you can only sort by "
		    "either 'key' or 'value'");
	if (!json_is_object(c->v))
		return expr_error(c->ctx, "dictsort expects a mapping, got %s",
		    expr_type_name(c->v));
	k = xcalloc(json_object_size(c->v) + 1, sizeof *k);
	json_object_foreach(c->v, key, v) {
		k[n].item = json_pack("[s, O]", key, v);
		k[n].key = case_key(json_array_get(k[n].item,
		    by[0] == 'k' ? 0 : 1), cs);
		n++;
	}
	return sorted_out(c, k, n, reverse, out);
}

/* ---- select([test[, args...]]), reject, selectattr(attr[, test[,
 * args...]]) and rejectattr: the items (selectattr: whose attribute) the
 * test holds for (reject: not); without a test, the true ones. An item
 * without the attribute is undefined to the test: `defined` says false,
 * others fail. */

static int
select_items(struct expr_call *c, json_t **out, int want, int attr)
{
	const struct expr_test	*row = NULL;
	const json_t		*test = c->arg[attr];
	const char		*name = json_string_value(test);
	json_t			*item, *a;
	size_t			 i;
	int			 r;

	if (attr && c->arg[0] == NULL)
		return expr_error(c->ctx, "%s: missing the attribute", c->name);
	if (!json_is_array(c->v))
		return expr_error(c->ctx, "%s expects a list, got %s", c->name,
		    expr_type_name(c->v));
	if (test != NULL && (name == NULL ||
	    (row = expr_test_find(name)) == NULL))
		return expr_error(c->ctx, "%s: no test named '%s'", c->name,
		    name != NULL ? name : "");
	if (row != NULL && expr_item_args(c, name, row->min_args,
	    row->max_args, (size_t)attr + 1) != 0)
		return -1;
	*out = json_array();
	json_array_foreach(c->v, i, item) {
		a = !attr ? item : expr_attribute(c, item, c->arg[0],
		    row == NULL || !row->lazy);
		if (a == NULL && (row == NULL || !row->lazy))
			r = -1;
		else if (row == NULL)
			r = template_truthy(a);
		else
			r = expr_item_test(c, row, name, a, (size_t)attr + 1);
		if (r < 0) {
			json_decref(*out);
			*out = NULL;
			return -1;
		}
		if (r == want)
			json_array_append(*out, item);
	}
	return 0;
}

int
expr_filter_select(struct expr_call *c, json_t **out)
{
	return select_items(c, out, 1, 0);
}

int
expr_filter_reject(struct expr_call *c, json_t **out)
{
	return select_items(c, out, 0, 0);
}

int
expr_filter_selectattr(struct expr_call *c, json_t **out)
{
	return select_items(c, out, 1, 1);
}

int
expr_filter_rejectattr(struct expr_call *c, json_t **out)
{
	return select_items(c, out, 0, 1);
}

/* ---- zip(*lists) and product(*lists): Python's zip (as long as the
 * shortest) and itertools.product, tuples made lists. */

static int
all_lists(struct expr_call *c, json_t **lists, size_t *n)
{
	size_t i;

	lists[0] = c->v;
	for (i = 0; i < c->nargs; i++)
		lists[i + 1] = c->arg[i];
	*n = c->nargs + 1;
	for (i = 0; i < *n; i++) {
		if (!json_is_array(lists[i]))
			return expr_error(c->ctx, "%s expects lists, got %s",
			    c->name, lists[i] != NULL ?
			    expr_type_name(lists[i]) : "nothing");
	}
	return 0;
}

int
expr_filter_zip(struct expr_call *c, json_t **out)
{
	json_t	*lists[EXPR_MAX_ARGS + 1], *t;
	size_t	 n, i, j, len = (size_t)-1;

	if (all_lists(c, lists, &n) != 0)
		return -1;
	for (i = 0; i < n; i++) {
		if (json_array_size(lists[i]) < len)
			len = json_array_size(lists[i]);
	}
	*out = json_array();
	for (j = 0; j < len; j++) {
		t = json_array();
		for (i = 0; i < n; i++)
			json_array_append(t, json_array_get(lists[i], j));
		json_array_append_new(*out, t);
	}
	return 0;
}

/* The product's size is bounded: it grows as the product of the lists'
 * lengths. */
#define PRODUCT_MAX	1000000

int
expr_filter_product(struct expr_call *c, json_t **out)
{
	json_t	*lists[EXPR_MAX_ARGS + 1], *t;
	size_t	 n, i, total = 1, k, rest;

	if (all_lists(c, lists, &n) != 0)
		return -1;
	for (i = 0; i < n; i++) {
		if (json_array_size(lists[i]) != 0 &&
		    total > PRODUCT_MAX / json_array_size(lists[i]))
			return expr_error(c->ctx, "product: more than %d "
			    "combinations", PRODUCT_MAX);
		total *= json_array_size(lists[i]);
	}
	*out = json_array();
	for (k = 0; k < total; k++) {
		t = json_array();
		/* the last list varies fastest */
		for (i = n, rest = k; i-- > 0;) {
			json_array_insert(t, 0, json_array_get(lists[i],
			    rest % json_array_size(lists[i])));
			rest /= json_array_size(lists[i]);
		}
		json_array_append_new(*out, t);
	}
	return 0;
}

/* sum(attribute=none, start=0): numbers added as Python's + adds them
 * (lists too, from a start of []). */
int
expr_filter_sum(struct expr_call *c, json_t **out)
{
	json_t	*acc, *item, *next;
	size_t	 i;

	if (!json_is_array(c->v))
		return expr_error(c->ctx, "sum expects a list, got %s",
		    expr_type_name(c->v));
	acc = c->arg[1] != NULL ? json_incref(c->arg[1]) : json_integer(0);
	json_array_foreach(c->v, i, item) {
		if (c->arg[0] != NULL && (item = expr_attribute(c, item,
		    c->arg[0], 1)) == NULL) {
			json_decref(acc);
			return -1;
		}
		if (expr_arith(c->ctx, "+", acc, item, &next) != 0) {
			json_decref(acc);
			return -1;
		}
		json_decref(acc);
		acc = next;
	}
	*out = acc;
	return 0;
}
