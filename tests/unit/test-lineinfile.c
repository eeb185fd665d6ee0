/* lineinfile: the port of the module's present() and absent()
 * (lib/tune/lineinfile.c) against a table of hand cases, and, where
 * python3 and ansible-core are installed, against the module's own
 * functions on a few hundred random files and tasks (tests/data/
 * lineinfile/ansible-lineinfile.py): the same changed, msg and file, byte
 * for byte, and an error exactly where the module fails. Also the file
 * script's output as lib/remote/fileop.c reads it, and the mode rule. */
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "remote/fileop.h"
#include "tune/lineinfile.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "ansible-driver.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct hcase {
	const char	*text;
	struct lif_task	 t;
	int		 changed;
	const char	*msg;
	const char	*after;
};

#define P(...)	{ .present = 1, __VA_ARGS__ }
#define A(...)	{ .present = 0, __VA_ARGS__ }

/* Each answer is what the module's code gives for the same input (run
 * once with python3; the random cases below keep checking it). */
static const struct hcase hand[] = {
	{ "a\nb\n", P(.line = "c", .insertafter = "EOF"), 1, "line added",
	  "a\nb\nc\n" },
	{ "a\nb", P(.line = "c", .insertafter = "EOF"), 1, "line added",
	  "a\nb\nc\n" },
	{ "a\nc\n", P(.line = "c", .insertafter = "EOF"), 0, "",
	  "a\nc\n" },
	{ "x=1\nx=2\n", P(.regexp = "^x=", .line = "x=3",
	  .insertafter = "EOF"), 1, "line replaced", "x=1\nx=3\n" },
	{ "x=1\nx=2\n", P(.regexp = "^x=", .line = "x=3",
	  .insertafter = "EOF", .firstmatch = 1), 1, "line replaced",
	  "x=3\nx=2\n" },
	{ "k = 5\n", P(.regexp = "^(\\w+) = (\\d+)$", .line = "\\1=\\2!",
	  .insertafter = "EOF", .backrefs = 1), 1, "line replaced",
	  "k=5!\n" },
	{ "k = 5\n", P(.regexp = "^z", .line = "\\1",
	  .insertafter = "EOF", .backrefs = 1), 0, "", "k = 5\n" },
	{ "a\nb\n", P(.line = "c", .insertbefore = "BOF"), 1, "line added",
	  "c\na\nb\n" },
	{ "a\nb\na\n", P(.line = "c", .insertafter = "^a"), 1, "line added",
	  "a\nb\na\nc\n" },
	{ "a\nb\na\n", P(.line = "c", .insertafter = "^a",
	  .firstmatch = 1), 1, "line added", "a\nc\nb\na\n" },
	{ "a\nb\n", P(.line = "c", .insertbefore = "^b"), 1, "line added",
	  "a\nc\nb\n" },
	{ "a\nb\n", P(.line = "c", .insertbefore = "^z"), 1, "line added",
	  "a\nb\nc\n" },
	/* the exact line found, its "\r\n" becomes "\n" */
	{ "a\r\nb\n", P(.line = "a", .insertafter = "EOF"), 1,
	  "line replaced", "a\nb\n" },
	{ "", P(.line = "x", .insertafter = "EOF"), 1, "line added", "x\n" },
	{ "a\nbb\na\n", A(.line = "a"), 1, "", "bb\n" },
	{ "a1\nb\na2\n", A(.regexp = "^a"), 1, "", "b\n" },
	{ "a1\nb\n", A(.search_string = "1"), 1, "", "b\n" },
	{ "a1\nb\n", A(.regexp = "^z"), 0, "", "a1\nb\n" },
	/* Python's \Z is the very end: a line with its newline ends after
	 * it */
	{ "ab\n", P(.regexp = "b\\Z", .line = "x", .insertafter = "EOF"), 1,
	  "line added", "ab\nx\n" },
	{ "ab", P(.regexp = "b\\Z", .line = "x", .insertafter = "EOF"), 1,
	  "line replaced", "x\n" },
};

static void
test_hand(void **state)
{
	struct lif_out	 o;
	char		*cause = NULL;
	size_t		 i;

	(void)state;
	for (i = 0; i < sizeof hand / sizeof hand[0]; i++) {
		const struct hcase *h = &hand[i];

		if (lif_decide(&h->t, h->text, strlen(h->text), &o,
		    &cause) != 0)
			fail_msg("case %zu: %s", i, cause);
		if (o.changed != h->changed || strcmp(o.msg, h->msg) != 0 ||
		    strcmp(o.text, h->after) != 0)
			fail_msg("case %zu: changed %d msg '%s' text '%s'", i,
			    o.changed, o.msg, o.text);
		lif_out_clear(&o);
	}
	/* a bad expression and a group past the pattern's are errors */
	assert_int_equal(lif_decide(&(struct lif_task)P(.regexp = "(",
	    .line = "x", .insertafter = "EOF"), "a\n", 2, &o, &cause), -1);
	assert_non_null(strstr(cause, "not a regular expression"));
	free(cause);
	cause = NULL;
	assert_int_equal(lif_decide(&(struct lif_task)P(.regexp = "(a)",
	    .line = "\\2", .backrefs = 1, .insertafter = "EOF"), "a\n", 2, &o,
	    &cause), -1);
	free(cause);
}

/* A small random generator of its own, so the cases are the same on
 * every machine. */
static unsigned long rng = 23;

static unsigned
pick(unsigned n)
{
	rng = rng * 6364136223846793005UL + 1442695040888963407UL;
	return (unsigned)((rng >> 33) % n);
}

static const char *const some_lines[] = { "a=1", "a = 2", "# a=1", "b=2",
	"", "x", "net.core.rmem_max = 1", "#net.ipv4.tcp_mtu_probing = 0",
	"k 5", "a=1\r", "  a=1", "a=1 # c" };
static const char *const some_res[] = { "^a", "^#?\\s*a\\s*=", "=(\\d)",
	"(?P<k>\\w+)\\s*=\\s*(\\d+)", "^$", "b", "^(a)(x)?", "a$", "1\\Z",
	"", "^net\\.core\\.(\\w+)", "(?i)A=", "^\\s+", "z", "x(?=$)",
	"^(?:#\\s*)?a" };
static const char *const some_new[] = { "a=9", "\\1=x", "\\g<k>: \\2",
	"# a=1", "b=2", "x", "a=1", "", "\\g<1>\\n", "net.core.rmem_max = 2",
	"\\1\\2", "tab\\there" };
static const char *const some_ins[] = { "EOF", "BOF", "^a", "^#", "zzz",
	"=", "^$", "^(b|x)" };

/* One random case: its JSON for the driver, and the task. */
static json_t *
random_case(struct lif_task *t, char **text)
{
	struct strbuf	 sb;
	unsigned	 n, i, which;
	json_t		*c;

	memset(t, 0, sizeof *t);
	strbuf_init(&sb);
	n = pick(6);
	for (i = 0; i < n; i++) {
		strbuf_addstr(&sb, some_lines[pick(sizeof some_lines /
		    sizeof some_lines[0])]);
		if (i + 1 < n || pick(4) != 0)
			strbuf_addch(&sb, '\n');
	}
	*text = strbuf_detach(&sb, NULL);
	t->present = pick(4) != 0;
	which = pick(3);	/* 0: regexp, 1: search_string, 2: neither */
	if (which == 0)
		t->regexp = some_res[pick(sizeof some_res / sizeof some_res[0])];
	else if (which == 1)
		t->search_string = some_lines[pick(sizeof some_lines /
		    sizeof some_lines[0])];
	t->line = t->present || pick(2) ? some_new[pick(sizeof some_new /
	    sizeof some_new[0])] : NULL;
	if (!t->present && t->regexp == NULL && t->search_string == NULL &&
	    t->line == NULL)
		t->line = "a=1";
	if (t->present) {
		switch (pick(3)) {
		case 0:
			t->insertafter = some_ins[pick(sizeof some_ins /
			    sizeof some_ins[0])];
			break;
		case 1:
			t->insertbefore = some_ins[1 + pick(sizeof some_ins /
			    sizeof some_ins[0] - 1)];
			break;
		}
		t->backrefs = t->regexp != NULL && pick(2);
	}
	t->firstmatch = pick(3) == 0;
	c = json_pack("{s:s, s:s, s:s?, s:s?, s:s?, s:s?, s:s?, s:b, s:b}",
	    "text", *text, "state", t->present ? "present" : "absent",
	    "regexp", t->regexp, "search_string", t->search_string,
	    "line", t->line, "insertafter", t->insertafter,
	    "insertbefore", t->insertbefore, "backrefs", t->backrefs,
	    "firstmatch", t->firstmatch);
	/* main()'s default, which the module's functions do not apply */
	if (t->present && t->insertafter == NULL && t->insertbefore == NULL)
		t->insertafter = "EOF";
	return c;
}

#define NRANDOM	600

static void
test_against_ansible(void **state)
{
	struct lif_task	 tasks[NRANDOM];
	char		*texts[NRANDOM];
	json_t		*cases = json_array(), *answers;
	size_t		 i, same = 0, errors = 0, changed = 0;

	(void)state;
	for (i = 0; i < NRANDOM; i++)
		json_array_append_new(cases, random_case(&tasks[i], &texts[i]));
	answers = ansible_driver(
	    "/usr/lib/python3/dist-packages/ansible/modules/lineinfile.py",
	    "tests/data/lineinfile/ansible-lineinfile.py", cases);
	if (answers == NULL) {
		for (i = 0; i < NRANDOM; i++)
			free(texts[i]);
		json_decref(cases);
		skip();
	}
	assert_int_equal(json_array_size(answers), NRANDOM);
	for (i = 0; i < NRANDOM; i++) {
		const json_t	*a = json_array_get(answers, i);
		struct lif_out	 o;
		char		*cause = NULL, *dump;
		int		 r;

		r = lif_decide(&tasks[i], texts[i], strlen(texts[i]), &o,
		    &cause);
		dump = json_dumps(json_array_get(cases, i), 0);
		if (json_object_get(a, "error") != NULL) {
			if (r == 0)
				fail_msg("case %zu %s: the module fails (%s), "
				    "tcptune gives '%s'", i, dump,
				    json_string_value(json_object_get(a,
				    "error")), o.text);
			errors++;
		} else {
			const char *want = json_string_value(json_object_get(a,
			    "text"));

			if (r != 0)
				fail_msg("case %zu %s: tcptune fails (%s), the "
				    "module gives '%s'", i, dump, cause, want);
			if (o.changed != json_is_true(json_object_get(a,
			    "changed")) || strcmp(o.text, want) != 0 ||
			    (tasks[i].present && strcmp(o.msg,
			    json_string_value(json_object_get(a, "msg"))) != 0) ||
			    o.found != json_integer_value(json_object_get(a,
			    "found")))
				fail_msg("case %zu %s:\n  module: changed %d "
				    "msg '%s' text '%s'\n  tcptune: changed %d "
				    "msg '%s' text '%s'", i, dump,
				    json_is_true(json_object_get(a, "changed")),
				    json_string_value(json_object_get(a, "msg")),
				    want, o.changed, o.msg, o.text);
			changed += o.changed;
			same++;
			lif_out_clear(&o);
		}
		free(cause);
		free(dump);
		free(texts[i]);
	}
	/* the cases must reach every kind of answer to mean something */
	print_message("lineinfile: %zu random cases as the module answers "
	    "(%zu changed, %zu errors on both sides)\n", same + errors,
	    changed, errors);
	assert_true(changed > NRANDOM / 4 && same - changed > NRANDOM / 10);
	json_decref(answers);
	json_decref(cases);
}

static void
test_parse(void **state)
{
	static const char out[] =
	    "tcptune-file 1\n@stat\npath=/etc/x\nparent=1\nexists=1\n"
	    "type=file\nmode=640\nuid=0\ngid=4\nsize=3\nmtime=5\nowner=root\n"
	    "group=adm\nsum=1 3\nsha1=abc\n@text\nno_newline=1\n|a\\b\n|c\n"
	    "@done\n";
	struct file_result	 r;
	char			*cause = NULL;

	(void)state;
	assert_int_equal(file_parse(out, sizeof out - 1, &r, &cause), 0);
	assert_string_equal(r.st.path, "/etc/x");
	assert_int_equal(r.st.type, 'f');
	assert_int_equal(r.st.mode, 0640);
	assert_string_equal(r.st.group, "adm");
	assert_string_equal(r.text, "a\\b\nc");
	assert_string_equal(file_stat_sum(&r.st), "1 3");
	assert_int_equal(file_attrs_differ(&r.st, "root", "4", 0640), 0);
	assert_int_equal(file_attrs_differ(&r.st, "0", "adm", -1), 0);
	assert_int_equal(file_attrs_differ(&r.st, "nobody", NULL, -1), 1);
	assert_int_equal(file_attrs_differ(&r.st, NULL, NULL, 0600), 1);
	file_result_clear(&r);
	/* cut short, or not the script's */
	assert_int_equal(file_parse(out, sizeof out - 8, &r, &cause), -1);
	assert_non_null(strstr(cause, "cut short"));
	free(cause);
	cause = NULL;
	assert_int_equal(file_parse("x\n@done\n", 8, &r, &cause), -1);
	free(cause);
}

static void
test_mode(void **state)
{
	/* what parses, and its bits; is_int: an int's decimal digits */
	static const struct {
		const char	*s;
		int		 is_int;
		unsigned	 want;
	} good[] = {
		{ "0644", 0, 0644 }, { "0o640", 0, 0640 }, { "1777", 0, 01777 },
		{ "420", 1, 0644 },
		/* symbolic: each of u, g and o set with '=' (k3s-ansible's) */
		{ "u=rw,g=,o=", 0, 0600 }, { "a=r,u=rwx", 0, 0744 },
		{ "ug=rw,o=r", 0, 0664 },
	};
	/* ... not what needs the file's own mode */
	static const char *const bad[] = { "u=rw", "u+x,g=,o=", "u=rwX,g=,o=",
	    "0888" };
	unsigned	 m;
	char		*cause = NULL;
	size_t		 i;

	(void)state;
	for (i = 0; i < sizeof good / sizeof good[0]; i++) {
		assert_int_equal(file_mode_parse(good[i].s, good[i].is_int, &m,
		    &cause), 0);
		assert_int_equal(m, good[i].want);
	}
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		assert_int_equal(file_mode_parse(bad[i], 0, &m, &cause), -1);
		if (i == 0)
			assert_non_null(strstr(cause, "symbolic"));
		free(cause);
		cause = NULL;
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hand),
		cmocka_unit_test(test_against_ansible),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_mode),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
