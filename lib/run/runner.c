#include "run/runner.h"
#include "run/runner-int.h"
#include "run/cursor.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "remote/hostline.h"
#include "inventory/inventory.h"
#include "inventory/pattern.h"
#include "net/local.h"
#include "playbook/gather-subset.h"
#include "playbook/playbook.h"
#include "playbook/serial.h"
#include "template/template.h"
#include "base/util.h"
#include "base/xalloc.h"
#include "vault/vault.h"

volatile sig_atomic_t runner_interrupted;

static char *
keep(struct host_state *h, size_t slot, const char *s)
{
	if (s == NULL)
		return NULL;
	h->conn_strings[slot] = xstrdup(s);
	return h->conn_strings[slot];
}

/* The first of a, b, c that is set. */
static const char *
first(const char *a, const char *b, const char *c)
{
	return a != NULL ? a : b != NULL ? b : c;
}

static int
host_state_new(struct runner *r, const char *name, struct host_state **out,
    char **cause)
{
	const struct run_config	*cfg = r->cfg;
	struct host_state	*h = xcalloc(1, sizeof *h);
	struct host_conn	 conn;

	h->name = xstrdup(name);
	pthread_mutex_init(&h->lock, NULL);
	pthread_mutex_init(&h->verify_lock, NULL);
	if (inventory_host_conn(r->inv, name, cfg->extra_vars, &conn,
	    cause) != 0) {
		free(h->name);
		free(h);
		return -1;
	}
	/* ansible_connection: local runs its commands here (net/local.h),
	 * as the implicit localhost does */
	h->local = conn.local;
	h->tp.name = h->name;
	h->tp.host = keep(h, 0, conn.address != NULL ? conn.address : name);
	h->tp.port = conn.port;
	/* The command line overrides the inventory, as with ansible -u; the
	 * ansible.cfg's values are only defaults under it. */
	h->tp.user = keep(h, 1, first(cfg->user, conn.user, cfg->default_user));
	h->tp.key_file = keep(h, 2, first(cfg->private_key, conn.key_file,
	    cfg->default_private_key));
	h->tp.known_hosts = cfg->known_hosts;
	h->tp.ssh_config = cfg->ssh_config;
	h->tp.proxy_jump = keep(h, 3, conn.proxy_jump);
	h->tp.hostkey_mode = cfg->hostkey_mode;
	h->tp.trace = cfg->trace;
	h->tp.trace_arg = cfg->cb_arg;
	h->tp.ssh_debug = cfg->ssh_debug;
	h->tp.connect_timeout = cfg->connect_timeout;
	h->tp.command_timeout = cfg->command_timeout;
	/* become is decided per task (playbook/become.h); the host's
	 * ansible_become and ansible_become_user win over every keyword,
	 * the command line's and ansible.cfg's are the defaults under the
	 * play's */
	h->become.become = cfg->become || cfg->default_become;
	h->become.user = keep(h, 6, cfg->default_become_user);
	h->become.var_become = conn.become;
	h->become.var_user = keep(h, 7, conn.become_user);
	h->tp.become = conn.become >= 0 ? conn.become > 0 : h->become.become;
	h->tp.become_user = keep(h, 4, first(conn.become_user,
	    cfg->default_become_user, NULL));
	/* The inventory's password wins over -K's, host by host, as in
	 * Ansible. */
	h->tp.become_password = keep(h, 5, conn.become_password != NULL ?
	    conn.become_password : cfg->become_password);
	host_conn_clear(&conn);
	h->registered = json_object();
	h->included = json_object();
	h->pending_facts = json_object();
	h->pending_vars = json_object();
	h->memo = json_object();
	*out = h;
	return 0;
}

/* Ansible's implicit localhost: commands run here (net/local.h), as the
 * user tcptune runs as, under sudo -n when a task becomes; no variables
 * of its own, so become is the command line's and the keywords'. */
static struct host_state *
local_host_new(const struct run_config *cfg)
{
	struct host_state *h = xcalloc(1, sizeof *h);

	h->name = xstrdup("localhost");
	h->local = 1;
	pthread_mutex_init(&h->lock, NULL);
	pthread_mutex_init(&h->verify_lock, NULL);
	h->tp.name = h->name;
	h->tp.host = keep(h, 0, "localhost");
	h->become.become = cfg->become || cfg->default_become;
	h->become.user = keep(h, 6, cfg->default_become_user);
	h->become.var_become = -1;
	h->registered = json_object();
	h->included = json_object();
	h->pending_facts = json_object();
	h->pending_vars = json_object();
	h->memo = json_object();
	return h;
}

/* A stage that is not flushed (a failure, Ctrl-C) is dropped: a
 * half-planned change is never applied. */
static void
drop_stage(struct host_state *h)
{
	if (h->stage != NULL)
		h->stager->free(h->stage);
	h->stage = NULL;
	h->stager = NULL;
	free(h->stage_as_user);
	h->stage_as_user = NULL;
}

static void
host_state_free(struct host_state *h)
{
	size_t i;

	if (h == NULL)
		return;
	transport_close(h->tp_handle);
	/* Wiped: one of them may be the become password. */
	for (i = 0; i < sizeof h->conn_strings / sizeof h->conn_strings[0];
	    i++) {
		if (h->conn_strings[i] != NULL)
			explicit_bzero(h->conn_strings[i],
			    strlen(h->conn_strings[i]));
		free(h->conn_strings[i]);
	}
	for (i = 0; i < h->nresults; i++) {
		free(h->results[i].msg);
		free(h->results[i].delegated);
		free(h->results[i].diff);
		json_decref(h->results[i].data);
	}
	free(h->results);
	json_decref(h->facts);
	json_decref(h->gather_subset);
	free(h->facts_parked);
	json_decref(h->registered);
	json_decref(h->included);
	json_decref(h->hostvars_level);
	json_decref(h->pending_facts);
	json_decref(h->pending_vars);
	free(h->notified);
	json_decref(h->memo);
	drop_stage(h);
	free(h->unreachable_msg);
	free(h->warning);
	pthread_mutex_destroy(&h->lock);
	pthread_mutex_destroy(&h->verify_lock);
	free(h->name);
	free(h);
}

/*
 * Inline vault values become their plaintext where a play sees variables:
 * every host's inventory variables (hostvars) and the extra vars, all
 * before any host is contacted, so a missing or wrong password changes
 * nothing anywhere; every play's vars too (reveal_play_vars). inventory --list never
 * comes here and keeps printing the ciphertext, as ansible-inventory does.
 */
static int
reveal_vault(struct runner *r, char **cause)
{
	const char	*name;
	json_t		*v;
	char		*owner;
	int		 rc = 0;

	json_object_foreach(r->hostvars, name, v) {
		owner = xprintf("host '%s'", name);
		rc = vault_reveal_vars(v, owner, cause);
		free(owner);
		if (rc != 0)
			return -1;
	}
	if (r->cfg->extra_vars != NULL)
		rc = vault_reveal_vars(r->cfg->extra_vars, "extra vars", cause);
	return rc;
}

static int
reveal_one(json_t *vars, const struct ypos *pos, const char *what,
    char **cause)
{
	char	*owner;
	int	 rc;

	if (vars == NULL)
		return 0;
	owner = xprintf("%s:%d: %s", pos->file, pos->line, what);
	rc = vault_reveal_vars(vars, owner, cause);
	free(owner);
	return rc;
}

/* The play's vars, and its roles' defaults, vars and parameters and its
 * tasks' vars, which may hold inline vault values too. */
static int
reveal_play_vars(const struct play *play, char **cause)
{
	const struct role	*role;
	char			*what;
	size_t			 i;
	int			 rc;

	/* as docs/vault.md shows it: "site.yml:1: play 'tune': ..." */
	what = xprintf("play '%s'", play->name != NULL && *play->name !=
	    '\0' ? play->name : play->hosts);
	rc = reveal_one(play->vars, &play->pos, what, cause);
	free(what);
	if (rc != 0 ||
	    reveal_one(play->role_defaults, &play->pos, "role defaults",
	    cause) != 0 || reveal_one(play->role_vars, &play->pos,
	    "role vars", cause) != 0)
		return -1;
	for (i = 0; i < play->nroles; i++) {
		role = play->roles[i];
		if (reveal_one(role->all_defaults, &role->pos, "role defaults",
		    cause) != 0 || reveal_one(role->all_vars, &role->pos,
		    "role vars", cause) != 0 || reveal_one(role->all_params,
		    &role->pos, "role parameters", cause) != 0)
			return -1;
	}
	for (i = 0; i < play->ntasks; i++) {
		if (reveal_one(play->tasks[i].vars, &play->tasks[i].pos,
		    "task vars", cause) != 0)
			return -1;
	}
	for (i = 0; i < play->nhandlers; i++) {
		if (reveal_one(play->handlers[i].vars, &play->handlers[i].pos,
		    "handler vars", cause) != 0)
			return -1;
	}
	return 0;
}

/* The pool's hook: close h's connection unless someone is using it. */
static int
close_idle(void *entry)
{
	struct host_state *h = entry;

	if (pthread_mutex_trylock(&h->lock) != 0)
		return 0;
	transport_close(h->tp_handle);
	h->tp_handle = NULL;
	pthread_mutex_unlock(&h->lock);
	return 1;
}

int
runner_init(struct runner *r, const struct run_config *cfg,
    const struct inventory *inv, char **cause)
{
	char	**names = NULL;
	size_t	  n = 0, i;

	memset(r, 0, sizeof *r);
	r->cfg = cfg;
	r->inv = inv;
	pthread_mutex_init(&r->lock, NULL);
	/* Room for every worker's host and the peer it may reach (iperf3):
	 * memory follows --forks, not the fleet. */
	r->park_above = 2 * (size_t)(cfg->forks > 4 ? cfg->forks : 4);
	conn_pool_init(&r->pool, r->park_above, close_idle);
	if (inventory_select(inv, "all", &names, &n, cause) != 0)
		return -1;
	r->hosts = xcalloc(n, sizeof *r->hosts);
	for (i = 0; i < n; i++) {
		if (host_state_new(r, names[i], &r->hosts[i], cause) != 0)
			break;
		r->nhosts++;
	}
	pattern_hosts_free(names, n);
	if (r->nhosts != n)
		return -1;
	r->localhost = local_host_new(cfg);
	/* `hostvars`: built once; templates read peers' vars through it
	 * ({{ hostvars[iperf_peer].ansible_host }}). */
	r->hostvars = json_object();
	for (i = 0; i < r->nhosts; i++) {
		json_t *v = inventory_host_vars(inv, r->hosts[i]->name);

		json_object_set_new(r->hostvars, r->hosts[i]->name,
		    v != NULL ? v : json_object());
	}
	runner_hostvars_init(r);
	return reveal_vault(r, cause);
}

void
runner_free(struct runner *r)
{
	size_t i;

	for (i = 0; i < r->nhosts; i++)
		host_state_free(r->hosts[i]);
	free(r->hosts);
	host_state_free(r->localhost);
	conn_pool_free(&r->pool);
	for (i = 0; i < r->nincludes; i++) {
		playbook_free(r->includes[i]);
		free(r->include_keys[i]);
	}
	free(r->includes);
	free(r->include_keys);
	json_decref(r->magic);
	for (i = 0; i < r->ntitles; i++)
		free(r->titles[i]);
	free(r->titles);
	runner_hostvars_free(r);
	json_decref(r->hostvars);
	free(r->stop_reason);
	pthread_mutex_destroy(&r->lock);
}

struct host_state *
runner_delegate_host(struct runner *r, const char *name)
{
	struct host_state *h = runner_host(r, name);

	if (h != NULL)
		return h;
	if (strcmp(name, "localhost") == 0 || strcmp(name, "127.0.0.1") == 0 ||
	    strcmp(name, "::1") == 0)
		return r->localhost;
	return NULL;
}

struct host_state *
runner_host(struct runner *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->nhosts; i++) {
		if (strcmp(r->hosts[i]->name, name) == 0)
			return r->hosts[i];
	}
	return NULL;
}

/*
 * Facts between a host's steps. A probe's facts as a JSON tree take ~25 KiB
 * (an object per section, a hash table per object); as compact text ~4 KiB.
 * When a batch has more hosts than the workers can hold (park_above) and
 * nothing keeps the tree otherwise (lean_results: the probe's result let go
 * of it), a host's facts wait as text while it takes no step, and become a
 * tree again for its next one: only the running hosts hold trees.
 */
static void
park_facts(struct runner *r, struct host_state *h, size_t batch_hosts)
{
	if (!r->cfg->lean_results || batch_hosts <= r->park_above)
		return;
	pthread_mutex_lock(&h->lock);
	if (h->facts != NULL && h->facts_parked == NULL) {
		h->facts_parked = json_dumps(h->facts, JSON_COMPACT |
		    JSON_PRESERVE_ORDER);
		if (h->facts_parked != NULL) {
			json_decref(h->facts);
			h->facts = NULL;
		}
	}
	pthread_mutex_unlock(&h->lock);
}

static void
unpark_facts(struct host_state *h)
{
	pthread_mutex_lock(&h->lock);
	if (h->facts_parked != NULL) {
		h->facts = json_loads(h->facts_parked, 0, NULL);
		free(h->facts_parked);
		h->facts_parked = NULL;
	}
	pthread_mutex_unlock(&h->lock);
}

json_t *
runner_host_facts(struct host_state *h)
{
	json_t *f;

	pthread_mutex_lock(&h->lock);
	if (h->facts_parked != NULL)
		f = json_loads(h->facts_parked, 0, NULL);
	else
		f = json_incref(h->facts);
	pthread_mutex_unlock(&h->lock);
	return f;
}

/* The variables a task on this host sees (precedence in playbook.h). */
json_t *
runner_host_vars(struct runner *r, struct host_state *h,
    const struct play *play, const struct task *t, const json_t *groups)
{
	/* The inventory's merge for this host was made once, for hostvars. */
	json_t *vars, *level = h->registered;

	/* include_vars' are below set_fact's and registered results */
	if (json_object_size(h->included) > 0) {
		level = json_deep_copy(h->included);
		json_object_update(level, h->registered);
	} else
		json_incref(level);
	vars = playbook_task_vars(play, t, json_object_get(r->hostvars,
	    h->name), level, r->cfg->extra_vars, h->facts, h->name,
	    groups);
	json_decref(level);
	if (h->gathered)
		gather_subset_apply(vars, h->gather_mask, h->gather_subset);
	json_object_set(vars, "hostvars", r->hostvars);
	runner_magic_apply(r, h, vars);
	return vars;
}

/* s with every vault secret replaced (vault_redact), as a string to keep;
 * s is consumed. */
static char *
redacted(char *s)
{
	char *r;

	if ((r = vault_redact(s)) == NULL)
		return s;
	free(s);
	return r;
}

void
runner_retry(struct runner *r, struct host_state *h, const char *task,
    int left)
{
	if (r->cfg->host_retry == NULL)
		return;
	pthread_mutex_lock(&r->lock);
	r->cfg->host_retry(r->cfg->cb_arg, h->name, task, left);
	pthread_mutex_unlock(&r->lock);
}

/* Keep res as the host's next result (a task's; the caller marks an
 * apply) and count it. */
struct task_result *
runner_record(struct host_state *h, size_t play_index, const char *task_name,
    const char *module, struct module_result *res, int ignored, double secs)
{
	struct task_result *tr;

	h->results = xreallocarray(h->results, h->nresults + 1,
	    sizeof *h->results);
	tr = &h->results[h->nresults++];
	tr->play = play_index;
	tr->task_name = task_name;
	tr->module = module;
	tr->kind = RESULT_KIND_TASK;
	tr->status = res->status;
	/* The one place results are kept: what cmd/ prints, the JSON
	 * report and drift's reports all read them from here. */
	tr->msg = redacted(res->msg);
	tr->diff = redacted(res->diff);
	tr->data = vault_redact_json(res->data);
	res->msg = NULL;
	res->diff = NULL;
	json_decref(res->data);
	res->data = NULL;
	tr->ignored = ignored;
	tr->seconds = secs;
	tr->delegated = res->delegated;
	res->delegated = NULL;
	/* As Ansible's strategy counts them: a changed result is ok too, a
	 * failure under ignore_errors is ok and ignored, and changed where
	 * its result says so (a command that ran and failed). */
	switch (res->status) {
	case RESULT_OK: h->stats.ok++; break;
	case RESULT_CHANGED: h->stats.ok++; h->stats.changed++; break;
	case RESULT_SKIPPED: h->stats.skipped++; break;
	case RESULT_UNREACHABLE: h->stats.unreachable++; break;
	case RESULT_FAILED:
		if (ignored) {
			h->stats.ok++;
			h->stats.ignored++;
			h->stats.changed += json_is_true(json_object_get(
			    tr->data, "changed"));
		} else
			h->stats.failed++;
		break;
	}
	return tr;
}

/* Before a host's first step of a play: every selected task whose `when`
 * holds now, rendered with the vars known now, through the gate. A refusal
 * fails the host before anything runs on it, so a hostile inventory value
 * never gets a partly applied play. Tasks that need values known only
 * later (registered results) are checked again when they run. */
static int
preflight_tasks(struct runner *r, struct host_state *h,
    const struct play *play, size_t play_index, const struct task *tasks,
    size_t n, json_t *vars, const json_t *groups)
{
	struct module_result	res;
	size_t			i;

	for (i = 0; i < n; i++) {
		const struct task	*t = &tasks[i];
		json_t			*args, *own = NULL, *v = vars;
		char			*cause = NULL;
		int			 when = 1, refused;

		if (t->kind != TASK_MODULE ||
		    !task_selected(play, t, r->cfg->tags, r->cfg->skip_tags))
			continue;
		/* a role's or a block's variables are the task's own */
		if (t->role != NULL || t->vars != NULL)
			v = own = runner_host_vars(r, h, play, t, groups);
		if (t->when != NULL && (template_eval_bool(t->when, v,
		    &t->when_pos, &when, &cause) != 0 || !when)) {
			free(cause);
			json_decref(own);
			continue;
		}
		if ((args = task_render_args(t, v, NULL, &cause)) == NULL) {
			free(cause);
			json_decref(own);
			continue;
		}
		memset(&res, 0, sizeof res);
		refused = runner_gate_args(t, args, v, &res) != 0;
		json_decref(args);
		json_decref(own);
		if (refused) {
			runner_record(h, play_index, t->name, t->module->name,
			    &res, 0, 0);
			h->failed = 1;
			return -1;
		}
	}
	return 0;
}

static void
preflight(struct runner *r, struct host_state *h, const struct play *play,
    size_t play_index, json_t *vars, const json_t *groups)
{
	if (preflight_tasks(r, h, play, play_index, play->tasks,
	    play->ntasks, vars, groups) == 0)
		preflight_tasks(r, h, play, play_index, play->handlers,
		    play->nhandlers, vars, groups);
}

/* The context a module (t) or a stager's flush (t NULL) runs with: the
 * task's own check and diff modes, else the run's. */
/* The host task t's delegate_to names, rendered with the original host's
 * vars (Ansible's delegated task sees them); h itself without one. NULL
 * with ctx->conn_error. */
static struct host_state *
delegate(struct module_ctx *ctx, struct runner *r, struct host_state *h,
    const struct task *t, json_t *vars)
{
	struct host_state	*to = NULL;
	json_t			*v;

	if (t == NULL || t->delegate_to == NULL)
		return h;
	if ((v = template_render_string(t->delegate_to, vars,
	    &t->delegate_to_pos, &ctx->conn_error)) == NULL)
		return NULL;
	if (!json_is_string(v))
		ypos_fail(&ctx->conn_error, &t->delegate_to_pos, "delegate_to "
		    "must be a host name");
	else if ((to = runner_delegate_host(r, json_string_value(v))) ==
	    NULL)
		ypos_fail(&ctx->conn_error, &t->delegate_to_pos, "delegate_to: "
		    "'%s' is not a host of the inventory (nor localhost)",
		    json_string_value(v));
	json_decref(v);
	/* a tuning module stages for its own host and applies at the flush:
	 * no other host's connection would take part */
	if (ctx->conn_error == NULL && to != h && t->module != NULL &&
	    t->module->stager != NULL)
		ypos_fail(&ctx->conn_error, &t->delegate_to_pos, "delegate_to "
		    "is not supported on '%s', which applies on its own host",
		    t->module->name);
	return ctx->conn_error == NULL ? to : NULL;
}

/* Who ctx's commands run as: task t's become (playbook/become.h) with the
 * variables of the host they run on (the delegated one's), its
 * become_user rendered with the host's vars; a flush (t NULL) runs as the
 * last task that staged. */
static void
fill_become(struct module_ctx *ctx, struct host_state *h,
    const struct play *play, const struct task *t, json_t *vars)
{
	struct become_choice	 c;
	json_t			*u;

	if (t == NULL) {
		ctx->as = h->stage_as;
		return;
	}
	task_become(play, t, &ctx->conn->become, &c);
	ctx->as.on = c.on;
	ctx->as.user = c.user;
	if (!c.on || c.user_pos == NULL || !template_has(c.user))
		return;
	if ((u = template_render_string(c.user, vars, c.user_pos,
	    &ctx->conn_error)) == NULL)
		return;
	if (!json_is_string(u))
		ypos_fail(&ctx->conn_error, c.user_pos, "become_user must be "
		    "a user name");
	else
		ctx->as.user = ctx->as_user = xstrdup(json_string_value(u));
	json_decref(u);
}

void
runner_fill_ctx(struct module_ctx *ctx, struct runner *r,
    struct host_state *h, const struct play *play, const struct task *t,
    json_t *vars)
{
	memset(ctx, 0, sizeof *ctx);
	ctx->run = r;
	ctx->host = h;
	ctx->play = play;
	ctx->task = t;
	ctx->vars = vars;
	ctx->check = t != NULL && t->check_mode >= 0 ? t->check_mode :
	    r->cfg->check;
	ctx->diff = t != NULL && t->diff >= 0 ? t->diff : r->cfg->diff;
	if ((ctx->conn = delegate(ctx, r, h, t, vars)) == NULL)
		ctx->conn = h;
	else
		fill_become(ctx, h, play, t, vars);
}

void
runner_clear_ctx(struct module_ctx *ctx)
{
	free(ctx->as_user);
	free(ctx->conn_error);
	ctx->as_user = ctx->conn_error = NULL;
}

/*
 * A batch walks the play's tree (playbook.h) with one cursor per host, as
 * Ansible's linear strategy does with its hosts' iterator states: the next
 * step is the task, in tree order, that the host furthest behind is at;
 * the hosts at it run it together, the others wait (a host whose path
 * differs, through a rescue or an always, is ahead or behind). After the
 * step each host's cursor moves by play_walk_next. A flush of the handlers
 * runs, in definition order, each handler on the hosts at the flush that
 * it was notified on, a step each.
 */
struct batch {
	struct runner		 *r;
	const struct play	 *play;
	size_t			  play_index;
	struct host_state	**hosts;
	size_t			  n;
	struct cursor		 *cursor;	/* per host: its place */
	struct cursor		  at;		/* the step's place */
	int			  gathering;	/* the step gathers facts */
	int			  at_end;	/* the step is the final apply */
	const struct task	 *task;		/* the step's task, or NULL */
	long			  handler;	/* its handler index, or -1 */
	int			  flushing;	/* the step only applies what
						 * was staged before it */
	json_t			 *groups;
	const struct module	 *gather;	/* when gather_facts */
	/* The running step, under r->lock: */
	const char		 *name;		/* its task name */
	size_t			  next;		/* the next host to take */
	size_t			  done, total;	/* hosts that finished it, of */
	double			 *since;	/* per host: when its step
						 * began, 0 when not running */
	size_t			  workers;	/* threads still taking hosts */
	pthread_cond_t		  wake;		/* a worker stopped */
};

/* Apply what the staging modules staged, as a result of its own. The
 * stager's task name is one pointer, so that the output groups every
 * host's flush as one task. */
static void
flush_stage(struct runner *r, struct host_state *h, const struct play *play,
    size_t play_index)
{
	const struct module_stager	*sg = h->stager;
	struct module_result		 res;
	struct module_ctx		 ctx;
	struct task_result		*tr;
	void				*stage = h->stage;
	double				 start = monotonic_seconds();

	if (stage == NULL)
		return;
	h->stage = NULL;
	h->stager = NULL;
	memset(&res, 0, sizeof res);
	runner_fill_ctx(&ctx, r, h, play, NULL, NULL);
	sg->flush(&ctx, stage, &res);
	sg->free(stage);
	runner_clear_ctx(&ctx);
	free(h->stage_as_user);
	h->stage_as_user = NULL;
	tr = runner_record(h, play_index, sg->task_name, sg->name, &res, 0,
	    monotonic_seconds() - start);
	tr->kind = RESULT_KIND_APPLY;
	if (tr->status == RESULT_FAILED || tr->status == RESULT_UNREACHABLE)
		h->failed = 1;
	module_result_clear(&res);
}

/* Whether the host has staged changes to apply before the current step:
 * before a task of another stager (or of none), and at the end. */
static int
needs_flush(const struct batch *b, const struct host_state *h)
{
	size_t k;

	if (h->stage == NULL || b->gathering)
		return 0;
	if (b->at_end || b->task == NULL)
		return 1;
	if (b->task->kind == TASK_INCLUDE || b->task->kind == TASK_NOOP ||
	    b->task->kind == TASK_META)
		return 0;
	/* before handlers run, only on a host that has one to run: a play
	 * still writes its drop-in once */
	if (b->task->kind == TASK_FLUSH_HANDLERS) {
		for (k = 0; k < b->play->nhandlers; k++) {
			if (h->notified[k])
				return 1;
		}
		return 0;
	}
	return b->task->module->stager != h->stager;
}

/* A task step that runs on one host for all (run_once). */
static int
once(const struct batch *b)
{
	return !b->flushing && !b->gathering && b->handler < 0 &&
	    b->task != NULL && b->task->kind == TASK_MODULE &&
	    b->task->run_once > 0;
}

/* Whether host i is at the step and takes it (run_once aside). */
static int
at_step(const struct batch *b, size_t i)
{
	const struct host_state *h = b->hosts[i];

	if (h->failed || h->unreachable)
		return 0;
	if (b->flushing)
		return (b->at_end || cursor_cmp(&b->cursor[i], &b->at) ==
		    0) && needs_flush(b, h);
	if (b->gathering)
		return 1;
	if (b->at_end || cursor_cmp(&b->cursor[i], &b->at) != 0)
		return 0;
	return b->handler < 0 || h->notified[b->handler];
}

/* Whether host i takes the step: at it, and for a run_once task the first
 * host at it. */
static int
takes_step(const struct batch *b, size_t i)
{
	size_t j;

	if (!at_step(b, i))
		return 0;
	for (j = 0; once(b) && j < i; j++) {
		if (at_step(b, j))
			return 0;
	}
	return 1;
}

/*
 * One step of the play on one host: gathering facts, a task (or a
 * handler), or the apply of what tuning tasks staged, before the next task
 * of another kind and at the end (flushing). So every host of a batch has
 * its baseline measured before any host of it is tuned, and the output
 * groups by task. Where the host goes next is the walk's (advance).
 */
static void
run_host_step(struct batch *b, struct host_state *h)
{
	struct runner		*r = b->r;
	struct task_result	*last;
	struct task		 gather;
	json_t			*vars;

	unpark_facts(h);
	if (b->flushing) {
		flush_stage(r, h, b->play, b->play_index);
		park_facts(r, h, b->n);
		return;
	}
	vars = runner_host_vars(r, h, b->play, b->task, b->groups);
	if (b->gathering) {
		memset(&gather, 0, sizeof gather);
		gather.name = (char *)b->name;
		gather.module = b->gather;
		gather.args = json_object();
		gather.pos = b->play->pos;
		gather.check_mode = -1;
		gather.diff = -1;
		gather.become = -1;
		runner_run_task(r, h, b->play, b->play_index, &gather, vars);
		json_decref(gather.args);
		/* Ansible's names follow the play's gather_subset until the
		 * next gathering (runner_host_vars) */
		json_decref(h->gather_subset);
		h->gather_subset = json_incref(b->play->gather_subset);
		h->gather_mask = b->play->gather_subset != NULL ?
		    b->play->gather_mask : GATHER_ALL;
		h->gathered = 1;
	} else
		runner_run_task(r, h, b->play, b->play_index, b->task, vars);
	json_decref(vars);
	park_facts(r, h, b->n);
	last = &h->results[h->nresults - 1];
	/* a handler's failure, or facts not gathered, end the host's play;
	 * a task's failure is the walk's to judge (a rescue may catch it) */
	if (last->status == RESULT_UNREACHABLE || ((b->gathering ||
	    b->handler >= 0) && last->status == RESULT_FAILED &&
	    !last->ignored))
		h->failed = 1;
}

/* The running step for the progress line: the host running longest.
 * Under r->lock. */
static void
report_progress(struct batch *b)
{
	const struct run_config	*cfg = b->r->cfg;
	struct run_progress	 p;
	size_t			 i;

	if (cfg->progress == NULL)
		return;
	memset(&p, 0, sizeof p);
	p.task = b->name;
	p.done = b->done;
	p.total = b->total;
	if ((i = runner_oldest(b->since, b->n, &p.running)) < b->n) {
		p.slowest = b->hosts[i]->name;
		p.slowest_secs = monotonic_seconds() - b->since[i];
	}
	cfg->progress(cfg->cb_arg, &p);
}

size_t
runner_oldest(const double *since, size_t n, size_t *running)
{
	size_t i, oldest = n;

	*running = 0;
	for (i = 0; i < n; i++) {
		if (since[i] == 0)
			continue;
		(*running)++;
		if (oldest == n || since[i] < since[oldest])
			oldest = i;
	}
	return oldest;
}

/* The transport warning a connection left on the host, taken under the
 * host's lock (a peer's module may be connecting to it), never under
 * r->lock: a peer's long command must not hold back every result. */
static char *
take_warning(struct host_state *h)
{
	char *w;

	pthread_mutex_lock(&h->lock);
	w = h->warning;
	h->warning = NULL;
	pthread_mutex_unlock(&h->lock);
	return w;
}

/* A host's step ended: its transport warning (taken, freed here), then
 * its new results from index first. Under r->lock. */
static void
report_results(struct batch *b, struct host_state *h, size_t first,
    char *warning)
{
	const struct run_config	*cfg = b->r->cfg;
	size_t			 k;

	if (warning != NULL && cfg->host_warning != NULL)
		cfg->host_warning(cfg->cb_arg, h->name, warning);
	free(warning);
	for (k = first; k < h->nresults; k++) {
		if (cfg->host_result != NULL)
			cfg->host_result(cfg->cb_arg, h->name, &h->results[k]);
		if (cfg->lean_results) {
			free(h->results[k].diff);
			h->results[k].diff = NULL;
			json_decref(h->results[k].data);
			h->results[k].data = NULL;
		}
	}
}

/* Report what the host has from index first, with its warning, taking
 * r->lock: for the main thread, while no worker runs. */
static void
report_host(struct batch *b, struct host_state *h, size_t first)
{
	char *warning = take_warning(h);

	pthread_mutex_lock(&b->r->lock);
	report_results(b, h, first, warning);
	pthread_mutex_unlock(&b->r->lock);
}

static void *
batch_worker(void *arg)
{
	struct batch		*b = arg;
	struct runner		*r = b->r;
	struct host_state	*h;
	char			*warning;
	size_t			 i, first;

	pthread_mutex_lock(&r->lock);
	while ((i = b->next++) < b->n && !runner_interrupted) {
		h = b->hosts[i];
		if (!takes_step(b, i))
			continue;
		b->since[i] = monotonic_seconds();
		first = h->nresults;
		pthread_mutex_unlock(&r->lock);
		run_host_step(b, h);
		warning = take_warning(h);
		pthread_mutex_lock(&r->lock);
		if (!b->gathering && !b->flushing)
			runner_retitle(h, first, b->task->name, b->name);
		b->since[i] = 0;
		b->done++;
		report_results(b, h, first, warning);
		report_progress(b);
	}
	b->workers--;
	pthread_cond_signal(&b->wake);
	pthread_mutex_unlock(&r->lock);
	return NULL;
}

/* The condition workers signal: on the monotonic clock, as its timed
 * waits are, so that a change of the time of day cannot stall them. */
void
runner_cond_init(pthread_cond_t *c)
{
	pthread_condattr_t attr;

	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(c, &attr);
	pthread_condattr_destroy(&attr);
}

int
runner_tick_wait(pthread_cond_t *c, pthread_mutex_t *m)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_nsec += 250 * 1000 * 1000;
	if (ts.tv_nsec >= 1000 * 1000 * 1000) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000 * 1000 * 1000;
	}
	return pthread_cond_timedwait(c, m, &ts);
}

/* Wait, under r->lock, until every worker stopped, redrawing the progress
 * four times a second meanwhile: the slowest host's time keeps counting
 * while nothing else happens. */
static void
wait_workers(struct batch *b)
{
	while (b->workers > 0) {
		if (runner_tick_wait(&b->wake, &b->r->lock) == ETIMEDOUT &&
		    b->workers > 0)
			report_progress(b);
	}
}

/* Run the current step over the hosts that take it with the fork pool.
 * The workers wait for the lock until every thread is started. */
static void
run_workers(struct batch *b)
{
	struct runner	*r = b->r;
	pthread_t	*threads;
	size_t		 nthreads, i, started = 0;

	nthreads = (size_t)r->cfg->forks;
	if (nthreads > b->total)
		nthreads = b->total;
	threads = xcalloc(nthreads, sizeof *threads);
	pthread_mutex_lock(&r->lock);
	for (i = 0; i < nthreads; i++) {
		/* Small stacks: a hundred workers mostly wait on sockets. */
		pthread_attr_t attr;

		pthread_attr_init(&attr);
		pthread_attr_setstacksize(&attr, 512 * 1024);
		if (pthread_create(&threads[i], &attr, batch_worker, b) == 0)
			started++;
		pthread_attr_destroy(&attr);
		if (started != i + 1)
			break;
	}
	b->workers = started > 0 ? started : 1;
	if (started > 0)
		wait_workers(b);
	pthread_mutex_unlock(&r->lock);
	/* No thread would start: this one does the work, without ticks. */
	if (started == 0)
		batch_worker(b);
	for (i = 0; i < started; i++)
		pthread_join(threads[i], NULL);
	free(threads);
}

static int
any_failed(const struct batch *b)
{
	size_t i;

	for (i = 0; i < b->n; i++) {
		if (b->hosts[i]->failed || b->hosts[i]->unreachable)
			return 1;
	}
	return 0;
}

/* Ansible's magic variables as they stand before the batch's next step:
 * hosts that failed since have left ansible_play_hosts. */
static void
magic_refresh(struct batch *b)
{
	runner_magic_refresh(b->r, b->play, b->r->play_hosts,
	    b->r->nplay_hosts, b->hosts, b->n);
	runner_hostvars_refresh(b->hosts, b->n);
}

/*
 * A task's name as Ansible's linear strategy shows it: templated with the
 * vars of the first host at the step, left as written when that fails (an
 * undefined variable: fail_on_undefined=False) or when it has no template.
 * "module {{ bbr_module }}" in a file included per item is "module
 * tcp_bbr". The text is kept until the runner ends: results point at it.
 */
const char *
runner_step_title(struct runner *r, struct host_state *h,
    const struct play *play, const struct task *t, const json_t *groups)
{
	json_t	*vars, *v;
	char	*cause = NULL;
	const char *text = NULL;

	if (t->name == NULL || !template_has(t->name))
		return t->name;
	vars = runner_host_vars(r, h, play, t, groups);
	v = template_render_string(t->name, vars, NULL, &cause);
	json_decref(vars);
	free(cause);
	if (v != NULL)
		text = json_string_value(v);
	if (text == NULL || strcmp(text, t->name) == 0) {
		json_decref(v);
		return t->name;
	}
	pthread_mutex_lock(&r->lock);
	if (r->ntitles == 0 || strcmp(r->titles[r->ntitles - 1], text) != 0) {
		r->titles = xreallocarray(r->titles, r->ntitles + 1,
		    sizeof *r->titles);
		r->titles[r->ntitles++] = xstrdup(text);
	}
	text = r->titles[r->ntitles - 1];
	pthread_mutex_unlock(&r->lock);
	json_decref(v);
	return text;
}

/* The results a host recorded at the step [first, nresults) carry the
 * step's title, the one its header showed. Under r->lock. */
void
runner_retitle(struct host_state *h, size_t first, const char *written,
    const char *title)
{
	size_t i;

	if (title == written)
		return;
	for (i = first; i < h->nresults; i++) {
		if (h->results[i].task_name == written)
			h->results[i].task_name = title;
	}
}

/* The current step's task name, for its header and the progress line. */
static const char *
step_name(const struct batch *b)
{
	size_t i;

	if (b->gathering)
		return "Gathering Facts";
	if (!b->flushing) {
		for (i = 0; i < b->n; i++) {
			if (takes_step(b, i))
				return runner_step_title(b->r, b->hosts[i],
				    b->play, b->task, b->groups);
		}
		return b->task->name;
	}
	for (i = 0; i < b->n; i++) {
		if (takes_step(b, i))
			return b->hosts[i]->stager->task_name;
	}
	return NULL;
}

/* A pairwise task: its pairs measured in rounds over the batch's hosts
 * that take it, before the task runs on each (pairwise.c). */
static void
pairwise_begin(struct batch *b)
{
	struct host_state	**hosts = xcalloc(b->n + 1, sizeof *hosts);
	size_t			  i, n = 0;

	for (i = 0; i < b->n; i++) {
		if (takes_step(b, i))
			hosts[n++] = b->hosts[i];
	}
	runner_pairwise_begin(b->r, b->play, b->task, hosts, n, b->groups);
	free(hosts);
}

/* Run the current step (a task, or the apply before it when flushing) on
 * every host of the batch that takes it; took[i] says which did. Returns
 * -1 when any_errors_fatal ends the play for every host, before the next
 * step starts. */
static int
run_step(struct batch *b, unsigned char *took)
{
	const struct run_config	*cfg = b->r->cfg;
	size_t			 i;
	int			 pairwise;

	pairwise = !b->flushing && !b->gathering && b->task != NULL &&
	    b->task->module->pairwise != NULL;
	b->next = 0;
	b->done = 0;
	b->total = 0;
	for (i = 0; i < b->n; i++) {
		b->since[i] = 0;
		b->total += (took[i] = (unsigned char)takes_step(b, i));
	}
	if (b->total > 0) {
		b->name = step_name(b);
		if (b->handler >= 0 && !b->flushing &&
		    cfg->handler_start != NULL)
			cfg->handler_start(cfg->cb_arg, b->play, b->name,
			    b->total);
		else if (cfg->task_start != NULL)
			cfg->task_start(cfg->cb_arg, b->play, b->name,
			    b->total);
		if (pairwise)
			pairwise_begin(b);
		run_workers(b);
		if (pairwise)
			runner_pairwise_end(b->r);
	}
	return 0;
}

/* After a run_once step: the other hosts at it take its result's
 * variables and move on with it (runner_share_once). */
static void
share_once(struct batch *b, unsigned char *took)
{
	size_t first, i;

	for (first = 0; first < b->n && !took[first]; first++)
		;
	for (i = 0; first < b->n && i < b->n; i++) {
		if (i == first || !at_step(b, i))
			continue;
		runner_share_once(b->hosts[first], b->task, b->hosts[i]);
		took[i] = !b->hosts[i]->failed;
	}
	if (first < b->n) {
		json_object_clear(b->hosts[first]->pending_vars);
		json_object_clear(b->hosts[first]->pending_facts);
	}
}

/* After the step's task ran: each host that took it moves on along the
 * tree (run/cursor.h); a failure no rescue catches fails the host. A
 * rescued failure counts as rescued, not failed, as in Ansible's recap. A
 * host that entered an included file (took 2) is at its first task. */
static void
advance(struct batch *b, const unsigned char *took, int ran)
{
	struct host_state	*h;
	struct task_result	*last;
	size_t			 i;
	int			 failed, rescued;

	for (i = 0; i < b->n; i++) {
		h = b->hosts[i];
		if (cursor_cmp(&b->cursor[i], &b->at) != 0 || h->failed ||
		    h->unreachable || (ran && !took[i]) || took[i] == 2)
			continue;
		failed = 0;
		if (ran && h->nresults > 0) {
			last = &h->results[h->nresults - 1];
			failed = last->status == RESULT_FAILED && !last->ignored;
		}
		if (cursor_next(&b->cursor[i], failed, &rescued))
			h->failed = 1;
		h->stats.failed -= rescued;
		h->stats.rescued += rescued;
	}
}

static int
fatal(const struct batch *b)
{
	return b->play->any_errors_fatal && any_failed(b);
}

/* meta: flush_handlers at b->pos: each handler, in definition order, on
 * the hosts at the flush that were notified of it. */
static int
run_handlers(struct batch *b, unsigned char *took)
{
	const struct play	*p = b->play;
	size_t			 k, i;

	for (k = 0; k < p->nhandlers && !runner_interrupted; k++) {
		b->handler = (long)k;
		b->task = &p->handlers[k];
		b->flushing = 1;
		run_step(b, took);
		b->flushing = 0;
		run_step(b, took);
		for (i = 0; i < b->n; i++) {
			if (took[i])
				b->hosts[i]->notified[k] = 0;
		}
		if (fatal(b))
			break;
	}
	b->handler = -1;
	b->task = cursor_task(&b->at);
	return fatal(b) ? -1 : 0;
}

/* Before any step: the preflight gate on every host, its refusals
 * reported at once. */
static void
preflight_batch(struct batch *b)
{
	struct host_state	*h;
	size_t			 i, first;
	json_t			*vars;

	for (i = 0; i < b->n; i++) {
		h = b->hosts[i];
		h->failed = 0;
		free(h->notified);
		h->notified = xcalloc(b->play->nhandlers + 1,
		    sizeof *h->notified);
		if (h->unreachable)
			continue;
		first = h->nresults;
		unpark_facts(h);
		vars = runner_host_vars(b->r, h, b->play, NULL, b->groups);
		preflight(b->r, h, b->play, b->play_index, vars, b->groups);
		json_decref(vars);
		park_facts(b->r, h, b->n);
		report_host(b, h, first);
	}
}

/* include_tasks at the step, on each host at it: in the main thread (no
 * host is contacted: the file is read here), each host entering the tree
 * it included. */
static void
run_includes(struct batch *b, unsigned char *took)
{
	const struct run_config	*cfg = b->r->cfg;
	struct module_result	 res;
	struct host_state	*h;
	const struct play	*tree;
	size_t			 i, first, seq, total = 0;
	json_t			*vars;

	for (i = 0; i < b->n; i++)
		total += (took[i] = (unsigned char)takes_step(b, i));
	if (total > 0 && cfg->task_start != NULL)
		cfg->task_start(cfg->cb_arg, b->play, b->task->name, total);
	for (i = 0; i < b->n && !runner_interrupted; i++) {
		if (!took[i])
			continue;
		h = b->hosts[i];
		first = h->nresults;
		unpark_facts(h);
		vars = runner_host_vars(b->r, h, b->play, b->task, b->groups);
		tree = runner_include(b->r, h, b->play, b->play_index, b->task,
		    vars, &seq);
		json_decref(vars);
		park_facts(b->r, h, b->n);
		if (tree != NULL && cursor_enter(&b->cursor[i], tree, seq) == 0)
			took[i] = 2;
		else if (tree != NULL) {
			memset(&res, 0, sizeof res);
			res.status = RESULT_FAILED;
			res.msg = xprintf("include_tasks nested more than %d "
			    "deep", CURSOR_DEPTH);
			runner_record(h, b->play_index, b->task->name,
			    "include_tasks", &res, 0, 0);
		}
		report_host(b, h, first);
	}
}

/* A meta task's `when` on one host: 1, 0, or -1 with *cause. */
static int
meta_when(struct batch *b, struct host_state *h, char **cause)
{
	const struct task	*t = b->task;
	json_t			*vars;
	int			 when = 1, r;

	if (t->when == NULL)
		return 1;
	unpark_facts(h);
	vars = runner_host_vars(b->r, h, b->play, t, b->groups);
	r = template_eval_bool(t->when, vars, &t->when_pos, &when, cause);
	json_decref(vars);
	park_facts(b->r, h, b->n);
	return r != 0 ? -1 : when;
}

/* What meta t does, on host i (end_host, noop) or on every host of the
 * batch (the others). */
static void
meta_act(struct batch *b, size_t i)
{
	struct host_state	*h;
	size_t			 j;

	switch (b->task->meta) {
	case META_NOOP:
		break;
	case META_END_HOST:
		cursor_end(&b->cursor[i]);
		break;
	case META_CLEAR_FACTS:
		for (j = 0; j < b->n; j++) {
			h = b->hosts[j];
			unpark_facts(h);
			json_decref(h->facts);
			h->facts = json_object();
			h->gathered = 0;
			park_facts(b->r, h, b->n);
		}
		break;
	case META_END_PLAY:
		b->r->play_ended = 1;
		/* FALLTHROUGH */
	case META_END_BATCH:
		for (j = 0; j < b->n; j++)
			cursor_end(&b->cursor[j]);
		break;
	}
}

/* meta at the step (other than flush_handlers), in the main thread (no
 * host is contacted), as Ansible's linear strategy runs it: noop and
 * end_host on each host at it, each with its own banner; the others once,
 * on the first host, its `when` deciding for the batch. A false `when`
 * prints as skipped but is not counted, as in Ansible's recap. */
static void
run_metas(struct batch *b, unsigned char *took)
{
	const struct run_config	*cfg = b->r->cfg;
	const struct task	*t = b->task;
	struct module_result	 res;
	struct host_state	*h;
	size_t			 i, first;
	char			*cause = NULL;
	int			 when, per_host = t->meta == META_NOOP ||
				    t->meta == META_END_HOST, once = 0;

	for (i = 0; i < b->n; i++)
		took[i] = (unsigned char)takes_step(b, i);
	for (i = 0; i < b->n && !once; i++) {
		if (!took[i])
			continue;
		once = !per_host;
		h = b->hosts[i];
		if (cfg->task_start != NULL)
			cfg->task_start(cfg->cb_arg, b->play, t->name, 1);
		if ((when = meta_when(b, h, &cause)) == 1) {
			meta_act(b, i);
			continue;
		}
		memset(&res, 0, sizeof res);
		res.status = when < 0 ? RESULT_FAILED : RESULT_SKIPPED;
		res.msg = cause;
		cause = NULL;
		first = h->nresults;
		runner_record(h, b->play_index, t->name, "meta", &res, 0, 0);
		if (when == 0)
			h->stats.skipped--;
		report_host(b, h, first);
	}
}

/* The host furthest behind (in the run's order of tasks), whose place is
 * the next step; n when every host is done. */
static size_t
lowest_cursor(const struct batch *b)
{
	size_t i, low = b->n;

	for (i = 0; i < b->n; i++) {
		if (b->hosts[i]->failed || b->hosts[i]->unreachable ||
		    cursor_task(&b->cursor[i]) == NULL)
			continue;
		if (low == b->n || cursor_cmp(&b->cursor[i],
		    &b->cursor[low]) < 0)
			low = i;
	}
	return low;
}

static void
run_batch(struct batch *b)
{
	const struct run_config	*cfg = b->r->cfg;
	const struct task	*t;
	unsigned char		*took = xcalloc(b->n + 1, 1);
	size_t			 i;

	b->handler = -1;
	preflight_batch(b);
	magic_refresh(b);
	if (b->gather != NULL && !runner_interrupted) {
		b->gathering = 1;
		run_step(b, took);
		b->gathering = 0;
		if (fatal(b))
			goto out;
	}
	for (i = 0; i < b->n; i++)
		cursor_start(&b->cursor[i], b->play);
	while (!runner_interrupted) {
		if ((i = lowest_cursor(b)) == b->n) {
			/* the final apply of what was staged */
			b->task = NULL;
			b->at_end = b->flushing = 1;
			run_step(b, took);
			break;
		}
		b->at = b->cursor[i];
		t = b->task = cursor_task(&b->at);
		magic_refresh(b);
		if (t->kind == TASK_NOOP || (t->kind != TASK_FLUSH_HANDLERS &&
		    !task_selected(b->play, t, cfg->tags, cfg->skip_tags))) {
			memset(took, 0, b->n);
			advance(b, took, 0);
			continue;
		}
		b->flushing = 1;
		run_step(b, took);
		b->flushing = 0;
		if (fatal(b))
			break;
		if (t->kind == TASK_FLUSH_HANDLERS) {
			if (run_handlers(b, took) != 0)
				break;
			memset(took, 0, b->n);
			advance(b, took, 0);
			continue;
		}
		if (t->kind == TASK_META) {
			run_metas(b, took);
			advance(b, took, 1);
			continue;
		}
		if (t->kind == TASK_INCLUDE) {
			run_includes(b, took);
			advance(b, took, 1);
			if (fatal(b))
				break;
			continue;
		}
		run_step(b, took);
		if (once(b))
			share_once(b, took);
		advance(b, took, 1);
		if (fatal(b))
			break;
	}
out:
	for (i = 0; i < b->n; i++) {
		drop_stage(b->hosts[i]);
		/* A warning left by a peer's module after this host's last
		 * step is still shown, once. */
		report_host(b, b->hosts[i], b->hosts[i]->nresults);
	}
	free(took);
}

static json_t *
groups_var(const struct runner *r)
{
	json_t	*groups = json_object();
	size_t	 i, j, n;

	for (i = 0; i < r->inv->ngroups; i++) {
		const char	**hosts = NULL;
		json_t		 *list = json_array();

		if (inventory_group_hosts(r->inv, r->inv->groups[i]->name,
		    &hosts, &n) == 0) {
			for (j = 0; j < n; j++)
				json_array_append_new(list,
				    json_string(hosts[j]));
		}
		free(hosts);
		json_object_set_new(groups, r->inv->groups[i]->name, list);
	}
	return groups;
}

/* After a batch: any_errors_fatal, then max_fail_percentage, may stop the
 * run; no later batch or play starts then. */
static void
judge_batch(struct runner *r, const struct play *play,
    struct host_state **live, size_t k, size_t batch_index)
{
	size_t j, bad = 0;

	for (j = 0; j < k; j++)
		bad += live[j]->failed || live[j]->unreachable;
	if (bad > 0 && play->any_errors_fatal) {
		r->stopped = 1;
		r->stop_reason = xprintf("any_errors_fatal: %zu host(s) "
		    "failed in batch %zu", bad, batch_index + 1);
	} else if (play->max_fail_percentage >= 0 && k > 0 &&
	    (double)bad * 100.0 / (double)k >
	    (double)play->max_fail_percentage) {
		r->stopped = 1;
		r->stop_reason = xprintf("max_fail_percentage %d%% "
		    "exceeded: %zu of %zu host(s) failed or unreachable "
		    "in batch %zu; remaining batches not started",
		    play->max_fail_percentage, bad, k, batch_index + 1);
	} else if (k > 0 && bad == k)
		/* as Ansible's PlaybookExecutor: a batch whose every host
		 * failed ends the run, no later batch or play starting */
		r->stopped = 1;
}

/* One serial batch of a play over hosts[0..size), reported through the
 * batch_done callback, then judged. */
static void
run_one_batch(struct runner *r, const struct play *play, size_t play_index,
    struct host_state **hosts, size_t size, size_t batch_index,
    json_t *groups)
{
	struct batch		  b;
	struct host_state	**live;
	size_t			  j, k = 0;

	/* Hosts unreachable or failed in an earlier play are left out, as
	 * Ansible removes them from the rest of the run. */
	live = xcalloc(size, sizeof *live);
	for (j = 0; j < size; j++) {
		if (!hosts[j]->unreachable && !hosts[j]->failed_run)
			live[k++] = hosts[j];
	}
	memset(&b, 0, sizeof b);
	b.r = r;
	b.play = play;
	b.play_index = play_index;
	b.hosts = live;
	b.n = k;
	b.groups = groups;
	b.gather = play->gather_facts ? module_find_gatherer() : NULL;
	b.since = xcalloc(k + 1, sizeof *b.since);
	b.cursor = xcalloc(k + 1, sizeof *b.cursor);
	runner_cond_init(&b.wake);
	run_batch(&b);
	pthread_cond_destroy(&b.wake);
	free(b.since);
	free(b.cursor);
	if (r->cfg->batch_done != NULL)
		r->cfg->batch_done(r->cfg->cb_arg, play, play_index, live, k);
	judge_batch(r, play, live, k, batch_index);
	for (j = 0; j < k; j++)
		live[j]->failed_run |= live[j]->failed;
	free(live);
}

static int
run_one_play(struct runner *r, const struct play *play, size_t play_index,
    int skip_empty, char **cause)
{
	struct host_state	**hosts;
	char			**names = NULL;
	size_t			  n = 0, i, off, size, batch_index = 0;
	json_t			 *groups;

	if (inventory_select_limit(r->inv, play->hosts, r->cfg->limit,
	    &names, &n, cause) != 0)
		return -1;
	if (n == 0) {
		if (r->cfg->limit != NULL && !skip_empty)
			return fail(cause, "no hosts match '%s' with --limit "
			    "'%s'", play->hosts, r->cfg->limit);
		if (strcmp(play->hosts, "localhost") == 0 ||
		    strcmp(play->hosts, "127.0.0.1") == 0)
			return fail(cause, "no hosts match '%s' (Ansible's "
			    "implicit localhost is only delegate_to's here: add "
			    "localhost to the inventory with ansible_connection: "
			    "local)", play->hosts);
		if (!skip_empty)
			return fail(cause, "no hosts match '%s'", play->hosts);
		/* a playbook's play that matches nobody is skipped, as
		 * ansible-playbook's "skipping: no hosts matched" */
		pattern_hosts_free(names, n);
		if (r->cfg->play_start != NULL)
			r->cfg->play_start(r->cfg->cb_arg, play, 0);
		return 0;
	}
	hosts = xcalloc(n, sizeof *hosts);
	for (i = 0; i < n; i++)
		hosts[i] = runner_host(r, names[i]);
	groups = groups_var(r);
	r->play_hosts = hosts;
	r->nplay_hosts = n;
	if (r->cfg->play_start != NULL)
		r->cfg->play_start(r->cfg->cb_arg, play, n);
	r->play_ended = 0;
	for (off = 0; off < n && !r->stopped && !r->play_ended &&
	    !runner_interrupted; off += size, batch_index++) {
		size = serial_batch_size(&play->serial, batch_index, n);
		if (size == 0 || size > n - off)
			size = n - off;
		if (batch_index > 0 && r->cfg->batch_start != NULL)
			r->cfg->batch_start(r->cfg->cb_arg, play, batch_index,
			    size);
		run_one_batch(r, play, play_index, hosts + off, size,
		    batch_index, groups);
	}
	json_decref(groups);
	pattern_hosts_free(names, n);
	r->play_hosts = NULL;
	r->nplay_hosts = 0;
	free(hosts);
	return 0;
}

/* Whether --limit leaves any host of the inventory; else *cause. */
static int
limit_matches(struct runner *r, char **cause)
{
	char	**names = NULL;
	size_t	  n = 0;

	if (inventory_select_limit(r->inv, "all", r->cfg->limit, &names, &n,
	    cause) != 0)
		return 0;
	pattern_hosts_free(names, n);
	if (n == 0) {
		fail(cause, "Specified inventory, host pattern and/or --limit "
		    "'%s' leaves us with no hosts to target", r->cfg->limit);
		return 0;
	}
	return 1;
}

int
runner_play(struct runner *r, const struct playbook *pb, char **cause)
{
	size_t i;

	/* every play's vault values before the first play touches a host */
	for (i = 0; i < pb->nplays; i++) {
		if (reveal_play_vars(&pb->plays[i], cause) != 0)
			return -1;
	}
	/* as ansible-playbook: a --limit that leaves no host of the
	 * inventory is an error; one that leaves a play none skips it */
	if (r->cfg->limit != NULL && !limit_matches(r, cause))
		return -1;
	for (i = 0; i < pb->nplays && !r->stopped && !runner_interrupted;
	    i++) {
		if (run_one_play(r, &pb->plays[i], i, 1, cause) != 0)
			return -1;
	}
	return 0;
}

int
runner_adhoc(struct runner *r, const char *pattern, const struct module *m,
    json_t *args, char **cause)
{
	struct play	play;
	struct task	task;
	int		rc;

	memset(&play, 0, sizeof play);
	memset(&task, 0, sizeof task);
	play.name = (char *)m->name;
	play.hosts = (char *)pattern;
	play.max_fail_percentage = -1;
	play.become = -1;
	task.become = -1;
	play.vars = json_object();
	play.pos.file = "<command line>";
	play.pos.line = 1;
	play.pos.col = 1;
	task.name = (char *)m->name;
	task.module = m;
	task.args = args != NULL ? json_incref(args) : json_object();
	task.pos = play.pos;
	task.check_mode = -1;
	task.diff = -1;
	play.tasks = &task;
	play.ntasks = 1;
	rc = run_one_play(r, &play, 0, 0, cause);
	json_decref(task.args);
	json_decref(play.vars);
	return rc;
}

int
runner_exit_bits(const struct runner *r)
{
	int	bits = 0;
	size_t	i;

	for (i = 0; i < r->nhosts; i++) {
		if (r->hosts[i]->stats.failed > 0)
			bits |= 2;
		if (r->hosts[i]->stats.unreachable > 0)
			bits |= 4;
	}
	return bits;
}

char *
runner_traffic_address(const struct runner *r, const char *host)
{
	/* hostvars, where inline vault values are already plaintext; -e's
	 * ansible_host beats them, as it does for the connection */
	const json_t	*vars = json_object_get(r->hostvars, host);
	const char	*a;

	if ((a = json_string_value(json_object_get(vars, "iperf_address"))) ==
	    NULL && (a = json_string_value(json_object_get(r->cfg->extra_vars,
	    "ansible_host"))) == NULL && (a = json_string_value(
	    json_object_get(vars, "ansible_host"))) == NULL)
		a = host;
	return xstrdup(a);
}

int
runner_exit_status(const struct runner *r)
{
	if (runner_interrupted)
		return RUNNER_EXIT_INTERRUPTED;
	return runner_exit_bits(r);
}
