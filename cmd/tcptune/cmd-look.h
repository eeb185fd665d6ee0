/* --list-hosts, --list-tasks and --start-at-task (cmd-look.c). */
#ifndef TCPTUNE_CMD_LOOK_H
#define TCPTUNE_CMD_LOOK_H

#include "cmd.h"

struct inventory;
struct playbook;

/* Apply --start-at-task to pb, then, with --list-hosts or --list-tasks,
 * print what the run would do and on which hosts, contacting nothing.
 * Returns 0 when the command should go on and run the playbook, or 1 when
 * it is finished (listed, or the error printed) with its exit status in
 * *rc. */
int	cmd_look(const struct options *opts, struct playbook *pb,
	    const struct inventory *inv, int *rc);

#endif
