/* include_vars: variables from a YAML or JSON file (or every such file
 * of a directory) for the host from the next task on, below set_fact and
 * registered results, as Ansible's include_vars (read on the controller;
 * nothing runs on the host). A relative file is looked for as Ansible's
 * _find_needle('vars') does (modules/actions.h). */
#include "playbook/module.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "modules/actions.h"

struct include_vars_conf {
	struct module_conf	 hdr;
	const char		*file;
	const char		*dir;
	const char		*name;
};
#define AT(f)	offsetof(struct include_vars_conf, f)

static const struct module_param include_vars_params[] = {
	{ .name = "file", .type = PARAM_STR, .offset = AT(file),
	  .help = "the file (relative: the role's vars/, the role, the "
	  "playbook's vars/, the playbook's directory)" },
	{ .name = "dir", .type = PARAM_STR, .offset = AT(dir),
	  .help = "every *.yml, *.yaml and *.json file of it, by name (not "
	  "recursing)" },
	{ .name = "name", .type = PARAM_STR, .offset = AT(name),
	  .help = "put the variables under this one variable" },
	{ .name = NULL },
};

static int
include_vars_validate(const void *vconf, char **cause)
{
	const struct include_vars_conf *conf = vconf;

	if ((conf->file == NULL) == (conf->dir == NULL)) {
		*cause = xstrdup("give one of 'file' and 'dir'");
		return -1;
	}
	return 0;
}

/* The files to read, a new array, or NULL with *cause. */
static json_t *
vars_files(struct module_ctx *ctx, const struct include_vars_conf *conf,
    char **cause)
{
	const char	*role = json_string_value(json_object_get(
			    module_ctx_vars(ctx), "role_path"));
	const char	*pb = module_ctx_playbook_path(ctx), *slash;
	const char	*want = conf->file != NULL ? conf->file : conf->dir;
	char		*pbdir = NULL, *found;
	json_t		*files = NULL;

	if (pb != NULL && (slash = strrchr(pb, '/')) != NULL)
		pbdir = xstrndup(pb, (size_t)(slash - pb));
	else if (pb != NULL)
		pbdir = xstrdup(".");
	found = action_find_vars(want, role, pbdir, conf->dir != NULL);
	if (found != NULL && conf->file != NULL)
		files = json_pack("[s]", found);
	else if (found != NULL)
		files = action_vars_dir(found, cause);
	else
		*cause = xprintf("Could not find or access '%s'", want);
	free(found);
	free(pbdir);
	return files;
}

static int
include_vars_run(struct module_ctx *ctx, const void *vconf,
    struct module_result *res)
{
	const struct include_vars_conf	*conf = vconf;
	json_t				*files, *vars, *one, *f;
	char				*cause = NULL;
	size_t				 i;

	if ((files = vars_files(ctx, conf, &cause)) == NULL) {
		res->status = RESULT_FAILED;
		res->msg = cause;
		return 0;
	}
	vars = json_object();
	json_array_foreach(files, i, f) {
		if ((one = action_read_vars(json_string_value(f), &cause)) ==
		    NULL) {
			res->status = RESULT_FAILED;
			res->msg = cause;
			json_decref(vars);
			json_decref(files);
			return 0;
		}
		json_object_update(vars, one);
		json_decref(one);
	}
	if (conf->name != NULL)
		vars = json_pack("{s:o}", conf->name, vars);
	module_ctx_include_vars(ctx, vars);
	res->status = RESULT_OK;
	res->data = json_pack("{s:o, s:o}", "ansible_facts", vars,
	    "ansible_included_var_files", files);
	return 0;
}

static const char *const include_vars_aliases[] = {
	"ansible.builtin.include_vars", "ansible.legacy.include_vars", NULL };

const struct module mod_include_vars = {
	.name = "include_vars",
	.aliases = include_vars_aliases,
	.summary = "read variables from a file or a directory (on the "
	    "controller)",
	.params = include_vars_params,
	.conf_size = sizeof(struct include_vars_conf),
	.validate = include_vars_validate,
	.run = include_vars_run,
	.check_safe = 1,
	.free_form = "file",
	.search_subdir = "vars",
};
