/* command: run a command on the host. */
#include "module.h"

static const struct module_param command_params[] = {
	{ .name = "cmd", .type = PARAM_STR, .required = 1,
	  .help = "shell command line to run" },
	{ .name = "safe", .type = PARAM_BOOL, .def = "false",
	  .help = "the command only reads: run it in check mode too" },
	{ .name = "expect_rc", .type = PARAM_INT, .def = "0", .min = 0,
	  .max = 255, .help = "exit status that means success" },
	{ .name = NULL },
};

const struct module mod_command = {
	.name = "command",
	.summary = "run a shell command (skipped in check mode unless safe)",
	.params = command_params,
};
