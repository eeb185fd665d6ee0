/* Check mode is enforced by the core, not by each module's good behaviour:
 * a deliberately writing module run through the runner in check mode never
 * reaches its write; it plans when it can and is skipped otherwise. And the
 * core's own writing path (the apply script) refuses a write asked for in
 * check mode before anything is sent. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "inventory/inventory.h"
#include "playbook/module.h"
#include "run/runner.h"
#include "modules/tune.h"

static char	marker[64];	/* the file the writing module creates */
/* Counted from the runner's worker threads (forks = 2): atomic, or two
 * hosts' increments can collide and one is lost. */
static atomic_int	runs, plans;

/* A module that writes (on the controller, where the test can see it). */
static int
writer_run(struct module_ctx *ctx, const void *conf,
    struct module_result *res)
{
	FILE *f = fopen(marker, "a");

	(void)ctx;
	(void)conf;
	runs++;
	if (f != NULL) {
		fputs("written\n", f);
		fclose(f);
	}
	res->status = RESULT_CHANGED;
	res->msg = strdup("wrote");
	return 0;
}

static int
writer_plan(struct module_ctx *ctx, const void *conf,
    struct module_result *res)
{
	(void)ctx;
	(void)conf;
	plans++;
	res->status = RESULT_CHANGED;
	res->msg = strdup("would write");
	return 0;
}

static const struct module_param no_params[] = { { .name = NULL } };

/* Declares nothing about check mode: the default must be safe. */
static const struct module writer_no_plan = { .name = "writer",
	.params = no_params, .run = writer_run };
static const struct module writer_with_plan = { .name = "writer",
	.params = no_params, .run = writer_run, .plan = writer_plan };
/* A reader: check mode may call its run. */
static const struct module reader = { .name = "reader", .params = no_params,
	.run = writer_run, .check_safe = 1 };

struct fixture {
	struct inventory	*inv;
	struct run_config	 cfg;
	struct runner		 r;
};

static struct fixture *
setup_run(int check)
{
	struct fixture	*f = calloc(1, sizeof *f);
	char		*cause = NULL;

	snprintf(marker, sizeof marker, "/tmp/tcptune-check-mode.%ld",
	    (long)getpid());
	unlink(marker);
	atomic_store(&runs, 0);
	atomic_store(&plans, 0);
	f->inv = inventory_new();
	assert_int_equal(inventory_add_source(f->inv, "a,b,", &cause), 0);
	assert_int_equal(inventory_finish(f->inv, &cause), 0);
	f->cfg.forks = 2;
	f->cfg.check = check;
	f->cfg.hostkey_mode = TP_HOSTKEY_STRICT;
	assert_int_equal(runner_init(&f->r, &f->cfg, f->inv, &cause), 0);
	return f;
}

static void
teardown_run(struct fixture *f)
{
	runner_free(&f->r);
	inventory_free(f->inv);
	free(f);
	unlink(marker);
}

static const struct task_result *
result_of(struct fixture *f, const char *host)
{
	struct host_state *h = runner_host(&f->r, host);

	assert_non_null(h);
	assert_int_equal(h->nresults, 1);
	return &h->results[0];
}

static void
test_check_never_reaches_the_write(void **state)
{
	struct fixture	*f = setup_run(1);
	char		*cause = NULL;

	(void)state;
	assert_int_equal(runner_adhoc(&f->r, "all", &writer_no_plan, NULL,
	    &cause), 0);
	assert_int_equal(runs, 0);
	assert_int_equal(access(marker, F_OK), -1);
	assert_int_equal(result_of(f, "a")->status, RESULT_SKIPPED);
	assert_string_equal(result_of(f, "b")->msg, "skipped in check mode: "
	    "'writer' changes the host and cannot plan");
	teardown_run(f);
}

static void
test_check_calls_the_plan(void **state)
{
	struct fixture	*f = setup_run(1);
	char		*cause = NULL;

	(void)state;
	assert_int_equal(runner_adhoc(&f->r, "all", &writer_with_plan, NULL,
	    &cause), 0);
	assert_int_equal(runs, 0);
	assert_int_equal(plans, 2);
	assert_int_equal(access(marker, F_OK), -1);
	assert_string_equal(result_of(f, "a")->msg, "would write");
	teardown_run(f);
}

/* The same modules outside check mode do write, so the tests above can
 * fail; a check-safe module runs in check mode. */
static void
test_run_writes(void **state)
{
	struct fixture	*f = setup_run(0);
	char		*cause = NULL;

	(void)state;
	assert_int_equal(runner_adhoc(&f->r, "all", &writer_with_plan, NULL,
	    &cause), 0);
	assert_int_equal(runs, 2);
	assert_int_equal(plans, 0);
	assert_int_equal(access(marker, F_OK), 0);
	teardown_run(f);

	f = setup_run(1);
	assert_int_equal(runner_adhoc(&f->r, "all", &reader, NULL, &cause), 0);
	assert_int_equal(runs, 2);
	teardown_run(f);
}

/* The core's writing path itself: a rollback (or apply) asked for in a
 * check-mode context is refused before a command is built or sent (the
 * hosts of this run do not exist: a send would fail differently). */
static void
test_apply_refuses_writes_in_check_mode(void **state)
{
	struct fixture		*f = setup_run(1);
	struct module_ctx	 ctx;
	struct module_result	 res;

	(void)state;
	memset(&ctx, 0, sizeof ctx);
	memset(&res, 0, sizeof res);
	ctx.run = &f->r;
	ctx.host = runner_host(&f->r, "a");
	ctx.check = 1;
	tune_rollback(&ctx, "/etc/sysctl.d/90-tcptune.conf", 0, 0, &res);
	assert_int_equal(res.status, RESULT_FAILED);
	assert_string_equal(res.msg, "refused: a change was asked for in "
	    "check mode (a bug in the module that asked; nothing was sent)");
	assert_null(ctx.host->tp_handle);
	module_result_clear(&res);
	teardown_run(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check_never_reaches_the_write),
		cmocka_unit_test(test_check_calls_the_plan),
		cmocka_unit_test(test_run_writes),
		cmocka_unit_test(test_apply_refuses_writes_in_check_mode),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
