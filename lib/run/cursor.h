/* A host's place in a play's tree while a batch walks it (runner.c): a
 * frame for the play's own tree, and one more for each include_tasks the
 * host is inside (the tree of the file it included, playbook_load_include).
 * Pure: where a host goes after a task is play_walk_next at its innermost
 * frame; when an included tree ends, the include itself ends there
 * (failing if a failure left the included tree), one frame out. */
#ifndef TCPTUNE_CURSOR_H
#define TCPTUNE_CURSOR_H

#include <stddef.h>

struct play;
struct task;

#define CURSOR_DEPTH	8	/* include_tasks inside each other */

struct cursor_frame {
	const struct play	*tree;
	size_t			 pos;
	int			 failing;
	size_t			 seq;	/* the included tree's number in the
					 * run, in order of first use; 0: the
					 * play's */
};

struct cursor {
	size_t			 depth;	/* frames past the play's */
	struct cursor_frame	 f[CURSOR_DEPTH + 1];
};

/* At the start of play p. */
void		 cursor_start(struct cursor *c, const struct play *p);
/* The task the host is at, NULL at the end of the play. */
const struct task *cursor_task(const struct cursor *c);
/* Order of two places in the run's order of tasks (Ansible's all_tasks,
 * where an include's tasks come right after it, each included tree in
 * the order of its first use): <0, 0, >0. */
int		 cursor_cmp(const struct cursor *a, const struct cursor *b);
/* After the task at c: failed (not ignored) or not. Returns 1 when the
 * host has failed the play (a failure nothing caught), else 0;
 * *rescued counts the rescues that caught a failure on the way. */
int		 cursor_next(struct cursor *c, int failed, int *rescued);
/* The host leaves the play (meta: end_host, end_play): no task is next,
 * and it has not failed. */
void		 cursor_end(struct cursor *c);
/* Enter an included tree (with its number seq): its first task is next.
 * -1 when CURSOR_DEPTH includes are open. */
int		 cursor_enter(struct cursor *c, const struct play *tree,
		    size_t seq);

#endif
