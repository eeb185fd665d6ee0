/* iperf3_verify: paired iperf3 runs, before/after table and a gate.
 *
 * For each pair (this host and a peer of the run): up to four runs --
 * single stream and -P N, up (host sends) and down (-R, peer sends) --
 * each against a fresh one-shot server (`iperf3 -s -1`) started on the peer
 * over the peer's own SSH connection and killed by pid afterwards. The
 * pair lock (module_ctx_lock_pair) is held around each server+client run,
 * so a host is never in two tests at once (a -> b and b -> a share the
 * emulated or real path and would halve each other); it takes both ends
 * in the order of the hosts' names, so pairs in both directions cannot
 * deadlock.
 *
 * phase before keeps the figures in the host's memo ("iperf3_before",
 * keyed by peer); after measures again, compares, and applies the gate;
 * auto is before when no baseline is kept for the pair, else after. The
 * JSON in res->data is documented in docs/verify.md. */
#include "playbook/module.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "remote/iperf.h"
#include "base/strbuf.h"
#include "modules/tune-facts.h"
#include "modules/tune.h"
#include "modules/verify-table.h"
#include "base/xalloc.h"

#define MEMO_KEY	"iperf3_before"

static const char *const verify_on_regression[] = { "fail", "rollback",
	"warn", NULL };
static const char *const verify_phase[] = { "auto", "before", "after",
	NULL };
static const char *const verify_kinds[] = { "single_up", "single_down",
	"multi_up", "multi_down", NULL };

struct verify_conf {
	struct module_conf	 hdr;
	const char		*peer;
	const json_t		*pairs;
	long long		 duration;
	long long		 omit;
	long long		 parallel;
	long long		 port;
	int			 reverse;
	double			 min_gain;	/* 0: not given */
	const char		*gain_on;
	double			 max_regression;
	const char		*on_regression;
	const char		*phase;
	const char		*sysctl_file;
};

#define AT(field)	offsetof(struct verify_conf, field)

static const struct module_param iperf3_verify_params[] = {
	{ .name = "peer", .type = PARAM_STR, .offset = AT(peer),
	  .help = "peer host (default: the host's iperf_peer var)" },
	{ .name = "pairs", .type = PARAM_LIST, .offset = AT(pairs),
	  .help = "explicit list of {host, peer} pairs (optional address: "
		  "the peer's traffic address)" },
	{ .name = "duration", .type = PARAM_INT, .offset = AT(duration),
	  .def = "10", .min = 1, .max = 600,
	  .help = "seconds per iperf3 run (-t)" },
	{ .name = "omit", .type = PARAM_INT, .offset = AT(omit), .def = "2",
	  .min = 0, .max = 60, .help = "seconds of slow start to omit (-O)" },
	{ .name = "parallel", .type = PARAM_INT, .offset = AT(parallel),
	  .def = "4", .min = 1, .max = 128,
	  .help = "streams for the multi-stream run (-P); 1 = "
		  "no multi-stream run" },
	{ .name = "port", .type = PARAM_INT, .offset = AT(port), .def = "5201",
	  .min = 1, .max = 65535, .help = "first port to try on the peer" },
	{ .name = "reverse", .type = PARAM_BOOL, .offset = AT(reverse),
	  .def = "true", .help = "also measure the reverse direction (-R)" },
	{ .name = "min_gain", .type = PARAM_FLOAT, .offset = AT(min_gain),
	  .min = 0, .max = 1000,
	  .help = "fail unless after/before of gain_on is at least this "
		  "ratio" },
	{ .name = "gain_on", .type = PARAM_CHOICE, .offset = AT(gain_on),
	  .def = "single_up", .choices = verify_kinds,
	  .help = "the run min_gain applies to" },
	{ .name = "max_regression", .type = PARAM_FLOAT,
	  .offset = AT(max_regression), .def = "0.1", .min = 0, .max = 1,
	  .help = "largest tolerated fractional drop" },
	{ .name = "on_regression", .type = PARAM_CHOICE,
	  .offset = AT(on_regression), .def = "fail",
	  .choices = verify_on_regression,
	  .help = "what to do when the gate fails" },
	{ .name = "phase", .type = PARAM_CHOICE, .offset = AT(phase),
	  .def = "auto", .choices = verify_phase,
	  .help = "before (baseline), after, or auto (both around the play)" },
	{ .name = "sysctl_file", .type = PARAM_PATH, .offset = AT(sysctl_file),
	  .def = "/etc/sysctl.d/90-tcptune.conf",
	  .host_line = HOSTLINE_DROPIN_PATH,
	  .help = "the drop-in on_regression: rollback restores (or var "
		  "tcptune_sysctl_file)" },
	{ .name = NULL },
};

struct verify_opts {
	int		 duration;
	int		 omit;
	int		 parallel;
	int		 port;
	int		 reverse;
	struct verify_gate gate;
	const char	*on_regression;
	const char	*phase;
};

struct pair {
	const char		*peer;
	char			*address;
	struct host_state	*ph;
	int			 after;		/* phase for this pair */
	struct iperf_set	 before;
	struct iperf_set	 now;
	int			 gate_passed;
	char			*gate_why;
};

static int
verify_validate(const void *vconf, char **cause)
{
	const struct verify_conf *conf = vconf;
	const json_t	*pairs = conf->pairs;
	const json_t	*it;
	size_t		 i;

	json_array_foreach(pairs, i, it) {
		if (!json_is_object(it) ||
		    !json_is_string(json_object_get(it, "host")) ||
		    !json_is_string(json_object_get(it, "peer")))
			return fail(cause, "'pairs' item %zu must be a mapping "
			    "with 'host' and 'peer' strings", i + 1);
		if (json_object_get(it, "address") != NULL &&
		    !json_is_string(json_object_get(it, "address")))
			return fail(cause, "'pairs' item %zu: 'address' must "
			    "be a string", i + 1);
	}
	if (pairs != NULL && conf->peer != NULL)
		return fail(cause, "give 'peer' or 'pairs', not both");
	return 0;
}

static void
read_opts(const struct verify_conf *conf, struct verify_opts *o)
{
	memset(o, 0, sizeof *o);
	o->duration = (int)conf->duration;
	o->omit = (int)conf->omit;
	o->parallel = (int)conf->parallel;
	o->port = (int)conf->port;
	o->reverse = conf->reverse;
	o->gate.min_gain = conf->min_gain;
	o->gate.gain_kind = iperf_kind_from_name(conf->gain_on);
	o->gate.max_regression = conf->max_regression;
	o->on_regression = conf->on_regression;
	o->phase = conf->phase;
}

static int
kind_wanted(const struct verify_opts *o, enum iperf_kind k)
{
	if (iperf_kind_reverse(k) && !o->reverse)
		return 0;
	if (iperf_kind_multi(k) && o->parallel < 2)
		return 0;
	return 1;
}

static int
nruns(const struct verify_opts *o)
{
	int k, n = 0;

	for (k = 0; k < IPERF_NKINDS; k++)
		n += kind_wanted(o, k);
	return n;
}

static void
pairs_free(struct pair *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(p[i].address);
		free(p[i].gate_why);
	}
	free(p);
}

/* The pairs whose host is this host. 0 with *n == 0: no peer here. */
static int
collect_pairs(struct module_ctx *ctx, const struct verify_conf *conf,
    struct pair **out, size_t *n, char **cause)
{
	const json_t	*pairs = conf->pairs;
	const json_t	*it;
	const char	*peer, *addr;
	struct pair	*p = NULL;
	size_t		 i, k;

	*n = 0;
	if (pairs != NULL) {
		json_array_foreach(pairs, i, it) {
			if (strcmp(json_string_value(json_object_get(it,
			    "host")), module_ctx_host_name(ctx)) != 0)
				continue;
			p = xreallocarray(p, *n + 1, sizeof *p);
			memset(&p[*n], 0, sizeof *p);
			p[*n].peer = json_string_value(json_object_get(it,
			    "peer"));
			addr = json_string_value(json_object_get(it,
			    "address"));
			if (addr != NULL)
				p[*n].address = xstrdup(addr);
			(*n)++;
		}
	} else {
		peer = conf->peer;
		if (peer == NULL)
			peer = json_string_value(json_object_get(
			    module_ctx_vars(ctx), "iperf_peer"));
		if (peer != NULL) {
			p = xcalloc(1, sizeof *p);
			p->peer = peer;
			*n = 1;
		}
	}
	for (k = 0; k < *n; k++) {
		if (strcmp(p[k].peer, module_ctx_host_name(ctx)) == 0) {
			fail(cause, "'%s' cannot be its own iperf3 peer",
			    p[k].peer);
			goto bad;
		}
		if ((p[k].ph = module_ctx_peer(ctx, p[k].peer)) == NULL) {
			fail(cause, "iperf3 peer '%s' is not in the inventory",
			    p[k].peer);
			goto bad;
		}
		if (p[k].address == NULL)
			p[k].address = module_ctx_traffic_address(ctx,
			    p[k].peer);
	}
	*out = p;
	return 0;
bad:
	pairs_free(p, *n);
	*n = 0;
	*out = NULL;
	return -1;
}

/* The baseline kept for a peer, if any. */
static int
memo_get(struct module_ctx *ctx, const char *peer, struct iperf_set *s)
{
	json_t		*m = module_ctx_memo_get(ctx, MEMO_KEY);
	const json_t	*j = json_object_get(m, peer);
	int		 found;

	found = j != NULL && iperf_set_from_json(j, s) == 0;
	json_decref(m);
	return found;
}

static void
memo_put(struct module_ctx *ctx, const char *peer, const struct iperf_set *s)
{
	json_t *old = module_ctx_memo_get(ctx, MEMO_KEY);
	json_t *m = old != NULL ? json_copy(old) : json_object();

	/* Changed on a copy: the memo is written only through
	 * module_ctx_memo_set, under the host's lock. */
	json_object_set_new(m, peer, iperf_set_json(s));
	module_ctx_memo_set(ctx, MEMO_KEY, m);
	json_decref(old);
}

/* Transport trouble on the peer: the host itself is fine, so failed. */
static char *
peer_error(const char *peer, enum tp_status st, char *cause)
{
	char *msg;

	msg = xprintf("iperf3 peer '%s': %s", peer, cause != NULL ? cause :
	    tp_strerror(st));
	free(cause);
	return msg;
}

static char *
exit_error(const char *where, const char *what, struct tp_result *out)
{
	const char *err = out->err != NULL ? out->err : "";

	if (out->exit_status == IPERF_EXIT_MISSING)
		return xprintf("iperf3 is not installed on '%s'", where);
	return xprintf("%s on '%s' exited %d%s%.200s", what, where,
	    out->exit_status, err[0] != '\0' ? ": " : "", err);
}

/*
 * One run: server on the peer, client here, server killed. Returns 0, or
 * -1 with res filled (unreachable when this host's connection failed).
 */
static int
measure_one(struct module_ctx *ctx, const struct verify_opts *o,
    struct pair *p, enum iperf_kind k, struct module_result *res)
{
	struct iperf_client_opts co;
	struct tp_result	 out, kout;
	enum tp_status		 st;
	char			*cmd = NULL, *cause = NULL, *msg = NULL;
	long			 pid = 0;
	int			 port, rc = -1;

	memset(&out, 0, sizeof out);
	memset(&kout, 0, sizeof kout);
	module_ctx_lock_pair(ctx, p->ph);

	cmd = iperf_server_command(o->port);
	st = module_ctx_exec_on(ctx, p->ph, cmd, NULL, 0, 30, &out, &cause);
	free(cmd);
	cmd = NULL;
	if (st != TP_OK) {
		msg = peer_error(p->peer, st, cause);
		goto out;
	}
	if (out.exit_status != 0) {
		msg = exit_error(p->peer, "iperf3 server start", &out);
		goto out;
	}
	if (iperf_server_parse(out.out, &pid, &port, &cause) != 0) {
		msg = xprintf("iperf3 peer '%s': %s", p->peer, cause);
		free(cause);
		goto out;
	}
	tp_result_clear(&out);

	memset(&co, 0, sizeof co);
	co.address = p->address;
	co.port = port;
	co.duration = o->duration;
	co.omit = o->omit;
	co.parallel = iperf_kind_multi(k) ? o->parallel : 1;
	co.reverse = iperf_kind_reverse(k);
	cmd = iperf_client_command(&co);
	st = module_ctx_exec(ctx, cmd, NULL, 0, o->duration + o->omit + 45,
	    &out, &cause);
	if (st != TP_OK) {
		module_result_transport_failed(res, st, cause);
		cause = NULL;
		goto out;
	}
	/* iperf3 -J reports its own errors as JSON (and exits 1). */
	if (out.out_len == 0 && out.exit_status != 0) {
		msg = exit_error(module_ctx_host_name(ctx), "iperf3 client",
		    &out);
		goto out;
	}
	if (iperf_parse(out.out, out.out_len, &p->now.run[k], &cause) != 0) {
		msg = xprintf("%s to '%s' (%s port %d): %s",
		    iperf_kind_label(k), p->peer, p->address, port, cause);
		free(cause);
		goto out;
	}
	p->now.have[k] = 1;
	rc = 0;
out:
	/* Whatever happened, the one-shot server must not linger (it waits
	 * forever for a client that never came). */
	if (pid > 0) {
		free(cmd);
		cmd = iperf_kill_command(pid);
		cause = NULL;
		if (module_ctx_exec_on(ctx, p->ph, cmd, NULL, 0, 15, &kout,
		    &cause) != TP_OK)
			free(cause);
		tp_result_clear(&kout);
	}
	module_ctx_unlock_pair(ctx, p->ph);
	free(cmd);
	tp_result_clear(&out);
	if (msg != NULL) {
		res->status = RESULT_FAILED;
		free(res->msg);
		res->msg = msg;
	}
	return rc;
}

static json_t *
ratios_json(const struct iperf_set *b, const struct iperf_set *a)
{
	json_t	*j = json_object();
	double	 r;
	int	 k;

	for (k = 0; k < IPERF_NKINDS; k++) {
		if (!b->have[k] || !a->have[k])
			continue;
		r = verify_ratio(b, a, k);
		/* JSON has no infinity: a zero baseline gives null. */
		json_object_set_new(j, iperf_kind_name(k), r >= 0 &&
		    !isinf(r) ? json_real(r) : json_null());
	}
	return j;
}

static json_t *
pair_json(const struct pair *p)
{
	json_t *j;

	j = json_pack("{s:s, s:s, s:s}", "peer", p->peer, "address",
	    p->address, "phase", p->after != 0 ? "after" : "before");
	if (p->after == 1) {
		json_object_set_new(j, "before", iperf_set_json(&p->before));
		json_object_set_new(j, "after", iperf_set_json(&p->now));
		json_object_set_new(j, "ratio", ratios_json(&p->before,
		    &p->now));
		json_object_set_new(j, "gate", json_pack("{s:b, s:s}",
		    "passed", p->gate_passed, "detail", p->gate_why));
	} else if (p->after == 0)
		json_object_set_new(j, "before", iperf_set_json(&p->now));
	else {
		/* phase after with no baseline: figures, no gate. */
		json_object_set_new(j, "after", iperf_set_json(&p->now));
		json_object_set_new(j, "gate", json_null());
	}
	return j;
}

static char *
check_message(const struct verify_opts *o, const struct pair *p, size_t n)
{
	struct strbuf	sb;
	size_t		i;

	strbuf_init(&sb);
	strbuf_addstr(&sb, "skipped in check mode: would measure ");
	for (i = 0; i < n; i++)
		strbuf_addf(&sb, "%s%s (%s)", i > 0 ? ", " : "", p[i].peer,
		    p[i].address);
	strbuf_addf(&sb, ": %d iperf3 run%s of %d s each", nruns(o),
	    nruns(o) == 1 ? "" : "s", o->duration + o->omit);
	return strbuf_detach(&sb, NULL);
}

/* This host's pairs; 0, or -1 with res set (failed, or skipped: no
 * peer). */
static int
host_pairs(struct module_ctx *ctx, const struct verify_conf *conf,
    struct pair **pairs, size_t *n, struct module_result *res)
{
	char *cause = NULL;

	if (collect_pairs(ctx, conf, pairs, n, &cause) != 0) {
		res->status = RESULT_FAILED;
		res->msg = cause;
		return -1;
	}
	if (*n == 0) {
		res->status = RESULT_SKIPPED;
		res->msg = xstrdup(conf->pairs != NULL ?
		    "no pair for this host in 'pairs'" :
		    "no iperf3 peer: set the iperf_peer var or 'peer'");
		return -1;
	}
	return 0;
}

/* Check mode: measuring changes nothing, but it takes time and loads the
 * path, and its gate may roll a host back: say what would be measured. */
static int
verify_plan(struct module_ctx *ctx, const void *vconf,
    struct module_result *res)
{
	const struct verify_conf *conf = vconf;
	struct verify_opts	 o;
	struct pair		*pairs = NULL;
	size_t			 n = 0;

	read_opts(conf, &o);
	if (host_pairs(ctx, conf, &pairs, &n, res) == 0) {
		res->status = RESULT_SKIPPED;
		res->msg = check_message(&o, pairs, n);
	}
	pairs_free(pairs, n);
	return 0;
}

static int
verify_run(struct module_ctx *ctx, const void *vconf,
    struct module_result *res)
{
	const struct verify_conf *conf = vconf;
	struct verify_opts	 o;
	struct pair		*pairs = NULL;
	struct module_result	 rb;
	struct strbuf		 msg, tables, why;
	json_t			*jpairs;
	char			*s, *footer;
	size_t			 n = 0, i;
	int			 k, failed_gate = 0;

	strbuf_init(&msg);
	strbuf_init(&tables);
	strbuf_init(&why);
	memset(&rb, 0, sizeof rb);
	read_opts(conf, &o);
	if (host_pairs(ctx, conf, &pairs, &n, res) != 0)
		goto out;

	for (i = 0; i < n; i++) {
		struct pair *p = &pairs[i];

		if (strcmp(o.phase, "before") == 0)
			p->after = 0;
		else if (strcmp(o.phase, "after") == 0)
			p->after = memo_get(ctx, p->peer, &p->before) ? 1 : -1;
		else
			p->after = memo_get(ctx, p->peer, &p->before);
		for (k = 0; k < IPERF_NKINDS; k++) {
			if (kind_wanted(&o, k) &&
			    measure_one(ctx, &o, p, k, res) != 0)
				goto out;
		}
	}

	jpairs = json_array();
	for (i = 0; i < n; i++) {
		struct pair		*p = &pairs[i];
		struct verify_head	 h = { module_ctx_host_name(ctx),
		    p->peer, p->address, o.duration, o.omit, o.parallel };

		if (msg.len > 0)
			strbuf_addstr(&msg, "; ");
		if (n > 1)
			strbuf_addf(&msg, "%s: ", p->peer);
		if (p->after == 1) {
			p->gate_passed = verify_gate_check(&p->before, &p->now,
			    &o.gate, &p->gate_why);
			if (!p->gate_passed) {
				failed_gate = 1;
				if (why.len > 0)
					strbuf_addstr(&why, "; ");
				if (n > 1)
					strbuf_addf(&why, "%s: ", p->peer);
				strbuf_addstr(&why, p->gate_why);
			}
			s = verify_summary(&p->before, &p->now);
			footer = xprintf("gate %s: %s", p->gate_passed ?
			    "passed" : "FAILED", p->gate_why);
			strbuf_addstr(&msg, s);
			free(s);
			s = verify_table(&h, &p->before, &p->now, footer);
			free(footer);
		} else {
			if (p->after == 0)
				memo_put(ctx, p->peer, &p->now);
			s = verify_summary(&p->now, NULL);
			strbuf_addf(&msg, "%s%s", p->after == 0 ? "baseline: " :
			    "no baseline to compare with (gate not checked): ",
			    s);
			free(s);
			s = verify_table(&h, &p->now, NULL, p->after == 0 ?
			    "baseline kept for phase: after" :
			    "no baseline in this run: gate not checked");
		}
		if (tables.len > 0)
			strbuf_addch(&tables, '\n');
		strbuf_addstr(&tables, s);
		free(s);
		json_array_append_new(jpairs, pair_json(p));
	}
	res->data = json_pack("{s:o, s:s, s:{s:i, s:i, s:i, s:b}}",
	    "pairs", jpairs, "table", tables.buf, "options",
	    "duration", o.duration, "omit", o.omit, "parallel", o.parallel,
	    "reverse", o.reverse);
	res->status = RESULT_OK;

	if (failed_gate) {
		json_object_set_new(res->data, "regression",
		    json_string(why.buf));
		if (strcmp(o.on_regression, "warn") == 0) {
			s = xprintf("WARNING gate failed: %s | %s", why.buf,
			    msg.buf);
			res->msg = s;
			json_object_set_new(res->data, "action",
			    json_string("warn"));
			goto out;
		}
		res->status = RESULT_FAILED;
		if (strcmp(o.on_regression, "rollback") == 0) {
			const char *file = tune_file(ctx, conf->sysctl_file,
			    module_conf_given(iperf3_verify_params, conf,
			    AT(sysctl_file)));

			/* Back to before this play's tuning, not to the
			 * host's state before tcptune ever ran. */
			tune_rollback(ctx, file, 1, 0, &rb);
			json_object_set_new(res->data, "action",
			    json_string("rollback"));
			json_object_set_new(res->data, "rollback",
			    json_pack("{s:s, s:s, s:s?}", "file", file,
			    "status", result_status_name(rb.status), "msg",
			    rb.msg));
			if (rb.status == RESULT_FAILED ||
			    rb.status == RESULT_UNREACHABLE)
				res->msg = xprintf("regression: %s; rollback "
				    "of '%s' FAILED: %s", why.buf, file,
				    rb.msg != NULL ? rb.msg : "?");
			else
				res->msg = xprintf("regression: %s; rolled "
				    "back (%s)", why.buf, rb.msg != NULL ?
				    rb.msg : file);
			goto out;
		}
		json_object_set_new(res->data, "action", json_string("fail"));
		res->msg = xprintf("regression: %s", why.buf);
		goto out;
	}
	res->msg = strbuf_detach(&msg, NULL);
out:
	module_result_clear(&rb);
	strbuf_release(&msg);
	strbuf_release(&tables);
	strbuf_release(&why);
	pairs_free(pairs, n);
	return 0;
}

const struct module mod_iperf3_verify = {
	.name = "iperf3_verify",
	.summary = "measure with paired iperf3 runs and gate on the result",
	.params = iperf3_verify_params,
	.conf_size = sizeof(struct verify_conf),
	.validate = verify_validate,
	.run = verify_run,
	.plan = verify_plan,
};
