/* The confirmation of a live change, controller side: when an apply is
 * confirmed and within how long (tune_confirm_seconds), the task's words
 * when the host reverted by itself, the apply program that arms the revert
 * (the revert's own program travels as a value; a plain apply carries
 * none), the confirm call, and the @confirm section of the answers. */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "modules/tune-confirm.h"
#include "modules/tune.h"
#include "remote/apply.h"

static void
test_seconds(void **state)
{
	(void)state;
	/* Not given: sysctls alone are not confirmed, a qdisc or a route
	 * change is, within the default. */
	assert_int_equal(tune_confirm_seconds(-1, 0), 0);
	assert_int_equal(tune_confirm_seconds(-1, 1), CONFIRM_TIMEOUT_DEFAULT);
	/* Given: 0 is off even for a qdisc; N covers sysctls alone too. */
	assert_int_equal(tune_confirm_seconds(0, 1), 0);
	assert_int_equal(tune_confirm_seconds(30, 0), 30);
	assert_int_equal(tune_confirm_seconds(30, 1), 30);
}

/* A confirm attempt before the revert is due is bounded by the time left
 * (an attempt that outlasts it cannot confirm), after it by the host's. */
static void
test_connect_timeout(void **state)
{
	(void)state;
	/* 30 s left of a 30 s revert, host timeout 120: 31 s */
	assert_int_equal(tune_confirm_connect_timeout(1030, 1000, 120), 31);
	/* 2 s left: the floor */
	assert_int_equal(tune_confirm_connect_timeout(1002, 1000, 120),
	    CONFIRM_MIN_CONNECT);
	/* due, or past it: the host's own, to learn what it did */
	assert_int_equal(tune_confirm_connect_timeout(1000, 1000, 120), 120);
	assert_int_equal(tune_confirm_connect_timeout(990, 1000, 120), 120);
	/* more left than the host's timeout: the host's */
	assert_int_equal(tune_confirm_connect_timeout(1120, 1000, 10), 10);
	/* a host clock far ahead: the host's, never longer */
	assert_int_equal(tune_confirm_connect_timeout(1000 + 3600, 1000, 10),
	    10);
}

/* Armed by default only for a live change the plan makes: a converged
 * rerun (fq already on every planned interface, the route's options
 * live) arms nothing. */
static void
test_changes_live_net(void **state)
{
	struct stage	st;
	char		fq[] = "fq", dev[] = "eth0", opts[] = "initcwnd 10";

	(void)state;
	memset(&st, 0, sizeof st);
	assert_false(tune_changes_live_net(&st));
	st.qdisc = fq;
	assert_false(tune_changes_live_net(&st));	/* live everywhere */
	st.qplan.devs = dev;
	assert_true(tune_changes_live_net(&st));
	st.qdisc = NULL;
	st.route_opts = opts;
	assert_false(tune_changes_live_net(&st));	/* already live */
	st.route_changed = 1;
	assert_true(tune_changes_live_net(&st));
}

static void
test_messages(void **state)
{
	char	 buf[16], *m;

	(void)state;
	/* 2026-12-01 21:03:05 UTC */
	tune_confirm_clock(1796158985LL, buf, sizeof buf);
	assert_string_equal(buf, "21:03:05");
	tune_confirm_clock(0, buf, sizeof buf);
	assert_string_equal(buf, "?");
	m = tune_confirm_reverted_msg(1796158985LL, NULL);
	assert_string_equal(m, "connection lost after the change; the host "
	    "restored its previous state at 21:03:05");
	free(m);
	m = tune_confirm_reverted_msg(1796158985LL, "cannot restore /x: EIO");
	assert_string_equal(m, "connection lost after the change; the host "
	    "reverted it at 21:03:05, but not all of it: cannot restore /x: "
	    "EIO");
	free(m);
}

/* The programs apply_call builds, as fixed strings in their headers. */
static void
test_arm_call(void **state)
{
	struct apply_request	 req;
	struct remote_call	 call;
	const char		*rev;

	(void)state;
	memset(&req, 0, sizeof req);
	req.mode = APPLY_APPLY;
	req.file = "/etc/sysctl.d/90-tcptune.conf";
	req.dev = "eth0";
	req.qdisc = "fq";
	req.confirm = 120;
	req.token = "0123abcd0123abcd";
	apply_call(&req, "net.core.rmem_max = 1\n", &call);
	assert_non_null(strstr(call.program, "\nCONFIRM='120'\n"));
	assert_non_null(strstr(call.program, "\nTOKEN='0123abcd0123abcd'\n"));
	/* The revert's program: the same script as a revert, with no new
	 * file and no probe, quoted inside the header. */
	rev = strstr(call.program, "\nREVERT='");
	assert_non_null(rev);
	assert_non_null(strstr(rev, "MODE='\\''revert'\\''"));
	assert_non_null(strstr(rev, "CONFIRM='\\'''\\''"));
	assert_non_null(strstr(rev, "INPUT='\\'''\\''"));
	/* confirm.sh's functions come before apply.sh's dispatch. */
	assert_true(strstr(call.program, "\nconfirm_arm() {") <
	    strstr(call.program, "\nprintf 'tcptune-apply 1\\n'"));
	remote_call_clear(&call);

	/* No confirm: nothing armed, no revert program. */
	req.confirm = 0;
	apply_call(&req, "net.core.rmem_max = 1\n", &call);
	assert_non_null(strstr(call.program, "\nCONFIRM=''\n"));
	assert_non_null(strstr(call.program, "\nREVERT=''\n"));
	remote_call_clear(&call);

	/* The confirm call of a new connection: CANCEL and the token. */
	req.mode = APPLY_CONFIRM;
	req.cancel = 1;
	apply_call(&req, NULL, &call);
	assert_non_null(strstr(call.program, "{\nMODE='confirm'\n"));
	assert_non_null(strstr(call.program, "\nCANCEL='1'\n"));
	assert_non_null(strstr(call.program, "\nREVERT=''\n"));
	remote_call_clear(&call);
}

static void
test_parse(void **state)
{
	struct apply_result	 res;
	char			*cause = NULL;
	const char		*armed = "tcptune-apply 1\n@old\nexists=0\n"
	    "@confirm\ndue=1796158985\nhow=systemd\n@write\nstatus=written\n"
	    "@confirm\nstatus=armed\n@done\n";
	const char		*reverted = "tcptune-apply 1\n@confirm\n"
	    "status=reverted\nerror=cannot restore /x: EIO\nat=1796158990\n"
	    "@done\n";
	const char		*refused = "tcptune-apply 1\n@old\nexists=0\n"
	    "@confirm\nerror=a revert of an earlier unconfirmed apply is "
	    "pending in /var/lib/tcptune/confirm; nothing was changed\n@done\n";

	(void)state;
	assert_int_equal(apply_parse(armed, strlen(armed), &res, &cause), 0);
	assert_string_equal(res.confirm_status, "armed");
	assert_int_equal(res.confirm_due, 1796158985LL);
	assert_null(res.confirm_error);
	assert_int_equal(res.written, 1);
	apply_result_clear(&res);

	assert_int_equal(apply_parse(reverted, strlen(reverted), &res,
	    &cause), 0);
	assert_string_equal(res.confirm_status, "reverted");
	assert_int_equal(res.confirm_at, 1796158990LL);
	assert_string_equal(res.confirm_error, "cannot restore /x: EIO");
	/* Not a step of the apply: the confirm's own field only. */
	assert_null(res.step_error);
	apply_result_clear(&res);

	assert_int_equal(apply_parse(refused, strlen(refused), &res, &cause),
	    0);
	assert_null(res.confirm_status);
	assert_non_null(strstr(res.confirm_error, "is pending"));
	assert_int_equal(res.written, 0);
	apply_result_clear(&res);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seconds),
		cmocka_unit_test(test_connect_timeout),
		cmocka_unit_test(test_changes_live_net),
		cmocka_unit_test(test_messages),
		cmocka_unit_test(test_arm_call),
		cmocka_unit_test(test_parse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
