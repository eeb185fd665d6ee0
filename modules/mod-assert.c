/* assert: conditions over the host's vars, as Ansible's assert action
 * (nothing runs on the host): ok with success_msg, or failed naming the
 * first condition that does not hold. */
#include "playbook/module.h"

#include <stddef.h>
#include <stdlib.h>

#include "base/xalloc.h"
#include "modules/actions.h"

struct assert_conf {
	struct module_conf	 hdr;
	const json_t		*that;
	const json_t		*fail_msg;
	const json_t		*msg;
	const json_t		*success_msg;
	int			 quiet;
};
#define AT(f)	offsetof(struct assert_conf, f)

static const struct module_param assert_params[] = {
	{ .name = "that", .type = PARAM_ANY, .offset = AT(that),
	  .required = 1, .help = "a condition, or a list that must all hold" },
	{ .name = "fail_msg", .type = PARAM_ANY, .offset = AT(fail_msg),
	  .help = "the message when one fails (default 'Assertion failed')" },
	{ .name = "msg", .type = PARAM_ANY, .offset = AT(msg),
	  .help = "the same as fail_msg (fail_msg wins)" },
	{ .name = "success_msg", .type = PARAM_ANY, .offset = AT(success_msg),
	  .help = "the message when all hold (default 'All assertions "
	  "passed')" },
	{ .name = "quiet", .type = PARAM_BOOL, .offset = AT(quiet),
	  .def = "false", .help = "print no result when all hold" },
	{ .name = NULL },
};

static int
assert_run(struct module_ctx *ctx, const void *vconf,
    struct module_result *res)
{
	const struct assert_conf	*conf = vconf;
	const json_t			*m;
	const char			*failed;
	json_t				*out;
	char				*cause = NULL;
	int				 r;

	r = action_assert(conf->that, module_ctx_vars(ctx), &failed, &cause);
	if (r < 0) {
		res->status = RESULT_FAILED;
		res->msg = cause;
		return 0;
	}
	out = json_pack("{s:b}", "changed", 0);
	if (r == 0) {
		m = conf->fail_msg != NULL ? conf->fail_msg : conf->msg;
		json_object_set_new(out, "assertion", json_string(failed));
		json_object_set_new(out, "evaluated_to", json_false());
		json_object_set_new(out, "msg", m != NULL ? json_deep_copy(m) :
		    json_string("Assertion failed"));
		res->status = RESULT_FAILED;
	} else {
		json_object_set_new(out, "msg", conf->success_msg != NULL ?
		    json_deep_copy(conf->success_msg) :
		    json_string("All assertions passed"));
		res->status = RESULT_OK;
	}
	/* quiet: Ansible's result is not verbose, and an ok prints bare */
	if (r == 0 || !conf->quiet)
		res->msg = action_show(out, !conf->quiet);
	res->verbose = !conf->quiet;
	res->data = out;
	return 0;
}

static const char *const assert_aliases[] = { "ansible.builtin.assert",
	"ansible.legacy.assert", NULL };

const struct module mod_assert = {
	.name = "assert",
	.aliases = assert_aliases,
	.summary = "check conditions over the host's vars (no host work)",
	.params = assert_params,
	.conf_size = sizeof(struct assert_conf),
	.run = assert_run,
	.check_safe = 1,
};
