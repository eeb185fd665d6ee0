/* The pure parts of lib/http.c: telling URLs from paths, loopback
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

#include "http.h"

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

static void
test_redact(void **state)
{
	char *s;

	(void)state;
	s = http_url_redact("https://alice:hunter2@cmdb.example/inv?x=1");
	assert_null(strstr(s, "hunter2"));
	assert_null(strstr(s, "alice"));
	assert_string_equal(s, "https://cmdb.example/inv?x=1");
	free(s);
	/* without credentials the URL is shown exactly as given */
	s = http_url_redact("HTTP://Cmdb.Example:8080/a//b");
	assert_string_equal(s, "HTTP://Cmdb.Example:8080/a//b");
	free(s);
	s = http_url_redact("not a url");
	assert_string_equal(s, "not a url");
	free(s);
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
	assert_string_equal(w, "'http://cmdb.example/i' is plain http: "
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
	    "'ftp://x/y' is not an http:// or https:// URL");
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
	assert_string_equal(cause, "GET http://198.18.0.1:9/x: refusing to "
	    "send a bearer token over plain http; use https");
	free(cause);
	cause = NULL;
	assert_int_equal(http_get("file:///etc/passwd", NULL, NULL, &cause),
	    -1);
	assert_string_equal(cause,
	    "GET file:///etc/passwd: not an http:// or https:// URL");
	free(cause);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scheme),
		cmocka_unit_test(test_loopback),
		cmocka_unit_test(test_redact),
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_retry_policy),
		cmocka_unit_test(test_backoff),
		cmocka_unit_test(test_refusals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
