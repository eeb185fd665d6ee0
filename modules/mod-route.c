/* route: initcwnd/initrwnd on the default route. */
#include "module.h"

static const char *const route_persist[] = { "none", "networkd", "unit",
	NULL };

static const struct module_param route_params[] = {
	{ .name = "initcwnd", .type = PARAM_INT, .min = 1, .max = 1000,
	  .help = "initial congestion window (segments)" },
	{ .name = "initrwnd", .type = PARAM_INT, .min = 1, .max = 1000,
	  .help = "initial receive window (segments)" },
	{ .name = "persist", .type = PARAM_CHOICE, .def = "none",
	  .choices = route_persist,
	  .help = "make it survive reboots via systemd-networkd or a oneshot "
		  "unit" },
	{ .name = NULL },
};

const struct module mod_route = {
	.name = "route",
	.summary = "set initcwnd/initrwnd on the default route",
	.params = route_params,
};
