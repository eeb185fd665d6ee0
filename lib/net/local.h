/* The local connection: a command run on this machine, as Ansible runs a
 * task delegated to its implicit `localhost` (connection: local). The
 * same contract as transport_exec (net/transport.h) for what a module
 * sees: the command line through `/bin/sh -c`, in fed to its stdin, its
 * output and exit status in res. */
#ifndef TCPTUNE_LOCAL_H
#define TCPTUNE_LOCAL_H

#include <stddef.h>

#include "net/transport.h"

/* Run cmd (a complete sh command line) on this machine, under sudo -n as
 * `as` says (NULL: as the current user). timeout <= 0: the default
 * command timeout. TP_OK whenever it ran (look at res->exit_status),
 * TP_TIMEOUT when it ran too long (killed; res holds the output so far),
 * TP_BECOME when sudo refused, TP_FAILED when it could not start. res is
 * filled in every case and must be cleared. */
enum tp_status	 local_exec(const struct tp_become *as, const char *cmd,
		    const void *in, size_t in_len, int timeout,
		    struct tp_result *res, char **cause);

#endif
