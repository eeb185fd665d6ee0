/* The one output discipline's pure pieces (lib/report/message.c): the
 * wording of warnings, errors and usage errors, the colour decision
 * (--color, a terminal, NO_COLOR as no-color.org has it), git-like diff
 * colours, one-line traces and the log's command line without secrets. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "report/message.h"

static void
expect_str(char *got, const char *want)
{
	assert_string_equal(got, want);
	free(got);
}

static void
test_warning_once(void **state)
{
	(void)state;
	expect_str(message_warning("lab01", "host key checking is OFF"),
	    "[WARNING]: lab01: host key checking is OFF");
	/* the word is said once, even when the text carries it */
	expect_str(message_warning("lab01", "WARNING: recorded new host key"),
	    "[WARNING]: lab01: recorded new host key");
	expect_str(message_warning(NULL, "f.yml:3:5: duplicate key 'a'"),
	    "[WARNING]: f.yml:3:5: duplicate key 'a'");
}

static void
test_error_and_usage(void **state)
{
	(void)state;
	expect_str(message_error("no inventory"), "tcptune: error: no inventory");
	expect_str(message_usage("play", "PLAYBOOK [-C]",
	    "play takes 1 argument, not 0"),
	    "tcptune: error: play takes 1 argument, not 0\n"
	    "usage: tcptune play PLAYBOOK [-C]\n"
	    "see 'tcptune play --help'\n");
	expect_str(message_usage("version", "", "version takes 0 arguments, "
	    "not 1"), "tcptune: error: version takes 0 arguments, not 1\n"
	    "usage: tcptune version\nsee 'tcptune version --help'\n");
}

static void
test_color_decision(void **state)
{
	(void)state;
	/* auto: a terminal, and NO_COLOR unset or empty */
	assert_int_equal(message_color_wanted(NULL, 1, NULL), 1);
	assert_int_equal(message_color_wanted("auto", 1, NULL), 1);
	assert_int_equal(message_color_wanted("auto", 1, ""), 1);
	assert_int_equal(message_color_wanted("auto", 1, "1"), 0);
	assert_int_equal(message_color_wanted("auto", 1, "0"), 0);
	assert_int_equal(message_color_wanted("auto", 0, NULL), 0);
	/* the command line wins over NO_COLOR and over a pipe */
	assert_int_equal(message_color_wanted("always", 0, "1"), 1);
	assert_int_equal(message_color_wanted("never", 1, NULL), 0);
}

static void
test_color_diff(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	strbuf_init(&sb);
	message_color_diff(&sb, "--- a\n+++ b\n@@ -1 +1 @@\n-old\n+new\n ctx\n"
	    "  live qdisc on eth0: fq_codel -> fq\n");
	assert_string_equal(sb.buf,
	    "\033[1m--- a\033[0m\n\033[1m+++ b\033[0m\n"
	    "\033[36m@@ -1 +1 @@\033[0m\n\033[31m-old\033[0m\n"
	    "\033[32m+new\033[0m\n ctx\n"
	    "  live qdisc on eth0: fq_codel -> fq\n");
	strbuf_reset(&sb);
	/* a last line without a newline keeps none */
	message_color_diff(&sb, "+x");
	assert_string_equal(sb.buf, "\033[32m+x\033[0m");
	strbuf_release(&sb);
}

static void
test_one_line(void **state)
{
	(void)state;
	expect_str(message_one_line("sh -c 'a\n\tb'", 100), "sh -c 'a\\n\\tb'");
	expect_str(message_one_line("a\033[2Jb", 100), "a\\x1b[2Jb");
	expect_str(message_one_line("abcdefghij", 4),
	    "abcd ... (6 more bytes)");
}

static void
test_command_line(void **state)
{
	char *argv[] = { "tcptune", "drift", "site.yml", "--webhook",
	    "https://hooks.slack.com/services/T0/B0/SECRET", "-e",
	    "pw=hunter2", "--extra-vars=pw=hunter2", "-epw=hunter2",
	    "-i", "https://user:pass@inv.example/hosts", "-v", "--verbose",
	    "--webhook=https://x/SECRET" };
	char *line = message_command_line((int)(sizeof argv / sizeof *argv),
	    argv);

	(void)state;
	assert_string_equal(line, "tcptune drift site.yml --webhook <redacted> "
	    "-e <redacted> --extra-vars=<redacted> -e<redacted> "
	    "-i https://<redacted>@inv.example/hosts -v --verbose "
	    "--webhook=<redacted>");
	assert_null(strstr(line, "SECRET"));
	assert_null(strstr(line, "hunter2"));
	assert_null(strstr(line, "pass"));
	free(line);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_warning_once),
		cmocka_unit_test(test_error_and_usage),
		cmocka_unit_test(test_color_decision),
		cmocka_unit_test(test_color_diff),
		cmocka_unit_test(test_one_line),
		cmocka_unit_test(test_command_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
