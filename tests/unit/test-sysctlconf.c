/* sysctlconf: Ansible's ansible.posix.sysctl file edit and decisions, against
 * Ansible's own code. The table's expectations were printed by the module
 * (tests/data/sysctlconf/ansible-sysctl.py, ansible.posix as Debian ships
 * it); where python3 and that collection are installed, a few hundred
 * random files and tasks are also run through the module at test time and
 * must give the same file, file value and decisions byte for byte. */
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "tune/sysctlconf.h"

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
#include <unistd.h>


struct tcase {
	const char	*text;		/* the file, NULL: none */
	const char	*name;		/* as the task gives them */
	const char	*value;
	int		 present, reload, sysctl_set;
	const char	*proc;		/* `sysctl -e -n` output, NULL: failed */
	const char	*want_text;
	const char	*want_fv;
	int		 changed, write, set;
};

/* { text, name, value, present, reload, sysctl_set, proc,
 *   the module's file, its file value, changed, write, set } */
static const struct tcase table[] = {
	{ NULL, "net.ipv4.tcp_fin_timeout", "30", 1, 1, 0, "60\n",
	  "net.ipv4.tcp_fin_timeout=30\n", NULL, 1, 1, 0 },
	{ "# c\n\n  net.a = 1  \n;x\nnet.b=2\nnet.a = 3\n", "net.a", "3", 1, 1, 0, "3\n",
	  "# c\n\nnet.a=3\n;x\nnet.b=2\n", "3", 0, 0, 0 },
	{ "# c\n\n  net.a = 1  \n;x\nnet.b=2\nnet.a = 3\n", "net.a", "5", 1, 1, 0, "3\n",
	  "# c\n\nnet.a=5\n;x\nnet.b=2\n", "3", 1, 1, 0 },
	{ "# c\n\n  net.a = 1  \n;x\nnet.b=2\nnet.b=4\nnet.a = 3\n", "net.a", NULL, 0, 1, 0, "3\n",
	  "# c\n\n;x\nnet.b=2\n", "3", 1, 1, 0 },
	{ "net.b=2\n", "net.a", NULL, 0, 1, 0, "3\n",
	  "net.b=2\n", NULL, 0, 0, 0 },
	{ "net.a=1\r\nnet.b = 2\rnet.c\t=\t4 5  6\n  # indented\nnoequals\n", "net.c", " 4 5  6 ", 1, 1, 0, "4\t5\t6\n",
	  "net.a=1\nnet.b=2\nnet.c=4 5  6\n# indented\nnoequals\n", "4 5  6", 0, 0, 0 },
	{ "net.a=1\r\nnet.b = 2\rnet.c\t=\t4 5  6\n  # indented\nnoequals\n", "net.c", "4 5 6", 1, 1, 0, "4\t5\t6\n",
	  "net.a=1\nnet.b=2\nnet.c=4 5 6\n# indented\nnoequals\n", "4 5  6", 1, 1, 0 },
	{ "net.a=1\n", "net.a", "1", 1, 1, 0, "2\n",
	  "net.a=1\n", "1", 1, 0, 0 },
	{ "net.a=1\n", "net.a", "1", 1, 0, 0, "2\n",
	  "net.a=1\n", "1", 0, 0, 0 },
	{ "net.a=1\n", "net.a", "1", 1, 0, 1, "2\n",
	  "net.a=1\n", "1", 1, 0, 1 },
	{ "net.a=1\n", "net.a", "1", 1, 0, 1, NULL,
	  "net.a=1\n", "1", 1, 0, 0 },
	{ "net.a=\n", "net.a", NULL, 0, 1, 0, "2\n",
	  "", "", 1, 0, 0 },
	{ "net.a=\n", "net.a", "yes", 1, 1, 0, "1\n",
	  "net.a=1\n", "", 1, 1, 0 },
	{ "net.a=1\nlast line no newline", "net.z", "Off", 1, 0, 0, NULL,
	  "net.a=1\nlast line no newline\nnet.z=0\n", NULL, 1, 1, 0 },
	{ "", "  net.a ", "True", 1, 0, 0, NULL,
	  "net.a=1\n", NULL, 1, 1, 0 },
	{ "-net.a=1\nnet.a=2\n", "net.a", "2", 1, 1, 0, "2",
	  "-net.a=1\nnet.a=2\n", "2", 0, 0, 0 },
};

/* The plan for c as tcptune's module makes it (the name stripped and the
 * value taken as the Ansible module takes them). */
static void
plan_case(const struct tcase *c, struct sysctlconf_plan *p)
{
	struct sysctlconf_task	 t;
	char			*name = sysctlconf_strip(c->name);
	char			*value = sysctlconf_value(c->value);

	t.name = name;
	t.value = value;
	t.present = c->present;
	t.reload = c->reload;
	t.sysctl_set = c->sysctl_set;
	sysctlconf_plan(&t, c->text, c->proc, p);
	free(name);
	free(value);
}

static void
check_case(size_t i, const struct tcase *c, const char *text, const char *fv,
    int changed, int write, int set)
{
	struct sysctlconf_plan p;

	plan_case(c, &p);
	if (strcmp(p.text, text) != 0 || (fv == NULL) !=
	    (p.file_value == NULL) || (fv != NULL && strcmp(fv,
	    p.file_value) != 0) || p.changed != changed ||
	    p.write_file != write || p.set_proc != set)
		fail_msg("case %zu differs from Ansible's module:\n"
		    "file: ours\n%s-- Ansible's\n%s-- file value ours '%s', "
		    "Ansible's '%s'; changed %d/%d write %d/%d set %d/%d", i,
		    p.text, text, p.file_value ? p.file_value : "(none)",
		    fv ? fv : "(none)", p.changed, changed, p.write_file,
		    write, p.set_proc, set);
	assert_int_equal(p.reload, p.changed && c->reload);
	sysctlconf_plan_free(&p);
}

static void
test_table(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof table / sizeof table[0]; i++)
		check_case(i, &table[i], table[i].want_text, table[i].want_fv,
		    table[i].changed, table[i].write, table[i].set);
}

static void
test_values(void **state)
{
	static const char *const v[][2] = {
		{ "yes", "1" }, { "On", "1" }, { "TRUE", "1" }, { "t", "1" },
		{ "Y", "1" }, { "1", "1" }, { "no", "0" }, { "OFF", "0" },
		{ "False", "0" }, { "f", "0" }, { "n", "0" }, { "0", "0" },
		{ " yes", "yes" }, { "1.0", "1.0" }, { "\t4096  87380 \n",
		"4096  87380" }, { "", "" },
	};
	size_t	i;
	char	*s;

	(void)state;
	for (i = 0; i < sizeof v / sizeof v[0]; i++) {
		s = sysctlconf_value(v[i][0]);
		assert_string_equal(s, v[i][1]);
		free(s);
	}
	s = sysctlconf_value(NULL);
	assert_string_equal(s, "");
	free(s);
	assert_true(sysctlconf_values_equal("4096\t87380 6291456\n",
	    " 4096 87380\x1f" "6291456"));
	assert_false(sysctlconf_values_equal("4096 87380", "4096 87380 1"));
	assert_false(sysctlconf_values_equal("", "0"));
	assert_true(sysctlconf_values_equal("", " \n"));
	assert_false(sysctlconf_values_equal(NULL, "1"));
}

/* Random cases from a small alphabet of lines, so that keys repeat, lines
 * carry odd blanks and line ends, and values differ by blanks only. */
static const char *const pieces[] = {
	"net.a=1", "net.a = 1", " net.a\t=\t2 ", "net.b=1 2  3", "net.b = 1 2 3",
	"-net.a=1", "# net.a=9", "; net.b=0", "", "   ", "noequals", "=x",
	"net.c=", "net.c = a=b", "\tnet.b=\x0b" "4", "net/a=1",
};
static const char *const ends[] = { "\n", "\r\n", "\r", "\n\n" };
static const char *const names[] = { "net.a", " net.b", "net.c", "net.d",
	"net/a" };
static const char *const values[] = { "1", "2", " 1 2  3", "1 2 3", "yes",
	"off", "a=b", "4", NULL };
static const char *const procs[] = { "1\n", "2\n", "1\t2\t3\n", "", "4",
	"a=b\n", NULL };

static char *
random_text(void)
{
	struct strbuf	sb = STRBUF_INIT;
	int		n = rand() % 7, i;

	strbuf_init(&sb);
	if (rand() % 9 == 0)
		return NULL;
	for (i = 0; i < n; i++) {
		strbuf_addstr(&sb, pieces[rand() % (sizeof pieces /
		    sizeof pieces[0])]);
		if (i + 1 < n || rand() % 2)
			strbuf_addstr(&sb, ends[rand() % 4]);
	}
	return strbuf_detach(&sb, NULL);
}

#define PICK(a)	a[rand() % (sizeof a / sizeof a[0])]
#define NRANDOM	300

static void
random_case(struct tcase *c)
{
	memset(c, 0, sizeof *c);
	c->text = random_text();
	c->name = PICK(names);
	c->present = rand() % 3 != 0;
	c->value = PICK(values);
	if (c->present && c->value == NULL)
		c->value = "1";
	c->reload = rand() % 2;
	c->sysctl_set = rand() % 2;
	c->proc = PICK(procs);
}

static json_t *
case_json(const struct tcase *c)
{
	return json_pack("{s:s?, s:s, s:s?, s:s, s:b, s:b, s:s?}", "text",
	    c->text, "name", c->name, "value", c->value, "state", c->present ?
	    "present" : "absent", "reload", c->reload, "sysctl_set",
	    c->sysctl_set, "proc", c->proc);
}

/* Ansible's answers for the cases, or NULL when its module is not here. */
static json_t *
ansible_answers(json_t *cases)
{
	return ansible_driver("/usr/lib/python3/dist-packages/"
	    "ansible_collections/ansible/posix/plugins/modules/sysctl.py",
	    "tests/data/sysctlconf/ansible-sysctl.py", cases);
}

static void
test_random_against_ansible(void **state)
{
	struct tcase	 c[NRANDOM];
	json_t		*cases = json_array(), *answers, *a;
	size_t		 i;

	(void)state;
	srand(10);
	for (i = 0; i < NRANDOM; i++) {
		random_case(&c[i]);
		json_array_append_new(cases, case_json(&c[i]));
	}
	if ((answers = ansible_answers(cases)) == NULL) {
		print_message("python3 or ansible.posix missing: random cases "
		    "not compared\n");
		skip();
	}
	assert_int_equal(json_array_size(answers), NRANDOM);
	for (i = 0; i < NRANDOM; i++) {
		a = json_array_get(answers, i);
		check_case(i, &c[i], json_string_value(json_object_get(a,
		    "text")), json_string_value(json_object_get(a, "fv")),
		    json_is_true(json_object_get(a, "changed")),
		    json_is_true(json_object_get(a, "write")),
		    json_is_true(json_object_get(a, "set")));
		free((char *)c[i].text);
	}
	json_decref(answers);
	json_decref(cases);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_random_against_ansible),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
