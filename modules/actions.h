/* What Ansible's action plugins that do no host work compute (debug,
 * assert, fail, set_fact, include_vars: modules/mod-<name>.c), as pure
 * functions, so that each is tested on its own (tests/unit/test-actions.c):
 * a result as ansible-playbook 2.14's default callback prints it, assert's
 * conditions, debug's var, include_vars' files. */
#ifndef TCPTUNE_ACTIONS_H
#define TCPTUNE_ACTIONS_H

#include <jansson.h>

/* A result as the default callback's _dump_results prints it: Python's
 * json.dumps with sorted keys, indent 4 when pretty (a result with
 * _ansible_verbose_always), else on one line with ", " and ": ". */
char	*action_show(const json_t *result, int pretty);

/* assert's `that` (a string or a list of them) over vars: 1 when every
 * condition holds, 0 with *failed the first that does not (borrowed from
 * that), -1 with *cause. */
int	 action_assert(const json_t *that, const json_t *vars,
	    const char **failed, char **cause);

/* debug's var: the value of expression expr (a new reference), or the
 * string Ansible shows for an undefined one. */
json_t	*action_debug_var(const char *expr, const json_t *vars);

/* include_vars: where file is looked for, Ansible's _find_needle('vars'):
 * role_path/vars, role_path, the playbook's vars/, the playbook's
 * directory (role_path or playbook_dir NULL: not looked in). Returns the
 * first that exists (allocated), or NULL. */
char	*action_find_vars(const char *file, const char *role_path,
	    const char *playbook_dir, int want_dir);
/* The variables of a YAML (or JSON) file, a mapping: a new object, or
 * NULL with *cause. */
json_t	*action_read_vars(const char *path, char **cause);
/* The files of dir that include_vars reads (*.yml, *.yaml, *.json, sorted
 * by name, not recursing): a new array of paths, or NULL with *cause (a
 * file of another name is an error, as Ansible's "does not have a valid
 * extension"; hidden files are left out). */
json_t	*action_vars_dir(const char *dir, char **cause);

#endif
