/* The one way a command reports that it could not run (cmd.h). In a file of
 * its own so that the commands depend on it, not on main.c; the printing
 * is say.c's, the one printer. */
#include <stdarg.h>

#include "cmd.h"
#include "say.h"

int
cmd_error(const char *fmt, ...)
{
	va_list	ap;
	int	r;

	va_start(ap, fmt);
	r = say_verror(fmt, ap);
	va_end(ap);
	return r;
}
