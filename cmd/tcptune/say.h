/* The one printer of what tcptune says to a person on standard error:
 * errors, usage errors, warnings and the -vv/-vvv trace, each formatted by
 * report/message.h, coloured when --color allows, with vault values
 * redacted, and copied to the run log (runlog.h) when one is open. Safe
 * to call from the runner's worker threads. */
#ifndef TCPTUNE_SAY_H
#define TCPTUNE_SAY_H

#include <stdarg.h>

#include "cmd.h"

/* Colour and verbosity from the options, once they are parsed. */
void	say_setup(const struct options *opts);
/* "tcptune: error: ..."; returns EXIT_COULD_NOT_RUN. */
int	say_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int	say_verror(const char *fmt, va_list ap)
	    __attribute__((format(printf, 1, 0)));
/* "tcptune: error: ...", the command's usage line and where its help is;
 * returns EXIT_COULD_NOT_RUN. */
int	say_usage(const struct cmd_entry *cmd, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
/* "[WARNING]: HOST: ..." (host NULL: "[WARNING]: ..."), once per call. */
void	say_warning(const char *host, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
/* With at least -v level times: "<HOST> text" (host NULL: "<tcptune>"),
 * to standard error and the log. level 2: commands and timings; 3: SSH. */
void	say_trace(int level, const char *host, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));
/* Whether say_trace prints anything at level. */
int	say_tracing(int level);

#endif
