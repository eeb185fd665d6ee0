/* HTTP(S) client over libcurl: GET (dynamic inventories) and POST of JSON
 * (webhooks), each with timeouts and retries.
 *
 * Security defaults: only http:// and https:// are spoken (no file://, no
 * other curl protocol, also after a redirect; an https:// request is never
 * redirected to plain http). TLS certificates and host names are verified;
 * TCPTUNE_INSECURE_TLS=1 in the environment turns that off, and
 * http_url_warning says so for the caller to print loudly. TCPTUNE_CA_BUNDLE
 * names a PEM file of CA certificates to trust instead of the system store.
 * A bearer token is sent with CURLAUTH_BEARER, so curl drops it when a
 * redirect leads to another host, and it is never sent over plain http to
 * anything but loopback. Messages name a URL by its scheme, host and port
 * only (http_url_redact): the path and query of a webhook or inventory
 * URL are often its credential (Slack's /services/T…/B…/SECRET,
 * ?token=…), so they are never printed, nor the token; what curl or the
 * server says back is scrubbed of them too (http_scrub).
 *
 * Retries: an attempt is repeated after a connection error (refused,
 * unresolved name, reset, nothing received, a connect that timed out), an
 * HTTP 5xx or 429; the waits between attempts are 1 s, 2 s, 4 s ... A 4xx
 * other than 429, a TLS failure or a slow transfer that timed out after
 * connecting are final. */
#ifndef TCPTUNE_HTTP_H
#define TCPTUNE_HTTP_H

#include <jansson.h>
#include <stddef.h>

#define HTTP_CONNECT_TIMEOUT	10		/* seconds */
#define HTTP_TIMEOUT		30		/* seconds, whole transfer */
#define HTTP_MAX_BODY		(64 * 1024 * 1024)
#define HTTP_MAX_REDIRECTS	5

struct http_opts {
	int		 connect_timeout;	/* seconds; 0: HTTP_CONNECT_TIMEOUT */
	int		 timeout;		/* seconds; 0: HTTP_TIMEOUT */
	int		 attempts;		/* total tries; 0: 1 */
	const char	*bearer_token;		/* "Authorization: Bearer", or NULL */
};

struct http_response {
	long	 status;	/* HTTP status of the last attempt, 0 if none */
	char	*body;		/* always NUL-terminated after a response */
	size_t	 len;
	int	 attempts;	/* tries made */
};

/* Both return 0 on a 2xx answer (the body in *resp, which the caller clears
 * with http_response_clear), else -1 with *cause naming the method and URL
 * (redacted: "https://cmdb.example/…"):
 *   "GET URL: HTTP 404" (plus ": first line" of a short text/plain or JSON
 *   body), "GET URL: <curl's message>" for connection and TLS failures,
 *   " (3 attempts)" appended when more than one try was made.
 * resp may be NULL when the body is not wanted. GET follows up to
 * HTTP_MAX_REDIRECTS redirects; POST follows none. */
int	http_get(const char *url, const struct http_opts *opts,
	    struct http_response *resp, char **cause);
int	http_post_json(const char *url, const json_t *body,
	    const struct http_opts *opts, struct http_response *resp,
	    char **cause);
void	http_response_clear(struct http_response *resp);

/* --- pure helpers (no network), exposed for the unit tests --- */

enum http_scheme { HTTP_SCHEME_NONE = 0, HTTP_SCHEME_HTTP, HTTP_SCHEME_HTTPS };

/* "http://..." or "https://..." (case-insensitive), else NONE: how an
 * inventory source is told from a path. */
enum http_scheme http_url_scheme(const char *s);
/* The URL's host is loopback: localhost, 127.0.0.0/8 or ::1. 0 when the URL
 * does not parse. */
int	 http_url_is_loopback(const char *url);
/* U+2026 in UTF-8: what stands for a part of a URL left out. */
#define HTTP_ELLIPSIS	"\xe2\x80\xa6"
/* The URL as messages show it (allocated): "scheme://host[:port]/…", the
 * userinfo, path, query and fragment dropped ("https://h/" when there was
 * none to drop); enough to say which server, never the credential a path
 * or query may be. A string curl cannot parse is cut the same way by hand
 * (scheme, then the host after the last '@', then "/…"); control
 * characters show as '?'. Every message that names a URL goes through
 * this one function. */
char	*http_url_redact(const char *url);
/* text with each secret part of url (userinfo, path, query, fragment, whole
 * and their pieces of 8 characters or more) and token (may be NULL)
 * replaced by HTTP_ELLIPSIS (allocated): for what curl or a server says
 * back, such as a receiver that quotes the request in its error body. */
char	*http_scrub(const char *text, const char *url, const char *token);
/* NULL if a URL is fine to use quietly, else an allocated warning for the
 * caller to print: plain http to a host that is not loopback, or https with
 * TCPTUNE_INSECURE_TLS=1. An error (-1, *cause) when the URL is not an
 * http(s) URL or does not parse; *warning is then NULL. */
int	 http_url_check(const char *url, char **warning, char **cause);
/* Whether TCPTUNE_INSECURE_TLS=1 is set (only "1" counts). */
int	 http_insecure_tls(void);
/* Retry policy: curl_code is a CURLcode, status the HTTP status (0 if
 * none), connected whether a TCP connection was made. */
int	 http_should_retry(int curl_code, long status, int connected);
/* Wait before attempt n+1 (n >= 1) in milliseconds: 1000, 2000, 4000 ...
 * capped at 30000. */
unsigned http_backoff_ms(int n);

#endif
