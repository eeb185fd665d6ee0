/* Which module a task's key names: a module's aliases (Ansible's FQCNs for
 * its sysctl module), and the two modules answering to `sysctl` -- today's
 * drop-in module for a task that gives `values`, Ansible's for any other;
 * a task without a name is named after its key as written; Ansible's own
 * checks at load time; the gate for an Ansible-style key. */
#include "playbook/playbook.h"
#include "playbook/module.h"
#include "remote/hostline.h"
#include "yaml/diag.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

static const char pb_text[] =
    "- hosts: all\n"
    "  tasks:\n"
    "    - sysctl: {values: {net.ipv4.tcp_sack: 1}}\n"
    "    - sysctl: {name: net.ipv4.tcp_sack, value: 1}\n"
    "    - ansible.posix.sysctl: {name: net.ipv4.tcp_sack, value: 1}\n"
    "    - ansible.builtin.sysctl: {key: net.ipv4.tcp_sack, val: 1}\n"
    "    - name: legacy\n"
    "      ansible.legacy.sysctl: {name: net.ipv4.tcp_sack, state: absent}\n"
    "    - sysctl: name=net.ipv4.tcp_rmem value='4096 87380  6291456' "
    "reload=no sysctl_file=\"{{ f }}\"\n";

static void
test_names(void **state)
{
	static const char *const want[][2] = {
		{ "sysctl", "sysctl" },
		{ "ansible.posix.sysctl", "sysctl" },
		{ "ansible.posix.sysctl", "ansible.posix.sysctl" },
		{ "ansible.posix.sysctl", "ansible.builtin.sysctl" },
		{ "ansible.posix.sysctl", "legacy" },
		{ "ansible.posix.sysctl", "sysctl" },
	};
	const json_t	*args;
	struct playbook	*pb = NULL;
	struct diag	 d = DIAG_INIT;
	size_t		 i;

	(void)state;
	if (playbook_load_buffer("names.yml", pb_text, strlen(pb_text), &pb,
	    &d) != 0)
		fail_msg("%s", diag_get(&d, 0));
	assert_int_equal(pb->plays[0].ntasks, 6);
	for (i = 0; i < 6; i++) {
		assert_string_equal(pb->plays[0].tasks[i].module->name,
		    want[i][0]);
		assert_string_equal(pb->plays[0].tasks[i].name, want[i][1]);
	}
	/* Ansible's free form: key=value words, quotes taken off. */
	args = pb->plays[0].tasks[5].args;
	assert_string_equal(json_string_value(json_object_get(args, "value")),
	    "4096 87380  6291456");
	assert_true(json_is_false(json_object_get(args, "reload")));
	assert_string_equal(json_string_value(json_object_get(args,
	    "sysctl_file")), "{{ f }}");
	playbook_free(pb);
	diag_clear(&d);
	assert_string_equal(module_find("ansible.builtin.sysctl")->name,
	    "ansible.posix.sysctl");
	assert_string_equal(module_find("sysctl")->name, "sysctl");
	assert_null(module_find("community.general.sysctl"));
}

static void
bad(const char *task, const char *want)
{
	char		*text;
	struct playbook	*pb = NULL;
	struct diag	 d = DIAG_INIT;

	text = malloc(strlen(task) + 64);
	assert_non_null(text);
	strcpy(text, "- hosts: all\n  tasks:\n    - ");
	strcat(text, task);
	strcat(text, "\n");
	assert_int_equal(playbook_load_buffer("bad.yml", text, strlen(text),
	    &pb, &d), -1);
	if (strstr(diag_get(&d, 0), want) == NULL)
		fail_msg("got '%s', want '%s'", diag_get(&d, 0), want);
	diag_clear(&d);
	free(text);
}

static void
test_ansible_checks(void **state)
{
	(void)state;
	bad("sysctl: {value: 1}", "missing required parameter 'name'");
	bad("sysctl: {name: net.x}", "state is present but 'value' is "
	    "missing");
	bad("sysctl: {name: net.x, value: ''}", "value cannot be blank");
	bad("sysctl: {name: '', value: 1}", "name cannot be blank");
	bad("sysctl: {name: net.x, value: 1, state: gone}", "invalid value "
	    "'gone' for 'state'");
	bad("ansible.posix.sysctl: {name: net.x, value: 1, sysctl_file: a}",
	    "'sysctl_file' must be an absolute path");
	bad("sysctl: {values: {a: 1}, name: net.x}", "unknown parameter "
	    "'name' for module 'sysctl'");
	bad("sysctl: name=net.x 5", "free-form parameters must be key=value "
	    "words, got '5'");
	bad("sysctl: name=net.x value=1 reload=maybe", "expected bool for "
	    "'reload'");
}

static void
test_gate(void **state)
{
	json_t	*v;
	char	*cause = NULL;

	(void)state;
	v = json_string(" net.ipv4.tcp_sack\t");
	assert_int_equal(hostline_check_value("name", HOSTLINE_SYSCTL_KEY, v,
	    NULL, &cause), 0);
	json_decref(v);
	v = json_string("-w");
	assert_int_equal(hostline_check_value("name", HOSTLINE_SYSCTL_KEY, v,
	    NULL, &cause), -1);
	assert_non_null(strstr(cause, "starts with '-'"));
	free(cause);
	json_decref(v);
	v = json_string("net.a=1\nnet.b");
	assert_int_equal(hostline_check_value("name", HOSTLINE_SYSCTL_KEY, v,
	    NULL, &cause), -1);
	free(cause);
	json_decref(v);
	v = json_string("1\nnet.b=2");
	assert_int_equal(hostline_check_value("value", HOSTLINE_SYSCTL_VALUE,
	    v, NULL, &cause), -1);
	assert_non_null(strstr(cause, "line feed"));
	free(cause);
	json_decref(v);
	v = json_string("/etc/../etc/sysctl.conf");
	assert_int_equal(hostline_check_value("sysctl_file", HOSTLINE_PATH, v,
	    NULL, &cause), -1);
	free(cause);
	json_decref(v);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_ansible_checks),
		cmocka_unit_test(test_gate),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
