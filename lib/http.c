/* libcurl wrapper: see http.h for the policy (timeouts, retries, TLS). */
#include "http.h"

#include <arpa/inet.h>
#include <curl/curl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "strbuf.h"
#include "xalloc.h"

#ifndef TCPTUNE_VERSION
#define TCPTUNE_VERSION "0"
#endif

static pthread_once_t	 global_once = PTHREAD_ONCE_INIT;
static CURLcode		 global_rc;

static void
global_init(void)
{
	global_rc = curl_global_init(CURL_GLOBAL_DEFAULT);
}

/* ---- pure helpers ---- */

enum http_scheme
http_url_scheme(const char *s)
{
	if (strncasecmp(s, "http://", 7) == 0)
		return HTTP_SCHEME_HTTP;
	if (strncasecmp(s, "https://", 8) == 0)
		return HTTP_SCHEME_HTTPS;
	return HTTP_SCHEME_NONE;
}

/* The host part of url (allocated, IPv6 without brackets), or NULL. */
static char *
url_host(const char *url)
{
	CURLU	*u = curl_url();
	char	*host = NULL, *out = NULL;
	size_t	 len;

	if (u == NULL)
		return NULL;
	if (curl_url_set(u, CURLUPART_URL, url, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_HOST, &host, 0) != CURLUE_OK)
		goto out;
	len = strlen(host);
	if (len >= 2 && host[0] == '[' && host[len - 1] == ']')
		out = xstrndup(host + 1, len - 2);
	else
		out = xstrdup(host);
out:
	curl_free(host);
	curl_url_cleanup(u);
	return out;
}

int
http_url_is_loopback(const char *url)
{
	char		*host = url_host(url);
	struct in_addr	 a4;
	struct in6_addr	 a6;
	int		 r = 0;

	if (host == NULL)
		return 0;
	if (strcasecmp(host, "localhost") == 0)
		r = 1;
	else if (inet_pton(AF_INET, host, &a4) == 1)
		r = (ntohl(a4.s_addr) >> 24) == 127;
	else if (inet_pton(AF_INET6, host, &a6) == 1)
		r = IN6_IS_ADDR_LOOPBACK(&a6);
	free(host);
	return r;
}

char *
http_url_redact(const char *url)
{
	CURLU	*u = curl_url();
	char	*user = NULL, *s = NULL, *out;

	if (u == NULL)
		return xstrdup(url);
	if (curl_url_set(u, CURLUPART_URL, url, 0) != CURLUE_OK) {
		curl_url_cleanup(u);
		return xstrdup(url);
	}
	if (curl_url_get(u, CURLUPART_USER, &user, 0) != CURLUE_OK) {
		/* nothing to hide: keep the URL exactly as given */
		curl_url_cleanup(u);
		return xstrdup(url);
	}
	curl_url_set(u, CURLUPART_USER, NULL, 0);
	curl_url_set(u, CURLUPART_PASSWORD, NULL, 0);
	if (curl_url_get(u, CURLUPART_URL, &s, 0) != CURLUE_OK)
		out = xstrdup("(unprintable URL)");
	else
		out = xstrdup(s);
	curl_free(s);
	curl_free(user);
	curl_url_cleanup(u);
	return out;
}

int
http_insecure_tls(void)
{
	const char *s = getenv("TCPTUNE_INSECURE_TLS");

	return s != NULL && strcmp(s, "1") == 0;
}

int
http_url_check(const char *url, char **warning, char **cause)
{
	enum http_scheme	 scheme = http_url_scheme(url);
	char			*host, *shown;
	int			 r = -1;

	*warning = NULL;
	shown = http_url_redact(url);
	if (scheme == HTTP_SCHEME_NONE) {
		fail(cause, "'%s' is not an http:// or https:// URL", shown);
		goto out;
	}
	if ((host = url_host(url)) == NULL || *host == '\0') {
		free(host);
		fail(cause, "'%s' is not a valid URL", shown);
		goto out;
	}
	free(host);
	if (scheme == HTTP_SCHEME_HTTP && !http_url_is_loopback(url)) {
		*warning = xprintf("'%s' is plain http: anyone on the path can "
		    "read and change what is sent and received; use https",
		    shown);
	} else if (scheme == HTTP_SCHEME_HTTPS && http_insecure_tls()) {
		*warning = xprintf("TLS certificate verification is OFF for "
		    "'%s' (TCPTUNE_INSECURE_TLS=1): anyone on the path can "
		    "impersonate the server", shown);
	}
	r = 0;
out:
	free(shown);
	return r;
}

int
http_should_retry(int curl_code, long status, int connected)
{
	switch (curl_code) {
	case CURLE_OK:
		return status >= 500 || status == 429;
	case CURLE_COULDNT_RESOLVE_PROXY:
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_COULDNT_CONNECT:
	case CURLE_SEND_ERROR:
	case CURLE_RECV_ERROR:
	case CURLE_GOT_NOTHING:
	case CURLE_PARTIAL_FILE:
		return 1;
	case CURLE_OPERATION_TIMEDOUT:
		/* a connect that timed out is a connection error; a slow
		 * answer would only be slow again */
		return !connected;
	default:
		return 0;
	}
}

unsigned
http_backoff_ms(int n)
{
	unsigned ms = 1000;

	while (n-- > 1 && ms < 30000)
		ms *= 2;
	return ms > 30000 ? 30000 : ms;
}

/* ---- transfers ---- */

struct body {
	struct strbuf	sb;
	int		too_big;
};

static size_t
on_write(char *data, size_t size, size_t nmemb, void *arg)
{
	struct body	*b = arg;
	size_t		 n = size * nmemb;

	if (b->sb.len + n > HTTP_MAX_BODY) {
		b->too_big = 1;
		return 0;	/* CURLE_WRITE_ERROR */
	}
	strbuf_add(&b->sb, data, n);
	return n;
}

static void
sleep_ms(unsigned ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) != 0)
		;
}

/* ": first line" of a short text answer, for error messages; "" if the
 * body is empty, HTML or binary. Allocated. */
static char *
body_excerpt(CURL *h, const struct strbuf *sb)
{
	char		*ct = NULL, *out;
	size_t		 i, n;

	curl_easy_getinfo(h, CURLINFO_CONTENT_TYPE, &ct);
	if (ct == NULL || sb->len == 0 ||
	    (strncasecmp(ct, "text/plain", 10) != 0 &&
	    strncasecmp(ct, "application/json", 16) != 0))
		return xstrdup("");
	for (n = 0; n < sb->len && n < 200; n++) {
		if (sb->buf[n] == '\n' || sb->buf[n] == '\r')
			break;
	}
	out = xmalloc(n + 3);
	out[0] = ':';
	out[1] = ' ';
	for (i = 0; i < n; i++) {
		unsigned char c = sb->buf[i];

		out[i + 2] = (c < 0x20 || c == 0x7f) ? '?' : (char)c;
	}
	out[n + 2] = '\0';
	if (n == 0)
		out[0] = '\0';
	return out;
}

static int
transfer(const char *method, const char *url, const char *post,
    size_t postlen, const struct http_opts *opts, struct http_response *resp,
    char **cause)
{
	static const struct http_opts	 defaults;
	enum http_scheme		 scheme = http_url_scheme(url);
	struct curl_slist		*headers = NULL;
	struct body			 b;
	char				 errbuf[CURL_ERROR_SIZE], *shown, *ex;
	char				*agent;
	const char			*ca;
	CURL				*h = NULL;
	CURLcode			 rc = CURLE_OK;
	curl_off_t			 connect_us;
	long				 status = 0;
	int				 attempts, n, r = -1;

	if (opts == NULL)
		opts = &defaults;
	attempts = opts->attempts > 0 ? opts->attempts : 1;
	shown = http_url_redact(url);
	agent = xprintf("tcptune/%s", TCPTUNE_VERSION);
	strbuf_init(&b.sb);
	b.too_big = 0;
	if (resp != NULL)
		memset(resp, 0, sizeof *resp);

	if (scheme == HTTP_SCHEME_NONE) {
		fail(cause, "%s %s: not an http:// or https:// URL", method,
		    shown);
		goto out;
	}
	if (opts->bearer_token != NULL && scheme == HTTP_SCHEME_HTTP &&
	    !http_url_is_loopback(url)) {
		fail(cause, "%s %s: refusing to send a bearer token over plain "
		    "http; use https", method, shown);
		goto out;
	}
	pthread_once(&global_once, global_init);
	if (global_rc != CURLE_OK) {
		fail(cause, "cannot initialise libcurl: %s",
		    curl_easy_strerror(global_rc));
		goto out;
	}
	if ((h = curl_easy_init()) == NULL) {
		fail(cause, "cannot initialise libcurl");
		goto out;
	}

	curl_easy_setopt(h, CURLOPT_URL, url);
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h, CURLOPT_USERAGENT, agent);
	curl_easy_setopt(h, CURLOPT_ERRORBUFFER, errbuf);
	curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(h, CURLOPT_REDIR_PROTOCOLS_STR,
	    scheme == HTTP_SCHEME_HTTPS ? "https" : "http,https");
	curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT,
	    (long)(opts->connect_timeout > 0 ? opts->connect_timeout :
	    HTTP_CONNECT_TIMEOUT));
	curl_easy_setopt(h, CURLOPT_TIMEOUT, (long)(opts->timeout > 0 ?
	    opts->timeout : HTTP_TIMEOUT));
	curl_easy_setopt(h, CURLOPT_MAXFILESIZE_LARGE,
	    (curl_off_t)HTTP_MAX_BODY);
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_write);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, &b);
	curl_easy_setopt(h, CURLOPT_ACCEPT_ENCODING, "");
	if (http_insecure_tls()) {
		curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 0L);
		curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 0L);
	} else {
		curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 1L);
		curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 2L);
	}
	if ((ca = getenv("TCPTUNE_CA_BUNDLE")) != NULL && *ca != '\0')
		curl_easy_setopt(h, CURLOPT_CAINFO, ca);
	if (opts->bearer_token != NULL) {
		curl_easy_setopt(h, CURLOPT_HTTPAUTH, (long)CURLAUTH_BEARER);
		curl_easy_setopt(h, CURLOPT_XOAUTH2_BEARER,
		    opts->bearer_token);
	}
	if (post != NULL) {
		headers = curl_slist_append(headers,
		    "Content-Type: application/json");
		/* no "Expect: 100-continue" round trip for a small body */
		headers = curl_slist_append(headers, "Expect:");
		curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers);
		curl_easy_setopt(h, CURLOPT_POSTFIELDS, post);
		curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE,
		    (curl_off_t)postlen);
	} else {
		headers = curl_slist_append(headers,
		    "Accept: application/json");
		curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers);
		curl_easy_setopt(h, CURLOPT_HTTPGET, 1L);
		curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 1L);
		curl_easy_setopt(h, CURLOPT_MAXREDIRS,
		    (long)HTTP_MAX_REDIRECTS);
	}

	for (n = 1; n <= attempts; n++) {
		if (n > 1)
			sleep_ms(http_backoff_ms(n - 1));
		strbuf_reset(&b.sb);
		b.too_big = 0;
		errbuf[0] = '\0';
		status = 0;
		connect_us = 0;
		rc = curl_easy_perform(h);
		curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
		curl_easy_getinfo(h, CURLINFO_CONNECT_TIME_T, &connect_us);
		if (rc == CURLE_OK && status >= 200 && status < 300)
			break;
		if (!http_should_retry(rc, status, connect_us > 0))
			break;
	}
	if (n > attempts)
		n = attempts;
	if (resp != NULL) {
		resp->status = status;
		resp->attempts = n;
	}

	if (b.too_big || rc == CURLE_FILESIZE_EXCEEDED) {
		fail(cause, "%s %s: answer larger than %d MiB", method, shown,
		    HTTP_MAX_BODY / (1024 * 1024));
		goto out;
	}
	if (rc != CURLE_OK) {
		if (n > 1)
			fail(cause, "%s %s: %s (%d attempts)", method, shown,
			    errbuf[0] != '\0' ? errbuf : curl_easy_strerror(rc),
			    n);
		else
			fail(cause, "%s %s: %s", method, shown,
			    errbuf[0] != '\0' ? errbuf : curl_easy_strerror(rc));
		goto out;
	}
	if (status < 200 || status >= 300) {
		ex = body_excerpt(h, &b.sb);
		if (n > 1)
			fail(cause, "%s %s: HTTP %ld%s (%d attempts)", method,
			    shown, status, ex, n);
		else
			fail(cause, "%s %s: HTTP %ld%s", method, shown, status,
			    ex);
		free(ex);
		goto out;
	}
	if (resp != NULL)
		resp->body = strbuf_detach(&b.sb, &resp->len);
	r = 0;
out:
	curl_slist_free_all(headers);
	if (h != NULL)
		curl_easy_cleanup(h);
	strbuf_release(&b.sb);
	free(agent);
	free(shown);
	return r;
}

int
http_get(const char *url, const struct http_opts *opts,
    struct http_response *resp, char **cause)
{
	return transfer("GET", url, NULL, 0, opts, resp, cause);
}

int
http_post_json(const char *url, const json_t *body,
    const struct http_opts *opts, struct http_response *resp, char **cause)
{
	char	*s, *shown;
	int	 r;

	if ((s = json_dumps(body, JSON_COMPACT)) == NULL) {
		shown = http_url_redact(url);
		fail(cause, "POST %s: cannot encode the JSON body", shown);
		free(shown);
		return -1;
	}
	r = transfer("POST", url, s, strlen(s), opts, resp, cause);
	free(s);
	return r;
}

void
http_response_clear(struct http_response *resp)
{
	if (resp == NULL)
		return;
	free(resp->body);
	memset(resp, 0, sizeof *resp);
}
