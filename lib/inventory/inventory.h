/* Ansible-compatible inventories: YAML and INI files, directories of them,
 * inline host lists ("a,b,"), the dynamic-inventory --list JSON shape,
 * group_vars/ and host_vars/, and the variable precedence Ansible applies.
 *
 * Life cycle: inventory_new, inventory_add_source (any number, in -i order),
 * inventory_finish (links ungrouped hosts and top-level groups under 'all',
 * computes depths, loads group_vars/ and host_vars/), then queries, then
 * inventory_free. Queries before inventory_finish are not supported.
 *
 * Every function that can fail returns -1 (or NULL) and sets *cause to an
 * allocated message naming "file:line:col" (YAML) or "file:line" (INI).
 *
 * Where we differ from ansible-core 2.14 on purpose: things Ansible skips
 * with a warning (unknown keys in a YAML group, a group or section of the
 * wrong type, a source that does not exist or cannot be parsed) are errors
 * here. Executable inventory scripts are run with --list only when they
 * start with "#!" or are ELF binaries (lib/inventory/inventory-dynamic.h). */
#ifndef TCPTUNE_INVENTORY_H
#define TCPTUNE_INVENTORY_H

#include <jansson.h>
#include <stddef.h>

struct inv_group;

struct inv_host {
	char			 *name;
	json_t			 *vars;		/* set in the inventory source */
	struct inv_group	**groups;	/* direct groups, in order added */
	size_t			  ngroups;
	size_t			  index;	/* position in inventory order */
	json_t			**file_vars;	/* host_vars/ per vars root */
};

struct inv_group {
	char			 *name;
	json_t			 *vars;		/* set in the inventory source */
	int			  priority;	/* ansible_group_priority */
	int			  depth;	/* longest path from 'all' */
	struct inv_group	**children;	/* in order added */
	size_t			  nchildren;
	struct inv_group	**parents;
	size_t			  nparents;
	struct inv_host		**hosts;	/* direct members, in order */
	size_t			  nhosts;
	size_t			  index;
	json_t			**file_vars;	/* group_vars/ per vars root */
	unsigned long long	  seen[2];	/* cycle search stamps */
};

struct inv_root {
	char	*dir;		/* holds group_vars/ and host_vars/ */
	int	 play;		/* play-adjacent: applied after inventory roots */
};

struct inventory {
	struct inv_group	**groups;	/* creation order; [0] all, [1] ungrouped */
	size_t			  ngroups;
	struct inv_host		**hosts;	/* creation order = inventory order */
	size_t			  nhosts;
	json_t			 *group_index;	/* name -> index */
	json_t			 *host_index;
	struct inv_root		 *roots;
	size_t			  nroots;
	char			**warnings;	/* things Ansible only warns about */
	size_t			  nwarnings;
	int			  finished;
	unsigned long long	  search;	/* last cycle search stamp */
	int			  no_scripts;	/* leave executable sources
						   out, in directories too
						   (shell completion: Tab
						   runs nothing) */
};

/* What tcptune needs to reach a host, from its merged variables. */
struct host_conn {
	char	*address;	/* ansible_host, else the inventory name */
	int	 port;		/* ansible_port (ansible_ssh_port), 0 if unset */
	char	*user;		/* ansible_user (ansible_ssh_user), or NULL */
	char	*key_file;	/* ansible_ssh_private_key_file, or NULL */
	int	 become;	/* ansible_become, -1 if unset */
	char	*become_user;	/* ansible_become_user, or NULL */
	char	*become_password; /* ansible_sudo_pass, else ansible_become_pass,
				   else ansible_become_password (the order
				   of Ansible's sudo plugin), or NULL; a
				   secret: host_conn_clear wipes it */
	char	*proxy_jump;	/* tcptune_proxy_jump, else "-o ProxyJump=X"
				   or "-J X" in ansible_ssh_common_args /
				   ansible_ssh_extra_args, or NULL */
	int	 local;		/* ansible_connection: local (commands run on
				   the controller); any other value than
				   ssh, smart, paramiko or local is refused */
};

struct inventory	*inventory_new(void);
void			 inventory_free(struct inventory *inv);

/* A YAML or INI file, an executable inventory script, a directory of
 * inventory files (read in name order, recursively; hidden files,
 * group_vars/, host_vars/ and *.ini, *.cfg, *.md, *.txt, *~ ... skipped as
 * Ansible does), an http:// or https:// URL of a dynamic inventory, or an
 * inline list containing a comma that is not an existing path
 * ("web1,web2:2222,"). Scripts and URLs: lib/inventory/inventory-dynamic.h. */
int	inventory_add_source(struct inventory *inv, const char *source,
	    char **cause);
/* The dynamic inventory `--list` shape: {"group": {"hosts": [...],
 * "vars": {...}, "children": [...]}, "group2": ["h1", "h2"],
 * "_meta": {"hostvars": {"h1": {...}}}}. origin names the source in
 * messages (a URL or script path). Host vars come only from _meta. */
int	inventory_add_list_json(struct inventory *inv, const json_t *list,
	    const char *origin, char **cause);
/* Another directory holding group_vars/ and host_vars/ (next to the
 * playbook). Its files override inventory-adjacent ones, as in Ansible.
 * May be called before or after inventory_finish. */
int	inventory_add_vars_root(struct inventory *inv, const char *dir,
	    char **cause);
int	inventory_finish(struct inventory *inv, char **cause);

/* Lookups (NULL when unknown). */
struct inv_host		*inventory_host(const struct inventory *inv,
			    const char *name);
struct inv_group	*inventory_group(const struct inventory *inv,
			    const char *name);

/* Merged variables of one host with Ansible's precedence (new reference),
 * NULL if the host is unknown:
 *   'all' inventory vars < other groups' inventory vars (sorted by depth,
 *   then ansible_group_priority, then name) < group_vars/all files <
 *   group_vars/<group> files (same order) < host inventory vars <
 *   host_vars/<host> files; play-adjacent roots after inventory ones. */
json_t	*inventory_host_vars(const struct inventory *inv, const char *host);
/* Every group the host belongs to, directly or through children, 'all'
 * included, sorted by name (Ansible's group_names plus 'all'). The array
 * is allocated, the strings are the inventory's. */
int	 inventory_host_groups(const struct inventory *inv, const char *host,
	    const char ***groups, size_t *n);
/* Hosts of a group and its descendants, inventory order (allocated array
 * of borrowed names). -1 if the group is unknown. */
int	 inventory_group_hosts(const struct inventory *inv, const char *group,
	    const char ***hosts, size_t *n);

/* How to reach the host: its connection variables (ansible_host,
 * ansible_port, ansible_user, ansible_become...) from its merged vars
 * with extra (NULL: none; the command line's -e) laid over them, as in
 * Ansible, where extra vars beat the inventory's. */
int	 inventory_host_conn(const struct inventory *inv, const char *host,
	    const json_t *extra, struct host_conn *out, char **cause);
void	 host_conn_clear(struct host_conn *c);

/* --- internal: shared by lib/inventory*.c --- */
struct ypos;
struct ydoc;
struct inv_group	*inv_add_group(struct inventory *inv, const char *name);
struct inv_host		*inv_add_host(struct inventory *inv, const char *name,
			    struct inv_group *group, int port);
/* Link child under parent; fails on a cycle, naming where. */
int	inv_add_child(struct inventory *inv, struct inv_group *parent,
	    struct inv_group *child, const char *where, char **cause);
/* Set a group variable the way Ansible's Group.set_variable does
 * (ansible_group_priority sets the priority). Steals value. */
int	inv_group_set_var(struct inv_group *g, const char *key, json_t *value,
	    const char *where, char **cause);
/* Room for element n of an array that grows one element at a time: doubles
 * when n is a power of two (so no capacity to keep), as growing by one copies
 * the whole array under some allocators (ASan's always). */
void	*inv_grow(void *array, size_t n, size_t size);
void	inv_warn(struct inventory *inv, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
/* Ansible's INVALID_VARIABLE_NAMES test for group names. */
int	inv_valid_group_name(const char *name);
int	inv_load_yaml(struct inventory *inv, const char *path,
	    const struct ydoc *doc, char **cause);
int	inv_load_ini(struct inventory *inv, const char *path, char **cause);
int	inv_load_ini_buffer(struct inventory *inv, const char *path,
	    const char *buf, size_t len, char **cause);
/* Dynamic sources (inventory-dynamic.c): path is an executable regular
 * file that starts with "#!" or "\177ELF"; run it, or fetch url, and load
 * the JSON it gives. */
int	inventory_source_is_script(const char *path);
int	inventory_add_script(struct inventory *inv, const char *path,
	    char **cause);
int	inventory_add_url(struct inventory *inv, const char *url,
	    char **cause);
/* group_vars/ and host_vars/ of root r for every group and host. */
int	inv_load_root_vars(struct inventory *inv, size_t r, char **cause);
/* Remove the variables ansible-inventory never shows. */
void	inv_remove_internal_vars(json_t *vars);

#endif
