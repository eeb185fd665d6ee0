/* route: initcwnd/initrwnd on the default route, set live. */
#include "playbook/module.h"

#include <stdlib.h>
#include <string.h>

#include "modules/tune-facts.h"
#include "modules/tune.h"
#include "base/xalloc.h"

static const char *const route_persist[] = { "none", "unit", NULL };

static const struct module_param route_params[] = {
	{ .name = "initcwnd", .type = PARAM_INT, .min = 1, .max = 1000,
	  .help = "initial congestion window (segments)" },
	{ .name = "initrwnd", .type = PARAM_INT, .min = 1, .max = 1000,
	  .help = "initial receive window (segments)" },
	{ .name = "persist", .type = PARAM_CHOICE, .def = "none",
	  .choices = route_persist,
	  .help = "none: set live only (a reboot or a network reload drops "
		  "them); unit: also a oneshot systemd unit, "
		  "tcptune-route.service, that sets them again at boot" },
	{ .name = NULL },
};

static int
route_validate(const json_t *args, char **cause)
{
	if (json_object_get(args, "initcwnd") == NULL &&
	    json_object_get(args, "initrwnd") == NULL)
		return fail(cause, "route needs initcwnd or initrwnd");
	return 0;
}

static int
route_run(struct module_ctx *ctx, const json_t *args,
    struct module_result *res)
{
	const json_t	*rt = json_object_get(module_ctx_facts(ctx),
	    "default_route");
	const json_t	*cw = json_object_get(args, "initcwnd");
	const json_t	*rw = json_object_get(args, "initrwnd");
	struct stage	*st;
	char		*cause = NULL;
	int		 same, persist;

	if (json_string_value(json_object_get(rt, "interface")) == NULL) {
		res->status = RESULT_FAILED;
		res->msg = xstrdup("no default route on this host");
		return 0;
	}
	same = (cw == NULL || json_integer_value(cw) ==
	    json_integer_value(json_object_get(rt, "initcwnd"))) &&
	    (rw == NULL || json_integer_value(rw) ==
	    json_integer_value(json_object_get(rt, "initrwnd")));
	persist = strcmp(json_string_value(json_object_get(args, "persist")),
	    "unit") == 0;
	/* With persist: unit the apply also checks the unit file, so the
	 * options are staged even when the live route has them. */
	if (same && !persist) {
		res->status = RESULT_OK;
		res->msg = xstrdup("default route already has these options");
		return 0;
	}
	if ((st = tune_stage(ctx, tune_file(ctx, args), &cause)) == NULL) {
		res->status = RESULT_FAILED;
		res->msg = cause;
		return 0;
	}
	free(st->route_opts);
	st->route_opts = tune_route_opts(cw, rw);
	st->route_changed = !same;
	st->route_persist = persist;
	res->status = RESULT_OK;
	res->msg = xprintf("%s on the default route%s", st->route_opts,
	    same ? " (already live)" : "");
	return 0;
}

const struct module mod_route = {
	.name = "route",
	.summary = "set initcwnd/initrwnd on the default route",
	.params = route_params,
	.validate = route_validate,
	.run = route_run,
	.check_safe = 1,
	.stager = &tune_stager,
};
