/* webhook_text: the Slack-compatible "text" of a drift summary, exactly:
 * headline with counts and playbook, one line per item, Slack's & < >
 * escaped, newlines inside values flattened, the list cut at
 * WEBHOOK_MAX_LINES, missing members tolerated. webhook_post's failure
 * message names the server, never the URL's secret path or query. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "report/webhook.h"

static json_t *
parse(const char *s)
{
	json_t *j = json_loads(s, 0, NULL);

	assert_non_null(j);
	return j;
}

static void
test_drift(void **state)
{
	json_t	*j;
	char	*t;

	(void)state;
	j = parse("{\"drift\": true, \"hosts\": {\"in_sync\": 5, "
	    "\"drifted\": 1, \"unreachable\": 1, \"failed\": 0}, "
	    "\"items\": [{\"host\": \"web1\", \"key\": \"net.ipv4.tcp_rmem\", "
	    "\"expected\": \"4096 131072 33554432\", "
	    "\"live\": \"4096 131072 6291456\", \"cause\": \"overridden by "
	    "/etc/sysctl.d/99-z.conf\"}, {\"host\": \"web1\", \"key\": "
	    "\"net.core.rmem_max\", \"expected\": 33554432, \"live\": null, "
	    "\"cause\": \"missing <file> & \\nmore\"}], "
	    "\"playbook\": \"drift-check.yml\"}");
	t = webhook_text(j);
	assert_string_equal(t, "tcptune drift: DRIFT: 1 drifted, 5 in sync, "
	    "1 unreachable, 0 failed (playbook 'drift-check.yml')\n"
	    "- web1 net.ipv4.tcp_rmem: expected '4096 131072 33554432', "
	    "live '4096 131072 6291456' (overridden by "
	    "/etc/sysctl.d/99-z.conf)\n"
	    "- web1 net.core.rmem_max: expected '33554432' "
	    "(missing &lt;file&gt; &amp;  more)");
	free(t);
	json_decref(j);
}

static void
test_no_drift(void **state)
{
	json_t	*j;
	char	*t;

	(void)state;
	j = parse("{\"drift\": false, \"hosts\": {\"in_sync\": 6, "
	    "\"drifted\": 0, \"unreachable\": 0, \"failed\": 0}, "
	    "\"items\": []}");
	t = webhook_text(j);
	assert_string_equal(t, "tcptune drift: no drift: 0 drifted, 6 in "
	    "sync, 0 unreachable, 0 failed");
	free(t);
	json_decref(j);

	/* nothing at all: still a sentence */
	j = json_object();
	t = webhook_text(j);
	assert_string_equal(t, "tcptune drift: no drift: 0 drifted, 0 in "
	    "sync, 0 unreachable, 0 failed");
	free(t);
	json_decref(j);
}

static void
test_cut(void **state)
{
	json_t	*j, *items;
	char	*t, *p;
	int	 i, lines = 0;

	(void)state;
	j = parse("{\"drift\": true, \"hosts\": {\"drifted\": 30}}");
	items = json_array();
	for (i = 0; i < 25; i++)
		json_array_append_new(items, json_pack("{s:s,s:s}", "host",
		    "h", "key", "k"));
	json_object_set_new(j, "items", items);
	t = webhook_text(j);
	for (p = t; (p = strchr(p, '\n')) != NULL; p++)
		lines++;
	assert_int_equal(lines, WEBHOOK_MAX_LINES + 1);
	assert_non_null(strstr(t, "\n- h k\n"));
	assert_non_null(strstr(t, "\n... and 5 more"));
	free(t);
	json_decref(j);
}

static void
test_post_refuses_non_object(void **state)
{
	json_t	*j = json_array();
	char	*cause = NULL;

	(void)state;
	assert_int_equal(webhook_post("http://127.0.0.1:9/", j, &cause), -1);
	assert_string_equal(cause, "webhook payload must be a JSON object");
	free(cause);
	json_decref(j);
}

/* Refused before any connection, so no network: the message still shows
 * only the server. (tests/e2e/http-webhook.sh: the same after real 404s,
 * 500s and refused connections.) */
static void
test_post_hides_secret(void **state)
{
	json_t	*j = json_object();
	char	*cause = NULL;

	(void)state;
	assert_int_equal(webhook_post("ftp://hooks.example/services/T0001/"
	    "B0002/XXsecretXX?sig=q5ecretq5", j, &cause), -1);
	assert_string_equal(cause, "POST ftp://hooks.example/\u2026: not an "
	    "http:// or https:// URL");
	free(cause);
	cause = NULL;
	/* the scheme forgotten: still cut after the host */
	assert_int_equal(webhook_post("hooks.example/services/XXsecretXX", j,
	    &cause), -1);
	assert_string_equal(cause, "POST hooks.example/\u2026: not an "
	    "http:// or https:// URL");
	free(cause);
	json_decref(j);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_drift),
		cmocka_unit_test(test_no_drift),
		cmocka_unit_test(test_cut),
		cmocka_unit_test(test_post_refuses_non_object),
		cmocka_unit_test(test_post_hides_secret),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
