/* blockinfile: the port of the module's main() (lib/tune/blockinfile.c)
 * on hand cases, and, where python3 and ansible-core are installed,
 * against the module's own main() on a few hundred random files and tasks
 * (tests/data/blockinfile/ansible-blockinfile.py): the same changed, msg
 * and file, byte for byte, and an error exactly where the module fails. */
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "tune/blockinfile.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "ansible-driver.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#define MK	"# {mark} ANSIBLE MANAGED BLOCK"

struct hcase {
	const char	*text;		/* NULL: no file */
	struct bif_task	 t;
	const char	*msg;
	const char	*after;
};

static const struct hcase hand[] = {
	{ "a\n", { 1, MK, "BEGIN", "END", "k=1", NULL, NULL },
	  "Block inserted",
	  "a\n# BEGIN ANSIBLE MANAGED BLOCK\nk=1\n# END ANSIBLE MANAGED "
	  "BLOCK\n" },
	{ "a", { 1, MK, "BEGIN", "END", "k=1\n", NULL, "BOF" },
	  "Block inserted",
	  "# BEGIN ANSIBLE MANAGED BLOCK\nk=1\n# END ANSIBLE MANAGED "
	  "BLOCK\na" },
	{ "x\n# BEGIN ANSIBLE MANAGED BLOCK\nold\n# END ANSIBLE MANAGED "
	  "BLOCK\ny\n", { 1, MK, "BEGIN", "END", "new", NULL, NULL },
	  "Block inserted",
	  "x\n# BEGIN ANSIBLE MANAGED BLOCK\nnew\n# END ANSIBLE MANAGED "
	  "BLOCK\ny\n" },
	{ "x\n# BEGIN ANSIBLE MANAGED BLOCK\nold\n# END ANSIBLE MANAGED "
	  "BLOCK\ny\n", { 0, MK, "BEGIN", "END", "", NULL, NULL },
	  "Block removed", "x\ny\n" },
	{ "a\nb\n", { 1, MK, "BEGIN", "END", "k", "^a", NULL },
	  "Block inserted",
	  "a\n# BEGIN ANSIBLE MANAGED BLOCK\nk\n# END ANSIBLE MANAGED "
	  "BLOCK\nb\n" },
	{ NULL, { 1, MK, "BEGIN", "END", "", NULL, NULL }, "File created",
	  "" },
	{ "a\n", { 1, MK, "BEGIN", "END", "", NULL, NULL }, "", "a\n" },
};

static void
test_hand(void **state)
{
	struct bif_out	 o;
	char		*cause = NULL;
	size_t		 i;

	(void)state;
	for (i = 0; i < sizeof hand / sizeof hand[0]; i++) {
		const struct hcase *h = &hand[i];

		if (bif_decide(&h->t, h->text, h->text ? strlen(h->text) : 0,
		    &o, &cause) != 0)
			fail_msg("case %zu: %s", i, cause);
		if (strcmp(o.msg, h->msg) != 0 || strcmp(o.text, h->after) != 0 ||
		    o.changed != (*h->msg != '\0'))
			fail_msg("case %zu: msg '%s' text '%s'", i, o.msg,
			    o.text);
		bif_out_clear(&o);
	}
	assert_int_equal(bif_decide(&(struct bif_task){ 1, MK, "B", "E", "x",
	    "(", NULL }, "a\n", 2, &o, &cause), -1);
	free(cause);
}

static unsigned long rng = 1234;

static unsigned
pick(unsigned n)
{
	rng = rng * 6364136223846793005UL + 1442695040888963407UL;
	return (unsigned)((rng >> 33) % n);
}

#define N(a)	(sizeof (a) / sizeof (a)[0])

static const char *const some_lines[] = { "a=1", "b=2", "", "x",
	"# BEGIN ANSIBLE MANAGED BLOCK", "# END ANSIBLE MANAGED BLOCK",
	"# BEGIN m", "# END m", "old=1", "a=1\r", "net.core.rmem_max = 1" };
static const char *const some_blocks[] = { "", "k=1", "k=1\n",
	"k=1\nj=2", "k=1\nj=2\n", "old=1\n", "\n", "a=1" };
static const char *const some_ins[] = { "EOF", "BOF", "^a", "^#", "zzz",
	"=", "(?m)^b", "(?m)x$", "^$" };
static const char *const some_markers[] = { MK, "# {mark} m",
	"{mark}{mark}" };

static json_t *
random_case(struct bif_task *t, char **text)
{
	struct strbuf	 sb;
	unsigned	 n, i;

	memset(t, 0, sizeof *t);
	*text = NULL;
	if (pick(8) != 0) {
		strbuf_init(&sb);
		n = pick(7);
		for (i = 0; i < n; i++) {
			strbuf_addstr(&sb, some_lines[pick(N(some_lines))]);
			if (i + 1 < n || pick(4) != 0)
				strbuf_addch(&sb, '\n');
		}
		*text = strbuf_detach(&sb, NULL);
	}
	t->present = pick(4) != 0;
	t->marker = some_markers[pick(N(some_markers))];
	t->marker_begin = pick(6) ? "BEGIN" : "START";
	t->marker_end = "END";
	t->block = some_blocks[pick(N(some_blocks))];
	switch (pick(3)) {
	case 0:
		t->insertafter = some_ins[pick(N(some_ins))];
		break;
	case 1:
		t->insertbefore = some_ins[1 + pick(N(some_ins) - 1)];
		break;
	}
	return json_pack("{s:s?, s:s, s:s, s:s, s:s, s:s, s:s?, s:s?}",
	    "text", *text, "state", t->present ? "present" : "absent",
	    "marker", t->marker, "marker_begin", t->marker_begin,
	    "marker_end", t->marker_end, "block", t->block,
	    "insertafter", t->insertafter, "insertbefore", t->insertbefore);
}

#define NRANDOM	500

static void
test_against_ansible(void **state)
{
	struct bif_task	 tasks[NRANDOM];
	char		*texts[NRANDOM];
	json_t		*cases = json_array(), *answers;
	size_t		 i, same = 0, changed = 0;

	(void)state;
	for (i = 0; i < NRANDOM; i++)
		json_array_append_new(cases, random_case(&tasks[i], &texts[i]));
	answers = ansible_driver(
	    "/usr/lib/python3/dist-packages/ansible/modules/blockinfile.py",
	    "tests/data/blockinfile/ansible-blockinfile.py", cases);
	if (answers == NULL) {
		for (i = 0; i < NRANDOM; i++)
			free(texts[i]);
		json_decref(cases);
		skip();
	}
	assert_int_equal(json_array_size(answers), NRANDOM);
	for (i = 0; i < NRANDOM; i++) {
		const json_t	*a = json_array_get(answers, i);
		struct bif_out	 o;
		char		*cause = NULL, *dump;
		const char	*want;
		int		 r;

		dump = json_dumps(json_array_get(cases, i), 0);
		/* absent on a missing file: the module exits before its
		 * decision ("File ... not present"), as mod-blockinfile.c */
		if (!tasks[i].present && texts[i] == NULL) {
			assert_false(json_is_true(json_object_get(a,
			    "changed")));
			free(dump);
			continue;
		}
		r = bif_decide(&tasks[i], texts[i], texts[i] ?
		    strlen(texts[i]) : 0, &o, &cause);
		if (json_object_get(a, "error") != NULL) {
			if (r == 0)
				fail_msg("case %zu %s: the module fails (%s)",
				    i, dump, json_string_value(
				    json_object_get(a, "error")));
		} else {
			want = json_string_value(json_object_get(a, "text"));
			if (r != 0)
				fail_msg("case %zu %s: tcptune fails (%s)", i,
				    dump, cause);
			if (want == NULL)
				want = "";
			if (o.changed != json_is_true(json_object_get(a,
			    "changed")) || strcmp(o.text, want) != 0 ||
			    strcmp(o.msg, json_string_value(json_object_get(a,
			    "msg"))) != 0)
				fail_msg("case %zu %s:\n  module: %s '%s'\n  "
				    "tcptune: %s '%s'", i, dump,
				    json_string_value(json_object_get(a, "msg")),
				    want, o.msg, o.text);
			changed += o.changed;
			same++;
			bif_out_clear(&o);
		}
		free(cause);
		free(dump);
		free(texts[i]);
	}
	print_message("blockinfile: %zu random cases as the module answers "
	    "(%zu changed)\n", same, changed);
	assert_true(changed > NRANDOM / 4 && same - changed > NRANDOM / 20);
	json_decref(answers);
	json_decref(cases);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hand),
		cmocka_unit_test(test_against_ansible),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
