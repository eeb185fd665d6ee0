/* command and shell: what a task returns for each thing the guard can say,
 * in a run and in check mode (modules/command-result.c, against the return
 * values of Ansible's command module, ansible-core 2.14: its main() read
 * case by case, and e2e/command-ansible compares the same on a host), the
 * lines of an output as str.splitlines() cuts them, the times as Python
 * prints them, the guard's output as lib/remote/command.c reads it, and
 * an argv word as the shell is given it. */
#include "modules/command-result.h"
#include "remote/command.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/strbuf.h"

static void
assert_json(const json_t *got, const char *want)
{
	json_error_t	 e;
	json_t		*w = json_loads(want, 0, &e);
	char		*g;

	if (w == NULL)
		fail_msg("bad want %s: %s", want, e.text);
	if (!json_equal(got, w)) {
		g = json_dumps(got, JSON_COMPACT | JSON_SORT_KEYS);
		fail_msg("got  %s\nwant %s", g, want);
	}
	json_decref(w);
}

struct rcase {
	enum command_said	 said;
	int			 check, err_no, rc, strip, expect;
	const char		*out, *err, *chdir, *creates, *removes;
	enum result_status	 status;
	const char		*want;	/* the keys beyond the "always" ones */
};

#define BASE_KEYS "\"cmd\":[\"x\"],\"start\":null,\"end\":null," \
	"\"delta\":null"

static const struct rcase rcases[] = {
	{ COMMAND_SKIP_CREATES, 0, 0, 0, 1, 0, NULL, NULL, NULL, "/a*", NULL,
	  RESULT_OK, "{\"changed\":false,\"rc\":0,\"stdout\":\"skipped, since "
	  "/a* exists\",\"stderr\":\"\",\"stdout_lines\":[\"skipped, since "
	  "/a* exists\"],\"stderr_lines\":[],\"msg\":\"Did not run command "
	  "since '/a*' exists\"," BASE_KEYS "}" },
	{ COMMAND_SKIP_CREATES, 1, 0, 0, 1, 0, NULL, NULL, NULL, "/a", NULL,
	  RESULT_OK, "{\"changed\":false,\"rc\":0,\"stdout\":\"skipped, since "
	  "/a exists\",\"stderr\":\"\",\"stdout_lines\":[\"skipped, since /a "
	  "exists\"],\"stderr_lines\":[],\"msg\":\"Would not run command "
	  "since '/a' exists\"," BASE_KEYS "}" },
	{ COMMAND_SKIP_REMOVES, 0, 0, 0, 1, 0, NULL, NULL, NULL, NULL, "r",
	  RESULT_OK, "{\"changed\":false,\"rc\":0,\"stdout\":\"skipped, since "
	  "r does not exist\",\"stderr\":\"\",\"stdout_lines\":[\"skipped, "
	  "since r does not exist\"],\"stderr_lines\":[],\"msg\":\"Did not "
	  "run command since 'r' does not exist\"," BASE_KEYS "}" },
	/* chdir is looked at first, in check mode too */
	{ COMMAND_CHDIR_FAILED, 1, 20, 0, 1, 0, NULL, NULL, "/f", NULL, NULL,
	  RESULT_FAILED, "{\"changed\":false,\"rc\":null,\"stdout\":\"\","
	  "\"stderr\":\"\",\"stdout_lines\":[],\"stderr_lines\":[],\"msg\":"
	  "\"Unable to change directory before execution: [Errno 20] Not a "
	  "directory: b'/f'\"," BASE_KEYS "}" },
	/* check mode: without creates/removes skipped, with them changed */
	{ COMMAND_RAN, 1, 0, 0, 1, 0, NULL, NULL, NULL, NULL, NULL,
	  RESULT_SKIPPED, "{\"changed\":false,\"skipped\":true,\"rc\":0,"
	  "\"stdout\":\"\",\"stderr\":\"\",\"stdout_lines\":[],"
	  "\"stderr_lines\":[],\"msg\":\"Command would have run if not in "
	  "check mode\"," BASE_KEYS "}" },
	{ COMMAND_RAN, 1, 0, 0, 1, 0, NULL, NULL, NULL, NULL, "/r",
	  RESULT_CHANGED, "{\"changed\":true,\"rc\":0,\"stdout\":\"\","
	  "\"stderr\":\"\",\"stdout_lines\":[],\"stderr_lines\":[],\"msg\":"
	  "\"Command would have run if not in check mode\"," BASE_KEYS "}" },
	/* a run: the ends stripped of \r and \n, the times kept */
	{ COMMAND_RAN, 0, 0, 0, 1, 0, "a\nb\r\n\n", "e\n", NULL, NULL, NULL,
	  RESULT_CHANGED, "{\"changed\":true,\"rc\":0,\"stdout\":\"a\\nb\","
	  "\"stderr\":\"e\",\"stdout_lines\":[\"a\",\"b\"],\"stderr_lines\":"
	  "[\"e\"],\"msg\":\"\",\"cmd\":[\"x\"],\"start\":\"S\",\"end\":\"E\","
	  "\"delta\":\"D\"}" },
	{ COMMAND_RAN, 0, 0, 0, 0, 0, "a\n\n", "", NULL, NULL, NULL,
	  RESULT_CHANGED, "{\"changed\":true,\"rc\":0,\"stdout\":\"a\\n\\n\","
	  "\"stderr\":\"\",\"stdout_lines\":[\"a\",\"\"],\"stderr_lines\":[],"
	  "\"msg\":\"\",\"cmd\":[\"x\"],\"start\":\"S\",\"end\":\"E\","
	  "\"delta\":\"D\"}" },
	{ COMMAND_RAN, 0, 0, 3, 1, 0, "o", "oops\n", NULL, NULL, NULL,
	  RESULT_FAILED, "{\"changed\":true,\"rc\":3,\"stdout\":\"o\","
	  "\"stderr\":\"oops\",\"stdout_lines\":[\"o\"],\"stderr_lines\":"
	  "[\"oops\"],\"msg\":\"non-zero return code\",\"cmd\":[\"x\"],"
	  "\"start\":\"S\",\"end\":\"E\",\"delta\":\"D\"}" },
	/* tcptune's expect_rc: the status it names is success */
	{ COMMAND_RAN, 0, 0, 3, 1, 3, "", "", NULL, NULL, NULL,
	  RESULT_CHANGED, "{\"changed\":true,\"rc\":3,\"stdout\":\"\","
	  "\"stderr\":\"\",\"stdout_lines\":[],\"stderr_lines\":[],"
	  "\"msg\":\"non-zero return code\",\"cmd\":[\"x\"],"
	  "\"start\":\"S\",\"end\":\"E\",\"delta\":\"D\"}" },
};

static void
test_results(void **state)
{
	json_t	*cmd = json_pack("[s]", "x"), *data;
	char	*msg;
	size_t	 i;

	(void)state;
	for (i = 0; i < sizeof rcases / sizeof rcases[0]; i++) {
		const struct rcase	*c = &rcases[i];
		struct command_outcome	 o = {
			.said = c->said, .check = c->check,
			.err_no = c->err_no, .rc = c->rc, .out = c->out,
			.err = c->err, .out_len = c->out ? strlen(c->out) : 0,
			.err_len = c->err ? strlen(c->err) : 0,
			.strip = c->strip, .expect_rc = c->expect,
			.chdir = c->chdir, .creates = c->creates,
			.removes = c->removes, .cmd = cmd,
			.start = c->check ? NULL : "S",
			.end = c->check ? NULL : "E",
			.delta = c->check ? NULL : "D",
		};

		data = NULL;
		msg = NULL;
		print_message("case %zu\n", i);
		assert_int_equal(command_result(&o, &data, &msg), c->status);
		assert_non_null(msg);
		assert_json(data, c->want);
		json_decref(data);
		free(msg);
	}
	json_decref(cmd);
}

static void
test_splitlines(void **state)
{
	static const struct { const char *in; const char *want; } c[] = {
		{ "", "[]" },
		{ "a", "[\"a\"]" },
		{ "a\n", "[\"a\"]" },
		{ "a\n\n", "[\"a\",\"\"]" },
		{ "a\r\nb\rc\vd\fe\x1c" "f\x1dg\x1eh", "[\"a\",\"b\",\"c\","
		  "\"d\",\"e\",\"f\",\"g\",\"h\"]" },
		{ "\r\r\n", "[\"\",\"\"]" },
		{ "a\tb ", "[\"a\\tb \"]" },
	};
	json_t	*l;
	size_t	 i;

	(void)state;
	for (i = 0; i < sizeof c / sizeof c[0]; i++) {
		l = command_splitlines(c[i].in, strlen(c[i].in));
		assert_json(l, c[i].want);
		json_decref(l);
	}
}

static void
test_times(void **state)
{
	char *s;

	(void)state;
	s = command_delta_text(0.0021);
	assert_string_equal(s, "0:00:00.002100");
	free(s);
	s = command_delta_text(3725);
	assert_string_equal(s, "1:02:05");	/* str(timedelta): no .0 */
	free(s);
	s = command_delta_text(59.9999996);
	assert_string_equal(s, "0:01:00");
	free(s);
	setenv("TZ", "UTC", 1);
	tzset();
	s = command_time_text(1796181061.25);
	assert_string_equal(s, "2026-12-02 03:11:01.250000");
	free(s);
	s = command_time_text(1796181061.0);
	assert_string_equal(s, "2026-12-02 03:11:01");
	free(s);
}

static void
test_guard_parse(void **state)
{
	static const char ran[] = "tcptune-command 1\n@run\nhello\n";
	static const char cr[] = "tcptune-command 1\n@skip\nwhy=creates\n"
	    "@done\n";
	static const char rm[] = "tcptune-command 1\n@skip\nwhy=removes\n"
	    "@done\n";
	static const char cd[] = "tcptune-command 1\n@chdir\nerrno=20\n"
	    "@done\n";
	static const char *const bad[] = { "", "hello\n",
	    "tcptune-command 1\n", "tcptune-command 1\n@skip\nwhy=creates\n",
	    "tcptune-command 1\n@chdir\nerrno=x\n@done\n",
	    "tcptune-command 1\n@chdir\nerrno=2\n",
	    "tcptune-command 2\n@run\n", "tcptune-command 1\n@runs\n" };
	enum command_said	 said;
	size_t			 off, i;
	int			 e;
	char			*cause = NULL;

	(void)state;
	assert_int_equal(command_guard_parse(ran, strlen(ran), &said, &e, &off,
	    &cause), 0);
	assert_int_equal(said, COMMAND_RAN);
	assert_string_equal(ran + off, "hello\n");
	assert_int_equal(command_guard_parse(cr, strlen(cr), &said, &e, &off,
	    &cause), 0);
	assert_int_equal(said, COMMAND_SKIP_CREATES);
	assert_int_equal(command_guard_parse(rm, strlen(rm), &said, &e, &off,
	    &cause), 0);
	assert_int_equal(said, COMMAND_SKIP_REMOVES);
	assert_int_equal(command_guard_parse(cd, strlen(cd), &said, &e, &off,
	    &cause), 0);
	assert_int_equal(said, COMMAND_CHDIR_FAILED);
	assert_int_equal(e, 20);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		assert_int_equal(command_guard_parse(bad[i], strlen(bad[i]),
		    &said, &e, &off, &cause), -1);
		assert_non_null(cause);
		free(cause);
		cause = NULL;
	}
	/* not NUL-terminated: a cut-off errno is not read past its end */
	assert_int_equal(command_guard_parse(cd, strlen(cd) - 8, &said, &e,
	    &off, &cause), -1);
	free(cause);
}

static void
test_words(void **state)
{
	static const char *const c[][2] = {
		{ "plain", "'plain'" },
		{ "", "''" },
		{ "a b", "'a b'" },
		{ "$HOME", "\"${HOME-\\$HOME}\"" },
		{ "x${HOME}y", "'x'\"${HOME-\\${HOME\\}}\"'y'" },
		{ "$1 ${a-b} $ $$", "'$1 ${a-b} $ $$'" },
		{ "~", "~" },
		{ "~/x y", "~/'x y'" },
		{ "~root", "~root" },
		{ "~ro'ot/x", "'~ro'\\''ot/x'" },
		{ "a~", "'a~'" },
		{ "*", "'*'" },
		{ "$(id)`id`", "'$(id)`id`'" },
	};
	struct strbuf	sb;
	size_t		i;

	(void)state;
	for (i = 0; i < sizeof c / sizeof c[0]; i++) {
		strbuf_init(&sb);
		command_word_add(&sb, c[i][0]);
		assert_string_equal(sb.buf, c[i][1]);
		strbuf_release(&sb);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_results),
		cmocka_unit_test(test_splitlines),
		cmocka_unit_test(test_times),
		cmocka_unit_test(test_guard_parse),
		cmocka_unit_test(test_words),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
