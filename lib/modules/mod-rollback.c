/* rollback: restore the backup of the drop-in and the previous live values. */
#include "playbook/module.h"

#include <string.h>

#include "modules/tune-facts.h"
#include "modules/tune.h"

static const char *const rollback_to[] = { "first", "previous", NULL };

static const struct module_param rollback_params[] = {
	{ .name = "to", .type = PARAM_CHOICE, .def = "first",
	  .choices = rollback_to,
	  .help = "first: the host as it was before tcptune's first apply; "
		  "previous: as it was before the last apply that changed it" },
	{ .name = "sysctl_file", .type = PARAM_PATH,
	  .def = "/etc/sysctl.d/90-tcptune.conf",
	  .host_line = HOSTLINE_DROPIN_PATH,
	  .help = "the managed drop-in to restore (or var "
		  "tcptune_sysctl_file)" },
	{ .name = NULL },
};

static int
rollback_call(struct module_ctx *ctx, const json_t *args, int plan,
    struct module_result *res)
{
	return tune_rollback(ctx, tune_file(ctx, args), strcmp(
	    json_string_value(json_object_get(args, "to")), "previous") == 0,
	    plan, res);
}

static int
rollback_run(struct module_ctx *ctx, const json_t *args,
    struct module_result *res)
{
	return rollback_call(ctx, args, 0, res);
}

/* What a rollback would restore, read only. */
static int
rollback_plan(struct module_ctx *ctx, const json_t *args,
    struct module_result *res)
{
	return rollback_call(ctx, args, 1, res);
}

const struct module mod_rollback = {
	.name = "rollback",
	.summary = "restore the drop-in and live values saved before the first "
		   "apply",
	.params = rollback_params,
	.run = rollback_run,
	.plan = rollback_plan,
};
