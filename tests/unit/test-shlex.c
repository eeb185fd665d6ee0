/* shlex_split against Python 3.11's shlex.split: each case's words are
 * what `python3 -c 'import shlex; print(shlex.split(S, comments=C))'`
 * printed for the same text (the command module's free form, an INI host
 * line, ansible.cfg's ssh_args). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "base/shlex.h"
#include "base/util.h"

struct split_case {
	const char	*text;
	int		 comments;
	const char	*words[6];	/* NULL-terminated */
};

static const struct split_case cases[] = {
	{ "echo $HOME > x", 0, { "echo", "$HOME", ">", "x", NULL } },
	{ "a  'b  c' \"d\\\"e\" f\\ g", 0, { "a", "b  c", "d\"e", "f g",
	    NULL } },
	/* in "...", a backslash escapes only " and itself */
	{ "\"c\\d\" 'e\\f' h\\i", 0, { "c\\d", "e\\f", "hi", NULL } },
	{ "\"\\\\\" \"\\$\"", 0, { "\\", "\\$", NULL } },
	{ "'' \"\" x''y", 0, { "", "", "xy", NULL } },
	{ "\"a\"'b'c", 0, { "abc", NULL } },
	/* newlines and CR are blanks; a quoted newline is kept */
	{ "one \"two\nlines\" \t\r three", 0, { "one", "two\nlines", "three",
	    NULL } },
	/* '#' starts a comment only with comments, even inside a word */
	{ "a#b # c\nd", 1, { "a", "d", NULL } },
	{ "a#b # c\nd", 0, { "a#b", "#", "c", "d", NULL } },
	{ "a # only", 1, { "a", NULL } },
	{ "", 0, { NULL } },
	{ "   ", 0, { NULL } },
};

static void
test_words(void **state)
{
	size_t i, j, n;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const struct split_case *c = &cases[i];
		const char	*err = NULL;
		char		**w;

		assert_int_equal(shlex_split(c->text, c->comments, &w, &n,
		    &err), 0);
		for (j = 0; c->words[j] != NULL; j++) {
			assert_true(j < n);
			assert_string_equal(w[j], c->words[j]);
		}
		assert_int_equal(n, j);
		names_free(w, n);
	}
}

static void
test_errors(void **state)
{
	static const char *const bad[][2] = {
		{ "'open", "no closing quotation" },
		{ "a \"open", "no closing quotation" },
		{ "trail\\", "no escaped character" },
	};
	const char	 *err;
	char		**w;
	size_t		  i, n;

	(void)state;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		err = NULL;
		assert_int_equal(shlex_split(bad[i][0], 0, &w, &n, &err), -1);
		assert_string_equal(err, bad[i][1]);
		assert_null(w);
		assert_int_equal(n, 0);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_words),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
