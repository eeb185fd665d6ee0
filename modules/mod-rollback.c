/* rollback: restore the backup of the drop-in and the previous live values. */
#include "module.h"

#include "tune-facts.h"
#include "tune.h"

static const struct module_param rollback_params[] = {
	{ .name = "sysctl_file", .type = PARAM_PATH,
	  .def = "/etc/sysctl.d/90-tcptune.conf",
	  .help = "the managed drop-in to restore (or var "
		  "tcptune_sysctl_file)" },
	{ .name = NULL },
};

static int
rollback_run(struct module_ctx *ctx, const json_t *args,
    struct module_result *res)
{
	return tune_rollback(ctx, tune_file(ctx, args), res);
}

const struct module mod_rollback = {
	.name = "rollback",
	.summary = "restore the drop-in and live values saved before the first "
		   "apply",
	.params = rollback_params,
	.run = rollback_run,
	.check_safe = 1,
};
