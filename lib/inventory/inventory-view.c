/* An inventory shown as `ansible-inventory --list` and `--graph [--vars]`
 * show it: output only; inventory-view.h says what each view holds. */
#include "inventory/inventory-view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inventory/inventory.h"
#include "inventory/pattern.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "template/value.h"

/* ---- ansible-inventory --list ---- */

static char *
selected_set(const struct inventory *inv, const char *limit, char **cause)
{
	char	*sel = xcalloc(inv->nhosts + 1, 1), **hosts;
	size_t	 n, i;

	if (limit == NULL) {
		memset(sel, 1, inv->nhosts);
		return sel;
	}
	if (inventory_select(inv, limit, &hosts, &n, cause) != 0) {
		free(sel);
		return NULL;
	}
	for (i = 0; i < n; i++)
		sel[inventory_host(inv, hosts[i])->index] = 1;
	pattern_hosts_free(hosts, n);
	return sel;
}

/* One group's entry of --list: its selected hosts and its children. */
static void
format_entry(const struct inv_group *g, const char *sel, json_t *out)
{
	json_t	*entry = json_object(), *hosts = json_array();
	json_t	*children = json_array();
	size_t	 i;

	if (strcmp(g->name, "all") != 0) {
		for (i = 0; i < g->nhosts; i++) {
			if (sel[g->hosts[i]->index])
				json_array_append_new(hosts,
				    json_string(g->hosts[i]->name));
		}
	}
	for (i = 0; i < g->nchildren; i++)
		json_array_append_new(children,
		    json_string(g->children[i]->name));
	if (json_array_size(hosts) != 0)
		json_object_set(entry, "hosts", hosts);
	if (json_array_size(children) != 0)
		json_object_set(entry, "children", children);
	if (json_object_size(entry) != 0)
		json_object_set(out, g->name, entry);
	json_decref(entry);
	json_decref(hosts);
	json_decref(children);
}

/* Entries in ansible-inventory's order: depth first from 'all', a group
 * after its children, each group once. An explicit stack, as a chain of
 * groups may be as long as the inventory. */
static void
format_groups(const struct inventory *inv, const char *sel, json_t *out)
{
	struct frame {
		const struct inv_group	*g;
		size_t			 i;
	}			*st;
	const struct inv_group	*g, *c;
	char			*seen;
	size_t			 n = 0;

	st = xcalloc(inv->ngroups + 1, sizeof *st);
	seen = xcalloc(inv->ngroups + 1, 1);
	st[n].g = inv->groups[0];
	st[n++].i = 0;
	while (n > 0) {
		g = st[n - 1].g;
		if (st[n - 1].i == g->nchildren) {
			format_entry(g, sel, out);
			n--;
			continue;
		}
		c = g->children[st[n - 1].i++];
		if (seen[c->index])
			continue;
		seen[c->index] = 1;
		st[n].g = c;
		st[n++].i = 0;
	}
	free(seen);
	free(st);
}

json_t *
inventory_list_json(const struct inventory *inv, const char *limit,
    char **cause)
{
	json_t	*out, *hostvars, *v;
	char	*sel;
	size_t	 i;

	if ((sel = selected_set(inv, limit, cause)) == NULL)
		return NULL;
	out = json_object();
	format_groups(inv, sel, out);
	hostvars = json_object();
	for (i = 0; i < inv->nhosts; i++) {
		if (!sel[i])
			continue;
		v = inventory_host_vars(inv, inv->hosts[i]->name);
		inv_remove_internal_vars(v);
		if (json_object_size(v) != 0)
			json_object_set(hostvars, inv->hosts[i]->name, v);
		json_decref(v);
	}
	json_object_set_new(out, "_meta", json_pack("{s:o}", "hostvars",
	    hostvars));
	free(sel);
	return out;
}

json_t *
inventory_host_json(const struct inventory *inv, const char *host)
{
	json_t	*v;

	if ((v = inventory_host_vars(inv, host)) != NULL)
		inv_remove_internal_vars(v);
	return v;
}

/* ---- ansible-inventory --graph ---- */

static void
graph_name(struct strbuf *sb, const char *name, int depth)
{
	int i;

	for (i = 0; i < depth; i++)
		strbuf_addstr(sb, "  |");
	strbuf_addf(sb, "%s%s\n", depth != 0 ? "--" : "", name);
}

static int
cmp_key(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void
show_vars(struct strbuf *sb, json_t *vars, int depth)
{
	const char	**keys, *k;
	json_t		 *v;
	size_t		  n = 0, i;
	char		 *s, *line;

	keys = xcalloc(json_object_size(vars) + 1, sizeof *keys);
	json_object_foreach(vars, k, v)
		keys[n++] = k;
	qsort(keys, n, sizeof *keys, cmp_key);
	for (i = 0; i < n; i++) {
		s = template_to_text(json_object_get(vars, keys[i]));
		line = xprintf("{%s = %s}", keys[i], s);
		graph_name(sb, line, depth);
		free(line);
		free(s);
	}
	free(keys);
}

static json_t *
group_vars_shown(const struct inventory *inv, const struct inv_group *g)
{
	json_t	*v = json_deep_copy(g->vars);
	size_t	 r;

	for (r = 0; r < inv->nroots; r++) {
		if (!inv->roots[r].play && g->file_vars != NULL &&
		    g->file_vars[r] != NULL)
			json_object_update(v, g->file_vars[r]);
	}
	if (g->priority != 1)
		json_object_set_new(v, "ansible_group_priority",
		    json_integer(g->priority));
	inv_remove_internal_vars(v);
	return v;
}

/* 1 once the text is over the cap: a group reached by many paths is printed
 * once per path (as Ansible does), so diamonds grow the text exponentially
 * and a chain quadratically. The cap also bounds the recursion, as each
 * level adds at least three bytes per level above it. */
static int
graph_too_big(const struct strbuf *sb)
{
	return sb->len > INV_GRAPH_MAX_BYTES;
}

static void
graph_group(const struct inventory *inv, const struct inv_group *g,
    int depth, int show, const char *sel, struct strbuf *sb)
{
	char	*title;
	json_t	*v;
	size_t	 i;

	if (graph_too_big(sb))
		return;
	title = xprintf("@%s:", g->name);
	graph_name(sb, title, depth);
	free(title);
	for (i = 0; i < g->nchildren && !graph_too_big(sb); i++)
		graph_group(inv, g->children[i], depth + 1, show, sel, sb);
	if (strcmp(g->name, "all") != 0) {
		for (i = 0; i < g->nhosts && !graph_too_big(sb); i++) {
			if (!sel[g->hosts[i]->index])
				continue;
			graph_name(sb, g->hosts[i]->name, depth + 1);
			if (show) {
				v = inventory_host_vars(inv,
				    g->hosts[i]->name);
				inv_remove_internal_vars(v);
				show_vars(sb, v, depth + 2);
				json_decref(v);
			}
		}
	}
	if (show) {
		v = group_vars_shown(inv, g);
		show_vars(sb, v, depth + 1);
		json_decref(v);
	}
}

char *
inventory_graph(const struct inventory *inv, const char *group, int show_vars,
    const char *limit, char **cause)
{
	const struct inv_group	*g;
	struct strbuf		 sb;
	char			*sel;

	if ((g = inventory_group(inv, group != NULL ? group : "all")) == NULL) {
		fail(cause, "--graph needs a group name, '%s' is not one",
		    group);
		return NULL;
	}
	if ((sel = selected_set(inv, limit, cause)) == NULL)
		return NULL;
	strbuf_init(&sb);
	graph_group(inv, g, 0, show_vars, sel, &sb);
	free(sel);
	if (graph_too_big(&sb)) {
		strbuf_release(&sb);
		fail(cause, "--graph of '%s' is over %d MiB (groups reached by "
		    "many paths are printed once per path)", g->name,
		    INV_GRAPH_MAX_BYTES >> 20);
		return NULL;
	}
	return strbuf_detach(&sb, NULL);
}
