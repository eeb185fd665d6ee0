/* Stage, then flush once: the runner drives a module's stager without
 * knowing the module. Staging tasks in a row share one stage per host; the
 * runner flushes it, as a result of kind RESULT_KIND_APPLY named by the
 * stager, before the next task of another module and at the end of the
 * play; a stage that is never flushed is freed all the same. Also the
 * module context's accessors a module sees, and the fact gatherer found
 * through the table. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "inventory/inventory.h"
#include "playbook/module.h"
#include "playbook/playbook.h"
#include "run/runner.h"

static int	flushes, frees, flushed_before_reader;

struct counter {
	int	n;
};

static int
count_flush(struct module_ctx *ctx, void *stage, struct module_result *res)
{
	const struct counter *c = stage;
	char buf[64];

	(void)ctx;
	flushes++;
	snprintf(buf, sizeof buf, "flushed %d", c->n);
	res->status = RESULT_CHANGED;
	res->msg = strdup(buf);
	return 0;
}

static void
count_free(void *stage)
{
	frees++;
	free(stage);
}

static const struct module_stager counter_stager = {
	.name = "counting",
	.task_name = "apply the count",
	.flush = count_flush,
	.free = count_free,
};

/* The modules' bound parameters (playbook/module.h). */
struct test_conf {
	struct module_conf	hdr;
	int			fail;
};

/* Adds one to the host's stage; fails when its args say so. */
static int
stage_run(struct module_ctx *ctx, const void *vconf,
    struct module_result *res)
{
	const struct test_conf	*conf = vconf;
	struct counter		*c = module_ctx_stage(ctx);

	if (c == NULL) {
		c = calloc(1, sizeof *c);
		module_ctx_set_stage(ctx, c);
	}
	c->n++;
	res->status = conf->fail ? RESULT_FAILED : RESULT_OK;
	return 0;
}

/* Not a staging module: sees no stage, and keeps a memo. */
static int
reader_run(struct module_ctx *ctx, const void *conf,
    struct module_result *res)
{
	json_t *m;

	(void)conf;
	flushed_before_reader = flushes;
	assert_null(module_ctx_stage(ctx));
	assert_null(module_ctx_facts(ctx));
	assert_int_equal(module_ctx_check(ctx), 0);
	assert_null(module_ctx_memo_get(ctx, "seen"));
	module_ctx_memo_set(ctx, "seen", json_string(
	    module_ctx_host_name(ctx)));
	m = module_ctx_memo_get(ctx, "seen");
	assert_string_equal(json_string_value(m), module_ctx_host_name(ctx));
	json_decref(m);
	res->status = RESULT_OK;
	return 0;
}

static const struct module_param params[] = {
	{ .name = "fail", .type = PARAM_BOOL,
	  .offset = offsetof(struct test_conf, fail) },
	{ .name = NULL },
};
static const struct module stager_mod = { .name = "stager",
	.params = params, .conf_size = sizeof(struct test_conf),
	.run = stage_run, .check_safe = 1, .stager = &counter_stager };
static const struct module reader_mod = { .name = "reader",
	.params = params, .conf_size = sizeof(struct test_conf),
	.run = reader_run, .check_safe = 1 };

struct fixture {
	struct inventory	*inv;
	struct run_config	 cfg;
	struct runner		 r;
	struct task		 tasks[4];
	struct play		 play;
	struct playbook		 pb;
};

static void
add_task(struct fixture *f, const struct module *m, int fail)
{
	struct task *t = &f->tasks[f->play.ntasks++];

	t->name = (char *)m->name;
	t->module = m;
	t->args = json_pack("{s:b}", "fail", fail);
	t->check_mode = -1;
	t->diff = -1;
}

static struct fixture *
setup_play(void)
{
	struct fixture	*f = calloc(1, sizeof *f);
	char		*cause = NULL;

	flushes = frees = 0;
	flushed_before_reader = -1;
	f->inv = inventory_new();
	assert_int_equal(inventory_add_source(f->inv, "a,b,", &cause), 0);
	assert_int_equal(inventory_finish(f->inv, &cause), 0);
	f->cfg.forks = 1;
	f->cfg.hostkey_mode = TP_HOSTKEY_STRICT;
	assert_int_equal(runner_init(&f->r, &f->cfg, f->inv, &cause), 0);
	f->play.name = "p";
	f->play.hosts = "all";
	f->play.max_fail_percentage = -1;
	f->play.become = -1;
	f->play.vars = json_object();
	f->play.tasks = f->tasks;
	f->pb.plays = &f->play;
	f->pb.nplays = 1;
	return f;
}

static void
teardown_play(struct fixture *f)
{
	size_t i;

	runner_free(&f->r);
	inventory_free(f->inv);
	for (i = 0; i < f->play.ntasks; i++)
		json_decref(f->tasks[i].args);
	json_decref(f->play.vars);
	free(f);
}

static void
assert_result(const struct task_result *tr, const char *task,
    const char *module, enum result_kind kind, const char *msg)
{
	assert_string_equal(tr->task_name, task);
	assert_string_equal(tr->module, module);
	assert_int_equal(tr->kind, kind);
	if (msg != NULL)
		assert_string_equal(tr->msg, msg);
}

static void
test_flush_before_another_module_and_at_the_end(void **state)
{
	struct fixture		*f = setup_play();
	struct host_state	*h;
	char			*cause = NULL;

	(void)state;
	add_task(f, &stager_mod, 0);
	add_task(f, &stager_mod, 0);
	add_task(f, &reader_mod, 0);
	add_task(f, &stager_mod, 0);
	assert_int_equal(runner_play(&f->r, &f->pb, &cause), 0);
	/* Two hosts, two flushes each: before reader, at the end. */
	assert_int_equal(flushes, 4);
	assert_int_equal(frees, 4);
	/* Lock-step: a flushes, a reads, b flushes, b reads. */
	assert_int_equal(flushed_before_reader, 2);
	h = runner_host(&f->r, "b");
	assert_int_equal(h->nresults, 6);
	assert_result(&h->results[0], "stager", "stager", RESULT_KIND_TASK,
	    NULL);
	assert_result(&h->results[2], "apply the count", "counting",
	    RESULT_KIND_APPLY, "flushed 2");
	assert_result(&h->results[3], "reader", "reader", RESULT_KIND_TASK,
	    NULL);
	assert_result(&h->results[5], "apply the count", "counting",
	    RESULT_KIND_APPLY, "flushed 1");
	/* One pointer for every host's apply: the output groups by it. */
	assert_ptr_equal(h->results[2].task_name,
	    runner_host(&f->r, "a")->results[2].task_name);
	assert_int_equal(h->stats.changed, 2);
	teardown_play(f);
}

/* A host that fails while staging never gets the apply: its stage is
 * dropped, and freed once. */
static void
test_unflushed_stage_is_freed(void **state)
{
	struct fixture	*f = setup_play();
	char		*cause = NULL;

	(void)state;
	add_task(f, &stager_mod, 0);
	add_task(f, &stager_mod, 1);
	add_task(f, &reader_mod, 0);
	assert_int_equal(runner_play(&f->r, &f->pb, &cause), 0);
	assert_int_equal(flushes, 0);
	assert_int_equal(frees, 2);
	assert_int_equal(flushed_before_reader, -1);
	assert_int_equal(runner_host(&f->r, "a")->nresults, 2);
	teardown_play(f);
}

static void
test_gatherer_is_a_table_row(void **state)
{
	const struct module	*g = module_find_gatherer();
	size_t			 i, n = 0;

	(void)state;
	assert_non_null(g);
	assert_true(g->gathers_facts);
	assert_null(g->stager);
	for (i = 0; module_table[i] != NULL; i++)
		n += module_table[i]->gathers_facts != 0;
	assert_int_equal(n, 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flush_before_another_module_and_at_the_end),
		cmocka_unit_test(test_unflushed_stage_is_freed),
		cmocka_unit_test(test_gatherer_is_a_table_row),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
