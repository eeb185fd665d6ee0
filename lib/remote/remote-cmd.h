/* Remote programs: the C side of lib/remote/prelude.sh, which states the
 * calling convention. Every remote script (lib/remote/NAME.sh) is run by a
 * command that remote_command builds, and nothing else in tcptune writes
 * remote shell: the script gets its inputs as a header of NAME='value'
 * assignments (each value through shquote_add), then the prelude, then the
 * script, all one `sh -c` program; standard input stays the caller's data. */
#ifndef TCPTUNE_REMOTE_CMD_H
#define TCPTUNE_REMOTE_CMD_H

#include <stddef.h>

/* One named input of a script. Arrays of them end with a NULL name. */
struct remote_var {
	const char	*name;	/* [A-Z_][A-Z0-9_]*, as the script says */
	const char	*value;	/* NULL: the empty string */
};

/* The program text: the header assigning vars, the prelude, script. For a
 * program that another script runs (apply's probe); returns a new string. */
char	*remote_program(const char *script, const struct remote_var *vars);
/* The command line that runs that program on a host:
 * `env TCPTUNE_TEST_ROOT= sh -c 'PROGRAM' tcptune-NAME`, NAME naming the
 * process (and the shell's own messages). Returns a new string. */
char	*remote_command(const char *name, const char *script,
	    const struct remote_var *vars);
/* For a script that reads no data (the probe), the program can travel on
 * standard input instead, so that the command line stays short and every
 * host's command shares one copy of the program: the same values, as
 * environment assignments, `env TCPTUNE_TEST_ROOT= NAME='value'... sh -s`
 * (the command), and the prelude then the script (remote_piped_program, its
 * standard input). Returns a new string. */
char	*remote_piped_command(const struct remote_var *vars);
char	*remote_piped_program(const char *script);
/* Undo the prelude's escaping of a value (len bytes, need not be
 * NUL-terminated): "\\" is a backslash, "\n" a newline; any other
 * backslash stands for itself. Returns a new string. */
char	*remote_unescape(const char *s, size_t len);

#endif
