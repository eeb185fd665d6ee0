/* known_hosts verdicts against OpenSSH's own: a generated file of mixed
 * entries (plain, hashed by ssh-keygen -H, [host]:port, wildcards and
 * negations, several keys for a host, @cert-authority, @revoked, lines
 * OpenSSH skips), then for each case the verdict of kh_check and the one
 * OpenSSH's ssh gives against a real sshd -i (as its ProxyCommand, no
 * network) presenting the case's key; and for each name the lines
 * kh_lines_for_host matches against the lines ssh-keygen -F lists. Needs
 * ssh, sshd and ssh-keygen: a missing one fails the test. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

/* before cmocka.h, whose fail() is a macro */
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "net/knownhosts.h"

#include <cmocka.h>

static char	 dir[] = "/tmp/tt-knownhosts-XXXXXX";

/* Run a shell command; its stdout and stderr together, and *rc. */
static char *
run(int *rc, const char *fmt, ...)
{
	struct strbuf sb;
	char *cmd, buf[4096];
	va_list ap;
	size_t n;
	FILE *p;
	int st;

	va_start(ap, fmt);
	cmd = xvprintf(fmt, ap);
	va_end(ap);
	strbuf_init(&sb);
	p = popen(cmd, "r");
	assert_non_null(p);
	while ((n = fread(buf, 1, sizeof buf, p)) > 0)
		strbuf_add(&sb, buf, n);
	st = pclose(p);
	if (rc != NULL)
		*rc = st;
	free(cmd);
	return strbuf_detach(&sb, NULL);
}

/* "TYPE BASE64" of a key's .pub. */
static char *
pub(const char *key)
{
	char *out = run(NULL, "cut -d' ' -f1,2 %s/%s.pub", dir, key);

	out[strcspn(out, "\n")] = '\0';
	return out;
}

/* The base64 of a key's .pub. */
static char *
key64_of(const char *key)
{
	char *p = pub(key), *b64 = xstrdup(strchr(p, ' ') + 1);

	free(p);
	return b64;
}

static const char *const vname[] = { "NEW", "OK", "CHANGED", "REVOKED" };

/* OpenSSH's verdict: ssh with strict checking against sshd -i presenting
 * key. Past the host key it fails authentication: that is OK. */
static enum kh_verdict
openssh_verdict(const char *name, unsigned int port, const char *key)
{
	char *out;
	enum kh_verdict v = KH_NEW;
	int rc;

	out = run(&rc, "ssh -F /dev/null -o BatchMode=yes "
	    "-o StrictHostKeyChecking=yes -o CheckHostIP=no "
	    "-o UserKnownHostsFile=%s/kh -o GlobalKnownHostsFile=/dev/null "
	    "-o PreferredAuthentications=none -o IdentityFile=/dev/null "
	    "-o ProxyCommand='/usr/sbin/sshd -i -f /dev/null -h %s/%s "
	    "-o PidFile=none -o LogLevel=QUIET' -p %u %s true 2>&1",
	    dir, dir, key, port, name);
	if (strstr(out, "Permission denied") != NULL)
		v = KH_OK;
	else if (strstr(out, "REVOKED HOST KEY") != NULL)
		v = KH_REVOKED;
	else if (strstr(out, "REMOTE HOST IDENTIFICATION HAS CHANGED") != NULL)
		v = KH_CHANGED;
	else if (strstr(out, "host key is known for") != NULL)
		v = KH_NEW;
	else
		fail_msg("cannot read OpenSSH's verdict for %s:%u: %s", name,
		    port, out);
	free(out);
	return v;
}

/* A file of the test's directory, for writing. */
static FILE *
open_in_dir(const char *name)
{
	char *path = xprintf("%s/%s", dir, name);
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	free(path);
	return f;
}

struct vcase {
	const char	*name;
	unsigned int	 port;
	const char	*key;
	enum kh_verdict	 want;		/* what OpenSSH says, also asserted */
};

static const struct vcase cases[] = {
	{ "web1", 22, "a", KH_OK },
	{ "web1", 22, "b", KH_CHANGED },	/* a changed key */
	/* A new [host]:port falls back to host's entries, where they hold
	 * the key (OpenSSH's "found matching key w/out port"). */
	{ "web1", 2222, "a", KH_OK },
	{ "web1", 2222, "b", KH_NEW },
	{ "web4", 2222, "a", KH_NEW },
	{ "rev1", 2222, "r", KH_REVOKED },	/* @revoked * holds it too */
	{ "web2", 2222, "a", KH_OK },
	{ "web2", 22, "a", KH_NEW },
	{ "foo.example.com", 22, "b", KH_OK },	/* wildcard */
	{ "bad.example.com", 22, "b", KH_NEW },	/* negated */
	{ "web3", 22, "a", KH_CHANGED },	/* only an RSA key known */
	{ "web4", 22, "a", KH_CHANGED },
	{ "anyhost", 22, "r", KH_REVOKED },	/* @revoked * */
	{ "rev1", 22, "r", KH_REVOKED },	/* listed, but revoked */
	{ "ca1", 22, "a", KH_NEW },		/* a CA is no host key */
	{ "web5", 22, "a", KH_OK },		/* written Web5 */
	{ "web6x", 22, "a", KH_OK },		/* web6? */
	{ "web6xy", 22, "a", KH_NEW },
	{ "web7", 22, "a", KH_NEW },		/* unknown marker: skipped */
	{ "web8", 22, "a", KH_NEW },		/* unknown key type: skipped */
	{ "db1", 22, "d", KH_OK },		/* hashed, ECDSA */
	{ "db1", 22, "a", KH_CHANGED },
	{ "db2", 2200, "a", KH_OK },		/* hashed [db2]:2200 */
	{ "db2", 22, "a", KH_NEW },
	{ "multi", 22, "a", KH_OK },		/* several keys for one host */
	{ "multi", 22, "b", KH_CHANGED },
	{ "neg1", 22, "a", KH_NEW },		/* !neg1,neg* */
	{ "neg2", 22, "a", KH_OK },
	{ "bad.example.com", 22, "a", KH_NEW },
	{ "web9", 22, "a", KH_NEW },		/* a key that does not decode */
	{ "web10", 22, "a", KH_NEW },		/* ssh-rsa naming an ed25519 blob */
};

static int
setup(void **state)
{
	static const char *const keys[][2] = {
		{ "a", "ed25519" }, { "b", "ed25519" }, { "c", "rsa" },
		{ "d", "ecdsa" }, { "r", "ed25519" }, { "ca", "ed25519" },
	};
	struct strbuf kh;
	char *a, *b, *c, *d, *r, *ca, *hashed, *out;
	size_t i;
	FILE *f;
	int rc;

	(void)state;
	/* sshd refuses to start without its privilege separation directory,
	 * which only a running sshd service (or a lab) leaves behind: on a
	 * fresh machine this test was the first to need it. */
	if (mkdir("/run/sshd", 0755) != 0 && errno != EEXIST)
		fail_msg("cannot create /run/sshd for sshd -i: %s",
		    strerror(errno));
	assert_non_null(mkdtemp(dir));
	for (i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		out = run(&rc, "ssh-keygen -q -t %s %s -N '' -f %s/%s 2>&1",
		    keys[i][1], strcmp(keys[i][1], "rsa") == 0 ? "-b 2048" : "",
		    dir, keys[i][0]);
		if (rc != 0)
			fail_msg("ssh-keygen: %s", out);
		free(out);
	}
	a = pub("a");
	b = pub("b");
	c = pub("c");
	d = pub("d");
	r = pub("r");
	ca = pub("ca");
	/* The hashed entries are OpenSSH's own: ssh-keygen -H. */
	f = open_in_dir("tohash");
	fprintf(f, "db1 %s\n[db2]:2200 %s\n", d, a);
	fclose(f);
	out = run(&rc, "ssh-keygen -q -H -f %s/tohash 2>&1", dir);
	if (rc != 0)
		fail_msg("ssh-keygen -H: %s", out);
	free(out);
	hashed = run(NULL, "cat %s/tohash", dir);
	assert_non_null(strstr(hashed, "|1|"));

	strbuf_init(&kh);
	strbuf_addf(&kh, "# a known_hosts of mixed entries\n\n");
	strbuf_addf(&kh, "web1 %s\n", a);
	strbuf_addf(&kh, "%s", hashed);
	strbuf_addf(&kh, "[web2]:2222 %s\n", a);
	strbuf_addf(&kh, "*.example.com,!bad.example.com %s\n", b);
	strbuf_addf(&kh, "web3 %s\n", c);
	strbuf_addf(&kh, "web4 %s comment here\n", b);
	strbuf_addf(&kh, "@revoked * %s\n", r);
	strbuf_addf(&kh, "rev1 %s\n", r);
	strbuf_addf(&kh, "@cert-authority *.example.com %s\n", ca);
	strbuf_addf(&kh, "@cert-authority ca1 %s\n", a);
	strbuf_addf(&kh, "  Web5\t%s\n", a);
	strbuf_addf(&kh, "web6? %s\n", a);
	strbuf_addf(&kh, "@foo web7 %s\n", a);
	strbuf_addf(&kh, "web8 ssh-foo %s\n", strchr(a, ' ') + 1);
	strbuf_addf(&kh, "multi %s\nmulti %s\nmulti %s\n", c, d, a);
	strbuf_addf(&kh, "!neg1,neg* %s\n", a);
	strbuf_addf(&kh, "web9 ssh-ed25519 AAAAnot+base64!\n");
	strbuf_addf(&kh, "web10 ssh-rsa %s\n", strchr(a, ' ') + 1);
	f = open_in_dir("kh");
	fputs(kh.buf, f);
	fclose(f);
	strbuf_release(&kh);
	free(a);
	free(b);
	free(c);
	free(d);
	free(r);
	free(ca);
	free(hashed);
	return 0;
}

static int
teardown(void **state)
{
	char *out;

	(void)state;
	out = run(NULL, "rm -rf %s", dir);
	free(out);
	return 0;
}

static struct kh_file *
load(void)
{
	char *text = run(NULL, "cat %s/kh", dir), *path;
	struct kh_file *f;

	path = xprintf("%s/kh", dir);
	f = kh_parse(path, text, strlen(text));
	free(text);
	free(path);
	return f;
}

static void
test_verdicts_match_openssh(void **state)
{
	struct kh_file *f = load();
	struct kh_result res;
	char *key64;
	enum kh_verdict theirs;
	size_t i;
	char *hp;
	int bad = 0;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		key64 = key64_of(cases[i].key);
		hp = kh_hostport(cases[i].name, cases[i].port);
		kh_check(&f, 1, cases[i].name, cases[i].port, key64, &res);
		theirs = openssh_verdict(cases[i].name, cases[i].port,
		    cases[i].key);
		if (res.verdict != theirs || theirs != cases[i].want) {
			print_error("%s key %s: ours %s, OpenSSH %s, expected "
			    "%s\n", hp, cases[i].key, vname[res.verdict],
			    vname[theirs], vname[cases[i].want]);
			bad++;
		}
		free(hp);
		free(key64);
	}
	assert_int_equal(bad, 0);
	kh_file_free(f);
}

/* The deciding line: web1's key is on line 3, web3 (changed, other type)
 * names its RSA line, db1's ECDSA key its hashed line. */
static void
test_lines(void **state)
{
	struct kh_file *f = load(), *two[2];
	struct kh_result res;
	char *key64;

	(void)state;
	key64 = key64_of("a");
	kh_check(&f, 1, "web1", 22, key64, &res);
	assert_int_equal(res.verdict, KH_OK);
	assert_int_equal(res.line, 3);
	kh_check(&f, 1, "web3", 22, key64, &res);
	assert_int_equal(res.verdict, KH_CHANGED);
	assert_int_equal(res.line, 8);
	assert_true(res.other_types);
	kh_check(&f, 1, "multi", 22, key64, &res);
	assert_int_equal(res.verdict, KH_OK);
	assert_int_equal(res.line, 20);
	/* Two files are one list, as OpenSSH loads user and global files. */
	two[0] = kh_parse("empty", "", 0);
	two[1] = f;
	kh_check(two, 2, "web1", 22, key64, &res);
	assert_int_equal(res.verdict, KH_OK);
	assert_non_null(res.path);
	assert_non_null(strstr(res.path, "/kh"));
	kh_file_free(two[0]);
	free(key64);
	key64 = key64_of("b");
	kh_check(&f, 1, "web1", 22, key64, &res);
	assert_int_equal(res.verdict, KH_CHANGED);
	assert_int_equal(res.line, 3);
	assert_false(res.other_types);
	free(key64);
	kh_file_free(f);
}

/* Which lines each name matches, against ssh-keygen -F. */
static void
test_lines_match_ssh_keygen(void **state)
{
	struct kh_file *f = load();
	unsigned int ours[32], theirs[32];
	size_t i, n, m, k;
	char *hp, *out, *p;
	int bad = 0;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		hp = kh_hostport(cases[i].name, cases[i].port);
		n = kh_lines_for_host(f, hp, ours, 32);
		out = run(NULL, "ssh-keygen -F '%s' -f %s/kh 2>/dev/null", hp,
		    dir);
		m = 0;
		for (p = out; (p = strstr(p, " found: line ")) != NULL; p++)
			theirs[m++] = (unsigned int)strtoul(p + 13, NULL, 10);
		if (n != m)
			bad++;
		for (k = 0; k < n && k < m; k++)
			if (ours[k] != theirs[k])
				bad++;
		if (bad != 0)
			print_error("%s: %zu lines, ssh-keygen -F %zu:\n%s\n",
			    hp, n, m, out);
		free(out);
		free(hp);
	}
	assert_int_equal(bad, 0);
	kh_file_free(f);
}

static void
test_b64(void **state)
{
	unsigned char out[8];

	(void)state;
	assert_int_equal(kh_b64_decode("aGk=", 4, out, sizeof out), 2);
	assert_memory_equal(out, "hi", 2);
	assert_int_equal(kh_b64_decode("aGVs", 4, out, sizeof out), 3);
	assert_int_equal(kh_b64_decode("aGVsbG8=", 8, out, sizeof out), 5);
	assert_memory_equal(out, "hello", 5);
	assert_int_equal(kh_b64_decode("aG=k", 4, out, sizeof out), -1);
	assert_int_equal(kh_b64_decode("aGk", 3, out, sizeof out), -1);
	assert_int_equal(kh_b64_decode("aGVsbG8=", 8, out, 4), -1);
	/* bits past the last byte must be zero, as b64_pton wants */
	assert_int_equal(kh_b64_decode("aGl=", 4, out, sizeof out), -1);
	assert_int_equal(kh_b64_decode("aB==", 4, out, sizeof out), -1);
	assert_int_equal(kh_b64_decode("aA==", 4, out, sizeof out), 1);
}

static void
test_expand_path(void **state)
{
	char *p, *cause = NULL;

	(void)state;
	p = kh_expand_path("/x/%h-%p-%r/%%", "web1", "bob", 2222, &cause);
	assert_string_equal(p, "/x/web1-2222-bob/%");
	free(p);
	p = kh_expand_path("/x/%z", "web1", NULL, 22, &cause);
	assert_null(p);
	assert_non_null(strstr(cause, "'%z'"));
	free(cause);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_b64),
		cmocka_unit_test(test_expand_path),
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_lines_match_ssh_keygen),
		cmocka_unit_test(test_verdicts_match_openssh),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
