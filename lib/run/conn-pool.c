#include "run/conn-pool.h"

#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

void
conn_pool_init(struct conn_pool *p, size_t max, int (*close_idle)(void *))
{
	memset(p, 0, sizeof *p);
	pthread_mutex_init(&p->lock, NULL);
	p->max = max > 0 ? max : 1;
	p->close_idle = close_idle;
}

void
conn_pool_free(struct conn_pool *p)
{
	free(p->open);
	pthread_mutex_destroy(&p->lock);
}

static void
remove_at(struct conn_pool *p, size_t i)
{
	memmove(&p->open[i], &p->open[i + 1], (p->n - i - 1) *
	    sizeof *p->open);
	p->n--;
}

/* Take entry out of the list if it is there. Under p->lock. */
static void
unlist(struct conn_pool *p, void *entry)
{
	size_t i;

	for (i = 0; i < p->n; i++) {
		if (p->open[i] == entry) {
			remove_at(p, i);
			return;
		}
	}
}

/* Close idle connections, least recently used first, until at most max
 * are open or none left is idle (all in use: the pool may then hold more
 * than max for a while). Under p->lock. */
static void
trim(struct conn_pool *p, void *self)
{
	size_t i = 0;

	while (p->n > p->max && i < p->n) {
		if (p->open[i] != self && p->close_idle(p->open[i]))
			remove_at(p, i);
		else
			i++;
	}
}

void
conn_pool_use(struct conn_pool *p, void *entry)
{
	pthread_mutex_lock(&p->lock);
	unlist(p, entry);
	if (p->n == p->alloc) {
		p->alloc = p->alloc * 2 + 16;
		p->open = xreallocarray(p->open, p->alloc, sizeof *p->open);
	}
	p->open[p->n++] = entry;
	trim(p, entry);
	pthread_mutex_unlock(&p->lock);
}

void
conn_pool_closed(struct conn_pool *p, void *entry)
{
	pthread_mutex_lock(&p->lock);
	unlist(p, entry);
	pthread_mutex_unlock(&p->lock);
}
