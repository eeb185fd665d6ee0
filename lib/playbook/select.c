#include "playbook/select.h"

#include <fnmatch.h>
#include <string.h>

#include "base/xalloc.h"

/* Ansible compares the name, then fnmatch.fnmatch()es it: a shell pattern,
 * case-sensitive on POSIX, where a backslash is an ordinary character. */
static int
name_matches(const char *name, const char *pattern)
{
	return name != NULL && (strcmp(name, pattern) == 0 ||
	    fnmatch(pattern, name, FNM_NOESCAPE) == 0);
}

/* Whether --start-at-task could stop at a play's fact gathering: Ansible's
 * gathering task is tagged 'always' in an untagged play, else inherits the
 * play's tags, and is filtered by --tags/--skip-tags like any task. */
static int
gather_matches(const struct play *p, const char *pattern, const char *tags,
    const char *skip_tags)
{
	struct task	 gather;
	char		*always = (char *)"always";

	if (!p->gather_facts || !name_matches(PLAY_GATHER_NAME, pattern))
		return 0;
	memset(&gather, 0, sizeof gather);
	gather.name = (char *)PLAY_GATHER_NAME;
	if (p->ntags == 0) {
		gather.tags = &always;
		gather.ntags = 1;
	}
	return task_selected(p, &gather, tags, skip_tags);
}

/* Mark everything before task `task` of play `play` as not run. */
static void
mark_before(struct playbook *pb, size_t play, size_t task)
{
	size_t i, j;

	for (i = 0; i <= play; i++) {
		struct play *p = &pb->plays[i];

		if (i < play) {
			p->before_start = 1;
			p->gather_facts = 0;
		}
		for (j = 0; j < (i < play ? p->ntasks : task); j++)
			p->tasks[j].before_start = 1;
	}
}

int
playbook_start_at(struct playbook *pb, const char *pattern, const char *tags,
    const char *skip_tags, char **cause)
{
	size_t i, j;

	if (pattern == NULL)
		return 0;
	for (i = 0; i < pb->nplays; i++) {
		const struct play *p = &pb->plays[i];

		if (gather_matches(p, pattern, tags, skip_tags)) {
			mark_before(pb, i, 0);
			return 0;
		}
		for (j = 0; j < p->ntasks; j++) {
			if (p->tasks[j].kind == TASK_MODULE &&
			    task_selected(p, &p->tasks[j], tags, skip_tags) &&
			    name_matches(p->tasks[j].name, pattern)) {
				mark_before(pb, i, j);
				return 0;
			}
		}
	}
	if ((tags != NULL && *tags != '\0') ||
	    (skip_tags != NULL && *skip_tags != '\0'))
		return fail(cause, "no task that --tags/--skip-tags select is "
		    "named '%s' or matches it", pattern);
	return fail(cause, "no task is named '%s' or matches it", pattern);
}

static void
add_step(struct play_step **steps, size_t *n, enum play_step_kind kind,
    const struct task *t, const char *name, const char *module)
{
	struct play_step *s;

	*steps = xreallocarray(*steps, *n + 1, sizeof **steps);
	s = &(*steps)[(*n)++];
	s->kind = kind;
	s->task = t;
	s->name = name;
	s->module = module;
}

static void
add_apply(struct play_step **steps, size_t *n,
    const struct module_stager *sg)
{
	add_step(steps, n, PLAY_STEP_APPLY, NULL, sg->task_name, sg->name);
}

/* Whether t is in a rescue or always part: ansible-playbook --list-tasks
 * lists only the block parts. */
static int
in_rescue_or_always(const struct task *t)
{
	const struct block	*b = t->parent;
	enum block_part		 part = t->part;

	for (; b != NULL; part = b->part, b = b->parent) {
		if (part != PART_BLOCK)
			return 1;
	}
	return 0;
}

size_t
play_steps(const struct play *p, const char *tags, const char *skip_tags,
    struct play_step **out)
{
	const struct module		*gather = module_find_gatherer();
	const struct module_stager	*pending = NULL;
	size_t				 n = 0, i;

	*out = NULL;
	if (p->gather_facts && gather != NULL)
		add_step(out, &n, PLAY_STEP_GATHER, NULL, PLAY_GATHER_NAME,
		    gather->name);
	for (i = 0; i < p->ntasks; i++) {
		const struct task *t = &p->tasks[i];

		/* a flush of the handlers or an empty part: no step of its
		 * own (handlers are not listed, as in Ansible) */
		if ((t->kind != TASK_MODULE && t->kind != TASK_INCLUDE &&
		    t->kind != TASK_META) || in_rescue_or_always(t) ||
		    !task_selected(p, t, tags, skip_tags))
			continue;
		if (t->kind == TASK_META) {
			add_step(out, &n, PLAY_STEP_TASK, t, t->name, "meta");
			continue;
		}
		if (t->kind == TASK_INCLUDE) {
			/* listed, as Ansible does; its tasks are read when
			 * it runs (an unnamed include_role is listed by its
			 * keyword, run as "include_role : NAME") */
			add_step(out, &n, PLAY_STEP_TASK, t, t->include_role &&
			    strncmp(t->name, "include_role : ", 15) == 0 ?
			    "include_role" : t->name, t->include_role ?
			    "include_role" : "include_tasks");
			continue;
		}
		/* the runner flushes before a task of another stager */
		if (pending != NULL && t->module->stager != pending) {
			add_apply(out, &n, pending);
			pending = NULL;
		}
		add_step(out, &n, PLAY_STEP_TASK, t, t->name, t->module->name);
		if (t->module->stager != NULL)
			pending = t->module->stager;
	}
	if (pending != NULL)
		add_apply(out, &n, pending);
	return n;
}

size_t
playbook_play_patterns(const struct playbook *pb, size_t i,
    const char ***out)
{
	const struct ynode	*hosts = pb->plays[i].hosts_node;
	size_t			 n = 0, j;

	*out = NULL;
	if (hosts != NULL && hosts->type == YNODE_SEQ) {
		*out = xcalloc(hosts->n + 1, sizeof **out);
		for (j = 0; j < hosts->n; j++) {
			if (hosts->items[j]->type == YNODE_SCALAR)
				(*out)[n++] = hosts->items[j]->value;
		}
		return n;
	}
	*out = xcalloc(1, sizeof **out);
	(*out)[0] = pb->plays[i].hosts;
	return pb->plays[i].hosts != NULL ? 1 : 0;
}
