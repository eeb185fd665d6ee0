/* Host patterns against tests/data/inventory/good/patterns.yml; every
 * expected list was produced by `ansible PATTERN --list-hosts` (2.14). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "inventory/inventory.h"
#include "inventory/pattern.h"

static int
setup(void **state)
{
	struct inventory	*inv = inventory_new();
	char			*cause = NULL;

	if (inventory_add_source(inv,
	    "tests/data/inventory/good/patterns.yml", &cause) != 0 ||
	    inventory_finish(inv, &cause) != 0) {
		fprintf(stderr, "%s\n", cause);
		return -1;
	}
	*state = inv;
	return 0;
}

static int
teardown(void **state)
{
	inventory_free(*state);
	return 0;
}

static void
expect(struct inventory *inv, const char *pattern, const char *limit,
    const char *joined)
{
	char	**hosts, *cause = NULL, buf[1024] = "";
	size_t	  n, i;

	if (inventory_select_limit(inv, pattern, limit, &hosts, &n,
	    &cause) != 0)
		fail_msg("%s: %s", pattern, cause);
	for (i = 0; i < n; i++) {
		strcat(buf, i ? " " : "");
		strcat(buf, hosts[i]);
	}
	if (strcmp(buf, joined) != 0)
		fail_msg("pattern '%s': got '%s', want '%s'", pattern, buf,
		    joined);
	pattern_hosts_free(hosts, n);
}

static void
test_names_groups(void **state)
{
	struct inventory *inv = *state;

	expect(inv, "all", NULL, "h0 w1 w2 w3 d1 d2 e2 g1 e1");
	expect(inv, "*", NULL, "h0 w1 w2 w3 d1 d2 e2 g1 e1");
	expect(inv, "web", NULL, "w1 w2 w3 e1 e2");
	expect(inv, "ungrouped", NULL, "h0");
	expect(inv, "g1", NULL, "g1");
	expect(inv, "nothing", NULL, "");
}

static void
test_globs_regex(void **state)
{
	struct inventory *inv = *state;

	expect(inv, "w*", NULL, "w1 w2 w3 e1 e2");
	expect(inv, "web*", NULL, "w1 w2 w3 e1 e2");
	expect(inv, "~[wd]1", NULL, "w1 d1");
	expect(inv, "~1", NULL, "");	/* anchored like re.match */
}

static void
test_operators(void **state)
{
	struct inventory *inv = *state;

	expect(inv, "db:web", NULL, "d1 w2 d2 w1 w3 e1 e2");
	expect(inv, "web,db", NULL, "w1 w2 w3 e1 e2 d1 d2");
	expect(inv, "gcp:db", NULL, "e2 d2 g1 d1 w2");
	expect(inv, "web:&gcp", NULL, "e2");
	expect(inv, "web:!web_eu", NULL, "w1 w2 w3");
	expect(inv, "!db", NULL, "h0 w1 w3 e2 g1 e1");
	expect(inv, "&gcp", NULL, "d2 e2 g1");
	/* unions first, then intersections, then exclusions */
	expect(inv, "db:!w2:&gcp", NULL, "d2");
	expect(inv, "!w2,&gcp,db", NULL, "d2");
	expect(inv, "e2:w1", NULL, "e2 w1");
}

static void
test_subscripts(void **state)
{
	struct inventory	*inv = *state;
	char			**hosts, *cause = NULL;
	size_t			  n;

	expect(inv, "web[0]", NULL, "w1");
	expect(inv, "web[-1]", NULL, "e2");
	expect(inv, "web[1:3]", NULL, "w2 w3 e1");
	expect(inv, "web[2:]", NULL, "w3 e1 e2");
	expect(inv, "web_eu:db[0]", NULL, "e1 e2 d1");
	assert_int_equal(inventory_select(inv, "web[9]", &hosts, &n, &cause),
	    -1);
	assert_string_equal(cause,
	    "no hosts matched the subscripted pattern 'web[9]'");
	free(cause);
}

static void
test_limit_and_file(void **state)
{
	struct inventory	*inv = *state;
	char			 path[] = "/tmp/tcptune-limit-XXXXXX";
	FILE			*fp;
	int			 fd;

	expect(inv, "all", "web", "w1 w2 w3 e2 e1");
	expect(inv, "web", "gcp:db", "w2 e2");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	fp = fdopen(fd, "w");
	fputs("d1\n\n  g1  \nweb_eu\n", fp);
	fclose(fp);
	{
		char *pat = NULL;

		assert_true(asprintf(&pat, "@%s", path) > 0);
		expect(inv, pat, NULL, "d1 g1 e1 e2");
		expect(inv, "all", pat, "d1 e2 g1 e1");
		free(pat);
	}
	unlink(path);
}

static void
test_bad_patterns(void **state)
{
	struct inventory	*inv = *state;
	char			**hosts, *cause = NULL;
	size_t			  n;

	assert_int_equal(inventory_select(inv, "~(web", &hosts, &n, &cause),
	    -1);
	assert_true(strncmp(cause, "invalid host pattern '~(web': ", 30) == 0);
	free(cause);
	cause = NULL;
	assert_int_equal(inventory_select(inv, "@/nonexistent/limit", &hosts,
	    &n, &cause), -1);
	assert_string_equal(cause, "unable to read limit file "
	    "'/nonexistent/limit': No such file or directory");
	free(cause);
}

static void
expect_refused(struct inventory *inv, const char *pattern, const char *msg)
{
	char	**hosts, *cause = NULL;
	size_t	  n;

	assert_int_equal(inventory_select(inv, pattern, &hosts, &n, &cause),
	    -1);
	assert_string_equal(cause, msg);
	free(cause);
}

/* Regexes glibc would expand into gigabytes (found by fuzzing: "~e" and a
 * hundred '+' took over 2 GiB) are refused before regcomp; the lazy and
 * possessive suffixes Python allows still compile. */
static void
test_costly_regex(void **state)
{
	struct inventory	*inv = *state;
	char			 big[160], msg[256];

	memset(big, '+', sizeof big);
	memcpy(big, "~e", 2);
	big[sizeof big - 1] = '\0';
	snprintf(msg, sizeof msg, "invalid host pattern '%s': multiple repeat",
	    big);
	expect_refused(inv, big, msg);
	expect_refused(inv, "~web{2}{3}", "invalid host pattern '~web{2}{3}': "
	    "multiple repeat");
	expect_refused(inv, "~((a{99}){99}){99}", "invalid host pattern "
	    "'~((a{99}){99}){99}': too large once its repetitions are "
	    "expanded");
	expect_refused(inv, "~x{50001}", "invalid host pattern '~x{50001}': "
	    "too large once its repetitions are expanded");
	expect(inv, "~w[0-9]+?$", NULL, "w1 w2 w3");
	expect(inv, "~d[0-9]++$", NULL, "d1 d2");
	expect(inv, "~((w)([1-2]{1}))$", NULL, "w1 w2");
	expect(inv, "~[w]3{1}$", NULL, "w3");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names_groups),
		cmocka_unit_test(test_globs_regex),
		cmocka_unit_test(test_operators),
		cmocka_unit_test(test_subscripts),
		cmocka_unit_test(test_limit_and_file),
		cmocka_unit_test(test_bad_patterns),
		cmocka_unit_test(test_costly_regex),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
