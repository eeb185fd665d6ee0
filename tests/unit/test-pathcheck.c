/* pathcheck: iperf3.sh's path output read (every fact, and what it
 * refuses), the MTU verdict of every probe sequence (ok, blackhole,
 * frag_needed, unknown), the pair's summary of both ends' counters, its
 * table line, and the blackholes tcp_buffers reads from the memo. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "remote/pathcheck.h"

static long long
num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_integer(v) ? (long long)json_integer_value(v) : -1;
}

static const char *
str(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

#define CLEAN \
	"@route wan0 198.19.0.1\n@mtu 1500\n@drops 3 7\n@ping 50 50\n" \
	"@pmtu 1500 ok\n"

static void
test_parse(void **state)
{
	json_t *j = pathcheck_parse(CLEAN);

	(void)state;
	assert_string_equal(str(j, "interface"), "wan0");
	assert_string_equal(str(j, "source"), "198.19.0.1");
	assert_int_equal(num(j, "mtu"), 1500);
	assert_int_equal(num(j, "rx_dropped"), 3);
	assert_int_equal(num(j, "tx_dropped"), 7);
	assert_int_equal(num(json_object_get(j, "pings"), "sent"), 50);
	assert_int_equal(num(json_object_get(j, "pings"), "received"), 50);
	assert_int_equal(json_array_size(json_object_get(j, "pmtu")), 1);
	json_decref(j);
	assert_null(pathcheck_parse(NULL));
}

static void
test_parse_refuses(void **state)
{
	/* no src, counters that are not numbers, more answers than pings,
	 * an unknown result, a line of something else: each left out */
	json_t *j = pathcheck_parse("@route eth0 -\n@drops - 12x\n"
	    "@ping 5 6\n@pmtu 1500 maybe\nPING 198.19.0.2\n@mtu\n");

	(void)state;
	assert_string_equal(str(j, "interface"), "eth0");
	assert_null(json_object_get(j, "source"));
	assert_null(json_object_get(j, "rx_dropped"));
	assert_null(json_object_get(j, "tx_dropped"));
	assert_null(json_object_get(j, "pings"));
	assert_null(json_object_get(j, "pmtu"));
	assert_null(json_object_get(j, "mtu"));
	json_decref(j);
}

static json_t *
mtu_of(const char *text)
{
	json_t *c = pathcheck_parse(text), *v = pathcheck_mtu(c);

	json_decref(c);
	return v;
}

static void
test_mtu_verdicts(void **state)
{
	json_t *v;

	(void)state;
	v = mtu_of(CLEAN);
	assert_string_equal(str(v, "state"), "ok");
	assert_int_equal(num(v, "path_mtu"), 1500);
	json_decref(v);

	/* GCP's 1460 behind a filtered ICMP */
	v = mtu_of("@route wan0 198.19.0.1\n@mtu 1500\n@ping 50 50\n"
	    "@pmtu 1500 lost\n@pmtu 1492 lost\n@pmtu 1460 ok\n");
	assert_string_equal(str(v, "state"), "blackhole");
	assert_int_equal(num(v, "path_mtu"), 1460);
	assert_non_null(strstr(str(v, "detail"), "1500-byte packets with DF "
	    "get no answer, 1460-byte ones do"));
	assert_non_null(strstr(str(v, "detail"), "tcp_mtu_probing=1"));
	json_decref(v);

	/* the ICMP came back once: the kernel knows the MTU */
	v = mtu_of("@route wan0 198.19.0.1\n@mtu 1500\n@ping 50 50\n"
	    "@pmtu 1500 local=1400\n");
	assert_string_equal(str(v, "state"), "frag_needed");
	assert_int_equal(num(v, "path_mtu"), 1400);
	json_decref(v);

	/* nothing with DF passes at any size: not called a blackhole */
	v = mtu_of("@route wan0 198.19.0.1\n@mtu 1500\n@ping 50 50\n"
	    "@pmtu 1500 lost\n@pmtu 1492 lost\n@pmtu 1460 lost\n"
	    "@pmtu 1400 lost\n@pmtu 1280 lost\n");
	assert_string_equal(str(v, "state"), "unknown");
	assert_true(json_is_null(json_object_get(v, "path_mtu")));
	json_decref(v);

	/* no ping answered: ICMP filtered */
	v = mtu_of("@route wan0 198.19.0.1\n@mtu 1500\n@ping 50 0\n");
	assert_string_equal(str(v, "state"), "unknown");
	assert_non_null(strstr(str(v, "detail"), "ICMP does not pass"));
	json_decref(v);

	/* no route (no ip(8)) */
	v = mtu_of("@ping 50 50\n");
	assert_string_equal(str(v, "state"), "unknown");
	json_decref(v);
	v = pathcheck_mtu(NULL);
	assert_string_equal(str(v, "detail"), "not checked");
	json_decref(v);
}

static void
test_summary(void **state)
{
	json_t *cb = pathcheck_parse("@route wan0 198.19.0.1\n@mtu 1500\n"
	    "@drops 3 7\n@ping 200 180\n@pmtu 1500 ok\n");
	json_t *ca = pathcheck_parse("@route wan0 198.19.0.1\n@mtu 1500\n"
	    "@drops 3 28\n");
	json_t *sb = pathcheck_parse("@route wan0 198.19.0.2\n@mtu 1500\n"
	    "@drops 10 0\n");
	/* the server's counter went back: its interface was recreated */
	json_t *sa = pathcheck_parse("@route wan0 198.19.0.2\n@mtu 1500\n"
	    "@drops 2 0\n");
	json_t *p, *loss, *d;
	char *t;

	(void)state;
	p = pathcheck_summary(cb, ca, "lab01", sb, sa, "lab02");
	loss = json_object_get(p, "loss");
	assert_int_equal(num(loss, "sent"), 200);
	assert_int_equal(num(loss, "received"), 180);
	assert_true(json_real_value(json_object_get(loss, "rate")) == 0.1);
	assert_string_equal(str(p, "interface"), "wan0");
	assert_int_equal(num(p, "interface_mtu"), 1500);
	d = json_object_get(json_object_get(p, "drops"), "lab01");
	assert_int_equal(num(d, "rx_dropped"), 0);
	assert_int_equal(num(d, "tx_dropped"), 21);
	d = json_object_get(json_object_get(p, "drops"), "lab02");
	assert_true(json_is_null(json_object_get(d, "rx_dropped")));
	assert_int_equal(num(d, "tx_dropped"), 0);
	t = pathcheck_text(p);
	assert_string_equal(t, "loss 20/200 (10.0%); MTU 1500 ok; drops "
	    "during the runs: lab01 wan0 rx 0 tx 21, lab02 wan0 rx ? tx 0");
	free(t);
	json_decref(p);

	/* the server not reached: its drops absent; no pings */
	json_decref(cb);
	cb = pathcheck_parse("@route wan0 198.19.0.1\n@mtu 1500\n@drops 0 0\n");
	p = pathcheck_summary(cb, ca, "lab01", NULL, NULL, "lab02");
	assert_true(json_is_null(json_object_get(p, "loss")));
	assert_null(json_object_get(json_object_get(p, "drops"), "lab02"));
	t = pathcheck_text(p);
	assert_string_equal(t, "loss not checked; MTU unknown; drops during "
	    "the runs: lab01 wan0 rx 3 tx 28");
	free(t);
	json_decref(p);
	json_decref(cb);
	json_decref(ca);
	json_decref(sb);
	json_decref(sa);
}

static void
test_blackholes(void **state)
{
	json_t *hole = pathcheck_parse("@route wan0 198.19.0.1\n@mtu 1500\n"
	    "@ping 50 50\n@pmtu 1500 lost\n@pmtu 1492 lost\n@pmtu 1460 ok\n");
	json_t *clean = pathcheck_parse(CLEAN);
	json_t *memo = json_object(), *p;
	char *s, *t;

	(void)state;
	json_object_set_new(memo, "lab03", pathcheck_summary(clean, NULL,
	    "lab01", NULL, NULL, "lab03"));
	assert_null(pathcheck_blackholes(memo));
	assert_null(pathcheck_blackholes(NULL));
	p = pathcheck_summary(hole, NULL, "lab01", NULL, NULL, "lab02");
	t = pathcheck_text(p);
	assert_string_equal(t, "loss 0/50 (0.0%); MTU BLACKHOLE: 1500 lost, "
	    "1460 passes");
	free(t);
	json_object_set_new(memo, "lab02", p);
	s = pathcheck_blackholes(memo);
	assert_string_equal(s, "to lab02: 1500 lost, 1460 passes");
	free(s);
	json_decref(memo);
	json_decref(hole);
	json_decref(clean);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_parse_refuses),
		cmocka_unit_test(test_mtu_verdicts),
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_blackholes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
