/* What a command or shell task returns, as Ansible's command module's
 * main() returns it (ansible/modules/command.py, ansible-core 2.14) with
 * the action's stdout_lines and stderr_lines: pure, from what the guard
 * said and what the command printed (modules/mod-command.c runs it). */
#ifndef TCPTUNE_COMMAND_RESULT_H
#define TCPTUNE_COMMAND_RESULT_H

#include <jansson.h>
#include <stddef.h>

#include "playbook/module.h"
#include "remote/command.h"

struct command_outcome {
	enum command_said	 said;
	int			 check;		/* check mode: the command did
						 * not run (guard only) */
	int			 err_no;	/* COMMAND_CHDIR_FAILED */
	int			 rc;		/* COMMAND_RAN, not check */
	const char		*out, *err;	/* its stdout and stderr */
	size_t			 out_len, err_len;
	int			 strip;		/* strip_empty_ends */
	int			 expect_rc;	/* tcptune's: the rc of success */
	const char		*chdir, *creates, *removes;
	const json_t		*cmd;		/* Ansible's `cmd`: the words
						 * or the shell text */
	const char		*start, *end, *delta;	/* when it ran */
};

/* The status and the registered data (a new object) of the outcome, and
 * *msg (allocated): the task line's. */
enum result_status command_result(const struct command_outcome *o,
	    json_t **data, char **msg);
/* Python's str.splitlines() of len bytes at s, as a new JSON list (the
 * ASCII line boundaries: \n, \r\n, \r, \v, \f, \x1c, \x1d, \x1e). */
json_t	*command_splitlines(const char *s, size_t len);
/* str(datetime) of a wall-clock time and str(timedelta) of seconds, as
 * the module prints start, end and delta. New strings. */
char	*command_time_text(double epoch);
char	*command_delta_text(double seconds);

#endif
