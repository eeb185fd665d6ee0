/* The one audited way to put a string into a POSIX sh command line.
 *
 * Every value that reaches a remote shell (file names, sysctl values, user
 * names, whole commands nested in `sh -c`) goes through these functions; no
 * other code builds quoting by hand.
 *
 * The rule is the simplest one that is correct for every byte except NUL: the
 * value is wrapped in single quotes, inside which sh gives no character a
 * special meaning, and each single quote in the value is written as '\''
 * (close the quote, an escaped quote, reopen). The result is always exactly
 * one word, whatever the value holds: spaces, newlines, $(), backticks, globs,
 * a leading '-' (still one word; the command must stop option parsing with
 * `--` itself if it cares) or bytes that are not valid UTF-8. The empty string
 * becomes ''. Every value is quoted, even harmless ones, so that the output
 * never depends on a judgement of what is "safe". */
#ifndef TCPTUNE_SHQUOTE_H
#define TCPTUNE_SHQUOTE_H

#include "base/strbuf.h"

/* Append s to sb as one single-quoted sh word. */
void	 shquote_add(struct strbuf *sb, const char *s);
/* Return s as one single-quoted sh word; the caller frees it. */
char	*shquote(const char *s);
/* Append each string of the NULL-terminated argv as one word, the words
 * separated by single spaces (nothing is appended for an empty argv). */
void	 shquote_addv(struct strbuf *sb, const char *const *argv);

#endif
