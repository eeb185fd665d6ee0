/* set_fact: variables of the host from the next task on, at the level of
 * registered results (above include_vars, below role params and -e), as
 * Ansible's set_fact (nothing runs on the host). Any key but cacheable is
 * a fact; cacheable is accepted (tcptune keeps no fact cache). */
#include "playbook/module.h"

#include <stddef.h>

#include "base/xalloc.h"
#include "playbook/playbook.h"

struct set_fact_conf {
	struct module_conf	 hdr;
	const json_t		*facts;
	int			 cacheable;
};
#define AT(f)	offsetof(struct set_fact_conf, f)

static const struct module_param set_fact_params[] = {
	{ .name = "*", .type = PARAM_MAP, .offset = AT(facts),
	  .help = "every other key: a variable to set (any value)" },
	{ .name = "cacheable", .type = PARAM_BOOL, .offset = AT(cacheable),
	  .def = "false", .help = "accepted; tcptune keeps no fact cache" },
	{ .name = NULL },
};

static int
set_fact_run(struct module_ctx *ctx, const void *vconf,
    struct module_result *res)
{
	const struct set_fact_conf	*conf = vconf;
	const char			*key;
	json_t				*v;

	json_object_foreach((json_t *)conf->facts, key, v)
		module_ctx_set_fact(ctx, key, json_deep_copy(v));
	res->status = RESULT_OK;
	res->data = json_pack("{s:O}", "ansible_facts", conf->facts != NULL ?
	    conf->facts : json_object());
	return 0;
}

static int
set_fact_validate(const void *vconf, char **cause)
{
	const struct set_fact_conf	*conf = vconf;
	const char			*key;
	json_t				*v;

	json_object_foreach((json_t *)conf->facts, key, v) {
		if (playbook_reserved_var(key)) {
			*cause = xprintf("'%s' is a name tcptune sets; it "
			    "cannot be a fact", key);
			return -1;
		}
	}
	if (json_object_size(conf->facts) == 0) {
		*cause = xstrdup("no key/value pairs provided, at least "
		    "one is required for this action to succeed");
		return -1;
	}
	return 0;
}

static const char *const set_fact_aliases[] = { "ansible.builtin.set_fact",
	"ansible.legacy.set_fact", NULL };

const struct module mod_set_fact = {
	.name = "set_fact",
	.aliases = set_fact_aliases,
	.summary = "set variables of the host (no host work)",
	.params = set_fact_params,
	.conf_size = sizeof(struct set_fact_conf),
	.validate = set_fact_validate,
	.run = set_fact_run,
	.check_safe = 1,
	.kv_free_form = 1,
	.rest = "*",
};
