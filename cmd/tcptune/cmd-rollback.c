/* tcptune rollback [PATTERN]: restore, on each host, the drop-in and the
 * live values saved before tcptune first wrote it (the rollback module ad
 * hoc; playbooks/rollback.yml is the same as a play). -C -D shows what it
 * would restore. The drop-in is the var tcptune_sysctl_file, else
 * /etc/sysctl.d/90-tcptune.conf. */
#include "cmd-common.h"
#include "playbook/module.h"

extern const struct module mod_rollback;

static int
cmd_rollback_exec(struct options *opts)
{
	return cmd_adhoc(opts, &mod_rollback, NULL);
}

const struct cmd_entry cmd_rollback_entry = {
	.name = "rollback",
	.usage = "[PATTERN] [-C] [-D]",
	.summary = "restore the saved drop-in and live values on each host",
	.accepts = OPT_CHECK | OPT_STREAM,
	.min_args = 0,
	.max_args = 1,
	.exec = cmd_rollback_exec,
};
