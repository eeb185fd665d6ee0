/* What a run takes of a playbook, decided before any host is contacted:
 * where --start-at-task starts, and the steps the runner takes for each
 * play -- the tasks --tags/--skip-tags select (task_selected, playbook.h)
 * and the implicit steps around them (fact gathering, the apply of staged
 * tuning) -- so that --list-tasks shows exactly what a run would do.
 * docs/playbooks.md, "Looking before running". */
#ifndef TCPTUNE_SELECT_H
#define TCPTUNE_SELECT_H

#include <stddef.h>

#include "playbook/playbook.h"

/* The name of a play's fact-gathering step, as Ansible names it. */
#define PLAY_GATHER_NAME	"Gathering Facts"

/*
 * --start-at-task, as ansible-playbook 2.14 does it: the first step, in
 * playbook order, that tags/skip_tags select and whose name is pattern or
 * matches it as a shell pattern (fnmatch(3), case-sensitive, no escapes);
 * every task before it is marked before_start, so task_selected skips it,
 * and every play before its play is before_start and gathers no facts. A
 * play's fact gathering counts as a step named PLAY_GATHER_NAME: matching
 * it starts at that play's beginning. pattern NULL: nothing to do. Returns
 * 0, or -1 with *cause when no step matches (nothing is marked then).
 */
int		 playbook_start_at(struct playbook *pb, const char *pattern,
		    const char *tags, const char *skip_tags, char **cause);

enum play_step_kind {
	PLAY_STEP_GATHER,	/* gather_facts: the fact-gathering module */
	PLAY_STEP_TASK,		/* a task of the play */
	PLAY_STEP_APPLY		/* a stager's flush of what tasks staged */
};

struct play_step {
	enum play_step_kind	 kind;
	const struct task	*task;		/* PLAY_STEP_TASK, else NULL */
	const char		*name;		/* its TASK [...] line */
	const char		*module;	/* its result's module */
};

/*
 * The steps a run takes for play p on each host, in order, as the runner
 * takes them (lib/run/runner.c): the fact gathering when the play gathers,
 * each task task_selected selects, and a stager's apply wherever the
 * runner flushes one -- before the first selected task of another stager
 * after a run of tasks that stage, and at the end of the play. A task whose
 * `when` turns out false stages nothing, so an apply listed may find
 * nothing to do. Returns how many; *out is allocated (free it).
 */
size_t		 play_steps(const struct play *p, const char *tags,
		    const char *skip_tags, struct play_step **out);

/* The host patterns of play i as written (one for a string, one per item
 * of a list, as --list-hosts shows them); *out is allocated, its strings
 * are the playbook's. */
size_t		 playbook_play_patterns(const struct playbook *pb, size_t i,
		    const char ***out);

#endif
