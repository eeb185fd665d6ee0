/* Playbook loading: every play and task field, vars_files precedence, tag
 * selection with Ansible's rules, per-host vars and run-time rendering of
 * task arguments, -e parsing, and every example playbook in playbooks/
 * loading with no diagnostics. Run from the project root (or with
 * TCPTUNE_SRC set to it). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "yaml/diag.h"
#include "playbook/extravars.h"
#include "playbook/playbook.h"
#include "template/template.h"

static void
chdir_src(void)
{
	const char *src = getenv("TCPTUNE_SRC");

	if (src != NULL && chdir(src) != 0)
		fail_msg("chdir %s", src);
}

static struct playbook *
load_ok(const char *path)
{
	struct playbook	*pb = NULL;
	struct diag	 d = DIAG_INIT;
	size_t		 i;

	if (playbook_load(path, &pb, &d) != 0) {
		for (i = 0; i < diag_count(&d); i++)
			print_error("%s\n", diag_get(&d, i));
		fail_msg("%s: %zu errors", path, diag_count(&d));
	}
	assert_int_equal(diag_count(&d), 0);
	diag_clear(&d);
	return pb;
}

static void
assert_json(const json_t *v, const char *want)
{
	char *got = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS |
	    JSON_ENCODE_ANY);

	if (strcmp(got, want) != 0)
		fail_msg("got\n  %s\nwant\n  %s", got, want);
	free(got);
}

static void
test_every_field(void **state)
{
	struct playbook	*pb;
	struct play	*p;
	struct task	*t;

	(void)state;
	pb = load_ok("tests/data/playbooks/good/full.yml");
	assert_string_equal(pb->path, "tests/data/playbooks/good/full.yml");
	assert_int_equal(pb->nplays, 2);

	p = &pb->plays[0];
	assert_int_equal(p->pos.line, 2);
	assert_int_equal(p->pos.col, 3);
	assert_string_equal(p->name, "first play");
	assert_string_equal(p->hosts, "web:&eu");
	/* vars, then each vars file over them, in order */
	assert_json(p->vars, "{\"from_common\":\"overridden by vars/site.yml\","
	    "\"from_play\":\"overridden by vars/common.yml\",\"list\":[1,2],"
	    "\"peer\":\"198.18.0.2\",\"rtt_ms\":92.5,\"size\":\"16M\"}");
	assert_int_equal(p->become, 1);
	assert_int_equal(p->serial.n, 2);
	assert_int_equal(p->serial.items[0].value, 1);
	assert_int_equal(p->serial.items[0].percent, 0);
	assert_int_equal(p->serial.items[1].value, 25);
	assert_int_equal(p->serial.items[1].percent, 1);
	assert_int_equal(p->max_fail_percentage, 10);
	assert_int_equal(p->any_errors_fatal, 1);
	assert_int_equal(p->gather_facts, 0);
	assert_int_equal(p->ntags, 2);
	assert_string_equal(p->tags[0], "tune");
	assert_string_equal(p->tags[1], "wan");
	assert_int_equal(p->ntasks, 5);

	t = &p->tasks[0];
	assert_int_equal(t->pos.line, 19);
	assert_int_equal(t->pos.col, 7);
	assert_string_equal(t->name, "buffers");
	assert_string_equal(t->module->name, "tcp_buffers");
	assert_int_equal(t->module_pos.line, 20);
	assert_int_equal(t->module_pos.col, 7);
	assert_non_null(t->args_node);
	assert_int_equal(t->args_node->pos.line, 21);
	/* templated value kept as a string, the rest typed, defaults in */
	assert_string_equal(json_string_value(json_object_get(t->args,
	    "rtt_ms")), "{{ rtt_ms }}");
	assert_int_equal(json_integer_value(json_object_get(t->args,
	    "max_buffer")), 67108864);
	assert_int_equal(json_integer_value(json_object_get(t->args,
	    "ram_divisor")), 64);
	assert_string_equal(t->when, "(facts.mem_total_bytes > 1000) and "
	    "(peer is defined)");
	assert_int_equal(t->when_pos.line, 24);
	assert_int_equal(t->when_pos.col, 9);
	assert_int_equal(t->ntags, 1);
	assert_string_equal(t->tags[0], "buffers");
	assert_string_equal(t->register_as, "buf_result");
	assert_int_equal(t->ignore_errors, 1);
	assert_int_equal(t->check_mode, 0);
	assert_int_equal(t->diff, 1);

	t = &p->tasks[1];
	/* no name: the module's */
	assert_string_equal(t->name, "congestion");
	assert_string_equal(json_string_value(json_object_get(t->args,
	    "qdisc")), "fq_codel");
	assert_string_equal(t->when, "true");
	assert_null(t->register_as);
	assert_int_equal(t->ignore_errors, 0);
	assert_int_equal(t->check_mode, -1);
	assert_int_equal(t->diff, -1);
	assert_int_equal(t->ntags, 0);

	t = &p->tasks[2];
	assert_string_equal(json_string_value(json_object_get(t->args, "cmd")),
	    "uptime");
	assert_int_equal(t->ntags, 2);
	assert_string_equal(t->tags[0], "a");
	assert_string_equal(t->tags[1], "b");
	assert_null(t->when);

	t = &p->tasks[3];
	assert_string_equal(t->module->name, "probe");
	assert_json(t->args, "{}");

	p = &pb->plays[1];
	assert_string_equal(p->name, "");
	assert_string_equal(p->hosts, "db,cache");
	assert_int_equal(p->become, -1);
	assert_int_equal(p->max_fail_percentage, -1);
	assert_int_equal(p->gather_facts, 1);
	assert_int_equal(p->any_errors_fatal, 0);
	assert_int_equal(p->serial.n, 0);
	assert_int_equal(p->ntasks, 0);
	assert_json(p->vars, "{}");
	playbook_free(pb);
}

static int
selected(const struct play *p, size_t task, const char *tags,
    const char *skip)
{
	return task_selected(p, &p->tasks[task], tags, skip);
}

static void
test_tags(void **state)
{
	struct playbook	*pb;
	struct play	*p, bare;

	(void)state;
	pb = load_ok("tests/data/playbooks/good/full.yml");
	p = &pb->plays[0];
	/* tasks: 0 buffers, 1 (untagged), 2 a,b, 3 always, 4 never,reboot;
	 * the play adds tune,wan to all of them */
	assert_true(selected(p, 0, NULL, NULL));
	assert_true(selected(p, 1, "", NULL));
	assert_true(selected(p, 3, "all", NULL));
	assert_false(selected(p, 4, NULL, NULL));	/* never */
	assert_true(selected(p, 4, "reboot", NULL));	/* asked for */
	assert_true(selected(p, 4, "never", NULL));
	assert_true(selected(p, 4, "tune", NULL));	/* tags overlap */
	assert_true(selected(p, 0, "buffers", NULL));
	assert_false(selected(p, 2, "buffers", NULL));
	assert_true(selected(p, 3, "buffers", NULL));	/* always */
	assert_true(selected(p, 2, "wan", NULL));	/* inherited */
	assert_true(selected(p, 2, "x,b", NULL));
	assert_false(selected(p, 0, NULL, "buffers"));
	assert_true(selected(p, 2, NULL, "buffers"));
	assert_false(selected(p, 2, NULL, "wan"));
	assert_true(selected(p, 3, NULL, "all"));	/* always survives */
	assert_false(selected(p, 3, NULL, "always"));
	assert_false(selected(p, 0, NULL, "all"));
	assert_false(selected(p, 0, NULL, "tagged"));
	assert_true(selected(p, 0, "tagged", NULL));
	assert_false(selected(p, 0, "untagged", NULL));

	/* a play without tags: untagged tasks */
	bare = *p;
	bare.tags = NULL;
	bare.ntags = 0;
	assert_true(selected(&bare, 1, "untagged", NULL));
	assert_false(selected(&bare, 1, "tagged", NULL));
	assert_false(selected(&bare, 1, "buffers", NULL));
	assert_false(selected(&bare, 1, NULL, "untagged"));
	assert_true(selected(&bare, 1, NULL, "tagged"));
	assert_false(selected(&bare, 4, "tagged", NULL));	/* never */
	assert_true(selected(&bare, 3, "untagged", NULL));	/* always */
	playbook_free(pb);
}

static void
test_host_vars_and_render(void **state)
{
	struct playbook	*pb;
	struct play	*p;
	json_t		*inv, *reg, *extra, *facts, *groups, *vars, *args;
	char		*cause = NULL;
	int		 truth;

	(void)state;
	pb = load_ok("tests/data/playbooks/good/full.yml");
	p = &pb->plays[0];
	inv = json_loads("{\"rtt_ms\": 1, \"inv_only\": \"i\", \"peer\": "
	    "\"from inventory\"}", 0, NULL);
	reg = json_loads("{\"buf_result\": {\"changed\": true}}", 0, NULL);
	extra = json_loads("{\"peer\": \"from -e\"}", 0, NULL);
	facts = json_loads("{\"mem_total_bytes\": 4096}", 0, NULL);
	groups = json_loads("{\"web\": [\"w1\"]}", 0, NULL);
	vars = playbook_host_vars(p, inv, reg, extra, facts, "w1", groups);
	/* inventory < play vars < registered < extra vars */
	assert_json(json_object_get(vars, "rtt_ms"), "92.5");
	assert_json(json_object_get(vars, "inv_only"), "\"i\"");
	assert_json(json_object_get(vars, "peer"), "\"from -e\"");
	assert_json(json_object_get(vars, "buf_result"), "{\"changed\":true}");
	assert_json(json_object_get(vars, "facts"), "{\"mem_total_bytes\":4096}");
	assert_json(json_object_get(vars, "inventory_hostname"), "\"w1\"");
	assert_json(json_object_get(vars, "groups"), "{\"web\":[\"w1\"]}");

	/* when, at run time */
	assert_int_equal(template_eval_bool(p->tasks[0].when, vars,
	    &p->tasks[0].when_pos, &truth, &cause), 0);
	assert_true(truth);

	/* arguments, rendered and bound again: rtt_ms becomes 92.5 */
	args = task_render_args(&p->tasks[0], vars, NULL, &cause);
	if (args == NULL)
		fail_msg("%s", cause);
	assert_json(json_object_get(args, "rtt_ms"), "92.5");
	assert_json(json_object_get(args, "max_buffer"), "67108864");
	json_decref(args);

	/* a rendered value of the wrong type is reported at the value */
	json_object_set_new(vars, "rtt_ms", json_string("fast"));
	assert_null(task_render_args(&p->tasks[0], vars, NULL, &cause));
	assert_string_equal(cause, "tests/data/playbooks/good/full.yml:21:17: "
	    "expected float for 'rtt_ms', got string 'fast'");
	free(cause);
	cause = NULL;

	/* an undefined variable at the string's position */
	json_object_del(vars, "rtt_ms");
	assert_null(task_render_args(&p->tasks[0], vars, NULL, &cause));
	assert_string_equal(cause, "tests/data/playbooks/good/full.yml:21:17: "
	    "undefined variable 'rtt_ms'");
	free(cause);

	/* play vars are a copy */
	json_decref(vars);
	vars = playbook_play_vars(p);
	json_object_set_new(vars, "rtt_ms", json_integer(1));
	assert_json(json_object_get(p->vars, "rtt_ms"), "92.5");
	json_decref(vars);

	json_decref(inv);
	json_decref(reg);
	json_decref(extra);
	json_decref(facts);
	json_decref(groups);
	playbook_free(pb);
}

static void
test_extravars(void **state)
{
	char	*items[4], *cause = NULL, path[] = "/tmp/tcptune-ev-XXXXXX.yml";
	json_t	*v;
	FILE	*fp;
	int	 fd;

	(void)state;
	items[0] = (char *)"a=1 b='two words' c=\"x=y\" d=";
	v = extravars_parse(items, 1, &cause);
	assert_non_null(v);
	/* key=value values are strings, as in Ansible */
	assert_json(v, "{\"a\":\"1\",\"b\":\"two words\",\"c\":\"x=y\","
	    "\"d\":\"\"}");
	json_decref(v);
	/* a Jinja2 block is one value, blanks and quotes kept, as
	 * ansible-playbook reads -e "x={{ c + 1 }} z={{ 'q r' }}" */
	items[0] = (char *)"x={{ c + 1 }} z={{ 'q r' }} w={%raw%}";
	v = extravars_parse(items, 1, &cause);
	assert_non_null(v);
	assert_json(v, "{\"w\":\"{%raw%}\",\"x\":\"{{ c + 1 }}\","
	    "\"z\":\"{{ 'q r' }}\"}");
	json_decref(v);
	items[0] = (char *)"x={{ open";
	assert_null(extravars_parse(items, 1, &cause));
	assert_string_equal(cause, "extra vars 'x={{ open': unbalanced Jinja2 "
	    "block");
	free(cause);

	fd = mkstemps(path, 4);
	assert_true(fd >= 0);
	fp = fdopen(fd, "w");
	fputs("rtt_ms: 92.5\npeers: [a, b]\na: from file\n", fp);
	fclose(fp);
	items[0] = (char *)"a=1";
	if (asprintf(&items[1], "@%s", path) < 0)
		fail_msg("asprintf");
	items[2] = (char *)"{\"n\": 3, \"rtt_ms\": 1}";
	v = extravars_parse(items, 3, &cause);
	if (v == NULL)
		fail_msg("%s", cause);
	/* later items win; files and JSON are typed */
	assert_json(v, "{\"a\":\"from file\",\"n\":3,\"peers\":[\"a\",\"b\"],"
	    "\"rtt_ms\":1}");
	json_decref(v);
	free(items[1]);
	unlink(path);

	items[0] = (char *)"novalue";
	assert_null(extravars_parse(items, 1, &cause));
	assert_string_equal(cause, "extra vars 'novalue': expected key=value, "
	    "got 'novalue'");
	free(cause);
	items[0] = (char *)"a='open";
	assert_null(extravars_parse(items, 1, &cause));
	assert_string_equal(cause, "extra vars 'a='open': unterminated quote");
	free(cause);
	items[0] = (char *)"1x=2";
	assert_null(extravars_parse(items, 1, &cause));
	assert_string_equal(cause, "extra vars '1x=2': invalid variable name "
	    "'1x'");
	free(cause);
	/* was a NULL value: the variable silently missing */
	items[0] = (char *)"ok=1 x=\xff";
	assert_null(extravars_parse(items, 1, &cause));
	assert_string_equal(cause, "extra vars: value of 'x' is not UTF-8");
	free(cause);
	items[0] = (char *)"@/nonexistent/tcptune.yml";
	assert_null(extravars_parse(items, 1, &cause));
	assert_string_equal(cause, "/nonexistent/tcptune.yml: No such file or "
	    "directory");
	free(cause);
	items[0] = (char *)"{\"a\": [1,";
	assert_null(extravars_parse(items, 1, &cause));
	assert_string_equal(cause, "extra vars:2:1: did not find expected node "
	    "content while parsing a flow node");
	free(cause);
	v = extravars_parse(NULL, 0, NULL);
	assert_json(v, "{}");
	json_decref(v);
}

static void
test_examples_load_clean(void **state)
{
	glob_t		 g;
	struct playbook	*pb;
	size_t		 i;

	(void)state;
	assert_int_equal(glob("playbooks/*.yml", 0, NULL, &g), 0);
	assert_true(g.gl_pathc >= 3);
	for (i = 0; i < g.gl_pathc; i++) {
		pb = load_ok(g.gl_pathv[i]);
		assert_true(pb->nplays >= 1);
		assert_true(pb->plays[0].ntasks >= 1);
		playbook_free(pb);
	}
	globfree(&g);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_field),
		cmocka_unit_test(test_tags),
		cmocka_unit_test(test_host_vars_and_render),
		cmocka_unit_test(test_extravars),
		cmocka_unit_test(test_examples_load_clean),
	};

	chdir_src();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
