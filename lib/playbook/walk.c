/* Where a host goes next in a play's tree: Ansible's PlayIterator for one
 * host (executor/play_iterator.py, _get_next_task_from_state and
 * _set_failed_state), over the tree kept in tree order (playbook.h). */
#include "playbook/playbook.h"

static int
has(const struct block *b, enum block_part part)
{
	return b->first[part] < b->end[part];
}

/* The host has finished part `part` of block b (failing or not): a
 * failure in the block part goes to the rescue, which clears it; the
 * always part runs whatever happened, and a failure it carries goes on
 * up once it is done; a failure in an always part ends it. */
static size_t
leave(const struct play *p, const struct block *b, enum block_part part,
    int *failing, int *rescued)
{
	size_t after;

	while (b != NULL) {
		if (part == PART_BLOCK && *failing && has(b, PART_RESCUE)) {
			*failing = 0;
			*rescued = 1;
			return b->first[PART_RESCUE];
		}
		if (part != PART_ALWAYS && has(b, PART_ALWAYS))
			return b->first[PART_ALWAYS];
		after = b->end[PART_ALWAYS];
		if (b->parent == NULL)
			return *failing ? p->ntasks : after;
		if (!*failing && after < b->parent->end[b->part])
			return after;
		part = b->part;
		b = b->parent;
	}
	return p->ntasks;
}

size_t
play_walk_next(const struct play *p, size_t i, int failed, int *failing,
    int *rescued)
{
	const struct task *t = &p->tasks[i];

	*rescued = 0;
	if (t->parent == NULL) {	/* a flat list (runner_adhoc, tests) */
		if (failed)
			*failing = 1;
		return failed ? p->ntasks : i + 1;
	}
	if (failed)
		*failing = 1;
	else if (i + 1 < t->parent->end[t->part])
		return i + 1;
	return leave(p, t->parent, t->part, failing, rescued);
}
