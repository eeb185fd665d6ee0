/* rollback: restore the backup of the drop-in and the previous live values. */
#include "module.h"

static const struct module_param rollback_params[] = {
	{ .name = "sysctl_file", .type = PARAM_PATH,
	  .def = "/etc/sysctl.d/90-tcptune.conf",
	  .help = "the managed drop-in to restore" },
	{ .name = NULL },
};

const struct module mod_rollback = {
	.name = "rollback",
	.summary = "restore the drop-in and live values saved before the last "
		   "apply",
	.params = rollback_params,
};
