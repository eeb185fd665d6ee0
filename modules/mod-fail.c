/* fail: fail the host with a message, as Ansible's fail action (nothing
 * runs on the host). */
#include "playbook/module.h"

#include <stddef.h>

#include "modules/actions.h"

struct fail_conf {
	struct module_conf	 hdr;
	const json_t		*msg;
};
#define AT(f)	offsetof(struct fail_conf, f)

static const struct module_param fail_params[] = {
	{ .name = "msg", .type = PARAM_ANY, .offset = AT(msg),
	  .def = "Failed as requested from task", .help = "the message" },
	{ .name = NULL },
};

static int
fail_run(struct module_ctx *ctx, const void *vconf, struct module_result *res)
{
	const struct fail_conf	*conf = vconf;
	json_t			*out;

	(void)ctx;
	out = json_pack("{s:b, s:O}", "changed", 0, "msg", conf->msg);
	res->status = RESULT_FAILED;
	res->msg = action_show(out, 0);
	res->data = out;
	return 0;
}

static const char *const fail_aliases[] = { "ansible.builtin.fail",
	"ansible.legacy.fail", NULL };

const struct module mod_fail = {
	.name = "fail",
	.aliases = fail_aliases,
	.summary = "fail the host with a message (no host work)",
	.params = fail_params,
	.conf_size = sizeof(struct fail_conf),
	.run = fail_run,
	.check_safe = 1,
	.kv_free_form = 1,
};
