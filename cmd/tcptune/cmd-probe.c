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
print_rtt(FILE *out, const char *label, const json_t *e)
{
	if (json_is_number(json_object_get(e, "avg_ms")))
		fprintf(out, "  %-22s %s ms (%s)\n", label, str(e, "avg_ms"),
		    str(e, "method"));
	else
		fprintf(out, "  %-22s unmeasured: %s\n", label,
		    str(e, "reason"));
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
print_rtts(FILE *out, const json_t *rtt, const json_t *peers,
    const json_t *left)
{
	const json_t	*v;
	const char	*key;
	char		 label[160];
	size_t		 i;

	json_object_foreach((json_t *)peers, key, v) {
		snprintf(label, sizeof label, "rtt to %s (%s)", key,
		    json_string_value(v) ?: "?");
		print_rtt(out, label, json_object_get(rtt,
		    json_string_value(v)));
	}
	json_object_foreach((json_t *)rtt, key, v) {
		if (is_peer(peers, key))
			continue;
		snprintf(label, sizeof label, "rtt to %s", key);
		print_rtt(out, label, v);
	}
	json_array_foreach(left, i, v)
		fprintf(out, "  rtt to %-15s not probed (the probe measures "
		    "at most %zu targets)\n", json_string_value(v) ?: "?",
		    json_object_size(rtt));
}

/* Each interface that carries the traffic: its link facts, live qdisc
 * tree and what it carries; or why none can be found. */
static void
print_interfaces(FILE *out, const json_t *f)
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
		fprintf(out, "  %-22s %s: mtu %s, speed %s Mbit/s, %s tx "
		    "queue%s, live qdisc %s (carries %s)\n",
		    i == 0 ? "interfaces" : "", qp.ifs[i].dev, str(l, "mtu"), str(l, "speed_mbit"),
		    str(l, "tx_queues"), json_integer_value(json_object_get(l,
		    "tx_queues")) == 1 ? "" : "s", qp.ifs[i].live,
		    qp.ifs[i].carries);
	}
	if (qp.error != NULL)
		fprintf(out, "  %-22s %s\n", qp.n == 0 ? "interfaces" : "",
		    qp.error);
	for (i = 0; i < qp.nwarnings; i++)
		fprintf(out, "  %-22s warning: %s\n", "", qp.warnings[i]);
	qdisc_plan_clear(&qp);
}

static void
print_facts(FILE *out, const char *host, const json_t *f)
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

	fprintf(out, "\n== %s ==\n", host);
	fprintf(out, "  %-22s %s (%s)\n", "kernel", str(k, "release"),
	    str(k, "machine"));
	fprintf(out, "  %-22s %s\n", "distribution",
	    str(json_object_get(f, "distribution"), "pretty_name"));
	fprintf(out, "  %-22s %s\n", "virtualization",
	    str(json_object_get(f, "virtualization"), "type"));
	fprintf(out, "  %-22s BBR=%s FQ=%s (%s)\n", "kernel config",
	    str(kc, "CONFIG_TCP_CONG_BBR"), str(kc, "CONFIG_NET_SCH_FQ"),
	    str(kc, "source"));
	avail = json_object_get(cc, "available");
	json_array_foreach(avail, i, v) {
		if (i > 0)
			strncat(list, " ", sizeof list - strlen(list) - 1);
		strncat(list, json_string_value(v) ?: "?",
		    sizeof list - strlen(list) - 1);
	}
	fprintf(out, "  %-22s %s (available: %s)\n", "congestion control",
	    str(cc, "current"), list);
	fprintf(out, "  %-22s %s\n", "default_qdisc",
	    json_is_null(json_object_get(f, "default_qdisc")) ?
	    "absent (network namespace)" : str(f, "default_qdisc"));
	if (rt != NULL && !json_is_null(rt))
		fprintf(out, "  %-22s %s via %s\n", "default route",
		    str(rt, "interface"), str(rt, "gateway"));
	else
		fprintf(out, "  %-22s none (%s)\n", "default route",
		    str(f, "default_route_reason"));
	print_interfaces(out, f);
	fprintf(out, "  %-22s %s bytes\n", "memory", str(f, "mem_total_bytes"));
	json_object_foreach((json_t *)sys, key, v) {
		const json_t *file = json_object_get(v, "file");

		if (json_is_false(json_object_get(v, "present"))) {
			fprintf(out, "  %-38s %-24s\n", key, "(absent here)");
			continue;
		}
		fprintf(out, "  %-38s %-24s%s%s%s\n", key, str(v, "value"),
		    json_is_false(json_object_get(v, "writable")) ?
		    " [read-only here]" : "",
		    json_is_string(file) ? " set by " : "",
		    json_is_string(file) ? json_string_value(file) : "");
	}
	print_rtts(out, rtt, json_object_get(f, "peers"),
	    json_object_get(f, "peers_not_probed"));
}

/* Each host's table, its facts unparked one host at a time (a fleet's
 * facts wait as compact text: run/runner.c). */
static void
report_facts(const struct runner *r)
{
	json_t	*f;
	FILE	*mem;
	char	*buf = NULL;
	size_t	 i, len = 0;

	for (i = 0; i < r->nhosts; i++) {
		if ((f = runner_host_facts(r->hosts[i])) == NULL)
			continue;
		/* A table is ~30 lines and stdout is line buffered (output.c):
		 * one write per host, not one per line (a fleet's run spent
		 * ~30 system calls per host here). */
		if ((mem = open_memstream(&buf, &len)) != NULL) {
			print_facts(mem, r->hosts[i]->name, f);
			fclose(mem);
			fwrite(buf, 1, len, stdout);
			free(buf);
			buf = NULL;
		} else
			print_facts(stdout, r->hosts[i]->name, f);
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
