/* The runner: plays over hosts.
 *
 * A run owns one host_state per inventory host it touches, created up front,
 * so that a module working on one host can also reach another (the iperf3
 * peer) through that host's one SSH connection. Each host_state's lock
 * serialises use of its transport; the connection is opened on first use
 * and kept from step to step while the run has fewer than 2 x forks open
 * (run/conn-pool.h: past that the idle one used longest ago is closed and
 * its host reconnects when it needs to), so memory follows the forks, not
 * the fleet.
 *
 * A play's hosts are split into serial batches; within a batch each step
 * (facts, a task, the apply of what tuning tasks staged) runs on every host
 * of the batch before the next step starts, Ansible's linear strategy, with
 * a pool of `forks` threads taking hosts. Each host's result is reported
 * through the callbacks the moment its step ends, so that cmd/ can print it
 * at once (and does all the printing). After each batch the runner applies
 * any_errors_fatal and max_fail_percentage (unreachable hosts count as
 * failed, unlike Ansible). */
#ifndef TCPTUNE_RUNNER_H
#define TCPTUNE_RUNNER_H

#include <jansson.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>

#include "playbook/become.h"
#include "playbook/module.h"
#include "net/transport.h"
#include "run/conn-pool.h"
#include "run/progress.h"

struct inventory;
struct play;
struct task;
struct playbook;

/* One task's outcome on one host. */
struct task_result {
	size_t			 play;		/* index in the playbook */
	const char		*task_name;	/* owned by the playbook */
	const char		*module;
	enum result_kind	 kind;
	enum result_status	 status;
	char			*msg;
	char			*diff;
	json_t			*data;
	int			 ignored;	/* failed but ignore_errors */
	double			 seconds;
	char			*delegated;	/* the host it ran on when
						 * delegated (module_result's),
						 * else NULL */
};

struct host_stats {
	/* Ansible's recap: ok counts changed results too (and ignored
	 * failures); rescued, failures a rescue caught (not in failed);
	 * ignored, failures under ignore_errors (in ok, not in failed). */
	int	ok, changed, unreachable, failed, skipped;
	int	rescued, ignored;
	/* What the host cost: commands run on it (round trips: its own and
	 * those a peer's module ran on it) and connections opened. Under
	 * the host's lock. */
	int	round_trips, connections;
};

struct host_state {
	char			*name;
	int			 local;		/* the implicit localhost of a
						 * delegate_to (connection:
						 * local, net/local.h) */
	struct tp_options	 tp;		/* strings owned by conn_strings */
	char			*conn_strings[8];
	pthread_mutex_t		 lock;		/* guards tp_handle */
	struct transport	*tp_handle;
	int			 unreachable;	/* sticky for the run */
	char			*unreachable_msg;
	int			 failed;	/* failed in the current play */
	int			 failed_run;	/* failed in an earlier play:
						 * left out of the later ones,
						 * as Ansible's failed hosts */
	json_t			*facts;		/* from probe, or NULL; while
						 * the host takes no step it
						 * may be parked instead: */
	char			*facts_parked;	/* facts as compact JSON text */
	json_t			*gather_subset;	/* the gathering play's (NULL:
						 * none given, or none
						 * gathered) */
	unsigned		 gather_mask;	/* its collectors */
	int			 gathered;	/* by a play, since the last
						 * clear_facts */
	json_t			*registered;	/* register: results, and
						 * set_fact's facts */
	json_t			*included;	/* include_vars' (below
						 * those) */
	json_t			*hostvars_level; /* both, as others' templates
						 * read them (hostvars.c) */
	/* set_fact's and include_vars' of the running task: the host's
	 * when it did not fail */
	json_t			*pending_facts;
	json_t			*pending_vars;
	unsigned char		*notified;	/* per handler of the play:
						 * notified, not yet run */
	json_t			*memo;		/* module state kept across
						 * tasks (e.g. the iperf3
						 * baseline); under lock */
	void			*stage;		/* what modules staged, or */
	const struct module_stager *stager;	/* NULL; flushes, frees it */
	struct tp_become	 stage_as;	/* who the stage's flush runs
						 * as: its last task's become */
	char			*stage_as_user;	/* owns stage_as.user */
	struct become_defaults	 become;	/* the command line's and the
						 * host's variables (strings:
						 * conn_strings) */
	struct task_result	*results;
	size_t			 nresults;
	struct host_stats	 stats;
	char			*warning;	/* transport warning, once */
	pthread_mutex_t		 verify_lock;	/* one iperf3 test per peer */
	json_t			*pairs;		/* a pairwise task's pairs of
						 * this host (module_ctx_pairs),
						 * for the step; else NULL */
};

struct run_config {
	int			 forks;
	int			 check;
	int			 diff;
	int			 connect_timeout;
	int			 command_timeout;
	int			 confirm_timeout; /* -1 not given, 0 off */
	const char		*known_hosts;
	const char		*ssh_config;
	const char		*private_key;
	const char		*user;
	int			 become;	/* -b on the command line */
	/* ansible.cfg and ANSIBLE_* values (--become-user too): Ansible uses
	 * them only where the host's inventory sets nothing. */
	const char		*default_user;	/* remote_user */
	const char		*default_private_key; /* private_key_file */
	int			 default_become; /* become */
	const char		*default_become_user; /* become_user */
	const char		*become_password; /* -K, borrowed, or NULL;
						   * an inventory one wins */
	enum tp_hostkey_mode	 hostkey_mode;
	const char		*limit;
	const char		*tags;
	const char		*skip_tags;
	const char		*playbook_path;	/* for the drop-in header */
	int			 verbosity;	/* -v count: debug's verbosity */
	int			 drift;		/* check mode that reports drift
						 * items (tcptune drift) */
	json_t			*extra_vars;	/* borrowed */
	/* What cmd/ prints, as it happens. The runner never calls two of
	 * these at once: the main thread calls them while no worker runs,
	 * workers (and the main thread's ticks) under the runner's lock. None
	 * may call into the runner. Any may be NULL. */
	void	(*play_start)(void *arg, const struct play *play,
		    size_t nhosts);
	/* A step starts on nhosts hosts of the batch: its task's name (the
	 * facts gathering and the stager's apply have one too). */
	void	(*task_start)(void *arg, const struct play *play,
		    const char *task, size_t nhosts);
	/* The same for a handler's step (NULL: task_start). */
	void	(*handler_start)(void *arg, const struct play *play,
		    const char *task, size_t nhosts);
	/* A host's task will run again (until): left attempts to go. */
	void	(*host_retry)(void *arg, const char *host, const char *task,
		    int left);
	/* A host's transport warning, once, before its next result. */
	void	(*host_warning)(void *arg, const char *host,
		    const char *warning);
	/* A host's result, as soon as its step ended: results of a step
	 * come in the order hosts finish. */
	void	(*host_result)(void *arg, const char *host,
		    const struct task_result *tr);
	/* The running step, after each result and four times a second
	 * while it runs: for a live progress line. */
	void	(*progress)(void *arg, const struct run_progress *p);
	/* A pairwise task (iperf3_verify) is about to measure: its schedule
	 * (module_ctx_schedule's object), in the main thread, before any
	 * pair starts. */
	void	(*schedule)(void *arg, const struct play *play,
		    const char *task, const json_t *schedule);
	/* A round of that task ended, every pair of it measured: in the
	 * main thread, under the runner's lock. round: {"rounds_done",
	 * "rounds", "pairs_done", "pairs", "round_pairs", "round_seconds",
	 * "seconds" (since the first round started), "seconds_left" (the
	 * estimate, run/rounds.h pair_plan_seconds_left)}. Not for a round
	 * Ctrl-C cut short. While a round runs, progress is fed too (its
	 * rounds > 0). */
	void	(*round_done)(void *arg, const struct play *play,
		    const char *task, const json_t *round);
	/* A serial batch after the play's first starts: Ansible prints the
	 * play's banner again for each. */
	void	(*batch_start)(void *arg, const struct play *play,
		    size_t batch_index, size_t nhosts);
	/* After each batch, in the main thread, with the batch's hosts in
	 * inventory order. */
	void	(*batch_done)(void *arg, const struct play *play,
		    size_t play_index, struct host_state **hosts, size_t n);
	/* -vv: the transport's phases and command lines (net/transport.h),
	 * from the worker threads, at any time: it must be thread-safe. */
	tp_trace_fn trace;
	int	 ssh_debug;	/* -vvv: libssh's log to trace too */
	void	 *cb_arg;
	/* Nothing reads a result's data or diff after its host_result
	 * callback (text and jsonl output of probe, ping, rollback, plan): the
	 * runner frees them once reported, so a fleet's results cost only their
	 * status and message. */
	int	 lean_results;
};

struct runner {
	const struct run_config	 *cfg;
	const struct inventory	 *inv;
	struct host_state	**hosts;	/* every host of the inventory */
	size_t			  nhosts;
	pthread_mutex_t		  lock;		/* the running step's state,
						 * and the callbacks */
	int			  stopped;	/* max_fail / any_errors_fatal */
	int			  play_ended;	/* meta: end_play in this play:
						 * no later batch of it runs */
	json_t			 *hostvars;	/* every host's inventory vars,
						 * the `hostvars` variable */
	json_t			 *host_index;	/* name: index in hosts */
	char			 *stop_reason;
	json_t			 *schedule;	/* the running pairwise step's,
						 * or NULL */
	struct conn_pool	  pool;		/* the open connections */
	struct playbook		**includes;	/* the trees include_tasks
						 * read, each once per file
						 * and items (task-exec.c);
						 * kept for the results */
	char			**include_keys;
	size_t			  nincludes;
	json_t			 *magic;	/* Ansible's magic variables of
						 * the run and the running
						 * play (magic-vars.c) */
	struct host_state	**play_hosts;	/* the running play's, after
						 * --limit */
	size_t			  nplay_hosts;
	char			**titles;	/* task names as templated for
						 * a step (runner_step_title),
						 * kept for the results */
	size_t			  ntitles;
	struct host_state	 *localhost;	/* delegate_to: localhost when
						 * the inventory has none */
	size_t			  park_above;	/* park idle hosts' facts
						 * when a batch has more
						 * hosts than this */
};

/* What a module runs with. Modules see it only through the accessors of
 * playbook/module.h (run/module-ctx.c); the runner fills it per call. */
struct module_ctx {
	struct runner		*run;
	struct host_state	*host;
	const struct play	*play;
	const struct task	*task;
	json_t			*vars;		/* borrowed: the host's vars */
	int			 check;
	int			 diff;
	struct host_state	*conn;		/* whose connection its
						 * commands use: host, or the
						 * task's delegate_to */
	struct tp_become	 as;		/* who they run as
						 * (playbook/become.h) */
	char			*as_user;	/* owns as.user when rendered */
	char			*conn_error;	/* a delegate_to or become_user
						 * that did not render or name
						 * no host: nothing runs */
};

/* Set by cmd/ on SIGINT: no new host or task starts; the recap is printed. */
extern volatile sig_atomic_t runner_interrupted;

int		 runner_init(struct runner *r, const struct run_config *cfg,
		    const struct inventory *inv, char **cause);
void		 runner_free(struct runner *r);
struct host_state *runner_host(struct runner *r, const char *name);
/* The host a task delegated to name runs over: the inventory's, else the
 * implicit localhost for localhost, 127.0.0.1 or ::1 (Ansible's
 * C.LOCALHOST); NULL for any other name. */
struct host_state *runner_delegate_host(struct runner *r, const char *name);

/* Run every play of a playbook. Returns 0, or -1 with *cause when the run
 * could not start (a pattern matched nothing). Host failures are in the
 * host states, not in the return value. */
int		 runner_play(struct runner *r, const struct playbook *pb,
		    char **cause);
/* Run one ad-hoc module over the hosts matching pattern (ping, probe). */
int		 runner_adhoc(struct runner *r, const char *pattern,
		    const struct module *m, json_t *args, char **cause);

/* The host's facts from its last probe (a new reference), or NULL: for
 * cmd/ after the run, whether or not they are parked. */
json_t		*runner_host_facts(struct host_state *h);

/* The address measurements use to reach an inventory host: its
 * iperf_address var, else ansible_host, else its name. Allocated. */
char		*runner_traffic_address(const struct runner *r,
		    const char *host);

/* Exit-status bits (2 failed, 4 unreachable) for the hosts of the run. */
int		 runner_exit_bits(const struct runner *r);
/* The exit status of a run: RUNNER_EXIT_INTERRUPTED (130, as for a shell
 * killed by SIGINT) when Ctrl-C stopped it, else runner_exit_bits. */
#define RUNNER_EXIT_INTERRUPTED	130
int		 runner_exit_status(const struct runner *r);

#endif
