/* The language-level actions (modules/actions.c: debug, assert, fail,
 * set_fact, include_vars), what the loader makes of them and of meta and
 * include_role (lib/playbook/tree.c, role.c), and an include_role's tree
 * (playbook_load_include) on tests/data/lang2/site.yml. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "modules/actions.h"
#include "remote/remote-cmd.h"
#include "playbook/playbook.h"
#include "yaml/diag.h"

#define LANG2	"tests/data/lang2"
#define nitems(a)	(sizeof (a) / sizeof (a)[0])

static void
test_show(void **state)
{
	json_t	*v = json_pack("{s:[i,s]}", "msg", 1, "a");
	char	*s;

	(void)state;
	/* Python's json.dumps(indent=4, sort_keys=True) */
	s = action_show(v, 1);
	assert_string_equal(s, "{\n    \"msg\": [\n        1,\n        \"a\"\n"
	    "    ]\n}");
	free(s);
	json_decref(v);
	/* one line: ", " and ": ", keys sorted, UTF-8 kept */
	v = json_pack("{s:s, s:b}", "msg", "b\xc3\xa9", "changed", 0);
	s = action_show(v, 0);
	assert_string_equal(s, "{\"changed\": false, \"msg\": \"b\xc3\xa9\"}");
	free(s);
	json_decref(v);
}

static void
test_assert(void **state)
{
	json_t		*vars = json_pack("{s:i, s:s}", "n", 3, "s", "x");
	json_t		*that;
	const char	*failed;
	char		*cause = NULL;

	(void)state;
	that = json_pack("[s, s]", "n == 3", "s == 'x'");
	assert_int_equal(action_assert(that, vars, &failed, &cause), 1);
	assert_null(failed);
	json_decref(that);
	/* the first that does not hold is named */
	that = json_pack("[s, s, s]", "n == 3", "n == 4", "undefined_x");
	assert_int_equal(action_assert(that, vars, &failed, &cause), 0);
	assert_string_equal(failed, "n == 4");
	json_decref(that);
	/* one string, and a bool as YAML gives it */
	that = json_string("n > 1");
	assert_int_equal(action_assert(that, vars, &failed, &cause), 1);
	json_decref(that);
	that = json_false();
	assert_int_equal(action_assert(that, vars, &failed, &cause), 0);
	assert_string_equal(failed, "False");
	/* an undefined name is an error, not a failed assertion */
	that = json_string("nope == 1");
	assert_int_equal(action_assert(that, vars, &failed, &cause), -1);
	assert_non_null(strstr(cause, "nope"));
	free(cause);
	json_decref(that);
	json_decref(vars);
}

static void
test_debug_var(void **state)
{
	json_t *vars = json_pack("{s:i, s:{s:s}}", "n", 3, "m", "k", "v"), *v;

	(void)state;
	v = action_debug_var("n", vars);
	assert_int_equal(json_integer_value(v), 3);	/* its type kept */
	json_decref(v);
	v = action_debug_var("m.k ~ '!'", vars);
	assert_string_equal(json_string_value(v), "v!");
	json_decref(v);
	v = action_debug_var("not_there", vars);
	assert_string_equal(json_string_value(v), "VARIABLE IS NOT DEFINED!");
	json_decref(v);
	json_decref(vars);
}

static void
test_vars_files(void **state)
{
	char	*p, *cause = NULL, dir[] = "/tmp/test-actions.XXXXXX", *bad;
	json_t	*files, *v;
	FILE	*f;

	(void)state;
	/* a role's vars/ first, then the playbook's vars/ and directory */
	p = action_find_vars("extra.yml", LANG2 "/roles/greet", LANG2, 0);
	assert_string_equal(p, LANG2 "/roles/greet/vars/extra.yml");
	free(p);
	p = action_find_vars("common.yml", LANG2 "/roles/greet", LANG2, 0);
	assert_string_equal(p, LANG2 "/vars/common.yml");
	free(p);
	p = action_find_vars("vars/common.yml", NULL, LANG2, 0);
	assert_string_equal(p, LANG2 "/vars/common.yml");
	free(p);
	assert_null(action_find_vars("vars/common.yml", NULL, LANG2, 1));
	assert_null(action_find_vars("nope.yml", NULL, LANG2, 0));
	p = action_find_vars("dir", NULL, LANG2, 1);
	assert_string_equal(p, LANG2 "/vars/dir");
	/* a directory's files by name */
	files = action_vars_dir(p, &cause);
	free(p);
	assert_non_null(files);
	assert_int_equal(json_array_size(files), 2);
	assert_string_equal(json_string_value(json_array_get(files, 0)),
	    LANG2 "/vars/dir/10-a.yml");
	json_decref(files);
	v = action_read_vars(LANG2 "/vars/common.yml", &cause);
	assert_string_equal(json_string_value(json_object_get(v, "level")),
	    "include-vars");
	json_decref(v);
	/* a file of another name in the directory fails it, as Ansible */
	assert_non_null(mkdtemp(dir));
	bad = NULL;
	p = NULL;
	if (asprintf(&bad, "%s/notes.txt", dir) < 0)
		fail();
	assert_non_null(f = fopen(bad, "w"));
	fputs("- a list\n", f);
	fclose(f);
	assert_null(action_vars_dir(dir, &cause));
	assert_non_null(strstr(cause, "does not have a valid extension: "
	    "yaml, yml, json"));
	free(cause);
	cause = NULL;
	/* a vars file must be a mapping */
	assert_null(action_read_vars(bad, &cause));
	assert_non_null(strstr(cause, "must be a mapping"));
	free(cause);
	unlink(bad);
	rmdir(dir);
	free(bad);
}

/* What the loader takes and refuses, each error at file:line:col. */
static void
test_load(void **state)
{
	static const char good[] =
	    "- hosts: all\n"
	    "  vars_prompt:\n"
	    "    - name: pw\n"
	    "      default: d\n"
	    "    - {name: who, prompt: Who, private: no, confirm: yes}\n"
	    "  tasks:\n"
	    "    - set_fact: {a: 1, b: '{{ x }}', cacheable: true}\n"
	    "    - include_vars: vars/common.yml\n"
	    "    - debug: msg='hi {{ a }}'\n"
	    "    - meta: end_host\n"
	    "      when: a == 1\n"
	    "    - include_role: {name: greet, tasks_from: other}\n"
	    "      loop: [1, 2]\n"
	    "    - debug: msg=x\n"
	    "      until: [a, b]\n"
	    "      retries: 2\n"
	    "      delay: 0\n"
	    "    - debug: msg=x\n"
	    "      until: a\n"
	    "    - debug: msg=x\n"
	    "      until: a\n"
	    "      retries: 0\n"
	    "      run_once: yes\n"
	    "      no_log: true\n";
	static const char bad[] =
	    "- hosts: all\n"
	    "  tasks:\n"
	    "    - set_fact: {facts: 1}\n"
	    "    - set_fact: {}\n"
	    "    - debug: {msg: a, var: b}\n"
	    "    - meta: refresh_inventory\n"
	    "    - include_role: {name: greet, apply: {tags: x}}\n"
	    "    - include_role: {name: no_such_role}\n"
	    "    - set_fact: {'not a name': 1}\n"
	    "    - debug: msg=x\n"
	    "      retries: '{{ n }}'\n"
	    "- hosts: all\n"
	    "  vars_prompt:\n"
	    "    - {name: pw, encrypt: sha512_crypt}\n"
	    "    - {prompt: nameless}\n";
	static const char *const want[] = {
		"t.yml:3:7: module 'set_fact': 'facts' is a name tcptune sets",
		"t.yml:4:7: module 'set_fact': no key/value pairs provided",
		"t.yml:5:7: module 'debug': 'msg' and 'var' are incompatible "
		    "options",
		"t.yml:6:13: meta: 'refresh_inventory' is not supported",
		"t.yml:7:35: 'apply' on include_role is not supported",
		"t.yml:8:28: role 'no_such_role' not found",
		"t.yml:9:18: invalid variable name 'not a name' for module "
		    "'set_fact'",
		"t.yml:11:16: 'retries' must be a whole number from 0 to "
		    "100000 (not templated), got string '{{ n }}'",
		"t.yml:14:18: 'encrypt' is not supported on vars_prompt",
		"t.yml:15:7: vars_prompt needs 'name:' with a variable name",
	};
	struct playbook		*pb = NULL;
	struct diag		 d = DIAG_INIT;
	const struct play	*p;
	size_t			 i;

	(void)state;
	assert_int_equal(playbook_load_buffer(LANG2 "/t.yml", good,
	    sizeof good - 1, &pb, &d), 0);
	p = &pb->plays[0];
	assert_int_equal(p->nprompts, 2);
	assert_string_equal(p->prompts[0].name, "pw");
	assert_true(p->prompts[0].private);
	assert_string_equal(json_string_value(p->prompts[0].def), "d");
	assert_false(p->prompts[1].private);
	assert_true(p->prompts[1].confirm);
	assert_string_equal(p->prompts[1].prompt, "Who");
	assert_string_equal(p->tasks[0].module->name, "set_fact");
	assert_non_null(json_object_get(json_object_get(p->tasks[0].args, "*"),
	    "b"));
	assert_true(json_is_true(json_object_get(p->tasks[0].args,
	    "cacheable")));
	assert_string_equal(json_string_value(json_object_get(p->tasks[1].args,
	    "file")), "vars/common.yml");
	assert_int_equal(p->tasks[3].kind, TASK_META);
	assert_int_equal(p->tasks[3].meta, META_END_HOST);
	assert_string_equal(p->tasks[3].name, "meta");
	assert_int_equal(p->tasks[4].kind, TASK_INCLUDE);
	assert_true(p->tasks[4].include_role);
	assert_string_equal(p->tasks[4].name, "include_role : greet");
	/* until: a list ANDed as when's; Ansible's count of attempts */
	assert_string_equal(p->tasks[5].until, "(a) and (b)");
	assert_int_equal(p->tasks[5].delay, 0);
	assert_int_equal(task_until_attempts(&p->tasks[5]), 3);
	assert_int_equal(task_until_attempts(&p->tasks[6]), 4);
	assert_int_equal(p->tasks[6].delay, -1);
	assert_int_equal(task_until_attempts(&p->tasks[7]), 1);
	assert_true(p->tasks[7].run_once);
	assert_true(p->tasks[7].no_log);
	assert_false(p->tasks[6].no_log);
	assert_false(p->tasks[6].run_once);
	assert_int_equal(task_until_attempts(&p->tasks[0]), 1);
	playbook_free(pb);
	pb = NULL;
	assert_int_equal(playbook_load_buffer(LANG2 "/t.yml", bad,
	    sizeof bad - 1, &pb, &d), -1);
	assert_int_equal(diag_count(&d), nitems(want));
	for (i = 0; i < nitems(want); i++) {
		if (strstr(diag_get(&d, i), want[i]) == NULL)
			fail_msg("error %zu: got '%s', want '%s'", i,
			    diag_get(&d, i), want[i]);
	}
	diag_clear(&d);
}

/* include_role: the role's tree read for a host, its tasks named "role :
 * name", its defaults, vars and the include's vars in each copy. */
static void
test_include_role(void **state)
{
	struct playbook		*pb = NULL, *inc;
	struct diag		 d = DIAG_INIT;
	const struct play	*p, *tree;
	const struct task	*t = NULL;
	json_t			*v, *items;
	char			*cause = NULL;
	size_t			 i;

	(void)state;
	if (playbook_load(LANG2 "/site.yml", &pb, &d) != 0)
		fail_msg("%s", diag_get(&d, 0));
	p = &pb->plays[0];
	for (i = 0; i < p->ntasks; i++) {
		if (strcmp(p->tasks[i].name, "role with tasks_from and params") ==
		    0)
			t = &p->tasks[i];
	}
	assert_non_null(t);
	assert_true(t->include_role);
	inc = playbook_load_include(p, t, "greet", NULL, &cause);
	if (inc == NULL)
		fail_msg("%s", cause);
	tree = &inc->plays[0];
	assert_int_equal(tree->ntasks, 2);
	assert_string_equal(tree->tasks[1].name, "greet : other");
	v = playbook_task_vars(p, &tree->tasks[1], NULL, NULL, NULL, NULL,
	    "h", NULL);
	assert_string_equal(json_string_value(json_object_get(v, "who")),
	    "param");
	assert_string_equal(json_string_value(json_object_get(v, "role_var")),
	    "from-role-vars");
	assert_non_null(strstr(json_string_value(json_object_get(v,
	    "role_path")), "roles/greet"));
	/* the magic ansible_version: the release tcptune follows */
	assert_int_equal(json_integer_value(json_object_get(json_object_get(v,
	    "ansible_version"), "minor")), 14);
	assert_string_equal(json_string_value(json_object_get(json_object_get(
	    v, "ansible_version"), "full")), "2.14.18");
	json_decref(v);
	playbook_free(inc);
	/* a loop: one copy of the role per item, each with its item */
	items = json_pack("[s, s]", "a", "b");
	inc = playbook_load_include(p, t, "greet", items, &cause);
	assert_non_null(inc);
	assert_int_equal(inc->plays[0].ntasks, 4);
	v = playbook_task_vars(p, &inc->plays[0].tasks[3], NULL, NULL, NULL,
	    NULL, "h", NULL);
	assert_string_equal(json_string_value(json_object_get(v, "item")),
	    "b");
	json_decref(v);
	playbook_free(inc);
	json_decref(items);
	/* a role that is not there: an error naming it */
	assert_null(playbook_load_include(p, t, "no_such_role", NULL,
	    &cause));
	assert_non_null(strstr(cause, "role 'no_such_role' not found"));
	free(cause);
	playbook_free(pb);
	diag_clear(&d);
}

/* environment: each value one quoted word before the command; a key that
 * is no variable name refused. */
static void
test_environment(void **state)
{
	json_t	*env = json_pack("{s:s, s:i, s:b}", "A", "it's $(x)", "N", 3,
		    "B", 1);
	char	*s, *cause = NULL;

	(void)state;
	s = remote_env_prefix(env, &cause);
	assert_string_equal(s, "A='it'\\''s $(x)'; export A; N='3'; export N; "
	    "B='True'; export B; ");
	free(s);
	json_decref(env);
	env = json_pack("{s:s}", "A;reboot", "x");
	assert_null(remote_env_prefix(env, &cause));
	assert_non_null(strstr(cause, "'A;reboot' is not a variable name"));
	free(cause);
	json_decref(env);
	env = json_object();
	s = remote_env_prefix(env, &cause);
	assert_string_equal(s, "");
	free(s);
	json_decref(env);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_show),
		cmocka_unit_test(test_assert),
		cmocka_unit_test(test_debug_var),
		cmocka_unit_test(test_vars_files),
		cmocka_unit_test(test_load),
		cmocka_unit_test(test_include_role),
		cmocka_unit_test(test_environment),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
