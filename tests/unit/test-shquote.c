/* shquote: exact output for known values, and the real proof: every hostile
 * value, quoted and given to a real shell as `printf %s VALUE`, comes back
 * byte for byte. Runs /bin/sh (dash on Debian) and bash, the usual login
 * shell that sshd hands remote commands to. Local only, no network. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/shquote.h"
#include "base/strbuf.h"

static const char *hostile[] = {
	"",
	"plain",
	"it's",
	"'",
	"''",
	"'\\''",
	"\"double\" quotes",
	"$(touch /tmp/tcptune-shquote-pwned)",
	"`touch /tmp/tcptune-shquote-pwned`",
	"${HOME} $HOME $0 $1 $@ $* $$ $?",
	"line one\nline two\n",
	"\n",
	"a; touch /tmp/tcptune-shquote-pwned",
	"true && touch /tmp/tcptune-shquote-pwned || :",
	"-n",
	"-e \\n",
	"--",
	"* ? [a-z] ~ ~root {a,b}",
	"back\\slash \\\\ \\'",
	"tab\there",
	"unicode: caf\xc3\xa9 \xe2\x9c\x93 \xf0\x9f\x98\x80",
	"invalid utf-8: \xff\xfe\x80",
	"| > < >> 2>&1 & ! # %",
	"\x01\x02\x1b[31mred\x7f",
	"   leading and trailing spaces   ",
	"a'b'c'd''e'''f",
	NULL
};

/* Run `shell -c script` and collect its stdout; returns the exit status. */
static int
run_shell(const char *shell, const char *script, struct strbuf *out)
{
	int fds[2], status;
	pid_t pid;
	char buf[4096];
	ssize_t n;

	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(fds[1], 1);
		close(fds[0]);
		close(fds[1]);
		execl(shell, shell, "-c", script, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	for (;;) {
		n = read(fds[0], buf, sizeof buf);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		strbuf_add(out, buf, (size_t)n);
	}
	close(fds[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

static void
test_exact(void **state)
{
	struct strbuf sb;
	const char *argv[] = { "a b", "", "it's", NULL };
	const char *none[] = { NULL };
	char *s;

	(void)state;
	s = shquote("");
	assert_string_equal(s, "''");
	free(s);
	s = shquote("it's");
	assert_string_equal(s, "'it'\\''s'");
	free(s);
	s = shquote("'");
	assert_string_equal(s, "''\\'''");
	free(s);
	s = shquote("$(x)");
	assert_string_equal(s, "'$(x)'");
	free(s);

	strbuf_init(&sb);
	strbuf_addstr(&sb, "cmd ");
	shquote_addv(&sb, argv);
	assert_string_equal(sb.buf, "cmd 'a b' '' 'it'\\''s'");
	strbuf_reset(&sb);
	shquote_addv(&sb, none);
	assert_int_equal(sb.len, 0);
	strbuf_release(&sb);
}

static void
roundtrip(const char *shell)
{
	struct strbuf script, out;
	size_t i;

	unlink("/tmp/tcptune-shquote-pwned");
	strbuf_init(&script);
	strbuf_init(&out);
	for (i = 0; hostile[i] != NULL; i++) {
		strbuf_reset(&script);
		strbuf_reset(&out);
		strbuf_addstr(&script, "printf %s ");
		shquote_add(&script, hostile[i]);
		assert_int_equal(run_shell(shell, script.buf, &out), 0);
		if (out.len != strlen(hostile[i]) ||
		    memcmp(out.buf, hostile[i], out.len) != 0)
			fail_msg("%s: value %zu did not round-trip: script "
			    "[%s] gave [%s]", shell, i, script.buf, out.buf);
	}
	/* Nothing the values tried to run ran. */
	assert_int_equal(access("/tmp/tcptune-shquote-pwned", F_OK), -1);
	strbuf_release(&script);
	strbuf_release(&out);
}

static void
test_roundtrip_sh(void **state)
{
	(void)state;
	roundtrip("/bin/sh");
}

static void
test_roundtrip_bash(void **state)
{
	(void)state;
	if (access("/bin/bash", X_OK) != 0)
		skip();
	roundtrip("/bin/bash");
}

/* All the values at once through shquote_addv: each stays one word, in
 * order, so the shell sees exactly as many arguments as were given. */
static void
test_roundtrip_argv(void **state)
{
	struct strbuf script, out, want;
	size_t i;

	(void)state;
	strbuf_init(&script);
	strbuf_init(&out);
	strbuf_init(&want);
	strbuf_addstr(&script, "printf '<%s>' ");
	shquote_addv(&script, hostile);
	for (i = 0; hostile[i] != NULL; i++)
		strbuf_addf(&want, "<%s>", hostile[i]);
	assert_int_equal(run_shell("/bin/sh", script.buf, &out), 0);
	assert_int_equal(out.len, want.len);
	assert_memory_equal(out.buf, want.buf, want.len);

	/* `set -- WORDS; echo $#` counts the words the shell saw. */
	strbuf_reset(&script);
	strbuf_reset(&out);
	strbuf_addstr(&script, "set -- ");
	shquote_addv(&script, hostile);
	strbuf_addstr(&script, "; printf %s $#");
	assert_int_equal(run_shell("/bin/sh", script.buf, &out), 0);
	strbuf_reset(&want);
	strbuf_addf(&want, "%zu", i);
	assert_string_equal(out.buf, want.buf);

	strbuf_release(&script);
	strbuf_release(&out);
	strbuf_release(&want);
}

/* Quoting twice nests: sh -c QUOTED(printf %s QUOTED(value)). This is what
 * the become wrapper does. */
static void
test_nested(void **state)
{
	struct strbuf inner, outer, out;
	size_t i;

	(void)state;
	strbuf_init(&inner);
	strbuf_init(&outer);
	strbuf_init(&out);
	for (i = 0; hostile[i] != NULL; i++) {
		strbuf_reset(&inner);
		strbuf_reset(&outer);
		strbuf_reset(&out);
		strbuf_addstr(&inner, "printf %s ");
		shquote_add(&inner, hostile[i]);
		strbuf_addstr(&outer, "sh -c ");
		shquote_add(&outer, inner.buf);
		assert_int_equal(run_shell("/bin/sh", outer.buf, &out), 0);
		assert_int_equal(out.len, strlen(hostile[i]));
		assert_memory_equal(out.buf, hostile[i], out.len);
	}
	strbuf_release(&inner);
	strbuf_release(&outer);
	strbuf_release(&out);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact),
		cmocka_unit_test(test_roundtrip_sh),
		cmocka_unit_test(test_roundtrip_bash),
		cmocka_unit_test(test_roundtrip_argv),
		cmocka_unit_test(test_nested),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
