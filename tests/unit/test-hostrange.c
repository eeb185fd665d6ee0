/* Host ranges and addresses: expansion like Ansible's
 * expand_hostname_range, and the host:port split of parse_address. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "inventory/hostrange.h"

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

/* Ranges near the ends of a 64-bit integer: counted without signed
 * overflow (it used to slip past the cap or wrap into bogus names). */
static void
test_overflow(void **state)
{
	(void)state;
	/* shared/bugs/fuzz/ini-range-overflow-1.ini */
	expect_error("h[-9000000000000000000:9000000000000000000]",
	    "expands to more than 100000 host names (the cap applies to the "
	    "product of its ranges)");
	/* ini-range-overflow-2.ini: Python's range(0, 9e18 + 1, 9e18) */
	expect_names("h[0:9000000000000000000:9000000000000000000]",
	    "h0 h9000000000000000000");
	expect_names("h[9223372036854775798:9223372036854775799]",
	    "h9223372036854775798 h9223372036854775799");
	expect_names("h[-9223372036854775799:-9223372036854775798]",
	    "h-9223372036854775799 h-9223372036854775798");
	expect_names("h[9223372036854775799:-9223372036854775799:"
	    "-9223372036854775799]", "h9223372036854775799 h0");
	expect_names("h[-9223372036854775799:9223372036854775799:"
	    "9223372036854775799]", "h-9223372036854775799 h0 "
	    "h9223372036854775799");
	expect_names("h[5:1:-2]", "h5 h3");
	expect_names("h[1:5:-1]", "");
	expect_error("h[0:9223372036854775799]", "expands to more than 100000 "
	    "host names (the cap applies to the product of its ranges)");
}

/* The cap is on the product of the ranges of one name, not on each. */
static void
test_product_cap(void **state)
{
	char	**names, *cause = NULL;
	size_t	  n;

	(void)state;
	/* shared/bugs/fuzz/yaml-range-product.yml */
	expect_error("h[0:99999][0:99999][0:99999]", "expands to more than "
	    "100000 host names (the cap applies to the product of its "
	    "ranges)");
	expect_error("h[a:z][0:9999]", "expands to more than 100000 host "
	    "names (the cap applies to the product of its ranges)");
	assert_int_equal(hostrange_expand("h[0:99][0:999]", &names, &n,
	    &cause), 0);
	assert_int_equal(n, 100000);
	assert_string_equal(names[99999], "h99999");
	hostrange_free(names, n);
	assert_int_equal(hostrange_expand("h[1:100000]", &names, &n, &cause),
	    0);
	assert_int_equal(n, HOSTRANGE_MAX_NAMES);
	hostrange_free(names, n);
	expect_error("h[0:100000]", "expands to more than 100000 host names "
	    "(the cap applies to the product of its ranges)");
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
		cmocka_unit_test(test_overflow),
		cmocka_unit_test(test_product_cap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
