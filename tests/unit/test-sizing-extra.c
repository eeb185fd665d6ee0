/* sizing-extra: each key beyond buffers planned only where it applies
 * (long_lived, latency_sensitive with bbr and not without, mtu_probing on,
 * off and auto with and without a blackhole, netdev_backlog by the link
 * rate and never lower), a key the host lacks left out with why, and
 * tcp_adv_win_scale never planned. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "tune/dropin.h"
#include "tune/sizing-extra.h"

static const struct sizing_extra_key *
find(const struct sizing_extra *x, const char *key)
{
	size_t i;

	for (i = 0; i < x->n; i++)
		if (strcmp(x->keys[i].key, key) == 0)
			return &x->keys[i];
	return NULL;
}

static const char *
value(const struct sizing_extra *x, const char *key)
{
	const struct sizing_extra_key *k = find(x, key);

	return k != NULL ? k->value : NULL;
}

static void
test_nothing_by_default(void **state)
{
	struct sizing_extra_input in;
	struct sizing_extra x;

	(void)state;
	memset(&in, 0, sizeof in);
	in.bandwidth_mbit = 100000;
	in.cc = "bbr";
	in.mtu_probing = SIZING_AUTO;
	sizing_extra_compute(&in, &x);
	assert_int_equal(x.n, 0);
	sizing_extra_clear(&x);
}

static void
test_long_lived_and_lowat(void **state)
{
	struct sizing_extra_input in;
	struct sizing_extra x;

	(void)state;
	memset(&in, 0, sizeof in);
	in.long_lived = 1;
	in.latency_sensitive = 1;
	in.cc = "bbr";
	sizing_extra_compute(&in, &x);
	assert_string_equal(value(&x, "net.ipv4.tcp_slow_start_after_idle"),
	    "0");
	assert_string_equal(value(&x, "net.ipv4.tcp_notsent_lowat"), "16384");
	sizing_extra_clear(&x);

	/* not bbr: left out, and why */
	in.cc = "cubic";
	in.notsent_lowat = 131072;
	sizing_extra_compute(&in, &x);
	assert_non_null(find(&x, "net.ipv4.tcp_notsent_lowat"));
	assert_null(value(&x, "net.ipv4.tcp_notsent_lowat"));
	assert_non_null(strstr(find(&x, "net.ipv4.tcp_notsent_lowat")->reason,
	    "is cubic, not bbr"));
	sizing_extra_clear(&x);
	in.cc = "bbr";
	sizing_extra_compute(&in, &x);
	assert_string_equal(value(&x, "net.ipv4.tcp_notsent_lowat"),
	    "131072");
	sizing_extra_clear(&x);

	/* a key the host cannot take */
	in.st_idle = SIZING_READONLY;
	in.st_lowat = SIZING_ABSENT;
	sizing_extra_compute(&in, &x);
	assert_null(value(&x, "net.ipv4.tcp_slow_start_after_idle"));
	assert_string_equal(find(&x,
	    "net.ipv4.tcp_slow_start_after_idle")->reason, "read-only here");
	assert_string_equal(find(&x, "net.ipv4.tcp_notsent_lowat")->reason,
	    "not on this host");
	sizing_extra_clear(&x);
}

static void
test_mtu_probing(void **state)
{
	struct sizing_extra_input in;
	struct sizing_extra x;

	(void)state;
	memset(&in, 0, sizeof in);
	in.mtu_probing = SIZING_AUTO;
	sizing_extra_compute(&in, &x);
	assert_null(find(&x, "net.ipv4.tcp_mtu_probing"));
	sizing_extra_clear(&x);
	in.blackhole = "to lab02: 1500 lost, 1460 passes";
	sizing_extra_compute(&in, &x);
	assert_string_equal(value(&x, "net.ipv4.tcp_mtu_probing"), "1");
	assert_non_null(strstr(find(&x, "net.ipv4.tcp_mtu_probing")->reason,
	    "(to lab02: 1500 lost, 1460 passes)"));
	sizing_extra_clear(&x);
	in.mtu_probing = SIZING_OFF;
	sizing_extra_compute(&in, &x);
	assert_null(find(&x, "net.ipv4.tcp_mtu_probing"));
	sizing_extra_clear(&x);
	in.mtu_probing = SIZING_ON;
	in.blackhole = NULL;
	sizing_extra_compute(&in, &x);
	assert_string_equal(value(&x, "net.ipv4.tcp_mtu_probing"), "1");
	sizing_extra_clear(&x);
}

static void
test_backlog(void **state)
{
	struct sizing_extra_input in;
	struct sizing_extra x;

	(void)state;
	/* 60 ms of 1500-byte packets; fasterdata's 500000 at 100 Gbit/s */
	assert_int_equal(sizing_backlog(100000), 500000);
	assert_int_equal(sizing_backlog(10000), 50000);
	assert_int_equal(sizing_backlog(1000), 5000);
	assert_int_equal(sizing_backlog(100), SIZING_KERNEL_BACKLOG);
	assert_int_equal(sizing_backlog(0), SIZING_KERNEL_BACKLOG);

	memset(&in, 0, sizeof in);
	in.netdev_backlog = 1;
	in.bandwidth_mbit = 10000;
	sizing_extra_compute(&in, &x);
	assert_string_equal(value(&x, "net.core.netdev_max_backlog"),
	    "50000");
	sizing_extra_clear(&x);
	/* never lower */
	in.st_backlog = SIZING_PRESENT;
	in.cur_backlog = 250000;
	sizing_extra_compute(&in, &x);
	assert_null(value(&x, "net.core.netdev_max_backlog"));
	sizing_extra_clear(&x);
	/* 100 Mbit/s: the kernel's 1000 is enough */
	in.st_backlog = SIZING_UNKNOWN;
	in.bandwidth_mbit = 100;
	sizing_extra_compute(&in, &x);
	assert_null(value(&x, "net.core.netdev_max_backlog"));
	sizing_extra_clear(&x);
	in.bandwidth_mbit = 0;
	sizing_extra_compute(&in, &x);
	assert_string_equal(find(&x, "net.core.netdev_max_backlog")->reason,
	    "not planned: the link rate is unknown");
	sizing_extra_clear(&x);
}

static void
test_to_dropin(void **state)
{
	struct sizing_extra_input in;
	struct sizing_extra x;
	struct dropin d;

	(void)state;
	memset(&in, 0, sizeof in);
	in.long_lived = in.latency_sensitive = in.netdev_backlog = 1;
	in.cc = "bbr";
	in.mtu_probing = SIZING_ON;
	in.bandwidth_mbit = 100000;
	sizing_extra_compute(&in, &x);
	dropin_init(&d);
	sizing_extra_to_dropin(&x, &d);
	assert_int_equal(d.n, 4);
	assert_string_equal(dropin_get(&d, "net.core.netdev_max_backlog"),
	    "500000");
	/* obsolete since 6.6, assumed at its default 1 before: never */
	assert_null(dropin_get(&d, "net.ipv4.tcp_adv_win_scale"));
	dropin_free(&d);
	sizing_extra_clear(&x);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nothing_by_default),
		cmocka_unit_test(test_long_lived_and_lowat),
		cmocka_unit_test(test_mtu_probing),
		cmocka_unit_test(test_backlog),
		cmocka_unit_test(test_to_dropin),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
