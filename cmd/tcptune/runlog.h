/* The run log a team keeps (--log-file, TCPTUNE_LOG_FILE, ansible.cfg
 * log_path): every command's events appended as JSON lines, each with the
 * jsonl event's schema, event and timestamp (run/events.h) plus the pid
 * and the local user who ran it. docs/output.md lists the events. */
#ifndef TCPTUNE_RUNLOG_H
#define TCPTUNE_RUNLOG_H

#include <jansson.h>

/* Open path for appending (created 0600: a log tells what was run where,
 * for no one else to read) and write the "start" event with the command
 * line (message_command_line: secrets removed). 0, or -1 with *cause. */
int	 runlog_open(const char *path, int argc, char *const *argv,
	    char **cause);
/* Whether a log is open. */
int	 runlog_active(void);
/* A new event, timestamped now: run_event_new(name). */
json_t	*runlog_event(const char *name);
/* Write ev (consumed) as one line, with the pid and user added and vault
 * values redacted. Thread-safe; does nothing without a log. */
void	 runlog_write(json_t *ev);
/* Write the "end" event with the exit status and close. */
void	 runlog_close(int status);

#endif
