/* Host ranges and addresses: expansion like Ansible's
 * expand_hostname_range, and the host:port split of parse_address. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "hostrange.h"

static void
expect_names(const char *pattern, const char *joined)
{
	char	**names, *cause = NULL, buf[1024] = "";
	size_t	  n, i;

	assert_int_equal(hostrange_expand(pattern, &names, &n, &cause), 0);
	for (i = 0; i < n; i++) {
		strcat(buf, i ? " " : "");
		strcat(buf, names[i]);
	}
	assert_string_equal(buf, joined);
	hostrange_free(names, n);
}

static void
expect_error(const char *pattern, const char *msg)
{
	char	**names, *cause = NULL;
	size_t	  n;

	assert_int_equal(hostrange_expand(pattern, &names, &n, &cause), -1);
	assert_non_null(cause);
	assert_string_equal(cause, msg);
	free(cause);
}

static void
test_numeric(void **state)
{
	(void)state;
	expect_names("web1", "web1");
	expect_names("web[1:3].example.com",
	    "web1.example.com web2.example.com web3.example.com");
	expect_names("web[08:11]", "web08 web09 web10 web11");
	expect_names("w[:2]", "w0 w1 w2");
	expect_names("w[3:1]", "");	/* Python's empty range */
}

static void
test_stride(void **state)
{
	(void)state;
	expect_names("web[01:09:4]", "web01 web05 web09");
	expect_names("n[0:10:5]", "n0 n5 n10");
}

static void
test_alpha(void **state)
{
	(void)state;
	expect_names("db-[a:d]", "db-a db-b db-c db-d");
	expect_names("db-[a:e:2]", "db-a db-c db-e");
	expect_names("x[y:B]", "xy xz xA xB");
}

static void
test_multiple(void **state)
{
	(void)state;
	expect_names("r[1:2]-[a:b]", "r1-a r1-b r2-a r2-b");
}

static void
test_errors(void **state)
{
	(void)state;
	expect_error("web[01:5]", "host range must specify equal-length "
	    "begin and end formats");
	expect_error("web[1:]", "host range must specify end value");
	expect_error("web[1:2:3:4]",
	    "host range must be begin:end or begin:end:step");
	expect_error("web[1:5:0]", "host range step must not be zero");
	expect_error("web[d:a]", "host range must have begin <= end");
	expect_error("web[a:9]", "invalid host range begin 'a'");
	expect_error("web[1:3", "unclosed '[' in host range");
}

static void
expect_addr(const char *s, const char *host, int port, int parsed)
{
	int	 p, ok;
	char	*h = hostrange_parse_address(s, &p, &ok);

	assert_string_equal(h, host);
	assert_int_equal(p, port);
	assert_int_equal(ok, parsed);
	free(h);
}

static void
test_address(void **state)
{
	(void)state;
	expect_addr("web1", "web1", -1, 1);
	expect_addr("web1:2222", "web1", 2222, 1);
	expect_addr("web[01:03]:22", "web[01:03]", 22, 1);
	expect_addr("192.0.2.1:22", "192.0.2.1", 22, 1);
	expect_addr("[2001:db8::1]:22", "2001:db8::1", 22, 1);
	expect_addr("2001:db8::1", "2001:db8::1", -1, 1);
	expect_addr("web:&db", "web:&db", -1, 0);
	expect_addr("bad_:22", "bad_:22", -1, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_numeric),
		cmocka_unit_test(test_stride),
		cmocka_unit_test(test_alpha),
		cmocka_unit_test(test_multiple),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_address),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
