/* ping: connect, authenticate and run `true`, like `ansible -m ping`. */
#include "playbook/module.h"

#include "base/xalloc.h"

static const struct module_param ping_params[] = {
	{ .name = NULL },
};

static int
ping_run(struct module_ctx *ctx, const void *conf, struct module_result *res)
{
	struct tp_result	 out;
	enum tp_status		 st;
	char			*cause = NULL;

	(void)conf;
	st = module_ctx_exec(ctx, "true", NULL, 0, 0, &out, &cause);
	if (st != TP_OK)
		module_result_transport_failed(res, st, cause);
	else if (out.exit_status != 0) {
		res->status = RESULT_FAILED;
		res->msg = xprintf("'true' exited %d", out.exit_status);
	} else {
		res->status = RESULT_OK;
		res->msg = xstrdup("pong");
	}
	tp_result_clear(&out);
	return 0;
}

const struct module mod_ping = {
	.name = "ping",
	.summary = "connect, authenticate and run 'true'",
	.params = ping_params,
	.run = ping_run,
	.check_safe = 1,
};
