/* probe: gather the host's facts in one round trip (lib/remote/probe.sh). */
#include "playbook/module.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "modules/tune-facts.h"
#include "remote/hostline.h"
#include "remote/probe.h"
#include "remote/qdisc-plan.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

struct probe_conf {
	struct module_conf	 hdr;
	const json_t		*rtt_to;
};

#define AT(field)	offsetof(struct probe_conf, field)
/* A constant's value as a string literal, for the help text below: the
 * limit it states is the code's (PROBE_MAX_TARGETS is a plain number). */
#define STR_VALUE(x)	#x
#define STR(x)		STR_VALUE(x)

static const struct module_param probe_params[] = {
	{ .name = "rtt_to", .type = PARAM_LIST, .offset = AT(rtt_to),
	  .help = "addresses to measure RTT to (default: the rtt_to var and "
		  "the address of each of the host's iperf_peer/iperf_peers, "
		  "at most " STR(PROBE_MAX_TARGETS) ")" },
	{ .name = NULL },
};

/* Add addr unless it is there; 0 when the limit left it out. */
static int
add_target(char ***targets, size_t *n, const char *addr)
{
	size_t i;

	for (i = 0; i < *n; i++) {
		if (strcmp((*targets)[i], addr) == 0)
			return 1;
	}
	if (*n >= PROBE_MAX_TARGETS)
		return 0;
	*targets = xreallocarray(*targets, *n + 1, sizeof **targets);
	(*targets)[(*n)++] = xstrdup(addr);
	return 1;
}

/* The RTT targets: the task's rtt_to, else var rtt_to and the traffic
 * address of every peer (iperf_peer, iperf_peers), at most
 * PROBE_MAX_TARGETS. The probed peers go into *peers (name -> address),
 * the ones past the limit into *left_out. -1 with *cause when the peer
 * vars are wrong (the other targets are still collected). */
static int
collect_targets(struct module_ctx *ctx, const struct probe_conf *conf,
    char ***targets, size_t *n, json_t *peers, json_t *left_out, char **cause)
{
	const json_t	*list = conf->rtt_to;
	const json_t	*v;
	const char	**names = NULL;
	size_t		 nnames = 0, i;
	int		 rc;

	if (list == NULL)
		list = json_object_get(module_ctx_vars(ctx), "rtt_to");
	if (json_is_string(list))
		add_target(targets, n, json_string_value(list));
	json_array_foreach(list, i, v) {
		if (json_is_string(v))
			add_target(targets, n, json_string_value(v));
	}
	if (conf->rtt_to != NULL)
		return 0;
	rc = module_ctx_peers(ctx, &names, &nnames, cause);
	for (i = 0; i < nnames; i++) {
		char *addr = module_ctx_traffic_address(ctx, names[i]);

		if (add_target(targets, n, addr))
			json_object_set_new(peers, names[i], json_string(addr));
		else
			json_array_append_new(left_out, json_string(names[i]));
		free(addr);
	}
	free(names);
	return rc;
}

/* "; RTT to 9 peers: 1.3 to 240.3 ms (farthest asia2)", then each peer
 * without an RTT and why, then how many the limit left out. */
static void
add_peer_rtts(struct strbuf *sb, const json_t *facts)
{
	const json_t	*peers = json_object_get(facts, "peers");
	const json_t	*left = json_object_get(facts, "peers_not_probed");
	const json_t	*rtt = json_object_get(facts, "rtt");
	const json_t	*v, *e;
	const char	*name, *far = NULL, *why;
	double		 ms, lo = 0, hi = 0;
	size_t		 measured = 0;

	if (json_object_size(peers) == 0 && json_array_size(left) == 0)
		return;
	json_object_foreach((json_t *)peers, name, v) {
		e = json_object_get(json_object_get(rtt, json_string_value(v)),
		    "avg_ms");
		if (!json_is_number(e))
			continue;
		ms = json_number_value(e);
		if (measured++ == 0 || ms < lo)
			lo = ms;
		if (far == NULL || ms > hi) {
			hi = ms;
			far = name;
		}
	}
	strbuf_addf(sb, "; RTT to %zu of %zu peers", measured,
	    json_object_size(peers) + json_array_size(left));
	if (measured == 1)
		strbuf_addf(sb, ": %.1f ms (%s)", hi, far);
	else if (far != NULL)
		strbuf_addf(sb, ": %.1f to %.1f ms (farthest %s)", lo, hi, far);
	json_object_foreach((json_t *)peers, name, v) {
		e = json_object_get(rtt, json_string_value(v));
		if (json_is_number(json_object_get(e, "avg_ms")))
			continue;
		why = json_string_value(json_object_get(e, "reason"));
		strbuf_addf(sb, "; warning: no RTT to peer %s (%s): %s", name,
		    json_string_value(v), why != NULL ? why : "no measurement");
	}
	if (json_array_size(left) > 0)
		strbuf_addf(sb, "; warning: %zu peer%s not probed (at most %d "
		    "targets)", json_array_size(left),
		    json_array_size(left) == 1 ? "" : "s", PROBE_MAX_TARGETS);
}

/* The drop-in the play's tuning tasks manage unless a task names another
 * (tcptune_sysctl_file, else the default): read whole within the probe, so
 * that a check-mode apply needs no round trip of its own (modules/tune.c).
 * NULL when the path does not pass the gate: nothing of it is sent then,
 * and the tuning task refuses it by name. */
static const char *
check_read_file(const struct module_ctx *ctx)
{
	const char	*file = tune_file(ctx, NULL, 0);
	char		*cause = NULL;

	if (hostline_dropin_path(file, &cause) != 0) {
		free(cause);
		return NULL;
	}
	return file;
}

/* "eth0 qdisc fq_codel, eth1 qdisc fq_codel": each interface that carries
 * the traffic (lib/remote/traffic.h). */
static void
add_interfaces(struct strbuf *sb, const struct qdisc_plan *qp)
{
	size_t i;

	for (i = 0; i < qp->n; i++)
		strbuf_addf(sb, "%s%s qdisc %s", i > 0 ? ", " : "",
		    qp->ifs[i].dev, qp->ifs[i].live);
	if (qp->n == 0)
		strbuf_addstr(sb, "no traffic interface");
}

static char *
summary(const json_t *f, const char *peers_cause)
{
	const json_t *k = json_object_get(f, "kernel");
	const json_t *cc = json_object_get(f, "congestion");
	const json_t *rmem = json_object_get(json_object_get(f, "sysctl"),
	    "net.ipv4.tcp_rmem");
	struct qdisc_plan qp;
	struct strbuf sb;

	qdisc_plan_compute(f, NULL, &qp);
	strbuf_init(&sb);
	strbuf_addf(&sb, "kernel %s, cc %s, ",
	    json_string_value(json_object_get(k, "release")) ?: "?",
	    json_string_value(json_object_get(cc, "current")) ?: "?");
	add_interfaces(&sb, &qp);
	strbuf_addf(&sb, ", tcp_rmem %s",
	    json_string_value(json_object_get(rmem, "value")) ?: "?");
	/* Said where the probe is read, not only where a task needs it. */
	if (qp.error != NULL)
		strbuf_addf(&sb, "; warning: %s", qp.error);
	qdisc_plan_clear(&qp);
	add_peer_rtts(&sb, f);
	if (peers_cause != NULL)
		strbuf_addf(&sb, "; warning: no RTT to the peers: %s",
		    peers_cause);
	return strbuf_detach(&sb, NULL);
}

static int
probe_run(struct module_ctx *ctx, const void *conf, struct module_result *res)
{
	char			**targets = NULL;
	size_t			  n = 0, i;
	char			 *cmd, *cause = NULL, *peers_cause = NULL;
	const char		 *program;
	size_t			  program_len;
	struct tp_result	  out;
	enum tp_status		  st;
	json_t			 *facts, *peers, *left_out;

	peers = json_object();
	left_out = json_array();
	/* Wrong peer vars do not stop the probe: the other facts are good,
	 * and sizing reports the same error where it needs the peers. */
	collect_targets(ctx, conf, &targets, &n, peers, left_out,
	    &peers_cause);
	cmd = probe_command_dropin((const char *const *)targets, n,
	    check_read_file(ctx));
	for (i = 0; i < n; i++)
		free(targets[i]);
	free(targets);
	program = probe_stdin(&program_len);
	st = module_ctx_exec(ctx, cmd, program, program_len, 0, &out, &cause);
	free(cmd);
	if (st != TP_OK) {
		module_result_transport_failed(res, st, cause);
		goto out;
	}
	if (out.exit_status != 0 ||
	    (facts = probe_parse(out.out, out.out_len, &cause)) == NULL) {
		res->status = RESULT_FAILED;
		if (cause != NULL)
			res->msg = xprintf("probe output unreadable: %s", cause);
		else
			res->msg = xprintf("probe exited %d: %.200s",
			    out.exit_status, out.err);
		free(cause);
		goto out;
	}
	/* Which target is which peer: `tcptune probe` and the sizing's
	 * warnings name peers, not addresses. */
	json_object_set(facts, "peers", peers);
	json_object_set(facts, "peers_not_probed", left_out);
	module_ctx_set_facts(ctx, facts);
	res->status = RESULT_OK;
	res->msg = summary(facts, peers_cause);
	res->data = facts;
out:
	tp_result_clear(&out);
	json_decref(peers);
	json_decref(left_out);
	free(peers_cause);
	return 0;
}

const struct module mod_probe = {
	.name = "probe",
	.summary = "gather kernel, qdisc, sysctl, sysctl.d, RAM and RTT facts",
	.params = probe_params,
	.conf_size = sizeof(struct probe_conf),
	.run = probe_run,
	.check_safe = 1,
	.gathers_facts = 1,
};
