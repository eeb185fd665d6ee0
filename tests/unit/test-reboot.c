/* wait_for_connection and reboot: their wait (modules/wait-loop.c, as the
 * plugins' do_until_success_or_timeout) on a fake clock -- a try that
 * succeeds at once, on the nth try, never; wait_for_connection's fixed
 * sleep and reboot's backoff (1, 2, 4, 8, 12, 12 s) -- and reboot's guard:
 * a host whose boot_id is the controller's own, or unreadable, is never
 * rebooted; and the command it runs. */
#include "base/xalloc.h"
#include "modules/reboot.h"
#include "modules/wait-loop.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

struct fake {
	double	 t;
	int	 succeed_at;	/* the try that succeeds (1 first), 0 never */
	int	 tries;
	double	 slept[32];
	int	 nslept;
	double	 try_cost;	/* seconds one try takes */
};

static double
fake_now(void *arg)
{
	return ((struct fake *)arg)->t;
}

static void
fake_sleep(void *arg, double s)
{
	struct fake *f = arg;

	if (f->nslept < 32)
		f->slept[f->nslept++] = s;
	f->t += s;
}

static int
fake_attempt(void *arg, char **err)
{
	struct fake *f = arg;

	f->t += f->try_cost;
	if (++f->tries == f->succeed_at)
		return 0;
	*err = xprintf("try %d failed", f->tries);
	return -1;
}

static void
test_wait_fixed(void **state)
{
	struct fake	 f = { .succeed_at = 1 };
	struct wait_ops	 ops = { fake_now, fake_sleep, fake_attempt, &f };
	char		*last;
	int		 tries;

	(void)state;
	assert_int_equal(wait_until(&ops, 600, 1, &last, &tries), 0);
	assert_int_equal(tries, 1);
	assert_null(last);
	assert_int_equal(f.nslept, 0);

	f = (struct fake){ .succeed_at = 4 };
	assert_int_equal(wait_until(&ops, 600, 5, &last, &tries), 0);
	assert_int_equal(tries, 4);
	assert_int_equal(f.nslept, 3);
	assert_true(f.slept[2] == 5);
	assert_true(f.t == 15);

	/* never: tries until the time is up, the last error kept */
	f = (struct fake){ .succeed_at = 0 };
	assert_int_equal(wait_until(&ops, 10, 1, &last, &tries), -1);
	assert_int_equal(tries, 10);
	assert_string_equal(last, "try 10 failed");
	free(last);

	/* a try that takes longer than the timeout is still made once */
	f = (struct fake){ .succeed_at = 0, .try_cost = 30 };
	assert_int_equal(wait_until(&ops, 10, 1, &last, &tries), -1);
	assert_int_equal(tries, 1);
	free(last);

	/* timeout 0: no try at all, as the plugin's while loop */
	f = (struct fake){ .succeed_at = 1 };
	assert_int_equal(wait_until(&ops, 0, 1, &last, &tries), -1);
	assert_int_equal(tries, 0);
	assert_null(last);
}

static void
test_wait_backoff(void **state)
{
	static const double want[] = { 1, 2, 4, 8, 12, 12, 12 };
	struct fake	 f = { .succeed_at = 8 };
	struct wait_ops	 ops = { fake_now, fake_sleep, fake_attempt, &f };
	char		*last;
	int		 tries, i;

	(void)state;
	assert_int_equal(wait_until(&ops, 600, 0, &last, &tries), 0);
	assert_int_equal(f.nslept, 7);
	for (i = 0; i < 7; i++)
		assert_true(f.slept[i] == want[i]);
	assert_true(wait_backoff(0) == 1);
	assert_true(wait_backoff(3) == 8);
	assert_true(wait_backoff(100) == 12);
}

static void
test_guard(void **state)
{
	static const char a[] = "0f6c3d2e-8a8b-4c55-9f53-3b1e3c8a2d10";
	static const char b[] = "7b1d9c0e-2f4a-4d1b-8e6f-5a4c3b2a1f00";
	char *cause = NULL;

	(void)state;
	assert_int_equal(reboot_guard("h", b, a, &cause), 0);
	assert_int_equal(reboot_guard("h", a, a, &cause), -1);
	assert_non_null(strstr(cause, "this controller's own"));
	assert_non_null(strstr(cause, a));
	free(cause);
	cause = NULL;
	assert_int_equal(reboot_guard("h", NULL, a, &cause), -1);
	assert_non_null(strstr(cause, "could not be read"));
	free(cause);
	cause = NULL;
	assert_int_equal(reboot_guard("h", "", a, &cause), -1);
	free(cause);
	cause = NULL;
	assert_int_equal(reboot_guard("h", "short", a, &cause), -1);
	free(cause);
	cause = NULL;
	assert_int_equal(reboot_guard("h", b, NULL, &cause), -1);
	assert_non_null(strstr(cause, "controller's own boot_id"));
	free(cause);
	cause = NULL;
	assert_int_equal(reboot_guard("h", b, "", &cause), -1);
	free(cause);
}

static void
test_command_line(void **state)
{
	char *s;

	(void)state;
	s = reboot_command_line(NULL, 0, "Reboot initiated by Ansible");
	assert_string_equal(s, "shutdown -r 0 'Reboot initiated by Ansible'");
	free(s);
	s = reboot_command_line(NULL, 150, "it's $(time)");
	assert_string_equal(s, "shutdown -r 2 'it'\\''s $(time)'");
	free(s);
	s = reboot_command_line("systemctl reboot", 150, "x");
	assert_string_equal(s, "systemctl reboot");
	free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wait_fixed),
		cmocka_unit_test(test_wait_backoff),
		cmocka_unit_test(test_guard),
		cmocka_unit_test(test_command_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
