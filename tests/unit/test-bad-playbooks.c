/* The malformed-playbook corpus: every file in tests/data/playbooks/bad/
 * with the exact errors it must produce, file:line:col included, and all
 * of them (loading goes on after an error to find the next). One file
 * loads cleanly and fails only at run time: an undefined variable. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <glob.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "yaml/diag.h"
#include "playbook/playbook.h"
#include "template/template.h"

#define B "tests/data/playbooks/bad/"

static const struct {
	const char	*file;
	const char	*want[8];	/* NULL-terminated */
} corpus[] = {
	{ "01-broken-yaml.yml", {
		B "01-broken-yaml.yml:4:1: did not find expected node"
		    " content while parsing a flow node",
		NULL } },
	{ "02-not-a-list.yml", {
		B "02-not-a-list.yml:1:1: playbook must be a list of"
		    " plays, got mapping",
		NULL } },
	{ "03-play-not-mapping.yml", {
		B "03-play-not-mapping.yml:1:3: play must be a mapping,"
		    " got string",
		NULL } },
	{ "04-missing-hosts.yml", {
		B "04-missing-hosts.yml:1:3: play is missing required key"
		    " 'hosts'",
		NULL } },
	{ "05-unknown-play-key.yml", {
		B "05-unknown-play-key.yml:2:3: unknown play key 'hostz'"
		    " (did you mean 'hosts'?)",
		NULL } },
	{ "06-unknown-task-key.yml", {
		B "06-unknown-task-key.yml:4:7: unknown task key 'whn'"
		    " (did you mean 'when'?)",
		NULL } },
	{ "07-unknown-module.yml", {
		B "07-unknown-module.yml:4:7: unknown module 'tcp_buffer'"
		    " (did you mean 'tcp_buffers'?)",
		NULL } },
	{ "08-two-modules.yml", {
		B "08-two-modules.yml:5:7: task has more than one module:"
		    " 'congestion' and 'rollback'",
		NULL } },
	{ "09-unknown-param.yml", {
		B "09-unknown-param.yml:7:9: unknown parameter"
		    " 'sysctl_fil' for module 'sysctl' (did you mean"
		    " 'sysctl_file'?)",
		NULL } },
	{ "10-missing-required.yml", {
		B "10-missing-required.yml:4:7: module 'ansible.posix.sysctl':"
		    " missing required parameter 'name' (a 'sysctl' task with"
		    " 'values' is tcptune's drop-in module)",
		NULL } },
	{ "11-wrong-type.yml", {
		B "11-wrong-type.yml:4:19: expected int for 'duration',"
		    " got string 'ten'",
		NULL } },
	{ "12-out-of-bounds.yml", {
		B "12-out-of-bounds.yml:4:19: value 500 for 'parallel' is"
		    " out of range 1 to 128",
		NULL } },
	{ "13-bad-choice.yml", {
		B "13-bad-choice.yml:4:16: invalid value 'fqq' for"
		    " 'qdisc': choose from fq, fq_codel, cake, pfifo_fast,"
		    " keep (did you mean 'fq'?)",
		NULL } },
	{ "14-relative-path.yml", {
		B "14-relative-path.yml:4:22: 'sysctl_file' must be an"
		    " absolute path, got 'etc/sysctl.d/90-tcptune.conf'",
		NULL } },
	{ "15-bad-serial.yml", {
		B "15-bad-serial.yml:2:11: serial must be an int, a"
		    " percentage like '25%' or a list of those, got 'ten"
		    " percent'",
		NULL } },
	{ "16-bad-max-fail.yml", {
		B "16-bad-max-fail.yml:2:24: 'max_fail_percentage' must be"
		    " a percentage from 0 to 100, got int 150",
		NULL } },
	{ "17-bad-when.yml", {
		B "17-bad-when.yml:4:13: invalid when expression"
		    " 'facts.mem_total_bytes = 1024': unexpected '=' at"
		    " character 23",
		NULL } },
	{ "18-bad-template.yml", {
		B "18-bad-template.yml:4:17: invalid template '{{ rtt_ms':"
		    " missing '}}'",
		NULL } },
	{ "19-vars-files-missing.yml", {
		B "19-vars-files-missing.yml:3:7: cannot read vars file '"
		    B "vars/missing.yml': No such file or directory",
		NULL } },
	{ "20-tags-wrong-type.yml", {
		B "20-tags-wrong-type.yml:2:9: 'tags' must be a string or"
		    " a list of strings, got mapping",
		B "20-tags-wrong-type.yml:5:18: 'tags' must be a string or"
		    " a list of strings, got list",
		NULL } },
	{ "21-undefined-at-render.yml", {
		NULL } },
	{ "22-many-errors.yml", {
		B "22-many-errors.yml:3:17: 'gather_facts' must be a bool,"
		    " got string 'maybe'",
		B "22-many-errors.yml:7:19: expected float for 'headroom',"
		    " got string 'lots'",
		B "22-many-errors.yml:10:16: invalid value 'fqq' for"
		    " 'qdisc': choose from fq, fq_codel, cake, pfifo_fast,"
		    " keep (did you mean 'fq'?)",
		B "22-many-errors.yml:11:13: invalid when expression 'x"
		    " ==': unexpected end of expression",
		B "22-many-errors.yml:14:17: invalid register name"
		    " 'not-an-identifier'",
		B "22-many-errors.yml:17:3: unknown play key 'taks' (did"
		    " you mean 'tasks'?)",
		NULL } },
	{ "23-empty.yml", {
		B "23-empty.yml:1:1: playbook is empty",
		NULL } },
	{ "24-bad-become.yml", {
		B "24-bad-become.yml:2:11: 'become' must be a bool, got"
		    " string 'maybe'",
		NULL } },
	{ "25-no-module.yml", {
		B "25-no-module.yml:3:7: task has no module (one of ping, probe,"
		    " tcp_buffers, congestion, sysctl, ansible.posix.sysctl,"
		    " route, iperf3_verify, command, shell, rollback,"
		    " community.general.modprobe, debug, assert, fail, set_fact,"
		    " include_vars, template, copy, lineinfile, file, stat,"
		    " blockinfile, systemd, apt, wait_for_connection, reboot,"
		    " validate_argument_spec)",
		NULL } },
	{ "26-task-not-mapping.yml", {
		B "26-task-not-mapping.yml:3:7: task must be a mapping,"
		    " got string",
		NULL } },
	{ "27-when-mapping.yml", {
		B "27-when-mapping.yml:4:13: 'when' must be a string, a"
		    " list of strings or a bool, got mapping",
		NULL } },
	{ "28-bad-var-names.yml", {
		B "28-bad-var-names.yml:3:5: 'facts' is a reserved"
		    " variable name",
		B "28-bad-var-names.yml:4:5: invalid variable name"
		    " 'bad-name'",
		NULL } },
	{ "29-duplicate-key.yml", {
		B "29-duplicate-key.yml:2:3: duplicate play key 'hosts'",
		NULL } },
	{ "30-vars-file-not-mapping.yml", {
		B "vars/list.yml:1:1: vars file must be a mapping, got list",
		NULL } },
	{ "31-bad-template-name.yml", {
		B "31-bad-template-name.yml:3:13: invalid template '{{"
		    " broken': missing '}}'",
		NULL } },
	{ "32-unknown-test.yml", {
		B "32-unknown-test.yml:4:13: invalid when expression 'x is"
		    " frobbed': unknown test 'frobbed' at character 6",
		NULL } },
	{ "33-no-plays.yml", {
		B "33-no-plays.yml:1:1: playbook has no plays",
		NULL } },
};

static void
test_corpus(void **state)
{
	struct playbook	*pb;
	struct diag	 d = DIAG_INIT;
	char		*path;
	size_t		 i, j, n;
	int		 r;

	(void)state;
	for (i = 0; i < sizeof corpus / sizeof corpus[0]; i++) {
		if (asprintf(&path, B "%s", corpus[i].file) < 0)
			fail_msg("asprintf");
		r = playbook_load(path, &pb, &d);
		for (n = 0; corpus[i].want[n] != NULL; n++)
			;
		for (j = 0; j < diag_count(&d) && j < n; j++) {
			if (strcmp(diag_get(&d, j), corpus[i].want[j]) != 0)
				fail_msg("%s error %zu:\n  got  %s\n  want %s",
				    corpus[i].file, j, diag_get(&d, j),
				    corpus[i].want[j]);
		}
		if (diag_count(&d) != n) {
			for (j = 0; j < diag_count(&d); j++)
				print_error("got: %s\n", diag_get(&d, j));
			fail_msg("%s: %zu errors, want %zu", corpus[i].file,
			    diag_count(&d), n);
		}
		/* errors and only errors fail the load */
		assert_int_equal(r, n > 0 ? -1 : 0);
		if (n > 0)
			assert_null(pb);
		playbook_free(pb);
		diag_clear(&d);
		free(path);
	}
}

/* Every file in the folder is in the table, so none goes untested. */
static void
test_corpus_complete(void **state)
{
	glob_t	g;
	size_t	i, j;

	(void)state;
	assert_int_equal(glob(B "*.yml", 0, NULL, &g), 0);
	assert_true(g.gl_pathc >= 20);
	for (i = 0; i < g.gl_pathc; i++) {
		for (j = 0; j < sizeof corpus / sizeof corpus[0]; j++) {
			if (strcmp(g.gl_pathv[i] + strlen(B),
			    corpus[j].file) == 0)
				break;
		}
		if (j == sizeof corpus / sizeof corpus[0])
			fail_msg("%s is not in the table", g.gl_pathv[i]);
	}
	assert_int_equal(g.gl_pathc, sizeof corpus / sizeof corpus[0]);
	globfree(&g);
}

/* 21-undefined-at-render.yml passes lint; rendering its arguments for a
 * host without 'rtt_msx' fails at the string's position. */
static void
test_undefined_at_render(void **state)
{
	struct playbook	*pb;
	struct diag	 d = DIAG_INIT;
	struct task	*t;
	const struct ynode *v;
	json_t		*vars, *out;
	char		*cause = NULL;

	(void)state;
	assert_int_equal(playbook_load(B "21-undefined-at-render.yml", &pb,
	    &d), 0);
	t = &pb->plays[0].tasks[0];
	vars = playbook_host_vars(&pb->plays[0], NULL, NULL, NULL, NULL,
	    "h1", NULL);
	json_object_set_new(vars, "rtt_ms", json_real(90));

	v = ynode_get(t->args_node, "rtt_ms");
	assert_non_null(v);
	out = template_render(t->args, vars, &v->pos, &cause);
	assert_null(out);
	assert_string_equal(cause, B "21-undefined-at-render.yml:6:17: "
	    "undefined variable 'rtt_msx'");
	free(cause);
	cause = NULL;

	/* the runner's entry point says the same */
	assert_null(task_render_args(t, vars, NULL, &cause));
	assert_string_equal(cause, B "21-undefined-at-render.yml:6:17: "
	    "undefined variable 'rtt_msx'");
	free(cause);

	/* and with the variable defined it renders and binds */
	json_object_set_new(vars, "rtt_msx", json_string("105.5"));
	out = task_render_args(t, vars, NULL, &cause);
	assert_non_null(out);
	assert_true(json_real_value(json_object_get(out, "rtt_ms")) == 105.5);
	json_decref(out);
	json_decref(vars);
	playbook_free(pb);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_corpus),
		cmocka_unit_test(test_corpus_complete),
		cmocka_unit_test(test_undefined_at_render),
	};
	const char *src = getenv("TCPTUNE_SRC");

	if (src != NULL && chdir(src) != 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
