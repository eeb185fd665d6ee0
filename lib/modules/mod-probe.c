/* probe: gather the host's facts in one round trip (lib/remote/probe.sh). */
#include "playbook/module.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "modules/tune-facts.h"
#include "remote/hostline.h"
#include "remote/probe.h"
#include "remote/qdisc.h"
#include "base/xalloc.h"

struct probe_conf {
	struct module_conf	 hdr;
	const json_t		*rtt_to;
};

#define AT(field)	offsetof(struct probe_conf, field)

static const struct module_param probe_params[] = {
	{ .name = "rtt_to", .type = PARAM_LIST, .offset = AT(rtt_to),
	  .help = "addresses to measure RTT to (default: the address of the "
		  "host's iperf_peer and the rtt_to var)" },
	{ .name = NULL },
};

static void
add_target(char ***targets, size_t *n, const char *addr)
{
	size_t i;

	for (i = 0; i < *n; i++) {
		if (strcmp((*targets)[i], addr) == 0)
			return;
	}
	*targets = xreallocarray(*targets, *n + 1, sizeof **targets);
	(*targets)[(*n)++] = xstrdup(addr);
}

static void
collect_targets(struct module_ctx *ctx, const struct probe_conf *conf,
    char ***targets, size_t *n)
{
	const json_t	*list = conf->rtt_to;
	const json_t	*v;
	const char	*peer;
	size_t		 i;

	if (list == NULL)
		list = json_object_get(module_ctx_vars(ctx), "rtt_to");
	if (json_is_string(list))
		add_target(targets, n, json_string_value(list));
	json_array_foreach(list, i, v) {
		if (json_is_string(v))
			add_target(targets, n, json_string_value(v));
	}
	if (conf->rtt_to == NULL &&
	    (peer = json_string_value(json_object_get(module_ctx_vars(ctx),
	    "iperf_peer"))) != NULL) {
		char *addr = module_ctx_traffic_address(ctx, peer);

		add_target(targets, n, addr);
		free(addr);
	}
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

static char *
summary(const json_t *f)
{
	const json_t *k = json_object_get(f, "kernel");
	const json_t *cc = json_object_get(f, "congestion");
	const json_t *rt = json_object_get(f, "default_route");
	const json_t *q = json_object_get(rt, "qdisc");
	const json_t *rmem = json_object_get(json_object_get(f, "sysctl"),
	    "net.ipv4.tcp_rmem");
	char *qd = qdisc_describe(q), *s;

	s = xprintf("kernel %s, cc %s, %s qdisc %s, tcp_rmem %s",
	    json_string_value(json_object_get(k, "release")) ?: "?",
	    json_string_value(json_object_get(cc, "current")) ?: "?",
	    json_string_value(json_object_get(rt, "interface")) ?: "(no route)",
	    qd, json_string_value(json_object_get(rmem, "value")) ?: "?");
	free(qd);
	return s;
}

static int
probe_run(struct module_ctx *ctx, const void *conf, struct module_result *res)
{
	char			**targets = NULL;
	size_t			  n = 0, i;
	char			 *cmd, *cause = NULL;
	const char		 *program;
	size_t			  program_len;
	struct tp_result	  out;
	enum tp_status		  st;
	json_t			 *facts;

	collect_targets(ctx, conf, &targets, &n);
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
		tp_result_clear(&out);
		return 0;
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
		tp_result_clear(&out);
		return 0;
	}
	tp_result_clear(&out);
	module_ctx_set_facts(ctx, facts);
	res->status = RESULT_OK;
	res->msg = summary(facts);
	res->data = facts;
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
