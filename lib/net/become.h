/* Become with a password: the pure parts of talking to `sudo -S`.
 *
 * With a become password the transport runs
 *   sudo -S -p PROMPT [-u USER] -- sh -c 'echo MARKER >&2; CMD'
 * and watches the command's stderr:
 *   - PROMPT (sudo asks for the password): write the password and a
 *     newline on stdin, once;
 *   - MARKER (sudo let the command start): only now write the command's
 *     own stdin. Without a prompt (NOPASSWD, a cached timestamp) the
 *     marker comes first and the password is never written, so it can
 *     never become the command's input;
 *   - a second PROMPT: the password was wrong; stop at once.
 * PROMPT and MARKER carry a random tag, new for every command, so the
 * command's own output cannot forge them; both are removed from stderr,
 * and so is everything sudo said before the marker (a lecture, "Sorry,
 * try again."). If the marker never comes (sudo refused), what sudo said,
 * less its prompts, is the stderr the caller classifies.
 *
 * The password itself is never on a command line: only the prompt and the
 * marker are, and they are not secret. */
#ifndef TCPTUNE_BECOME_H
#define TCPTUNE_BECOME_H

#include <stddef.h>

#include "base/strbuf.h"

#define BECOME_TAG_LEN	16		/* hex digits */

struct become_words {
	char	prompt[64];	/* "[sudo via tcptune, key=TAG] password: " */
	char	marker[64];	/* "TCPTUNE-BECOME-SUCCESS-TAG" */
};

/* Fill w from tag (BECOME_TAG_LEN hex digits; tests use fixed ones). */
void	become_words_set(struct become_words *w, const char *tag);
/* Fill w with a fresh random tag (getrandom): 0, or -1 with *cause. */
int	become_words_random(struct become_words *w, char **cause);

/* Append the sudo command line for cmd: with w, sudo -S as above; with w
 * NULL (no password), `sudo -n -- sh -c 'CMD'`, which never prompts. CMD
 * and USER are quoted by shquote; no -u for a NULL or "root" user. */
void	become_build_command(struct strbuf *sb, const char *cmd,
	    const char *user, const struct become_words *w);

/* A stream scanner over the command's stderr, fed in any pieces (a prompt
 * or marker split across pieces is still found). Work is linear in the
 * bytes fed. */
struct become_scan {
	const char	*prompt;	/* borrowed from the words */
	char		 marker_line[72]; /* the marker and its newline */
	struct strbuf	 pending;	/* stderr before the marker */
	size_t		 from;		/* no match starts before this */
	int		 prompts;	/* how many prompts seen */
	int		 started;	/* marker seen: the command runs */
};

void	become_scan_init(struct become_scan *s, const struct become_words *w);
/* Feed len bytes of stderr. Before the marker they are held back (prompts
 * counted and removed); the marker and everything before it are dropped;
 * after it, bytes go to err as they come. */
void	become_scan_feed(struct become_scan *s, const void *data, size_t len,
	    struct strbuf *err);
/* The channel closed: hand what is held back (prompts already removed) to
 * err, so that sudo's refusal can be read. */
void	become_scan_end(struct become_scan *s, struct strbuf *err);
void	become_scan_release(struct become_scan *s);

#endif
