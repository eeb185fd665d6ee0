/* iperf3_verify: paired iperf3 runs, before/after table and a gate.
 *
 * A pairwise module (playbook/module.h's struct module_pairwise): the
 * runner asks each host for its peers (verify_peers: `pairs`, `peer`, or
 * the vars iperf_peer / iperf_peers), makes one set of unordered pairs of
 * them, and measures the pairs in rounds (lib/run/rounds.h), each by
 * verify_measure on its client's context. A pair's measurement is up to
 * four runs -- single stream and -P N, up (client sends) and down (-R,
 * server sends) -- each against a fresh one-shot server (`iperf3 -s -1`)
 * started on the server host over its own SSH connection and killed by pid
 * afterwards. The pair lock (module_ctx_lock_pair) is still taken around
 * each run: the rounds already keep a host in one test at a time, the lock
 * keeps it so for any other caller.
 *
 * phase before keeps the figures in the client's memo ("iperf3_before",
 * keyed by peer, with the options used under "iperf3_options"); after
 * measures again with the baseline's options (the same direction, streams
 * and duration), and each end's run compares and applies its gate to the
 * pair seen from its side (up = this host sends); auto is before when no
 * baseline is kept for the pair, else after. The JSON in res->data is
 * documented in docs/verify.md. */
#include "playbook/module.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "remote/iperf.h"
#include "base/strbuf.h"
#include "modules/tune-facts.h"
#include "modules/tune.h"
#include "modules/verify-diag.h"
#include "modules/verify-table.h"
#include "remote/pathcheck.h"
#include "remote/tcpinfo.h"
#include "base/xalloc.h"

#define MEMO_KEY	"iperf3_before"
#define MEMO_OPTIONS	"iperf3_options"
#define MEMO_PATH	"iperf3_path"
/* Seconds a run costs beyond -t and -O: the server's start and kill over
 * SSH, the client's exec (for the estimate shown before starting). */
#define RUN_OVERHEAD	2
/* Seconds of a pair's path checks on a clean path: the loss burst (50
 * pings at 10 ms and the last answers), one MTU probe, four short
 * execs. */
#define PATH_OVERHEAD	2

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
	long long		 sample;
	const char		*max_rtt_increase;
	double			 max_retransmit_rate;
	long long		 pings;
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
	{ .name = "sample", .type = PARAM_INT, .offset = AT(sample),
	  .min = 0, .max = 1000000,
	  .help = "at most this many pairs per group pair (default: the var "
		  "verify_sample; 0 = every pair)" },
	{ .name = "max_rtt_increase", .type = PARAM_STR,
	  .offset = AT(max_rtt_increase),
	  .help = "fail when a run's loaded RTT rises more than this: ms "
		  "(50, '50ms') or a ratio ('1.5x')" },
	{ .name = "max_retransmit_rate", .type = PARAM_FLOAT,
	  .offset = AT(max_retransmit_rate), .min = 0, .max = 1,
	  .help = "fail when a run after retransmits more than this fraction "
		  "of the segments it sent (0.01 = 1%)" },
	{ .name = "pings", .type = PARAM_INT, .offset = AT(pings),
	  .def = "50", .min = 0, .max = 1000,
	  .help = "pings of the path check before a pair's runs (loss, "
		  "then the path MTU with DF set); 0 = only the drop "
		  "counters" },
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
	int		 pings;
};

/* One pair as this host sees it: the other end is its peer, up is this
 * host sending. */
struct pair {
	const char		*peer;
	char			*address;
	int			 client;	/* this host ran the client */
	const json_t		*data;		/* the measurement (runner's) */
	int			 after;		/* 0 before, 1 after, -1 after
						 * without a baseline */
	struct iperf_set	 before;
	struct iperf_set	 now;
	int			 gate_passed;
	char			*gate_why;
	json_t			*diagnosis;	/* {kind: diagnosis} of now */
	json_t			*reading;	/* {up, down}: single vs many */
};

static int
verify_validate(const void *vconf, char **cause)
{
	const struct verify_conf *conf = vconf;
	const json_t	*pairs = conf->pairs;
	const json_t	*it;
	enum verify_rtt_kind kind;
	double		 v;
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
	if (conf->max_rtt_increase != NULL &&
	    verify_rtt_limit_parse(conf->max_rtt_increase, &kind, &v,
	    cause) != 0)
		return -1;
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
	/* validated when bound */
	if (conf->max_rtt_increase != NULL &&
	    verify_rtt_limit_parse(conf->max_rtt_increase, &o->gate.rtt_kind,
	    &o->gate.rtt_value, NULL) != 0)
		o->gate.rtt_kind = VERIFY_RTT_NONE;
	o->gate.retr_guard = module_conf_given(iperf3_verify_params, conf,
	    AT(max_retransmit_rate));
	o->gate.max_retr_rate = conf->max_retransmit_rate;
	o->on_regression = conf->on_regression;
	o->phase = conf->phase;
	o->pings = (int)conf->pings;
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
		json_decref(p[i].diagnosis);
		json_decref(p[i].reading);
	}
	free(p);
}

static void
peers_free(struct module_peer *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(p[i].address);
	free(p);
}

static void
peer_add(struct module_peer **p, size_t *n, const char *name,
    const char *address)
{
	*p = xreallocarray(*p, *n + 1, sizeof **p);
	(*p)[*n].name = name;
	(*p)[*n].address = address != NULL ? xstrdup(address) : NULL;
	(*n)++;
}

/* verify_sample as a count: a whole number, or its text. */
static int
sample_var(struct module_ctx *ctx, long long *sample, char **cause)
{
	const json_t	*v = json_object_get(module_ctx_vars(ctx),
	    "verify_sample");
	const char	*s;
	char		*end;

	*sample = 0;
	if (v == NULL || json_is_null(v))
		return 0;
	if (json_is_integer(v) && json_integer_value(v) >= 0) {
		*sample = json_integer_value(v);
		return 0;
	}
	if ((s = json_string_value(v)) != NULL && *s >= '0' && *s <= '9') {
		*sample = strtoll(s, &end, 10);
		if (*end == '\0' && *sample >= 0 && *sample <= 1000000)
			return 0;
	}
	return fail(cause, "variable 'verify_sample': expected a whole "
	    "number of pairs per group pair");
}

/* This host's peers: the `pairs` items whose host it is, else `peer`,
 * else its iperf_peer / iperf_peers vars (module_ctx_peers). */
static int
verify_peers(struct module_ctx *ctx, const void *vconf,
    struct module_peer **out, size_t *n, long long *sample, char **cause)
{
	const struct verify_conf *conf = vconf;
	const char	*self = module_ctx_host_name(ctx), **names = NULL;
	const json_t	*it;
	struct module_peer *p = NULL;
	size_t		 i, k = 0;

	*n = 0;
	*out = NULL;
	if (module_conf_given(iperf3_verify_params, conf, AT(sample)))
		*sample = conf->sample;
	else if (sample_var(ctx, sample, cause) != 0)
		return -1;
	if (conf->pairs != NULL) {
		json_array_foreach(conf->pairs, i, it) {
			if (strcmp(json_string_value(json_object_get(it,
			    "host")), self) == 0)
				peer_add(&p, n, json_string_value(
				    json_object_get(it, "peer")),
				    json_string_value(json_object_get(it,
				    "address")));
		}
	} else if (conf->peer != NULL)
		peer_add(&p, n, conf->peer, NULL);
	else {
		if (module_ctx_peers(ctx, &names, &k, cause) != 0)
			return -1;
		for (i = 0; i < k; i++)
			peer_add(&p, n, names[i], NULL);
		free(names);
	}
	for (i = 0; i < *n; i++) {
		if (strcmp(p[i].name, self) == 0) {
			fail(cause, "'%s' cannot be its own iperf3 peer",
			    p[i].name);
			goto bad;
		}
		if (module_ctx_peer(ctx, p[i].name) == NULL) {
			fail(cause, "iperf3 peer '%s' is not in the inventory",
			    p[i].name);
			goto bad;
		}
	}
	*out = p;
	return 0;
bad:
	peers_free(p, *n);
	*n = 0;
	return -1;
}

static double
verify_pair_seconds(const void *vconf)
{
	struct verify_opts o;

	read_opts(vconf, &o);
	return (double)nruns(&o) * (o.duration + o.omit + RUN_OVERHEAD) +
	    PATH_OVERHEAD + o.pings / 100.0;
}

/* The baseline the client keeps for a peer, if any, and the options it
 * was measured with. */
static int
memo_get(struct module_ctx *ctx, const char *peer, struct iperf_set *s,
    struct verify_opts *o)
{
	json_t		*m = module_ctx_memo_get(ctx, MEMO_KEY);
	json_t		*mo = module_ctx_memo_get(ctx, MEMO_OPTIONS);
	const json_t	*j = json_object_get(m, peer);
	const json_t	*opt = json_object_get(mo, peer);
	int		 found;

	found = j != NULL && iperf_set_from_json(j, s) == 0;
	if (found && json_is_object(opt)) {
		o->duration = (int)json_integer_value(json_object_get(opt,
		    "duration"));
		o->omit = (int)json_integer_value(json_object_get(opt,
		    "omit"));
		o->parallel = (int)json_integer_value(json_object_get(opt,
		    "parallel"));
		o->reverse = json_is_true(json_object_get(opt, "reverse"));
	}
	json_decref(m);
	json_decref(mo);
	return found;
}

static json_t *
options_json(const struct verify_opts *o)
{
	return json_pack("{s:i, s:i, s:i, s:b}", "duration", o->duration,
	    "omit", o->omit, "parallel", o->parallel, "reverse", o->reverse);
}

/* Set key of the memo object at name to value (stolen), on a copy: the
 * memo is written only through module_ctx_memo_set, under the host's
 * lock. */
static void
memo_put_one(struct module_ctx *ctx, const char *name, const char *key,
    json_t *value)
{
	json_t *old = module_ctx_memo_get(ctx, name);
	json_t *m = old != NULL ? json_copy(old) : json_object();

	json_object_set_new(m, key, value);
	module_ctx_memo_set(ctx, name, m);
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

/* A measured pair's figures, on the client. */
struct measure {
	const char		*peer;
	const char		*address;
	const char		*dropin;	/* reported with the samples */
	struct host_state	*ph;
	struct iperf_set	 now;
	json_t			*tcp_info;	/* {kind: {client, server}} */
};

/* Both ends' TCP_INFO samples of run k (tcpinfo_parse's, or null). */
static void
keep_tcp_info(struct measure *p, enum iperf_kind k, const char *client,
    const char *server)
{
	json_t *c = tcpinfo_parse(client), *sv = tcpinfo_parse(server);

	json_object_set_new(p->tcp_info, iperf_kind_name(k), json_pack(
	    "{s:o, s:o}", "client", c != NULL ? c : json_null(), "server",
	    sv != NULL ? sv : json_null()));
}

/*
 * One run: server on the peer, client here, server killed. Returns 0, or
 * -1 with res filled (unreachable when this host's connection failed).
 */
static int
measure_one(struct module_ctx *ctx, const struct verify_opts *o,
    struct measure *p, enum iperf_kind k, struct module_result *res)
{
	struct iperf_client_opts co;
	struct tp_result	 out, kout;
	enum tp_status		 st;
	struct remote_call	 call;
	char			*cause = NULL, *msg = NULL, *info = NULL;
	const char		*client_info = NULL;
	size_t			 doc_len;
	long			 pid = 0;
	int			 port, rc = -1;

	memset(&out, 0, sizeof out);
	memset(&kout, 0, sizeof kout);
	module_ctx_lock_pair(ctx, p->ph);

	iperf_server_call(o->port, 1, p->dropin, &call);
	st = module_ctx_exec_on(ctx, p->ph, call.command, call.program,
	    call.program_len, 30, &out, &cause);
	remote_call_clear(&call);
	if (st != TP_OK) {
		msg = peer_error(p->peer, st, cause);
		goto out;
	}
	if (out.exit_status != 0) {
		msg = exit_error(p->peer, "iperf3 server start", &out);
		goto out;
	}
	if (iperf_server_parse(out.out, &pid, &port, &info, &cause) != 0) {
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
	co.sample = 1;
	co.dropin = p->dropin;
	iperf_client_call(&co, &call);
	st = module_ctx_exec(ctx, call.command, call.program,
	    call.program_len, o->duration + o->omit + 45, &out, &cause);
	remote_call_clear(&call);
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
	doc_len = iperf_client_split(out.out, out.out_len, &client_info);
	if (iperf_parse(out.out, doc_len, &p->now.run[k], &cause) != 0) {
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
		iperf_kill_call(pid, info, &call);
		cause = NULL;
		if (module_ctx_exec_on(ctx, p->ph, call.command, call.program,
		    call.program_len, 15, &kout, &cause) != TP_OK)
			free(cause);
		remote_call_clear(&call);
		if (rc == 0)
			keep_tcp_info(p, k, client_info, kout.exit_status == 0 ?
			    kout.out : NULL);
		tp_result_clear(&kout);
	}
	free(info);
	module_ctx_unlock_pair(ctx, p->ph);
	tp_result_clear(&out);
	if (msg != NULL) {
		res->status = RESULT_FAILED;
		free(res->msg);
		res->msg = msg;
	}
	return rc;
}

/* The time of day in seconds, for the pair's start and end (the runs of
 * a round overlap in time; docs/verify.md). */
static double
wall_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The path action of iperf3.sh to address, on the client (ph NULL) or on
 * the server ph, read (pathcheck_parse); NULL when it could not run: the
 * checks inform, they never fail a pair. Bounded: the script's timeout(1)
 * of the loss burst is pings / 5 + 5 s (pings 0.2 s apart where only
 * root may ping faster), then at most five 2 s MTU probes. */
static json_t *
path_check(struct module_ctx *ctx, struct host_state *ph,
    const char *address, int pings)
{
	struct remote_call	 call;
	struct tp_result	 out;
	enum tp_status		 st;
	char			*cause = NULL;
	json_t			*j = NULL;

	if (address == NULL)
		return NULL;
	memset(&out, 0, sizeof out);
	iperf_path_call(address, pings, &call);
	if (ph != NULL) {
		module_ctx_lock_pair(ctx, ph);
		st = module_ctx_exec_on(ctx, ph, call.command, call.program,
		    call.program_len, pings / 5 + 30, &out, &cause);
		module_ctx_unlock_pair(ctx, ph);
	} else
		st = module_ctx_exec(ctx, call.command, call.program,
		    call.program_len, pings / 5 + 30, &out, &cause);
	remote_call_clear(&call);
	if (st == TP_OK && out.exit_status == 0)
		j = pathcheck_parse(out.out != NULL ? out.out : "");
	free(cause);
	tp_result_clear(&out);
	return j;
}

/*
 * One pair, on its client (ctx): the phase from the client's memo, every
 * wanted run, the baseline kept in phase before. Returns the measurement:
 * {"address", "after" (0 before, 1 after, -1 after without baseline),
 * "options", "before" (after only), "now", "started", "ended"}, or with
 * "error" and "status" when a run failed.
 */
static json_t *
verify_measure(struct module_ctx *ctx, const void *vconf,
    const struct module_peer *peer, struct host_state *ph)
{
	struct verify_opts	 o;
	struct measure		 m;
	struct iperf_set	 before;
	struct module_result	 res;
	json_t			*j, *cb, *sb, *ca, *sa, *m_path;
	const char		*src;
	char			*address;
	int			 k, after;

	read_opts(vconf, &o);
	memset(&m, 0, sizeof m);
	memset(&res, 0, sizeof res);
	address = peer->address != NULL ? xstrdup(peer->address) :
	    module_ctx_traffic_address(ctx, peer->name);
	m.peer = peer->name;
	m.address = address;
	m.ph = ph;
	m.dropin = tune_file(ctx, ((const struct verify_conf *)vconf)->
	    sysctl_file, module_conf_given(iperf3_verify_params, vconf,
	    AT(sysctl_file)));
	m.tcp_info = json_object();
	if (strcmp(o.phase, "before") == 0)
		after = 0;
	else if (strcmp(o.phase, "after") == 0)
		after = memo_get(ctx, peer->name, &before, &o) ? 1 : -1;
	else
		after = memo_get(ctx, peer->name, &before, &o);
	j = json_pack("{s:s, s:i, s:o, s:f}", "address", address, "after",
	    after, "options", options_json(&o), "started", wall_seconds());
	/* The path checks: loss and MTU from here, each end's drop
	 * counters around the runs (the server's on its route back to this
	 * end's address). */
	cb = path_check(ctx, NULL, address, o.pings);
	src = json_string_value(json_object_get(cb, "source"));
	sb = path_check(ctx, ph, src, 0);
	for (k = 0; k < IPERF_NKINDS; k++) {
		if (kind_wanted(&o, k) && measure_one(ctx, &o, &m, k,
		    &res) != 0) {
			json_object_set_new(j, "error", json_string(res.msg !=
			    NULL ? res.msg : "iperf3 run failed"));
			json_object_set_new(j, "status", json_string(
			    result_status_name(res.status)));
			break;
		}
	}
	ca = path_check(ctx, NULL, address, 0);
	sa = path_check(ctx, ph, src, 0);
	json_object_set_new(j, "path", pathcheck_summary(cb, ca,
	    module_ctx_host_name(ctx), sb, sa, peer->name));
	json_decref(cb);
	json_decref(sb);
	json_decref(ca);
	json_decref(sa);
	json_object_set_new(j, "ended", json_real(wall_seconds()));
	json_object_set_new(j, "now", iperf_set_json(&m.now));
	json_object_set_new(j, "tcp_info", m.tcp_info);
	if (after == 1) {
		json_object_set_new(j, "before", iperf_set_json(&before));
		m_path = module_ctx_memo_get(ctx, MEMO_PATH);
		if (json_object_get(m_path, peer->name) != NULL)
			json_object_set(j, "path_before", json_object_get(
			    m_path, peer->name));
		json_decref(m_path);
	}
	if (after == 0 && json_object_get(j, "error") == NULL) {
		memo_put_one(ctx, MEMO_PATH, peer->name, json_incref(
		    json_object_get(j, "path")));
		memo_put_one(ctx, MEMO_KEY, peer->name,
		    iperf_set_json(&m.now));
		memo_put_one(ctx, MEMO_OPTIONS, peer->name, options_json(&o));
	}
	module_result_clear(&res);
	free(address);
	return j;
}

static const struct module_pairwise verify_pairwise = {
	.peers = verify_peers,
	.pair_seconds = verify_pair_seconds,
	.measure = verify_measure,
};

/*
 * Without the runner's schedule (module_ctx_pairs NULL: a caller that does
 * not schedule pairs), this host measures each of its peers itself, as the
 * client, one after the other; an array like the runner's.
 */
static json_t *
measure_alone(struct module_ctx *ctx, const struct verify_conf *conf,
    const struct module_peer *peers, size_t n)
{
	json_t	*all = json_array(), *d;
	size_t	 i;

	for (i = 0; i < n; i++) {
		d = verify_measure(ctx, conf, &peers[i],
		    module_ctx_peer(ctx, peers[i].name));
		json_object_set_new(d, "client",
		    json_string(module_ctx_host_name(ctx)));
		json_object_set_new(d, "server", json_string(peers[i].name));
		json_object_set_new(d, "round", json_integer((json_int_t)i));
		json_array_append_new(all, d);
	}
	return all;
}

/* The pairs of this host from the measurements, each from its side. 0,
 * or -1 with res set (a pair failed). */
static int
load_pairs(struct module_ctx *ctx, const json_t *all, struct pair **out,
    size_t *n, struct module_result *res)
{
	const char	*self = module_ctx_host_name(ctx), *err, *client;
	const char	*addr, *status;
	const json_t	*d;
	struct pair	*p;
	size_t		 i;

	*n = json_array_size(all);
	*out = p = xcalloc(*n + 1, sizeof *p);
	json_array_foreach(all, i, d) {
		client = json_string_value(json_object_get(d, "client"));
		p[i].data = d;
		p[i].client = client != NULL && strcmp(client, self) == 0;
		p[i].peer = json_string_value(json_object_get(d, p[i].client ?
		    "server" : "client"));
		p[i].address = module_ctx_traffic_address(ctx, p[i].peer);
		if (p[i].client && (addr = json_string_value(json_object_get(d,
		    "address"))) != NULL) {
			free(p[i].address);
			p[i].address = xstrdup(addr);
		}
		err = json_string_value(json_object_get(d, "error"));
		if (err == NULL && json_object_get(d, "now") == NULL)
			err = "not measured: the run was interrupted";
		if (err != NULL) {
			free(res->msg);
			if (p[i].client) {
				status = json_string_value(json_object_get(d,
				    "status"));
				res->status = status != NULL &&
				    strcmp(status, "unreachable") == 0 ?
				    RESULT_UNREACHABLE : RESULT_FAILED;
				res->msg = xstrdup(err);
			} else {
				res->status = RESULT_FAILED;
				res->msg = xprintf("iperf3 with '%s' (its "
				    "client): %s", p[i].peer, err);
			}
			return -1;
		}
		p[i].after = (int)json_integer_value(json_object_get(d,
		    "after"));
		iperf_set_from_json(json_object_get(d, "now"), &p[i].now);
		iperf_set_from_json(json_object_get(d, "before"),
		    &p[i].before);
		if (!p[i].client) {
			iperf_set_mirror(&p[i].now);
			iperf_set_mirror(&p[i].before);
		}
	}
	return 0;
}

/* The known rate of the path to peer: its group's bandwidth
 * (bandwidth_mbit_by_group), else the var bandwidth_mbit; 0 unknown. */
static double
path_mbit(struct module_ctx *ctx, const char *peer)
{
	const json_t	*vars = module_ctx_vars(ctx);
	const char	*group;
	char		*cause = NULL;
	double		 mbit = 0;

	if (peer_group_bandwidth(json_object_get(vars, PEERS_BANDWIDTH_VAR),
	    json_object_get(vars, "groups"), peer, &group, &mbit,
	    &cause) != 0) {
		free(cause);
		mbit = 0;
	}
	return mbit > 0 ? mbit : var_number(vars, "bandwidth_mbit");
}

/* What limited each run measured now, seen from this end (up = this host
 * sends); the samples are kept in the client's frame. */
static void
pair_diagnose(struct module_ctx *ctx, struct pair *p)
{
	const char	*self = module_ctx_host_name(ctx);
	const json_t	*info = json_object_get(p->data, "tcp_info"), *ends;
	struct verify_diag_in in;
	enum iperf_kind	 ck;
	double		 mbit = path_mbit(ctx, p->peer);
	json_t		*d, *one = json_object();
	char		*hole;
	int		 k, up, sender_is_client;

	/* pathcheck_blackholes reads a {peer: path} object */
	if (json_object_get(p->data, "path") != NULL)
		json_object_set(one, p->peer, json_object_get(p->data, "path"));
	hole = pathcheck_blackholes(one);
	json_decref(one);

	p->diagnosis = json_object();
	for (k = 0; k < IPERF_NKINDS; k++) {
		if (!p->now.have[k])
			continue;
		ck = p->client ? (enum iperf_kind)k : iperf_kind_mirror(k);
		ends = json_object_get(info, iperf_kind_name(ck));
		up = !iperf_kind_reverse(k);
		sender_is_client = !iperf_kind_reverse(ck);
		memset(&in, 0, sizeof in);
		in.sender = up ? self : p->peer;
		in.receiver = up ? p->peer : self;
		in.run = &p->now.run[k];
		in.sender_info = json_object_get(ends, sender_is_client ?
		    "client" : "server");
		in.receiver_info = json_object_get(ends, sender_is_client ?
		    "server" : "client");
		if (json_is_null(in.sender_info))
			in.sender_info = NULL;
		if (json_is_null(in.receiver_info))
			in.receiver_info = NULL;
		in.path_mbit = mbit;
		d = verify_diagnose(&in);
		/* A flow held back on a path with an MTU blackhole: the key
		 * that lets TCP through, whatever the limit read. */
		if (hole != NULL && strcmp(json_string_value(json_object_get(d,
		    "limit")), "link_rate") != 0)
			json_object_set_new(d, "path", json_sprintf("the path "
			    "has an MTU blackhole (%s): net.ipv4.tcp_mtu_probing"
			    "=1 on the sender (tcp_buffers: mtu_probing)", hole));
		json_object_set_new(p->diagnosis, iperf_kind_name(k), d);
	}
	free(hole);
	p->reading = json_object();
	for (up = 1; up >= 0; up--) {
		json_t *r = verify_reading(&p->now, p->diagnosis, up, mbit,
		    var_number(json_object_get(module_ctx_facts(ctx),
		    "default_route"), "speed_mbit"));

		if (r != NULL)
			json_object_set_new(p->reading, up ? "up" : "down", r);
	}
}

/* The table's lines of the single-vs-many reading. */
static void
add_reading(struct strbuf *sb, const json_t *reading)
{
	const char	*dir;
	const json_t	*r;

	json_object_foreach((json_t *)reading, dir, r)
		strbuf_addf(sb, "  %s: %s\n", dir, json_string_value(
		    json_object_get(r, "text")));
}

/* The table's lines of the path checks: "path: ..." for this
 * measurement, with "path before: ..." first when the baseline kept its
 * own. */
static void
add_path(struct strbuf *sb, const json_t *data)
{
	const json_t	*now = json_object_get(data, "path");
	const json_t	*was = json_object_get(data, "path_before");
	char		*t;

	if (was != NULL) {
		t = pathcheck_text(was);
		strbuf_addf(sb, "  path before: %s\n", t);
		free(t);
	}
	if (now != NULL) {
		t = pathcheck_text(now);
		strbuf_addf(sb, "  path%s: %s\n", was != NULL ? " after" : "",
		    t);
		free(t);
	}
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
	const char	*keep[] = { "client", "server", "round", "options",
	    "started", "ended", "path", "path_before", NULL };
	json_t		*j;
	size_t		 i;

	j = json_pack("{s:s, s:s, s:s, s:s}", "peer", p->peer, "address",
	    p->address, "phase", p->after != 0 ? "after" : "before", "role",
	    p->client ? "client" : "server");
	for (i = 0; keep[i] != NULL; i++) {
		if (json_object_get(p->data, keep[i]) != NULL)
			json_object_set(j, keep[i], json_object_get(p->data,
			    keep[i]));
	}
	if (p->diagnosis != NULL)
		json_object_set(j, "diagnosis", p->diagnosis);
	if (json_object_size(p->reading) > 0)
		json_object_set(j, "reading", p->reading);
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

/* "lab02 (198.19.0.2, round 1 of 3)" for each pair, or without the
 * schedule each peer. */
static char *
check_message(const struct verify_opts *o, const struct module_peer *peers,
    size_t npeers, struct module_ctx *ctx)
{
	const json_t	*all = module_ctx_pairs(ctx), *d;
	const char	*self = module_ctx_host_name(ctx), *c, *s;
	json_int_t	 rounds;
	struct strbuf	 sb;
	char		*addr;
	size_t		 i;

	rounds = json_integer_value(json_object_get(module_ctx_schedule(ctx),
	    "rounds"));
	strbuf_init(&sb);
	strbuf_addstr(&sb, "skipped in check mode: would measure ");
	json_array_foreach(all, i, d) {
		c = json_string_value(json_object_get(d, "client"));
		s = json_string_value(json_object_get(d, "server"));
		if (strcmp(c, self) == 0) {
			addr = module_ctx_traffic_address(ctx, s);
			strbuf_addf(&sb, "%s%s (%s, round %lld of %lld)",
			    i > 0 ? ", " : "", s, addr, (long long)
			    json_integer_value(json_object_get(d, "round")) +
			    1, (long long)rounds);
			free(addr);
		} else
			strbuf_addf(&sb, "%s%s (%s runs the client, round "
			    "%lld of %lld)", i > 0 ? ", " : "", c, c, (long long)
			    json_integer_value(json_object_get(d, "round")) +
			    1, (long long)rounds);
	}
	for (i = 0; all == NULL && i < npeers; i++) {
		addr = peers[i].address != NULL ? xstrdup(peers[i].address) :
		    module_ctx_traffic_address(ctx, peers[i].name);
		strbuf_addf(&sb, "%s%s (%s)", i > 0 ? ", " : "",
		    peers[i].name, addr);
		free(addr);
	}
	strbuf_addf(&sb, ": %d iperf3 run%s of %d s each", nruns(o),
	    nruns(o) == 1 ? "" : "s", o->duration + o->omit);
	return strbuf_detach(&sb, NULL);
}

/* A host with peers but no pair left after sampling. */
static char *
not_sampled(struct module_ctx *ctx)
{
	return xprintf("none of this host's pairs was sampled (verify_sample "
	    "%lld)", (long long)json_integer_value(json_object_get(
	    module_ctx_schedule(ctx), "sample")));
}

/* This host's own peers; 0, or -1 with res set (failed, or skipped: no
 * pair at all). */
static int
host_peers(struct module_ctx *ctx, const struct verify_conf *conf,
    struct module_peer **peers, size_t *n, struct module_result *res)
{
	char		*cause = NULL;
	long long	 sample;

	if (verify_peers(ctx, conf, peers, n, &sample, &cause) != 0) {
		res->status = RESULT_FAILED;
		res->msg = cause;
		return -1;
	}
	if (*n == 0 && json_array_size(module_ctx_pairs(ctx)) == 0) {
		res->status = RESULT_SKIPPED;
		res->msg = xstrdup(conf->pairs != NULL ?
		    "no pair for this host in 'pairs'" :
		    "no iperf3 peer: set the iperf_peer or iperf_peers var, "
		    "or 'peer'");
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
	struct module_peer	*peers = NULL;
	size_t			 n = 0;

	read_opts(conf, &o);
	if (host_peers(ctx, conf, &peers, &n, res) == 0) {
		res->status = RESULT_SKIPPED;
		if (module_ctx_pairs(ctx) != NULL &&
		    json_array_size(module_ctx_pairs(ctx)) == 0)
			res->msg = not_sampled(ctx);
		else
			res->msg = check_message(&o, peers, n, ctx);
	}
	peers_free(peers, n);
	return 0;
}

/* The gate failed: fail, warn, or roll this host back, as on_regression
 * says. */
static void
gate_failed(struct module_ctx *ctx, const struct verify_conf *conf,
    const struct verify_opts *o, const char *why, const char *summary,
    struct module_result *res)
{
	struct module_result	 rb;
	const char		*file;

	memset(&rb, 0, sizeof rb);
	json_object_set_new(res->data, "regression", json_string(why));
	json_object_set_new(res->data, "action",
	    json_string(o->on_regression));
	if (strcmp(o->on_regression, "warn") == 0) {
		res->msg = xprintf("WARNING gate failed: %s | %s", why,
		    summary);
		return;
	}
	res->status = RESULT_FAILED;
	if (strcmp(o->on_regression, "rollback") != 0) {
		res->msg = xprintf("regression: %s", why);
		return;
	}
	file = tune_file(ctx, conf->sysctl_file, module_conf_given(
	    iperf3_verify_params, conf, AT(sysctl_file)));
	/* Back to before this play's tuning, not to the host's state
	 * before tcptune ever ran. */
	tune_rollback(ctx, file, 1, 0, &rb);
	json_object_set_new(res->data, "rollback", json_pack("{s:s, s:s, "
	    "s:s?}", "file", file, "status", result_status_name(rb.status),
	    "msg", rb.msg));
	if (rb.status == RESULT_FAILED || rb.status == RESULT_UNREACHABLE)
		res->msg = xprintf("regression: %s; rollback of '%s' FAILED: "
		    "%s", why, file, rb.msg != NULL ? rb.msg : "?");
	else
		res->msg = xprintf("regression: %s; rolled back (%s)", why,
		    rb.msg != NULL ? rb.msg : file);
	module_result_clear(&rb);
}

static int
verify_run(struct module_ctx *ctx, const void *vconf,
    struct module_result *res)
{
	const struct verify_conf *conf = vconf;
	struct verify_opts	 o;
	struct module_peer	*peers = NULL;
	struct pair		*pairs = NULL;
	struct strbuf		 msg, tables, mine, why;
	const json_t		*all;
	json_t			*alone = NULL, *jpairs;
	char			*s, *footer;
	size_t			 n = 0, npeers = 0, i;
	int			 failed_gate = 0;

	strbuf_init(&msg);
	strbuf_init(&tables);
	strbuf_init(&mine);
	strbuf_init(&why);
	read_opts(conf, &o);
	if (host_peers(ctx, conf, &peers, &npeers, res) != 0)
		goto out;
	if ((all = module_ctx_pairs(ctx)) == NULL)
		all = alone = measure_alone(ctx, conf, peers, npeers);
	if (load_pairs(ctx, all, &pairs, &n, res) != 0)
		goto out;
	if (n == 0) {
		res->status = RESULT_SKIPPED;
		res->msg = not_sampled(ctx);
		goto out;
	}

	jpairs = json_array();
	for (i = 0; i < n; i++) {
		struct pair		*p = &pairs[i];
		const json_t		*opt = json_object_get(p->data,
		    "options");
		struct verify_head	 h = { module_ctx_host_name(ctx),
		    p->peer, p->address,
		    (int)json_integer_value(json_object_get(opt, "duration")),
		    (int)json_integer_value(json_object_get(opt, "omit")),
		    (int)json_integer_value(json_object_get(opt, "parallel")) };

		if (msg.len > 0)
			strbuf_addstr(&msg, "; ");
		if (n > 1)
			strbuf_addf(&msg, "%s: ", p->peer);
		pair_diagnose(ctx, p);
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
			s = verify_table(&h, &p->before, &p->now, p->diagnosis,
			    footer);
			free(footer);
		} else {
			s = verify_summary(&p->now, NULL);
			strbuf_addf(&msg, "%s%s", p->after == 0 ? "baseline: " :
			    "no baseline to compare with (gate not checked): ",
			    s);
			free(s);
			s = verify_table(&h, &p->now, NULL, p->diagnosis,
			    p->after == 0 ?
			    "baseline kept for phase: after" :
			    "no baseline in this run: gate not checked");
		}
		if (json_object_size(p->reading) > 0 ||
		    json_object_get(p->data, "path") != NULL) {
			struct strbuf t;

			strbuf_init(&t);
			strbuf_addstr(&t, s);
			add_reading(&t, p->reading);
			add_path(&t, p->data);
			free(s);
			s = strbuf_detach(&t, NULL);
		}
		if (tables.len > 0)
			strbuf_addch(&tables, '\n');
		strbuf_addstr(&tables, s);
		if (p->client) {
			if (mine.len > 0)
				strbuf_addch(&mine, '\n');
			strbuf_addstr(&mine, s);
		}
		free(s);
		json_array_append_new(jpairs, pair_json(p));
		/* Both ends keep what the path check found, for
		 * tcp_buffers's mtu_probing: auto. */
		if (json_object_get(p->data, "path") != NULL)
			memo_put_one(ctx, PATHCHECK_MEMO, p->peer, json_incref(
			    json_object_get(p->data, "path")));
	}
	res->data = json_pack("{s:o, s:s, s:s, s:{s:i, s:i, s:i, s:b}}",
	    "pairs", jpairs, "table", tables.buf, "client_table", mine.buf,
	    "options", "duration", o.duration, "omit", o.omit, "parallel",
	    o.parallel, "reverse", o.reverse);
	if (module_ctx_schedule(ctx) != NULL)
		json_object_set(res->data, "schedule",
		    (json_t *)module_ctx_schedule(ctx));
	res->status = RESULT_OK;
	if (failed_gate)
		gate_failed(ctx, conf, &o, why.buf, msg.buf, res);
	else
		res->msg = strbuf_detach(&msg, NULL);
out:
	json_decref(alone);
	strbuf_release(&msg);
	strbuf_release(&tables);
	strbuf_release(&mine);
	strbuf_release(&why);
	pairs_free(pairs, n);
	peers_free(peers, npeers);
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
	.pairwise = &verify_pairwise,
};
