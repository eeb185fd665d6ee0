/*
 * A role's argument spec (meta/argument_specs.yml, or argument_specs in
 * meta/main.yml) becomes the task Ansible puts first in the role
 * (playbook/role/__init__.py _prepend_validation_task): "Validating
 * arguments against arg spec 'ENTRY' - SHORT_DESCRIPTION", module
 * ansible.builtin.validate_argument_spec with the entry point's options,
 * the role's params and its context, tagged always. The task is written
 * as YAML (JSON) text and loaded as the role's own tasks are, so that it
 * inherits the role's when, tags and vars; errors in it name the spec's
 * file.
 */
#include "playbook/loader.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "base/xalloc.h"
#include "playbook/nodes.h"
#include "playbook/playbook.h"
#include "yaml/ydoc.h"

/* The spec's file and its argument_specs mapping, or NULL: the
 * argument_specs file when there is one (Role._load_argument_specs), else
 * meta/main's key. */
static const struct ynode *
spec_root(struct loader *ld, const struct role *r, char **file)
{
	static const char *const names[] = { "meta/argument_specs.yml",
	    "meta/argument_specs.yaml", "meta/main.yml", "meta/main.yaml",
	    NULL };
	const struct ynode	*root, *specs;
	size_t			 i;

	for (i = 0; names[i] != NULL; i++) {
		*file = xprintf("%s/%s", r->path, names[i]);
		if (!path_is_file(*file)) {
			free(*file);
			*file = NULL;
			continue;
		}
		if ((root = loader_read(ld, *file, &r->pos)) != NULL &&
		    root->type == YNODE_MAP &&
		    (specs = ynode_get(root, "argument_specs")) != NULL &&
		    specs->type == YNODE_MAP)
			return specs;
		/* the first file there is the one read */
		free(*file);
		*file = NULL;
		return NULL;
	}
	return NULL;
}

void
role_argspec_task(struct loader *ld, const struct role *r, const char *entry,
    const struct scope *sc)
{
	const struct ynode	*specs, *spec, *desc, *opts;
	struct ydoc		*doc;
	json_t			*task, *args, *ctx;
	char			*file = NULL, *name, *text, *cause = NULL, *path;
	const struct ynode	*root;

	if ((specs = spec_root(ld, r, &file)) == NULL)
		return;
	if ((spec = ynode_get(specs, entry)) == NULL ||
	    spec->type != YNODE_MAP || spec->n == 0) {
		free(file);
		return;
	}
	desc = ynode_get(spec, "short_description");
	name = desc != NULL && desc->type == YNODE_SCALAR ?
	    xprintf("Validating arguments against arg spec '%s' - %s", entry,
	    desc->value) :
	    xprintf("Validating arguments against arg spec '%s'", entry);
	opts = ynode_get(spec, "options");
	/* the role's path as Ansible's, absolute */
	if ((path = path_absolute(r->path)) == NULL)
		path = xstrdup(r->path);
	ctx = json_pack("{s:s, s:s, s:s, s:s}", "type", "role", "name",
	    r->name, "argument_spec_name", entry, "path", path);
	free(path);
	args = json_pack("{s:o, s:O, s:o}", "argument_spec",
	    opts != NULL && opts->type == YNODE_MAP ? ynode_to_json(opts) :
	    json_object(), "provided_arguments", r->params != NULL ?
	    r->params : json_object(), "validate_args_context", ctx);
	task = json_pack("[{s:s, s:o, s:[s]}]", "name", name,
	    "ansible.builtin.validate_argument_spec", args, "tags", "always");
	text = json_dumps(task, JSON_COMPACT);
	json_decref(task);
	free(name);
	if ((doc = ydoc_load_buffer(file, text, strlen(text), &cause)) == NULL)
		diag_take(ld->d, cause);
	else if ((root = keep_doc(ld, doc)) != NULL)
		tree_load_list(ld, root, sc, "tasks");
	free(text);
	free(file);
}
