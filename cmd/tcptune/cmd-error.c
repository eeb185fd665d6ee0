/* The one way a command reports that it could not run (cmd.h). In a file of
 * its own so that the commands depend on it, not on main.c. */
#include <stdarg.h>
#include <stdio.h>

#include "cmd.h"

int
cmd_error(const char *fmt, ...)
{
	va_list ap;

	fputs("tcptune: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return EXIT_COULD_NOT_RUN;
}
