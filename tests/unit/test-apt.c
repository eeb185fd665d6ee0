/* package/apt: the module's decision (lib/tune/aptplan.c: install(),
 * remove() and package_status() of ansible/modules/apt.py, 2.14) on a
 * table of package states -- installed or not, config files only, a newer
 * candidate, none, unknown -- for present, latest and absent; when the
 * cache is updated; and the script's output as lib/remote/apt.c reads it.
 * e2e/apt-ansible compares the same with Ansible's module on a host. */
#include "remote/apt.h"
#include "tune/aptplan.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"

struct pcase {
	const char	*state;
	struct apt_seen	 pkg;
	const char	*action;	/* NULL: nothing to do */
	const char	*word;		/* its word */
	const char	*error;		/* the module's failure */
};

static const struct pcase pcases[] = {
	{ "present", { "bash", "ii ", "5.2-1", "5.2-2", 1 }, NULL, NULL, NULL },
	{ "present", { "bash", "ii ", "5.2-1", "5.2-1", 1 }, NULL, NULL, NULL },
	{ "present", { "bash", "hi ", "5.2-1", "5.2-2", 1 }, NULL, NULL, NULL },
	{ "latest", { "bash", "ii ", "5.2-1", "5.2-2", 1 }, "install",
	  "bash=5.2-2", NULL },
	{ "latest", { "bash", "ii ", "5.2-1", "5.2-1", 1 }, NULL, NULL, NULL },
	/* installed from nowhere: apt-cache's candidate is the installed */
	{ "latest", { "bash", "ii ", "5.2-1", "(none)", 1 }, NULL, NULL,
	  NULL },
	{ "present", { "hello", "", "", "2.10-3", 1 }, "install",
	  "hello=2.10-3", NULL },
	/* config files only, unpacked, half-installed: not installed */
	{ "present", { "hello", "rc ", "", "2.10-3", 1 }, "install",
	  "hello=2.10-3", NULL },
	{ "present", { "hello", "iU ", "2.10-3", "2.10-3", 1 }, "install",
	  "hello=2.10-3", NULL },
	{ "latest", { "hello", "", "", "2.10-3", 1 }, "install",
	  "hello=2.10-3", NULL },
	{ "present", { "nosuch", "", "", "", 0 }, NULL, NULL,
	  "No package matching 'nosuch' is available" },
	{ "latest", { "nosuch", "", "", "", 0 }, NULL, NULL,
	  "No package matching 'nosuch' is available" },
	/* known (a virtual package, or one without a version here) */
	{ "present", { "virt", "", "", "(none)", 1 }, NULL, NULL,
	  "no available installation candidate for virt" },
	{ "absent", { "bash", "ii ", "5.2-1", "5.2-2", 1 }, "remove", "bash",
	  NULL },
	{ "absent", { "hello", "rc ", "", "2.10-3", 1 }, NULL, NULL, NULL },
	{ "absent", { "nosuch", "", "", "", 0 }, NULL, NULL, NULL },
};

static void
test_decide(void **state)
{
	struct apt_plan	 plan;
	char		*cause;
	size_t		 i;
	int		 r;

	(void)state;
	for (i = 0; i < sizeof pcases / sizeof pcases[0]; i++) {
		const struct pcase *c = &pcases[i];

		print_message("case %zu\n", i);
		cause = NULL;
		r = apt_decide(c->state, &c->pkg, 1, &plan, &cause);
		if (c->error != NULL) {
			assert_int_equal(r, -1);
			assert_string_equal(cause, c->error);
			free(cause);
			continue;
		}
		assert_int_equal(r, 0);
		if (c->action == NULL) {
			assert_null(plan.action);
			assert_int_equal(plan.n, 0);
		} else {
			assert_string_equal(plan.action, c->action);
			assert_int_equal(plan.n, 1);
			assert_string_equal(plan.list[0], c->word);
			assert_null(plan.list[1]);
		}
		apt_plan_clear(&plan);
	}
}

/* Several packages: the ones to act on, in order; the first failure
 * fails the task, as the module's loop does. */
static void
test_decide_many(void **state)
{
	const struct apt_seen pkgs[] = {
		{ "bash", "ii ", "5.2-1", "5.2-2", 1 },
		{ "hello", "", "", "2.10-3", 1 },
		{ "sed", "ii ", "4.9-1", "4.9-1", 1 },
		{ "nosuch", "", "", "", 0 },
	};
	struct apt_plan	 plan;
	char		*cause = NULL;

	(void)state;
	assert_int_equal(apt_decide("latest", pkgs, 3, &plan, &cause), 0);
	assert_int_equal(plan.n, 2);
	assert_string_equal(plan.list[0], "bash=5.2-2");
	assert_string_equal(plan.list[1], "hello=2.10-3");
	apt_plan_clear(&plan);
	assert_int_equal(apt_decide("present", pkgs, 4, &plan, &cause), -1);
	assert_string_equal(cause, "No package matching 'nosuch' is "
	    "available");
	free(cause);
	assert_null(plan.list);
	assert_int_equal(apt_decide("absent", pkgs, 4, &plan, &cause), 0);
	assert_string_equal(plan.action, "remove");
	assert_int_equal(plan.n, 2);
	assert_string_equal(plan.list[1], "sed");
	apt_plan_clear(&plan);
}

static void
test_stale(void **state)
{
	(void)state;
	assert_false(apt_cache_stale(0, 0, 0, 100));	/* not asked */
	assert_true(apt_cache_stale(1, 0, 99, 100));
	assert_false(apt_cache_stale(1, 0, 100, 100));	/* >= now: fresh */
	assert_true(apt_cache_stale(0, 10, 89, 100));	/* valid time alone */
	assert_false(apt_cache_stale(0, 10, 90, 100));
	assert_false(apt_cache_stale(1, 3600, 99, 100));
}

static void
test_parse(void **state)
{
	static const char out[] = "tcptune-apt 1\n@cache\nmtime=1000\n"
	    "now=2000\n@update\nrc=0\nout=Hit:1\\nDone\nerr=\n@cache\n"
	    "after=1500\n@pkg\nname=bash\nstatus=ii \nversion=5.2-1\n"
	    "known=1\ncandidate=5.2-2\n@pkg\nname=x\nstatus=\nversion=\n"
	    "known=0\ncandidate=\n@action\nrc=100\nout=\nerr=E: no\n@done\n";
	struct apt_result	 r;
	char			*cause = NULL;

	(void)state;
	assert_int_equal(apt_parse(out, strlen(out), &r, &cause), 0);
	assert_int_equal(r.mtime, 1000);
	assert_int_equal(r.now, 2000);
	assert_int_equal(r.after, 1500);
	assert_true(r.update.ran);
	assert_string_equal(r.update.out, "Hit:1\nDone");
	assert_int_equal(r.npkgs, 2);
	assert_string_equal(r.pkgs[0].status, "ii ");
	assert_string_equal(r.pkgs[0].candidate, "5.2-2");
	assert_true(r.pkgs[0].known);
	assert_false(r.pkgs[1].known);
	assert_true(r.action.ran);
	assert_int_equal(r.action.rc, 100);
	assert_string_equal(r.action.err, "E: no");
	assert_false(r.mark.ran);
	apt_result_clear(&r);
	/* no update: after is -1 */
	assert_int_equal(apt_parse("tcptune-apt 1\n@cache\nmtime=5\n@done\n",
	    35, &r, &cause), 0);
	assert_int_equal(r.after, -1);
	apt_result_clear(&r);
	/* cut short, not the script's */
	assert_int_equal(apt_parse(out, strlen(out) - 6, &r, &cause), -1);
	free(cause);
	cause = NULL;
	assert_int_equal(apt_parse("hello\n", 6, &r, &cause), -1);
	free(cause);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decide),
		cmocka_unit_test(test_decide_many),
		cmocka_unit_test(test_stale),
		cmocka_unit_test(test_parse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
