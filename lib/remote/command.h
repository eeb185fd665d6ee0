/* A command or shell task's line (lib/remote/command.sh): the guard of
 * chdir, creates and removes before the command, and what it said. The
 * result the task returns is lib/tune/cmdresult.c's. */
#ifndef TCPTUNE_REMOTE_COMMAND_H
#define TCPTUNE_REMOTE_COMMAND_H

#include <stddef.h>

#include "base/strbuf.h"

struct command_guard {
	const char	*chdir;		/* NULL or "": none */
	const char	*creates;
	const char	*removes;
};

/* Whether the guard is needed (any of its three given). */
int	 command_guard_wanted(const struct command_guard *g);
/* The line to run: the guard's inputs (each quoted by shquote), the guard,
 * then body (sh text, already quoted as it must be; "" in check mode: the
 * guard alone says whether the command would run). A new string. */
char	*command_guarded_line(const struct command_guard *g, const char *body);

/* Append w as one sh word that the shell turns into what Ansible's
 * run_command makes of a word of a command it runs without a shell:
 * os.path.expanduser(os.path.expandvars(w)) on the host. $NAME and
 * ${NAME} become the variable's value when it is set (a set, empty one:
 * ""), and stay as written when it is not; a leading ~ or ~user is the
 * home directory; every other byte is quoted (shquote), so nothing else
 * is expanded, split or globbed. */
void	 command_word_add(struct strbuf *sb, const char *w);

enum command_said {
	COMMAND_RAN,		/* the command ran; its stdout follows */
	COMMAND_SKIP_CREATES,	/* creates matched: not run */
	COMMAND_SKIP_REMOVES,	/* removes matched nothing: not run */
	COMMAND_CHDIR_FAILED,	/* could not enter chdir (errno) */
};

/* What the guard said, at the start of the line's stdout (len bytes):
 * 0 with *said (*err_no for a chdir failure) and *body_off, where the
 * command's own stdout starts; -1 with *cause when the output is not the
 * guard's or was cut short. */
int	 command_guard_parse(const char *out, size_t len,
	    enum command_said *said, int *err_no, size_t *body_off,
	    char **cause);

#endif
