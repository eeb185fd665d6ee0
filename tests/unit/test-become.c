/* Become with a password, the pure parts (net/become.h): the sudo -S
 * command line, the prompt and marker, and the stderr scanner, fed in
 * every piece size from 1 byte up so that a prompt or marker split across
 * reads is still found. No network. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "net/become.h"
#include "net/transport.h"

#define TAG	"0123456789abcdef"
#define PROMPT	"[sudo via tcptune, key=" TAG "] password: "
#define MARKER	"TCPTUNE-BECOME-SUCCESS-" TAG

static void
test_words(void **state)
{
	struct become_words	w, w2;
	char			*cause = NULL;
	size_t			 i;

	(void)state;
	become_words_set(&w, TAG);
	assert_string_equal(w.prompt, PROMPT);
	assert_string_equal(w.marker, MARKER);

	/* Random tags: 16 hex digits, new each time, no '%' for sudo to
	 * expand. */
	assert_int_equal(become_words_random(&w, &cause), 0);
	assert_int_equal(become_words_random(&w2, &cause), 0);
	assert_null(cause);
	assert_string_not_equal(w.prompt, w2.prompt);
	assert_string_not_equal(w.marker, w2.marker);
	assert_int_equal(strlen(w.marker), strlen(MARKER));
	for (i = strlen("TCPTUNE-BECOME-SUCCESS-"); w.marker[i] != '\0'; i++)
		assert_non_null(strchr("0123456789abcdef", w.marker[i]));
	assert_null(strchr(w.prompt, '%'));
	assert_int_equal(strncmp(w.prompt, "[sudo via tcptune, key=", 23), 0);
}

static void
test_build(void **state)
{
	struct become_words	w;
	struct strbuf		sb;

	(void)state;
	become_words_set(&w, TAG);
	strbuf_init(&sb);
	become_build_command(&sb, "id -u", NULL, &w);
	assert_string_equal(sb.buf, "sudo -S -p '" PROMPT "' -- sh -c "
	    "'echo " MARKER " >&2; id -u'");
	strbuf_reset(&sb);
	become_build_command(&sb, "id -u", "root", &w);
	assert_string_equal(sb.buf, "sudo -S -p '" PROMPT "' -- sh -c "
	    "'echo " MARKER " >&2; id -u'");
	strbuf_reset(&sb);
	become_build_command(&sb, "echo 'x'", "-s; reboot", &w);
	assert_string_equal(sb.buf, "sudo -S -p '" PROMPT "' -u '-s; reboot' "
	    "-- sh -c 'echo " MARKER " >&2; echo '\\''x'\\'''");
	strbuf_reset(&sb);
	/* Without words: today's sudo -n, byte for byte. */
	become_build_command(&sb, "id -u", "bob", NULL);
	assert_string_equal(sb.buf, "sudo -n -u 'bob' -- sh -c 'id -u'");
	strbuf_release(&sb);
}

/* What scanning a whole stderr stream gives. */
struct scanned {
	char	*err;		/* stderr as the caller keeps it */
	int	 prompts;
	int	 started;
	int	 prompts_at_marker;	/* prompts counted when it started */
};

/* Feed text in pieces of size n (the last may be shorter), then end. */
static struct scanned
scan_in_pieces(const char *text, size_t n)
{
	struct become_words	w;
	struct become_scan	s;
	struct strbuf		err;
	struct scanned		r;
	size_t			len = strlen(text), at, k;

	become_words_set(&w, TAG);
	become_scan_init(&s, &w);
	strbuf_init(&err);
	memset(&r, 0, sizeof r);
	r.prompts_at_marker = -1;
	for (at = 0; at < len; at += k) {
		k = len - at < n ? len - at : n;
		become_scan_feed(&s, text + at, k, &err);
		if (s.started && r.prompts_at_marker == -1)
			r.prompts_at_marker = s.prompts;
	}
	r.prompts = s.prompts;
	r.started = s.started;
	become_scan_end(&s, &err);
	become_scan_release(&s);
	r.err = strbuf_detach(&err, NULL);
	return r;
}

/* Every piece size from 1 to the whole text gives the same answer. */
static void
assert_scan(const char *text, const char *want_err, int want_prompts,
    int want_started)
{
	struct scanned	r;
	size_t		n;

	for (n = 1; n <= strlen(text); n++) {
		r = scan_in_pieces(text, n);
		if (strcmp(r.err, want_err) != 0 ||
		    r.prompts != want_prompts || r.started != want_started)
			fail_msg("pieces of %zu: err '%s' prompts %d started %d",
			    n, r.err, r.prompts, r.started);
		free(r.err);
	}
}

static void
test_scan_no_password_asked(void **state)
{
	(void)state;
	/* NOPASSWD or a cached timestamp: the marker comes first. */
	assert_scan(MARKER "\nwarning: x\n", "warning: x\n", 0, 1);
	assert_scan(MARKER "\n", "", 0, 1);
}

static void
test_scan_password_accepted(void **state)
{
	struct scanned r;

	(void)state;
	/* sudo's lecture and prompt, then the command: only the command's
	 * stderr is kept. */
	assert_scan("\nWe trust you have received the usual lecture.\n\n"
	    PROMPT MARKER "\nls: cannot access 'x'\n",
	    "ls: cannot access 'x'\n", 1, 1);
	r = scan_in_pieces(PROMPT MARKER "\n", 1);
	assert_int_equal(r.prompts_at_marker, 1);
	free(r.err);
}

static void
test_scan_wrong_password(void **state)
{
	(void)state;
	/* The marker never comes; what sudo said is kept, less its
	 * prompts. */
	assert_scan(PROMPT "\nSorry, try again.\n" PROMPT,
	    "\nSorry, try again.\n", 2, 0);
	assert_scan(PROMPT "\nsudo: 1 incorrect password attempt\n",
	    "\nsudo: 1 incorrect password attempt\n", 1, 0);
}

static void
test_scan_refused(void **state)
{
	struct scanned	 r;
	char		*cause = NULL;

	(void)state;
	r = scan_in_pieces(PROMPT "\nsudo: ttl-x is not in the sudoers file."
	    "  This incident will be reported.\n", 3);
	assert_int_equal(r.started, 0);
	assert_int_equal(transport_check_become(1, r.err, "ttl-x", "web1",
	    &cause), TP_BECOME);
	assert_string_equal(cause, "user 'ttl-x' may not use sudo on host "
	    "'web1'");
	free(cause);
	free(r.err);
}

static void
test_scan_forgeries(void **state)
{
	(void)state;
	/* After the marker the command owns stderr: a prompt there is its
	 * own text, not sudo asking again. */
	assert_scan(MARKER "\n" PROMPT PROMPT, PROMPT PROMPT, 0, 1);
	/* Another tag, or the marker without its newline, is not ours. */
	assert_scan("TCPTUNE-BECOME-SUCCESS-ffffffffffffffff\n",
	    "TCPTUNE-BECOME-SUCCESS-ffffffffffffffff\n", 0, 0);
	assert_scan(MARKER " \n", MARKER " \n", 0, 0);
	assert_scan("[sudo via tcptune, key=ffffffffffffffff] password: ",
	    "[sudo via tcptune, key=ffffffffffffffff] password: ", 0, 0);
	/* Near misses around a real prompt. */
	assert_scan("[sudo via tcptune, key=" PROMPT "x",
	    "[sudo via tcptune, key=x", 1, 0);
}

/* A long stderr before any marker, one byte at a time: the scanner only
 * looks at the last few bytes each time (linear work). */
static void
test_scan_linear(void **state)
{
	struct become_words	w;
	struct become_scan	s;
	struct strbuf		err;
	size_t			i, n = 200000;

	(void)state;
	become_words_set(&w, TAG);
	become_scan_init(&s, &w);
	strbuf_init(&err);
	for (i = 0; i < n; i++) {
		become_scan_feed(&s, "x", 1, &err);
		assert_true(s.pending.len - s.from < sizeof s.marker_line);
	}
	become_scan_feed(&s, MARKER "\nend", strlen(MARKER) + 4, &err);
	assert_int_equal(s.started, 1);
	assert_string_equal(err.buf, "end");
	become_scan_end(&s, &err);
	become_scan_release(&s);
	strbuf_release(&err);
}

static void
test_wrong_password_words(void **state)
{
	char *cause = NULL;

	(void)state;
	/* sudo that allows one try says so itself. */
	assert_int_equal(transport_check_become(1,
	    "sudo: 1 incorrect password attempt\n", "ttl-pw", "lab01",
	    &cause), TP_BECOME);
	assert_string_equal(cause, "incorrect sudo password for user 'ttl-pw' "
	    "on host 'lab01'");
	free(cause);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_words),
		cmocka_unit_test(test_build),
		cmocka_unit_test(test_scan_no_password_asked),
		cmocka_unit_test(test_scan_password_accepted),
		cmocka_unit_test(test_scan_wrong_password),
		cmocka_unit_test(test_scan_refused),
		cmocka_unit_test(test_scan_forgeries),
		cmocka_unit_test(test_scan_linear),
		cmocka_unit_test(test_wrong_password_words),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
