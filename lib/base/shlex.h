/* Python's shlex.split in POSIX mode, the one way tcptune splits text into
 * words as Ansible does: INI inventory host lines (comments=True), ssh
 * arguments of ansible.cfg, a command task's free-form text (the command
 * module's shlex.split(args)).
 *
 * Blanks are ' ', TAB, CR and LF; '...' keeps every byte; "..." keeps
 * every byte but a backslash before '"' or '\', which escapes it (a
 * backslash before anything else stays); outside quotes a backslash
 * escapes the next byte; quotes inside a word join it ("a"'b'c is abc);
 * an empty quoted word ('') is a word. With comments, '#' outside quotes
 * starts a comment to the end of the line, as shlex.split(s, True). */
#ifndef TCPTUNE_SHLEX_H
#define TCPTUNE_SHLEX_H

#include <stddef.h>

/* 0 with *words (n of them; free with names_free), or -1 with *err
 * "no closing quotation" or "no escaped character" (a backslash at the
 * end), Python's ValueError, and nothing to free. */
int	shlex_split(const char *s, int comments, char ***words, size_t *n,
	    const char **err);

#endif
