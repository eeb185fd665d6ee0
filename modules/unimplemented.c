/* Tasks calling an Ansible module tcptune does not implement (see
 * modules/unimplemented.h): the names, and the module such a task runs,
 * which fails. */
#include "modules/unimplemented.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "modules/actions.h"

static int
cmp_name(const void *key, const void *elem)
{
	return strcmp(key, *(const char *const *)elem);
}

static int
has_module(const struct ansible_collection *c, const char *name)
{
	size_t n;

	for (n = 0; c->modules[n] != NULL; n++)
		;
	return bsearch(name, c->modules, n, sizeof *c->modules,
	    cmp_name) != NULL;
}

char *
module_unimplemented_fqcn(const char *key)
{
	const struct ansible_collection	*c;
	const char			*name;
	size_t				 len;

	/* ns.coll.name of a collection known here, ansible.legacy being
	 * ansible.builtin */
	for (c = ansible_collections; c->name != NULL; c++) {
		len = strlen(c->name);
		if (strncmp(key, c->name, len) == 0 && key[len] == '.' &&
		    has_module(c, key + len + 1))
			return xstrdup(key);
	}
	if (strncmp(key, "ansible.legacy.", 15) == 0 &&
	    has_module(&ansible_collections[0], key + 15))
		return xprintf("ansible.builtin.%s", key + 15);
	if (strchr(key, '.') != NULL)
		return NULL;
	/* a short name: ansible-core's own, else the collection Ansible
	 * 2.10 moved it to (ansible_builtin_runtime.yml routes it there) */
	name = key;
	for (c = ansible_collections; c->name != NULL; c++) {
		if (has_module(c, name))
			return xprintf("%s.%s", c->name, name);
	}
	return NULL;
}

struct unimplemented_conf {
	struct module_conf	 hdr;
	const char		*module;
};
#define AT(f)	offsetof(struct unimplemented_conf, f)

static const struct module_param unimplemented_params[] = {
	{ .name = "module", .type = PARAM_STR, .offset = AT(module),
	  .required = 1, .help = "the Ansible module the task calls" },
	{ .name = NULL },
};

/* Fails wherever it runs, check mode included: tcptune cannot say what
 * the module would do. */
static int
unimplemented_run(struct module_ctx *ctx, const void *vconf,
    struct module_result *res)
{
	const struct unimplemented_conf	*conf = vconf;
	json_t				*out;
	char				*msg;

	(void)ctx;
	msg = xprintf("module '%s' is not implemented by tcptune "
	    "(docs/modules.md)", conf->module);
	out = json_pack("{s:b, s:s}", "changed", 0, "msg", msg);
	free(msg);
	res->status = RESULT_FAILED;
	res->msg = action_show(out, 0);
	res->data = out;
	return 0;
}

/* Not in module_table: no task names it; the loader gives it to a task
 * whose module module_unimplemented_fqcn knows. */
const struct module mod_unimplemented = {
	.name = "tcptune.unimplemented",
	.summary = "an Ansible module tcptune does not implement (fails)",
	.params = unimplemented_params,
	.conf_size = sizeof(struct unimplemented_conf),
	.run = unimplemented_run,
	.check_safe = 1,
};
