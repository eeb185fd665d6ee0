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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "inventory/inventory.h"
#include "playbook/bind.h"
#include "playbook/playbook.h"
#include "run/rounds.h"
#include "template/template.h"
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
	pthread_mutex_t			  lock;
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

	ph->vars = runner_host_vars(r, ph->h, play, groups);
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

	for (;;) {
		pthread_mutex_lock(&rd->lock);
		i = runner_interrupted ? rd->n : rd->next++;
		pthread_mutex_unlock(&rd->lock);
		if (i >= rd->n)
			break;
		job = rd->jobs[i];
		job->data = rd->pw->measure(&job->client->ctx,
		    job->client->conf, job->peer, job->server);
	}
	return NULL;
}

/* One round: its jobs on min(forks, jobs) threads; returns when every
 * job ended. */
static void
run_round(const struct module_pairwise *pw, struct pw_job **jobs, size_t n,
    int forks)
{
	struct pw_round	 rd;
	pthread_t	*threads;
	pthread_attr_t	 attr;
	size_t		 nthreads, i, started = 0;

	memset(&rd, 0, sizeof rd);
	rd.pw = pw;
	rd.jobs = jobs;
	rd.n = n;
	pthread_mutex_init(&rd.lock, NULL);
	nthreads = forks > 0 ? (size_t)forks : 1;
	if (nthreads > n)
		nthreads = n;
	threads = xcalloc(nthreads + 1, sizeof *threads);
	for (i = 0; i < nthreads; i++) {
		pthread_attr_init(&attr);
		pthread_attr_setstacksize(&attr, 512 * 1024);
		if (pthread_create(&threads[started], &attr, round_worker,
		    &rd) == 0)
			started++;
		pthread_attr_destroy(&attr);
	}
	if (started == 0)
		round_worker(&rd);
	for (i = 0; i < started; i++)
		pthread_join(threads[i], NULL);
	free(threads);
	pthread_mutex_destroy(&rd.lock);
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
	struct pw_job			*jobs, **round;
	struct host_state		*peer;
	const json_t			*only = NULL;
	long long			 sample = 0;
	size_t				 i, j, nw = 0, start, end;
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
	round = xcalloc(plan.npairs + 1, sizeof *round);
	for (i = 0; i < plan.npairs; i++) {
		jobs[i].client = by_index[plan.pairs[i].client];
		jobs[i].server = r->hosts[plan.pairs[i].server];
		jobs[i].round = plan.pairs[i].round;
		jobs[i].peer = find_peer(jobs[i].client,
		    jobs[i].server->name);
	}
	for (start = 0; start < plan.npairs && !check; start = end) {
		for (end = start; end < plan.npairs &&
		    jobs[end].round == jobs[start].round; end++)
			round[end - start] = &jobs[end];
		if (!runner_interrupted)
			run_round(pw, round, end - start, r->cfg->forks);
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
		json_decref(ph[i].args);
		json_decref(ph[i].vars);
	}
	free(round);
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
