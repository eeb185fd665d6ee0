/* The run's open connections stay within the pool's bound: opening one more
 * closes the idle one used longest ago; one in use is never closed (the
 * pool then holds more for a while, until one is idle again); using a
 * connection makes it the newest; a closed one leaves the pool. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "run/conn-pool.h"

struct fake {
	char	name;
	int	busy;	/* its lock is held: in use */
	int	open;
};

static int
close_idle(void *entry)
{
	struct fake *f = entry;

	if (f->busy)
		return 0;
	f->open = 0;
	return 1;
}

static struct fake	a, b, c, d;

/* A pool of 2 with a and b open, c and d closed. */
static void
two_open(struct conn_pool *p)
{
	a = (struct fake){ 'a', 0, 0 };
	b = (struct fake){ 'b', 0, 0 };
	c = (struct fake){ 'c', 0, 0 };
	d = (struct fake){ 'd', 0, 0 };
	conn_pool_init(p, 2, close_idle);
	a.open = b.open = 1;
	conn_pool_use(p, &a);
	conn_pool_use(p, &b);
	assert_int_equal(p->n, 2);
}

/* "open" the fake (its connection is new or used): as host_exec does. */
static void
use(struct conn_pool *p, struct fake *f)
{
	f->open = 1;
	conn_pool_use(p, f);
}

static void
test_least_recently_used_closes(void **state)
{
	struct conn_pool	p;

	(void)state;
	two_open(&p);
	use(&p, &c);			/* a is the oldest */
	assert_int_equal(p.n, 2);
	assert_false(a.open);
	assert_true(b.open && c.open);
	use(&p, &b);			/* b is the newest now */
	use(&p, &d);			/* so c goes */
	assert_false(c.open);
	assert_true(b.open && d.open);
	assert_ptr_equal(p.open[0], &b);
	assert_ptr_equal(p.open[1], &d);
	conn_pool_free(&p);
}

static void
test_busy_is_never_closed(void **state)
{
	struct conn_pool	p;

	(void)state;
	two_open(&p);
	a.busy = 1;
	use(&p, &c);			/* a is in use: b goes instead */
	assert_true(a.open);
	assert_false(b.open);
	c.busy = 1;
	use(&p, &d);			/* a and c in use, d the new one */
	assert_int_equal(p.n, 3);
	assert_true(a.open && c.open && d.open);
	a.busy = 0;
	c.busy = 0;
	use(&p, &d);			/* idle again: back to the bound */
	assert_int_equal(p.n, 2);
	assert_false(a.open);
	assert_true(c.open && d.open);
	conn_pool_free(&p);
}

static void
test_closed_leaves(void **state)
{
	struct conn_pool	p;

	(void)state;
	two_open(&p);
	a.open = 0;			/* its connection broke */
	conn_pool_closed(&p, &a);
	assert_int_equal(p.n, 1);
	use(&p, &c);			/* room for c: b stays */
	assert_int_equal(p.n, 2);
	assert_true(b.open && c.open);
	conn_pool_closed(&p, &a);	/* not there: nothing happens */
	assert_int_equal(p.n, 2);
	conn_pool_free(&p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_least_recently_used_closes),
		cmocka_unit_test(test_busy_is_never_closed),
		cmocka_unit_test(test_closed_leaves),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
