/* ansible.builtin.blockinfile's decision, ported from the module's main()
 * (ansible-core 2.14, modules/blockinfile.py) step for step: the file as
 * bytes.splitlines(keepends) (a line ends after "\n", "\r\n" or "\r"),
 * the markers with "{mark}" replaced by marker_begin and marker_end, an
 * existing block (both markers found, in either order) replaced in place,
 * else the block put after the last line insertafter matches (before,
 * for insertbefore; a (?m) expression searched over the whole file), at
 * BOF or EOF; the module's msg. Pure: the text in, the new text out. */
#ifndef TCPTUNE_TUNE_BLOCKINFILE_H
#define TCPTUNE_TUNE_BLOCKINFILE_H

#include <stddef.h>

struct bif_task {
	int		 present;
	const char	*marker;	/* "# {mark} ANSIBLE MANAGED BLOCK" */
	const char	*marker_begin;	/* "BEGIN" */
	const char	*marker_end;	/* "END" */
	const char	*block;		/* "" removes the block */
	const char	*insertafter;	/* NULL, EOF or an expression */
	const char	*insertbefore;	/* NULL, BOF or an expression */
};

struct bif_out {
	int		 changed;
	const char	*msg;	/* "", "File created", "Block removed",
				 * "Block inserted" (static) */
	char		*text;	/* the new text (allocated) */
	size_t		 len;
};

/* Decide over text (len bytes; NULL: no file yet, created). 0, or -1
 * with *cause (an expression that does not compile). */
int	 bif_decide(const struct bif_task *t, const char *text, size_t len,
	    struct bif_out *out, char **cause);
void	 bif_out_clear(struct bif_out *out);

#endif
