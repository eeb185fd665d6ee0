/* The pure parts of lib/net/http.c: telling URLs from paths, loopback
 * detection, credentials removed for messages, the plain-http and
 * insecure-TLS warnings, the retry policy and the backoff schedule. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <curl/curl.h>
#include <stdlib.h>
#include <string.h>

#include "net/http.h"

static void
test_scheme(void **state)
{
	(void)state;
	assert_int_equal(http_url_scheme("http://a/x"), HTTP_SCHEME_HTTP);
	assert_int_equal(http_url_scheme("HTTPS://a/x"), HTTP_SCHEME_HTTPS);
	assert_int_equal(http_url_scheme("https://a"), HTTP_SCHEME_HTTPS);
	assert_int_equal(http_url_scheme("inventory.yml"), HTTP_SCHEME_NONE);
	assert_int_equal(http_url_scheme("web1,web2,"), HTTP_SCHEME_NONE);
	assert_int_equal(http_url_scheme("./http://x"), HTTP_SCHEME_NONE);
	assert_int_equal(http_url_scheme("file:///etc/hosts"),
	    HTTP_SCHEME_NONE);
	assert_int_equal(http_url_scheme("ftp://a/x"), HTTP_SCHEME_NONE);
	assert_int_equal(http_url_scheme("http:/a"), HTTP_SCHEME_NONE);
}

static void
test_loopback(void **state)
{
	(void)state;
	assert_true(http_url_is_loopback("http://127.0.0.1:8080/inv.json"));
	assert_true(http_url_is_loopback("http://127.3.4.5/"));
	assert_true(http_url_is_loopback("http://localhost/x"));
	assert_true(http_url_is_loopback("http://LOCALHOST:1/x"));
	assert_true(http_url_is_loopback("http://[::1]:8080/x"));
	assert_true(http_url_is_loopback("http://u:p@127.0.0.1/x"));
	assert_false(http_url_is_loopback("http://128.0.0.1/x"));
	assert_false(http_url_is_loopback("http://198.18.1.1/x"));
	assert_false(http_url_is_loopback("http://[::2]/x"));
	assert_false(http_url_is_loopback("http://cmdb.example/x"));
	/* a name that only starts like loopback is not */
	assert_false(http_url_is_loopback("http://127.0.0.1.evil.example/"));
	assert_false(http_url_is_loopback("http://localhost.evil.example/"));
	assert_false(http_url_is_loopback("not a url"));
}

/* http_url_redact(IN) is exactly OUT, and no SECRET of IN is in it. */
static void
redacts(const char *in, const char *out, const char *secret)
{
	char *s = http_url_redact(in);

	assert_string_equal(s, out);
	if (secret != NULL)
		assert_null(strstr(s, secret));
	free(s);
}

static void
test_redact(void **state)
{
	(void)state;
	/* a Slack webhook: the path is the credential */
	redacts("https://hooks.slack.com/services/T0001/B0002/XXsecretXX",
	    "https://hooks.slack.com/\u2026", "XXsecretXX");
	/* userinfo, path, query and fragment all go */
	redacts("https://alice:hunter2@cmdb.example/inv?x=1#f",
	    "https://cmdb.example/\u2026", "hunter2");
	redacts("https://alice@cmdb.example/", "https://cmdb.example/",
	    "alice");
	redacts("https://:@cmdb.example/x", "https://cmdb.example/\u2026",
	    NULL);
	/* the port stays: it says which service */
	redacts("HTTP://Cmdb.Example:8080/a//b",
	    "http://Cmdb.Example:8080/\u2026", "/a//b");
	/* IPv6, with a port and a zone */
	redacts("http://[::1]:8080/inv.json?token=s3cret",
	    "http://[::1]:8080/\u2026", "s3cret");
	redacts("http://u:pw@[2001:db8::1]/", "http://[2001:db8::1]/", "pw");
	redacts("http://[fe80::1%25eth0]:81/x", "http://[fe80::1%25eth0]:81/"
	    "\u2026", NULL);
	/* nothing after the host: nothing hidden, no ellipsis */
	redacts("https://hooks.example", "https://hooks.example/", NULL);
	redacts("https://hooks.example/", "https://hooks.example/", NULL);
	/* a query or a fragment only */
	redacts("https://cmdb.example?token=s3cret",
	    "https://cmdb.example/\u2026", "s3cret");
	redacts("https://cmdb.example/?token=s3cret",
	    "https://cmdb.example/\u2026", "s3cret");
	redacts("https://cmdb.example/#s3cret", "https://cmdb.example/\u2026",
	    "s3cret");
	redacts("https://cmdb.example/?", "https://cmdb.example/\u2026",
	    NULL);
}

/* What curl refuses to parse is cut by hand, never shown whole. */
static void
test_redact_unparsed(void **state)
{
	(void)state;
	/* a space in the path */
	redacts("https://hooks.example/services/sec ret",
	    "https://hooks.example/\u2026", "sec ret");
	/* a '/' in the password: everything before the last '@' goes */
	redacts("https://user:pa/ss@cmdb.example/x",
	    "https://cmdb.example/\u2026", "pa/ss");
	/* an invalid port */
	redacts("https://u:pw@cmdb.example:99999/x?t=s3cret",
	    "https://cmdb.example:99999/\u2026", "s3cret");
	/* no scheme: a webhook given without https:// */
	redacts("hooks.slack.com/services/T0001/B0002/XXsecretXX",
	    "hooks.slack.com/\u2026", "XXsecretXX");
	/* a control character cannot break the message's line */
	redacts("https://ho\nst/x y", "https://ho?st/\u2026", "\n");
	redacts("http://", "http://", NULL);
	redacts("not a url", "not a url", NULL);
	redacts("", "", NULL);
}

/* http_scrub(TEXT, URL, TOKEN) is exactly OUT. */
static void
scrubs(const char *text, const char *url, const char *token,
    const char *out)
{
	char *s = http_scrub(text, url, token);

	assert_string_equal(s, out);
	free(s);
}

static void
test_scrub(void **state)
{
	(void)state;
	/* the whole tail, the path, a piece of it */
	scrubs(": no hook at /services/T0001/B0002/XXsecretXX?a=1 (sorry)",
	    "https://h/services/T0001/B0002/XXsecretXX?a=1", NULL,
	    ": no hook at \u2026 (sorry)");
	scrubs(": no hook at /services/T0001/B0002/XXsecretXX",
	    "https://h/services/T0001/B0002/XXsecretXX?a=1", NULL,
	    ": no hook at \u2026");
	scrubs(": bad secret XXsecretXX, twice: XXsecretXX",
	    "https://h/services/T0001/B0002/XXsecretXX", NULL,
	    ": bad secret \u2026, twice: \u2026");
	/* query values and the userinfo */
	scrubs(": token tok-0123456789 expired",
	    "https://h/inv?token=tok-0123456789&x=1", NULL,
	    ": token \u2026 expired");
	scrubs(": user alice, password hunter2",
	    "https://alice:hunter2@h/inv", NULL,
	    ": user \u2026, password \u2026");
	/* the bearer token */
	scrubs(": Authorization: Bearer s3cret-token rejected",
	    "https://h/", "s3cret-token",
	    ": Authorization: Bearer \u2026 rejected");
	/* the host is not a secret; short pieces are not hunted */
	scrubs("Could not resolve host: h.example",
	    "https://h.example/a/b?x=1", NULL,
	    "Could not resolve host: h.example");
	/* a URL curl refuses: the part after the host still goes */
	scrubs(": /hook/sec ret?", "https://h/hook/sec ret?", NULL,
	    ": \u2026");
	scrubs("nothing to hide", NULL, NULL, "nothing to hide");
}

static void
test_check(void **state)
{
	char *w = NULL, *cause = NULL;

	(void)state;
	unsetenv("TCPTUNE_INSECURE_TLS");
	assert_int_equal(http_url_check("https://cmdb.example/i", &w,
	    &cause), 0);
	assert_null(w);
	assert_int_equal(http_url_check("http://127.0.0.1:9/i", &w,
	    &cause), 0);
	assert_null(w);
	assert_int_equal(http_url_check("http://u:secret@cmdb.example/i", &w,
	    &cause), 0);
	assert_non_null(w);
	assert_string_equal(w, "'http://cmdb.example/\u2026' is plain http: "
	    "anyone on the path can read and change what is sent and "
	    "received; use https");
	free(w);

	setenv("TCPTUNE_INSECURE_TLS", "1", 1);
	assert_true(http_insecure_tls());
	assert_int_equal(http_url_check("https://cmdb.example/i", &w,
	    &cause), 0);
	assert_non_null(w);
	assert_non_null(strstr(w, "TLS certificate verification is OFF"));
	free(w);
	setenv("TCPTUNE_INSECURE_TLS", "true", 1);
	assert_false(http_insecure_tls());
	unsetenv("TCPTUNE_INSECURE_TLS");

	assert_int_equal(http_url_check("ftp://x/y", &w, &cause), -1);
	assert_null(w);
	assert_string_equal(cause,
	    "'ftp://x/\u2026' is not an http:// or https:// URL");
	free(cause);
	cause = NULL;
	/* a webhook given without its scheme: the path still hidden */
	assert_int_equal(http_url_check("hooks.slack.com/services/T1/B2/SEC",
	    &w, &cause), -1);
	assert_string_equal(cause, "'hooks.slack.com/\u2026' is not an "
	    "http:// or https:// URL");
	free(cause);
	cause = NULL;
	assert_int_equal(http_url_check("http://", &w, &cause), -1);
	assert_non_null(cause);
	free(cause);
}

static void
test_retry_policy(void **state)
{
	(void)state;
	assert_true(http_should_retry(CURLE_OK, 500, 1));
	assert_true(http_should_retry(CURLE_OK, 503, 1));
	assert_true(http_should_retry(CURLE_OK, 429, 1));
	assert_false(http_should_retry(CURLE_OK, 200, 1));
	assert_false(http_should_retry(CURLE_OK, 404, 1));
	assert_false(http_should_retry(CURLE_OK, 401, 1));
	assert_true(http_should_retry(CURLE_COULDNT_CONNECT, 0, 0));
	assert_true(http_should_retry(CURLE_COULDNT_RESOLVE_HOST, 0, 0));
	assert_true(http_should_retry(CURLE_GOT_NOTHING, 0, 1));
	assert_true(http_should_retry(CURLE_OPERATION_TIMEDOUT, 0, 0));
	assert_false(http_should_retry(CURLE_OPERATION_TIMEDOUT, 0, 1));
	assert_false(http_should_retry(CURLE_PEER_FAILED_VERIFICATION, 0,
	    1));
	assert_false(http_should_retry(CURLE_SSL_CONNECT_ERROR, 0, 1));
	assert_false(http_should_retry(CURLE_UNSUPPORTED_PROTOCOL, 0, 0));
}

static void
test_backoff(void **state)
{
	(void)state;
	assert_int_equal(http_backoff_ms(1), 1000);
	assert_int_equal(http_backoff_ms(2), 2000);
	assert_int_equal(http_backoff_ms(3), 4000);
	assert_int_equal(http_backoff_ms(10), 30000);
	assert_int_equal(http_backoff_ms(1000), 30000);
}

static void
test_refusals(void **state)
{
	struct http_opts	 o = { 0 };
	char			*cause = NULL;

	(void)state;
	/* refused before any connection: no network needed */
	o.bearer_token = "tok-123";
	assert_int_equal(http_get("http://198.18.0.1:9/x", &o, NULL,
	    &cause), -1);
	assert_string_equal(cause, "GET http://198.18.0.1:9/\u2026: refusing to "
	    "send a bearer token over plain http; use https");
	free(cause);
	cause = NULL;
	assert_int_equal(http_get("file:///etc/passwd", NULL, NULL, &cause),
	    -1);
	assert_string_equal(cause,
	    "GET file:///\u2026: not an http:// or https:// URL");
	free(cause);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scheme),
		cmocka_unit_test(test_loopback),
		cmocka_unit_test(test_redact),
		cmocka_unit_test(test_redact_unparsed),
		cmocka_unit_test(test_scrub),
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_retry_policy),
		cmocka_unit_test(test_backoff),
		cmocka_unit_test(test_refusals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
