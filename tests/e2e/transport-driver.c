/* Drives lib/net/transport.c against the real sshd started by
 * tests/e2e/transport-sshd.sh and asserts what it sees. Output is TAP-like;
 * the exit status is the number of failed checks (capped at 100).
 *
 *   transport-driver freeport
 *   transport-driver run DIR PORT
 *
 * DIR holds what the script generated: id_ok (authorised client key),
 * id_bad (a key sshd does not know), host.pub (sshd's host key), wrong.pub
 * (another key, to fake a changed host key), sshd.log (sshd at DEBUG1). */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/strbuf.h"
#include "base/xalloc.h"
#include "net/transport.h"

static int	 failures;
static int	 checks;
static const char *dir;
static int	 port;

static void check(int, const char *, ...) __attribute__((format(printf, 2, 3)));

static void
check(int ok, const char *fmt, ...)
{
	va_list ap;

	checks++;
	if (!ok)
		failures++;
	printf("%s %d - ", ok ? "ok" : "not ok", checks);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static char *
path(const char *name)
{
	/* Per thread: the threads test builds options concurrently. */
	static _Thread_local char buf[8][512];
	static _Thread_local int i;

	i = (i + 1) % 8;
	snprintf(buf[i], sizeof buf[i], "%s/%s", dir, name);
	return buf[i];
}

static char *
read_file(const char *file, size_t *len)
{
	FILE *f;
	struct strbuf sb;
	char buf[4096];
	size_t n;

	strbuf_init(&sb);
	if ((f = fopen(file, "r")) != NULL) {
		while ((n = fread(buf, 1, sizeof buf, f)) > 0)
			strbuf_add(&sb, buf, n);
		fclose(f);
	}
	return strbuf_detach(&sb, len);
}

static void
write_file(const char *file, const char *text)
{
	FILE *f = fopen(file, "w");

	if (f == NULL) {
		perror(file);
		exit(100);
	}
	fputs(text, f);
	fclose(f);
}

/* Base options: our sshd, key id_ok, known_hosts kh, our own ssh config. */
static struct tp_options
opts(const char *kh, enum tp_hostkey_mode mode)
{
	struct tp_options o;

	memset(&o, 0, sizeof o);
	o.name = "lab1";
	o.host = "127.0.0.1";
	o.port = port;
	o.user = "root";
	o.key_file = path("id_ok");
	o.known_hosts = kh;
	o.ssh_config = path("ssh_config");
	o.hostkey_mode = mode;
	o.connect_timeout = 5;
	o.command_timeout = 20;
	return o;
}

static int
contains(const char *s, const char *what)
{
	return s != NULL && strstr(s, what) != NULL;
}

/* The sshd log from offset on, once sshd has logged the end of a
 * connection there (or after 3 s). */
static char *
log_since(size_t offset)
{
	char *log;
	size_t len;
	double until = now() + 3;

	for (;;) {
		log = read_file(path("sshd.log"), &len);
		if (len >= offset && (strstr(log + offset, "Connection closed") ||
		    strstr(log + offset, "Disconnected from") ||
		    strstr(log + offset, "Close session")))
			break;
		if (now() > until)
			break;
		free(log);
		usleep(50000);
	}
	if (len < offset)
		offset = len;
	memmove(log, log + offset, len - offset + 1);
	return log;
}

static size_t
log_size(void)
{
	struct stat st;

	return stat(path("sshd.log"), &st) == 0 ? (size_t)st.st_size : 0;
}

static void
test_hostkeys(void)
{
	struct tp_options o;
	struct transport *t = NULL;
	char *cause = NULL, *log, *kh, *hostpub, *wrongpub, *line;
	char kh_wrong[2048];
	enum tp_status st;
	size_t off;

	/* Strict with an empty known_hosts: refused, and sshd saw no
	 * authentication request at all. */
	write_file(path("kh"), "");
	off = log_size();
	o = opts(path("kh"), TP_HOSTKEY_STRICT);
	st = transport_open(&o, &t, &cause);
	check(st == TP_HOSTKEY && t == NULL, "strict + empty known_hosts -> "
	    "%s: %s", tp_strerror(st), cause);
	check(contains(cause, "is not in") && contains(cause, "SHA256:"),
	    "cause names the missing entry and the fingerprint");
	free(cause);
	cause = NULL;
	log = log_since(off);
	check(contains(log, "Connection closed") ||
	    contains(log, "Disconnected from"), "sshd logged the connection");
	check(!contains(log, "userauth-request"),
	    "no authentication attempt reached sshd before the host key check");
	free(log);

	/* accept-new records the key (and this time sshd sees auth). */
	off = log_size();
	o = opts(path("kh"), TP_HOSTKEY_ACCEPT_NEW);
	st = transport_open(&o, &t, &cause);
	check(st == TP_OK, "accept-new -> %s %s", tp_strerror(st),
	    cause ? cause : "");
	check(t != NULL && contains(transport_warning(t),
	    "recorded new host key"), "accept-new warns: %s",
	    t ? transport_warning(t) : "");
	transport_close(t);
	t = NULL;
	free(cause);
	cause = NULL;
	log = log_since(off);
	check(contains(log, "userauth-request"),
	    "positive control: sshd logs authentication when it happens");
	free(log);
	kh = read_file(path("kh"), NULL);
	hostpub = read_file(path("host.pub"), NULL);
	line = strchr(hostpub, ' ');
	*strchr(line + 1, ' ') = '\0';	/* "ssh-ed25519 AAAA..." */
	check(contains(kh, line + 1), "known_hosts now holds the host key");
	free(kh);

	/* ...and the second open passes in strict mode, without warning. */
	o = opts(path("kh"), TP_HOSTKEY_STRICT);
	st = transport_open(&o, &t, &cause);
	check(st == TP_OK && transport_warning(t) == NULL,
	    "strict after accept-new -> %s", tp_strerror(st));
	transport_close(t);
	t = NULL;
	free(cause);
	cause = NULL;

	/* A different key for the host on line 3: CHANGED, with the line. */
	wrongpub = read_file(path("wrong.pub"), NULL);
	line = strchr(wrongpub, ' ');
	*strchr(line + 1, ' ') = '\0';
	snprintf(kh_wrong, sizeof kh_wrong, "# comment\nother.example "
	    "ssh-ed25519 %s\n[127.0.0.1]:%d ssh-ed25519 %s\n", line + 1, port,
	    line + 1);
	write_file(path("kh_wrong"), kh_wrong);
	for (int mode = TP_HOSTKEY_STRICT; mode <= TP_HOSTKEY_ACCEPT_NEW;
	    mode++) {
		off = log_size();
		o = opts(path("kh_wrong"), (enum tp_hostkey_mode)mode);
		st = transport_open(&o, &t, &cause);
		check(st == TP_HOSTKEY && t == NULL, "%s + changed key -> %s: "
		    "%s", mode == TP_HOSTKEY_STRICT ? "strict" : "accept-new",
		    tp_strerror(st), cause);
		check(contains(cause, "CHANGED") && contains(cause, "line 3") &&
		    contains(cause, "man-in-the-middle"),
		    "cause says CHANGED, names line 3");
		free(cause);
		cause = NULL;
		log = log_since(off);
		check(!contains(log, "userauth-request"),
		    "no authentication attempt with a changed key");
		free(log);
	}
	kh = read_file(path("kh_wrong"), NULL);
	check(strcmp(kh, kh_wrong) == 0, "accept-new left a changed entry alone");
	free(kh);

	/* The key marked @revoked (and listed as the host's): REVOKED, in
	 * every mode, nothing sent. */
	free(hostpub);
	hostpub = read_file(path("host.pub"), NULL);
	line = strchr(hostpub, ' ');
	*strchr(line + 1, ' ') = '\0';
	snprintf(kh_wrong, sizeof kh_wrong, "[127.0.0.1]:%d ssh-ed25519 %s\n"
	    "@revoked * ssh-ed25519 %s\n", port, line + 1, line + 1);
	write_file(path("kh_revoked"), kh_wrong);
	for (int mode = TP_HOSTKEY_STRICT; mode <= TP_HOSTKEY_ACCEPT_NEW;
	    mode++) {
		off = log_size();
		o = opts(path("kh_revoked"), (enum tp_hostkey_mode)mode);
		st = transport_open(&o, &t, &cause);
		check(st == TP_HOSTKEY && t == NULL && contains(cause,
		    "REVOKED") && contains(cause, "line 2"), "revoked key -> "
		    "%s: %s", tp_strerror(st), cause);
		free(cause);
		cause = NULL;
		log = log_since(off);
		check(!contains(log, "userauth-request"),
		    "no authentication attempt with a revoked key");
		free(log);
	}

	/* The hashed entry ssh-keygen -H writes for [127.0.0.1]:PORT. */
	snprintf(kh_wrong, sizeof kh_wrong, "[127.0.0.1]:%d ssh-ed25519 %s\n",
	    port, line + 1);
	write_file(path("kh_hashed"), kh_wrong);
	kh = xprintf("ssh-keygen -q -H -f %s >/dev/null 2>&1",
	    path("kh_hashed"));
	check(system(kh) == 0, "ssh-keygen -H");
	free(kh);
	kh = read_file(path("kh_hashed"), NULL);
	check(strncmp(kh, "|1|", 3) == 0, "known_hosts is hashed: %s", kh);
	free(kh);
	o = opts(path("kh_hashed"), TP_HOSTKEY_STRICT);
	st = transport_open(&o, &t, &cause);
	check(st == TP_OK, "strict + hashed entry -> %s %s", tp_strerror(st),
	    cause ? cause : "");
	transport_close(t);
	t = NULL;
	free(cause);
	cause = NULL;

	/* Only the host's ECDSA key known: libssh negotiates ed25519 first,
	 * the transport reconnects with the known type first, as OpenSSH's
	 * and libssh's ordering by known_hosts would have. */
	free(hostpub);
	hostpub = read_file(path("host_ecdsa.pub"), NULL);
	*strchr(strchr(hostpub, ' ') + 1, ' ') = '\0';
	snprintf(kh_wrong, sizeof kh_wrong, "[127.0.0.1]:%d %s\n", port,
	    hostpub);
	write_file(path("kh_ecdsa"), kh_wrong);
	o = opts(path("kh_ecdsa"), TP_HOSTKEY_STRICT);
	st = transport_open(&o, &t, &cause);
	check(st == TP_OK, "strict + only the ECDSA key known -> %s %s",
	    tp_strerror(st), cause ? cause : "");
	transport_close(t);
	t = NULL;
	free(cause);
	cause = NULL;

	/* Off: connects anyway, loudly. */
	o = opts(path("kh_wrong"), TP_HOSTKEY_OFF);
	st = transport_open(&o, &t, &cause);
	check(st == TP_OK && contains(transport_warning(t), "OFF"),
	    "hostkey off + changed key -> %s, warning: %s", tp_strerror(st),
	    t ? transport_warning(t) : "");
	transport_close(t);
	t = NULL;
	free(cause);
	free(hostpub);
	free(wrongpub);
}

static void
test_exec(void)
{
	struct tp_options o = opts(path("kh"), TP_HOSTKEY_STRICT);
	struct transport *t = NULL;
	struct tp_result r;
	char *cause = NULL, *in, cmd[256], want[64];
	enum tp_status st;
	size_t i, n = 1024 * 1024;
	double t0, dt;
	int ok, pid;

	st = transport_open(&o, &t, &cause);
	check(st == TP_OK, "open for exec -> %s %s", tp_strerror(st),
	    cause ? cause : "");
	if (st != TP_OK)
		return;
	check(strcmp(transport_user(t), "root") == 0, "logged in as root");

	st = transport_exec(t, "printf hello; printf err >&2; exit 3", NULL, 0,
	    0, &r, &cause);
	check(st == TP_OK && r.exit_status == 3 && r.out_len == 5 &&
	    strcmp(r.out, "hello") == 0 && strcmp(r.err, "err") == 0,
	    "out/err/status: %s [%s] [%s] %d", tp_strerror(st), r.out, r.err,
	    r.exit_status);
	tp_result_clear(&r);

	/* 1 MiB of every byte value through cat. */
	in = malloc(n);
	for (i = 0; i < n; i++)
		in[i] = (char)((i * 7919 + (i >> 8)) & 0xff);
	t0 = now();
	st = transport_exec(t, "cat", in, n, 0, &r, &cause);
	dt = now() - t0;
	check(st == TP_OK && r.exit_status == 0 && r.out_len == n &&
	    memcmp(r.out, in, n) == 0, "1 MiB stdin round-trips through cat "
	    "(%.0f ms)", dt * 1000);
	tp_result_clear(&r);
	/* A command that ignores its stdin must not make us hang. */
	st = transport_exec(t, "exit 4", in, n, 5, &r, &cause);
	check(st == TP_OK && r.exit_status == 4,
	    "unread stdin is fine -> %s %d", tp_strerror(st), r.exit_status);
	tp_result_clear(&r);
	free(in);

	st = transport_exec(t, "printf 'a\\000b'", NULL, 0, 0, &r, &cause);
	check(st == TP_OK && r.out_len == 3 && memcmp(r.out, "a\0b", 3) == 0,
	    "binary output keeps NULs");
	tp_result_clear(&r);

	/* Many execs over one session: more than sshd's MaxSessions (10),
	 * so channels must really be closed. */
	ok = 1;
	t0 = now();
	for (i = 0; i < 30; i++) {
		snprintf(cmd, sizeof cmd, "echo %zu", i);
		snprintf(want, sizeof want, "%zu\n", i);
		st = transport_exec(t, cmd, NULL, 0, 0, &r, &cause);
		if (st != TP_OK || strcmp(r.out, want) != 0) {
			printf("# exec %zu: %s %s\n", i, tp_strerror(st),
			    cause ? cause : "");
			ok = 0;
		}
		tp_result_clear(&r);
		free(cause);
		cause = NULL;
		if (!ok)
			break;
	}
	dt = now() - t0;
	check(ok, "30 execs over one connection (%.1f ms each)",
	    dt * 1000 / 30);

	st = transport_exec(t, "kill -TERM $$", NULL, 0, 0, &r, &cause);
	check(st == TP_OK && r.exit_status == 128 + 15,
	    "killed by signal -> status %d", r.exit_status);
	tp_result_clear(&r);

	/* Timeout: TP_TIMEOUT on time, the remote command is killed, the
	 * transport stays usable. */
	unlink("/tmp/tcptune-transport-sleep.pid");
	t0 = now();
	st = transport_exec(t, "echo $$ > /tmp/tcptune-transport-sleep.pid; "
	    "printf partial; exec sleep 30", NULL, 0, 2, &r, &cause);
	dt = now() - t0;
	check(st == TP_TIMEOUT && dt >= 1.9 && dt < 3.5,
	    "sleep past timeout -> %s after %.2f s: %s", tp_strerror(st), dt,
	    cause);
	check(strcmp(r.out, "partial") == 0, "output so far is kept");
	tp_result_clear(&r);
	free(cause);
	cause = NULL;
	in = read_file("/tmp/tcptune-transport-sleep.pid", NULL);
	pid = atoi(in);
	free(in);
	/* sshd refuses "signal" requests for root logins (no post-auth
	 * privsep, "session signalling requires privilege separation"), so
	 * the remote sleep may survive; we only report it, and clean up. */
	for (i = 0; i < 20 && pid > 0 && kill(pid, 0) == 0; i++)
		usleep(50000);
	check(pid > 0, "the remote command had started (pid %d)", pid);
	if (pid > 0 && kill(pid, 0) == 0) {
		printf("# note: remote command %d survived the timeout (root "
		    "login: sshd ignores the KILL signal request)\n", pid);
		kill(pid, SIGKILL);
	}
	unlink("/tmp/tcptune-transport-sleep.pid");
	if (getenv("TCPTUNE_TEST_KEEPALIVE") != NULL) {
		/* Slow (17 s), so opt-in: a silent command longer than the
		 * keepalive interval, with SSH_MSG_IGNOREs sent meanwhile. */
		st = transport_exec(t, "sleep 17; echo done", NULL, 0, 30, &r,
		    &cause);
		check(st == TP_OK && strcmp(r.out, "done\n") == 0,
		    "silent 17 s command across keepalives -> %s",
		    tp_strerror(st));
		tp_result_clear(&r);
	}
	st = transport_exec(t, "echo alive", NULL, 0, 0, &r, &cause);
	check(st == TP_OK && strcmp(r.out, "alive\n") == 0,
	    "transport usable after a timeout");
	tp_result_clear(&r);
	transport_close(t);
}

/* A server slower to answer than the connect timeout: the session's sshd
 * is stopped (SIGSTOP by a job the previous command left behind) for 3 s
 * while the next command's channel open waits, with a 1 s connect timeout.
 * libssh gives up waiting after the session timeout and returns SSH_AGAIN
 * with no error: the transport must keep waiting up to the command's own
 * deadline (a UML guest's sshd after boot, two CI runs), and give up with
 * a timeout that says so when even that passes. */
static void
test_slow_answer(void)
{
	struct tp_options o = opts(path("kh"), TP_HOSTKEY_STRICT);
	struct transport *t = NULL;
	struct tp_result r;
	char *cause = NULL;
	enum tp_status st;
	double t0, dt;
	/* $PPID of the command's shell is the connection's sshd. */
	const char *stop_sshd_later = "p=$PPID; (sleep 0.3; kill -STOP $p; "
	    "sleep %d; kill -CONT $p) </dev/null >/dev/null 2>&1 &";
	char cmd[160];

	o.connect_timeout = 1;
	st = transport_open(&o, &t, &cause);
	check(st == TP_OK, "open for the slow server -> %s %s",
	    tp_strerror(st), cause ? cause : "");
	if (st != TP_OK)
		return;
	snprintf(cmd, sizeof cmd, stop_sshd_later, 3);
	st = transport_exec(t, cmd, NULL, 0, 0, &r, &cause);
	check(st == TP_OK && r.exit_status == 0, "left the stopping job -> %s",
	    tp_strerror(st));
	tp_result_clear(&r);
	usleep(600000);		/* sshd is stopped now */
	t0 = now();
	st = transport_exec(t, "echo answered", NULL, 0, 0, &r, &cause);
	dt = now() - t0;
	check(st == TP_OK && strcmp(r.out, "answered\n") == 0 && dt > 2.0,
	    "a server stopped 3 s past a 1 s connect timeout: waited and ran "
	    "(%.2f s) -> %s %s", dt, tp_strerror(st), cause ? cause : "");
	tp_result_clear(&r);
	free(cause);
	cause = NULL;

	/* Past the command's own deadline: a timeout naming what it waited
	 * for. */
	snprintf(cmd, sizeof cmd, stop_sshd_later, 4);
	st = transport_exec(t, cmd, NULL, 0, 0, &r, &cause);
	tp_result_clear(&r);
	usleep(600000);
	t0 = now();
	st = transport_exec(t, "echo late", NULL, 0, 2, &r, &cause);
	dt = now() - t0;
	check(st == TP_TIMEOUT && cause != NULL && strstr(cause, "timed out "
	    "after 2 s: the server did not answer the request to start it") !=
	    NULL && dt < 3.0, "stopped past a 2 s command timeout -> %s in "
	    "%.2f s: %s", tp_strerror(st), dt, cause ? cause : "");
	tp_result_clear(&r);
	free(cause);
	transport_close(t);
	sleep(4);	/* the job has let sshd go on */
}

static void
test_become(void)
{
	struct tp_options o = opts(path("kh"), TP_HOSTKEY_STRICT);
	struct transport *t = NULL;
	struct tp_result r;
	char *cause = NULL;
	enum tp_status st;

	o.become = 1;
	st = transport_open(&o, &t, &cause);
	check(st == TP_OK, "open with become");
	if (st != TP_OK)
		return;
	st = transport_exec(t, "id -u; printf %s \"it's $((1+1))\" >&2", NULL, 0,
	    0, &r, &cause);
	check(st == TP_OK && strcmp(r.out, "0\n") == 0 &&
	    strcmp(r.err, "it's 2") == 0 && r.exit_status == 0,
	    "become root runs through sudo -n sh -c: [%s] [%s]", r.out, r.err);
	tp_result_clear(&r);
	st = transport_exec(t, "cat; ps -o comm= -p $PPID", "in\n", 3, 0, &r,
	    &cause);
	check(st == TP_OK && strcmp(r.out, "in\nsudo\n") == 0,
	    "stdin reaches the command under sudo: [%s]", r.out);
	tp_result_clear(&r);
	transport_close(t);

	o.become_user = "nobody";
	st = transport_open(&o, &t, &cause);
	st = st == TP_OK ? transport_exec(t, "id -un", NULL, 0, 0, &r,
	    &cause) : st;
	check(st == TP_OK && strcmp(r.out, "nobody\n") == 0,
	    "become_user nobody -> [%s]", st == TP_OK ? r.out : cause);
	if (t != NULL)
		tp_result_clear(&r);
	transport_close(t);
}

/* A become password where sudo does not ask (root): sudo -S, the start
 * marker comes at once, and the command gets exactly its own stdin (1 MiB,
 * well past the channel window, and never the password), with the marker
 * gone from stderr. */
static void
test_become_password_unasked(void)
{
	struct tp_options o = opts(path("kh"), TP_HOSTKEY_STRICT);
	struct transport *t = NULL;
	struct tp_result r;
	char *cause = NULL, *big;
	enum tp_status st;
	size_t n = 1024 * 1024;

	o.become = 1;
	o.become_password = "never-sent-secret";
	o.become_user = "nobody";
	if ((st = transport_open(&o, &t, &cause)) != TP_OK) {
		check(0, "open with a become password: %s", cause);
		free(cause);
		return;
	}
	big = malloc(n);
	memset(big, 'x', n);
	st = transport_exec(t, "wc -c; id -un; echo done >&2", big, n, 0, &r,
	    &cause);
	check(st == TP_OK && strcmp(r.out, "1048576\nnobody\n") == 0 &&
	    strcmp(r.err, "done\n") == 0 && r.exit_status == 0,
	    "sudo -S that does not ask: stdin intact, marker gone: [%s] [%s]",
	    r.out, r.err);
	tp_result_clear(&r);
	st = transport_exec(t, "cat", "in\n", 3, 0, &r, &cause);
	check(st == TP_OK && strcmp(r.out, "in\n") == 0,
	    "the password is not on the command's stdin: [%s]", r.out);
	tp_result_clear(&r);
	free(big);
	transport_close(t);
}

static void
test_unreachable(void)
{
	struct tp_options o;
	struct transport *t = NULL;
	struct sockaddr_in sin;
	socklen_t len = sizeof sin;
	char *cause = NULL;
	enum tp_status st;
	double t0, dt;
	int fd, closed_port;

	/* A port nobody listens on. */
	fd = socket(AF_INET, SOCK_STREAM, 0);
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	bind(fd, (struct sockaddr *)&sin, sizeof sin);
	getsockname(fd, (struct sockaddr *)&sin, &len);
	closed_port = ntohs(sin.sin_port);
	close(fd);
	o = opts(path("kh"), TP_HOSTKEY_STRICT);
	o.port = closed_port;
	t0 = now();
	st = transport_open(&o, &t, &cause);
	dt = now() - t0;
	check(st == TP_UNREACHABLE && dt < 1 && contains(cause, "refused"),
	    "closed port -> %s in %.3f s: %s", tp_strerror(st), dt, cause);
	free(cause);
	cause = NULL;

	/* A listener that never speaks: TCP connects, no banner. */
	fd = socket(AF_INET, SOCK_STREAM, 0);
	sin.sin_port = 0;
	bind(fd, (struct sockaddr *)&sin, sizeof sin);
	listen(fd, 8);
	len = sizeof sin;
	getsockname(fd, (struct sockaddr *)&sin, &len);
	o.port = ntohs(sin.sin_port);
	o.connect_timeout = 2;
	t0 = now();
	st = transport_open(&o, &t, &cause);
	dt = now() - t0;
	check(st == TP_UNREACHABLE && dt < o.connect_timeout + 1,
	    "silent listener -> %s in %.2f s (connect_timeout %d): %s",
	    tp_strerror(st), dt, o.connect_timeout, cause);
	close(fd);
	free(cause);
	cause = NULL;

	o = opts(path("kh"), TP_HOSTKEY_STRICT);
	o.host = "nonexistent.invalid";
	st = transport_open(&o, &t, &cause);
	check(st == TP_UNREACHABLE && contains(cause, "resolve"),
	    "unresolvable name -> %s: %s", tp_strerror(st), cause);
	free(cause);
}

static void
test_auth(void)
{
	struct tp_options o = opts(path("kh"), TP_HOSTKEY_STRICT);
	struct transport *t = NULL;
	char *cause = NULL;
	enum tp_status st;

	o.key_file = path("id_bad");
	st = transport_open(&o, &t, &cause);
	check(st == TP_AUTH && t == NULL && contains(cause,
	    "permission denied (publickey) for user 'root'"),
	    "unknown key -> %s: %s", tp_strerror(st), cause);
	free(cause);
	cause = NULL;
	o.key_file = path("no-such-key");
	st = transport_open(&o, &t, &cause);
	check(st == TP_AUTH && contains(cause, "cannot load private key"),
	    "missing key file -> %s: %s", tp_strerror(st), cause);
	free(cause);
}

static void
test_config(void)
{
	struct tp_options o;
	struct transport *t = NULL;
	struct tp_result r;
	char *cause = NULL, cfg[512];
	enum tp_status st;

	/* Host alias resolved by the ssh config (HostName, Port, User). */
	snprintf(cfg, sizeof cfg, "Host lab-alias\n  HostName 127.0.0.1\n"
	    "  Port %d\n  User root\n  IdentityFile %s\n"
	    "Host 127.0.0.1\n  Port 1\n  User nobody\n", port, path("id_ok"));
	write_file(path("ssh_config2"), cfg);
	o = opts(path("kh"), TP_HOSTKEY_STRICT);
	o.ssh_config = path("ssh_config2");
	o.host = "lab-alias";
	o.port = 0;
	o.user = NULL;
	o.key_file = NULL;	/* the config's IdentityFile, via auto */
	st = transport_open(&o, &t, &cause);
	check(st == TP_OK, "ssh config Host alias with HostName/Port/User/"
	    "IdentityFile -> %s %s", tp_strerror(st), cause ? cause : "");
	transport_close(t);
	t = NULL;
	free(cause);
	cause = NULL;

	/* Inventory values win over the config's Port 1 / User nobody. */
	o = opts(path("kh"), TP_HOSTKEY_STRICT);
	o.ssh_config = path("ssh_config2");
	st = transport_open(&o, &t, &cause);
	if (st == TP_OK)
		st = transport_exec(t, "id -un", NULL, 0, 0, &r, &cause);
	check(st == TP_OK && strcmp(r.out, "root\n") == 0,
	    "explicit port and user override the ssh config -> %s %s",
	    tp_strerror(st), cause ? cause : "");
	if (t != NULL)
		tp_result_clear(&r);
	transport_close(t);
	t = NULL;
	free(cause);
	cause = NULL;

	o = opts(path("kh"), TP_HOSTKEY_STRICT);
	o.ssh_config = path("no-such-config");
	st = transport_open(&o, &t, &cause);
	check(st == TP_FAILED && contains(cause, "cannot read ssh config"),
	    "missing ssh config -> %s: %s", tp_strerror(st), cause);
	free(cause);
}

static void
test_proxy_jump(void)
{
	struct tp_options o = opts(path("kh"), TP_HOSTKEY_STRICT);
	struct transport *t = NULL;
	struct tp_result r;
	char *cause = NULL, jump[128];
	enum tp_status st;

	/* Through the same sshd as the bastion: ssh -W to itself. */
	snprintf(jump, sizeof jump, "root@127.0.0.1:%d", port);
	o.proxy_jump = jump;
	st = transport_open(&o, &t, &cause);
	if (st == TP_OK)
		st = transport_exec(t, "echo via-jump", NULL, 0, 0, &r, &cause);
	check(st == TP_OK && strcmp(r.out, "via-jump\n") == 0,
	    "proxy jump %s -> %s %s", jump, tp_strerror(st),
	    cause ? cause : "");
	if (t != NULL)
		tp_result_clear(&r);
	transport_close(t);
	t = NULL;
	free(cause);
	cause = NULL;

	/* The jump host's key is checked too: strict + empty file fails. */
	o.known_hosts = path("kh_empty");
	write_file(path("kh_empty"), "");
	st = transport_open(&o, &t, &cause);
	check(st != TP_OK, "proxy jump with unknown jump host key fails -> "
	    "%s: %s", tp_strerror(st), cause);
	free(cause);
}

struct thread_arg {
	int	ok;
	int	id;
};

static void *
thread_main(void *arg)
{
	struct thread_arg *ta = arg;
	struct tp_options o = opts(path("kh"), TP_HOSTKEY_STRICT);
	struct transport *t = NULL;
	struct tp_result r;
	char *cause = NULL, cmd[64], want[64];
	int i;

	ta->ok = 0;
	if (transport_open(&o, &t, &cause) != TP_OK) {
		printf("# thread %d: %s\n", ta->id, cause);
		free(cause);
		return NULL;
	}
	for (i = 0; i < 5; i++) {
		snprintf(cmd, sizeof cmd, "echo %d-%d", ta->id, i);
		snprintf(want, sizeof want, "%d-%d\n", ta->id, i);
		if (transport_exec(t, cmd, NULL, 0, 0, &r, &cause) != TP_OK ||
		    strcmp(r.out, want) != 0) {
			tp_result_clear(&r);
			transport_close(t);
			return NULL;
		}
		tp_result_clear(&r);
	}
	transport_close(t);
	ta->ok = 1;
	return NULL;
}

static void
test_threads(void)
{
	pthread_t th[8];
	struct thread_arg ta[8];
	int i, ok = 1;
	double t0 = now();

	for (i = 0; i < 8; i++) {
		ta[i].id = i;
		pthread_create(&th[i], NULL, thread_main, &ta[i]);
	}
	for (i = 0; i < 8; i++) {
		pthread_join(th[i], NULL);
		ok &= ta[i].ok;
	}
	check(ok, "8 threads, one transport each, 5 execs each (%.2f s)",
	    now() - t0);
}

int
main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "freeport") == 0) {
		struct sockaddr_in sin;
		socklen_t len = sizeof sin;
		int fd = socket(AF_INET, SOCK_STREAM, 0);

		memset(&sin, 0, sizeof sin);
		sin.sin_family = AF_INET;
		sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		if (bind(fd, (struct sockaddr *)&sin, sizeof sin) != 0 ||
		    getsockname(fd, (struct sockaddr *)&sin, &len) != 0)
			return 1;
		printf("%d\n", ntohs(sin.sin_port));
		return 0;
	}
	if (argc != 4 || strcmp(argv[1], "run") != 0) {
		fprintf(stderr, "usage: transport-driver freeport | run DIR "
		    "PORT\n");
		return 100;
	}
	dir = argv[2];
	port = atoi(argv[3]);
	if (transport_global_init() != 0) {
		fprintf(stderr, "transport_global_init failed\n");
		return 100;
	}
	write_file(path("ssh_config"), "# empty: tests must not depend on "
	    "~/.ssh/config\n");

	test_hostkeys();
	test_exec();
	test_slow_answer();
	test_become();
	test_become_password_unasked();
	test_unreachable();
	test_auth();
	test_config();
	test_proxy_jump();
	test_threads();

	printf("1..%d\n", checks);
	if (failures != 0)
		printf("# %d of %d checks failed\n", failures, checks);
	return failures > 100 ? 100 : failures;
}
