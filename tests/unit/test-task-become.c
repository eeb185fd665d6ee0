/* The connection keywords of a task. become and become_user
 * (lib/playbook/become.c, tree.c): what a task inherits from its blocks, a
 * role entry and an import when the playbook loads, and the order the
 * runner decides in (playbook/become.h): the command line under the play
 * under the task, the host's variables over all. delegate_to: a block's
 * inherited, a task's own over it; local_action's module, arguments and
 * localhost; delegate_facts: true refused. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "playbook/become.h"
#include "playbook/playbook.h"
#include "yaml/diag.h"

#define DIR	"tests/data/lang3"

static const struct task *
find(const struct play *p, const char *name)
{
	size_t i;

	for (i = 0; i < p->ntasks; i++) {
		if (p->tasks[i].name != NULL && strcmp(p->tasks[i].name,
		    name) == 0)
			return &p->tasks[i];
	}
	fail_msg("no task '%s'", name);
	return NULL;
}

static struct playbook *
load_file(const char *path)
{
	struct playbook	*pb = NULL;
	struct diag	 d = DIAG_INIT;

	if (playbook_load(path, &pb, &d) != 0)
		fail_msg("%s", diag_get(&d, 0));
	diag_clear(&d);
	return pb;
}

/* The task's become and become_user as loaded: -1 / NULL when unset. */
static void
expect(const struct play *p, const char *name, int become, const char *user)
{
	const struct task *t = find(p, name);

	assert_int_equal(t->become, become);
	if (user == NULL)
		assert_null(t->become_user);
	else
		assert_string_equal(t->become_user, user);
}

static void
test_inherited(void **state)
{
	struct playbook		*pb = load_file(DIR "/become.yml");
	const struct play	*p = &pb->plays[0];

	(void)state;
	assert_int_equal(p->become, 1);
	assert_string_equal(p->become_user, "ttl-pw");
	expect(p, "the play's", -1, NULL);
	expect(p, "in the block", -1, "root");
	expect(p, "a task's become over its block's", 0, "root");
	expect(p, "in the inner block", -1, "{{ inner_user }}");
	expect(p, "a rescue has its block's become", -1, "root");
	expect(p, "in the import", 0, NULL);
	expect(p, "whoami : in the role", -1, "root");
	expect(&pb->plays[1], "whoami : in the role", 1, NULL);
	expect(&pb->plays[1], "the login user", -1, NULL);
	expect(&pb->plays[1], "in it", 1, NULL);
	playbook_free(pb);
}

static void
choose(const struct play *p, const struct task *t,
    const struct become_defaults *d, int on, const char *user)
{
	struct become_choice c;

	task_become(p, t, d, &c);
	assert_int_equal(c.on, on);
	if (user == NULL)
		assert_null(c.user);
	else
		assert_string_equal(c.user, user);
}

static void
test_order(void **state)
{
	struct play		 p;
	struct task		 t;
	struct become_defaults	 d = { 0, NULL, -1, NULL };
	struct become_choice	 c;

	(void)state;
	memset(&p, 0, sizeof p);
	memset(&t, 0, sizeof t);
	p.become = t.become = -1;
	choose(&p, &t, &d, 0, NULL);
	/* -b and --become-user are the defaults */
	d.become = 1;
	d.user = "cli";
	choose(&p, &t, &d, 1, "cli");
	/* the play over them: become: false turns -b off */
	p.become = 0;
	p.become_user = "play";
	choose(&p, &t, &d, 0, "play");
	/* the task (and its blocks) over the play, each keyword alone */
	t.become = 1;
	choose(&p, &t, &d, 1, "play");
	t.become_user = "{{ u }}";
	task_become(&p, &t, &d, &c);
	assert_ptr_equal(c.user_pos, &t.become_user_pos);
	/* the host's variables over every keyword, never templated here */
	d.var_become = 0;
	choose(&p, &t, &d, 0, "{{ u }}");
	d.var_user = "var";
	task_become(&p, &t, &d, &c);
	assert_string_equal(c.user, "var");
	assert_null(c.user_pos);
	/* a flush has no task: the play's */
	d.var_become = -1;
	d.var_user = NULL;
	choose(&p, NULL, &d, 0, "play");
}

static void
test_not_on_include(void **state)
{
	static const char text[] =
	    "- hosts: all\n"
	    "  tasks:\n"
	    "    - include_tasks: x.yml\n"
	    "      become: true\n"
	    "    - command: id\n"
	    "      become: maybe\n";
	struct playbook	*pb = NULL;
	struct diag	 d = DIAG_INIT;

	(void)state;
	assert_int_equal(playbook_load_buffer("t.yml", text, strlen(text),
	    &pb, &d), -1);
	/* as Ansible: 'become' is not a valid attribute for a TaskInclude */
	assert_non_null(strstr(diag_get(&d, 0), "t.yml:4:7:"));
	assert_non_null(strstr(diag_get(&d, 0), "become"));
	assert_non_null(strstr(diag_get(&d, diag_count(&d) - 1),
	    "t.yml:6:15:"));
	diag_clear(&d);
}

static void
test_delegate(void **state)
{
	struct playbook		*pb = load_file(DIR "/delegate.yml");
	const struct play	*p = &pb->plays[0];
	const struct task	*t;

	(void)state;
	assert_string_equal(find(p, "on the controller")->delegate_to,
	    "localhost");
	assert_null(find(p, "debug")->delegate_to);
	t = find(p, "local_action, with the host's vars");
	assert_string_equal(t->module->name, "command");
	assert_string_equal(t->delegate_to, "localhost");
	/* the free-form arguments at the column they were written */
	assert_string_equal(t->args_node->value,
	    "echo {{ inventory_hostname }}");
	assert_int_equal(t->args_node->pos.line, t->module_pos.line);
	assert_int_equal(t->args_node->pos.col, t->module_pos.col + 8);
	assert_string_equal(find(p, "in the block")->delegate_to,
	    "{{ groups.lab[0] }}");
	assert_string_equal(find(p, "over each host")->delegate_to,
	    "{{ item }}");
	playbook_free(pb);
}

static void
test_delegate_errors(void **state)
{
	static const char text[] =
	    "- hosts: all\n"
	    "  tasks:\n"
	    "    - command: id\n"
	    "      delegate_to: localhost\n"
	    "      delegate_facts: true\n"
	    "    - local_action: nosuch thing\n"
	    "    - local_action: {module: command}\n";
	struct playbook	*pb = NULL;
	struct diag	 d = DIAG_INIT;

	(void)state;
	assert_int_equal(playbook_load_buffer("t.yml", text, strlen(text),
	    &pb, &d), -1);
	assert_int_equal(diag_count(&d), 3);
	assert_non_null(strstr(diag_get(&d, 0), "t.yml:5:23: 'delegate_facts: "
	    "true' is not supported"));
	assert_non_null(strstr(diag_get(&d, 1), "t.yml:6:21: unknown module "
	    "'nosuch' in local_action"));
	assert_non_null(strstr(diag_get(&d, 2), "t.yml:7:21:"));
	diag_clear(&d);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_inherited),
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_not_on_include),
		cmocka_unit_test(test_delegate),
		cmocka_unit_test(test_delegate_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
