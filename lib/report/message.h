/* How tcptune words and colours what it says to a person, as pure
 * functions: the one printer (cmd/tcptune/say.c) uses them, and the unit
 * tests check them without a terminal. docs/output.md shows the forms. */
#ifndef TCPTUNE_MESSAGE_H
#define TCPTUNE_MESSAGE_H

#include "base/strbuf.h"

/* "[WARNING]: HOST: TEXT", or "[WARNING]: TEXT" without a host. A text
 * that already starts with "WARNING: " loses that word: it is said once.
 * Allocated. */
char	*message_warning(const char *host, const char *text);
/* "tcptune: error: TEXT". Allocated. */
char	*message_error(const char *text);
/* A usage error, three lines (each ending in a newline):
 *   tcptune: error: TEXT
 *   usage: tcptune CMD USAGE
 *   see 'tcptune CMD --help'
 * Allocated. */
char	*message_usage(const char *cmd, const char *usage, const char *text);

/* Whether to colour a stream, by --color WHEN ("auto", "always", "never";
 * NULL is "auto"), whether the stream is a terminal and the NO_COLOR
 * variable's value (NULL when unset). As no-color.org says, only a
 * non-empty NO_COLOR turns colour off, and an explicit --color=always
 * wins over it. 1 or 0. */
int	 message_color_wanted(const char *when, int is_tty,
	    const char *no_color);

/* Append diff to out, each line coloured like git diff's: "---"/"+++"
 * headers bold, "-" lines red, "+" lines green, "@@" hunk lines cyan,
 * the rest as it is. */
void	 message_color_diff(struct strbuf *out, const char *diff);

/* text on one line of at most max bytes (plus the note): a newline shown
 * as \n, a tab as \t, another control byte as \xNN, and past max
 * " ... (N more bytes)". For a trace of a command line, which may hold a
 * whole script. Allocated. */
char	*message_one_line(const char *text, size_t max);

/* argv as one line for a log, with what may be secret replaced by
 * "<redacted>": the values of --webhook, -e/--extra-vars, and any word
 * with a URL's user:password@. Allocated. */
char	*message_command_line(int argc, char *const *argv);

#endif
