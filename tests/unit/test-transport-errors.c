/* Pure parts of the transport: status wording, the become wrapper (proved
 * by running it through a real local sh with a fake sudo), and the
 * classification of sudo's refusals. No network. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/strbuf.h"
#include "net/become.h"
#include "net/transport.h"

static void
test_strerror(void **state)
{
	(void)state;
	assert_string_equal(tp_strerror(TP_OK), "ok");
	assert_string_equal(tp_strerror(TP_UNREACHABLE), "unreachable");
	assert_string_equal(tp_strerror(TP_HOSTKEY), "host key rejected");
	assert_string_equal(tp_strerror(TP_AUTH), "authentication failed");
	assert_string_equal(tp_strerror(TP_FAILED), "failed");
	assert_string_equal(tp_strerror(TP_TIMEOUT), "timed out");
	assert_string_equal(tp_strerror(TP_BECOME),
	    "privilege escalation failed");
	assert_string_equal(tp_strerror((enum tp_status)99),
	    "unknown transport status");
}

static void
test_build_plain(void **state)
{
	struct strbuf sb;

	(void)state;
	strbuf_init(&sb);
	transport_build_command(&sb, "echo 'a b'; exit 3", 0, "bob");
	assert_string_equal(sb.buf, "echo 'a b'; exit 3");
	strbuf_release(&sb);
}

static void
test_build_become(void **state)
{
	struct strbuf sb;

	(void)state;
	strbuf_init(&sb);
	transport_build_command(&sb, "id -u", 1, NULL);
	assert_string_equal(sb.buf, "sudo -n -- sh -c 'id -u'");
	strbuf_reset(&sb);
	transport_build_command(&sb, "id -u", 1, "root");
	assert_string_equal(sb.buf, "sudo -n -- sh -c 'id -u'");
	strbuf_reset(&sb);
	transport_build_command(&sb, "echo 'it'\"s\"", 1, "web user");
	assert_string_equal(sb.buf,
	    "sudo -n -u 'web user' -- sh -c 'echo '\\''it'\\''\"s\"'");
	strbuf_reset(&sb);
	/* A user name that looks like an option stays a single argument. */
	transport_build_command(&sb, "true", 1, "-s; reboot");
	assert_string_equal(sb.buf, "sudo -n -u '-s; reboot' -- sh -c 'true'");
	strbuf_release(&sb);
}

/* Run script with /bin/sh, PATH starting at dir; return stdout. */
static char *
run_sh(const char *dir, const char *script)
{
	int fds[2], status;
	pid_t pid;
	struct strbuf out;
	char buf[4096], *path;
	ssize_t n;

	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(fds[1], 1);
		close(fds[0]);
		close(fds[1]);
		if (asprintf(&path, "%s:%s", dir, getenv("PATH")) < 0)
			_exit(126);
		setenv("PATH", path, 1);
		execl("/bin/sh", "sh", "-c", script, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	strbuf_init(&out);
	while ((n = read(fds[0], buf, sizeof buf)) > 0 ||
	    (n < 0 && errno == EINTR)) {
		if (n > 0)
			strbuf_add(&out, buf, (size_t)n);
	}
	close(fds[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return strbuf_detach(&out, NULL);
}

/* The wrapper, run by a real shell against a fake sudo that prints its
 * arguments one per line and then runs what follows `--`: each argument
 * arrives intact, and the inner command's output is byte-exact. */
static void
test_build_become_runs(void **state)
{
	static const char *cmds[] = {
		"printf %s \"it's\"",
		"printf '%s|' \"$(echo a)\" '`b`' '$c' ';d' '&&e'",
		"printf %s 'line1\nline2'",
		"printf %s '\"'\"'\"'\"'",
		NULL
	};
	static const char *want_out[] = {
		"it's",
		"a|`b`|$c|;d|&&e|",
		"line1\nline2",
		"\"'\"",
	};
	char dir[] = "/tmp/tcptune-test-become-XXXXXX", file[256], *out;
	const char *rest;
	struct strbuf sb, want;
	struct become_words words;
	FILE *f;
	size_t i;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(file, sizeof file, "%s/sudo", dir);
	f = fopen(file, "w");
	assert_non_null(f);
	fputs("#!/bin/sh\n"
	    "for a; do shift; [ \"$a\" = -- ] && break; printf '[%s]\\n' \"$a\";"
	    " done\n"
	    "printf '[--]\\n'\nexec \"$@\"\n", f);
	fclose(f);
	assert_int_equal(chmod(file, 0755), 0);

	strbuf_init(&sb);
	strbuf_init(&want);
	for (i = 0; cmds[i] != NULL; i++) {
		strbuf_reset(&sb);
		strbuf_reset(&want);
		transport_build_command(&sb, cmds[i], 1, "us'er");
		out = run_sh(dir, sb.buf);
		strbuf_addf(&want, "[-n]\n[-u]\n[us'er]\n[--]\n%s",
		    want_out[i]);
		assert_string_equal(out, want.buf);
		free(out);
	}
	/* Without become_user: no -u at all. */
	strbuf_reset(&sb);
	transport_build_command(&sb, cmds[0], 1, NULL);
	out = run_sh(dir, sb.buf);
	rest = "[-n]\n[--]\nit's";
	assert_string_equal(out, rest);
	free(out);

	/* With a password: sudo -S and our prompt as single arguments; the
	 * shell sudo starts prints the marker on stderr, then runs the
	 * command untouched. */
	become_words_set(&words, "00112233445566ff");
	for (i = 0; cmds[i] != NULL; i++) {
		strbuf_reset(&sb);
		strbuf_reset(&want);
		strbuf_addstr(&sb, "exec 2>&1; ");
		become_build_command(&sb, cmds[i], "us'er", &words);
		out = run_sh(dir, sb.buf);
		strbuf_addf(&want, "[-S]\n[-p]\n[%s]\n[-u]\n[us'er]\n[--]\n"
		    "%s\n%s", words.prompt, words.marker, want_out[i]);
		assert_string_equal(out, want.buf);
		free(out);
	}

	strbuf_release(&sb);
	strbuf_release(&want);
	unlink(file);
	rmdir(dir);
}

static void
test_check_become(void **state)
{
	char *cause = NULL;

	(void)state;
	assert_int_equal(transport_check_become(1,
	    "sudo: a password is required\n", "deploy", "web1", &cause),
	    TP_BECOME);
	assert_string_equal(cause,
	    "sudo requires a password for user 'deploy' on host 'web1'");
	free(cause);
	cause = NULL;

	assert_int_equal(transport_check_become(1,
	    "sudo: deploy is not in the sudoers file.\n", "deploy", "web1",
	    &cause), TP_BECOME);
	assert_string_equal(cause, "user 'deploy' may not use sudo on host "
	    "'web1'");
	free(cause);
	cause = NULL;

	assert_int_equal(transport_check_become(1,
	    "sudo: sorry, you must have a tty to run sudo\n", "u", "h",
	    &cause), TP_BECOME);
	assert_non_null(strstr(cause, "requires a tty"));
	free(cause);
	cause = NULL;

	assert_int_equal(transport_check_become(127,
	    "bash: line 1: sudo: command not found\n", "u", "h", &cause),
	    TP_BECOME);
	assert_string_equal(cause, "sudo is not installed on host 'h'");
	free(cause);
	cause = NULL;

	/* The command's own failures are not sudo's. */
	assert_int_equal(transport_check_become(1, "grep: no match\n", "u",
	    "h", &cause), TP_OK);
	assert_null(cause);
	assert_int_equal(transport_check_become(0,
	    "sudo: a password is required\n", "u", "h", &cause), TP_OK);
	assert_int_equal(transport_check_become(1,
	    "note: sudo: a password is required\n", "u", "h", &cause), TP_OK);
	assert_int_equal(transport_check_become(1, NULL, "u", "h", &cause),
	    TP_OK);
	assert_null(cause);
	/* A later line counts too; NULL cause is allowed. */
	assert_int_equal(transport_check_become(1,
	    "x\nsudo: a password is required", "u", "h", NULL), TP_BECOME);
}

static void
test_result_clear(void **state)
{
	struct tp_result r;

	(void)state;
	r.out = strdup("x");
	r.err = strdup("y");
	r.out_len = r.err_len = 1;
	r.exit_status = 3;
	tp_result_clear(&r);
	assert_null(r.out);
	assert_null(r.err);
	assert_int_equal(r.exit_status, -1);
	tp_result_clear(NULL);
	transport_close(NULL);
}

static void
test_open_rejects_bad_host(void **state)
{
	struct tp_options o;
	struct transport *t = (struct transport *)1;
	char *cause = NULL;

	(void)state;
	memset(&o, 0, sizeof o);
	o.name = "evil";
	o.host = "x;touch /tmp/pwned";
	assert_int_equal(transport_open(&o, &t, &cause), TP_FAILED);
	assert_null(t);
	assert_string_equal(cause, "invalid host address 'x;touch /tmp/pwned' "
	    "for 'evil'");
	free(cause);
	cause = NULL;
	o.host = "-oProxyCommand=x";
	assert_int_equal(transport_open(&o, &t, &cause), TP_FAILED);
	free(cause);
	cause = NULL;
	o.host = "127.0.0.1";
	o.proxy_jump = "jump host";
	o.ssh_config = "/dev/null";
	assert_int_equal(transport_open(&o, &t, &cause), TP_FAILED);
	assert_string_equal(cause, "invalid proxy jump 'jump host'");
	free(cause);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strerror),
		cmocka_unit_test(test_build_plain),
		cmocka_unit_test(test_build_become),
		cmocka_unit_test(test_build_become_runs),
		cmocka_unit_test(test_check_become),
		cmocka_unit_test(test_result_clear),
		cmocka_unit_test(test_open_rejects_bad_host),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
