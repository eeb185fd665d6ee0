/* Private to lib/run/: what runner.c shares with the pairwise step
 * (pairwise.c). */
#ifndef TCPTUNE_RUNNER_INT_H
#define TCPTUNE_RUNNER_INT_H

#include <jansson.h>
#include <pthread.h>
#include <stddef.h>

struct runner;
struct host_state;
struct module_ctx;
struct play;
struct task;

/* The variables task t (NULL: none) on h sees (a new reference). */
/* magic-vars.c: Ansible's magic variables. The run's and play's object,
 * rebuilt by the main thread before a step (the play's hosts, the batch's
 * hosts); and a host's vars given them and its own (group_names,
 * inventory_hostname_short). */
void	 runner_magic_refresh(struct runner *r, const struct play *play,
	     struct host_state *const *play_hosts, size_t nplay,
	     struct host_state *const *batch, size_t nbatch);
void	 runner_magic_apply(const struct runner *r,
	     const struct host_state *h, json_t *vars);
/* hostvars.c: hostvars[h] made when a template reads it; init after
 * r->hostvars is built, refresh by the main thread before each step. */
void	 runner_hostvars_init(struct runner *r);
void	 runner_hostvars_free(struct runner *r);
void	 runner_hostvars_refresh(struct host_state *const *hosts, size_t n);
/* A task's name templated for a step with h's vars (runner.c), and the
 * results h recorded since first renamed from written to it. */
const char *runner_step_title(struct runner *r, struct host_state *h,
	     const struct play *play, const struct task *t,
	     const json_t *groups);
void	 runner_retitle(struct host_state *h, size_t first,
	     const char *written, const char *title);
json_t	*runner_host_vars(struct runner *r, struct host_state *h,
	    const struct play *play, const struct task *t,
	    const json_t *groups);
/* Keep res as the host's next result and count it; res is emptied. */
struct task_result *runner_record(struct host_state *h, size_t play_index,
	    const char *task_name, const char *module,
	    struct module_result *res, int ignored, double secs);
/* A retry of task (until) on h, with left attempts to go: the host_retry
 * callback, under the runner's lock. */
void	 runner_retry(struct runner *r, struct host_state *h,
	    const char *task, int left);
/* The gate over a task's rendered arguments (remote/hostline.h): -1 with
 * res failed, naming the task's position and the parameter. */
int	 runner_gate_args(const struct task *t, const json_t *args,
	    const json_t *vars, struct module_result *res);
/* task-exec.c: include_tasks t on host h (its when, its loop's items, the
 * file rendered), recorded as one result per item; the tree it read
 * (shared by every host including the same file with the same items,
 * numbered *seq in the run), or NULL when there is nothing to enter. */
const struct play *runner_include(struct runner *r, struct host_state *h,
	    const struct play *play, size_t play_index, const struct task *t,
	    json_t *vars, size_t *seq);
/* task-exec.c: task t on host h, its loop's items each, recorded as one
 * result; registered, and its handlers notified when it changed. */
void	 runner_run_task(struct runner *r, struct host_state *h,
	    const struct play *play, size_t play_index, const struct task *t,
	    json_t *vars);
/* task-exec.c: run_once task t ran on from: what it registered and set
 * is to's too (a failure not ignored fails to). */
void	 runner_share_once(struct host_state *from, const struct task *t,
	    struct host_state *to);
/* The context a module (t) or a stager's flush (t NULL) runs with;
 * released with runner_clear_ctx. */
void	 runner_fill_ctx(struct module_ctx *ctx, struct runner *r,
	    struct host_state *h, const struct play *play,
	    const struct task *t, json_t *vars);
void	 runner_clear_ctx(struct module_ctx *ctx);

/* Over the start times since[0..n) of what runs (0: not running): how
 * many run (*running) and the index of the one running longest, n when
 * none does; for the progress line. */
size_t	 runner_oldest(const double *since, size_t n, size_t *running);
/* A condition on the monotonic clock, for runner_tick_wait. */
void	 runner_cond_init(pthread_cond_t *c);
/* Wait on c (with m held) at most a quarter of a second: the period of
 * the progress line's redraws. ETIMEDOUT when the time ran out. */
int	 runner_tick_wait(pthread_cond_t *c, pthread_mutex_t *m);

/* A pairwise task (struct module_pairwise) over hosts[0..n), the hosts of
 * the batch that take it: ask their peers, schedule the pairs in rounds,
 * report the schedule, measure the rounds (not in check mode) with the
 * progress line fed and each round reported as it ends, and leave
 * each host's pairs on h->pairs and the schedule on r->schedule for the
 * task's run. */
void	 runner_pairwise_begin(struct runner *r, const struct play *play,
	    const struct task *t, struct host_state **hosts, size_t n,
	    const json_t *groups);
/* After the task ran on every host: drop what begin left. */
void	 runner_pairwise_end(struct runner *r);

#endif
