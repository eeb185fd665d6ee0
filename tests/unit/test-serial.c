/* serial: batch sizes against the examples in Ansible's documentation
 * ("Setting the batch size with serial") and its pct_to_int() rules. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "playbook/serial.h"

/* All batch sizes for a serial value (JSON text) over total hosts, as a
 * string "a,b,c". */
static char *
batches(const char *json, size_t total)
{
	struct serial_spec	 s;
	json_t			*v = json_loads(json, JSON_DECODE_ANY, NULL);
	char			*cause = NULL, buf[512] = "";
	size_t			 i, n, sum = 0;

	assert_non_null(v);
	if (serial_parse(v, &s, &cause) != 0)
		fail_msg("%s: %s", json, cause);
	for (i = 0; (n = serial_batch_size(&s, i, total)) > 0; i++) {
		snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%zu",
		    i > 0 ? "," : "", n);
		sum += n;
		assert_true(i < 1000);
	}
	/* every host gets exactly one turn */
	assert_int_equal(sum, total);
	serial_free(&s);
	json_decref(v);
	return strdup(buf);
}

static void
check(const char *json, size_t total, const char *want)
{
	char *got = batches(json, total);

	if (strcmp(got, want) != 0)
		fail_msg("serial %s over %zu hosts: got %s, want %s", json,
		    total, got, want);
	free(got);
}

static void
test_documented_examples(void **state)
{
	(void)state;
	/* "serial: 3" with 6 hosts: two batches of 3 */
	check("3", 6, "3,3");
	/* the final batch holds the remainder */
	check("3", 7, "3,3,1");
	/* "serial: 30%" of 10 hosts: 3 per batch, remainder last */
	check("\"30%\"", 10, "3,3,3,1");
	/* "serial: [1, 5, 10]": 1, then 5, then 10 at a time */
	check("[1, 5, 10]", 30, "1,5,10,10,4");
	/* "serial: ['10%', '20%', '100%']" over 20 hosts */
	check("[\"10%\", \"20%\", \"100%\"]", 20, "2,4,14");
	/* mixed ints and percentages */
	check("[1, \"25%\"]", 12, "1,3,3,3,2");
}

static void
test_edges(void **state)
{
	struct serial_spec none = { NULL, 0 };

	(void)state;
	/* absent or 0: everybody at once */
	assert_int_equal(serial_batch_size(NULL, 0, 5), 5);
	assert_int_equal(serial_batch_size(NULL, 1, 5), 0);
	assert_int_equal(serial_batch_size(&none, 0, 5), 5);
	check("0", 5, "5");
	check("null", 5, "5");
	/* percentages round down, but never to 0 */
	check("\"1%\"", 5, "1,1,1,1,1");
	check("\"0%\"", 2, "1,1");
	check("\"50%\"", 5, "2,2,1");
	check("\"100%\"", 5, "5");
	/* larger than the fleet */
	check("10", 3, "3");
	/* a string int, as YAML may give it */
	check("\"2\"", 5, "2,2,1");
	/* a 0 in a list takes the rest */
	check("[1, 0]", 5, "1,4");
	/* no hosts, no batches */
	check("2", 0, "");
}

static void
test_parse_errors(void **state)
{
	static const struct {
		const char *json, *want;
	} bad[] = {
		{ "\"abc\"", "serial must be an int, a percentage like '25%' or "
		    "a list of those, got 'abc'" },
		{ "-1", "serial must not be negative, got -1" },
		{ "\"150%\"", "serial percentage must be 0% to 100%, got "
		    "'150%'" },
		{ "[]", "serial list must not be empty" },
		{ "[1, [2]]", "serial list items must be ints or percentages, "
		    "got list" },
		{ "1.5", "serial must be an int, a percentage like '25%' or a "
		    "list of those, got float" },
		{ "{\"a\": 1}", "serial must be an int, a percentage like '25%' "
		    "or a list of those, got mapping" },
		{ "\"25%%\"", "serial must be an int, a percentage like '25%' "
		    "or a list of those, got '25%%'" },
	};
	struct serial_spec	 s;
	json_t			*v;
	char			*cause;
	size_t			 i;

	(void)state;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		v = json_loads(bad[i].json, JSON_DECODE_ANY, NULL);
		assert_non_null(v);
		cause = NULL;
		assert_int_equal(serial_parse(v, &s, &cause), -1);
		if (strcmp(cause, bad[i].want) != 0)
			fail_msg("%s: got '%s', want '%s'", bad[i].json, cause,
			    bad[i].want);
		free(cause);
		json_decref(v);
	}
}

static void
test_str(void **state)
{
	struct serial_spec	 s;
	json_t			*v = json_loads("[1, \"25%\"]", 0, NULL);
	char			*str;

	(void)state;
	assert_int_equal(serial_parse(v, &s, NULL), 0);
	str = serial_str(&s);
	assert_string_equal(str, "1, 25%");
	free(str);
	serial_free(&s);
	json_decref(v);
	str = serial_str(NULL);
	assert_string_equal(str, "all");
	free(str);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_documented_examples),
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_str),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
