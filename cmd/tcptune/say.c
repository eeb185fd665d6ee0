#include "say.h"

#include <pthread.h>
#include <string.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "runlog.h"
#include "base/xalloc.h"
#include "report/message.h"
#include "vault/vault.h"

#define C_RED		"\033[31m"
#define C_PURPLE	"\033[1;35m"
#define C_DIM		"\033[2m"
#define C_RESET		"\033[0m"

/* Before say_setup (an error while parsing the options): no colour, no
 * trace. */
static int		say_color;
static int		say_verbose;
static pthread_mutex_t	say_lock = PTHREAD_MUTEX_INITIALIZER;

void
say_setup(const struct options *opts)
{
	say_color = message_color_wanted(opts->color_when,
	    isatty(STDERR_FILENO), getenv("NO_COLOR"));
	say_verbose = opts->verbose;
}

/* text, vault values redacted, to standard error in colour c (NULL: none)
 * as one write, and as event to the log with its host. Consumes text. */
static void
put(const char *c, char *text, const char *event, const char *host,
    char *msg)
{
	char	*safe = vault_redact(text);
	json_t	*ev;

	pthread_mutex_lock(&say_lock);
	if (c != NULL && say_color)
		fprintf(stderr, "%s%s%s\n", c, safe != NULL ? safe : text,
		    C_RESET);
	else
		fprintf(stderr, "%s\n", safe != NULL ? safe : text);
	pthread_mutex_unlock(&say_lock);
	if (runlog_active()) {
		ev = runlog_event(event);
		if (host != NULL)
			json_object_set_new(ev, "host", json_string(host));
		json_object_set_new(ev, "msg", json_string(msg));
		runlog_write(ev);
	}
	free(safe);
	free(text);
	free(msg);
}

enum say_kind { SAY_ERROR, SAY_WARNING, SAY_TRACE, SAY_SSH };

/* The message of fmt in its kind's form, to stderr and the log. */
static void
vsay(enum say_kind kind, const char *host, const char *fmt, va_list ap)
{
	char *msg = xvprintf(fmt, ap);

	switch (kind) {
	case SAY_ERROR:
		put(C_RED, message_error(msg), "error", NULL, msg);
		break;
	case SAY_WARNING:
		put(C_PURPLE, message_warning(host, msg), "warning", host, msg);
		break;
	case SAY_TRACE:
	case SAY_SSH:
		put(C_DIM, xprintf("<%s> %s", host != NULL ? host : "tcptune",
		    msg), kind == SAY_SSH ? "ssh_debug" : "trace", host, msg);
		break;
	}
}

int
say_verror(const char *fmt, va_list ap)
{
	vsay(SAY_ERROR, NULL, fmt, ap);
	return EXIT_COULD_NOT_RUN;
}

int
say_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(SAY_ERROR, NULL, fmt, ap);
	va_end(ap);
	return EXIT_COULD_NOT_RUN;
}

int
say_usage(const struct cmd_entry *cmd, const char *fmt, ...)
{
	va_list	 ap;
	char	*msg, *text;
	size_t	 len;

	va_start(ap, fmt);
	msg = xvprintf(fmt, ap);
	va_end(ap);
	text = message_usage(cmd->name, cmd->usage, msg);
	/* put() ends the text with its own newline */
	if ((len = strlen(text)) > 0 && text[len - 1] == '\n')
		text[len - 1] = '\0';
	put(NULL, text, "error", NULL, msg);
	return EXIT_COULD_NOT_RUN;
}

void
say_warning(const char *host, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(SAY_WARNING, host, fmt, ap);
	va_end(ap);
}

int
say_tracing(int level)
{
	return say_verbose >= level;
}

void
say_trace(int level, const char *host, const char *fmt, ...)
{
	va_list ap;

	if (say_verbose < level)
		return;
	va_start(ap, fmt);
	vsay(level >= 3 ? SAY_SSH : SAY_TRACE, host, fmt, ap);
	va_end(ap);
}
