/* An inventory in the output shapes of ansible-inventory (`tcptune
 * inventory --list` and `--graph`): views only, the inventory is read by
 * inventory.h. */
#ifndef TCPTUNE_INVENTORY_VIEW_H
#define TCPTUNE_INVENTORY_VIEW_H

#include <jansson.h>

struct inventory;
struct strbuf;

/* --list: groups and _meta.hostvars, new reference. limit may be NULL; with a
 * limit, group host lists and _meta.hostvars keep only selected hosts. */
json_t	*inventory_list_json(const struct inventory *inv, const char *limit,
	    char **cause);
/* --host NAME: the host's merged variables (inventory_host_vars) without
 * those ansible-inventory never shows; new reference, NULL if the host is
 * unknown. */
json_t	*inventory_host_json(const struct inventory *inv, const char *host);
/* --graph [group] [--vars]: the text, newline-terminated lines. A group
 * is printed once per path to it, as Ansible does; past
 * INV_GRAPH_MAX_BYTES of text (diamond-shaped children) it is an error. */
#define INV_GRAPH_MAX_BYTES	(64 << 20)
char	*inventory_graph(const struct inventory *inv, const char *group,
	    int show_vars, const char *limit, char **cause);


#endif
