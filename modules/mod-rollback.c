/* rollback: restore the backup of the drop-in and the previous live values. */
#include "playbook/module.h"

#include <stddef.h>
#include <string.h>

#include "modules/tune-facts.h"
#include "modules/tune.h"

static const char *const rollback_to[] = { "first", "previous", NULL };

struct rollback_conf {
	struct module_conf	 hdr;
	const char		*to;
	const char		*sysctl_file;
};

#define AT(field)	offsetof(struct rollback_conf, field)

static const struct module_param rollback_params[] = {
	{ .name = "to", .type = PARAM_CHOICE, .offset = AT(to), .def = "first",
	  .choices = rollback_to,
	  .help = "first: the host as it was before tcptune's first apply; "
		  "previous: as it was before the last apply that changed it" },
	{ .name = "sysctl_file", .type = PARAM_PATH, .offset = AT(sysctl_file),
	  .def = "/etc/sysctl.d/90-tcptune.conf",
	  .host_line = HOSTLINE_DROPIN_PATH,
	  .help = "the managed drop-in to restore (or var "
		  "tcptune_sysctl_file)" },
	{ .name = NULL },
};

static int
rollback_call(struct module_ctx *ctx, const struct rollback_conf *conf,
    int plan, struct module_result *res)
{
	return tune_rollback(ctx, tune_file(ctx, conf->sysctl_file,
	    module_conf_given(rollback_params, conf, AT(sysctl_file))),
	    strcmp(conf->to, "previous") == 0, plan, res);
}

static int
rollback_run(struct module_ctx *ctx, const void *conf,
    struct module_result *res)
{
	return rollback_call(ctx, conf, 0, res);
}

/* What a rollback would restore, read only. */
static int
rollback_plan(struct module_ctx *ctx, const void *conf,
    struct module_result *res)
{
	return rollback_call(ctx, conf, 1, res);
}

const struct module mod_rollback = {
	.name = "rollback",
	.summary = "restore the drop-in and live values saved before the first "
		   "apply",
	.params = rollback_params,
	.conf_size = sizeof(struct rollback_conf),
	.run = rollback_run,
	.plan = rollback_plan,
};
