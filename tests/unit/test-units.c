/* units: size parsing (every unit, fractions, junk, overflow) and the
 * locale-free formatting the drop-in reasons rely on. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "base/units.h"

static void
expect_size(const char *s, uint64_t want)
{
	uint64_t	 v = 12345;
	char		*cause = NULL;

	if (parse_size(s, &v, &cause) != 0)
		fail_msg("parse_size('%s') failed: %s", s, cause);
	if (v != want)
		fail_msg("parse_size('%s') = %llu, want %llu", s,
		    (unsigned long long)v, (unsigned long long)want);
	assert_null(cause);
}

static void
expect_bad(const char *s, const char *needle)
{
	uint64_t	 v = 777;
	char		*cause = NULL;

	if (parse_size(s, &v, &cause) == 0)
		fail_msg("parse_size('%s') succeeded with %llu", s,
		    (unsigned long long)v);
	assert_non_null(cause);
	if (strstr(cause, needle) == NULL)
		fail_msg("parse_size('%s'): cause '%s' lacks '%s'", s, cause,
		    needle);
	assert_int_equal(v, 777);	/* untouched on failure */
	free(cause);
}

static void
test_parse_units(void **state)
{
	(void)state;
	expect_size("0", 0);
	expect_size("212992", 212992);
	expect_size("  4096  ", 4096);
	expect_size("512B", 512);
	expect_size("4K", 4096);
	expect_size("4KiB", 4096);
	expect_size("16M", 16777216);
	expect_size("16MiB", 16777216);
	expect_size("16 MiB", 16777216);
	expect_size("256MiB", 268435456);
	expect_size("1G", 1073741824);
	expect_size("1GiB", 1073741824);
	expect_size("2T", 2199023255552ULL);
	expect_size("2TiB", 2199023255552ULL);
	expect_size("1KB", 1000);
	expect_size("1kB", 1000);
	expect_size("64MB", 64000000);
	expect_size("1GB", 1000000000);
	expect_size("3TB", 3000000000000ULL);
	expect_size("18446744073709551615", UINT64_MAX);
	expect_size("16777215T", 16777215ULL << 40);
}

static void
test_parse_fractions(void **state)
{
	(void)state;
	expect_size("1.5K", 1536);
	expect_size("1.5MiB", 1572864);
	expect_size("0.5G", 536870912);
	expect_size("6.5MB", 6500000);
	expect_size("1.000000000000000000000K", 1024);
	expect_size("2.0", 2);
	expect_bad("0.1K", "not a whole number");
	expect_bad("1.5", "not a whole number");
	expect_bad("1.", "invalid size");
	expect_bad(".5M", "invalid size");
	expect_bad("1.0000000000000000000001K", "too many decimals");
}

static void
test_parse_errors(void **state)
{
	(void)state;
	expect_bad("", "invalid size");
	expect_bad("   ", "invalid size");
	expect_bad("MiB", "invalid size");
	expect_bad("-1", "invalid size");
	expect_bad("+1", "invalid size");
	expect_bad("12abc", "unknown unit");
	expect_bad("16m", "unknown unit");	/* case-sensitive */
	expect_bad("16mib", "unknown unit");
	expect_bad("16 Mi", "unknown unit");
	expect_bad("16 MiB x", "unknown unit");
	expect_bad("1 6", "unknown unit");
	expect_bad("0x10", "unknown unit");
	expect_bad("18446744073709551616", "too large");
	expect_bad("99999999999999999999999", "too large");
	expect_bad("16777216T", "too large");
	expect_bad("18446744073709551615K", "too large");
	expect_bad("16777215.9999999T", "not a whole number");
}

static void
expect_str(char *got, const char *want)
{
	assert_non_null(got);
	if (strcmp(got, want) != 0)
		fail_msg("got '%s', want '%s'", got, want);
	free(got);
}

static void
test_format_binary(void **state)
{
	(void)state;
	expect_str(format_bytes_binary(0), "0 B");
	expect_str(format_bytes_binary(1023), "1023 B");
	expect_str(format_bytes_binary(1024), "1 KiB");
	expect_str(format_bytes_binary(4096), "4 KiB");
	expect_str(format_bytes_binary(212992), "208 KiB");
	expect_str(format_bytes_binary(6291456), "6 MiB");
	expect_str(format_bytes_binary(16777216), "16 MiB");
	expect_str(format_bytes_binary(1073741824), "1 GiB");
	expect_str(format_bytes_binary(1536 * KiB), "1.5 MiB");
	expect_str(format_bytes_binary(1363148), "1.3 MiB");	/* 1.2999 */
	expect_str(format_bytes_binary(MiB + MiB / 20 + 1), "1.1 MiB");
	expect_str(format_bytes_binary(MiB + MiB / 20), "1.0 MiB");
	expect_str(format_bytes_binary(MiB + 1), "1.0 MiB");
	expect_str(format_bytes_binary(MiB - 1), "1.0 MiB");
	expect_str(format_bytes_binary(1028096 * KiB), "1004 MiB");
	expect_str(format_bytes_binary(1004 * MiB + 300 * KiB),
	    "1004.3 MiB");
	expect_str(format_bytes_binary(UINT64_MAX), "16.0 EiB");
	expect_str(format_bytes_binary((uint64_t)1 << 63), "8 EiB");
}

static void
test_format_decimal(void **state)
{
	(void)state;
	expect_str(format_bytes_decimal(0), "0 B");
	expect_str(format_bytes_decimal(999), "999 B");
	expect_str(format_bytes_decimal(1000), "1 kB");
	expect_str(format_bytes_decimal(11250000), "11.3 MB");	/* half up */
	expect_str(format_bytes_decimal(6562500), "6.6 MB");
	expect_str(format_bytes_decimal(1312500), "1.3 MB");
	expect_str(format_bytes_decimal(11500000), "11.5 MB");
	expect_str(format_bytes_decimal(64000000), "64 MB");
	expect_str(format_bytes_decimal(999999), "1.0 MB");
	expect_str(format_bytes_decimal(UINT64_MAX), "18.4 EB");
}

static void
test_format_tenths(void **state)
{
	(void)state;
	expect_str(format_tenths(92), "92");
	expect_str(format_tenths(92.0), "92");
	expect_str(format_tenths(92.44), "92.4");
	expect_str(format_tenths(92.45), "92.5");
	expect_str(format_tenths(104.96), "105");
	expect_str(format_tenths(0.05), "0.1");
	expect_str(format_tenths(0.04), "0");
	expect_str(format_tenths(1000), "1000");
	expect_str(format_tenths(2.5), "2.5");
	expect_str(format_tenths(-1.25), "-1.3");
	expect_str(format_tenths(-0.01), "0");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_units),
		cmocka_unit_test(test_parse_fractions),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_format_binary),
		cmocka_unit_test(test_format_decimal),
		cmocka_unit_test(test_format_tenths),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
