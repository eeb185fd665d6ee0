/* A check-mode apply of the tuning stage reads nothing of its own when the
 * probe's facts hold it (facts "dropin" for the same file, every staged
 * key in facts "sysctl"): the diff, the key table and drift's items come
 * from them. The host here cannot be reached, so a flush that sent a
 * command would come back unreachable: one that did not is proven to have
 * sent nothing. Where the facts lack a part (another file, a key the probe
 * does not read) the flush reads the host, as before. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "inventory/inventory.h"
#include "modules/tune.h"
#include "run/runner.h"

#define OLD	"# by hand\nnet.ipv4.tcp_rmem = 4096 87380 6291456\n"

struct fixture {
	struct inventory	*inv;
	struct run_config	 cfg;
	struct runner		 r;
	struct module_ctx	 ctx;
};

static json_t *
facts(const char *dropin_path, int exists)
{
	return json_pack("{s:{s:{s:b, s:s, s:b}, s:{s:b}}, s:{s:s, s:b, s:s?}}",
	    "sysctl",
	    "net.ipv4.tcp_rmem", "present", 1, "value", "4096 131072 212992",
	    "writable", 1,
	    "net.ipv4.tcp_no_such", "present", 0,
	    "dropin", "path", dropin_path, "exists", exists, "text",
	    exists ? OLD : NULL);
}

static struct fixture *
setup(int drift, json_t *f)
{
	struct fixture		*fx = calloc(1, sizeof *fx);
	struct host_state	*h;
	char			*cause = NULL;

	fx->inv = inventory_new();
	assert_int_equal(inventory_add_source(fx->inv, "a,", &cause), 0);
	assert_int_equal(inventory_finish(fx->inv, &cause), 0);
	fx->cfg.forks = 1;
	fx->cfg.check = 1;
	fx->cfg.diff = 1;
	fx->cfg.drift = drift;
	assert_int_equal(runner_init(&fx->r, &fx->cfg, fx->inv, &cause), 0);
	h = runner_host(&fx->r, "a");
	/* Any command would fail at once, and say so. */
	h->unreachable = 1;
	h->unreachable_msg = strdup("no such host (the test sent a command)");
	h->facts = f;
	fx->ctx.run = &fx->r;
	fx->ctx.host = h;
	fx->ctx.vars = json_object();
	fx->ctx.check = 1;
	fx->ctx.diff = 1;
	return fx;
}

static void
teardown(struct fixture *fx)
{
	json_decref(fx->ctx.vars);
	runner_free(&fx->r);
	inventory_free(fx->inv);
	free(fx);
}

static struct stage *
stage(const char *key, const char *value)
{
	struct stage *st = calloc(1, sizeof *st);

	st->file = strdup(TUNE_DEFAULT_FILE);
	dropin_init(&st->dropin);
	dropin_set(&st->dropin, key, value, "the test");
	return st;
}

static void
flush(struct fixture *fx, struct stage *st, struct module_result *res)
{
	memset(res, 0, sizeof *res);
	tune_stager.flush(&fx->ctx, st, res);
	tune_stager.free(st);
}

static void
test_plan_from_facts(void **state)
{
	struct fixture		*fx = setup(0, facts(TUNE_DEFAULT_FILE, 1));
	struct module_result	 res;

	(void)state;
	flush(fx, stage("net.ipv4.tcp_rmem", "4096 131072 4194304"), &res);
	assert_int_equal(res.status, RESULT_CHANGED);
	assert_string_equal(res.msg, "would write " TUNE_DEFAULT_FILE
	    " (1 key)");
	/* the file as the probe read it, comments too */
	assert_non_null(strstr(res.diff, "\n-# by hand\n"));
	assert_non_null(strstr(res.diff,
	    "\n-net.ipv4.tcp_rmem = 4096 87380 6291456\n"));
	assert_non_null(strstr(res.diff,
	    "\n+net.ipv4.tcp_rmem = 4096 131072 4194304\n"));
	/* the live value, from facts.sysctl */
	assert_non_null(strstr(res.diff, "4096 131072 212992 -> "
	    "4096 131072 4194304"));
	assert_int_equal(fx->r.hosts[0]->stats.round_trips, 0);
	module_result_clear(&res);
	teardown(fx);
}

static void
test_drift_from_facts(void **state)
{
	struct fixture		*fx = setup(1, facts(TUNE_DEFAULT_FILE, 1));
	struct module_result	 res;
	const json_t		*item;

	(void)state;
	flush(fx, stage("net.ipv4.tcp_rmem", "4096 131072 4194304"), &res);
	assert_int_equal(res.status, RESULT_CHANGED);
	item = json_array_get(json_object_get(res.data, "drift"), 0);
	assert_string_equal(json_string_value(json_object_get(item, "cause")),
	    "file edited");
	assert_string_equal(json_string_value(json_object_get(item, "live")),
	    "4096 87380 6291456");
	module_result_clear(&res);
	teardown(fx);
}

static void
test_missing_file_and_absent_key(void **state)
{
	struct fixture		*fx = setup(0, facts(TUNE_DEFAULT_FILE, 0));
	struct module_result	 res;

	(void)state;
	flush(fx, stage("net.ipv4.tcp_no_such", "1"), &res);
	assert_int_equal(res.status, RESULT_CHANGED);
	assert_non_null(strstr(res.diff, "--- /dev/null"));
	assert_non_null(strstr(res.diff, "net.ipv4.tcp_no_such"));
	module_result_clear(&res);
	teardown(fx);
}

/* What the facts cannot answer is read from the host: here, unreachable. */
static void
test_reads_the_host_otherwise(void **state)
{
	struct fixture		*fx;
	struct module_result	 res;

	(void)state;
	fx = setup(0, facts("/etc/sysctl.d/80-other.conf", 1));
	flush(fx, stage("net.ipv4.tcp_rmem", "1 2 3"), &res);
	assert_int_equal(res.status, RESULT_UNREACHABLE);
	module_result_clear(&res);
	teardown(fx);
	fx = setup(0, facts(TUNE_DEFAULT_FILE, 1));
	flush(fx, stage("net.ipv4.tcp_fastopen", "3"), &res);
	assert_int_equal(res.status, RESULT_UNREACHABLE);
	module_result_clear(&res);
	teardown(fx);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan_from_facts),
		cmocka_unit_test(test_drift_from_facts),
		cmocka_unit_test(test_missing_file_and_absent_key),
		cmocka_unit_test(test_reads_the_host_otherwise),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
