#include "run/runner.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "remote/hostline.h"
#include "inventory/inventory.h"
#include "inventory/pattern.h"
#include "playbook/playbook.h"
#include "playbook/serial.h"
#include "template/template.h"
#include "base/util.h"
#include "base/xalloc.h"

volatile sig_atomic_t runner_interrupted;

static char *
keep(struct host_state *h, size_t slot, const char *s)
{
	if (s == NULL)
		return NULL;
	h->conn_strings[slot] = xstrdup(s);
	return h->conn_strings[slot];
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
	if (inventory_host_conn(r->inv, name, &conn, cause) != 0) {
		free(h->name);
		free(h);
		return -1;
	}
	h->tp.name = h->name;
	h->tp.host = keep(h, 0, conn.address != NULL ? conn.address : name);
	h->tp.port = conn.port;
	/* The command line overrides the inventory, as with ansible -u. */
	h->tp.user = keep(h, 1, cfg->user != NULL ? cfg->user : conn.user);
	h->tp.key_file = keep(h, 2, cfg->private_key != NULL ?
	    cfg->private_key : conn.key_file);
	h->tp.known_hosts = cfg->known_hosts;
	h->tp.ssh_config = cfg->ssh_config;
	h->tp.proxy_jump = keep(h, 3, conn.proxy_jump);
	h->tp.hostkey_mode = cfg->hostkey_mode;
	h->tp.connect_timeout = cfg->connect_timeout;
	h->tp.command_timeout = cfg->command_timeout;
	h->tp.become = cfg->become || conn.become > 0;
	h->tp.become_user = keep(h, 4, conn.become_user);
	/* The inventory's password wins over -K's, host by host, as in
	 * Ansible. */
	h->tp.become_password = keep(h, 5, conn.become_password != NULL ?
	    conn.become_password : cfg->become_password);
	host_conn_clear(&conn);
	h->registered = json_object();
	h->memo = json_object();
	*out = h;
	return 0;
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
		free(h->results[i].diff);
		json_decref(h->results[i].data);
	}
	free(h->results);
	json_decref(h->facts);
	json_decref(h->registered);
	json_decref(h->memo);
	drop_stage(h);
	free(h->unreachable_msg);
	free(h->warning);
	pthread_mutex_destroy(&h->lock);
	pthread_mutex_destroy(&h->verify_lock);
	free(h->name);
	free(h);
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
	if (inventory_select(inv, "all", &names, &n, cause) != 0)
		return -1;
	r->hosts = xcalloc(n, sizeof *r->hosts);
	for (i = 0; i < n; i++) {
		if (host_state_new(r, names[i], &r->hosts[i], cause) != 0)
			break;
		r->nhosts++;
	}
	pattern_hosts_free(names, n);
	/* `hostvars`: built once; templates read peers' vars through it
	 * ({{ hostvars[iperf_peer].ansible_host }}). */
	r->hostvars = json_object();
	for (i = 0; i < r->nhosts; i++) {
		json_t *v = inventory_host_vars(inv, r->hosts[i]->name);

		json_object_set_new(r->hostvars, r->hosts[i]->name,
		    v != NULL ? v : json_object());
	}
	return r->nhosts == n ? 0 : -1;
}

void
runner_free(struct runner *r)
{
	size_t i;

	for (i = 0; i < r->nhosts; i++)
		host_state_free(r->hosts[i]);
	free(r->hosts);
	json_decref(r->hostvars);
	free(r->stop_reason);
	pthread_mutex_destroy(&r->lock);
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

/* The variables a task on this host sees (precedence in playbook.h). */
static json_t *
host_vars(struct runner *r, struct host_state *h, const struct play *play,
    const json_t *groups)
{
	/* The inventory's merge for this host was made once, for hostvars. */
	json_t *vars;

	vars = playbook_host_vars(play, json_object_get(r->hostvars, h->name),
	    h->registered, r->cfg->extra_vars, h->facts, h->name, groups);
	json_object_set(vars, "hostvars", r->hostvars);
	return vars;
}

/* Keep res as the host's next result (a task's; the caller marks an
 * apply) and count it. */
static struct task_result *
record(struct host_state *h, size_t play_index, const char *task_name,
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
	tr->msg = res->msg;
	tr->diff = res->diff;
	tr->data = res->data;
	tr->ignored = ignored;
	tr->seconds = secs;
	res->msg = NULL;
	res->diff = NULL;
	res->data = NULL;
	switch (res->status) {
	case RESULT_OK: h->stats.ok++; break;
	case RESULT_CHANGED: h->stats.changed++; break;
	case RESULT_SKIPPED: h->stats.skipped++; break;
	case RESULT_UNREACHABLE: h->stats.unreachable++; break;
	case RESULT_FAILED:
		if (ignored)
			h->stats.ok++;
		else
			h->stats.failed++;
		break;
	}
	return tr;
}

/* The gate (lib/remote/hostline.h) over a task's rendered arguments: a value
 * that would become a line on the host is refused with the task's
 * position and the parameter, before the module sees it. */
static int
gate_args(const struct task *t, const json_t *args, const json_t *vars,
    struct module_result *res)
{
	char *why = NULL, *at;

	if (hostline_check_args(t->module, args, vars, &why) == 0)
		return 0;
	at = ypos_str(&t->pos);
	res->status = RESULT_FAILED;
	res->msg = xprintf("%s: task '%s': %s; refused, nothing was written "
	    "to this host", at, t->name, why);
	free(at);
	free(why);
	return -1;
}

/* Before a host's first step of a play: every selected task whose `when`
 * holds now, rendered with the vars known now, through the gate. A refusal
 * fails the host before anything runs on it, so a hostile inventory value
 * never gets a partly applied play. Tasks that need values known only
 * later (registered results) are checked again when they run. */
static void
preflight(struct runner *r, struct host_state *h, const struct play *play,
    size_t play_index, json_t *vars)
{
	struct module_result	res;
	size_t			i;

	for (i = 0; i < play->ntasks; i++) {
		const struct task	*t = &play->tasks[i];
		json_t			*args;
		char			*cause = NULL;
		int			 when = 1;

		if (!task_selected(play, t, r->cfg->tags, r->cfg->skip_tags))
			continue;
		if (t->when != NULL && (template_eval_bool(t->when, vars,
		    &t->when_pos, &when, &cause) != 0 || !when)) {
			free(cause);
			continue;
		}
		if ((args = task_render_args(t, vars, NULL, &cause)) == NULL) {
			free(cause);
			continue;
		}
		memset(&res, 0, sizeof res);
		if (gate_args(t, args, vars, &res) != 0) {
			record(h, play_index, t->name, t->module->name, &res,
			    0, 0);
			h->failed = 1;
			json_decref(args);
			return;
		}
		json_decref(args);
	}
}

/* The context a module (t) or a stager's flush (t NULL) runs with: the
 * task's own check and diff modes, else the run's. */
static void
fill_ctx(struct module_ctx *ctx, struct runner *r, struct host_state *h,
    const struct play *play, const struct task *t, json_t *vars)
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
}

/* register: the result as the variable name, for later tasks' templates. */
static void
register_result(struct host_state *h, const char *name,
    const struct module_result *res)
{
	json_t *reg = json_pack("{s:s, s:b, s:b, s:b}",
	    "status", result_status_name(res->status),
	    "changed", res->status == RESULT_CHANGED,
	    "failed", res->status == RESULT_FAILED,
	    "skipped", res->status == RESULT_SKIPPED);

	if (res->msg != NULL)
		json_object_set_new(reg, "msg", json_string(res->msg));
	if (res->data != NULL)
		json_object_set(reg, "data", res->data);
	json_object_set_new(h->registered, name, reg);
}

/* One task on one host: when, templating, binding, then the module. */
static void
run_task(struct runner *r, struct host_state *h, const struct play *play,
    size_t play_index, const struct task *t, json_t *vars)
{
	struct module_result	 res;
	struct module_ctx	 ctx;
	json_t			*args = NULL;
	uint64_t		 given = 0;
	char			*cause = NULL;
	int			 when = 1;
	double			 start = monotonic_seconds();

	memset(&res, 0, sizeof res);
	if (t->when != NULL && template_eval_bool(t->when, vars, &t->when_pos,
	    &when, &cause) != 0) {
		res.status = RESULT_FAILED;
		res.msg = cause;
		goto done;
	}
	if (!when) {
		res.status = RESULT_SKIPPED;
		res.msg = xstrdup("condition was false");
		goto done;
	}
	if ((args = task_render_args(t, vars, &given, &cause)) == NULL) {
		res.status = RESULT_FAILED;
		res.msg = cause;
		goto done;
	}
	if (gate_args(t, args, vars, &res) != 0)
		goto done;
	fill_ctx(&ctx, r, h, play, t, vars);
	if (module_call(t->module, &ctx, args, given, &res) != 0 &&
	    res.status != RESULT_FAILED && res.status != RESULT_UNREACHABLE) {
		res.status = RESULT_FAILED;
		if (res.msg == NULL)
			res.msg = xstrdup("module failed");
	}
done:
	if (t->register_as != NULL)
		register_result(h, t->register_as, &res);
	record(h, play_index, t->name, t->module->name, &res,
	    res.status == RESULT_FAILED && t->ignore_errors,
	    monotonic_seconds() - start);
	json_decref(args);
	module_result_clear(&res);
}

struct batch {
	struct runner		 *r;
	const struct play	 *play;
	size_t			  play_index;
	struct host_state	**hosts;
	size_t			  n;
	size_t			  next;		/* under r->lock */
	long			  step;		/* -1 gather, task index, ntasks
						 * for the final apply */
	json_t			 *groups;
	const struct module	 *gather;	/* when gather_facts */
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
	fill_ctx(&ctx, r, h, play, NULL, NULL);
	sg->flush(&ctx, stage, &res);
	sg->free(stage);
	tr = record(h, play_index, sg->task_name, sg->name, &res, 0,
	    monotonic_seconds() - start);
	tr->kind = RESULT_KIND_APPLY;
	if (tr->status == RESULT_FAILED || tr->status == RESULT_UNREACHABLE)
		h->failed = 1;
	module_result_clear(&res);
}

/*
 * One step of the play on one host. Steps run in lock-step over the batch,
 * like Ansible's linear strategy: gathering facts (step -1), then each task,
 * then the final apply of anything staged (step ntasks). So every host of a
 * batch has its baseline measured before any host of it is tuned, and the
 * output groups by task. A host that failed takes no further step.
 */
static void
run_host_step(struct batch *b, struct host_state *h)
{
	struct runner		*r = b->r;
	const struct task	*t;
	struct task_result	*last;
	json_t			*vars;

	if (h->failed || h->unreachable)
		return;
	if (b->step < 0) {
		struct task gather;

		memset(&gather, 0, sizeof gather);
		gather.name = "Gathering Facts";
		gather.module = b->gather;
		gather.args = json_object();
		gather.pos = b->play->pos;
		gather.check_mode = -1;
		gather.diff = -1;
		vars = host_vars(r, h, b->play, b->groups);
		run_task(r, h, b->play, b->play_index, &gather, vars);
		json_decref(vars);
		json_decref(gather.args);
	} else if ((size_t)b->step == b->play->ntasks) {
		flush_stage(r, h, b->play, b->play_index);
		return;
	} else {
		t = &b->play->tasks[b->step];
		if (t->module->stager != h->stager) {
			flush_stage(r, h, b->play, b->play_index);
			if (h->failed)
				return;
		}
		vars = host_vars(r, h, b->play, b->groups);
		run_task(r, h, b->play, b->play_index, t, vars);
		json_decref(vars);
	}
	last = &h->results[h->nresults - 1];
	if ((last->status == RESULT_FAILED && !last->ignored) ||
	    last->status == RESULT_UNREACHABLE)
		h->failed = 1;
}

static void *
batch_worker(void *arg)
{
	struct batch	*b = arg;
	struct runner	*r = b->r;
	size_t		 i;

	for (;;) {
		pthread_mutex_lock(&r->lock);
		i = b->next++;
		pthread_mutex_unlock(&r->lock);
		if (i >= b->n || runner_interrupted)
			break;
		run_host_step(b, b->hosts[i]);
		if ((size_t)b->step != b->play->ntasks)
			continue;
		pthread_mutex_lock(&r->lock);
		r->done++;
		if (b->hosts[i]->failed || b->hosts[i]->unreachable)
			r->nfailed++;
		if (r->cfg->progress != NULL)
			r->cfg->progress(r->cfg->cb_arg, r->done, r->total,
			    r->nfailed);
		pthread_mutex_unlock(&r->lock);
	}
	return NULL;
}

/* Run the current step over every host of the batch with the fork pool. */
static void
run_step(struct batch *b)
{
	pthread_t	*threads;
	size_t		 nthreads, i, started = 0;

	b->next = 0;
	nthreads = (size_t)b->r->cfg->forks;
	if (nthreads > b->n)
		nthreads = b->n;
	if (nthreads <= 1) {
		batch_worker(b);
		return;
	}
	threads = xcalloc(nthreads, sizeof *threads);
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

static void
run_batch(struct batch *b)
{
	size_t i;

	for (i = 0; i < b->n; i++) {
		json_t *vars;

		b->hosts[i]->failed = 0;
		if (b->hosts[i]->unreachable)
			continue;
		vars = host_vars(b->r, b->hosts[i], b->play, b->groups);
		preflight(b->r, b->hosts[i], b->play, b->play_index, vars);
		json_decref(vars);
	}
	for (b->step = b->gather != NULL ? -1 : 0;
	    b->step <= (long)b->play->ntasks && !runner_interrupted;
	    b->step++) {
		if (b->step >= 0 && (size_t)b->step < b->play->ntasks &&
		    !task_selected(b->play, &b->play->tasks[b->step],
		    b->r->cfg->tags, b->r->cfg->skip_tags))
			continue;
		run_step(b);
		/* any_errors_fatal: the first failure ends the play for
		 * every host, before the next step starts. */
		if (b->play->any_errors_fatal && any_failed(b))
			break;
	}
	for (i = 0; i < b->n; i++)
		drop_stage(b->hosts[i]);
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
	}
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

	/* Hosts unreachable in an earlier play are left out, as Ansible
	 * removes them from the rest of the run. */
	live = xcalloc(size, sizeof *live);
	for (j = 0; j < size; j++) {
		if (!hosts[j]->unreachable)
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
	run_batch(&b);
	if (r->cfg->batch_done != NULL)
		r->cfg->batch_done(r->cfg->cb_arg, play, play_index, live, k);
	judge_batch(r, play, live, k, batch_index);
	free(live);
}

static int
run_one_play(struct runner *r, const struct play *play, size_t play_index,
    char **cause)
{
	struct host_state	**hosts;
	char			**names = NULL;
	size_t			  n = 0, i, off, size, batch_index = 0;
	json_t			 *groups;

	if (inventory_select_limit(r->inv, play->hosts, r->cfg->limit,
	    &names, &n, cause) != 0)
		return -1;
	if (n == 0) {
		if (r->cfg->limit != NULL)
			return fail(cause, "no hosts match '%s' with --limit "
			    "'%s'", play->hosts, r->cfg->limit);
		return fail(cause, "no hosts match '%s'", play->hosts);
	}
	hosts = xcalloc(n, sizeof *hosts);
	for (i = 0; i < n; i++)
		hosts[i] = runner_host(r, names[i]);
	groups = groups_var(r);
	pthread_mutex_lock(&r->lock);
	r->done = 0;
	r->total = 0;
	r->nfailed = 0;
	for (i = 0; i < n; i++)
		r->total += !hosts[i]->unreachable;
	pthread_mutex_unlock(&r->lock);
	if (r->cfg->play_start != NULL)
		r->cfg->play_start(r->cfg->cb_arg, play, n);
	for (off = 0; off < n && !r->stopped && !runner_interrupted;
	    off += size, batch_index++) {
		size = serial_batch_size(&play->serial, batch_index, n);
		if (size == 0 || size > n - off)
			size = n - off;
		run_one_batch(r, play, play_index, hosts + off, size,
		    batch_index, groups);
	}
	json_decref(groups);
	pattern_hosts_free(names, n);
	free(hosts);
	return 0;
}

int
runner_play(struct runner *r, const struct playbook *pb, char **cause)
{
	size_t i;

	/* become is a property of the one connection a host gets per run: a
	 * play asking for it turns it on for the hosts' sessions. */
	for (i = 0; i < pb->nplays; i++) {
		size_t j;

		for (j = 0; pb->plays[i].become > 0 && j < r->nhosts; j++)
			r->hosts[j]->tp.become = 1;
	}
	for (i = 0; i < pb->nplays && !r->stopped && !runner_interrupted;
	    i++) {
		if (run_one_play(r, &pb->plays[i], i, cause) != 0)
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
	rc = run_one_play(r, &play, 0, cause);
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
	json_t		*vars = inventory_host_vars(r->inv, host);
	const char	*a;
	char		*addr;

	if ((a = json_string_value(json_object_get(vars, "iperf_address"))) ==
	    NULL && (a = json_string_value(json_object_get(vars,
	    "ansible_host"))) == NULL)
		a = host;
	addr = xstrdup(a);
	json_decref(vars);
	return addr;
}

int
runner_exit_status(const struct runner *r)
{
	if (runner_interrupted)
		return RUNNER_EXIT_INTERRUPTED;
	return runner_exit_bits(r);
}
