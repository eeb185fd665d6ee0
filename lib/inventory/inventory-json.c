/* The dynamic-inventory `--list` JSON shape read into an inventory (what
 * inventory scripts print and URLs serve), after ansible's script inventory
 * plugin. The views that print an inventory in ansible-inventory's shapes
 * are in inventory-view.c. */
#include "inventory/inventory.h"

#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

static int
list_group(struct inventory *inv, const char *name, json_t *data,
    const char *origin, json_t *seen_hosts, char **cause)
{
	struct inv_group	*g = inv_add_group(inv, name), *child;
	json_t			*hosts, *vars, *children, *v;
	const char		*k;
	size_t			 i;
	char			*where;
	int			 owned = 0, r = -1;

	if (!json_is_object(data)) {
		/* a plain list of hosts */
		v = json_object();
		json_object_set(v, "hosts", data);
		data = v;
		owned = 1;
	} else if (json_object_get(data, "hosts") == NULL &&
	    json_object_get(data, "vars") == NULL &&
	    json_object_get(data, "children") == NULL) {
		/* {"var": 1}: a host named like the group, with vars */
		v = json_pack("{s:[s],s:O}", "hosts", name, "vars", data);
		data = v;
		owned = 1;
	}
	if ((hosts = json_object_get(data, "hosts")) != NULL) {
		if (!json_is_array(hosts)) {
			fail(cause, "%s: group '%s': 'hosts' must be a list",
			    origin, name);
			goto out;
		}
		json_array_foreach(hosts, i, v) {
			if (!json_is_string(v)) {
				fail(cause, "%s: group '%s': host names must be "
				    "strings", origin, name);
				goto out;
			}
			inv_add_host(inv, json_string_value(v), g, -1);
			json_object_set_new(seen_hosts, json_string_value(v),
			    json_true());
		}
	}
	if ((vars = json_object_get(data, "vars")) != NULL) {
		if (!json_is_object(vars)) {
			fail(cause, "%s: group '%s': 'vars' must be an object",
			    origin, name);
			goto out;
		}
		json_object_foreach(vars, k, v) {
			if (inv_group_set_var(g, k, json_deep_copy(v), origin,
			    cause) != 0)
				goto out;
		}
	}
	if ((children = json_object_get(data, "children")) != NULL) {
		if (!json_is_array(children)) {
			fail(cause, "%s: group '%s': 'children' must be a list",
			    origin, name);
			goto out;
		}
		json_array_foreach(children, i, v) {
			if (!json_is_string(v)) {
				fail(cause, "%s: group '%s': child group names "
				    "must be strings", origin, name);
				goto out;
			}
			child = inv_add_group(inv, json_string_value(v));
			where = xstrdup(origin);
			r = inv_add_child(inv, g, child, where, cause);
			free(where);
			if (r != 0)
				goto out;
			r = -1;
		}
	}
	r = 0;
out:
	if (owned)
		json_decref(data);
	return r;
}

int
inventory_add_list_json(struct inventory *inv, const json_t *list,
    const char *origin, char **cause)
{
	json_t		*seen = json_object(), *meta, *hostvars = NULL, *hv;
	const char	*name;
	json_t		*data;
	int		 r = -1;

	if (!json_is_object(list)) {
		fail(cause, "%s: dynamic inventory must be a JSON object",
		    origin);
		goto out;
	}
	json_object_foreach((json_t *)list, name, data) {
		if (strcmp(name, "_meta") == 0) {
			meta = data;
			if (!json_is_object(meta)) {
				fail(cause, "%s: '_meta' must be an object",
				    origin);
				goto out;
			}
			hostvars = json_object_get(meta, "hostvars");
			if (hostvars != NULL && !json_is_object(hostvars)) {
				fail(cause, "%s: '_meta.hostvars' must be an "
				    "object", origin);
				goto out;
			}
			continue;
		}
		if (list_group(inv, name, data, origin, seen, cause) != 0)
			goto out;
	}
	json_object_foreach(seen, name, data) {
		if (hostvars == NULL ||
		    (hv = json_object_get(hostvars, name)) == NULL)
			continue;
		if (!json_is_object(hv)) {
			fail(cause, "%s: variables of host '%s' must be an "
			    "object", origin, name);
			goto out;
		}
		json_object_update(inventory_host(inv, name)->vars, hv);
	}
	r = 0;
out:
	json_decref(seen);
	return r;
}
