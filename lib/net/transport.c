/* The SSH transport over libssh 0.10: options, connect, host key check,
 * authentication, and command execution (with sudo -S answered through
 * net/become.c). */
#include "net/transport.h"

#include <ctype.h>
#include <stdarg.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <libssh/callbacks.h>
#include <libssh/libssh.h>

#include "base/shquote.h"
#include "base/strbuf.h"
#include "base/util.h"
#include "base/xalloc.h"
#include "net/become.h"
#include "net/knownhosts.h"
#include "net/key-reuse.h"

struct transport {
	ssh_session	 session;
	char		*name;		/* inventory name */
	char		*who;		/* "'web1' (10.0.0.1:2222)", for messages */
	char		*user;		/* user we logged in as */
	char		*warning;	/* for transport_warning, or NULL */
	int		 connect_timeout;
	int		 command_timeout;
	int		 become;
	char		*become_user;
	char		*become_password; /* NULL: sudo -n; wiped on close */
	tp_trace_fn	 trace;
	void		*trace_arg;
	int		 ssh_debug;
	char		*kh_user;	/* known hosts files, expanded */
	char		*kh_global;	/* NULL: only kh_user (--known-hosts) */
};

static enum tp_status tp_fail(char **, enum tp_status, const char *, ...)
	    __attribute__((format(printf, 3, 4)));

static void trace(struct transport *t, enum tp_trace_kind kind,
    const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void
trace(struct transport *t, enum tp_trace_kind kind, const char *fmt, ...)
{
	va_list	 ap;
	char	*text;

	if (t->trace == NULL)
		return;
	va_start(ap, fmt);
	text = xvprintf(fmt, ap);
	va_end(ap);
	t->trace(t->trace_arg, t->name, kind, text);
	free(text);
}

/* libssh's log line, to the trace of the transport the thread is using. */
static void
libssh_log(int priority, const char *function, const char *buffer,
    void *userdata)
{
	struct transport *t = userdata;

	(void)priority;
	(void)function;
	if (t != NULL && t->trace != NULL)
		t->trace(t->trace_arg, t->name, TP_TRACE_SSH, buffer);
}

/* libssh's log state is per thread: point it at t for this call, or turn
 * it off for a transport that did not ask for it. */
static void
ssh_log_bind(struct transport *t)
{
	if (t->ssh_debug && t->trace != NULL) {
		ssh_set_log_callback(libssh_log);
		ssh_set_log_userdata(t);
		ssh_set_log_level(SSH_LOG_PROTOCOL);
	} else if (ssh_get_log_userdata() != NULL) {
		ssh_set_log_level(SSH_LOG_NOLOG);
		ssh_set_log_userdata(NULL);
	}
}

int
transport_global_init(void)
{
	struct sigaction sa;

	if (ssh_init() != SSH_OK)
		return -1;
	/* A write to a peer that went away must be an error on that host,
	 * not the death of the whole run. Respect a handler main installed. */
	if (sigaction(SIGPIPE, NULL, &sa) == 0 && sa.sa_handler == SIG_DFL) {
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = SIG_IGN;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGPIPE, &sa, NULL);
	}
	return 0;
}

const char *
tp_strerror(enum tp_status status)
{
	switch (status) {
	case TP_OK:
		return "ok";
	case TP_UNREACHABLE:
		return "unreachable";
	case TP_HOSTKEY:
		return "host key rejected";
	case TP_AUTH:
		return "authentication failed";
	case TP_FAILED:
		return "failed";
	case TP_TIMEOUT:
		return "timed out";
	case TP_BECOME:
		return "privilege escalation failed";
	}
	return "unknown transport status";
}

void
tp_result_clear(struct tp_result *r)
{
	if (r == NULL)
		return;
	free(r->out);
	free(r->err);
	memset(r, 0, sizeof *r);
	r->exit_status = -1;
}

/* Set *cause (if wanted) and return status: `return tp_fail(...)`. */
static enum tp_status
tp_fail(char **cause, enum tp_status status, const char *fmt, ...)
{
	va_list ap;

	if (cause != NULL) {
		va_start(ap, fmt);
		*cause = xvprintf(fmt, ap);
		va_end(ap);
	}
	return status;
}

/* "'web1' (127.0.0.1:2222)", or "'web1'" when there is nothing to add. */
static char *
describe_host(const struct tp_options *o, const char *host, unsigned int port)
{
	const char *name = o->name != NULL ? o->name : host;

	if (port != 0 && port != 22)
		return xprintf("'%s' (%s:%u)", name, host, port);
	if (strcmp(name, host) != 0)
		return xprintf("'%s' (%s)", name, host);
	return xprintf("'%s'", name);
}

/* Host names end up inside the proxy command unquoted (libssh expands %h
 * itself), so only characters that DNS names and IP literals use are let
 * through. */
static int
valid_host(const char *host)
{
	const char *p;

	if (*host == '\0' || *host == '-')
		return 0;
	for (p = host; *p != '\0'; p++) {
		if (!isalnum((unsigned char)*p) && strchr(".:-_[]%", *p) == NULL)
			return 0;
	}
	return 1;
}

/* Build the ProxyCommand for a ProxyJump value; see transport.h. */
static int
build_proxy_command(const struct tp_options *o, int timeout, char **out,
    char **cause)
{
	struct strbuf sb;
	char *spec, *last, *comma, *at, *host, *port = NULL, *user = NULL;
	char *opt;
	int r = -1;

	spec = xstrdup(o->proxy_jump);
	strbuf_init(&sb);
	if (*spec == '\0' || strpbrk(spec, " \t\n") != NULL) {
		fail(cause, "invalid proxy jump '%s'", o->proxy_jump);
		goto out;
	}
	comma = strrchr(spec, ',');
	if (comma != NULL) {
		*comma = '\0';
		last = comma + 1;
	} else
		last = spec;
	if ((at = strrchr(last, '@')) != NULL) {
		*at = '\0';
		user = last;
		host = at + 1;
	} else
		host = last;
	if (*host == '[') {
		/* [v6]:port */
		char *end = strchr(host, ']');

		if (end == NULL) {
			fail(cause, "invalid proxy jump '%s'", o->proxy_jump);
			goto out;
		}
		*end = '\0';
		host++;
		if (end[1] == ':')
			port = end + 2;
		else if (end[1] != '\0') {
			fail(cause, "invalid proxy jump '%s'", o->proxy_jump);
			goto out;
		}
	} else if ((port = strchr(host, ':')) != NULL)
		*port++ = '\0';
	if (*host == '\0' || (user != NULL && *user == '\0') ||
	    (port != NULL && strspn(port, "0123456789") != strlen(port)) ||
	    (port != NULL && *port == '\0') || strchr(o->proxy_jump, '%')) {
		fail(cause, "invalid proxy jump '%s'", o->proxy_jump);
		goto out;
	}

	/* libssh expands % escapes in the whole proxy command. */
	if ((o->known_hosts != NULL && strchr(o->known_hosts, '%')) ||
	    (o->ssh_config != NULL && strchr(o->ssh_config, '%')) ||
	    (o->key_file != NULL && strchr(o->key_file, '%'))) {
		fail(cause, "paths used with a proxy jump cannot contain '%%'");
		goto out;
	}

	strbuf_addstr(&sb, "ssh -o BatchMode=yes");
	strbuf_addf(&sb, " -o ConnectTimeout=%d", timeout);
	switch (o->hostkey_mode) {
	case TP_HOSTKEY_STRICT:
		strbuf_addstr(&sb, " -o StrictHostKeyChecking=yes");
		break;
	case TP_HOSTKEY_ACCEPT_NEW:
		strbuf_addstr(&sb, " -o StrictHostKeyChecking=accept-new");
		break;
	case TP_HOSTKEY_OFF:
		strbuf_addstr(&sb, " -o StrictHostKeyChecking=no");
		break;
	}
	if (o->known_hosts != NULL) {
		opt = xprintf("UserKnownHostsFile=%s", o->known_hosts);
		strbuf_addstr(&sb, " -o ");
		shquote_add(&sb, opt);
		free(opt);
		strbuf_addstr(&sb, " -o GlobalKnownHostsFile=/dev/null");
	}
	if (o->ssh_config != NULL) {
		strbuf_addstr(&sb, " -F ");
		shquote_add(&sb, o->ssh_config);
	}
	if (o->key_file != NULL) {
		strbuf_addstr(&sb, " -i ");
		shquote_add(&sb, o->key_file);
	}
	if (comma != NULL) {
		strbuf_addstr(&sb, " -J ");
		shquote_add(&sb, spec);
	}
	if (user != NULL) {
		strbuf_addstr(&sb, " -l ");
		shquote_add(&sb, user);
	}
	if (port != NULL) {
		strbuf_addstr(&sb, " -p ");
		shquote_add(&sb, port);
	}
	strbuf_addstr(&sb, " -W '[%h]:%p' -- ");
	shquote_add(&sb, host);
	*out = strbuf_detach(&sb, NULL);
	r = 0;
out:
	strbuf_release(&sb);
	free(spec);
	return r;
}

/* Turn libssh's connect error into our wording. */
static char *
connect_cause(ssh_session s, const char *who, int timeout)
{
	const char *e = ssh_get_error(s);

	if (strstr(e, "Connection refused") != NULL)
		return xprintf("connection refused by %s", who);
	if (strstr(e, "resolve") != NULL)
		return xprintf("cannot resolve %s: %s", who, e);
	if (strstr(e, "Timeout") != NULL || strstr(e, "timed out") != NULL)
		return xprintf("timed out after %d s connecting to %s (no "
		    "answer, or no ssh handshake)", timeout, who);
	if (strstr(e, "No route") != NULL || strstr(e, "unreachable") != NULL)
		return xprintf("no route to %s: %s", who, e);
	return xprintf("cannot connect to %s: %s", who, e);
}

/* The verdict of the known hosts files on the server's key, in process
 * (net/knownhosts.h: each file read once per run, OpenSSH's verdicts).
 * may_reorder: on the first attempt, a host whose entries are all of other
 * key types than the one negotiated sets *reorder and fails without a
 * cause: the caller reconnects with libssh ordering the host key
 * algorithms by the files, as OpenSSH and libssh would have. */
static enum tp_status
check_host_key(struct transport *t, const struct tp_options *o,
    int may_reorder, int *reorder, char **cause)
{
	ssh_session s = t->session;
	ssh_key key = NULL;
	unsigned char *hash = NULL;
	size_t hlen;
	char *fp = NULL, *host = NULL, *b64 = NULL;
	char *entry = NULL, *err = NULL;
	unsigned int port = 0;
	struct kh_file *files[2] = { NULL, NULL };
	struct kh_result res;
	enum tp_status st = TP_HOSTKEY;
	const char *type;
	char where[64] = "";

	*reorder = 0;
	if (ssh_get_server_publickey(s, &key) != SSH_OK) {
		st = tp_fail(cause, TP_HOSTKEY, "no host key from %s: %s",
		    t->who, ssh_get_error(s));
		goto out;
	}
	if (ssh_get_publickey_hash(key, SSH_PUBLICKEY_HASH_SHA256, &hash,
	    &hlen) != 0) {
		st = tp_fail(cause, TP_HOSTKEY, "cannot hash host key of %s",
		    t->who);
		goto out;
	}
	fp = ssh_get_fingerprint_hash(SSH_PUBLICKEY_HASH_SHA256, hash, hlen);
	type = ssh_key_type_to_char(ssh_key_type(key));

	if (o->hostkey_mode == TP_HOSTKEY_OFF) {
		t->warning = xprintf("host key checking is OFF for %s: "
		    "accepted %s key %s without verifying it", t->who, type, fp);
		st = TP_OK;
		goto out;
	}

	if (ssh_pki_export_pubkey_base64(key, &b64) != SSH_OK) {
		st = tp_fail(cause, TP_HOSTKEY, "cannot read host key of %s",
		    t->who);
		goto out;
	}
	if ((files[0] = kh_cache_get(t->kh_user, &err)) == NULL ||
	    (t->kh_global != NULL &&
	    (files[1] = kh_cache_get(t->kh_global, &err)) == NULL)) {
		st = tp_fail(cause, TP_HOSTKEY, "cannot check host key for "
		    "%s: %s", t->who, err);
		goto out;
	}
	ssh_options_get(s, SSH_OPTIONS_HOST, &host);
	ssh_options_get_port(s, &port);
	kh_check(files, 2, host != NULL ? host : o->host, port, b64, &res);
	if (res.line != 0)
		snprintf(where, sizeof where, " line %u", res.line);

	switch (res.verdict) {
	case KH_OK:
		st = TP_OK;
		break;
	case KH_REVOKED:
		st = tp_fail(cause, TP_HOSTKEY, "host key for %s is REVOKED: "
		    "server offers %s key %s, marked @revoked in '%s'%s: "
		    "refusing to connect", t->who, type, fp, res.path, where);
		break;
	case KH_CHANGED:
		if (res.other_types && may_reorder) {
			*reorder = 1;
			break;
		}
		st = tp_fail(cause, TP_HOSTKEY, "host key for %s has CHANGED: "
		    "server offers %s key %s, '%s'%s holds a different %s: "
		    "possible man-in-the-middle, refusing to connect",
		    t->who, type, fp, res.path, where,
		    res.other_types ? "key type" : "key");
		break;
	case KH_NEW:
		if (o->hostkey_mode == TP_HOSTKEY_STRICT) {
			st = tp_fail(cause, TP_HOSTKEY, "host key for %s is not "
			    "in '%s' (strict checking; server offers %s key "
			    "%s)", t->who, t->kh_user, type, fp);
			break;
		}
		if (ssh_session_export_known_hosts_entry(s, &entry) !=
		    SSH_OK || kh_cache_append(t->kh_user, entry, &err) != 0) {
			st = tp_fail(cause, TP_HOSTKEY, "cannot record host key "
			    "for %s in '%s': %s", t->who, t->kh_user,
			    err != NULL ? err : ssh_get_error(s));
			break;
		}
		t->warning = xprintf("recorded new host key for %s "
		    "in '%s': %s key %s", t->who, t->kh_user, type, fp);
		st = TP_OK;
		break;
	}
out:
	kh_cache_release(files[0]);
	kh_cache_release(files[1]);
	ssh_string_free_char(fp);
	ssh_string_free_char(b64);
	ssh_string_free_char(entry);
	ssh_clean_pubkey_hash(&hash);
	ssh_key_free(key);
	ssh_string_free_char(host);
	free(err);
	return st;
}

static enum tp_status
authenticate(struct transport *t, const struct tp_options *o, char **cause)
{
	ssh_session s = t->session;
	ssh_key key = NULL;
	int rc;
	enum tp_status st;
	const char *how;

	if (o->key_file != NULL) {
		how = "key file";
		/* Imported once per run, not per session (key-reuse.h). */
		if ((key = key_reuse_privkey(o->key_file)) == NULL) {
			st = tp_fail(cause, TP_AUTH, "cannot load private key "
			    "'%s' (missing, unreadable or passphrase-protected; "
			    "use ssh-agent for protected keys)", o->key_file);
			goto out;
		}
		rc = ssh_userauth_publickey(s, NULL, key);
	} else {
		how = "agent and default keys";
		rc = ssh_userauth_publickey_auto(s, NULL, NULL);
	}
	switch (rc) {
	case SSH_AUTH_SUCCESS:
		st = TP_OK;
		break;
	case SSH_AUTH_DENIED:
	case SSH_AUTH_PARTIAL:
		st = tp_fail(cause, TP_AUTH, "permission denied (publickey) for "
		    "user '%s' on %s (tried %s%s%s%s)", t->user, t->who, how,
		    o->key_file != NULL ? " '" : "",
		    o->key_file != NULL ? o->key_file : "",
		    o->key_file != NULL ? "'" : "");
		break;
	default:
		st = tp_fail(cause, TP_UNREACHABLE, "connection to %s lost "
		    "during authentication: %s", t->who, ssh_get_error(s));
		break;
	}
out:
	return st;
}

/* TCP keepalive so that a dead peer errors out; best effort (the fd is a
 * socketpair to the proxy command when there is one). */
static void
set_tcp_keepalive(ssh_session s)
{
	int fd = ssh_get_fd(s), on = 1, idle = 30, intvl = 10, cnt = 3;

	if (fd < 0)
		return;
	if (setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof on) != 0)
		return;
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof idle);
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &intvl, sizeof intvl);
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &cnt, sizeof cnt);
}

/* The transport's own copy of the become password, if there is one: kept
 * even when the host's default is not to become, for a task or block that
 * asks for it (transport_exec_as). Empty means none, as in Ansible (which
 * then uses sudo -n too). */
static int
keep_become_password(struct transport *t, const struct tp_options *o,
    char **cause)
{
	if (o->become_password == NULL || *o->become_password == '\0')
		return 0;
	/* sudo -S reads one line: the rest would be left on the command's
	 * stdin. Without become by default, a task asking for it then runs
	 * under sudo -n and fails as without a password. */
	if (strchr(o->become_password, '\n') != NULL) {
		if (!o->become)
			return 0;
		tp_fail(cause, TP_FAILED, "the become password for '%s' holds "
		    "a newline: sudo reads only one line", t->name);
		return -1;
	}
	t->become_password = xstrdup(o->become_password);
	return 0;
}

/* The known hosts files the session would use, expanded as libssh would:
 * only --known-hosts when given, else the config's UserKnownHostsFile (or
 * ~/.ssh/known_hosts) and GlobalKnownHostsFile (or /etc/ssh/ssh_known_hosts). */
static int
known_hosts_paths(struct transport *t, const struct tp_options *o,
    const char *host, unsigned int port, char **cause)
{
	ssh_session s = t->session;
	char *raw = NULL;
	int r = -1;

	free(t->kh_user);
	free(t->kh_global);
	t->kh_user = t->kh_global = NULL;
	if (o->known_hosts != NULL) {
		t->kh_user = xstrdup(o->known_hosts);
		return 0;
	}
	if (ssh_options_get(s, SSH_OPTIONS_KNOWNHOSTS, &raw) != SSH_OK)
		raw = NULL;
	t->kh_user = kh_expand_path(raw != NULL ? raw : "%d/known_hosts",
	    host, o->user, port, cause);
	ssh_string_free_char(raw);
	raw = NULL;
	if (t->kh_user == NULL)
		goto out;
	if (ssh_options_get(s, SSH_OPTIONS_GLOBAL_KNOWNHOSTS, &raw) != SSH_OK)
		raw = NULL;
	t->kh_global = kh_expand_path(raw != NULL ? raw :
	    "/etc/ssh/ssh_known_hosts", host, o->user, port, cause);
	if (t->kh_global == NULL)
		goto out;
	r = 0;
out:
	ssh_string_free_char(raw);
	return r;
}

/* A new session with its options, connected (TCP, banner, key exchange).
 * libssh_order: let libssh read the known hosts files to order the host
 * key algorithms (check_host_key's rare path); otherwise it is given
 * /dev/null, so it reads nothing: check_host_key reads each file once per
 * run instead of libssh twice per session. */
static enum tp_status
session_connect(struct transport *t, const struct tp_options *o,
    int libssh_order, char **cause)
{
	ssh_session s;
	enum tp_status st = TP_FAILED;
	long timeout;
	unsigned int port;
	int nodelay = 1, off = 0;
	char *proxy = NULL, *user = NULL, *host = NULL;
	double phase;

	if ((s = t->session = ssh_new()) == NULL) {
		st = tp_fail(cause, TP_FAILED, "cannot create ssh session");
		goto out;
	}

	/* The host first: config Host blocks are matched against it. */
	if (ssh_options_set(s, SSH_OPTIONS_HOST, o->host) != SSH_OK) {
		st = tp_fail(cause, TP_FAILED, "invalid host '%s': %s", o->host,
		    ssh_get_error(s));
		goto out;
	}
	/* Parse the config ourselves (explicit file, or NULL for
	 * ~/.ssh/config + /etc/ssh/ssh_config), before the explicit values,
	 * so that ssh_connect does not parse it later over them. */
	ssh_options_set(s, SSH_OPTIONS_PROCESS_CONFIG, &off);
	if (o->ssh_config != NULL && access(o->ssh_config, R_OK) != 0) {
		st = tp_fail(cause, TP_FAILED, "cannot read ssh config '%s': %s",
		    o->ssh_config, strerror(errno));
		goto out;
	}
	if (ssh_options_parse_config(s, o->ssh_config) != SSH_OK) {
		st = tp_fail(cause, TP_FAILED, "cannot parse ssh config%s%s%s: "
		    "%s", o->ssh_config != NULL ? " '" : "",
		    o->ssh_config != NULL ? o->ssh_config : "",
		    o->ssh_config != NULL ? "'" : "", ssh_get_error(s));
		goto out;
	}

	/* Explicit values win over the config. */
	if (o->port > 0) {
		port = (unsigned int)o->port;
		ssh_options_set(s, SSH_OPTIONS_PORT, &port);
	}
	if (o->user != NULL &&
	    ssh_options_set(s, SSH_OPTIONS_USER, o->user) != SSH_OK) {
		st = tp_fail(cause, TP_FAILED, "invalid user '%s'", o->user);
		goto out;
	}
	timeout = t->connect_timeout;
	ssh_options_set(s, SSH_OPTIONS_TIMEOUT, &timeout);
	ssh_options_set(s, SSH_OPTIONS_NODELAY, &nodelay);
	if (o->proxy_jump != NULL) {
		if (strcmp(o->proxy_jump, "none") == 0)
			proxy = xstrdup("none");
		else if (build_proxy_command(o, t->connect_timeout, &proxy,
		    cause) != 0) {
			st = TP_FAILED;
			goto out;
		}
		ssh_options_set(s, SSH_OPTIONS_PROXYCOMMAND, proxy);
	}

	/* The config may have rewritten host (HostName) and port. */
	if (ssh_options_get(s, SSH_OPTIONS_HOST, &host) != SSH_OK)
		host = NULL;
	if (ssh_options_get_port(s, &port) != SSH_OK)
		port = 22;
	free(t->who);
	t->who = describe_host(o, host != NULL ? host : o->host, port);

	if (known_hosts_paths(t, o, host != NULL ? host : o->host, port,
	    cause) != 0) {
		st = TP_FAILED;
		goto out;
	}
	ssh_options_set(s, SSH_OPTIONS_KNOWNHOSTS, libssh_order ?
	    t->kh_user : "/dev/null");
	ssh_options_set(s, SSH_OPTIONS_GLOBAL_KNOWNHOSTS, libssh_order &&
	    t->kh_global != NULL ? t->kh_global : "/dev/null");

	phase = monotonic_seconds();
	if (ssh_connect(s) != SSH_OK) {
		trace(t, TP_TRACE_PHASE, "connect to %s failed after %.3fs",
		    t->who, monotonic_seconds() - phase);
		if (cause != NULL) {
			*cause = connect_cause(s, t->who, t->connect_timeout);
			if (proxy != NULL && strcmp(proxy, "none") != 0) {
				/* ssh -W printed its own reason on stderr. */
				free(proxy);
				proxy = *cause;
				*cause = xprintf("%s (through proxy jump '%s')",
				    proxy, o->proxy_jump);
			}
		}
		st = TP_UNREACHABLE;
		goto out;
	}
	set_tcp_keepalive(s);
	free(t->user);
	if (ssh_options_get(s, SSH_OPTIONS_USER, &user) == SSH_OK) {
		t->user = xstrdup(user);
		ssh_string_free_char(user);
	} else
		t->user = xstrdup("?");

	trace(t, TP_TRACE_PHASE, "connect to %s (TCP, banner, key exchange): "
	    "%.3fs", t->who, monotonic_seconds() - phase);
	st = TP_OK;
out:
	free(proxy);
	ssh_string_free_char(host);
	return st;
}

static void
session_drop(struct transport *t)
{
	if (t->session == NULL)
		return;
	if (ssh_is_connected(t->session))
		ssh_disconnect(t->session);
	ssh_free(t->session);
	t->session = NULL;
}

enum tp_status
transport_open(const struct tp_options *o, struct transport **out,
    char **cause)
{
	struct transport *t;
	enum tp_status st = TP_FAILED;
	const char *name;
	double phase;
	int attempt, reorder = 0;

	*out = NULL;
	if (o->host == NULL || !valid_host(o->host)) {
		return tp_fail(cause, TP_FAILED, "invalid host address '%s' "
		    "for '%s'", o->host != NULL ? o->host : "",
		    o->name != NULL ? o->name : "?");
	}
	name = o->name != NULL ? o->name : o->host;

	t = xcalloc(1, sizeof *t);
	t->name = xstrdup(name);
	t->connect_timeout = o->connect_timeout > 0 ? o->connect_timeout :
	    TP_DEFAULT_CONNECT_TIMEOUT;
	t->command_timeout = o->command_timeout > 0 ? o->command_timeout :
	    TP_DEFAULT_COMMAND_TIMEOUT;
	t->become = o->become;
	t->become_user = o->become_user != NULL ? xstrdup(o->become_user) :
	    NULL;
	t->trace = o->trace;
	t->trace_arg = o->trace_arg;
	t->ssh_debug = o->ssh_debug;
	ssh_log_bind(t);
	if (keep_become_password(t, o, cause) != 0)
		goto out;

	/* Nothing is sent to the host before its key passed. A host known
	 * only by other key types than the one negotiated is asked again
	 * with libssh ordering the algorithms by the files (once). */
	for (attempt = 0; attempt < 2; attempt++) {
		if ((st = session_connect(t, o, attempt > 0, cause)) != TP_OK)
			goto out;
		phase = monotonic_seconds();
		st = check_host_key(t, o, attempt == 0, &reorder, cause);
		trace(t, TP_TRACE_PHASE, "host key check: %s%s, %.3fs",
		    tp_strerror(st), reorder ? " (known_hosts holds other key "
		    "types for it: reconnecting with them first)" : "",
		    monotonic_seconds() - phase);
		if (!reorder)
			break;
		session_drop(t);
	}
	if (st != TP_OK)
		goto out;
	phase = monotonic_seconds();
	st = authenticate(t, o, cause);
	trace(t, TP_TRACE_PHASE, "authentication as '%s': %s, %.3fs", t->user,
	    tp_strerror(st), monotonic_seconds() - phase);
	if (st != TP_OK)
		goto out;
	*out = t;
	t = NULL;
	st = TP_OK;
out:
	transport_close(t);
	return st;
}

const char *
transport_warning(struct transport *t)
{
	return t->warning;
}

const char *
transport_user(struct transport *t)
{
	return t->user;
}

void
transport_close(struct transport *t)
{
	if (t == NULL)
		return;
	ssh_log_bind(t);
	session_drop(t);
	free(t->name);
	free(t->kh_user);
	free(t->kh_global);
	free(t->who);
	free(t->user);
	free(t->become_user);
	if (t->become_password != NULL) {
		explicit_bzero(t->become_password, strlen(t->become_password));
		free(t->become_password);
	}
	free(t->warning);
	/* libssh must not call back into a freed transport */
	if (ssh_get_log_userdata() == t)
		ssh_set_log_userdata(NULL);
	free(t);
}

void
transport_build_command(struct strbuf *sb, const char *cmd, int become,
    const char *become_user)
{
	if (!become)
		strbuf_addstr(sb, cmd);
	else
		become_build_command(sb, cmd, become_user, NULL);
}

/* Does err hold a line starting with "sudo: " that contains what? */
static int
sudo_said(const char *err, const char *what)
{
	const char *line, *end, *p;
	size_t wlen = strlen(what);

	for (line = err; *line != '\0'; line = *end != '\0' ? end + 1 : end) {
		if ((end = strchr(line, '\n')) == NULL)
			end = line + strlen(line);
		if (strncmp(line, "sudo: ", 6) != 0)
			continue;
		for (p = line; p + wlen <= end; p++) {
			if (strncmp(p, what, wlen) == 0)
				return 1;
		}
	}
	return 0;
}

/* The one wording, whether sudo asked twice or said so itself. */
static enum tp_status
wrong_password(char **cause, const char *user, const char *host)
{
	return tp_fail(cause, TP_BECOME, "incorrect sudo password for user "
	    "'%s' on host '%s'", user, host);
}

enum tp_status
transport_check_become(int exit_status, const char *err, const char *user,
    const char *host, char **cause)
{
	if (err == NULL)
		err = "";
	/* sudo -S that gave up: "sudo: 1 incorrect password attempt" (one
	 * try allowed, or the password line never came). */
	if (exit_status == 1 && sudo_said(err, "incorrect password attempt"))
		return wrong_password(cause, user, host);
	/* sudo exits 1 when it refuses; the command's own failures cannot
	 * be told apart by status, hence the look at sudo's own words. */
	if (exit_status == 1 && sudo_said(err, "a password is required"))
		return tp_fail(cause, TP_BECOME, "sudo requires a password for "
		    "user '%s' on host '%s'", user, host);
	if (exit_status == 1 && (sudo_said(err, "not in the sudoers file") ||
	    sudo_said(err, "is not allowed to") ||
	    sudo_said(err, "may not run sudo")))
		return tp_fail(cause, TP_BECOME, "user '%s' may not use sudo "
		    "on host '%s'", user, host);
	if (exit_status == 1 && sudo_said(err, "must have a tty"))
		return tp_fail(cause, TP_BECOME, "sudo on host '%s' requires a "
		    "tty (requiretty) for user '%s'", host, user);
	if (exit_status == 127 && (strstr(err, "sudo: not found") != NULL ||
	    strstr(err, "sudo: command not found") != NULL))
		return tp_fail(cause, TP_BECOME, "sudo is not installed on host "
		    "'%s'", host);
	return TP_OK;
}

/* State of one exec, shared with the channel callbacks. */
struct exec_state {
	struct strbuf	out;
	struct strbuf	err;
	struct become_scan *scan;	/* sudo -S: stderr passes through it */
	int		exit_status;	/* -1 until received */
	char		*exit_signal;	/* or NULL */
	int		closed;		/* remote closed the channel */
	int		overflow;	/* output beyond TP_MAX_OUTPUT */
};

static int
exec_data_cb(ssh_session s, ssh_channel ch, void *data, uint32_t len,
    int is_stderr, void *arg)
{
	struct exec_state *es = arg;
	struct strbuf *sb = is_stderr ? &es->err : &es->out;
	size_t held = es->scan != NULL ? es->scan->pending.len : 0;

	(void)s;
	(void)ch;
	if (es->out.len + es->err.len + held + len > TP_MAX_OUTPUT)
		es->overflow = 1;
	else if (is_stderr && es->scan != NULL)
		become_scan_feed(es->scan, data, len, &es->err);
	else
		strbuf_add(sb, data, len);
	return (int)len;	/* all consumed: libssh reopens the window */
}

static void
exec_close_cb(ssh_session s, ssh_channel ch, void *arg)
{
	struct exec_state *es = arg;

	(void)s;
	(void)ch;
	es->closed = 1;
}

static void
exec_status_cb(ssh_session s, ssh_channel ch, int status, void *arg)
{
	struct exec_state *es = arg;

	(void)s;
	(void)ch;
	es->exit_status = status;
}

static void
exec_signal_cb(ssh_session s, ssh_channel ch, const char *sig, int core,
    const char *msg, const char *lang, void *arg)
{
	struct exec_state *es = arg;

	(void)s;
	(void)ch;
	(void)core;
	(void)msg;
	(void)lang;
	free(es->exit_signal);
	es->exit_signal = xstrdup(sig != NULL ? sig : "?");
}

/* Shell-style status for a command killed by a signal: 128 + number. */
static int
signal_status(const char *sig)
{
	static const struct {
		const char	*name;
		int		 num;
	} sigs[] = {
		{ "HUP", 1 }, { "INT", 2 }, { "QUIT", 3 }, { "ILL", 4 },
		{ "ABRT", 6 }, { "FPE", 8 }, { "KILL", 9 }, { "SEGV", 11 },
		{ "PIPE", 13 }, { "ALRM", 14 }, { "TERM", 15 }, { "USR1", 10 },
		{ "USR2", 12 },
	};
	size_t i;

	for (i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
		if (strcmp(sig, sigs[i].name) == 0)
			return 128 + sigs[i].num;
	}
	return 255;
}

static long long
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* TP_UNREACHABLE if the session is gone, else TP_FAILED; with the libssh
 * error in the message. */
static enum tp_status
exec_fail(struct transport *t, const char *what, char **cause)
{
	const char *e = ssh_get_error(t->session);

	/* libssh leaves the text empty on some paths (a bare SSH_ERROR). */
	if (e == NULL || *e == '\0')
		e = "no reason given (see the server's sshd log)";
	if (!ssh_is_connected(t->session))
		return tp_fail(cause, TP_UNREACHABLE, "connection to %s lost "
		    "while %s: %s", t->who, what, e);
	return tp_fail(cause, TP_FAILED, "%s on %s failed: %s", what, t->who,
	    e);
}

/* sshd denies an exec request (SSH_MSG_CHANNEL_FAILURE, no reason) when
 * it cannot start the command: its pipe() or fork() failed. Nothing ran,
 * so asking again is safe; these are the pauses before each new attempt,
 * in ms (tests/e2e/transport-refused.sh). */
static const int exec_backoff_ms[] = { 250, 1000, 3000 };
#define EXEC_RETRIES	((int)(sizeof exec_backoff_ms / sizeof exec_backoff_ms[0]))

/* The last channel request was denied by the server, on a live session. */
static int
exec_denied(struct transport *t)
{
	return ssh_is_connected(t->session) &&
	    ssh_get_error_code(t->session) == SSH_REQUEST_DENIED;
}

/* libssh's blocking channel open and exec wait for the server's answer
 * only as long as the session timeout (our connect timeout), then return
 * SSH_AGAIN with no error set. A busy server answers later: a UML guest's
 * sshd right after boot, forking under load, took longer than that (the
 * "failed: " with an empty reason of two CI runs). Called again, libssh
 * goes on waiting for the same answer; do so up to the command's
 * deadline. */
static int
open_session_waiting(ssh_channel ch, long long deadline)
{
	int rc;

	while ((rc = ssh_channel_open_session(ch)) == SSH_AGAIN &&
	    now_ms() < deadline)
		;
	return rc;
}

static int
request_exec_waiting(ssh_channel ch, const char *cmd, long long deadline)
{
	int rc;

	while ((rc = ssh_channel_request_exec(ch, cmd)) == SSH_AGAIN &&
	    now_ms() < deadline)
		;
	return rc;
}

static void
sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
}

/* Close and free a channel whose callbacks point into our stack. The
 * channel may outlive this call inside libssh until the server confirms
 * the close; it must not call back into that stack. */
static void
channel_discard(ssh_channel ch, struct ssh_channel_callbacks_struct *cb)
{
	ssh_remove_channel_callbacks(ch, cb);
	if (ssh_channel_is_open(ch))
		ssh_channel_close(ch);
	ssh_channel_free(ch);
}

/* Open a session channel with cb set and ask the server to run line in
 * it (blocking, bounded by deadline): TP_OK with *chp ready, else a
 * failure with *chp NULL. A refusal is asked again after each pause of
 * exec_backoff_ms; a server that has not answered by the deadline is a
 * timeout. */
static enum tp_status
start_command(struct transport *t, const char *line, long long deadline,
    int timeout, struct ssh_channel_callbacks_struct *cb, ssh_channel *chp,
    char **cause)
{
	ssh_channel	ch;
	enum tp_status	st;
	int		attempt, rc, opened;

	*chp = NULL;
	for (attempt = 0;; attempt++) {
		if ((ch = ssh_channel_new(t->session)) == NULL)
			return exec_fail(t, "creating a channel", cause);
		if (ssh_set_channel_callbacks(ch, cb) != SSH_OK) {
			st = exec_fail(t, "setting channel callbacks", cause);
			ssh_channel_free(ch);
			return st;
		}
		rc = open_session_waiting(ch, deadline);
		if ((opened = rc == SSH_OK))
			rc = request_exec_waiting(ch, line, deadline);
		if (rc == SSH_OK) {
			*chp = ch;
			return TP_OK;
		}
		if (rc == SSH_AGAIN) {
			st = tp_fail(cause, TP_TIMEOUT, "command on %s timed out "
			    "after %d s: the server did not answer the request "
			    "to start it", t->who, timeout);
		} else if (!opened)
			st = exec_fail(t, "opening a channel", cause);
		else if (exec_denied(t) && attempt == EXEC_RETRIES) {
			st = tp_fail(cause, TP_FAILED, "starting a command on "
			    "%s failed: the server refused it %d times: sshd "
			    "could not start it (see its log)", t->who,
			    attempt + 1);
		} else if (!exec_denied(t) ||
		    now_ms() + exec_backoff_ms[attempt] >= deadline)
			st = exec_fail(t, "starting a command", cause);
		else {
			channel_discard(ch, cb);
			sleep_ms(exec_backoff_ms[attempt]);
			continue;
		}
		channel_discard(ch, cb);
		return st;
	}
}

/* What one exec writes on the command's stdin, in this order: the sudo
 * password line when sudo asks for it (and only then), the command's own
 * input once the command runs, then end of input. */
struct exec_input {
	const char	*in;
	size_t		 in_len;
	size_t		 in_done;
	int		 eof_sent;
	char		*pw_line;	/* password and "\n", or NULL; wiped */
	size_t		 pw_len;
	size_t		 pw_done;
	long long	 sudo_deadline;	/* sudo must prompt or start by then */
};

/* How long sudo may take to prompt, or to answer a password, before the
 * host fails: the connect timeout, at least this. A wrong password costs
 * sudo's own pause (about 2 s) before it asks again. */
#define TP_BECOME_WAIT_MIN	5

static long long
sudo_wait_ms(const struct transport *t)
{
	int secs = t->connect_timeout;

	if (secs < TP_BECOME_WAIT_MIN)
		secs = TP_BECOME_WAIT_MIN;
	return (long long)secs * 1000;
}

/* Write what the window allows of buf[*done..len), never blocking: 1 if
 * something was written, 0 if not, -1 if the channel failed. */
static int
write_window(ssh_channel ch, const char *buf, size_t len, size_t *done)
{
	uint32_t	window;
	size_t		chunk;
	int		n, progress = 0;

	while (*done < len && (window = ssh_channel_window_size(ch)) > 0) {
		chunk = len - *done;
		if (chunk > window)
			chunk = window;
		if (chunk > 32768)
			chunk = 32768;
		n = ssh_channel_write(ch, buf + *done, (uint32_t)chunk);
		if (n == SSH_ERROR)
			return -1;
		if (n == 0)
			break;
		*done += (size_t)n;
		progress = 1;
	}
	return progress;
}

/* The command's stdin, then EOF; with sudo -S not before the command has
 * started. Returns 1 on progress, 0 if none, -1 with *st on failure. */
static int
feed_input(struct transport *t, ssh_channel ch, struct exec_state *es,
    struct exec_input *io, enum tp_status *st, char **cause)
{
	int r;

	if (es->closed || (es->scan != NULL && !es->scan->started))
		return 0;
	r = write_window(ch, io->in, io->in_len, &io->in_done);
	if (r == -1) {
		if (ssh_channel_is_closed(ch))
			return 0;
		*st = exec_fail(t, "sending input", cause);
		return -1;
	}
	if (!io->eof_sent && io->in_done == io->in_len) {
		/* The command sees end of input. */
		if (ssh_channel_send_eof(ch) == SSH_ERROR &&
		    !ssh_channel_is_closed(ch)) {
			*st = exec_fail(t, "closing input", cause);
			return -1;
		}
		io->eof_sent = 1;
	}
	return r;
}

/* Before the command starts under sudo -S: the password once at the
 * first prompt; a second prompt means it was wrong, and sudo is stopped
 * (end of input) rather than asked again. Returns 1 on progress, 0 if
 * none, -1 with *st when the host fails. */
static int
answer_sudo(struct transport *t, ssh_channel ch, struct exec_state *es,
    struct exec_input *io, enum tp_status *st, char **cause)
{
	const struct become_scan	*sc = es->scan;
	long long			 now = now_ms();
	int				 r;

	if (sc == NULL || sc->started || es->closed)
		return 0;
	if (sc->prompts > 1) {
		ssh_channel_send_eof(ch);
		*st = wrong_password(cause, t->user, t->name);
		return -1;
	}
	if (sc->prompts == 1 && io->pw_done < io->pw_len) {
		r = write_window(ch, io->pw_line, io->pw_len, &io->pw_done);
		if (r == -1 && !ssh_channel_is_closed(ch)) {
			*st = exec_fail(t, "sending the sudo password", cause);
			return -1;
		}
		if (io->pw_done == io->pw_len)
			io->sudo_deadline = now + sudo_wait_ms(t);
		return r == 1;
	}
	if (now >= io->sudo_deadline) {
		*st = tp_fail(cause, TP_BECOME, "sudo on host '%s' did not %s "
		    "within %lld s", t->name, sc->prompts == 0 ? "ask for the "
		    "password or start the command" : "answer the password",
		    sudo_wait_ms(t) / 1000);
		return -1;
	}
	return 0;
}

/* How long the loop may sleep in poll: until the next deadline, the next
 * keepalive, or not at all after progress. */
static int
poll_wait_ms(const struct exec_state *es, const struct exec_input *io,
    long long deadline, long long quiet_since, int progress)
{
	long long now = now_ms(), wait = deadline - now;
	long long idle = TP_KEEPALIVE_SECS * 1000LL - (now - quiet_since);

	if (progress)
		return 0;
	if (wait > idle)
		wait = idle;
	if (es->scan != NULL && !es->scan->started &&
	    wait > io->sudo_deadline - now)
		wait = io->sudo_deadline - now;
	return wait < 0 ? 0 : (int)wait;
}

/* Poll until the channel closes. TP_OK when it did; otherwise the failure,
 * with *kill set when the command may still run and must be stopped. */
static enum tp_status
exec_loop(struct transport *t, ssh_channel ch, ssh_event ev,
    struct exec_state *es, struct exec_input *io, long long deadline,
    int timeout, int *kill, char **cause)
{
	enum tp_status	st = TP_FAILED;
	long long	now, quiet_since = now_ms();
	int		rc, progress;

	*kill = 0;
	for (;;) {
		if ((progress = answer_sudo(t, ch, es, io, &st, cause)) == -1 ||
		    (rc = feed_input(t, ch, es, io, &st, cause)) == -1)
			return st;
		progress |= rc;
		if (es->closed)
			return TP_OK;
		if (es->overflow) {
			*kill = 1;
			return tp_fail(cause, TP_FAILED, "output of command on "
			    "%s exceeds %u bytes", t->who, TP_MAX_OUTPUT);
		}
		if (!ssh_is_connected(t->session))
			return exec_fail(t, "running a command", cause);
		now = now_ms();
		if (now >= deadline) {
			*kill = 1;
			return tp_fail(cause, TP_TIMEOUT, "command on %s timed "
			    "out after %d s", t->who, timeout);
		}
		if (now - quiet_since >= TP_KEEPALIVE_SECS * 1000LL) {
			/* No reply is needed, so this never blocks. */
			ssh_send_ignore(t->session, "");
			quiet_since = now;
		}
		rc = ssh_event_dopoll(ev, poll_wait_ms(es, io, deadline,
		    quiet_since, progress));
		if (rc == SSH_ERROR && !es->closed)
			return exec_fail(t, "running a command", cause);
		if (rc == SSH_OK)
			quiet_since = now_ms();
	}
}

/* The finished command's status, and whether sudo let it run. */
static enum tp_status
exec_outcome(struct transport *t, const struct tp_become *as,
    struct exec_state *es, struct tp_result *res, char **cause)
{
	enum tp_status st = TP_OK;

	if (es->exit_status != -1)
		res->exit_status = es->exit_status;
	else if (es->exit_signal != NULL)
		res->exit_status = signal_status(es->exit_signal);
	if (as->on) {
		st = transport_check_become(res->exit_status, es->err.buf,
		    t->user, t->name, cause);
	}
	if (st == TP_OK && es->scan != NULL && !es->scan->started) {
		/* sudo ended without starting the command: whatever it
		 * printed is not the command's result. */
		st = tp_fail(cause, TP_BECOME, "sudo on host '%s' did not start "
		    "the command for user '%s' (exit %d)", t->name, t->user,
		    res->exit_status);
	}
	return st;
}

/* With a become password: a fresh prompt and marker for this command, the
 * scanner, and the password line to send when asked. */
static int
exec_become_setup(struct transport *t, const struct tp_become *as,
    const char *cmd, struct strbuf *line, struct become_words *w,
    struct become_scan *sc, struct exec_input *io, char **cause)
{
	if (become_words_random(w, cause) != 0)
		return -1;
	become_build_command(line, cmd, as->user, w);
	become_scan_init(sc, w);
	io->pw_line = xprintf("%s\n", t->become_password);
	io->pw_len = strlen(io->pw_line);
	io->sudo_deadline = now_ms() + sudo_wait_ms(t);
	return 0;
}

static void
exec_input_clear(struct exec_input *io)
{
	if (io->pw_line != NULL) {
		explicit_bzero(io->pw_line, io->pw_len);
		free(io->pw_line);
	}
	memset(io, 0, sizeof *io);
}

static void
exec_init(struct exec_state *es, struct exec_input *io, const void *in,
    size_t in_len)
{
	memset(es, 0, sizeof *es);
	strbuf_init(&es->out);
	strbuf_init(&es->err);
	es->exit_status = -1;
	memset(io, 0, sizeof *io);
	io->in = in;
	io->in_len = in_len;
}

static void
exec_callbacks(struct ssh_channel_callbacks_struct *cb, struct exec_state *es)
{
	memset(cb, 0, sizeof *cb);
	cb->userdata = es;
	cb->channel_data_function = exec_data_cb;
	cb->channel_close_function = exec_close_cb;
	cb->channel_exit_status_function = exec_status_cb;
	cb->channel_exit_signal_function = exec_signal_cb;
	ssh_callbacks_init(cb);
}

enum tp_status
transport_exec(struct transport *t, const char *cmd, const void *in,
    size_t in_len, int timeout, struct tp_result *res, char **cause)
{
	struct tp_become as = { t->become, t->become_user };

	return transport_exec_as(t, &as, cmd, in, in_len, timeout, res, cause);
}

enum tp_status
transport_exec_as(struct transport *t, const struct tp_become *as,
    const char *cmd, const void *in, size_t in_len, int timeout,
    struct tp_result *res, char **cause)
{
	ssh_session s = t->session;
	ssh_channel ch = NULL;
	ssh_event ev = NULL;
	struct ssh_channel_callbacks_struct cb;
	struct exec_state es;
	struct exec_input io;
	struct become_words words;
	struct become_scan scan;
	struct strbuf line;
	enum tp_status st = TP_FAILED;
	long long deadline;
	double started;
	int kill;

	memset(res, 0, sizeof *res);
	res->exit_status = -1;
	ssh_log_bind(t);
	started = monotonic_seconds();
	exec_init(&es, &io, in, in_len);
	strbuf_init(&line);
	if (timeout <= 0)
		timeout = t->command_timeout;
	deadline = now_ms() + (long long)timeout * 1000;
	if (as->on && t->become_password != NULL) {
		if (exec_become_setup(t, as, cmd, &line, &words, &scan, &io,
		    cause) != 0)
			goto out;
		es.scan = &scan;
	} else
		transport_build_command(&line, cmd, as->on, as->user);

	if (!ssh_is_connected(s)) {
		st = tp_fail(cause, TP_UNREACHABLE, "connection to %s is closed",
		    t->who);
		goto out;
	}
	trace(t, TP_TRACE_COMMAND, "exec: %s", line.buf);
	/* Open and exec in blocking mode: bounded by connect_timeout. */
	ssh_set_blocking(s, 1);
	exec_callbacks(&cb, &es);
	st = start_command(t, line.buf, deadline, timeout, &cb, &ch, cause);
	if (st != TP_OK)
		goto out;

	/* From here on nothing may block past the deadline: non-blocking
	 * session, one poll loop, data arrives through the callbacks. */
	ssh_set_blocking(s, 0);
	if ((ev = ssh_event_new()) == NULL ||
	    ssh_event_add_session(ev, s) != SSH_OK) {
		st = tp_fail(cause, TP_FAILED, "cannot poll the session to %s",
		    t->who);
		goto out;
	}
	st = exec_loop(t, ch, ev, &es, &io, deadline, timeout, &kill, cause);
	if (es.scan != NULL)
		become_scan_end(es.scan, &es.err);
	if (st == TP_OK)
		st = exec_outcome(t, as, &es, res, cause);
	else if (kill) {
		/* Stop the remote command (servers without "signal" support
		 * only see the channel close) and leave the session usable. */
		ssh_channel_request_send_signal(ch, "KILL");
	}

out:
	if (ev != NULL) {
		ssh_event_remove_session(ev, s);
		ssh_event_free(ev);
	}
	if (ch != NULL)
		channel_discard(ch, &cb);
	ssh_set_blocking(s, 1);
	if (es.scan != NULL)
		become_scan_release(es.scan);
	exec_input_clear(&io);
	res->out = strbuf_detach(&es.out, &res->out_len);
	res->err = strbuf_detach(&es.err, &res->err_len);
	free(es.exit_signal);
	strbuf_release(&line);
	trace(t, TP_TRACE_COMMAND, "exec: %s, exit %d, %.3fs", tp_strerror(st),
	    res->exit_status, monotonic_seconds() - started);
	return st;
}
