/* The gate for host lines (lib/remote/hostline.h): every hostile shape is refused
 * by the checks, by the drop-in renderer and by a task's parameter check,
 * and what real hosts use passes. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tune/dropin.h"
#include "remote/hostline.h"
#include "playbook/module.h"

/* Every shape an inventory value could use to become more than data. */
static const char *const hostile_values[] = {
	"131072\nnet.ipv4.tcp_rmem = 4096 4096 4096",
	"131072\rnet.ipv4.tcp_rmem = 4096 4096 4096",
	"131072\r\nkernel.core_pattern = |/tmp/x",
	"1\x1b[2K",
	"$(touch /tmp/pwned)",
	"`touch /tmp/pwned`",
	"1; reboot",
	"1\" x",
	"1' x",
	"1 \\",
	"1 > /etc/passwd",
	"1 & x",
	NULL,
};

static void
test_values(void **state)
{
	char	*cause = NULL;
	char	 longv[HOSTLINE_VALUE_MAX + 2];
	size_t	 i;

	(void)state;
	for (i = 0; hostile_values[i] != NULL; i++) {
		assert_int_equal(hostline_sysctl_value(hostile_values[i],
		    &cause), -1);
		assert_non_null(cause);
		/* The message never carries the raw control byte. */
		assert_null(strchr(cause, '\n'));
		assert_null(strchr(cause, '\r'));
		assert_null(strchr(cause, 0x1b));
		free(cause);
		cause = NULL;
	}
	hostline_sysctl_value(hostile_values[0], &cause);
	assert_string_equal(cause, "value has a line feed (U+000A) at byte 6: "
	    "'131072\\nnet.ipv4.tcp_rmem = 4096 4096 409…'");
	free(cause);
	cause = NULL;
	memset(longv, '1', sizeof longv - 1);
	longv[sizeof longv - 1] = '\0';
	assert_int_equal(hostline_sysctl_value(longv, &cause), -1);
	assert_non_null(strstr(cause, "is 4097 bytes long (at most 4096)"));
	free(cause);
	cause = NULL;
	/* What hosts really use. */
	assert_int_equal(hostline_sysctl_value("4096 131072 6291456", NULL), 0);
	assert_int_equal(hostline_sysctl_value("4096\t131072\t6291456", NULL),
	    0);
	assert_int_equal(hostline_sysctl_value("bbr", NULL), 0);
	assert_int_equal(hostline_sysctl_value("|/usr/lib/systemd/"
	    "systemd-coredump %P %u %g %s %t %c %h", NULL), 0);
	assert_int_equal(hostline_sysctl_value("", NULL), 0);
}

static void
test_keys(void **state)
{
	static const char *const bad[] = {
		"", "net..ipv4", ".net.ipv4", "net.ipv4.", "net.ipv4.*",
		"net/ipv4/../../kernel/modprobe", "net/ipv4/./x",
		"../kernel/modprobe", "net.ipv4.tcp_rmem\nkernel.x",
		"net.ipv4.tcp rmem", "net.ipv4.tcp_rmem=1", "net.$(x)",
		"net.ipv4.`x`", "net.ipv4.;x", NULL,
	};
	static const char *const good[] = {
		"net.ipv4.tcp_rmem", "net/ipv4/tcp_rmem",
		"net.ipv4.conf.eth0-1.rp_filter",
		"net/ipv4/conf/eth0.100/rp_filter", "vm.nr_hugepages", NULL,
	};
	char	*cause = NULL;
	size_t	 i;

	(void)state;
	for (i = 0; bad[i] != NULL; i++) {
		assert_int_equal(hostline_sysctl_key(bad[i], &cause), -1);
		free(cause);
		cause = NULL;
	}
	for (i = 0; good[i] != NULL; i++)
		assert_int_equal(hostline_sysctl_key(good[i], NULL), 0);
	hostline_sysctl_key("net/ipv4/../../kernel/modprobe", &cause);
	assert_string_equal(cause, "sysctl key has a '.' or '..' component: "
	    "'net/ipv4/../../kernel/modprobe'");
	free(cause);
}

static void
test_paths(void **state)
{
	static const char *const bad[] = {
		"etc/sysctl.d/90-tcptune.conf", "/etc/sysctl.d/../passwd",
		"/etc/sysctl.d/./90-x.conf", "/etc/sysctl.d//90-x.conf",
		"/etc/sysctl.d/90-x.conf\n# x", "/etc/passwd",
		"/etc/sysctl.d/sub/90-x.conf", "/etc/sysctl.d/.90-x.conf",
		"/etc/sysctl.d/90-x.cfg", "/etc/sysctl.d/.conf",
		"/etc/sysctl.d/90 x.conf", "/etc/sysctl.d/$(x).conf",
		"/etc/sysctl.d/", NULL,
	};
	char	*cause = NULL;
	size_t	 i;

	(void)state;
	for (i = 0; bad[i] != NULL; i++) {
		assert_int_equal(hostline_dropin_path(bad[i], &cause), -1);
		free(cause);
		cause = NULL;
	}
	assert_int_equal(hostline_dropin_path("/etc/sysctl.d/90-tcptune.conf",
	    NULL), 0);
	assert_int_equal(hostline_dropin_path("/etc/sysctl.d/95-wan.conf",
	    NULL), 0);
	assert_int_equal(hostline_path("/var/lib/tcptune", NULL), 0);
	/* a directory's trailing '/' is a role's way to write it */
	assert_int_equal(hostline_path("/var/lib/tcptune/", NULL), 0);
	assert_int_equal(hostline_path("/var/lib//tcptune", &cause), -1);
	assert_string_equal(cause, "path has an empty component ('//'): "
	    "'/var/lib//tcptune'");
	free(cause);
	cause = NULL;
	assert_int_equal(hostline_path("/var/lib/tcptune//", &cause), -1);
	free(cause);
}

static void
test_words(void **state)
{
	char *cause = NULL;

	(void)state;
	assert_int_equal(hostline_words("tcp_bbr sch_fq", "module", NULL), 0);
	assert_int_equal(hostline_words("initcwnd 10 initrwnd 10",
	    "route option", NULL), 0);
	assert_int_equal(hostline_word("eth0.100", "interface", NULL), 0);
	assert_int_equal(hostline_word("-f", "interface", &cause), -1);
	assert_string_equal(cause, "interface starts with '-' (it would read "
	    "as an option): '-f'");
	free(cause);
	cause = NULL;
	assert_int_equal(hostline_words("tcp_bbr;reboot", "module", &cause),
	    -1);
	free(cause);
	cause = NULL;
	assert_int_equal(hostline_words("tcp_bbr\nsch_fq", "module", &cause),
	    -1);
	free(cause);
	cause = NULL;
	assert_int_equal(hostline_words("tcp_bbr  sch_fq", "module", &cause),
	    -1);
	free(cause);
}

/* The renderer refuses instead of writing a second key. */
static void
test_dropin_render_refuses(void **state)
{
	struct dropin	 d;
	char		*cause = NULL, *text;
	size_t		 i;

	(void)state;
	for (i = 0; hostile_values[i] != NULL; i++) {
		dropin_init(&d);
		dropin_set(&d, "net.core.rmem_max", hostile_values[i], "r");
		assert_null(dropin_render(&d, "p.yml", NULL, &cause));
		assert_non_null(strstr(cause,
		    "'/etc/sysctl.d/90-tcptune.conf': value "));
		free(cause);
		cause = NULL;
		dropin_free(&d);
	}
	dropin_init(&d);
	dropin_set(&d, "net.core.rmem_max", "131072", "line one\nline\rtwo");
	assert_null(dropin_render(&d, "p.yml", NULL, &cause));
	assert_non_null(strstr(cause, "reason has a carriage return"));
	free(cause);
	cause = NULL;
	dropin_set(&d, "net.core.rmem_max", "131072", "line one\nline two");
	assert_null(dropin_render(&d, "p.yml\nnet.ipv4.tcp_rmem = 1 1 1",
	    NULL, &cause));
	assert_non_null(strstr(cause, "playbook name has a line feed"));
	free(cause);
	cause = NULL;
	assert_null(dropin_render(&d, "p.yml",
	    "/etc/sysctl.d/90-x.conf\nnet.ipv4.tcp_rmem = 1 1 1", &cause));
	free(cause);
	cause = NULL;
	text = dropin_render(&d, "p.yml", NULL, &cause);
	assert_non_null(text);
	assert_string_equal(text, "# Managed by tcptune \xe2\x80\x94 do not "
	    "edit; changes are overwritten.\n# Playbook: p.yml\n# Apply: "
	    "sysctl -p /etc/sysctl.d/90-tcptune.conf   Roll back: tcptune "
	    "rollback\n\n# line one\n# line two\nnet.core.rmem_max = 131072\n");
	free(text);
	dropin_free(&d);
}

/* A task's parameters, by the kinds its module declares. */
static const struct module_param gate_params[] = {
	{ .name = "values", .type = PARAM_MAP,
	  .host_line = HOSTLINE_SYSCTL_MAP },
	{ .name = "sysctl_file", .type = PARAM_PATH,
	  .host_line = HOSTLINE_DROPIN_PATH },
	{ .name = "algorithm", .type = PARAM_STR,
	  .host_line = HOSTLINE_WORD },
	{ .name = "note", .type = PARAM_STR },
	{ .name = NULL },
};
static const struct module gate_module = { .name = "gate",
	.params = gate_params };

static void
expect_refused(const char *args_json, const char *vars_json,
    const char *msg)
{
	json_t	*args = json_loads(args_json, JSON_ALLOW_NUL, NULL);
	json_t	*vars = vars_json != NULL ? json_loads(vars_json, 0, NULL) :
	    json_object();
	char	*cause = NULL;

	assert_non_null(args);
	assert_non_null(vars);
	assert_int_equal(hostline_check_args(&gate_module, args, vars,
	    &cause), -1);
	assert_string_equal(cause, msg);
	free(cause);
	json_decref(args);
	json_decref(vars);
}

static void
test_check_args(void **state)
{
	json_t *args, *vars = json_object();

	(void)state;
	expect_refused("{\"values\": {\"net.core.rmem_max\": "
	    "\"131072\\nnet.ipv4.tcp_rmem = 4096 4096 4096\"}}", NULL,
	    "values['net.core.rmem_max']: value has a line feed (U+000A) at "
	    "byte 6: '131072\\nnet.ipv4.tcp_rmem = 4096 4096 409…'");
	expect_refused("{\"values\": {\"net.core.rmem_max\": "
	    "\"131072\\u0000net.ipv4.tcp_rmem = 1\"}}", NULL,
	    "values['net.core.rmem_max']: has a NUL byte (U+0000)");
	expect_refused("{\"values\": {\"kernel.x\\nnet.y\": \"1\"}}", NULL,
	    "values['kernel.x\\nnet.y']: sysctl key has a line feed (U+000A) "
	    "at byte 8: 'kernel.x\\nnet.y'");
	expect_refused("{\"sysctl_file\": \"/etc/sysctl.d/../cron.d/x.conf\"}",
	    NULL, "sysctl_file: path has a '.' or '..' component: "
	    "'/etc/sysctl.d/../cron.d/x.conf'");
	expect_refused("{\"sysctl_file\": \"/etc/sysctl.d/90-tcptune.conf\"}",
	    "{\"tcptune_sysctl_file\": \"/etc/sysctl.d/9.conf\\n# x\"}",
	    "var tcptune_sysctl_file: path has a line feed (U+000A) at byte "
	    "20: '/etc/sysctl.d/9.conf\\n# x'");
	/* A clean map first must not end the check early. */
	expect_refused("{\"values\": {\"net.core.rmem_max\": \"1\"}, "
	    "\"sysctl_file\": \"/etc/sysctl.d/x.conf\\n# x\"}", NULL,
	    "sysctl_file: path has a line feed (U+000A) at byte 20: "
	    "'/etc/sysctl.d/x.conf\\n# x'");
	expect_refused("{\"values\": {}}",
	    "{\"tcptune_sysctl_file\": \"/etc/passwd\"}",
	    "var tcptune_sysctl_file: drop-in path is not a file directly in "
	    "/etc/sysctl.d/: '/etc/passwd'");
	expect_refused("{\"algorithm\": \"bbr; reboot\"}", NULL,
	    "algorithm: name has ';' (only letters, digits and _.:@+- are "
	    "allowed): 'bbr; reboot'");
	/* A parameter that never becomes a host line is not this gate's. */
	args = json_pack("{s:{s:s, s:i}, s:s, s:s, s:s}", "values",
	    "net.ipv4.tcp_rmem", "4096 131072 6291456", "net.core.rmem_max",
	    4194304, "sysctl_file", "/etc/sysctl.d/90-tcptune.conf",
	    "algorithm", "bbr", "note", "any\ntext");
	assert_int_equal(hostline_check_args(&gate_module, args, vars, NULL),
	    0);
	json_decref(args);
	json_decref(vars);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_paths),
		cmocka_unit_test(test_words),
		cmocka_unit_test(test_dropin_render_refuses),
		cmocka_unit_test(test_check_args),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
