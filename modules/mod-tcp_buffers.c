/* tcp_buffers: size tcp_rmem/tcp_wmem and rmem_max/wmem_max from the
 * bandwidth-delay product, capped by RAM (docs/sizing.md). Stages the keys;
 * the runner applies them (modules/tune.h). */
#include "playbook/module.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "tune/sizing.h"
#include "modules/mod-tcp_buffers.h"
#include "modules/tune-facts.h"
#include "modules/tune.h"
#include "remote/pathcheck.h"
#include "tune/dropin.h"
#include "base/strbuf.h"
#include "base/units.h"
#include "base/xalloc.h"

#define AT(field)	offsetof(struct tcp_buffers_conf, field)

static const char *const switch_choices[] = { "auto", "on", "off", NULL };

static const struct module_param tcp_buffers_params[] = {
	{ .name = "rtt_ms", .type = PARAM_FLOAT, .offset = AT(rtt_ms),
	  .min = 0.01, .max = 10000,
	  .help = "path RTT in ms (default: the widest path the probe "
		  "measured to iperf_peer/iperf_peers, else var rtt_ms)" },
	{ .name = "bandwidth_mbit", .type = PARAM_FLOAT,
	  .offset = AT(bandwidth_mbit), .min = 0.1, .max = 1000000,
	  .help = "path bandwidth in Mbit/s (default: var bandwidth_mbit, "
		  "else NIC speed; var bandwidth_mbit_by_group beats it for "
		  "its groups' peers)" },
	{ .name = "headroom", .type = PARAM_FLOAT, .offset = AT(headroom),
	  .def = "2", .min = 1, .max = 16,
	  .help = "multiplier on the BDP for kernel overhead" },
	{ .name = "ram_divisor", .type = PARAM_INT, .offset = AT(ram_divisor),
	  .def = "64", .min = 1, .max = 65536,
	  .help = "cap each buffer at 1/N of RAM" },
	{ .name = "max_buffer", .type = PARAM_SIZE, .offset = AT(max_buffer),
	  .def = "256MiB", .min = 4096, .max = 4294967295.0,
	  .help = "absolute ceiling for any buffer" },
	{ .name = "rmem_default", .type = PARAM_SIZE,
	  .offset = AT(rmem_default), .min = 4096, .max = 4294967295.0,
	  .help = "tcp_rmem middle value (default: kept)" },
	{ .name = "wmem_default", .type = PARAM_SIZE,
	  .offset = AT(wmem_default), .min = 4096, .max = 4294967295.0,
	  .help = "tcp_wmem middle value (default: kept)" },
	{ .name = "allow_decrease", .type = PARAM_BOOL,
	  .offset = AT(allow_decrease), .def = "false",
	  .help = "allow lowering values the host already has higher" },
	{ .name = "sysctl_file", .type = PARAM_PATH, .offset = AT(sysctl_file),
	  .def = "/etc/sysctl.d/90-tcptune.conf",
	  .host_line = HOSTLINE_DROPIN_PATH,
	  .help = "the drop-in to manage (or var tcptune_sysctl_file)" },
	{ .name = "long_lived", .type = PARAM_BOOL, .offset = AT(long_lived),
	  .def = "false",
	  .help = "long-lived flows that idle: tcp_slow_start_after_idle=0 "
		  "(GCP's guidance; tuned leaves it on)" },
	{ .name = "latency_sensitive", .type = PARAM_BOOL,
	  .offset = AT(latency_sensitive), .def = "false",
	  .help = "latency-sensitive senders: tcp_notsent_lowat, where the "
		  "congestion control is bbr" },
	{ .name = "notsent_lowat", .type = PARAM_SIZE,
	  .offset = AT(notsent_lowat), .def = "16KiB", .min = 4096,
	  .max = 4294967295.0,
	  .help = "the tcp_notsent_lowat of latency_sensitive (Cloudflare's "
		  "16 KiB)" },
	{ .name = "mtu_probing", .type = PARAM_CHOICE,
	  .offset = AT(mtu_probing), .def = "auto", .choices = switch_choices,
	  .help = "tcp_mtu_probing=1: auto where an iperf3_verify path check "
		  "of this host found an MTU blackhole" },
	{ .name = "netdev_backlog", .type = PARAM_BOOL,
	  .offset = AT(netdev_backlog), .def = "false",
	  .help = "netdev_max_backlog sized for the link rate (fasterdata's; "
		  "tuned does not set it)" },
	{ .name = NULL },
};

void
tcp_buffers_input(const struct tcp_buffers_conf *conf, struct sizing_input *in)
{
	in->rtt_ms = conf->rtt_ms;
	in->bandwidth_mbit = conf->bandwidth_mbit;
	in->headroom = conf->headroom;
	in->ram_divisor = (unsigned)conf->ram_divisor;
	in->max_buffer = conf->max_buffer;
	in->allow_decrease = conf->allow_decrease;
	in->rmem_default = conf->rmem_default;
	in->wmem_default = conf->wmem_default;
}

void
tcp_buffers_extra_input(const struct tcp_buffers_conf *conf,
    struct sizing_extra_input *in)
{
	in->long_lived = conf->long_lived;
	in->latency_sensitive = conf->latency_sensitive;
	in->notsent_lowat = conf->notsent_lowat;
	in->mtu_probing = strcmp(conf->mtu_probing, "on") == 0 ? SIZING_ON :
	    strcmp(conf->mtu_probing, "off") == 0 ? SIZING_OFF : SIZING_AUTO;
	in->netdev_backlog = conf->netdev_backlog;
}

static void
read_triple(const json_t *facts, const char *key, enum sizing_state *st,
    struct tcp_triple *t)
{
	const char *v;

	*st = facts_sysctl(facts, key, &v);
	if (*st != SIZING_ABSENT && (v == NULL || tcp_triple_parse(v, t) != 0))
		*st = SIZING_UNKNOWN;
}

static void
read_u64(const json_t *facts, const char *key, enum sizing_state *st,
    uint64_t *out)
{
	const char *v;

	*st = facts_sysctl(facts, key, &v);
	if (v != NULL)
		*out = strtoull(v, NULL, 10);
	else if (*st != SIZING_ABSENT)
		*st = SIZING_UNKNOWN;
}

/* The host-wide bandwidth: the task's, else var bandwidth_mbit, else the
 * NIC's speed. A group's bandwidth (PEERS_BANDWIDTH_VAR) beats it for the
 * paths to that group's hosts. */
static double
host_bandwidth(struct module_ctx *ctx, double given)
{
	double	mbit = given;

	if (mbit <= 0)
		mbit = var_number(module_ctx_vars(ctx), "bandwidth_mbit");
	if (mbit <= 0)
		mbit = json_number_value(json_object_get(json_object_get(
		    module_ctx_facts(ctx), "default_route"), "speed_mbit"));
	return mbit;
}

/* The RTT and bandwidth to size for: the task's rtt_ms, else the widest
 * path to the host's peers (and other measured targets), else var rtt_ms.
 * -1 with *cause when the peers or the bandwidth map are wrong. */
static int
choose_path(struct module_ctx *ctx, struct sizing_input *in,
    struct facts_paths *fp, char **cause)
{
	double	rtt_var = var_number(module_ctx_vars(ctx), "rtt_ms");
	int	i;

	in->bandwidth_mbit = host_bandwidth(ctx, in->bandwidth_mbit);
	if (in->rtt_ms > 0)
		return 0;
	if (facts_paths(ctx, in->bandwidth_mbit, rtt_var, fp, cause) != 0)
		return -1;
	if ((i = sizing_widest_path(fp->paths, fp->n)) >= 0)
		sizing_input_path(in, &fp->paths[i]);
	else
		in->rtt_ms = rtt_var;
	return 0;
}

static json_t *
paths_json(const struct facts_paths *fp)
{
	json_t	*a = json_array();
	size_t	 i;

	for (i = 0; i < fp->n; i++) {
		const struct sizing_path *p = &fp->paths[i];

		json_array_append_new(a, json_pack("{s:s, s:s?, s:f, s:f, s:I, "
		    "s:b}", "to", p->to, "group", p->group, "rtt_ms", p->rtt_ms,
		    "bandwidth_mbit", p->bandwidth_mbit, "bdp_bytes",
		    (json_int_t)sizing_bdp(p->bandwidth_mbit, p->rtt_ms),
		    "rtt_assumed", p->rtt_assumed));
	}
	return a;
}

/* "; warning: ..." for each peer without an RTT. */
static char *
add_warnings(char *msg, const struct facts_paths *fp)
{
	struct strbuf	sb;
	size_t		i;

	strbuf_init(&sb);
	strbuf_addstr(&sb, msg);
	free(msg);
	for (i = 0; i < fp->nwarnings; i++)
		strbuf_addf(&sb, "; warning: %s", fp->warnings[i]);
	return strbuf_detach(&sb, NULL);
}

static char *
summary(const struct sizing_input *in, const struct sizing_plan *plan,
    const struct facts_paths *fp)
{
	char	*bdp, *ceil, *via, *of, *s;

	bdp = format_bytes_decimal(plan->bdp_bytes);
	ceil = format_bytes_binary(plan->ceiling);
	via = in->to == NULL ? xstrdup("") : in->group == NULL ?
	    xprintf(" to %s", in->to) : xprintf(" to %s (%s)", in->to,
	    in->group);
	of = fp->npeers > 1 ? xprintf(" (the widest path of %zu peers)",
	    fp->npeers) : xstrdup("");
	s = xprintf("BDP %.0f Mbit/s x %.1f ms%s = %s -> ceiling %s%s",
	    in->bandwidth_mbit, in->rtt_ms, via, bdp, ceil, of);
	free(of);
	free(via);
	free(bdp);
	free(ceil);
	return add_warnings(s, fp);
}

/* The keys beyond buffers for this host: the congestion control it will
 * run (the drop-in's, as staged so far, else the live one), the blackhole
 * its path checks found, each key's state. */
static void
plan_extra(struct module_ctx *ctx, const struct tcp_buffers_conf *conf,
    const struct sizing_input *in, struct stage *st,
    struct sizing_extra *x)
{
	const json_t		*facts = module_ctx_facts(ctx);
	struct sizing_extra_input xin;
	json_t			*checks;
	const char		*v;
	char			*hole;
	size_t			 i;

	memset(&xin, 0, sizeof xin);
	tcp_buffers_extra_input(conf, &xin);
	xin.bandwidth_mbit = in->bandwidth_mbit;
	if ((xin.cc = dropin_get(&st->dropin,
	    "net.ipv4.tcp_congestion_control")) == NULL)
		facts_sysctl(facts, "net.ipv4.tcp_congestion_control",
		    &xin.cc);
	checks = module_ctx_memo_get(ctx, PATHCHECK_MEMO);
	hole = pathcheck_blackholes(checks);
	json_decref(checks);
	xin.blackhole = hole;
	xin.st_idle = facts_sysctl(facts,
	    "net.ipv4.tcp_slow_start_after_idle", &v);
	xin.st_lowat = facts_sysctl(facts, "net.ipv4.tcp_notsent_lowat",
	    &v);
	xin.st_probing = facts_sysctl(facts, "net.ipv4.tcp_mtu_probing",
	    &v);
	xin.st_backlog = facts_sysctl(facts, "net.core.netdev_max_backlog",
	    &v);
	if (v != NULL)
		xin.cur_backlog = strtoull(v, NULL, 10);
	/* A key the probe does not read may be absent (a network namespace
	 * has none): planned only where the probe saw it. */
	if (xin.netdev_backlog && xin.st_backlog == SIZING_UNKNOWN) {
		xin.netdev_backlog = 0;
		stage_note(st, "net.core.netdev_max_backlog: not planned: the "
		    "probe did not read it on this host");
	}
	sizing_extra_compute(&xin, x);
	free(hole);
	sizing_extra_to_dropin(x, &st->dropin);
	for (i = 0; i < x->n; i++)
		if (x->keys[i].value == NULL)
			stage_note(st, "%s: %s", x->keys[i].key,
			    x->keys[i].reason);
}

static int
tcp_buffers_run(struct module_ctx *ctx, const void *vconf,
    struct module_result *res)
{
	const struct tcp_buffers_conf *conf = vconf;
	const json_t		*facts = module_ctx_facts(ctx);
	struct sizing_input	 in;
	struct sizing_plan	 plan;
	struct sizing_extra	 extra;
	struct facts_paths	 fp;
	struct stage		*st;
	char			*cause = NULL;
	size_t			 i;

	if (facts == NULL) {
		res->status = RESULT_FAILED;
		res->msg = xstrdup("no facts: tcp_buffers needs the probe "
		    "(gather_facts: true, or a probe task first)");
		return 0;
	}
	memset(&in, 0, sizeof in);
	memset(&plan, 0, sizeof plan);
	memset(&fp, 0, sizeof fp);
	memset(&extra, 0, sizeof extra);
	tcp_buffers_input(conf, &in);
	if (choose_path(ctx, &in, &fp, &cause) != 0) {
		res->status = RESULT_FAILED;
		res->msg = cause;
		goto out;
	}
	in.mem_total = (uint64_t)json_integer_value(json_object_get(facts,
	    "mem_total_bytes"));
	read_triple(facts, "net.ipv4.tcp_rmem", &in.st_rmem, &in.cur_rmem);
	read_triple(facts, "net.ipv4.tcp_wmem", &in.st_wmem, &in.cur_wmem);
	read_u64(facts, "net.core.rmem_max", &in.st_rmem_max,
	    &in.cur_rmem_max);
	read_u64(facts, "net.core.wmem_max", &in.st_wmem_max,
	    &in.cur_wmem_max);

	if (sizing_plan_compute(&in, &plan, &cause) != 0) {
		res->status = RESULT_FAILED;
		res->msg = add_warnings(cause, &fp);
		goto out;
	}
	if ((st = tune_stage(ctx, tune_file(ctx, conf->sysctl_file,
	    module_conf_given(tcp_buffers_params, conf, AT(sysctl_file))),
	    &cause)) == NULL) {
		res->status = RESULT_FAILED;
		res->msg = cause;
		goto out;
	}
	sizing_plan_to_dropin(&plan, &st->dropin);
	if (!plan.set_rmem_max)
		stage_note(st, "net.core.rmem_max: %s", plan.reason_rmem_max);
	if (!plan.set_wmem_max)
		stage_note(st, "net.core.wmem_max: %s", plan.reason_wmem_max);
	for (i = 0; i < fp.nwarnings; i++)
		stage_note(st, "warning: %s", fp.warnings[i]);
	plan_extra(ctx, conf, &in, st, &extra);
	res->status = RESULT_OK;
	res->msg = summary(&in, &plan, &fp);
	res->data = json_pack("{s:f, s:f, s:s?, s:s?, s:I, s:I, s:I, s:o, "
	    "s:o}", "rtt_ms", in.rtt_ms, "bandwidth_mbit", in.bandwidth_mbit,
	    "to", in.to, "group", in.group, "bdp_bytes",
	    (json_int_t)plan.bdp_bytes, "ceiling", (json_int_t)plan.ceiling,
	    "ram_cap", (json_int_t)plan.ram_cap, "paths", paths_json(&fp),
	    "warnings", json_array());
	for (i = 0; i < fp.nwarnings; i++)
		json_array_append_new(json_object_get(res->data, "warnings"),
		    json_string(fp.warnings[i]));
out:
	sizing_extra_clear(&extra);
	sizing_plan_clear(&plan);
	facts_paths_clear(&fp);
	return 0;
}

const struct module mod_tcp_buffers = {
	.name = "tcp_buffers",
	.summary = "size TCP buffer ceilings from bandwidth x RTT, capped by RAM",
	.params = tcp_buffers_params,
	.conf_size = sizeof(struct tcp_buffers_conf),
	.run = tcp_buffers_run,
	.check_safe = 1,
	.stager = &tune_stager,
};
