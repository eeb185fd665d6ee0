/* The SSH transport: one libssh session per host, commands run over it.
 *
 * Lifecycle: transport_global_init() once in main; then per host (one
 * transport per thread; different transports may be used from different
 * threads at the same time, one transport must not be shared between
 * threads without a lock) transport_open(), any number of transport_exec()
 * (each on a new channel of the same session), transport_close().
 *
 * Order of work in transport_open, and why:
 *   1. options: the ssh config (--ssh-config FILE, else ~/.ssh/config and
 *      /etc/ssh/ssh_config) is parsed first, then every value the inventory
 *      gave explicitly is set on top of it, so inventory values win, as they
 *      do in Ansible (which passes them to ssh as -o options);
 *   2. TCP connect, banner and key exchange, all bounded by connect_timeout
 *      (libssh's SSH_OPTIONS_TIMEOUT covers the whole of ssh_connect,
 *      including a peer that accepts TCP and never speaks: checked by the
 *      e2e test against a silent listener);
 *   3. host key check against known_hosts (see tp_hostkey_mode);
 *   4. only then authentication: nothing (no user name, no key) is sent
 *      to a host whose key did not pass.
 *
 * Host keys. When known_hosts is given, only that file is trusted; when it
 * is NULL the usual ssh files are used (~/.ssh/known_hosts or the config's
 * UserKnownHostsFile, and /etc/ssh/ssh_known_hosts or its
 * GlobalKnownHostsFile). The check is in process (net/knownhosts.h), with
 * OpenSSH's verdicts (plain, hashed, [host]:port, wildcard and negated
 * patterns, @cert-authority, @revoked), each file read once per run and
 * again only when it changed: libssh is given /dev/null so that it reads
 * neither file, which it would do twice per session. The price: libssh no
 * longer orders its host key algorithms by the keys known for the host, so
 * a host whose entries all hold other key types than the one negotiated is
 * connected again, once, with libssh reading the files to order them (the
 * verdict is still ours).
 *
 * ProxyJump. libssh 0.10 has no native jump support (SSH_OPTIONS_PROXYJUMP
 * arrived in 0.11); a ProxyJump line in the ssh config is turned by libssh
 * itself into a ProxyCommand running `ssh -W`. tp_options.proxy_jump does
 * the same explicitly: it sets SSH_OPTIONS_PROXYCOMMAND to
 *   ssh -o BatchMode=yes -o ConnectTimeout=N -o StrictHostKeyChecking=...
 *       [-o UserKnownHostsFile=F -o GlobalKnownHostsFile=/dev/null] [-F CFG]
 *       [-i KEY] [-J EARLIER,HOPS] [-l USER] [-p PORT] -W '[%h]:%p' -- JUMP
 * with every piece quoted by shquote. The jump host is therefore checked by
 * OpenSSH with the same host key policy and known_hosts file, and BatchMode
 * makes it fail instead of prompting. The value is "[user@]host[:port]" or
 * a comma-separated chain of them (the last is the one next to the target);
 * an IPv6 jump host needs brackets ("[2001:db8::1]:22"); "none" disables a
 * ProxyJump/ProxyCommand from the ssh config. Because libssh substitutes %h
 * unquoted into the proxy command, transport_open refuses host names with
 * characters other than letters, digits and ".:-_[]%".
 *
 * Timeouts. connect_timeout (default 10 s) bounds connect, key exchange and
 * authentication and also channel open and the exec request. The command
 * itself is bounded by the exec timeout, enforced by our own poll loop on a
 * monotonic clock. On TP_TIMEOUT the transport sends a "signal" request
 * (KILL) for the command, closes the channel and stays usable for further
 * execs (checked by the e2e test). The remote command is NOT guaranteed to
 * die: OpenSSH honours signal requests only for non-root logins (for root
 * it skips post-auth privilege separation and logs "session signalling
 * requires privilege separation"), and closing a channel without a pty
 * sends no SIGHUP. A command that must not outlive its timeout should be
 * wrapped on the remote side (`timeout -s KILL N ...`) by the caller.
 *
 * Keepalive. libssh 0.10 has no ServerAliveInterval. During an exec that is
 * silent for TP_KEEPALIVE_SECS, an SSH_MSG_IGNORE is sent (ssh_send_ignore:
 * it needs no reply, so it never blocks the loop; ssh_send_keepalive would
 * wait for one), which keeps NAT and firewall state alive; TCP keepalive is
 * also enabled on the socket (idle 30 s, 3 probes 10 s apart) so a dead
 * peer turns into an error instead of waiting for the command timeout.
 *
 * Become. Without a password, commands run under `sudo -n`, which fails
 * at once where sudo would ask. With become_password, under `sudo -S` with
 * a prompt and a start marker of our own (net/become.h): the password is
 * written on the channel's stdin only when sudo's prompt appears, the
 * command's stdin only after the marker, and a second prompt (a wrong
 * password) ends the command at once with TP_BECOME ("incorrect sudo
 * password for user 'U' on host 'H'"), about sudo's own 2 s pause after
 * the password was sent. sudo must prompt or start the command within the
 * connect timeout (at least 5 s), or the host fails with TP_BECOME.
 *
 * Trace (-vv, -vvv). With tp_options.trace set, the transport tells it the
 * time each phase took (connect: TCP, banner and key exchange; the host
 * key check; authentication), each command line it sends (as the host's
 * shell gets it, sudo wrapper included: the become password is never on
 * it) and how each ended; with ssh_debug also libssh's own log at its
 * protocol level. libssh keeps its log callback per thread, so the
 * transport installs it on each call, for the calling thread.
 *
 * Secrets: nothing here logs key material, the environment or the become
 * password; the password is never on a command line and is wiped from
 * memory when the transport closes. libssh's own logging stays off unless
 * ssh_debug asks for it. */
#ifndef TCPTUNE_TRANSPORT_H
#define TCPTUNE_TRANSPORT_H

#include <stddef.h>

#include "base/strbuf.h"

enum tp_status {
	TP_OK = 0,
	TP_UNREACHABLE,		/* resolve/connect/handshake failed, or lost */
	TP_HOSTKEY,		/* host key unknown (strict) or changed */
	TP_AUTH,		/* authentication refused */
	TP_FAILED,		/* anything else: bad options, ssh errors */
	TP_TIMEOUT,		/* the command ran past its timeout */
	TP_BECOME,		/* sudo refused: password needed, not allowed */
};

enum tp_hostkey_mode {
	TP_HOSTKEY_STRICT = 0,	/* only keys already in known_hosts */
	TP_HOSTKEY_ACCEPT_NEW,	/* record unknown keys, refuse changed ones */
	TP_HOSTKEY_OFF,		/* accept anything, with a loud warning */
};

#define TP_DEFAULT_CONNECT_TIMEOUT	10
#define TP_DEFAULT_COMMAND_TIMEOUT	120
#define TP_KEEPALIVE_SECS		15
/* Output beyond this (stdout and stderr together) fails the command rather
 * than letting one host exhaust the controller's memory. */
#define TP_MAX_OUTPUT			(64u * 1024 * 1024)

enum tp_trace_kind {
	TP_TRACE_PHASE,		/* a phase of the connection and its time */
	TP_TRACE_COMMAND,	/* a command line sent, and how it ended */
	TP_TRACE_SSH,		/* a line of libssh's log (ssh_debug) */
};

/* Called from the thread using the transport, with the inventory name. */
typedef void (*tp_trace_fn)(void *arg, const char *name,
    enum tp_trace_kind kind, const char *text);

struct tp_options {
	const char	*name;		/* inventory name, for messages */
	const char	*host;		/* address (ansible_host or name) */
	int		 port;		/* 0 = default / ssh config */
	const char	*user;		/* NULL = ssh config / current user */
	const char	*key_file;	/* NULL = agent + default keys */
	const char	*known_hosts;	/* NULL = ssh's usual files */
	const char	*ssh_config;	/* NULL = ~/.ssh/config if present */
	const char	*proxy_jump;	/* NULL = none / from ssh config */
	enum tp_hostkey_mode hostkey_mode;
	int		 connect_timeout; /* seconds, <= 0 = default */
	int		 command_timeout; /* seconds, default for exec */
	int		 become;	/* wrap commands in sudo */
	const char	*become_user;	/* NULL = root */
	const char	*become_password; /* NULL or "" = sudo -n; else sudo
					   * -S, the password written on
					   * stdin when sudo asks (copied,
					   * wiped on close) */
	tp_trace_fn	 trace;		/* NULL: no trace */
	void		*trace_arg;
	int		 ssh_debug;	/* libssh's log to trace too */
};

struct transport;

/* Result of one command. out and err are always NUL-terminated (out_len
 * and err_len are authoritative; the data may hold NULs) and owned by the
 * result: release with tp_result_clear. */
struct tp_result {
	int	 exit_status;	/* -1 if the server sent none */
	char	*out;
	size_t	 out_len;
	char	*err;
	size_t	 err_len;
};

/* Once per process, before any thread opens a transport: initialises
 * libssh (ssh_init) and, if SIGPIPE is still at its default action, ignores
 * it, so that a peer going away can never kill the whole run. Returns 0 or
 * -1. */
int		 transport_global_init(void);

/* "ok", "unreachable", "host key rejected", "authentication failed",
 * "failed", "timed out", "privilege escalation failed". */
const char	*tp_strerror(enum tp_status);

/* Connect, check the host key, authenticate. On success *out is the new
 * transport and TP_OK is returned; on failure *out is NULL, the status says
 * which step failed and *cause (if cause is not NULL) is an allocated
 * message such as "connection refused by 'web1' (127.0.0.1:2222)". */
enum tp_status	 transport_open(const struct tp_options *opts,
		    struct transport **out, char **cause);

/* Run cmd (a complete sh command line, values already quoted with shquote)
 * through the user's login shell on the host; with become it is wrapped by
 * transport_build_command (or, with a become password, by
 * become_build_command). in/in_len is fed to its stdin (may be NULL/0),
 * then stdin is closed; under sudo -S only once the command has started,
 * so the password never reaches it. timeout <= 0 means the transport's command timeout.
 * Returns TP_OK whenever the command ran, whatever its exit status (look at
 * res->exit_status); TP_TIMEOUT when it ran too long (res holds the output
 * so far); TP_BECOME when sudo refused (needs a password, wrong password, user not
 * allowed, needs a tty, sudo missing, no answer); TP_UNREACHABLE if the connection broke;
 * TP_FAILED otherwise. res is filled in every case and must be cleared. */
enum tp_status	 transport_exec(struct transport *t, const char *cmd,
		    const void *in, size_t in_len, int timeout,
		    struct tp_result *res, char **cause);

/* Who a command runs as: on, under sudo as user (NULL or "root": root);
 * off, as the login user. */
struct tp_become {
	int		 on;
	const char	*user;
};

/* transport_exec as `as` says instead of the become the transport was
 * opened with (tp_options): a play's, block's or task's become. The
 * password is the transport's either way. */
enum tp_status	 transport_exec_as(struct transport *t,
		    const struct tp_become *as, const char *cmd,
		    const void *in, size_t in_len, int timeout,
		    struct tp_result *res, char **cause);

/* A loud warning the caller should show, or NULL: set when host key
 * checking is off or when accept-new recorded a new key. Owned by t. */
const char	*transport_warning(struct transport *t);

/* The user name the session authenticated as. Owned by t. */
const char	*transport_user(struct transport *t);

/* Disconnect and free; NULL-safe. */
void		 transport_close(struct transport *t);

void		 tp_result_clear(struct tp_result *r);

/* Append the command line transport_exec sends without a become password:
 * cmd itself, or with become
 *   sudo -n -- sh -c 'CMD'            (become_user NULL or "root")
 *   sudo -n -u 'USER' -- sh -c 'CMD'
 * with CMD and USER quoted by shquote. */
void		 transport_build_command(struct strbuf *sb, const char *cmd,
		    int become, const char *become_user);

/* Classify a finished become command: if exit_status and err show that
 * sudo itself refused, return TP_BECOME and set *cause (naming user and
 * host); otherwise TP_OK. Pure, exposed for the unit tests. */
enum tp_status	 transport_check_become(int exit_status, const char *err,
		    const char *user, const char *host, char **cause);

#endif
