/* libcurl wrapper: see http.h for the policy (timeouts, retries, TLS). */
#include "net/http.h"

#include <arpa/inet.h>
#include <curl/curl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "base/strbuf.h"
#include "base/xalloc.h"

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

/* s[0..n) with control characters as '?': a URL must not break the line
 * of the message that names it. */
static void
add_printable(struct strbuf *sb, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = s[i];

		strbuf_addch(sb, (c < 0x20 || c == 0x7f) ? '?' : (char)c);
	}
}

/* What follows the host: "" or "/" when there is nothing to hide, else
 * the ellipsis that says something was left out. */
static void
add_tail(struct strbuf *sb, int hidden)
{
	strbuf_addstr(sb, hidden ? "/" HTTP_ELLIPSIS : "/");
}

/* A string curl cannot parse (a space in the path, a '/' in a password,
 * no scheme), cut by hand: the scheme if any ends at auth; the userinfo
 * runs from auth to the last '@' before any '?' or '#' (what comes before
 * an '@' may be a password, even one containing a '/'); the host from
 * there to the first '/', '?' or '#', where the tail starts. */
struct rough_url {
	const char	*auth, *host, *tail;
};

static void
rough_split(const char *url, struct rough_url *r)
{
	const char *sep, *q, *end;

	r->auth = url;
	sep = strstr(url, "://");
	if (sep != NULL && (size_t)(sep - url) == strcspn(url, ":/?#@"))
		r->auth = sep + 3;
	r->host = r->auth;
	end = r->auth + strcspn(r->auth, "?#");
	for (q = r->auth; q < end; q++) {
		if (*q == '@')
			r->host = q + 1;
	}
	r->tail = r->host + strcspn(r->host, "/?#");
}

static char *
redact_unparsed(const char *url)
{
	struct strbuf		sb;
	struct rough_url	r;

	rough_split(url, &r);
	strbuf_init(&sb);
	add_printable(&sb, url, (size_t)(r.auth - url));
	add_printable(&sb, r.host, (size_t)(r.tail - r.host));
	if (*r.tail != '\0')
		add_tail(&sb, strcmp(r.tail, "/") != 0);
	return strbuf_detach(&sb, NULL);
}

/* A URL part, or NULL when absent (allocated by curl). */
static char *
url_part(CURLU *u, CURLUPart what)
{
	char *s = NULL;

	if (curl_url_get(u, what, &s, 0) != CURLUE_OK)
		return NULL;
	return s;
}

char *
http_url_redact(const char *url)
{
	CURLU		*u = curl_url();
	struct strbuf	 sb;
	char		*scheme, *host, *zone, *port, *path, *query, *frag;

	if (u == NULL || curl_url_set(u, CURLUPART_URL, url,
	    CURLU_NON_SUPPORT_SCHEME) != CURLUE_OK) {
		curl_url_cleanup(u);
		return redact_unparsed(url);
	}
	scheme = url_part(u, CURLUPART_SCHEME);
	host = url_part(u, CURLUPART_HOST);
	zone = url_part(u, CURLUPART_ZONEID);
	port = url_part(u, CURLUPART_PORT);
	path = url_part(u, CURLUPART_PATH);
	query = url_part(u, CURLUPART_QUERY);
	frag = url_part(u, CURLUPART_FRAGMENT);
	strbuf_init(&sb);
	strbuf_addf(&sb, "%s://", scheme != NULL ? scheme : "");
	if (host != NULL && zone != NULL && host[0] == '[') {
		/* "[fe80::1]" and "eth0" back into "[fe80::1%25eth0]" */
		add_printable(&sb, host, strlen(host) - 1);
		strbuf_addstr(&sb, "%25");
		add_printable(&sb, zone, strlen(zone));
		strbuf_addch(&sb, ']');
	} else if (host != NULL)
		add_printable(&sb, host, strlen(host));
	if (port != NULL)
		strbuf_addf(&sb, ":%s", port);
	add_tail(&sb, (path != NULL && strcmp(path, "/") != 0) ||
	    query != NULL || frag != NULL);
	curl_free(scheme);
	curl_free(host);
	curl_free(zone);
	curl_free(port);
	curl_free(path);
	curl_free(query);
	curl_free(frag);
	curl_url_cleanup(u);
	return strbuf_detach(&sb, NULL);
}

/* ---- scrubbing what others say back ---- */

#define SCRUB_MAX	64	/* needles; a longer URL is scrubbed in part */
#define SCRUB_WHOLE	4	/* a part shorter than this is not hunted */
#define SCRUB_PIECE	8	/* nor a piece of one shorter than this */

struct needles {
	char	*v[SCRUB_MAX];
	size_t	 n;
};

static void
needle_add(struct needles *nd, const char *s, size_t len, size_t min)
{
	if (len >= min && nd->n < SCRUB_MAX)
		nd->v[nd->n++] = xstrndup(s, len);
}

/* A secret part of a URL, whole and in pieces between its separators. */
static void
needle_add_part(struct needles *nd, const char *part)
{
	const char	*p;
	size_t		 n;

	if (part == NULL)
		return;
	needle_add(nd, part, strlen(part), SCRUB_WHOLE);
	for (p = part; *p != '\0'; p += n + (p[n] != '\0')) {
		n = strcspn(p, "/?#&=;:,+@");
		needle_add(nd, p, n, SCRUB_PIECE);
	}
}

/* The secret parts of url as curl parses it, or, for a string curl
 * refuses, everything after its scheme but the host. */
static void
needles_of_url(struct needles *nd, const char *url)
{
	static const CURLUPart	 parts[] = { CURLUPART_USER,
	    CURLUPART_PASSWORD, CURLUPART_PATH, CURLUPART_QUERY,
	    CURLUPART_FRAGMENT };
	static const char	 lead[] = { '\0', '\0', '\0', '?', '#' };
	CURLU			*u = curl_url();
	struct strbuf		 tail;
	struct rough_url	 r;
	char			*s;
	size_t			 i;

	strbuf_init(&tail);
	if (u != NULL && curl_url_set(u, CURLUPART_URL, url,
	    CURLU_NON_SUPPORT_SCHEME) == CURLUE_OK) {
		for (i = 0; i < sizeof parts / sizeof parts[0]; i++) {
			if ((s = url_part(u, parts[i])) == NULL)
				continue;
			if (strcmp(s, "/") != 0)
				needle_add_part(nd, s);
			/* path?query#fragment, whole, as a request line has it */
			if (lead[i] != '\0')
				strbuf_addch(&tail, lead[i]);
			if (i >= 2)
				strbuf_addstr(&tail, s);
			curl_free(s);
		}
		if (tail.len > 1)
			needle_add(nd, tail.buf, tail.len, SCRUB_WHOLE);
	} else {
		rough_split(url, &r);
		if (r.host > r.auth) {
			s = xstrndup(r.auth, (size_t)(r.host - 1 - r.auth));
			needle_add_part(nd, s);
			free(s);
		}
		if (strcmp(r.tail, "/") != 0)
			needle_add_part(nd, r.tail);
	}
	strbuf_release(&tail);
	curl_url_cleanup(u);
}

static int
longest_first(const void *a, const void *b)
{
	size_t la = strlen(*(char *const *)a), lb = strlen(*(char *const *)b);

	return la < lb ? 1 : la > lb ? -1 : 0;
}

char *
http_scrub(const char *text, const char *url, const char *token)
{
	struct needles	 nd = { .n = 0 };
	struct strbuf	 sb;
	char		*cur = xstrdup(text), *hit;
	const char	*p;
	size_t		 i;

	if (url != NULL)
		needles_of_url(&nd, url);
	if (token != NULL)
		needle_add(&nd, token, strlen(token), SCRUB_WHOLE);
	qsort(nd.v, nd.n, sizeof nd.v[0], longest_first);
	for (i = 0; i < nd.n; i++) {
		if (strstr(cur, nd.v[i]) == NULL)
			continue;
		strbuf_init(&sb);
		for (p = cur; (hit = strstr(p, nd.v[i])) != NULL;
		    p = hit + strlen(nd.v[i])) {
			strbuf_add(&sb, p, (size_t)(hit - p));
			strbuf_addstr(&sb, HTTP_ELLIPSIS);
		}
		strbuf_addstr(&sb, p);
		free(cur);
		cur = strbuf_detach(&sb, NULL);
	}
	for (i = 0; i < nd.n; i++)
		free(nd.v[i]);
	return cur;
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
	char				*agent, *said = NULL;
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
		said = http_scrub(errbuf[0] != '\0' ? errbuf :
		    curl_easy_strerror(rc), url, opts->bearer_token);
		if (n > 1)
			fail(cause, "%s %s: %s (%d attempts)", method, shown,
			    said, n);
		else
			fail(cause, "%s %s: %s", method, shown, said);
		goto out;
	}
	if (status < 200 || status >= 300) {
		ex = body_excerpt(h, &b.sb);
		said = http_scrub(ex, url, opts->bearer_token);
		free(ex);
		if (n > 1)
			fail(cause, "%s %s: HTTP %ld%s (%d attempts)", method,
			    shown, status, said, n);
		else
			fail(cause, "%s %s: HTTP %ld%s", method, shown, status,
			    said);
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
	free(said);
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
