/* The open connections of a run, bounded by its concurrency rather than by
 * the fleet: a host's libssh session (~75 KiB of buffers and crypto state
 * on the controller, and an sshd process on the host) stays open after its
 * step, so that its next step reuses it, but only while fewer than `max`
 * are open. Opening one more closes the idle connection used longest ago;
 * its host reconnects if a later step needs it.
 *
 * The pool knows its entries only as pointers and closes one through the
 * close_idle hook, which must only try the entry's lock: it returns 1 when
 * it closed the connection, 0 when the entry is in use. Locking: the pool's
 * lock is always taken after an entry's own (held by whoever uses that
 * connection); an entry's lock is only ever tried under the pool's, so a
 * connection in use is never closed and no thread waits for another while
 * holding the pool. */
#ifndef TCPTUNE_CONN_POOL_H
#define TCPTUNE_CONN_POOL_H

#include <pthread.h>
#include <stddef.h>

struct conn_pool {
	pthread_mutex_t	  lock;
	void		**open;		/* least recently used first */
	size_t		  n, alloc;
	size_t		  max;
	int		(*close_idle)(void *entry);
};

void	conn_pool_init(struct conn_pool *p, size_t max,
	    int (*close_idle)(void *entry));
void	conn_pool_free(struct conn_pool *p);
/* entry (its lock held) has just opened its connection, or used it: it
 * goes last. When more than max are open, idle ones are closed, oldest
 * first. */
void	conn_pool_use(struct conn_pool *p, void *entry);
/* entry (its lock held) closed its connection. */
void	conn_pool_closed(struct conn_pool *p, void *entry);

#endif
