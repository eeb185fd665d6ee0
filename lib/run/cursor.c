#include "run/cursor.h"

#include <string.h>

#include "playbook/playbook.h"

void
cursor_start(struct cursor *c, const struct play *p)
{
	memset(c, 0, sizeof *c);
	c->f[0].tree = p;
}

const struct task *
cursor_task(const struct cursor *c)
{
	const struct cursor_frame *f = &c->f[c->depth];

	if (f->pos >= f->tree->ntasks)
		return NULL;
	return &f->tree->tasks[f->pos];
}

static int
cmp_size(size_t a, size_t b)
{
	return a < b ? -1 : a > b;
}

int
cursor_cmp(const struct cursor *a, const struct cursor *b)
{
	size_t	d, depth = a->depth < b->depth ? a->depth : b->depth;
	int	r;

	for (d = 0; d <= depth; d++) {
		if ((r = cmp_size(a->f[d].seq, b->f[d].seq)) != 0 ||
		    (r = cmp_size(a->f[d].pos, b->f[d].pos)) != 0)
			return r;
	}
	/* at the same include: the one inside it first */
	return cmp_size(b->depth, a->depth);
}

int
cursor_next(struct cursor *c, int failed, int *rescued)
{
	struct cursor_frame	*f = &c->f[c->depth];
	size_t			 next;
	int			 caught;

	*rescued = 0;
	for (;;) {
		next = play_walk_next(f->tree, f->pos, failed, &f->failing,
		    &caught);
		*rescued += caught;
		if (next < f->tree->ntasks || c->depth == 0)
			break;
		/* the included tree ended: so did its include */
		failed = f->failing;
		f = &c->f[--c->depth];
	}
	f->pos = next;
	return next >= f->tree->ntasks && f->failing;
}

int
cursor_enter(struct cursor *c, const struct play *tree, size_t seq)
{
	struct cursor_frame *f;

	if (c->depth >= CURSOR_DEPTH)
		return -1;
	f = &c->f[++c->depth];
	f->tree = tree;
	f->pos = 0;
	f->failing = 0;
	f->seq = seq;
	return 0;
}

void
cursor_end(struct cursor *c)
{
	c->depth = 0;
	c->f[0].pos = c->f[0].tree->ntasks;
	c->f[0].failing = 0;
}
