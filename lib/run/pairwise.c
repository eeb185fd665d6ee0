/* The pairwise step: a task whose module measures pairs of hosts
 * (playbook/module.h's struct module_pairwise, iperf3_verify).
 *
 * Why the runner and not the module: a pair has two ends, and each host's
 * task runs on one worker of the fork pool. Were each host to measure its
 * own pairs, a round could not be formed (its pairs' ends would be on
 * workers that have not started, or are busy with another pair), and a
 * host's one connection would serialise its peers behind it. So the
 * runner, which sees the whole batch, takes every host's peers first,
 * schedules the pairs in rounds (run/rounds.h: matchings, so no host is in
 * two pairs of a round and no connection is wanted twice at once), and runs
 * each round's pairs together on at most forks threads of its own, the
 * next round when the last pair of this one ended. Each pair's data is then
 * handed to both its ends' task runs (module_ctx_pairs). */
#include "run/runner.h"
#include "run/runner-int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "inventory/inventory.h"
#include "playbook/bind.h"
#include "playbook/playbook.h"
#include "run/rounds.h"
#include "template/template.h"
#include "base/util.h"
#include "base/xalloc.h"

/* A host of the batch that takes the step, ready to run the module. */
struct pw_host {
	struct host_state	*h;
	json_t			*vars;
	json_t			*args;
	void			*conf;
	struct module_ctx	 ctx;
	struct module_peer	*peers;
	size_t			 npeers;
	int			 ready;		/* peers asked */
};

/* One pair to measure. */
struct pw_job {
	struct pw_host		*client;
	const struct module_peer *peer;
	struct host_state	*server;
	size_t			 round;
	json_t			*data;
};

/* The jobs of one round, taken by its threads. */
struct pw_round {
	const struct module_pairwise	*pw;
	struct pw_job			**jobs;
	size_t				  n;
	size_t				  next;
	double				 *since;	/* per job: when it
							 * started, 0 when
							 * not running */
	size_t				  ended;	/* jobs measured */
	size_t				  workers;	/* threads still
							 * taking jobs */
	pthread_mutex_t			  lock;
	pthread_cond_t			  wake;		/* a job or a thread
							 * ended */
};

/* Where the task's rounds stand, for the progress line and the report
 * after each round. */
struct pw_status {
	struct runner		*r;
	const struct play	*play;
	const char		*task;
	const struct pair_plan	*plan;
	double			 pair_secs;
	size_t			 round;		/* the running one, 0-based */
	size_t			 pairs_done;	/* before it */
	double			 start;		/* the first round's start */
};

static size_t
host_index(const struct runner *r, const struct host_state *h)
{
	size_t i;

	for (i = 0; i < r->nhosts; i++) {
		if (r->hosts[i] == h)
			return i;
	}
	return r->nhosts;
}

/* Ask one host for its peers: when, the arguments, the gate, then the
 * module's peers hook. A host that fails here is left out; its task run
 * meets the same failure and reports it. */
static void
ask_peers(struct runner *r, const struct play *play, const struct task *t,
    struct pw_host *ph, const json_t *groups, long long *sample)
{
	const struct module_pairwise	*pw = t->module->pairwise;
	uint64_t			 given = 0;
	char				*cause = NULL;
	long long			 s = 0;
	int				 when = 1;

	ph->vars = runner_host_vars(r, ph->h, play, t, groups);
	if (t->when != NULL && (template_eval_bool(t->when, ph->vars,
	    &t->when_pos, &when, &cause) != 0 || !when))
		goto out;
	if ((ph->args = task_render_args(t, ph->vars, &given,
	    &cause)) == NULL)
		goto out;
	if (hostline_check_args(t->module, ph->args, ph->vars, &cause) != 0)
		goto out;
	ph->conf = bind_conf(t->module, ph->args, given);
	runner_fill_ctx(&ph->ctx, r, ph->h, play, t, ph->vars);
	if (t->module->validate != NULL &&
	    t->module->validate(ph->conf, &cause) != 0)
		goto out;
	if (pw->peers(&ph->ctx, ph->conf, &ph->peers, &ph->npeers, &s,
	    &cause) != 0)
		goto out;
	ph->ready = 1;
	if (s > 0 && (*sample == 0 || s < *sample))
		*sample = s;
out:
	free(cause);
}

/*
 * Each host's group for sampling: among the groups of the var
 * matrix_groups (a list, read from the first host that has it) or else
 * every group but all and ungrouped, the smallest one holding the host
 * (its most specific: the region rather than the provider), the first in
 * inventory order on a tie. A host in none of them: ungrouped's index.
 */
static int *
sample_groups(const struct runner *r, const json_t *only)
{
	const struct inventory	 *inv = r->inv;
	int			 *group = xcalloc(r->nhosts + 1, sizeof *group);
	size_t			 *size = xcalloc(r->nhosts + 1, sizeof *size);
	const char		**members;
	size_t			  g, i, j, n;
	struct host_state	 *h;

	for (i = 0; i < r->nhosts; i++) {
		group[i] = 1;
		size[i] = (size_t)-1;
	}
	for (g = 2; g < inv->ngroups; g++) {
		const char	*name = inv->groups[g]->name;
		const json_t	*v;
		int		 listed = only == NULL;

		json_array_foreach(only, j, v)
			listed |= json_is_string(v) &&
			    strcmp(json_string_value(v), name) == 0;
		if (!listed || inventory_group_hosts(inv, name, &members,
		    &n) != 0)
			continue;
		for (j = 0; j < n; j++) {
			if ((h = runner_host((struct runner *)r,
			    members[j])) == NULL)
				continue;
			i = host_index(r, h);
			if (n < size[i]) {
				size[i] = n;
				group[i] = (int)g;
			}
		}
		free(members);
	}
	free(size);
	return group;
}

static void *
round_worker(void *arg)
{
	struct pw_round	*rd = arg;
	struct pw_job	*job;
	size_t		 i;

	pthread_mutex_lock(&rd->lock);
	for (;;) {
		i = runner_interrupted ? rd->n : rd->next++;
		if (i >= rd->n)
			break;
		rd->since[i] = monotonic_seconds();
		pthread_mutex_unlock(&rd->lock);
		job = rd->jobs[i];
		job->data = rd->pw->measure(&job->client->ctx,
		    job->client->conf, job->peer, job->server);
		pthread_mutex_lock(&rd->lock);
		rd->since[i] = 0;
		rd->ended++;
		pthread_cond_signal(&rd->wake);
	}
	rd->workers--;
	pthread_cond_signal(&rd->wake);
	pthread_mutex_unlock(&rd->lock);
	return NULL;
}

/* The running round for the progress line: its pairs done and the one
 * running longest. Called and returns with rd->lock held, but lets it go
 * for the callback (under r->lock, as every callback is): a pair that
 * ends is not held back by a slow write to the terminal. */
static void
round_progress(const struct pw_status *st, struct pw_round *rd)
{
	const struct run_config	*cfg = st->r->cfg;
	struct run_progress	 p;
	char			 slowest[512];
	size_t			 oldest;

	if (cfg->progress == NULL)
		return;
	memset(&p, 0, sizeof p);
	p.task = st->task;
	p.round = st->round + 1;
	p.rounds = st->plan->nrounds;
	p.pairs_done = st->pairs_done + rd->ended;
	p.pairs_total = st->plan->npairs;
	if ((oldest = runner_oldest(rd->since, rd->n, &p.running)) < rd->n) {
		snprintf(slowest, sizeof slowest, "%s<->%s",
		    rd->jobs[oldest]->client->h->name,
		    rd->jobs[oldest]->server->name);
		p.slowest = slowest;
		p.slowest_secs = monotonic_seconds() - rd->since[oldest];
	}
	pthread_mutex_unlock(&rd->lock);
	pthread_mutex_lock(&st->r->lock);
	cfg->progress(cfg->cb_arg, &p);
	pthread_mutex_unlock(&st->r->lock);
	pthread_mutex_lock(&rd->lock);
}

/* One round: its jobs on min(forks, jobs) threads, the progress fed after
 * each pair and four times a second; returns when every job ended. */
static void
run_round(const struct pw_status *st, const struct module_pairwise *pw,
    struct pw_job **jobs, size_t n, int forks)
{
	struct pw_round	 rd;
	pthread_t	*threads;
	pthread_attr_t	 attr;
	size_t		 nthreads, i, started = 0, seen = 0;

	memset(&rd, 0, sizeof rd);
	rd.pw = pw;
	rd.jobs = jobs;
	rd.n = n;
	rd.since = xcalloc(n + 1, sizeof *rd.since);
	pthread_mutex_init(&rd.lock, NULL);
	runner_cond_init(&rd.wake);
	nthreads = forks > 0 ? (size_t)forks : 1;
	if (nthreads > n)
		nthreads = n;
	threads = xcalloc(nthreads + 1, sizeof *threads);
	/* The threads wait for the lock until every one is started. */
	pthread_mutex_lock(&rd.lock);
	for (i = 0; i < nthreads; i++) {
		pthread_attr_init(&attr);
		pthread_attr_setstacksize(&attr, 512 * 1024);
		if (pthread_create(&threads[started], &attr, round_worker,
		    &rd) == 0)
			started++;
		pthread_attr_destroy(&attr);
	}
	rd.workers = started > 0 ? started : 1;
	while (started > 0 && rd.workers > 0) {
		if (runner_tick_wait(&rd.wake, &rd.lock) == ETIMEDOUT ||
		    rd.ended != seen) {
			seen = rd.ended;
			round_progress(st, &rd);
		}
	}
	pthread_mutex_unlock(&rd.lock);
	/* No thread would start: this one measures, without ticks. */
	if (started == 0)
		round_worker(&rd);
	for (i = 0; i < started; i++)
		pthread_join(threads[i], NULL);
	free(threads);
	free(rd.since);
	pthread_cond_destroy(&rd.wake);
	pthread_mutex_destroy(&rd.lock);
}

/* After the round st->round ended with round_pairs pairs: the counts so
 * far and the time left (round_done's object), under r->lock. */
static void
report_round(const struct pw_status *st, size_t round_pairs,
    double round_start)
{
	const struct run_config	*cfg = st->r->cfg;
	double			 now = monotonic_seconds();
	size_t			 forks;
	json_t			*j;

	if (cfg->round_done == NULL)
		return;
	forks = (size_t)(cfg->forks > 0 ? cfg->forks : 1);
	j = json_pack("{s:I, s:I, s:I, s:I, s:I, s:f, s:f, s:f}",
	    "rounds_done", (json_int_t)st->round + 1,
	    "rounds", (json_int_t)st->plan->nrounds,
	    "pairs_done", (json_int_t)(st->pairs_done + round_pairs),
	    "pairs", (json_int_t)st->plan->npairs,
	    "round_pairs", (json_int_t)round_pairs,
	    "round_seconds", now - round_start,
	    "seconds", now - st->start,
	    "seconds_left", pair_plan_seconds_left(st->plan, st->round + 1,
	    now - st->start, st->pair_secs, forks));
	pthread_mutex_lock(&st->r->lock);
	cfg->round_done(cfg->cb_arg, st->play, st->task, j);
	pthread_mutex_unlock(&st->r->lock);
	json_decref(j);
}

/* Every round of the plan over jobs (in the plan's order), one after the
 * other, each reported when it ended; the last progress line cleared. */
static void
measure_rounds(struct pw_status *st, const struct module_pairwise *pw,
    struct pw_job *jobs)
{
	const struct run_config	 *cfg = st->r->cfg;
	const struct pair_plan	 *plan = st->plan;
	struct pw_job		**round = xcalloc(plan->npairs + 1,
				    sizeof *round);
	struct run_progress	  idle;
	size_t			  start, end;
	double			  round_start;

	st->start = monotonic_seconds();
	for (start = 0; start < plan->npairs; start = end) {
		for (end = start; end < plan->npairs &&
		    jobs[end].round == jobs[start].round; end++)
			round[end - start] = &jobs[end];
		if (runner_interrupted)
			break;
		st->round = jobs[start].round;
		round_start = monotonic_seconds();
		run_round(st, pw, round, end - start, cfg->forks);
		if (runner_interrupted)
			break;
		report_round(st, end - start, round_start);
		st->pairs_done += end - start;
	}
	if (cfg->progress != NULL && plan->npairs > 0) {
		/* nothing running: the line goes until the task's hosts
		 * report */
		memset(&idle, 0, sizeof idle);
		idle.task = st->task;
		pthread_mutex_lock(&st->r->lock);
		cfg->progress(cfg->cb_arg, &idle);
		pthread_mutex_unlock(&st->r->lock);
	}
	free(round);
}

/* The client's wish for this pair: its peer entry naming the server. */
static const struct module_peer *
find_peer(const struct pw_host *ph, const char *server)
{
	size_t i;

	for (i = 0; i < ph->npeers; i++) {
		if (strcmp(ph->peers[i].name, server) == 0)
			return &ph->peers[i];
	}
	return NULL;
}

static void
add_pair(struct host_state *h, json_t *pair)
{
	if (h->pairs == NULL)
		h->pairs = json_array();
	json_array_append(h->pairs, pair);
}

void
runner_pairwise_begin(struct runner *r, const struct play *play,
    const struct task *t, struct host_state **hosts, size_t n,
    const json_t *groups)
{
	const struct module_pairwise	*pw = t->module->pairwise;
	struct pw_host			*ph = xcalloc(n + 1, sizeof *ph);
	struct pw_host			**by_index;
	struct pair_want		*wants = NULL;
	struct pair_plan		 plan;
	struct pw_job			*jobs;
	struct pw_status		 st;
	struct host_state		*peer;
	const json_t			*only = NULL;
	long long			 sample = 0;
	size_t				 i, j, nw = 0;
	double				 pair_secs = 0;
	int				*group, check = 0;
	json_t				*pair;

	by_index = xcalloc(r->nhosts + 1, sizeof *by_index);
	for (i = 0; i < n; i++) {
		ph[i].h = hosts[i];
		ask_peers(r, play, t, &ph[i], groups, &sample);
		/* Every host of the step has a (maybe empty) list: the
		 * module tells "scheduled, no pair here" from "not pairwise". */
		hosts[i]->pairs = json_array();
		if (!ph[i].ready)
			continue;
		if (only == NULL)
			only = json_object_get(ph[i].vars, "matrix_groups");
		if (pair_secs == 0) {
			pair_secs = pw->pair_seconds(ph[i].conf);
			check = module_ctx_check(&ph[i].ctx);
		}
		by_index[host_index(r, hosts[i])] = &ph[i];
		wants = xreallocarray(wants, nw + ph[i].npeers + 1,
		    sizeof *wants);
		for (j = 0; j < ph[i].npeers; j++) {
			if ((peer = runner_host(r, ph[i].peers[j].name)) ==
			    NULL)
				continue;
			wants[nw].host = host_index(r, hosts[i]);
			wants[nw].peer = host_index(r, peer);
			nw++;
		}
	}
	group = sample_groups(r, json_is_array(only) ? only : NULL);
	pair_plan_build(&plan, r->nhosts, wants, nw, group,
	    sample > 0 ? (size_t)sample : 0);
	r->schedule = json_pack("{s:I, s:I, s:I, s:I, s:I, s:i, s:f}",
	    "pairs", (json_int_t)plan.npairs,
	    "rounds", (json_int_t)plan.nrounds,
	    "min_rounds", (json_int_t)plan.min_rounds,
	    "max_pairs_per_host", (json_int_t)plan.max_pairs,
	    "sample", (json_int_t)sample, "forks", r->cfg->forks,
	    "seconds", pair_plan_seconds(&plan, pair_secs,
	    (size_t)(r->cfg->forks > 0 ? r->cfg->forks : 1)));
	if (plan.npairs > 0 && r->cfg->schedule != NULL) {
		pthread_mutex_lock(&r->lock);
		r->cfg->schedule(r->cfg->cb_arg, play, t->name, r->schedule);
		pthread_mutex_unlock(&r->lock);
	}

	jobs = xcalloc(plan.npairs + 1, sizeof *jobs);
	for (i = 0; i < plan.npairs; i++) {
		jobs[i].client = by_index[plan.pairs[i].client];
		jobs[i].server = r->hosts[plan.pairs[i].server];
		jobs[i].round = plan.pairs[i].round;
		jobs[i].peer = find_peer(jobs[i].client,
		    jobs[i].server->name);
	}
	if (!check) {
		memset(&st, 0, sizeof st);
		st.r = r;
		st.play = play;
		st.task = t->name;
		st.plan = &plan;
		st.pair_secs = pair_secs;
		measure_rounds(&st, pw, jobs);
	}
	for (i = 0; i < plan.npairs; i++) {
		pair = jobs[i].data != NULL ? jobs[i].data : json_object();
		json_object_set_new(pair, "client",
		    json_string(jobs[i].client->h->name));
		json_object_set_new(pair, "server",
		    json_string(jobs[i].server->name));
		json_object_set_new(pair, "round",
		    json_integer((json_int_t)jobs[i].round));
		add_pair(jobs[i].client->h, pair);
		add_pair(jobs[i].server, pair);
		json_decref(pair);
	}

	for (i = 0; i < n; i++) {
		for (j = 0; j < ph[i].npeers; j++)
			free(ph[i].peers[j].address);
		free(ph[i].peers);
		free(ph[i].conf);
		runner_clear_ctx(&ph[i].ctx);
		json_decref(ph[i].args);
		json_decref(ph[i].vars);
	}
	free(jobs);
	free(group);
	pair_plan_free(&plan);
	free(wants);
	free(by_index);
	free(ph);
}

void
runner_pairwise_end(struct runner *r)
{
	size_t i;

	for (i = 0; i < r->nhosts; i++) {
		json_decref(r->hosts[i]->pairs);
		r->hosts[i]->pairs = NULL;
	}
	json_decref(r->schedule);
	r->schedule = NULL;
}
