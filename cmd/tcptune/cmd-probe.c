/* tcptune probe [PATTERN]: every fact of each host in one round trip,
 * printed as a readable table per host (or JSON with --format json). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd-common.h"
#include "playbook/module.h"
#include "remote/qdisc-plan.h"
#include "run/runner.h"

extern const struct module mod_probe;

static const char *
str(const json_t *obj, const char *key)
{
	const json_t	*v = json_object_get(obj, key);
	/* A few rotating buffers: one printf may format several numbers. */
	static char	 bufs[8][64];
	static unsigned	 next;
	char		*buf = bufs[next++ % 8];

	if (json_is_string(v))
		return json_string_value(v);
	if (json_is_integer(v)) {
		snprintf(buf, sizeof bufs[0], "%lld",
		    (long long)json_integer_value(v));
		return buf;
	}
	if (json_is_real(v)) {
		snprintf(buf, sizeof bufs[0], "%.2f", json_real_value(v));
		return buf;
	}
	if (json_is_boolean(v))
		return json_is_true(v) ? "yes" : "no";
	return "unknown";
}

/* One RTT line: "198.19.0.4 90.31 ms (ping)", or why there is none. */
static void
print_rtt(const char *label, const json_t *e)
{
	if (json_is_number(json_object_get(e, "avg_ms")))
		printf("  %-22s %s ms (%s)\n", label, str(e, "avg_ms"),
		    str(e, "method"));
	else
		printf("  %-22s unmeasured: %s\n", label, str(e, "reason"));
}

/* Whether addr is one of peers' addresses. */
static int
is_peer(const json_t *peers, const char *addr)
{
	const json_t	*v;
	const char	*name;

	json_object_foreach((json_t *)peers, name, v) {
		if (strcmp(json_string_value(v) ?: "", addr) == 0)
			return 1;
	}
	return 0;
}

/* The RTT to each peer by name (facts.peers: name -> address), then to
 * the other targets, then the peers the probe left out. */
static void
print_rtts(const json_t *rtt, const json_t *peers, const json_t *left)
{
	const json_t	*v;
	const char	*key;
	char		 label[160];
	size_t		 i;

	json_object_foreach((json_t *)peers, key, v) {
		snprintf(label, sizeof label, "rtt to %s (%s)", key,
		    json_string_value(v) ?: "?");
		print_rtt(label, json_object_get(rtt, json_string_value(v)));
	}
	json_object_foreach((json_t *)rtt, key, v) {
		if (is_peer(peers, key))
			continue;
		snprintf(label, sizeof label, "rtt to %s", key);
		print_rtt(label, v);
	}
	json_array_foreach(left, i, v)
		printf("  rtt to %-15s not probed (the probe measures at most "
		    "%zu targets)\n", json_string_value(v) ?: "?",
		    json_object_size(rtt));
}

/* Each interface that carries the traffic: its link facts, live qdisc
 * tree and what it carries; or why none can be found. */
static void
print_interfaces(const json_t *f)
{
	struct qdisc_plan	 qp;
	const json_t		*l;
	size_t			 i;

	qdisc_plan_compute(f, NULL, &qp);
	for (i = 0; i < qp.n; i++) {
		l = json_object_get(json_object_get(f, "interfaces"),
		    qp.ifs[i].dev);
		if (l == NULL)
			l = json_object_get(f, "default_route");
		printf("  %-22s %s: mtu %s, speed %s Mbit/s, %s tx queue%s, "
		    "live qdisc %s (carries %s)\n", i == 0 ? "interfaces" : "",
		    qp.ifs[i].dev, str(l, "mtu"), str(l, "speed_mbit"),
		    str(l, "tx_queues"), json_integer_value(json_object_get(l,
		    "tx_queues")) == 1 ? "" : "s", qp.ifs[i].live,
		    qp.ifs[i].carries);
	}
	if (qp.error != NULL)
		printf("  %-22s %s\n", qp.n == 0 ? "interfaces" : "",
		    qp.error);
	for (i = 0; i < qp.nwarnings; i++)
		printf("  %-22s warning: %s\n", "", qp.warnings[i]);
	qdisc_plan_clear(&qp);
}

static void
print_facts(const char *host, const json_t *f)
{
	const json_t	*k = json_object_get(f, "kernel");
	const json_t	*kc = json_object_get(f, "kernel_config");
	const json_t	*cc = json_object_get(f, "congestion");
	const json_t	*rt = json_object_get(f, "default_route");
	const json_t	*sys = json_object_get(f, "sysctl");
	const json_t	*rtt = json_object_get(f, "rtt");
	const json_t	*v, *avail;
	const char	*key;
	size_t		 i;
	char		 list[256] = "";

	printf("\n== %s ==\n", host);
	printf("  %-22s %s (%s)\n", "kernel", str(k, "release"),
	    str(k, "machine"));
	printf("  %-22s %s\n", "distribution",
	    str(json_object_get(f, "distribution"), "pretty_name"));
	printf("  %-22s %s\n", "virtualization",
	    str(json_object_get(f, "virtualization"), "type"));
	printf("  %-22s BBR=%s FQ=%s (%s)\n", "kernel config",
	    str(kc, "CONFIG_TCP_CONG_BBR"), str(kc, "CONFIG_NET_SCH_FQ"),
	    str(kc, "source"));
	avail = json_object_get(cc, "available");
	json_array_foreach(avail, i, v) {
		if (i > 0)
			strncat(list, " ", sizeof list - strlen(list) - 1);
		strncat(list, json_string_value(v) ?: "?",
		    sizeof list - strlen(list) - 1);
	}
	printf("  %-22s %s (available: %s)\n", "congestion control",
	    str(cc, "current"), list);
	printf("  %-22s %s\n", "default_qdisc",
	    json_is_null(json_object_get(f, "default_qdisc")) ?
	    "absent (network namespace)" : str(f, "default_qdisc"));
	if (rt != NULL && !json_is_null(rt))
		printf("  %-22s %s via %s\n", "default route",
		    str(rt, "interface"), str(rt, "gateway"));
	else
		printf("  %-22s none (%s)\n", "default route",
		    str(f, "default_route_reason"));
	print_interfaces(f);
	printf("  %-22s %s bytes\n", "memory", str(f, "mem_total_bytes"));
	json_object_foreach((json_t *)sys, key, v) {
		const json_t *file = json_object_get(v, "file");

		if (json_is_false(json_object_get(v, "present"))) {
			printf("  %-38s %-24s\n", key, "(absent here)");
			continue;
		}
		printf("  %-38s %-24s%s%s%s\n", key, str(v, "value"),
		    json_is_false(json_object_get(v, "writable")) ?
		    " [read-only here]" : "",
		    json_is_string(file) ? " set by " : "",
		    json_is_string(file) ? json_string_value(file) : "");
	}
	print_rtts(rtt, json_object_get(f, "peers"),
	    json_object_get(f, "peers_not_probed"));
}

/* Each host's table, its facts unparked one host at a time (a fleet's
 * facts wait as compact text: run/runner.c). */
static void
report_facts(const struct runner *r)
{
	json_t	*f;
	size_t	 i;

	for (i = 0; i < r->nhosts; i++) {
		if ((f = runner_host_facts(r->hosts[i])) != NULL)
			print_facts(r->hosts[i]->name, f);
		json_decref(f);
	}
}

static int
cmd_probe_exec(struct options *opts)
{
	return cmd_adhoc(opts, &mod_probe, report_facts);
}

const struct cmd_entry cmd_probe_entry = {
	.name = "probe",
	.usage = "[PATTERN]",
	.accepts = OPT_STREAM,
	.summary = "gather every fact of each host in one round trip",
	.min_args = 0,
	.max_args = 1,
	.exec = cmd_probe_exec,
};
