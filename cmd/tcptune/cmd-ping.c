/* tcptune ping [PATTERN]: connect, authenticate, run `true` on each host. */
#include "cmd-common.h"
#include "playbook/module.h"

extern const struct module mod_ping;

static int
cmd_ping_exec(struct options *opts)
{
	return cmd_adhoc(opts, &mod_ping, NULL);
}

const struct cmd_entry cmd_ping_entry = {
	.name = "ping",
	.usage = "[PATTERN]",
	.accepts = OPT_STREAM,
	.summary = "connect to each host, authenticate and run 'true'",
	.min_args = 0,
	.max_args = 1,
	.exec = cmd_ping_exec,
};
