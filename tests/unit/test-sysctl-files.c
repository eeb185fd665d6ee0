/* A task that leaves a sysctl file's text on a host: which of its keys
 * another boot file wins (modules/sysctl-files.c), and which paths are
 * boot sysctl files at all (sysctld_config_path). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/strbuf.h"
#include "modules/sysctl-files.h"
#include "modules/tune.h"
#include "remote/sysctld.h"
#include "tune/dropin.h"

static void
test_config_path(void **state)
{
	const char *dir = "x";

	(void)state;
	assert_true(sysctld_config_path("/etc/sysctl.conf", &dir));
	assert_null(dir);
	assert_true(sysctld_config_path("/etc/sysctl.d/60-role.conf", &dir));
	assert_string_equal(dir, "/etc/sysctl.d");
	assert_true(sysctld_config_path("/usr/lib/sysctl.d/50-a.conf", &dir));
	assert_string_equal(dir, "/usr/lib/sysctl.d");
	assert_true(sysctld_config_path("/run/sysctl.d/a.conf", NULL));
	/* Not applied at boot: another suffix, a subdirectory, no name, a
	 * look-alike directory. */
	assert_false(sysctld_config_path("/etc/sysctl.d/60-role.conf.bak",
	    &dir));
	assert_null(dir);
	assert_false(sysctld_config_path("/etc/sysctl.d/sub/a.conf", NULL));
	assert_false(sysctld_config_path("/etc/sysctl.d/.conf", NULL));
	assert_false(sysctld_config_path("/etc/sysctl.dx/a.conf", NULL));
	assert_false(sysctld_config_path("/etc/hosts", NULL));
	assert_false(sysctld_config_path("sysctl.conf", NULL));
}

/* A Debian host as the probe reports it: 99-zzz.conf sets tcp_rmem,
 * 99-sysctl.conf links to ../sysctl.conf, which sets somaxconn. */
static json_t *
facts(void)
{
	return json_pack("{s:[{s:s, s:s, s:[{s:s, s:s}]}, "
	    "{s:s, s:s, s:s, s:[{s:s, s:s}]}, {s:n, s:s, s:[{s:s, s:s}]}]}",
	    "sysctl_files",
	    "dir", "/etc/sysctl.d", "path", "/etc/sysctl.d/99-zzz.conf",
	    "entries", "key", "net.ipv4.tcp_rmem", "value", "4096 87380 6291456",
	    "dir", "/etc/sysctl.d", "path", "/etc/sysctl.d/99-sysctl.conf",
	    "link", "../sysctl.conf", "entries", "key", "net.core.somaxconn",
	    "value", "1024",
	    "dir", "path", "/etc/sysctl.conf", "entries", "key",
	    "net.core.somaxconn", "value", "1024");
}

static void
test_overrides(void **state)
{
	json_t		*f = facts(), *o;
	struct strbuf	 sb;

	(void)state;
	/* A role's file: tcp_rmem lost to 99-zzz.conf (in any spelling),
	 * somaxconn to sysctl.conf (last of all); tcp_wmem is its own. */
	o = sysctl_files_overrides(f, "/etc/sysctl.d/60-role.conf",
	    "# role\n  net/ipv4/tcp_rmem = 4096 131072 8388608\n"
	    "net.ipv4.tcp_wmem=4096 16384 8388608\n"
	    "-net.core.somaxconn = 4096\n; comment\nnot a line\n");
	assert_non_null(o);
	assert_int_equal(json_array_size(o), 2);
	assert_string_equal(json_string_value(json_object_get(json_array_get(o,
	    0), "key")), "net.ipv4.tcp_rmem");
	assert_string_equal(json_string_value(json_object_get(json_array_get(o,
	    0), "overridden_by")), "/etc/sysctl.d/99-zzz.conf");
	assert_string_equal(json_string_value(json_object_get(json_array_get(o,
	    1), "overridden_by")), "/etc/sysctl.conf");
	strbuf_init(&sb);
	sysctl_files_warn(&sb, o);
	assert_string_equal(sb.buf, "; warning: '/etc/sysctl.d/99-zzz.conf' "
	    "also sets net.ipv4.tcp_rmem and wins at boot; warning: "
	    "'/etc/sysctl.conf' also sets net.core.somaxconn and wins at boot");
	strbuf_release(&sb);
	json_decref(o);

	/* The file that wins itself, a new one included, and the file the
	 * winner links to: nothing to say. */
	assert_null(sysctl_files_overrides(f, "/etc/sysctl.d/99-zzzz.conf",
	    "net.ipv4.tcp_rmem = 1 2 3\n"));
	assert_null(sysctl_files_overrides(f, "/etc/sysctl.conf",
	    "net.core.somaxconn = 4096\nnet.ipv4.tcp_rmem = 1 2 3\n"));
	/* 99-zzz.conf itself, rewritten without the key: nobody else sets
	 * it. */
	assert_null(sysctl_files_overrides(f, "/etc/sysctl.d/99-zzz.conf",
	    "net.ipv4.tcp_wmem = 1 2 3\n"));
	/* Not a boot sysctl file, no facts (gather_facts: false), an empty
	 * text. */
	assert_null(sysctl_files_overrides(f, "/etc/sysctl.d/a.conf.bak",
	    "net.ipv4.tcp_rmem = 1 2 3\n"));
	assert_null(sysctl_files_overrides(NULL, "/etc/sysctl.d/60-role.conf",
	    "net.ipv4.tcp_rmem = 1 2 3\n"));
	assert_null(sysctl_files_overrides(f, "/etc/sysctl.d/60-role.conf",
	    ""));
	json_decref(f);
}

static void
test_stage(void **state)
{
	struct stage st;

	(void)state;
	sysctl_files_stage("/etc/sysctl.d/60-role.conf",
	    "  -net/ipv4/conf/eth0.1/rp_filter = 1  \n= x\n#k=v\nk2 =\n", &st);
	assert_string_equal(st.file, "/etc/sysctl.d/60-role.conf");
	assert_int_equal(st.dropin.n, 2);
	assert_string_equal(dropin_get(&st.dropin,
	    "net.ipv4.conf.eth0/1.rp_filter"), "1");
	assert_string_equal(dropin_get(&st.dropin, "k2"), "");
	dropin_free(&st.dropin);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_config_path),
		cmocka_unit_test(test_overrides),
		cmocka_unit_test(test_stage),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
