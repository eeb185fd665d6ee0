/* base/util.c's pure helpers: Ansible's boolean() and os.path.abspath. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"

static void
test_ansible_bool(void **state)
{
	static const char *const yes[] = { "yes", " On ", "TRUE", "t", "1",
	    "y", NULL };
	static const char *const no[] = { "no", "Off", "false\n", "F", "0",
	    "n", NULL };
	json_t	*v;
	size_t	 i;
	int	 b;

	(void)state;
	for (i = 0; yes[i] != NULL; i++) {
		b = 0;
		assert_true(ansible_bool_text(yes[i], &b));
		assert_int_equal(b, 1);
	}
	for (i = 0; no[i] != NULL; i++) {
		b = 1;
		assert_true(ansible_bool_text(no[i], &b));
		assert_int_equal(b, 0);
	}
	assert_false(ansible_bool_text("maybe", &b));
	assert_false(ansible_bool_text("", &b));
	assert_false(ansible_bool_text("yess", &b));
	v = json_integer(1);
	assert_true(ansible_bool_value(v, &b));
	assert_int_equal(b, 1);
	json_decref(v);
	v = json_real(0.0);
	assert_true(ansible_bool_value(v, &b));
	assert_int_equal(b, 0);
	json_decref(v);
	v = json_integer(2);
	assert_false(ansible_bool_value(v, &b));
	json_decref(v);
	v = json_array();
	assert_false(ansible_bool_value(v, &b));
	json_decref(v);
}

static void
expect_abs(const char *in, const char *want)
{
	char *got = path_absolute(in);

	assert_non_null(got);
	assert_string_equal(got, want);
	free(got);
}

static void
test_path_absolute(void **state)
{
	char	cwd[PATH_MAX], want[PATH_MAX + 32];

	(void)state;
	expect_abs("/a/b", "/a/b");
	expect_abs("/a/./b//c/", "/a/b/c");
	expect_abs("/a/b/../c", "/a/c");
	expect_abs("/../..", "/");
	expect_abs("/", "/");
	assert_non_null(getcwd(cwd, sizeof cwd));
	snprintf(want, sizeof want, "%s/roles/x", strcmp(cwd, "/") == 0 ? "" :
	    cwd);
	expect_abs("./roles/x", want);
	expect_abs("roles/./y/../x", want);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ansible_bool),
		cmocka_unit_test(test_path_absolute),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
