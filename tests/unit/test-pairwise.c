/* The runner's pairwise step (lib/run/pairwise.c) with a module that
 * measures nothing: it takes every host's peers (iperf_peers: all), runs
 * each unordered pair once, in rounds whose pairs run at the same time (at
 * most forks of them), never a host in two pairs at once, reports the
 * schedule before the first pair, feeds the progress line while the rounds
 * run and reports each round as it ends, and gives both ends of each pair
 * its data in the task's run; in check mode it plans and measures
 * nothing. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "inventory/inventory.h"
#include "playbook/module.h"
#include "playbook/playbook.h"
#include "run/runner.h"

#define NHOSTS	6

static pthread_mutex_t	 mu = PTHREAD_MUTEX_INITIALIZER;
static int		 busy[NHOSTS], overlap_seen, running, most_running;
static int		 measured[NHOSTS][NHOSTS], nmeasured, schedules;
static int		 plans, runs_pairs[NHOSTS];
static json_int_t	 scheduled_pairs, scheduled_rounds;
/* What round_done and progress saw. */
static int		 rounds_reported, round_lines, pair_lines, bad_lines;
static json_int_t	 reported_done[NHOSTS], reported_pairs[NHOSTS];
static double		 last_left;
static size_t		 last_pairs_done;

static int
host_no(const char *name)
{
	return name[0] - 'a';
}

static int
fake_peers(struct module_ctx *ctx, const void *conf,
    struct module_peer **peers, size_t *n, long long *sample, char **cause)
{
	const char	**names = NULL;
	size_t		  k, i;

	(void)conf;
	*sample = 0;
	if (module_ctx_peers(ctx, &names, &k, cause) != 0)
		return -1;
	*peers = calloc(k + 1, sizeof **peers);
	for (i = 0; i < k; i++)
		(*peers)[i].name = names[i];
	*n = k;
	free(names);
	return 0;
}

static double
fake_seconds(const void *conf)
{
	(void)conf;
	return 1;
}

static void
nap(long ms)
{
	struct timespec ts = { 0, ms * 1000 * 1000 };

	nanosleep(&ts, NULL);
}

/* A "measurement": both ends busy for 40 ms; a host busy twice at once is
 * an overlap. */
static json_t *
fake_measure(struct module_ctx *ctx, const void *conf,
    const struct module_peer *peer, struct host_state *ph)
{
	int a = host_no(module_ctx_host_name(ctx)), b = host_no(peer->name);

	(void)conf;
	assert_non_null(ph);
	pthread_mutex_lock(&mu);
	if (busy[a]++ > 0 || busy[b]++ > 0)
		overlap_seen = 1;
	if (++running > most_running)
		most_running = running;
	measured[a < b ? a : b][a < b ? b : a]++;
	nmeasured++;
	pthread_mutex_unlock(&mu);
	nap(40);
	pthread_mutex_lock(&mu);
	busy[a]--;
	busy[b]--;
	running--;
	pthread_mutex_unlock(&mu);
	return json_pack("{s:s}", "by", module_ctx_host_name(ctx));
}

static const struct module_pairwise fake_pairwise = {
	.peers = fake_peers,
	.pair_seconds = fake_seconds,
	.measure = fake_measure,
};

/* Each end sees its pairs, with the client's data and the round. */
static int
fake_run(struct module_ctx *ctx, const void *conf, struct module_result *res)
{
	const json_t	*pairs = module_ctx_pairs(ctx), *p;
	const char	*self = module_ctx_host_name(ctx);
	size_t		 i;

	(void)conf;
	assert_non_null(pairs);
	assert_int_equal(json_integer_value(json_object_get(
	    module_ctx_schedule(ctx), "rounds")), NHOSTS - 1);
	json_array_foreach(pairs, i, p) {
		const char *c = json_string_value(json_object_get(p, "client"));
		const char *s = json_string_value(json_object_get(p, "server"));

		assert_true(strcmp(c, self) == 0 || strcmp(s, self) == 0);
		assert_string_equal(json_string_value(json_object_get(p,
		    "by")), c);
		assert_true(json_integer_value(json_object_get(p, "round")) <
		    NHOSTS - 1);
	}
	pthread_mutex_lock(&mu);
	runs_pairs[host_no(self)] = (int)json_array_size(pairs);
	pthread_mutex_unlock(&mu);
	res->status = RESULT_OK;
	return 0;
}

static int
fake_plan(struct module_ctx *ctx, const void *conf, struct module_result *res)
{
	(void)conf;
	pthread_mutex_lock(&mu);
	plans++;
	runs_pairs[host_no(module_ctx_host_name(ctx))] =
	    (int)json_array_size(module_ctx_pairs(ctx));
	pthread_mutex_unlock(&mu);
	res->status = RESULT_SKIPPED;
	return 0;
}

static const struct module_param no_params[] = { { .name = NULL } };
static const struct module fake_mod = { .name = "fake_verify",
	.params = no_params, .run = fake_run, .plan = fake_plan,
	.pairwise = &fake_pairwise };

static void
on_schedule(void *arg, const struct play *play, const char *task,
    const json_t *sch)
{
	(void)arg;
	(void)play;
	(void)task;
	schedules++;
	scheduled_pairs = json_integer_value(json_object_get(sch, "pairs"));
	scheduled_rounds = json_integer_value(json_object_get(sch, "rounds"));
	/* before any pair */
	assert_int_equal(nmeasured, 0);
}

static void
on_round(void *arg, const struct play *play, const char *task,
    const json_t *rd)
{
	(void)arg;
	(void)play;
	assert_string_equal(task, "verify");
	assert_int_equal(json_integer_value(json_object_get(rd, "rounds")),
	    NHOSTS - 1);
	assert_int_equal(json_integer_value(json_object_get(rd, "pairs")),
	    15);
	assert_int_equal(json_integer_value(json_object_get(rd,
	    "round_pairs")), 3);
	assert_true(json_real_value(json_object_get(rd, "round_seconds")) >
	    0.035);
	assert_true(json_real_value(json_object_get(rd, "seconds")) >=
	    json_real_value(json_object_get(rd, "round_seconds")));
	last_left = json_real_value(json_object_get(rd, "seconds_left"));
	/* each round's pairs all measured when it is reported */
	assert_int_equal(json_integer_value(json_object_get(rd,
	    "pairs_done")), nmeasured);
	if (rounds_reported < NHOSTS) {
		reported_done[rounds_reported] = json_integer_value(
		    json_object_get(rd, "rounds_done"));
		reported_pairs[rounds_reported] = json_integer_value(
		    json_object_get(rd, "pairs_done"));
	}
	rounds_reported++;
}

/* The progress line while the rounds run: rounds and pairs, never fewer
 * pairs done than before, the pair waiting longest named by its ends. */
static void
on_progress(void *arg, const struct run_progress *p)
{
	(void)arg;
	if (p->rounds == 0)
		return;		/* the task's hosts, or the line cleared */
	round_lines++;
	if (p->rounds != NHOSTS - 1 || p->round < 1 || p->round > p->rounds ||
	    p->pairs_total != 15 || p->pairs_done < last_pairs_done ||
	    p->pairs_done > 15)
		bad_lines++;
	last_pairs_done = p->pairs_done;
	if (p->running > 0) {
		pair_lines++;
		if (p->slowest == NULL || strstr(p->slowest, "<->") == NULL ||
		    p->running > 3)
			bad_lines++;
	}
}

/* Run one fake_verify task over a..f with forks and check mode. */
static void
run_fleet(int forks, int check)
{
	struct inventory	*inv = inventory_new();
	struct run_config	 cfg;
	struct runner		 r;
	struct task		 task;
	struct play		 play;
	struct playbook		 pb;
	char			*cause = NULL;

	memset(busy, 0, sizeof busy);
	memset(measured, 0, sizeof measured);
	memset(runs_pairs, 0, sizeof runs_pairs);
	overlap_seen = running = most_running = nmeasured = 0;
	schedules = plans = 0;
	rounds_reported = round_lines = pair_lines = bad_lines = 0;
	memset(reported_done, 0, sizeof reported_done);
	memset(reported_pairs, 0, sizeof reported_pairs);
	last_left = -1;
	last_pairs_done = 0;
	assert_int_equal(inventory_add_source(inv, "a,b,c,d,e,f,", &cause),
	    0);
	assert_int_equal(inventory_finish(inv, &cause), 0);
	memset(&cfg, 0, sizeof cfg);
	cfg.forks = forks;
	cfg.check = check;
	cfg.hostkey_mode = TP_HOSTKEY_STRICT;
	cfg.schedule = on_schedule;
	cfg.round_done = on_round;
	cfg.progress = on_progress;
	assert_int_equal(runner_init(&r, &cfg, inv, &cause), 0);
	memset(&task, 0, sizeof task);
	task.name = "verify";
	task.module = &fake_mod;
	task.args = json_object();
	task.check_mode = -1;
	task.diff = -1;
	memset(&play, 0, sizeof play);
	play.name = "p";
	play.hosts = "all";
	play.max_fail_percentage = -1;
	play.become = -1;
	play.vars = json_pack("{s:s}", "iperf_peers", "all");
	play.tasks = &task;
	play.ntasks = 1;
	memset(&pb, 0, sizeof pb);
	pb.plays = &play;
	pb.nplays = 1;
	assert_int_equal(runner_play(&r, &pb, &cause), 0);
	runner_free(&r);
	inventory_free(inv);
	json_decref(task.args);
	json_decref(play.vars);
}

static void
test_every_pair_once_in_rounds(void **state)
{
	int a, b;

	(void)state;
	run_fleet(50, 0);
	assert_int_equal(schedules, 1);
	assert_int_equal(scheduled_pairs, 15);
	assert_int_equal(scheduled_rounds, 5);
	assert_int_equal(nmeasured, 15);
	for (a = 0; a < NHOSTS; a++) {
		for (b = a + 1; b < NHOSTS; b++)
			assert_int_equal(measured[a][b], 1);
		/* each end got its 5 pairs */
		assert_int_equal(runs_pairs[a], NHOSTS - 1);
	}
	assert_int_equal(overlap_seen, 0);
	/* a round's 3 disjoint pairs ran together */
	assert_int_equal(most_running, 3);
}

static void
test_rounds_reported(void **state)
{
	int i;

	(void)state;
	/* 2 forks: each round of 3 pairs in 2 waves */
	run_fleet(2, 0);
	assert_int_equal(rounds_reported, NHOSTS - 1);
	for (i = 0; i < NHOSTS - 1; i++) {
		assert_int_equal(reported_done[i], i + 1);
		assert_int_equal(reported_pairs[i], 3 * (i + 1));
	}
	assert_true(last_left == 0);
	/* fed in each round at least (a pair's end wakes the main thread;
	 * two ends may come before it runs), and sane */
	assert_true(round_lines >= NHOSTS - 1);
	assert_true(pair_lines > 0);
	assert_int_equal(bad_lines, 0);
	assert_int_equal(last_pairs_done, 15);
}

static void
test_forks_bound_a_round(void **state)
{
	(void)state;
	run_fleet(2, 0);
	assert_int_equal(nmeasured, 15);
	assert_int_equal(overlap_seen, 0);
	assert_int_equal(most_running, 2);
	run_fleet(1, 0);
	assert_int_equal(nmeasured, 15);
	assert_int_equal(most_running, 1);
}

static void
test_check_mode_plans_only(void **state)
{
	int a;

	(void)state;
	run_fleet(50, 1);
	assert_int_equal(schedules, 1);
	assert_int_equal(scheduled_rounds, 5);
	assert_int_equal(nmeasured, 0);
	assert_int_equal(rounds_reported, 0);
	assert_int_equal(round_lines, 0);
	assert_int_equal(plans, NHOSTS);
	for (a = 0; a < NHOSTS; a++)
		assert_int_equal(runs_pairs[a], NHOSTS - 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_pair_once_in_rounds),
		cmocka_unit_test(test_forks_bound_a_round),
		cmocka_unit_test(test_rounds_reported),
		cmocka_unit_test(test_check_mode_plans_only),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
