/* The module context: what playbook/module.h lets a module reach of the
 * run, and nothing else. A module never sees a host_state's fields, the
 * runner's locks or a connection: it asks here, and the locking stays the
 * runner's (h->lock around the connection, the facts and the memo;
 * h->verify_lock for the iperf3 pair). */
#include "playbook/module.h"

#include <stdlib.h>
#include <string.h>

#include "inventory/inventory.h"
#include "net/local.h"
#include "remote/remote-cmd.h"
#include "template/template.h"
#include "playbook/playbook.h"
#include "run/runner.h"
#include "base/xalloc.h"

const char *
module_ctx_host_name(const struct module_ctx *ctx)
{
	return ctx->host->name;
}

const json_t *
module_ctx_vars(const struct module_ctx *ctx)
{
	return ctx->vars;
}

int
module_ctx_check(const struct module_ctx *ctx)
{
	return ctx->check;
}

int
module_ctx_diff(const struct module_ctx *ctx)
{
	return ctx->diff;
}

int
module_ctx_drift(const struct module_ctx *ctx)
{
	return ctx->run->cfg->drift;
}

const char *
module_ctx_playbook_path(const struct module_ctx *ctx)
{
	return ctx->run->cfg->playbook_path;
}

char *
module_ctx_environment(struct module_ctx *ctx, char **cause)
{
	const struct task	*t = ctx->task;
	json_t			*env;
	char			*prefix;

	if (t == NULL || t->environment == NULL)
		return xstrdup("");
	if ((env = template_render(t->environment, ctx->vars,
	    &t->environment_pos, cause)) == NULL)
		return NULL;
	if (!json_is_object(env)) {
		ypos_fail(cause, &t->environment_pos, "environment must be a "
		    "mapping of variables");
		json_decref(env);
		return NULL;
	}
	prefix = remote_env_prefix(env, cause);
	json_decref(env);
	return prefix;
}

int
module_ctx_verbosity(const struct module_ctx *ctx)
{
	return ctx->run->cfg->verbosity;
}

/* The host's own vars: only its worker touches them during a step. They
 * are the host's when the task ends without failing (runner_run_task). */
void
module_ctx_set_fact(struct module_ctx *ctx, const char *name, json_t *value)
{
	json_object_set_new(ctx->host->pending_facts, name, value);
}

void
module_ctx_include_vars(struct module_ctx *ctx, const json_t *vars)
{
	json_t *copy = json_deep_copy(vars);

	json_object_update(ctx->host->pending_vars, copy);
	json_decref(copy);
}

const json_t *
module_ctx_facts(const struct module_ctx *ctx)
{
	return ctx->host->facts;
}

void
module_ctx_set_facts(struct module_ctx *ctx, json_t *facts)
{
	struct host_state *h = ctx->host;

	pthread_mutex_lock(&h->lock);
	json_decref(h->facts);
	h->facts = json_incref(facts);
	pthread_mutex_unlock(&h->lock);
}

json_t *
module_ctx_memo_get(struct module_ctx *ctx, const char *key)
{
	struct host_state	*h = ctx->host;
	json_t			*v;

	pthread_mutex_lock(&h->lock);
	v = json_incref(json_object_get(h->memo, key));
	pthread_mutex_unlock(&h->lock);
	return v;
}

void
module_ctx_memo_set(struct module_ctx *ctx, const char *key, json_t *value)
{
	struct host_state *h = ctx->host;

	pthread_mutex_lock(&h->lock);
	json_object_set_new(h->memo, key, value);
	pthread_mutex_unlock(&h->lock);
}

/* The stager of the module being called; none while the runner flushes. */
static const struct module_stager *
ctx_stager(const struct module_ctx *ctx)
{
	return ctx->task != NULL ? ctx->task->module->stager : NULL;
}

void *
module_ctx_stage(struct module_ctx *ctx)
{
	const struct module_stager *sg = ctx_stager(ctx);

	if (sg == NULL || ctx->host->stager != sg)
		return NULL;
	return ctx->host->stage;
}

void
module_ctx_set_stage(struct module_ctx *ctx, void *stage)
{
	struct host_state *h = ctx->host;

	/* The runner flushed any other stager's stage before this task. */
	h->stage = stage;
	h->stager = ctx_stager(ctx);
	/* the flush runs as the last task that staged */
	free(h->stage_as_user);
	h->stage_as_user = ctx->as.user != NULL ? xstrdup(ctx->as.user) :
	    NULL;
	h->stage_as.on = ctx->as.on;
	h->stage_as.user = h->stage_as_user;
}

/* Open the host's connection if needed (again, when the pool closed it
 * while the host was idle). Called with h->lock held. */
static enum tp_status
host_connect(struct host_state *h, char **cause)
{
	enum tp_status	 st;
	const char	*warning;

	if (h->tp_handle != NULL)
		return TP_OK;
	if (h->unreachable) {
		*cause = xstrdup(h->unreachable_msg != NULL ?
		    h->unreachable_msg : "unreachable");
		return TP_UNREACHABLE;
	}
	st = transport_open(&h->tp, &h->tp_handle, cause);
	if (st != TP_OK) {
		/* A host that can't be reached stays so for this run: every
		 * later task would only wait for the same timeout again. */
		if (st == TP_UNREACHABLE || st == TP_HOSTKEY || st == TP_AUTH) {
			h->unreachable = 1;
			h->unreachable_msg = xstrdup(*cause);
		}
		return st;
	}
	/* A reconnection's warning was said at the first. */
	if (h->stats.connections++ == 0 &&
	    (warning = transport_warning(h->tp_handle)) != NULL)
		h->warning = xstrdup(warning);
	return TP_OK;
}

/* The host whose connection ctx's commands use (a context made by hand,
 * in the unit tests, names only its host). */
static struct host_state *
ctx_conn(const struct module_ctx *ctx)
{
	return ctx->conn != NULL ? ctx->conn : ctx->host;
}

/* A command on any host of the run, serialised by that host's lock; the
 * run's pool keeps the number of open connections bounded. */
static enum tp_status
host_exec(struct runner *r, struct host_state *h, const struct tp_become *as,
    const char *cmd, const void *in, size_t in_len, int timeout,
    struct tp_result *res, char **cause)
{
	enum tp_status st;

	memset(res, 0, sizeof *res);
	if (h->local) {
		/* no connection to keep: the lock only for the count */
		pthread_mutex_lock(&h->lock);
		h->stats.round_trips++;
		pthread_mutex_unlock(&h->lock);
		return local_exec(as, cmd, in, in_len, timeout, res, cause);
	}
	pthread_mutex_lock(&h->lock);
	st = host_connect(h, cause);
	if (st == TP_OK) {
		h->stats.round_trips++;
		st = transport_exec_as(h->tp_handle, as, cmd, in, in_len,
		    timeout, res, cause);
		if (st == TP_UNREACHABLE) {
			/* The connection broke: drop it so nothing
			 * reuses it. */
			transport_close(h->tp_handle);
			h->tp_handle = NULL;
			conn_pool_closed(&r->pool, h);
			h->unreachable = 1;
			free(h->unreachable_msg);
			h->unreachable_msg = xstrdup(*cause);
		} else
			conn_pool_use(&r->pool, h);
	}
	pthread_mutex_unlock(&h->lock);
	return st;
}

enum tp_status
module_ctx_exec(struct module_ctx *ctx, const char *cmd, const void *in,
    size_t in_len, int timeout, struct tp_result *res, char **cause)
{
	if (ctx->conn_error != NULL) {
		memset(res, 0, sizeof *res);
		*cause = xstrdup(ctx->conn_error);
		return TP_FAILED;
	}
	return host_exec(ctx->run, ctx_conn(ctx), &ctx->as, cmd, in, in_len,
	    timeout, res, cause);
}

enum tp_status
module_ctx_exec_fresh(struct module_ctx *ctx, const char *cmd,
    const void *in, size_t in_len, int timeout, int connect_timeout,
    struct tp_result *res, char **cause)
{
	struct host_state	*h = ctx_conn(ctx);
	struct transport	*t = NULL;
	struct tp_options	 opts;
	enum tp_status		 st;

	memset(res, 0, sizeof *res);
	if (h->local)
		return host_exec(ctx->run, h, &ctx->as, cmd, in, in_len,
		    timeout, res, cause);
	/* h->tp is set once per run and only read (a shallow copy shares
	 * its strings); the counts are the lock's. */
	opts = h->tp;
	opts.become = ctx->as.on;
	opts.become_user = ctx->as.user;
	if (connect_timeout > 0)
		opts.connect_timeout = connect_timeout;
	st = transport_open(&opts, &t, cause);
	pthread_mutex_lock(&h->lock);
	h->stats.connections++;
	if (st == TP_OK)
		h->stats.round_trips++;
	pthread_mutex_unlock(&h->lock);
	if (st != TP_OK)
		return st;
	st = transport_exec(t, cmd, in, in_len, timeout, res, cause);
	transport_close(t);
	return st;
}

void
module_ctx_reset_connection(struct module_ctx *ctx)
{
	struct host_state *h = ctx->host;

	pthread_mutex_lock(&h->lock);
	if (h->tp_handle != NULL) {
		transport_close(h->tp_handle);
		h->tp_handle = NULL;
		conn_pool_closed(&ctx->run->pool, h);
	}
	h->unreachable = 0;
	free(h->unreachable_msg);
	h->unreachable_msg = NULL;
	pthread_mutex_unlock(&h->lock);
}

int
module_ctx_confirm_timeout(const struct module_ctx *ctx)
{
	return ctx->run->cfg->confirm_timeout;
}

int
module_ctx_connect_timeout(const struct module_ctx *ctx)
{
	return ctx->host->tp.connect_timeout > 0 ?
	    ctx->host->tp.connect_timeout : TP_DEFAULT_CONNECT_TIMEOUT;
}

struct host_state *
module_ctx_peer(struct module_ctx *ctx, const char *name)
{
	return runner_host(ctx->run, name);
}

static void
peers_add(const char ***names, size_t *n, const char *self, const char *name)
{
	size_t i;

	if (strcmp(name, self) == 0)
		return;
	for (i = 0; i < *n; i++) {
		if (strcmp((*names)[i], name) == 0)
			return;
	}
	*names = xreallocarray(*names, *n + 1, sizeof **names);
	(*names)[(*n)++] = name;
}

/* One entry of iperf_peer(s): a host of the run, else a group of the
 * inventory. The names added are the runner's or the inventory's, which
 * outlive the module call. */
static int
peers_add_entry(struct module_ctx *ctx, const char ***names, size_t *n,
    const char *var, const json_t *v, char **cause)
{
	const char		*self = ctx->host->name, *name;
	const char		**members;
	struct host_state	*h;
	size_t			 nmembers, i;

	if (!json_is_string(v)) {
		*cause = xprintf("variable '%s': expected a host or group "
		    "name, or a list of them", var);
		return -1;
	}
	name = json_string_value(v);
	if ((h = runner_host(ctx->run, name)) != NULL) {
		peers_add(names, n, self, h->name);
		return 0;
	}
	if (inventory_group_hosts(ctx->run->inv, name, &members,
	    &nmembers) != 0) {
		*cause = xprintf("variable '%s': '%s' is neither a host nor a "
		    "group of the inventory", var, name);
		return -1;
	}
	for (i = 0; i < nmembers; i++) {
		if ((h = runner_host(ctx->run, members[i])) != NULL)
			peers_add(names, n, self, h->name);
	}
	free(members);
	return 0;
}

int
module_ctx_peers(struct module_ctx *ctx, const char ***names, size_t *n,
    char **cause)
{
	const json_t	*one = json_object_get(ctx->vars, "iperf_peer");
	const json_t	*many = json_object_get(ctx->vars, "iperf_peers");
	const json_t	*v;
	size_t		 i;

	*names = NULL;
	*n = 0;
	if (one != NULL && !json_is_null(one) &&
	    peers_add_entry(ctx, names, n, "iperf_peer", one, cause) != 0)
		goto bad;
	if (json_is_array(many)) {
		json_array_foreach(many, i, v) {
			if (peers_add_entry(ctx, names, n, "iperf_peers", v,
			    cause) != 0)
				goto bad;
		}
	} else if (many != NULL && !json_is_null(many) &&
	    peers_add_entry(ctx, names, n, "iperf_peers", many, cause) != 0)
		goto bad;
	return 0;
bad:
	free(*names);
	*names = NULL;
	*n = 0;
	return -1;
}

char *
module_ctx_traffic_address(const struct module_ctx *ctx, const char *name)
{
	return runner_traffic_address(ctx->run, name);
}

enum tp_status
module_ctx_exec_on(struct module_ctx *ctx, struct host_state *peer,
    const char *cmd, const void *in, size_t in_len, int timeout,
    struct tp_result *res, char **cause)
{
	if (ctx->conn_error != NULL) {
		memset(res, 0, sizeof *res);
		*cause = xstrdup(ctx->conn_error);
		return TP_FAILED;
	}
	return host_exec(ctx->run, peer, &ctx->as, cmd, in, in_len, timeout,
	    res, cause);
}

const json_t *
module_ctx_pairs(const struct module_ctx *ctx)
{
	return ctx->host->pairs;
}

const json_t *
module_ctx_schedule(const struct module_ctx *ctx)
{
	return ctx->run->schedule;
}

void
module_ctx_lock_pair(struct module_ctx *ctx, struct host_state *peer)
{
	struct host_state *a = ctx->host;
	struct host_state *first = strcmp(a->name, peer->name) <= 0 ? a : peer;
	struct host_state *second = first == a ? peer : a;

	pthread_mutex_lock(&first->verify_lock);
	if (second != first)
		pthread_mutex_lock(&second->verify_lock);
}

void
module_ctx_unlock_pair(struct module_ctx *ctx, struct host_state *peer)
{
	pthread_mutex_unlock(&ctx->host->verify_lock);
	if (peer != ctx->host)
		pthread_mutex_unlock(&peer->verify_lock);
}
