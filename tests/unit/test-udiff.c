/* udiff: byte-for-byte against GNU diff (`diff -u --label a --label b`, run
 * locally on temp files under /tmp) for hand-picked pairs (hunk merging,
 * no newline at end, missing files, other contexts), then a property test
 * on random pairs: the patch applied to the old text gives the new text, and
 * it changes exactly as many lines as GNU diff's (both minimal). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/strbuf.h"
#include "base/udiff.h"

static char tmpdir[] = "/tmp/tcptune-udiff-XXXXXX";

static void
write_file(const char *path, const char *text)
{
	FILE	*f;

	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, strlen(text), f), strlen(text));
	assert_int_equal(fclose(f), 0);
}

/* GNU diff's output for the pair (NULL: /dev/null), with the labels. */
static char *
gnu_diff(const char *old_text, const char *new_text, const char *la,
    const char *lb, int context)
{
	struct strbuf	 sb;
	char		 a[64], b[64], cmd[512], buf[4096];
	FILE		*p;
	size_t		 n;
	int		 status;

	snprintf(a, sizeof a, "%s/a", tmpdir);
	snprintf(b, sizeof b, "%s/b", tmpdir);
	if (old_text != NULL)
		write_file(a, old_text);
	if (new_text != NULL)
		write_file(b, new_text);
	snprintf(cmd, sizeof cmd, "LC_ALL=C diff -U%d --label '%s' "
	    "--label '%s' %s %s", context, old_text ? la : "/dev/null",
	    new_text ? lb : "/dev/null", old_text ? a : "/dev/null",
	    new_text ? b : "/dev/null");
	p = popen(cmd, "r");
	assert_non_null(p);
	strbuf_init(&sb);
	while ((n = fread(buf, 1, sizeof buf, p)) > 0)
		strbuf_add(&sb, buf, n);
	status = pclose(p);
	assert_true(WIFEXITED(status));
	assert_true(WEXITSTATUS(status) <= 1);	/* 2 is trouble */
	unlink(a);
	unlink(b);
	return strbuf_detach(&sb, NULL);
}

static void
same_as_gnu_ctx(const char *old_text, const char *new_text, int context)
{
	char	*ours, *theirs;

	ours = udiff(old_text, new_text, "a", "b", context);
	theirs = gnu_diff(old_text, new_text, "a", "b",
	    context < 0 ? 3 : context);
	if (strcmp(ours, theirs) != 0)
		fail_msg("differs from GNU diff:\n--- ours:\n%s--- GNU:\n%s",
		    ours, theirs);
	free(ours);
	free(theirs);
}

static void
same_as_gnu(const char *old_text, const char *new_text)
{
	same_as_gnu_ctx(old_text, new_text, 3);
}

static const char dropin_v1[] =
    "# Managed by tcptune\n"
    "\n"
    "# BDP 100 Mbit/s x 105 ms\n"
    "net.ipv4.tcp_rmem = 4096 131072 6291456\n"
    "\n"
    "# BDP 100 Mbit/s x 105 ms\n"
    "net.ipv4.tcp_wmem = 4096 16384 4194304\n"
    "\n"
    "net.core.rmem_max = 6291456\n"
    "\n"
    "net.core.wmem_max = 4194304\n";

static const char dropin_v2[] =
    "# Managed by tcptune\n"
    "\n"
    "# BDP 500 Mbit/s x 105 ms\n"
    "net.ipv4.tcp_rmem = 4096 131072 16777216\n"
    "\n"
    "# BDP 500 Mbit/s x 105 ms\n"
    "net.ipv4.tcp_wmem = 4096 16384 16777216\n"
    "\n"
    "net.core.rmem_max = 16777216\n"
    "\n"
    "net.core.wmem_max = 16777216\n"
    "\n"
    "net.core.default_qdisc = fq\n";

static void
test_equal(void **state)
{
	char	*d;

	(void)state;
	d = udiff(dropin_v1, dropin_v1, "a", "b", 3);
	assert_string_equal(d, "");
	free(d);
	d = udiff("", "", "a", "b", 3);
	assert_string_equal(d, "");
	free(d);
	d = udiff(NULL, NULL, "a", "b", 3);
	assert_string_equal(d, "");
	free(d);
	same_as_gnu(dropin_v1, dropin_v1);
}

static void
test_exact_small(void **state)
{
	char	*d;

	(void)state;
	d = udiff("a\nb\nc\n", "a\nB\nc\n", "old", "new", 3);
	assert_string_equal(d, "--- old\n+++ new\n@@ -1,3 +1,3 @@\n a\n-b\n"
	    "+B\n c\n");
	free(d);
	d = udiff(NULL, "x = 1\ny = 2\n", "old", "new", 3);
	assert_string_equal(d, "--- /dev/null\n+++ new\n@@ -0,0 +1,2 @@\n"
	    "+x = 1\n+y = 2\n");
	free(d);
	d = udiff("only\n", "", "old", "new", -1);
	assert_string_equal(d, "--- old\n+++ new\n@@ -1 +0,0 @@\n-only\n");
	free(d);
}

static void
test_dropins(void **state)
{
	(void)state;
	same_as_gnu(dropin_v1, dropin_v2);
	same_as_gnu(dropin_v2, dropin_v1);
	same_as_gnu(NULL, dropin_v2);
	same_as_gnu(dropin_v1, NULL);
	same_as_gnu("", dropin_v1);
	same_as_gnu(dropin_v1, "");
	same_as_gnu_ctx(dropin_v1, dropin_v2, 0);
	same_as_gnu_ctx(dropin_v1, dropin_v2, 1);
	same_as_gnu_ctx(dropin_v1, dropin_v2, 5);
	same_as_gnu_ctx(dropin_v1, dropin_v2, 100);
}

static void
test_no_newline(void **state)
{
	(void)state;
	same_as_gnu("a\nb\nc", "a\nb\nc\n");
	same_as_gnu("a\nb\nc\n", "a\nb\nc");
	same_as_gnu("a\nb\nc", "a\nb\nd");
	same_as_gnu("a\nb\nc", "a\nB\nc");
	same_as_gnu("a\nb\nc", "x\nb\nc");
	same_as_gnu("one", "two");
	same_as_gnu(NULL, "no newline");
	same_as_gnu("no newline", NULL);
	same_as_gnu("1\n2\n3\n4\n5\n6\n7\n8\n9\nlast", "0\n1\n2\n3\n4\n5\n"
	    "6\n7\n8\n9\nlast");
}

/* Lines 1..n, with some replaced; for hunk merging. */
static char *
numbered(int n, int change1, int change2)
{
	struct strbuf	sb;
	int		i;

	strbuf_init(&sb);
	for (i = 1; i <= n; i++) {
		if (i == change1 || i == change2)
			strbuf_addf(&sb, "changed %d\n", i);
		else
			strbuf_addf(&sb, "line %d\n", i);
	}
	return strbuf_detach(&sb, NULL);
}

static void
test_hunk_merging(void **state)
{
	char	*old, *new;
	int	 gap, ctx;

	(void)state;
	old = numbered(40, 0, 0);
	for (ctx = 0; ctx <= 3; ctx++) {
		for (gap = 1; gap <= 9; gap++) {
			new = numbered(40, 10, 10 + gap);
			same_as_gnu_ctx(old, new, ctx);
			free(new);
		}
	}
	/* Changes at the very start and end. */
	new = numbered(40, 1, 40);
	same_as_gnu(old, new);
	free(new);
	new = numbered(40, 2, 39);
	same_as_gnu(old, new);
	free(new);
	free(old);
}

static void
test_insert_delete(void **state)
{
	(void)state;
	same_as_gnu("a\nb\nc\nd\ne\nf\ng\nh\n", "a\nb\nc\nX\nd\ne\nf\ng\nh\n");
	same_as_gnu("a\nb\nc\nd\ne\nf\ng\nh\n", "a\nb\nc\ne\nf\ng\nh\n");
	same_as_gnu("a\nb\nc\n", "new\na\nb\nc\n");
	same_as_gnu("a\nb\nc\n", "a\nb\nc\nnew\n");
	same_as_gnu("a\nb\nc\n", "x\ny\nz\n");
	same_as_gnu("a\n\nb\n\nc\n", "a\n\nc\n");
	same_as_gnu("k = 1\nk = 2\n", "k = 2\nk = 1\n");
}

/* Apply a unified diff to old and return the result; fail on any context
 * or deletion that does not match. */
static char *
apply_udiff(const char *old, const char *diff)
{
	struct strbuf	 out;
	const char	*p = diff, *o = old, *nl;
	unsigned long	 ostart, ocount, oline = 1;
	size_t		 len;

	strbuf_init(&out);
	if (*p == '\0')
		return strdup(old);
	/* Skip the two header lines. */
	p = strchr(p, '\n') + 1;
	p = strchr(p, '\n') + 1;
	while (*p != '\0') {
		assert_int_equal(strncmp(p, "@@ -", 4), 0);
		/* An empty range names the line before it. */
		if (sscanf(p, "@@ -%lu,%lu ", &ostart, &ocount) == 2 &&
		    ocount == 0)
			ostart++;
		else
			ostart = strtoul(p + 4, NULL, 10);
		p = strchr(p, '\n') + 1;
		while (oline < ostart) {	/* untouched lines */
			nl = strchr(o, '\n');
			len = nl ? (size_t)(nl - o + 1) : strlen(o);
			strbuf_add(&out, o, len);
			o += len;
			oline++;
		}
		while (*p != '\0' && strncmp(p, "@@", 2) != 0) {
			nl = strchr(p, '\n');
			len = nl - p;
			if (*p == '\\') {
				/* The line before had no newline. */
				p = nl + 1;
				continue;
			}
			if (*p == ' ' || *p == '-') {
				size_t olen = strcspn(o, "\n");

				assert_true(olen == len - 1 &&
				    memcmp(o, p + 1, olen) == 0);
				if (*p == ' ')
					strbuf_add(&out, o, olen +
					    (o[olen] == '\n'));
				o += olen + (o[olen] == '\n');
				oline++;
			} else {
				assert_int_equal(*p, '+');
				strbuf_add(&out, p + 1, len - 1);
				if (strncmp(nl + 1, "\\ ", 2) != 0)
					strbuf_addch(&out, '\n');
			}
			p = nl + 1;
		}
	}
	strbuf_addstr(&out, o);
	return strbuf_detach(&out, NULL);
}

static size_t
count_changes(const char *diff)
{
	const char	*p;
	size_t		 n = 0;

	for (p = diff; *p != '\0'; p = strchr(p, '\n') + 1) {
		if ((*p == '+' && strncmp(p, "+++ ", 4) != 0) ||
		    (*p == '-' && strncmp(p, "--- ", 4) != 0))
			n++;
	}
	return n;
}

static char *
random_text(unsigned *seed, int lines, int alphabet)
{
	struct strbuf	sb;
	int		i;

	strbuf_init(&sb);
	for (i = 0; i < lines; i++)
		strbuf_addf(&sb, "v%d\n", rand_r(seed) % alphabet);
	if (lines > 0 && rand_r(seed) % 5 == 0)
		sb.buf[--sb.len] = '\0';	/* no newline at the end */
	return strbuf_detach(&sb, NULL);
}

static void
test_random_minimal(void **state)
{
	unsigned	 seed = 20261130;
	char		*a, *b, *ours, *theirs, *applied;
	int		 i, exact = 0;

	(void)state;
	for (i = 0; i < 150; i++) {
		a = random_text(&seed, rand_r(&seed) % 30, 2 + i % 6);
		b = random_text(&seed, rand_r(&seed) % 30, 2 + i % 6);
		ours = udiff(a, b, "a", "b", 3);
		theirs = gnu_diff(a, b, "a", "b", 3);
		applied = apply_udiff(a, ours);
		if (strcmp(applied, b) != 0)
			fail_msg("patch does not give the new text:\n%s", ours);
		if (count_changes(ours) != count_changes(theirs))
			fail_msg("not minimal: %zu changed lines, GNU %zu:\n"
			    "%s---\n%s", count_changes(ours),
			    count_changes(theirs), ours, theirs);
		exact += strcmp(ours, theirs) == 0;
		free(a);
		free(b);
		free(ours);
		free(theirs);
		free(applied);
	}
	/* Equal-length alternatives exist; most outputs still match. */
	print_message("random pairs identical to GNU diff: %d/150\n", exact);
	assert_true(exact > 0);
}

/* Old and new: n unique lines, one common "mid" line, n more unique. */
static void
big_pair(int n, struct strbuf *a, struct strbuf *b)
{
	int	i;

	strbuf_init(a);
	strbuf_init(b);
	for (i = 0; i < n; i++) {
		strbuf_addf(a, "old %d\n", i);
		strbuf_addf(b, "new %d\n", i);
	}
	strbuf_addstr(a, "mid\n");
	strbuf_addstr(b, "mid\n");
	for (i = 0; i < n; i++) {
		strbuf_addf(a, "old tail %d\n", i);
		strbuf_addf(b, "new tail %d\n", i);
	}
}

/* Past UDIFF_MAX_CELLS: one hunk replacing the middle, still correct. */
static void
test_too_large(void **state)
{
	struct strbuf	 a, b;
	char		*d, *applied;

	(void)state;
	/* 4 x 500 changed lines: within the limit, minimal, "mid" kept. */
	big_pair(500, &a, &b);
	d = udiff(a.buf, b.buf, "a", "b", 3);
	assert_non_null(strstr(d, "\n mid\n"));
	assert_int_equal(count_changes(d), 2000);
	applied = apply_udiff(a.buf, d);
	assert_string_equal(applied, b.buf);
	free(applied);
	free(d);
	strbuf_release(&a);
	strbuf_release(&b);

	/* 4 x 1500: (D + 1)^2 is past the limit: everything replaced. */
	big_pair(1500, &a, &b);
	d = udiff(a.buf, b.buf, "a", "b", 3);
	assert_true(strncmp(d, "--- a\n+++ b\n@@ -1,3001 +1,3001 @@\n", 34)
	    == 0);
	assert_null(strstr(d, "\n mid\n"));
	assert_non_null(strstr(d, "\n-mid\n"));
	assert_non_null(strstr(d, "\n+mid\n"));
	assert_int_equal(count_changes(d), 6002);
	applied = apply_udiff(a.buf, d);
	assert_string_equal(applied, b.buf);
	free(applied);
	free(d);
	strbuf_release(&a);
	strbuf_release(&b);
}

static int
setup(void **state)
{
	(void)state;
	return mkdtemp(tmpdir) == NULL ? -1 : 0;
}

static int
teardown(void **state)
{
	(void)state;
	return rmdir(tmpdir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_equal),
		cmocka_unit_test(test_exact_small),
		cmocka_unit_test(test_dropins),
		cmocka_unit_test(test_no_newline),
		cmocka_unit_test(test_hunk_merging),
		cmocka_unit_test(test_insert_delete),
		cmocka_unit_test(test_random_minimal),
		cmocka_unit_test(test_too_large),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
