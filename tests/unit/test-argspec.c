/* modules/argspec.c: a role's argument spec checked with Ansible's
 * messages (the texts below are what ansible-core 2.14's
 * ArgumentSpecValidator printed for the same spec and values; e2e/lang-loops
 * compares a whole run with ansible-playbook). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "modules/argspec.h"

static const char spec_text[] =
    "{\"port\": {\"type\": \"int\", \"required\": true},"
    " \"mode\": {\"type\": \"str\", \"choices\": [\"fast\", \"slow\"]},"
    " \"hosts\": {\"type\": \"list\", \"choices\": [\"a\", \"b\"]},"
    " \"on\": {\"type\": \"bool\"}, \"ratio\": {\"type\": \"float\"},"
    " \"more\": {\"type\": \"dict\", \"elements\": \"str\"},"
    " \"need\": {\"required\": true}}";

/* The messages of values (JSON) against the spec, joined with '|'. */
static char *
check(const char *values, const char *literals)
{
	json_t	*spec = json_loads(spec_text, 0, NULL);
	json_t	*v = json_loads(values, 0, NULL);
	json_t	*lit = literals != NULL ? json_loads(literals, 0, NULL) : NULL;
	json_t	*errs, *e;
	size_t	 i, len = 1;
	char	*out;

	assert_non_null(spec);
	assert_non_null(v);
	errs = argspec_check(spec, v, lit);
	json_array_foreach(errs, i, e)
		len += strlen(json_string_value(e)) + 1;
	out = calloc(1, len);
	json_array_foreach(errs, i, e) {
		if (i > 0)
			strcat(out, "|");
		strcat(out, json_string_value(e));
	}
	json_decref(errs);
	json_decref(spec);
	json_decref(v);
	json_decref(lit);
	return out;
}

static void
expect(const char *values, const char *literals, const char *want)
{
	char *got = check(values, literals);

	assert_string_equal(got, want);
	free(got);
}

static void
test_valid(void **state)
{
	(void)state;
	/* strings converted as Ansible converts them */
	expect("{\"port\": \"80\", \"need\": 1, \"mode\": \"slow\","
	    " \"hosts\": \"a,b\", \"on\": \"yes\", \"ratio\": \"0.5\","
	    " \"more\": \"{\\\"k\\\": 1}\"}", NULL, "");
	expect("{\"port\": 1, \"need\": 1, \"more\": \"a=1, b=2\"}", NULL, "");
	expect("{\"port\": 1, \"need\": [], \"on\": 0, \"ratio\": 2}", NULL,
	    "");
}

static void
test_errors_in_ansibles_order(void **state)
{
	(void)state;
	expect("{}", NULL, "missing required arguments: need, port");
	expect("{\"port\": \"eighty\", \"need\": 1, \"mode\": \"medium\"}",
	    "{\"port\": true}",
	    "argument 'port' is of type <class "
	    "'ansible.parsing.yaml.objects.AnsibleUnicode'> and we were unable "
	    "to convert to int: <class "
	    "'ansible.parsing.yaml.objects.AnsibleUnicode'> cannot be "
	    "converted to an int|value of mode must be one of: fast, slow, "
	    "got: medium");
	expect("{\"port\": 1.5, \"need\": 1, \"hosts\": [\"a\", \"c\", \"d\"]}",
	    NULL, "argument 'port' is of type <class 'float'> and we were "
	    "unable to convert to int: <class 'float'> cannot be converted to "
	    "an int|value of hosts must be one or more of: a, b. Got no match "
	    "for: c, d");
	expect("{\"port\": 1, \"need\": 1, \"ratio\": [1], \"more\": 3}",
	    NULL, "argument 'ratio' is of type <class 'list'> and we were "
	    "unable to convert to float: <class 'list'> cannot be converted "
	    "to a float|argument 'more' is of type <class 'int'> and we were "
	    "unable to convert to dict: <class 'int'> cannot be converted to "
	    "a dict");
	expect("{\"port\": 1, \"need\": 1, \"more\": \"[1]\"}", NULL,
	    "argument 'more' is of type <class 'str'> and we were unable to "
	    "convert to dict: dictionary requested, could not parse JSON or "
	    "key=value");
}

static void
test_unchecked(void **state)
{
	json_t	*spec = json_loads(spec_text, 0, NULL), *u;

	(void)state;
	u = argspec_unchecked(spec);
	assert_int_equal(json_array_size(u), 1);
	assert_string_equal(json_string_value(json_array_get(u, 0)),
	    "more.elements");
	json_decref(u);
	json_decref(spec);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid),
		cmocka_unit_test(test_errors_in_ansibles_order),
		cmocka_unit_test(test_unchecked),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
