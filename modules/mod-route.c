/* route: initcwnd/initrwnd on the default route, set live. */
#include "playbook/module.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "modules/tune-facts.h"
#include "modules/tune.h"
#include "base/xalloc.h"

static const char *const route_persist[] = { "none", "unit", NULL };

struct route_conf {
	struct module_conf	 hdr;
	long long		 initcwnd;
	long long		 initrwnd;
	const char		*persist;
};

#define AT(field)	offsetof(struct route_conf, field)

static const struct module_param route_params[] = {
	{ .name = "initcwnd", .type = PARAM_INT, .offset = AT(initcwnd),
	  .min = 1, .max = 1000,
	  .help = "initial congestion window (segments)" },
	{ .name = "initrwnd", .type = PARAM_INT, .offset = AT(initrwnd),
	  .min = 1, .max = 1000, .help = "initial receive window (segments)" },
	{ .name = "persist", .type = PARAM_CHOICE, .offset = AT(persist),
	  .def = "none", .choices = route_persist,
	  .help = "none: set live only (a reboot or a network reload drops "
		  "them); unit: also a oneshot systemd unit, "
		  "tcptune-route.service, that sets them again at boot" },
	{ .name = NULL },
};

static int
route_validate(const void *conf, char **cause)
{
	if (!module_conf_given(route_params, conf, AT(initcwnd)) &&
	    !module_conf_given(route_params, conf, AT(initrwnd)))
		return fail(cause, "route needs initcwnd or initrwnd");
	return 0;
}

static int
route_run(struct module_ctx *ctx, const void *vconf,
    struct module_result *res)
{
	const struct route_conf *conf = vconf;
	const json_t	*rt = json_object_get(module_ctx_facts(ctx),
	    "default_route");
	int		 has_cw = module_conf_given(route_params, conf,
	    AT(initcwnd));
	int		 has_rw = module_conf_given(route_params, conf,
	    AT(initrwnd));
	json_t		*cw, *rw;
	struct stage	*st;
	char		*cause = NULL;
	int		 same, persist;

	if (json_string_value(json_object_get(rt, "interface")) == NULL) {
		res->status = RESULT_FAILED;
		res->msg = xstrdup("no default route on this host");
		return 0;
	}
	same = (!has_cw || conf->initcwnd ==
	    json_integer_value(json_object_get(rt, "initcwnd"))) &&
	    (!has_rw || conf->initrwnd ==
	    json_integer_value(json_object_get(rt, "initrwnd")));
	persist = strcmp(conf->persist, "unit") == 0;
	/* With persist: unit the apply also checks the unit file, so the
	 * options are staged even when the live route has them. */
	if (same && !persist) {
		res->status = RESULT_OK;
		res->msg = xstrdup("default route already has these options");
		return 0;
	}
	if ((st = tune_stage(ctx, tune_file(ctx, NULL, 0), &cause)) == NULL) {
		res->status = RESULT_FAILED;
		res->msg = cause;
		return 0;
	}
	cw = has_cw ? json_integer(conf->initcwnd) : NULL;
	rw = has_rw ? json_integer(conf->initrwnd) : NULL;
	free(st->route_opts);
	st->route_opts = tune_route_opts(cw, rw);
	json_decref(cw);
	json_decref(rw);
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
	.conf_size = sizeof(struct route_conf),
	.validate = route_validate,
	.run = route_run,
	.check_safe = 1,
	.stager = &tune_stager,
};
