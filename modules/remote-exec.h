/* One call of a remote script for a module (file-task.c, mod-systemd.c):
 * run on the host's connection, a writing call refused in check mode. */
#ifndef TCPTUNE_REMOTE_EXEC_H
#define TCPTUNE_REMOTE_EXEC_H

#include "playbook/module.h"
#include "remote/remote-cmd.h"

/* Run call (cleared here) on this host: 0 with *tr (the caller parses it
 * and clears it), or -1 with res failed: a transport failure, or a call
 * that writes (writes set) in check mode, which is then never sent. */
int	 module_remote_exec(struct module_ctx *ctx, int writes,
	    struct remote_call *call, struct tp_result *tr,
	    struct module_result *res);

#endif
