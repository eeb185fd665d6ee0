/* debug: show a message or a variable's value, as Ansible's debug action
 * (nothing runs on the host), and printed as ansible-playbook prints it:
 * `ok: [h] => {` then the value indented. */
#include "playbook/module.h"

#include <stddef.h>
#include <stdlib.h>

#include "base/xalloc.h"
#include "modules/actions.h"

struct debug_conf {
	struct module_conf	 hdr;
	const json_t		*msg;
	const char		*var;
	long long		 verbosity;
};
#define AT(f)	offsetof(struct debug_conf, f)

static const struct module_param debug_params[] = {
	{ .name = "msg", .type = PARAM_ANY, .offset = AT(msg),
	  .help = "the message (any value; default 'Hello world!')" },
	{ .name = "var", .type = PARAM_STR, .offset = AT(var),
	  .help = "a variable or expression whose value to show" },
	{ .name = "verbosity", .type = PARAM_INT, .offset = AT(verbosity),
	  .def = "0", .min = 0, .max = 9,
	  .help = "shown only with at least this many -v (else skipped)" },
	{ .name = NULL },
};

static int
debug_validate(const void *vconf, char **cause)
{
	const struct debug_conf *conf = vconf;

	if (module_conf_given(debug_params, conf, AT(msg)) &&
	    module_conf_given(debug_params, conf, AT(var))) {
		*cause = xstrdup("'msg' and 'var' are incompatible options");
		return -1;
	}
	return 0;
}

static int
debug_run(struct module_ctx *ctx, const void *vconf,
    struct module_result *res)
{
	const struct debug_conf	*conf = vconf;
	json_t			*shown = json_object();

	if (conf->verbosity > module_ctx_verbosity(ctx)) {
		res->status = RESULT_SKIPPED;
		json_decref(shown);
		return 0;
	}
	if (conf->var != NULL)
		json_object_set_new(shown, conf->var,
		    action_debug_var(conf->var, module_ctx_vars(ctx)));
	else if (conf->msg != NULL)
		json_object_set_new(shown, "msg", json_deep_copy(conf->msg));
	else
		json_object_set_new(shown, "msg", json_string("Hello world!"));
	res->status = RESULT_OK;
	res->msg = action_show(shown, 1);
	res->verbose = 1;
	res->data = shown;
	return 0;
}

static const char *const debug_aliases[] = { "ansible.builtin.debug",
	"ansible.legacy.debug", NULL };

const struct module mod_debug = {
	.name = "debug",
	.aliases = debug_aliases,
	.summary = "show a message or a variable (no host work)",
	.params = debug_params,
	.conf_size = sizeof(struct debug_conf),
	.validate = debug_validate,
	.run = debug_run,
	.check_safe = 1,
	.kv_free_form = 1,
};
