/* The one way a command reports that it could not run (cmd.h). In a file of
 * its own so that the commands depend on it, not on main.c. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmd.h"
#include "base/xalloc.h"
#include "vault/vault.h"

int
cmd_error(const char *fmt, ...)
{
	va_list	 ap;
	char	*msg, *safe;

	va_start(ap, fmt);
	msg = xvprintf(fmt, ap);
	va_end(ap);
	/* a message may quote a value that came from a vault */
	safe = vault_redact(msg);
	fprintf(stderr, "tcptune: %s\n", safe != NULL ? safe : msg);
	free(safe);
	free(msg);
	return EXIT_COULD_NOT_RUN;
}
