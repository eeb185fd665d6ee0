/* sysctl: explicit keys into our drop-in. */
#include "module.h"

static const struct module_param sysctl_params[] = {
	{ .name = "values", .type = PARAM_MAP, .required = 1,
	  .help = "mapping of sysctl key to value" },
	{ .name = "sysctl_file", .type = PARAM_PATH,
	  .def = "/etc/sysctl.d/90-tcptune.conf", .help = "the drop-in to manage" },
	{ .name = NULL },
};

const struct module mod_sysctl = {
	.name = "sysctl",
	.summary = "set explicit sysctl keys through the managed drop-in",
	.params = sysctl_params,
};
