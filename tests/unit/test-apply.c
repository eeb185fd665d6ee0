/* The apply round trip's controller side: the command that runs
 * lib/remote/apply.sh, and the parser of its output when a step failed (hand-written
 * outputs, and the script itself run by dash in a temporary root whose
 * backup is missing). A failed step must reach the result, never read as
 * "restored" or "undone". */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "remote/apply.h"
#include "base/shquote.h"
#include "base/strbuf.h"

static void
parse_ok(const char *out, struct apply_result *res)
{
	char *cause = NULL;

	if (apply_parse(out, strlen(out), res, &cause) != 0)
		fail_msg("apply_parse: %s", cause);
}

/* The host's environment never reaches the script's test hook, and every
 * input is a named, quoted value in the program's header. */
static void
test_command(void **state)
{
	struct apply_request	 req;
	struct remote_call	 call;
	char			*header;
	const char		*input = "net.core.rmem_max = 1\n'; reboot; '\n";

	(void)state;
	memset(&req, 0, sizeof req);
	req.mode = APPLY_APPLY;
	req.file = "/etc/sysctl.d/90-tcptune.conf";
	req.dev = "eth0";
	req.modules = "tcp_bbr sch_fq";
	apply_call(&req, input, &call);
	/* The command line: short, the same for every apply, no value in
	 * it (sudo logs it, ps shows it). */
	assert_string_equal(call.command,
	    "env TCPTUNE_TEST_ROOT= sh -c 'eval \"$(cat)\"' tcptune-apply");
	/* The program: one brace group, the header first. */
	assert_int_equal(call.program_len, strlen(call.program));
	header = "{\nMODE='apply'\nFILE='/etc/sysctl.d/90-tcptune.conf'\n"
	    "STATE='/var/lib/tcptune'\nQDISC=''\nDEV='eth0'\nTXQ=''\n"
	    "MODULES='tcp_bbr sch_fq'\nROUTE=''\nPROBE=''\nPERSIST=''\n"
	    "TO=''\n";
	assert_int_equal(strncmp(call.program, header, strlen(header)), 0);
	/* The new file is a quoted value of the header. */
	assert_non_null(strstr(call.program, "\nINPUT='net.core.rmem_max = "
	    "1\n'\\''; reboot; '\\''\n'\n"));
	assert_string_equal(call.program + call.program_len - 3, "\n}\n");
	remote_call_clear(&call);
}

/* The probe after an apply reads again what the apply can have changed:
 * the sysctls always, the links and routes with a qdisc or a route, the
 * modules with a module (tune_refresh_facts keeps the rest). */
static void
test_reread(void **state)
{
	static const struct {
		const char		*qdisc, *route, *modules, *only;
		enum probe_reread	 what;
	} cases[] = {
		{ NULL, NULL, NULL, "ONLY='\\''sysctl'\\''", PROBE_SYSCTL },
		{ "", "", "", "ONLY='\\''sysctl'\\''", PROBE_SYSCTL },
		{ "fq", NULL, NULL, "ONLY='\\''net'\\''", PROBE_NET },
		{ NULL, "initcwnd 10", NULL, "ONLY='\\''net'\\''", PROBE_NET },
		{ "fq", NULL, "tcp_bbr", "ONLY='\\''net modules'\\''",
		    PROBE_NET_MODULES },
	};
	struct apply_request	 req;
	struct remote_call	 call;
	size_t			 i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		memset(&req, 0, sizeof req);
		req.mode = APPLY_APPLY;
		req.file = "/etc/sysctl.d/90-tcptune.conf";
		req.qdisc = cases[i].qdisc;
		req.route_opts = cases[i].route;
		req.modules = cases[i].modules;
		req.reprobe = 1;
		assert_int_equal(apply_reread(&req), cases[i].what);
		apply_call(&req, NULL, &call);
		/* PROBE is the probe's program, quoted in the header. */
		if (strstr(call.program, cases[i].only) == NULL)
			fail_msg("case %zu: no %s in the program", i,
			    cases[i].only);
		remote_call_clear(&call);
	}
}

static void
test_rollback_failed(void **state)
{
	struct apply_result res;

	(void)state;
	parse_ok("tcptune-apply 1\n@old\nexists=1\n|a = 1\n@rollback\n"
	    "error=cannot restore /e/90.conf from /s/b/orig: No space left on "
	    "device\nstatus=failed\n@done\n", &res);
	assert_string_equal(res.step_error, "cannot restore /e/90.conf from "
	    "/s/b/orig: No space left on device");
	assert_string_equal(res.rollback_status, "failed");
	assert_null(res.rollback_file);
	assert_int_equal(res.nkeys, 0);
	apply_result_clear(&res);

	/* Failures after the keys come in a second @rollback section. */
	parse_ok("tcptune-apply 1\n@old\nexists=0\n@rollback\nfile=removed\n"
	    "@key a.b\nwant=1\nbefore=2\nchanged=1\nlive=1\n@rollback\n"
	    "error=cannot restore the default route x: y\nstatus=failed\n"
	    "@done\n", &res);
	assert_string_equal(res.step_error, "cannot restore the default "
	    "route x: y");
	assert_string_equal(res.rollback_status, "failed");
	assert_int_equal(res.nkeys, 1);
	assert_null(res.keys[0].error);
	apply_result_clear(&res);
}

static void
test_undo(void **state)
{
	struct apply_result res;

	(void)state;
	parse_ok("tcptune-apply 1\n@old\nexists=1\n|a = 1\n@write\n"
	    "status=written\n@key a\nwant=x\nbefore=1\nerror=Invalid argument\n"
	    "live=1\n@undo\nerror=cannot put back the previous /e/90.conf: No "
	    "space left on device\nerror=cannot put back b = 2: Read-only "
	    "file system\nstatus=failed\n@done\n", &res);
	assert_int_equal(res.undone, 0);
	assert_string_equal(res.step_error, "cannot put back the previous "
	    "/e/90.conf: No space left on device; cannot put back b = 2: "
	    "Read-only file system");
	assert_string_equal(res.keys[0].error, "Invalid argument");
	apply_result_clear(&res);

	parse_ok("tcptune-apply 1\n@old\nexists=1\n|a = 1\n@write\n"
	    "status=written\n@undo\nfile=restored\nstatus=undone\n@done\n",
	    &res);
	assert_int_equal(res.undone, 1);
	assert_null(res.step_error);
	apply_result_clear(&res);
}

static void
test_other_steps(void **state)
{
	struct apply_result res;

	(void)state;
	parse_ok("tcptune-apply 1\n@old\nexists=1\nerror=cannot read /e/90."
	    "conf: Permission denied\n@write\nerror=cannot save a backup in "
	    "/s/b: Read-only file system\n@done\n", &res);
	assert_string_equal(res.step_error, "cannot read /e/90.conf: "
	    "Permission denied");
	assert_string_equal(res.write_error, "cannot save a backup in /s/b: "
	    "Read-only file system");
	assert_int_equal(res.written, 0);
	apply_result_clear(&res);

	parse_ok("tcptune-apply 1\n@old\nexists=0\n@write\nstatus=none\n"
	    "@module tcp_*\nerror=refused module name 'tcp_*' (only letters, "
	    "digits, '_' and '-')\n@module sch_fq\nloaded=1\nerror=cannot "
	    "persist sch_fq in /etc/modules-load.d/tcptune.conf: File exists\n"
	    "@state\nerror=cannot record the state before this apply in /s/b: "
	    "No space left on device\n@done\n", &res);
	assert_string_equal(res.module_error, "refused module name 'tcp_*' "
	    "(only letters, digits, '_' and '-'); cannot persist sch_fq in "
	    "/etc/modules-load.d/tcptune.conf: File exists");
	assert_string_equal(res.step_error, "cannot record the state before "
	    "this apply in /s/b: No space left on device");
	apply_result_clear(&res);
}

/* How every remote command starts: sh, the test hook cleared. */
#define HOOK_CLEARED "env TCPTUNE_TEST_ROOT= sh"

/* The embedded script, run by dash in a temporary root, rolls back with a
 * backup that lost its copy of the file: the parser says so. */
static void
test_script_missing_backup(void **state)
{
	struct apply_request	 req;
	struct apply_result	 res;
	struct strbuf		 cmd, out;
	struct remote_call	 call;
	char			 root[] = "/tmp/tcptune-test-apply-XXXXXX";
	char			 file[64], st[64], bdir[256], p[512];
	char			 want[1024], buf[4096];
	size_t			 i, l;
	FILE			*f;
	size_t			 n;

	(void)state;
	if (system("command -v dash >/dev/null 2>&1") != 0)
		skip();
	assert_non_null(mkdtemp(root));
	snprintf(file, sizeof file, "%s/90-tcptune.conf", root);
	f = fopen(file, "w");
	assert_non_null(f);
	fputs("a.b = 1\n", f);
	fclose(f);
	/* The backup of FILE: its live values, but no "orig" or "absent". */
	snprintf(st, sizeof st, "%s/state", root);
	assert_int_equal(mkdir(st, 0755), 0);
	snprintf(p, sizeof p, "%s/backup", st);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(bdir, sizeof bdir, "%s/backup/", st);
	l = strlen(bdir);
	for (i = 0; file[i] != '\0'; i++)
		bdir[l + i] = file[i] == '/' ? '_' : file[i];
	bdir[l + i] = '\0';
	assert_int_equal(mkdir(bdir, 0755), 0);
	snprintf(p, sizeof p, "%s/live", bdir);
	f = fopen(p, "w");
	assert_non_null(f);
	fclose(f);

	/* The command itself, its shell dash and the test hook set. */
	memset(&req, 0, sizeof req);
	req.mode = APPLY_ROLLBACK;
	req.file = file;
	req.state_dir = st;
	apply_call(&req, NULL, &call);
	assert_int_equal(strncmp(call.command, HOOK_CLEARED,
	    strlen(HOOK_CLEARED)), 0);
	snprintf(p, sizeof p, "%s/program", root);
	f = fopen(p, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(call.program, 1, call.program_len, f),
	    call.program_len);
	assert_int_equal(fclose(f), 0);
	strbuf_init(&cmd);
	strbuf_addstr(&cmd, "cd / && TCPTUNE_TEST_ROOT=");
	shquote_add(&cmd, root);
	strbuf_addstr(&cmd, " dash");
	strbuf_addstr(&cmd, call.command + strlen(HOOK_CLEARED));
	strbuf_addstr(&cmd, " <");
	shquote_add(&cmd, p);
	remote_call_clear(&call);
	f = popen(cmd.buf, "r");
	assert_non_null(f);
	strbuf_init(&out);
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		strbuf_add(&out, buf, n);
	assert_int_equal(pclose(f), 0);

	parse_ok(out.buf, &res);
	snprintf(want, sizeof want, "cannot restore %s from %s/orig: No such "
	    "file or directory", file, bdir);
	assert_string_equal(res.step_error, want);
	assert_string_equal(res.rollback_status, "failed");
	assert_null(res.rollback_file);
	apply_result_clear(&res);

	/* Nothing was touched: the file and the backup are there. */
	f = fopen(file, "r");
	assert_non_null(f);
	assert_non_null(fgets(buf, sizeof buf, f));
	assert_string_equal(buf, "a.b = 1\n");
	fclose(f);
	snprintf(p, sizeof p, "%s/live", bdir);
	assert_int_equal(access(p, F_OK), 0);
	snprintf(p, sizeof p, "rm -rf '%s'", root);
	assert_int_equal(system(p), 0);
	strbuf_release(&cmd);
	strbuf_release(&out);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_command),
		cmocka_unit_test(test_reread),
		cmocka_unit_test(test_rollback_failed),
		cmocka_unit_test(test_undo),
		cmocka_unit_test(test_other_steps),
		cmocka_unit_test(test_script_missing_backup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
