/* The play as a tree (lib/playbook/tree.c, role.c, walk.c, loop.c):
 * tests/data/lang/site.yml's roles expanded in Ansible's order with
 * "role : name" names, its variables at each precedence level, the walk
 * through a block when its task fails or not, and every loop's items. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "playbook/loop.h"
#include "run/cursor.h"
#include "playbook/playbook.h"
#include "yaml/diag.h"

#define SITE	"tests/data/lang/site.yml"

static size_t
find(const struct play *p, const char *name)
{
	size_t i;

	for (i = 0; i < p->ntasks; i++) {
		if (p->tasks[i].name != NULL && strcmp(p->tasks[i].name,
		    name) == 0)
			return i;
	}
	fail_msg("no task '%s'", name);
	return 0;
}

static struct playbook *
load_site(void)
{
	struct playbook	*pb = NULL;
	struct diag	 d = DIAG_INIT;

	/* as tests/data/lang/ansible.cfg says, read by cmd/ */
	playbook_set_roles_path("tests/data/lang/shared-roles");
	if (playbook_load(SITE, &pb, &d) != 0)
		fail_msg("%s", diag_get(&d, 0));
	diag_clear(&d);
	return pb;
}

static void
test_order_and_names(void **state)
{
	struct playbook	*pb = load_site();
	const struct play *p = &pb->plays[0];

	(void)state;
	/* pre_tasks, the dependency's tasks, the role's, the play's */
	assert_true(find(p, "before the roles") < find(p,
	    "net_base : base marker"));
	assert_true(find(p, "net_base : base marker") < find(p,
	    "net_tune : show precedence"));
	assert_true(find(p, "net_tune : extra imported") < find(p,
	    "fails on the first host"));
	/* import_role from roles_path, with tasks_from */
	assert_true(find(p, "after the block") < find(p,
	    "net_shared : shared other"));
	assert_int_equal(p->nhandlers, 4);	/* the role's 3, the play's */
	assert_string_equal(p->handlers[0].name, "net_tune : reload tuning");
	assert_true(handler_answers(&p->handlers[0], "reload tuning"));
	assert_true(handler_answers(&p->handlers[2], "tuning changed"));
	assert_false(handler_answers(&p->handlers[1], "tuning changed"));
	/* the import's when is on its task */
	assert_string_equal(p->tasks[find(p, "net_tune : extra imported")].when,
	    "tune_level != 'nothing'");
	playbook_free(pb);
}

static void
test_precedence(void **state)
{
	struct playbook	*pb = load_site();
	const struct play *p = &pb->plays[0];
	const struct task *t = &p->tasks[find(p, "net_tune : show precedence")];
	json_t		*inv = json_pack("{s:s, s:s}", "tune_level", "inventory",
			    "only_in_defaults", "inventory");
	json_t		*reg = json_pack("{s:s}", "role_vars_value", "registered");
	json_t		*extra = json_pack("{s:s}", "tune_param", "extra");
	json_t		*v;

	(void)state;
	v = playbook_task_vars(p, t, NULL, NULL, NULL, NULL, "h", NULL);
	/* play vars over role defaults; role vars over play vars */
	assert_string_equal(json_string_value(json_object_get(v,
	    "tune_level")), "play");
	assert_string_equal(json_string_value(json_object_get(v,
	    "play_vs_role")), "role-vars-win");
	assert_string_equal(json_string_value(json_object_get(v,
	    "only_in_defaults")), "d");
	assert_string_equal(json_string_value(json_object_get(v,
	    "tune_param")), "param");
	assert_string_equal(json_string_value(json_object_get(v,
	    "base_marker")), "from-base-defaults");
	json_decref(v);
	/* inventory over defaults, registered over role vars, extra over
	 * role params */
	v = playbook_task_vars(p, t, inv, reg, extra, NULL, "h", NULL);
	assert_string_equal(json_string_value(json_object_get(v,
	    "only_in_defaults")), "inventory");
	assert_string_equal(json_string_value(json_object_get(v,
	    "role_vars_value")), "registered");
	assert_string_equal(json_string_value(json_object_get(v,
	    "tune_param")), "extra");
	json_decref(v);
	json_decref(inv);
	json_decref(reg);
	json_decref(extra);
	playbook_free(pb);
}

static void
test_walk(void **state)
{
	struct playbook	*pb = load_site();
	const struct play *p = &pb->plays[0];
	size_t		 fails = find(p, "fails on the first host");
	size_t		 after = find(p, "after the failure");
	size_t		 rescued = find(p, "rescued");
	size_t		 always = find(p, "always");
	int		 failing = 0, caught = 0;

	(void)state;
	/* a failure goes to the rescue, which catches it */
	assert_int_equal(play_walk_next(p, fails, 1, &failing, &caught),
	    rescued);
	assert_int_equal(failing, 0);
	assert_int_equal(caught, 1);
	assert_int_equal(play_walk_next(p, rescued, 0, &failing, &caught),
	    always);
	/* no failure: the rescue is passed over */
	assert_int_equal(play_walk_next(p, fails, 0, &failing, &caught),
	    after);
	assert_int_equal(play_walk_next(p, after, 0, &failing, &caught),
	    always);
	assert_int_equal(play_walk_next(p, always, 0, &failing, &caught),
	    find(p, "after the block"));
	/* a failure in the rescue: the always runs, then the host fails */
	failing = 0;
	assert_int_equal(play_walk_next(p, rescued, 1, &failing, &caught),
	    always);
	assert_int_equal(failing, 1);
	assert_int_equal(play_walk_next(p, always, 0, &failing, &caught),
	    p->ntasks);
	/* outside a block: a failure ends the host's play */
	failing = 0;
	assert_int_equal(play_walk_next(p, find(p, "before the roles"), 1,
	    &failing, &caught), p->ntasks);
	assert_int_equal(failing, 1);
	playbook_free(pb);
}

static void
shape(enum loop_kind kind, const char *in, const char *want)
{
	json_t	*v = json_loads(in, JSON_DECODE_ANY, NULL), *out;
	char	*cause = NULL, *got;

	out = loop_shape(kind, v, &cause);
	if (out == NULL)
		fail_msg("%s: %s", in, cause);
	got = json_dumps(out, JSON_COMPACT | JSON_ENCODE_ANY);
	assert_string_equal(got, want);
	free(got);
	json_decref(out);
	json_decref(v);
}

static void
test_loop_shapes(void **state)
{
	json_t	*v;
	char	*cause = NULL;

	(void)state;
	shape(LOOP_LIST, "[[1,2],3]", "[[1,2],3]");
	shape(LOOP_ITEMS, "[[1,2],3,[[4]]]", "[1,2,3,[4]]");
	shape(LOOP_ITEMS, "\"one\"", "[\"one\"]");
	shape(LOOP_DICT, "{\"a\":1,\"b\":2}",
	    "[{\"key\":\"a\",\"value\":1},{\"key\":\"b\",\"value\":2}]");
	shape(LOOP_INDEXED, "[\"x\",\"y\"]", "[[0,\"x\"],[1,\"y\"]]");
	shape(LOOP_TOGETHER, "[[1,2],[\"a\"]]", "[[1,\"a\"],[2,null]]");
	shape(LOOP_NESTED, "[[1,2],[\"a\",\"b\"]]",
	    "[[1,\"a\"],[1,\"b\"],[2,\"a\"],[2,\"b\"]]");
	shape(LOOP_SEQUENCE, "\"start=1 end=3\"", "[\"1\",\"2\",\"3\"]");
	shape(LOOP_SEQUENCE, "\"count=2 start=4 stride=2 format=eth%02d\"",
	    "[\"eth04\",\"eth06\"]");
	/* a bad word is named, whatever was read before it (fuzz-role's
	 * use after free: the message named freed text) */
	v = json_string("start=1 end=x");
	assert_null(loop_shape(LOOP_SEQUENCE, v, &cause));
	assert_string_equal(cause, "with_sequence: 'x' is not a number from "
	    "-1000000000 to 1000000000");
	free(cause);
	cause = NULL;
	json_decref(v);
	/* loop wants a list, as Ansible's "requires a list" */
	v = json_string("a");
	assert_null(loop_shape(LOOP_LIST, v, &cause));
	assert_non_null(strstr(cause, "requires a list"));
	free(cause);
	cause = NULL;
	json_decref(v);
	/* with_subelements: each item with its sublist taken out, a nested
	 * key, skip_missing, a skipped registered element left out */
	shape(LOOP_SUBELEMENTS, "[[{\"n\":\"a\",\"k\":[1,2]},{\"n\":\"b\","
	    "\"k\":[]}],\"k\"]", "[[{\"n\":\"a\"},1],[{\"n\":\"a\"},2]]");
	shape(LOOP_SUBELEMENTS, "[[{\"u\":{\"k\":[3]}}],\"u.k\"]",
	    "[[{\"u\":{}},3]]");
	shape(LOOP_SUBELEMENTS, "[[{\"n\":1},{\"n\":2,\"k\":[4]},"
	    "{\"skipped\":true}],\"k\",{\"skip_missing\":\"yes\"}]",
	    "[[{\"n\":2},4]]");
	v = json_loads("[[{\"n\":1}],\"k\"]", 0, NULL);
	assert_null(loop_shape(LOOP_SUBELEMENTS, v, &cause));
	assert_string_equal(cause, "could not find 'k' key in iterated item");
	free(cause);
	cause = NULL;
	json_decref(v);
	v = json_loads("[[{\"k\":3}],\"k\"]", 0, NULL);
	assert_null(loop_shape(LOOP_SUBELEMENTS, v, &cause));
	assert_string_equal(cause, "the key k should point to a list");
	free(cause);
	json_decref(v);
}

static void
test_errors(void **state)
{
	static const char pb_text[] =
	    "- hosts: all\n"
	    "  roles:\n"
	    "    - no_such_role\n"
	    "  tasks:\n"
	    "    - include: x.yml\n"	/* static: read now */
	    "    - command: echo\n"
	    "      notify: nobody\n"
	    "    - command: echo\n"
	    "      loop: [1]\n"
	    "      loop_control: {loop_vr: x}\n";
	struct playbook	*pb = NULL;
	struct diag	 d = DIAG_INIT;

	(void)state;
	assert_int_equal(playbook_load_buffer("tests/data/lang/bad.yml",
	    pb_text, sizeof pb_text - 1, &pb, &d), -1);
	assert_int_equal(diag_count(&d), 4);
	assert_non_null(strstr(diag_get(&d, 0), "bad.yml:3:7: role "
	    "'no_such_role' not found"));
	assert_non_null(strstr(diag_get(&d, 1), "bad.yml:5:16: cannot "
	    "read 'tests/data/lang/x.yml'"));
	assert_non_null(strstr(diag_get(&d, 2), "bad.yml:10:22: unknown "
	    "loop_control key 'loop_vr' (did you mean 'loop_var'?)"));
	assert_non_null(strstr(diag_get(&d, 3), "bad.yml:6:7: notify names "
	    "no handler: 'nobody'"));
	diag_clear(&d);
}

/* A module of Ansible's that tcptune lacks loads, unchecked, with a
 * warning at its key; its FQCN is the task's one argument. */
static void
test_unimplemented(void **state)
{
	static const char pb_text[] =
	    "- hosts: all\n"
	    "  tasks:\n"
	    "    - selinux: {state: disabled, nosuchparam: 1}\n"
	    "      when: false\n"
	    "    - ansible.legacy.dnf: {name: x}\n";
	struct playbook	*pb = NULL;
	struct diag	 d = DIAG_INIT;

	(void)state;
	assert_int_equal(playbook_load_buffer("tests/data/lang/u.yml",
	    pb_text, sizeof pb_text - 1, &pb, &d), 0);
	assert_int_equal(diag_count(&pb->warnings), 2);
	assert_non_null(strstr(diag_get(&pb->warnings, 0), "u.yml:3:7: "
	    "module 'ansible.posix.selinux' is not implemented by tcptune"));
	assert_non_null(strstr(diag_get(&pb->warnings, 1), "u.yml:5:7: "
	    "module 'ansible.builtin.dnf' is not implemented"));
	assert_string_equal(json_string_value(json_object_get(
	    pb->plays[0].tasks[0].args, "module")), "ansible.posix.selinux");
	playbook_free(pb);
}

/* A broken role: every error at its own file:line:col, the role's files
 * named; a module that does not exist keeps its "unknown module". */
static void
test_role_errors(void **state)
{
	static const char *const want[] = {
		"tests/data/lang/bad/play.yml:5:19: 'force_handlers: true' "
		    "is not supported yet",
		"tests/data/lang/bad/roles/broken/defaults/main.yml:2:1: "
		    "defaults/main must be a mapping, got list",
		"tests/data/lang/bad/roles/broken/meta/main.yml:2:15: "
		    "'dependencies' must be a list of roles",
		"tests/data/lang/bad/roles/broken/tasks/main.yml:4:3: unknown "
		    "task key 'whn' (did you mean 'when'?)",
		"tests/data/lang/bad/roles/broken/tasks/main.yml:5:17: cannot "
		    "read 'tests/data/lang/bad/roles/broken/tasks/missing.yml'",
		"tests/data/lang/bad/roles/broken/tasks/main.yml:7:3: unknown "
		    "module 'unarchive_nothere'",
	};
	struct playbook	*pb = NULL;
	struct diag	 d = DIAG_INIT;
	size_t		 i;

	(void)state;
	assert_int_equal(playbook_load("tests/data/lang/bad/play.yml", &pb,
	    &d), -1);
	assert_int_equal(diag_count(&d), sizeof want / sizeof want[0]);
	for (i = 0; i < diag_count(&d); i++) {
		if (strncmp(diag_get(&d, i), want[i], strlen(want[i])) != 0)
			fail_msg("error %zu: '%s', want '%s...'", i,
			    diag_get(&d, i), want[i]);
	}
	diag_clear(&d);
}

/* import_playbook: the plays in place, the entry's tags on each, the
 * imported playbook's roles and vars_files relative to it. */
static void
test_import_playbook(void **state)
{
	struct playbook	*pb = NULL;
	struct diag	 d = DIAG_INIT;
	const struct play *p;
	size_t		 i;
	int		 tagged = 0;

	(void)state;
	playbook_set_roles_path("tests/data/lang/shared-roles");
	if (playbook_load("tests/data/lang/all.yml", &pb, &d) != 0)
		fail_msg("%s", diag_get(&d, 0));
	assert_int_equal(pb->nplays, 3);
	p = &pb->plays[1];
	assert_string_equal(p->name, "imported");
	for (i = 0; i < p->ntags; i++)
		tagged |= strcmp(p->tags[i], "more") == 0;
	assert_true(tagged);
	assert_string_equal(json_string_value(json_object_get(p->vars,
	    "more_value")), "from-vars-file");
	assert_string_equal(p->tasks[0].name,
	    "local_role : next to the imported playbook");
	assert_string_equal(pb->plays[2].name,
	    "roles, loops, handlers and blocks");
	playbook_free(pb);
	diag_clear(&d);
}

/* include_tasks: the file read for a host as a tree of its own, once per
 * item, entered and left by the host's cursor in the run's order. */
static void
test_include(void **state)
{
	struct playbook	*pb = load_site(), *inc;
	const struct play *p = &pb->plays[0], *tree;
	const struct task *t = &p->tasks[find(p, "net_tune : per key")];
	struct cursor	 a, b;
	json_t		*items = json_pack("[{s:s},{s:s}]", "key", "k1", "key",
			    "k2"), *v;
	char		*cause = NULL;
	int		 rescued;

	(void)state;
	assert_int_equal(t->kind, TASK_INCLUDE);
	inc = playbook_load_include(p, t, "per-key.yml", items, &cause);
	if (inc == NULL)
		fail_msg("%s", cause);
	tree = &inc->plays[0];
	assert_int_equal(tree->ntasks, 2);	/* one per item */
	assert_string_equal(tree->tasks[0].name, "net_tune : one key");
	/* each copy has its item and the include's vars, and the role */
	v = playbook_task_vars(p, &tree->tasks[1], NULL, NULL, NULL, NULL,
	    "h", NULL);
	assert_string_equal(json_string_value(json_object_get(json_object_get(
	    v, "tune_key"), "key")), "k2");
	assert_string_equal(json_string_value(json_object_get(v,
	    "key_note")), "from-include-vars");
	assert_string_equal(json_string_value(json_object_get(v,
	    "only_in_defaults")), "d");
	json_decref(v);
	/* a host inside the include comes before one past it */
	cursor_start(&a, p);
	cursor_start(&b, p);
	a.f[0].pos = b.f[0].pos = (size_t)(t - p->tasks);
	assert_int_equal(cursor_enter(&a, tree, 1), 0);
	assert_int_equal(cursor_next(&b, 0, &rescued), 0);
	assert_true(cursor_cmp(&a, &b) < 0);
	assert_ptr_equal(cursor_task(&a), &tree->tasks[0]);
	assert_int_equal(cursor_next(&a, 0, &rescued), 0);
	assert_ptr_equal(cursor_task(&a), &tree->tasks[1]);
	/* the included tree's end is the include's: both at the next task */
	assert_int_equal(cursor_next(&a, 0, &rescued), 0);
	assert_int_equal(a.depth, 0);
	assert_int_equal(cursor_cmp(&a, &b), 0);
	/* a failure inside, outside any block: the host has failed */
	cursor_start(&a, p);
	a.f[0].pos = (size_t)(t - p->tasks);
	cursor_enter(&a, tree, 1);
	assert_int_equal(cursor_next(&a, 1, &rescued), 1);
	playbook_free(inc);
	json_decref(items);
	/* a file that is not there: the include's position */
	assert_null(playbook_load_include(p, t, "none.yml", NULL, &cause));
	assert_non_null(strstr(cause, "cannot read"));
	free(cause);
	playbook_free(pb);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order_and_names),
		cmocka_unit_test(test_precedence),
		cmocka_unit_test(test_walk),
		cmocka_unit_test(test_loop_shapes),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_include),
		cmocka_unit_test(test_unimplemented),
		cmocka_unit_test(test_role_errors),
		cmocka_unit_test(test_import_playbook),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
