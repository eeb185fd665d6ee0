/* Modules: what a task can call.
 *
 * Each module is modules/mod-<name>.c exporting one `const struct module
 * mod_<name>` written with designated initialisers. The core binds a task's
 * YAML parameters to the module's parameter table (type, required/default,
 * bounds, choices) before any host is contacted; modules never parse YAML and
 * never touch libssh: they run through the module_ctx they are given. */
#ifndef TCPTUNE_MODULE_H
#define TCPTUNE_MODULE_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "net/transport.h"
#include "remote/hostline.h"

enum param_type {
	PARAM_STR,	/* any scalar, taken as a string */
	PARAM_INT,	/* integer, bounded by min/max */
	PARAM_BOOL,	/* YAML 1.1 booleans (yes/no/true/false/on/off) */
	PARAM_FLOAT,	/* number, bounded by min/max */
	PARAM_SIZE,	/* bytes: an integer or "16M", "64MiB", "1G" */
	PARAM_CHOICE,	/* a string from choices[] */
	PARAM_LIST,	/* a list (items are not typed further) */
	PARAM_MAP,	/* a mapping (values are not typed further) */
	PARAM_PATH,	/* absolute path string */
	PARAM_ANY,	/* any value, as written (debug's msg) */
};

/*
 * A module's conf: the C struct its parameter table binds into, like
 * nginx's ngx_command_t offsets. Its first member is a struct module_conf;
 * each row's offset (offsetof) names the field its value lands in, of the
 * C type the row's type says:
 *	PARAM_STR, PARAM_PATH, PARAM_CHOICE	const char *	(NULL: none)
 *	PARAM_INT				long long
 *	PARAM_FLOAT				double
 *	PARAM_SIZE				uint64_t	(bytes)
 *	PARAM_BOOL				int
 *	PARAM_LIST, PARAM_MAP, PARAM_ANY	const json_t *	(NULL: none)
 * A parameter neither given nor defaulted stays 0 or NULL. Strings, lists
 * and mappings are borrowed from the bound arguments, which outlive the
 * module call. The binder fills the conf (lib/playbook/bind.c); a module
 * only reads it.
 */
struct module_conf {
	uint64_t	given;	/* bit i: the task gave params[i] (not its
				 * default) */
};

struct module_param {
	const char		 *name;
	enum param_type		  type;
	size_t			  offset;	/* of its field in the conf */
	int			  required;
	const char		 *def;		/* default, as YAML text; NULL: none */
	double			  min;		/* INT/FLOAT/SIZE bounds when min < max */
	double			  max;
	const char *const	 *choices;	/* PARAM_CHOICE, NULL-terminated */
	const char		 *help;
	/* What the value becomes on a host, if anything: the runner checks
	 * it at the gate (lib/remote/hostline.h) before the module runs. */
	enum hostline_kind	  host_line;
};

enum result_status {
	RESULT_OK = 0,
	RESULT_CHANGED,
	RESULT_SKIPPED,
	RESULT_FAILED,
	RESULT_UNREACHABLE,
};

/* What a result stands for: a task of the play (the facts gathering
 * included), or the runner's apply of what staging modules staged (its
 * module is the stager's name). Readers find the apply by this kind. */
enum result_kind {
	RESULT_KIND_TASK = 0,
	RESULT_KIND_APPLY,
};

/* What a module runs with: one host of the run, its vars and the task's
 * mode. Opaque here; only the accessors below reach into it (lib/run/
 * module-ctx.c), so a module cannot depend on how the runner keeps hosts,
 * connections or locks. */
struct module_ctx;
/* Another host of the run, for a module that works with a peer (iperf3).
 * Opaque: only module_ctx_exec_on and the pair lock take it. */
struct host_state;
struct module_stager;	/* below */
struct module_pairwise;	/* below */

struct module_result {
	enum result_status	 status;
	char			*msg;	/* one line for the task line, allocated */
	char			*diff;	/* text diff for --diff, allocated, or NULL */
	json_t			*data;	/* registered result, may be NULL */
	int			 verbose; /* msg is shown for each loop item
					 * too (Ansible's
					 * _ansible_verbose_always) */
	char			*delegated; /* set by the runner: the host a
					     * delegated task ran on, as
					     * Ansible labels it ("lab02
					     * (10.0.0.2)"), allocated */
};

struct module {
	const char			*name;
	/* Other names a task may call it by (the FQCNs Ansible accepts for
	 * it), NULL-terminated; NULL: none. */
	const char *const		*aliases;
	/* Set when another module answers to the same name: this one is
	 * the task's only when the task gives this parameter (today's
	 * `sysctl` with `values:`, beside Ansible's `sysctl` with `name:`).
	 * NULL: the module for its names. */
	const char			*claims;
	const char			*summary;
	const struct module_param	*params;	/* terminated by name NULL */
	/* sizeof the conf its params bind into; run, plan and validate get
	 * that struct as conf. 0 for a module without parameters: it gets a
	 * bare struct module_conf. */
	size_t				 conf_size;
	/* Cross-field rules after binding; NULL if none. */
	int	(*validate)(const void *conf, char **cause);
	/* Run on one host: the writing path. NULL means "not implemented
	 * yet" (an error). In check mode the core never calls it unless
	 * check_safe is set (see module_call). */
	int	(*run)(struct module_ctx *ctx, const void *conf,
		    struct module_result *res);
	/* Check mode for a module that changes hosts: read what is there
	 * and say what run would change (a diff), writing nothing. NULL: in
	 * check mode the task is skipped with a reason. */
	int	(*plan)(struct module_ctx *ctx, const void *conf,
		    struct module_result *res);
	/* run only reads (ping, probe) or only stages changes for the core's
	 * apply (tuning modules), so check mode may call it. */
	int	check_safe;
	/* A staging module: run only adds to the host's stage (module_ctx_
	 * stage), which this stager applies; NULL for every other module. */
	const struct module_stager	*stager;
	/* The module gather_facts runs (the probe); one row of the table. */
	int	gathers_facts;
	/* A string of "key=value" words is its parameters, as Ansible's
	 * free form (`sysctl: name=vm.swappiness value=5`). */
	int	kv_free_form;
	/* The parameter a plain string is, as `command: uptime` is cmd
	 * (NULL: "cmd"): `include_vars: vars/a.yml` is file. */
	const char			*free_form;
	/* A PARAM_MAP parameter that takes every key the table does not
	 * name (set_fact's facts), NULL: such a key is an error. */
	const char			*rest;
	/* The subdirectory of a role or playbook where its file lookups
	 * (with_first_found) look first, as Ansible's task executor sets
	 * the lookup's _subdir: "vars" for include_vars, "templates" for
	 * template; NULL: "files". */
	const char			*search_subdir;
	/* A module that measures pairs of hosts (below); NULL for others. */
	const struct module_pairwise	*pairwise;
};

/*
 * Pairs of hosts, scheduled by the runner (iperf3_verify). Before such a
 * task runs on any host of the batch, the runner asks each host for its
 * peers (peers), makes one set of unordered pairs of them (a pair listed by
 * both ends is measured once; lib/run/rounds.h), keeps at most `sample`
 * per group pair, and runs them in rounds: a round is a matching (no host
 * in two pairs), its pairs run at once, at most forks of them at a time,
 * each by measure on its client's context (which holds no lock of the
 * runner: only the two hosts' connections are used, one command each at a
 * time). Then the task runs on every host as any task does (run, or plan
 * in check mode), and module_ctx_pairs gives each host the pairs it was an
 * end of, measured (or, in check mode, only scheduled).
 */
struct module_peer {
	const char	*name;		/* an inventory host, borrowed */
	char		*address;	/* allocated, or NULL: its traffic
					 * address */
};

struct module_pairwise {
	/* This host's peers (an allocated array; each address allocated),
	 * and the most pairs to keep per group pair (0: all). 0, or -1 with
	 * *cause (the task's run reports it on the host). */
	int	 (*peers)(struct module_ctx *ctx, const void *conf,
		    struct module_peer **peers, size_t *n, long long *sample,
		    char **cause);
	/* Seconds one pair takes, for the estimate shown before starting. */
	double	 (*pair_seconds)(const void *conf);
	/* Measure one pair, ctx being its client's and conf the client's:
	 * returns the pair's data (a new object, never NULL; on failure it
	 * says so in it). peer_host is module_ctx_peer(ctx, peer->name). */
	json_t	*(*measure)(struct module_ctx *ctx, const void *conf,
		    const struct module_peer *peer,
		    struct host_state *peer_host);
};

/*
 * Stage, then flush once: modules sharing a stager (the tuning modules,
 * modules/tune.h) change nothing in their run; they add to one stage
 * per host. The runner hands that stage to flush -- before the next task
 * whose module has another stager or none, and at the end of the play --
 * as a step of its own, so a play writes once however many tasks staged,
 * and a task after them sees the new values. flush reads the stage and
 * fills res (an apply in check mode shows what it would do); the runner
 * then frees the stage with free, and frees a stage never flushed (a
 * failure, Ctrl-C) the same way.
 */
struct module_stager {
	const char	*name;		/* the apply result's module */
	const char	*task_name;	/* the apply's task line */
	int	(*flush)(struct module_ctx *ctx, void *stage,
		    struct module_result *res);
	void	(*free)(void *stage);
};

/* NULL-terminated table of every module, in modules/modules.c. */
extern const struct module *const module_table[];

/* The module named name, else the first one name is an alias of. */
const struct module		*module_find(const char *name);
/* The module name closest to a misspelt one (did_you_mean), or NULL. In
 * playbook.c. */
const char			*module_suggestion(const char *name);
/* Whether m answers to name (its name or an alias). */
int				 module_answers(const struct module *m,
				    const char *name);
/* The module a task's key names, given the names of the parameters the
 * task gives: among the modules answering to key, one whose `claims`
 * parameter is given, else the one that claims nothing; NULL: none. */
const struct module		*module_find_task(const char *key,
				    const char *const *given, size_t ngiven);
/* The table's module with gathers_facts set, or NULL. */
const struct module		*module_find_gatherer(void);
/* key names a module of Ansible's (ansible.builtin, ansible.posix,
 * community.general; short, FQCN or ansible.legacy) that the table lacks:
 * its FQCN, allocated, else NULL (modules/unimplemented.c). */
char				*module_unimplemented_fqcn(const char *key);
/* The module of a task calling such a module: its one parameter `module`
 * is the FQCN, and it fails wherever it runs, check mode too. */
extern const struct module	 mod_unimplemented;
const struct module_param	*module_find_param(const struct module *m,
				    const char *name);
const char			*param_type_name(enum param_type type);
/* Whether the task gave the parameter that params (a module's table) binds
 * at offset off of its conf (offsetof(struct X_conf, field)), rather than
 * the field holding the default. */
int				 module_conf_given(
				    const struct module_param *params,
				    const void *conf, size_t off);
void				 module_result_clear(struct module_result *res);
/* Call m on one host as the mode says: run, or in check mode run when it
 * is check-safe, else plan, else a skip with the reason. The only way the
 * runner calls a module, so check mode cannot reach a writing path. args
 * are the task's bound arguments and given the mask of those the task
 * gave (bind_rendered_args); the module gets them bound into its conf. */
int				 module_call(const struct module *m,
				    struct module_ctx *ctx, const json_t *args,
				    uint64_t given, struct module_result *res);
const char			*result_status_name(enum result_status s);
/* A transport failure as the module result: unreachable for connection-
 * level failures (unreachable, host key, auth), failed else. Takes cause
 * (NULL: the status's own words). */
void				 module_result_transport_failed(
				    struct module_result *res,
				    enum tp_status st, char *cause);
/* A remote script's output that its parser refused, as the module result:
 * failed, "CAUSE (exit N: STDERR...)". Takes cause; tr stays the
 * caller's. */
void				 module_result_unparsed(
				    struct module_result *res, char *cause,
				    const struct tp_result *tr);
/* The gate (remote/hostline.h) over a task's rendered, bound arguments: each
 * parameter as its table row's host_line says, and, for a module with a
 * drop-in path, the host's HOSTLINE_DROPIN_VAR. In module-gate.c. */
int				 hostline_check_args(const struct module *m,
				    const json_t *args, const json_t *vars,
				    char **cause);

/*
 * The module context (implemented in lib/run/module-ctx.c). Borrowed
 * pointers stay valid for the module call that got them.
 */
/* This host: its inventory name, its vars (everything a template sees),
 * the task's check and diff modes. */
const char	*module_ctx_host_name(const struct module_ctx *ctx);
const json_t	*module_ctx_vars(const struct module_ctx *ctx);
int		 module_ctx_check(const struct module_ctx *ctx);
int		 module_ctx_diff(const struct module_ctx *ctx);
/* The run: a check that reports drift items (tcptune drift), and the
 * playbook's path for the drop-in's header (NULL when ad hoc). */
int		 module_ctx_drift(const struct module_ctx *ctx);
const char	*module_ctx_playbook_path(const struct module_ctx *ctx);

/* The task's environment rendered for this host as sh text to put
 * before a command (remote_env_prefix: "" for none), or NULL with *cause.
 * Allocated. */
char		*module_ctx_environment(struct module_ctx *ctx, char **cause);
/* -v given this many times (debug's verbosity). */
int		 module_ctx_verbosity(const struct module_ctx *ctx);
/* set_fact: name is the host's from the next task on, at the level of
 * registered results (value stolen). include_vars: every key of vars
 * (copied), a level below. */
void		 module_ctx_set_fact(struct module_ctx *ctx, const char *name,
		    json_t *value);
void		 module_ctx_include_vars(struct module_ctx *ctx,
		    const json_t *vars);

/* The host's facts from the probe, or NULL; borrowed until the next
 * module_ctx_set_facts. set takes a reference of its own, so tasks still
 * holding the old facts keep them. */
const json_t	*module_ctx_facts(const struct module_ctx *ctx);
void		 module_ctx_set_facts(struct module_ctx *ctx, json_t *facts);

/* State a module keeps on this host across tasks (the iperf3 baseline):
 * get returns a new reference or NULL; set steals value. */
json_t		*module_ctx_memo_get(struct module_ctx *ctx, const char *key);
void		 module_ctx_memo_set(struct module_ctx *ctx, const char *key,
		    json_t *value);

/* The host's stage for this module's stager (struct module_stager), NULL
 * until set; set hands it to the runner, which flushes and frees it. */
void		*module_ctx_stage(struct module_ctx *ctx);
void		 module_ctx_set_stage(struct module_ctx *ctx, void *stage);

/* Run a command on this host, over its one connection for the run (opened
 * on first use). TP_OK means the command ran: see res->exit_status. */
enum tp_status	 module_ctx_exec(struct module_ctx *ctx, const char *cmd,
		    const void *in, size_t in_len, int timeout,
		    struct tp_result *res, char **cause);

/* Run a command on this host over a NEW connection, opened for this call
 * and closed after it (the host's own one is left alone): what proves,
 * after a live change, that the host can still be reached. Not counted in
 * the pool of open connections (a moment's one more per host).
 * connect_timeout: seconds for this connection's connect and key exchange,
 * <= 0 for the host's own. */
enum tp_status	 module_ctx_exec_fresh(struct module_ctx *ctx, const char *cmd,
		    const void *in, size_t in_len, int timeout,
		    int connect_timeout, struct tp_result *res, char **cause);
/* Close this host's connection and forget that it was unreachable, so
 * the next module_ctx_exec connects anew (Ansible's connection.reset():
 * reboot, wait_for_connection, after the host went away on purpose). */
void		 module_ctx_reset_connection(struct module_ctx *ctx);
/* --confirm-timeout: -1 when not given (tcptune's default: 120 s for a
 * live qdisc or route change, off for sysctls alone), 0 for off, else the
 * seconds a host waits for the confirmation before it reverts by itself;
 * and the connect timeout (seconds) of the host's connections. */
int		 module_ctx_confirm_timeout(const struct module_ctx *ctx);
int		 module_ctx_connect_timeout(const struct module_ctx *ctx);

/* Peers: another inventory host by name (NULL: not in the inventory),
 * the address measurements reach it at (its iperf_address var, else
 * ansible_host, else the name; allocated), and a command run over its one
 * connection. */
struct host_state *module_ctx_peer(struct module_ctx *ctx, const char *name);
/* This host's iperf3 peers, from its vars: `iperf_peer` (one host) and
 * `iperf_peers` (a host or group name, or a list of them; a group stands
 * for its hosts and their descendants'), deduplicated, the host itself left
 * out, in the order given (a group's hosts in inventory order). *names is
 * an allocated array of borrowed names (free the array only); 0 with *n ==
 * 0 when the host has no peer. -1 with *cause when a name is neither a
 * host nor a group of the inventory, or an entry is not a string. */
int		 module_ctx_peers(struct module_ctx *ctx, const char ***names,
		    size_t *n, char **cause);
char		*module_ctx_traffic_address(const struct module_ctx *ctx,
		    const char *name);
enum tp_status	 module_ctx_exec_on(struct module_ctx *ctx,
		    struct host_state *peer, const char *cmd, const void *in,
		    size_t in_len, int timeout, struct tp_result *res,
		    char **cause);
/* In a pairwise task's run (struct module_pairwise): the pairs this host
 * is an end of, in round order, each the object measure returned (absent
 * in check mode) with "client", "server" and "round" (0-based) set by the
 * runner; and the schedule of the whole step: {"pairs", "rounds",
 * "min_rounds", "max_pairs_per_host", "sample", "forks", "seconds"}.
 * NULL outside a pairwise task. Borrowed for the module call. */
const json_t	*module_ctx_pairs(const struct module_ctx *ctx);
const json_t	*module_ctx_schedule(const struct module_ctx *ctx);
/* The pair lock: this host and peer take part in one test at a time (an
 * iperf3 run on either end would skew the other's figures). Both ends are
 * taken in the order of their names, so two hosts testing each other
 * cannot deadlock. Every lock_pair has its unlock_pair. */
void		 module_ctx_lock_pair(struct module_ctx *ctx,
		    struct host_state *peer);
void		 module_ctx_unlock_pair(struct module_ctx *ctx,
		    struct host_state *peer);

#endif
