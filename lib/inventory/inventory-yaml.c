/* The YAML inventory format, as ansible-core's yaml inventory plugin reads
 * it: top-level keys are groups; a group has vars, children and hosts;
 * host keys may carry ranges and a port. Where Ansible only warns and skips
 * (unknown keys, a group that is not a mapping) we stop with file:line:col,
 * because a typo in an inventory silently drops hosts. */
#include "inventory/inventory.h"

#include <stdlib.h>
#include <string.h>

#include "inventory/hostrange.h"
#include "base/xalloc.h"
#include "yaml/ydoc.h"

static int parse_group(struct inventory *, const struct ynode *,
    const struct ynode *, struct inv_group **, char **);

/* Levenshtein distance, small strings only. */
static size_t
distance(const char *a, const char *b)
{
	size_t	la = strlen(a), lb = strlen(b), i, j, d[32][32];

	if (la >= 32 || lb >= 32)
		return 99;
	for (i = 0; i <= la; i++)
		d[i][0] = i;
	for (j = 0; j <= lb; j++)
		d[0][j] = j;
	for (i = 1; i <= la; i++) {
		for (j = 1; j <= lb; j++) {
			size_t best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);

			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			d[i][j] = best;
		}
	}
	return d[la][lb];
}

static int
unknown_key(const struct ynode *key, const char *group, char **cause)
{
	static const char *const known[] = { "hosts", "children", "vars",
	    NULL };
	const char	*k = key->value != NULL ? key->value : "";
	size_t		 i;

	for (i = 0; known[i] != NULL; i++) {
		if (distance(k, known[i]) <= 2)
			return ypos_fail(cause, &key->pos, "unknown key '%s' in "
			    "group '%s' (did you mean '%s'?)", k, group,
			    known[i]);
	}
	return ypos_fail(cause, &key->pos, "unknown key '%s' in group '%s' "
	    "(expected 'hosts', 'children' or 'vars')", k, group);
}

/* A section that is a plain string means {string: null} in Ansible. */
static int
is_string_scalar(const struct ynode *n)
{
	json_t	*j;
	int	 r;

	if (n == NULL || n->type != YNODE_SCALAR)
		return 0;
	j = ynode_to_json(n);
	r = json_is_string(j);
	json_decref(j);
	return r;
}

static int
check_section(const struct ynode *n, const char *section, const char *group,
    char **cause)
{
	if (n == NULL || ynode_is_null(n) || n->type == YNODE_MAP ||
	    is_string_scalar(n))
		return 0;
	return ypos_fail(cause, &n->pos, "'%s' of group '%s' must be a mapping, "
	    "got %s", section, group, ynode_type_name(n));
}

/* Set one group var, at the position of the key that gave it. */
static int
set_var(struct inv_group *g, const char *key, json_t *value,
    const struct ynode *at, char **cause)
{
	char	*where = ypos_str(&at->pos);
	int	 r;

	r = inv_group_set_var(g, key, json_incref(value), where, cause);
	free(where);
	return r;
}

static int
parse_vars(struct inv_group *g, const struct ynode *vars, char **cause)
{
	json_t		*all, *merged, *v;
	const char	*key;
	const struct ynode *merge_at = NULL;
	size_t		 i;
	int		 r = 0;

	if (vars->type != YNODE_MAP)
		return 0;	/* a lone string: {name: null}, as Ansible */
	/* merge keys ("<<") and repeated keys as PyYAML resolves them; what
	 * is left after the written keys came from a merge */
	all = ynode_to_json(vars);
	merged = json_copy(all);
	for (i = 0; i < vars->n && r == 0; i++) {
		key = ynode_key(vars, i);
		if (strcmp(key, "<<") == 0) {
			if (merge_at == NULL)
				merge_at = vars->keys[i];
			continue;
		}
		json_object_del(merged, key);
		if (!ynode_key_shadowed(vars, i))
			r = set_var(g, key, json_object_get(all, key),
			    vars->keys[i], cause);
	}
	json_object_foreach(merged, key, v) {
		if (r == 0)
			r = set_var(g, key, v, merge_at, cause);
	}
	json_decref(merged);
	json_decref(all);
	return r;
}

static int
add_host_key(struct inventory *inv, struct inv_group *g,
    const struct ynode *key, const struct ynode *val, char **cause)
{
	json_t		*kj = NULL, *hv = NULL;
	char		*host = NULL, **names = NULL, *why = NULL;
	size_t		 n = 0, i;
	int		 port, parsed, r = -1;

	kj = ynode_to_json(key);
	if (key->type != YNODE_SCALAR || !json_is_string(kj)) {
		ypos_fail(cause, &key->pos, "host name in group '%s' must be a "
		    "string, got %s (quote numbers)", g->name,
		    ynode_type_name(key));
		goto out;
	}
	if (val != NULL && !ynode_is_null(val) && val->type != YNODE_MAP) {
		ypos_fail(cause, &val->pos, "variables of host '%s' must be a "
		    "mapping, got %s", key->value, ynode_type_name(val));
		goto out;
	}
	host = hostrange_parse_address(key->value, &port, &parsed);
	if (hostrange_expand(host, &names, &n, &why) != 0) {
		ypos_fail(cause, &key->pos, "bad host range '%s': %s",
		    key->value, why);
		goto out;
	}
	hv = val != NULL && val->type == YNODE_MAP ? ynode_to_json(val) : NULL;
	for (i = 0; i < n; i++) {
		struct inv_host *h = inv_add_host(inv, names[i], g, port);

		if (hv != NULL)
			json_object_update(h->vars, hv);
	}
	r = 0;
out:
	json_decref(kj);
	json_decref(hv);
	free(why);
	free(host);
	hostrange_free(names, n);
	return r;
}

static int
parse_group(struct inventory *inv, const struct ynode *key,
    const struct ynode *data, struct inv_group **out, char **cause)
{
	struct inv_group	*g;
	const char		*name;
	const struct ynode	*sec;
	size_t			 i, j;
	char			*where;
	int			 r;

	if (key->type != YNODE_SCALAR || key->value[0] == '\0')
		return ypos_fail(cause, &key->pos, "group name must be a "
		    "non-empty string");
	name = key->value;
	if (data != NULL && !ynode_is_null(data) && data->type != YNODE_MAP)
		return ypos_fail(cause, &data->pos, "group '%s' must be a "
		    "mapping, got %s", name, ynode_type_name(data));
	if (!inv_valid_group_name(name)) {
		where = ypos_str(&key->pos);
		inv_warn(inv, "%s: invalid characters in group name '%s' "
		    "(kept as is, as Ansible does)", where, name);
		free(where);
	}
	g = inv_add_group(inv, name);
	if (out != NULL)
		*out = g;
	if (data == NULL || data->type != YNODE_MAP)
		return 0;
	if (check_section(ynode_get(data, "vars"), "vars", name, cause) != 0 ||
	    check_section(ynode_get(data, "children"), "children", name,
	    cause) != 0 ||
	    check_section(ynode_get(data, "hosts"), "hosts", name, cause) != 0)
		return -1;

	for (i = 0; i < data->n; i++) {
		const char *k = ynode_key(data, i);

		sec = data->items[i];
		if (ynode_key_shadowed(data, i))
			continue;	/* the later one wins, as in Ansible */
		if (strcmp(k, "vars") != 0 && strcmp(k, "children") != 0 &&
		    strcmp(k, "hosts") != 0)
			return unknown_key(data->keys[i], name, cause);
		if (ynode_is_null(sec))
			continue;
		if (sec->type == YNODE_SCALAR) {
			/* "hosts: web1" is {web1: null} */
			if (strcmp(k, "vars") == 0) {
				json_object_set_new(g->vars, sec->value,
				    json_null());
				continue;
			}
			if (strcmp(k, "hosts") == 0) {
				if (add_host_key(inv, g, sec, NULL, cause) != 0)
					return -1;
			} else {
				struct inv_group *child;

				if (parse_group(inv, sec, NULL, &child,
				    cause) != 0)
					return -1;
				where = ypos_str(&sec->pos);
				r = inv_add_child(inv, g, child, where, cause);
				free(where);
				if (r != 0)
					return -1;
			}
			continue;
		}
		if (strcmp(k, "vars") == 0) {
			if (parse_vars(g, sec, cause) != 0)
				return -1;
		} else if (strcmp(k, "children") == 0) {
			for (j = 0; j < sec->n; j++) {
				struct inv_group *child;

				if (ynode_key_shadowed(sec, j))
					continue;
				if (parse_group(inv, sec->keys[j], sec->items[j],
				    &child, cause) != 0)
					return -1;
				where = ypos_str(&sec->keys[j]->pos);
				r = inv_add_child(inv, g, child, where, cause);
				free(where);
				if (r != 0)
					return -1;
			}
		} else {
			for (j = 0; j < sec->n; j++) {
				if (ynode_key_shadowed(sec, j))
					continue;
				if (add_host_key(inv, g, sec->keys[j],
				    sec->items[j], cause) != 0)
					return -1;
			}
		}
	}
	return 0;
}

/* PyYAML keeps the last of a repeated key; Ansible says so. */
static void
warn_duplicates(struct inventory *inv, const struct ydoc *doc)
{
	struct ynode *const	*keys;
	size_t			 n, i;
	char			*where;

	keys = ydoc_duplicate_keys(doc, &n);
	for (i = 0; i < n; i++) {
		where = ypos_str(&keys[i]->pos);
		inv_warn(inv, "%s: duplicate key '%s': only the last value "
		    "is used, as in Ansible", where, keys[i]->value);
		free(where);
	}
}

int
inv_load_yaml(struct inventory *inv, const char *path,
    const struct ydoc *doc, char **cause)
{
	const struct ynode	*root = ydoc_root(doc), *plugin;
	size_t			 i;

	(void)path;
	if (root == NULL)
		return 0;	/* Ansible's ini plugin accepts an empty file */
	if (root->type != YNODE_MAP)
		return ypos_fail(cause, &root->pos, "YAML inventory must be a "
		    "mapping of groups, got %s", ynode_type_name(root));
	if ((plugin = ynode_get(root, "plugin")) != NULL &&
	    !ynode_is_null(plugin))
		return ypos_fail(cause, &plugin->pos, "inventory plugin "
		    "configuration files are not supported");
	warn_duplicates(inv, doc);
	for (i = 0; i < root->n; i++) {
		if (ynode_key_shadowed(root, i))
			continue;
		if (parse_group(inv, root->keys[i], root->items[i], NULL,
		    cause) != 0)
			return -1;
	}
	return 0;
}
