/* ansible.builtin.lineinfile's decision, ported from the module's own
 * present() and absent() (ansible-core 2.14, modules/lineinfile.py) line
 * for line: which line is replaced, where one is inserted, what is
 * removed, and the module's msg. Pure: the text in, the new text out.
 *
 * The file is bytes, split after each '\n' as Python's readlines() on a
 * binary file; regexp and insertafter/insertbefore are Python regular
 * expressions over bytes, run by PCRE2 (the same leftmost-first
 * backtracking, \d \w \s ASCII, (?:) (?P<n>) lookarounds, lazy
 * quantifiers; Python's end-only \Z is PCRE2's \z), and backrefs expand
 * `line` as Python's match.expand() does (\1..\99, \g<n>, \g<name>, the
 * escapes \n \t \r \f \v \a \b \\; an unmatched group is empty). */
#ifndef TCPTUNE_TUNE_LINEINFILE_H
#define TCPTUNE_TUNE_LINEINFILE_H

#include <stddef.h>

struct lif_task {
	int		 present;	/* state: present, else absent */
	const char	*regexp;	/* NULL: not given */
	const char	*search_string;
	const char	*line;
	const char	*insertafter;	/* the caller passes "EOF" when neither
					 * is given, as the module's main() */
	const char	*insertbefore;
	int		 backrefs;
	int		 firstmatch;
};

struct lif_out {
	int		 changed;
	const char	*msg;		/* the module's: "line added", "line
					 * replaced", "" (static), or for
					 * absent found lines removed (see
					 * found) */
	char		*text;		/* the new text (allocated), also when
					 * unchanged */
	size_t		 len;
	long		 found;		/* absent: lines removed */
};

/* Decide over text (len bytes; the file as read, "" for a file to create).
 * 0, or -1 with *cause (a regular expression that does not compile, a
 * backreference past the groups). The caller handles what main() checks
 * before (line required, backrefs needs regexp, the file's existence). */
int	 lif_decide(const struct lif_task *t, const char *text, size_t len,
	    struct lif_out *out, char **cause);
void	 lif_out_clear(struct lif_out *out);

#endif
