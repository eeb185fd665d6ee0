/* congestion: congestion control algorithm and qdisc, where the kernel has
 * them (lib/tune/congestion.h cc_plan_compute decides; docs/sizing.md explains). */
#include "playbook/module.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "remote/qdisc-plan.h"
#include "tune/congestion.h"
#include "tune/sizing.h"
#include "base/strbuf.h"
#include "modules/tune-facts.h"
#include "modules/tune.h"
#include "base/xalloc.h"

static const char *const congestion_qdiscs[] = { "fq", "fq_codel", "cake",
	"pfifo_fast", "keep", NULL };

struct congestion_conf {
	struct module_conf	 hdr;
	const char		*algorithm;
	const char		*qdisc;
	int			 load_module;
	const char		*sysctl_file;
};

#define AT(field)	offsetof(struct congestion_conf, field)

static const struct module_param congestion_params[] = {
	{ .name = "algorithm", .type = PARAM_STR, .offset = AT(algorithm),
	  .def = "bbr", .host_line = HOSTLINE_WORD,
	  .help = "tcp_congestion_control to use where the kernel has it" },
	{ .name = "qdisc", .type = PARAM_CHOICE, .offset = AT(qdisc),
	  .def = "fq", .choices = congestion_qdiscs,
	  .help = "default_qdisc, and the live qdisc of every interface that "
		  "carries the traffic (only where the kernel has it)" },
	{ .name = "load_module", .type = PARAM_BOOL, .offset = AT(load_module),
	  .def = "true",
	  .help = "modprobe a modular algorithm and persist it in "
		  "/etc/modules-load.d/tcptune.conf" },
	{ .name = "sysctl_file", .type = PARAM_PATH, .offset = AT(sysctl_file),
	  .def = "/etc/sysctl.d/90-tcptune.conf",
	  .host_line = HOSTLINE_DROPIN_PATH,
	  .help = "the drop-in to manage (or var tcptune_sysctl_file)" },
	{ .name = NULL },
};

/* CONFIG_TCP_CONG_BBR for "bbr", CONFIG_NET_SCH_FQ for "fq": the symbol is
 * spelt by kconfig_symbol, as lib/tune/congestion.c spells it. */
static enum kconfig
kconfig_of(const json_t *facts, const char *prefix, const char *name)
{
	const json_t	*kc = json_object_get(facts, "kernel_config");
	char		*sym = kconfig_symbol(prefix, name);
	enum kconfig	 k;

	k = kconfig_from_string(json_string_value(json_object_get(kc, sym)));
	free(sym);
	return k;
}

static char *
available_list(const json_t *facts)
{
	const json_t	*avail = json_object_get(json_object_get(facts,
	    "congestion"), "available");
	const json_t	*v;
	struct strbuf	 sb = STRBUF_INIT;
	size_t		 i;

	if (!json_is_array(avail))
		return NULL;
	strbuf_init(&sb);
	json_array_foreach(avail, i, v) {
		if (i > 0)
			strbuf_addch(&sb, ' ');
		strbuf_addstr(&sb, json_string_value(v) ?: "");
	}
	return strbuf_detach(&sb, NULL);
}

static void
add_module(struct stage *st, const char *m)
{
	char *n;

	if (m == NULL)
		return;
	n = xprintf("%s%s%s", st->modules != NULL ? st->modules : "",
	    st->modules != NULL ? " " : "", m);
	free(st->modules);
	st->modules = n;
}

/* Where the live qdisc is left as it is (the kernel has no such qdisc,
 * or it is not the default): a note for each interface, and each
 * interface of ours left alone as a warning. */
static void
live_notes(struct stage *st, const struct cc_input *in, enum kconfig kq,
    const char *want_q, int set_live)
{
	size_t i;

	for (i = 0; i < st->qplan.nwarnings; i++)
		stage_note(st, "warning: %s", st->qplan.warnings[i]);
	for (i = 0; !set_live && i < st->qplan.n; i++) {
		const struct qdisc_plan_if *pi = &st->qplan.ifs[i];

		if (in->have_default_qdisc)
			stage_note(st, "live qdisc on %s left as %s, as "
			    "default_qdisc is", pi->dev, pi->live);
		else
			stage_note(st, "live qdisc on %s left as %s: %s %s",
			    pi->dev, pi->live, kq == KCONFIG_ABSENT ?
			    "this kernel has no" : "no kernel config tells "
			    "whether this kernel has", want_q);
	}
}

static int
congestion_run(struct module_ctx *ctx, const void *vconf,
    struct module_result *res)
{
	const struct congestion_conf *conf = vconf;
	const json_t	*facts = module_ctx_facts(ctx);
	struct cc_input	 in;
	struct cc_plan	 plan;
	struct stage	*st;
	struct qdisc_plan qp;
	const char	*want_q, *cur_cc, *v;
	char		*avail, *cause = NULL;
	int		 set_live, keep;
	size_t		 i;
	const char	*release;
	enum kconfig	 kq;

	if (facts == NULL) {
		res->status = RESULT_FAILED;
		res->msg = xstrdup("no facts: congestion needs the probe "
		    "(gather_facts: true, or a probe task first)");
		return 0;
	}
	want_q = conf->qdisc;
	memset(&in, 0, sizeof in);
	in.want_cc = conf->algorithm;
	in.want_qdisc = want_q;
	in.kconf_cc = kconfig_of(facts, "TCP_CONG_", in.want_cc);
	kq = strcmp(want_q, "keep") == 0 ? KCONFIG_UNKNOWN :
	    kconfig_of(facts, "NET_SCH_", want_q);
	in.kconf_qdisc = kq;
	avail = available_list(facts);
	in.available_cc = avail;
	facts_sysctl(facts, "net.ipv4.tcp_congestion_control", &cur_cc);
	in.current_cc = cur_cc;
	in.have_default_qdisc = facts_sysctl(facts, "net.core.default_qdisc",
	    &v) != SIZING_ABSENT;
	in.cc_writable = facts_sysctl(facts, "net.ipv4.tcp_congestion_control",
	    &v) == SIZING_PRESENT;
	in.load_module = conf->load_module;
	release = json_string_value(json_object_get(json_object_get(facts,
	    "kernel"), "release"));
	if (release != NULL)
		sscanf(release, "%d.%d", &in.kernel_major, &in.kernel_minor);
	memset(&plan, 0, sizeof plan);
	cc_plan_compute(&in, &plan);
	free(avail);

	/* The live qdisc: read off each interface that carries the traffic
	 * (the default route's, and the one the kernel routes each peer out
	 * of), not the config (seed 003), and decided as the default is:
	 * where the plan sets default_qdisc (built in, modular, or unknown
	 * and tried by modprobe) the live one follows, so the interfaces use
	 * now what the setting says; the apply checks that they did. A
	 * network namespace has no default_qdisc: there the kernel config
	 * alone decides. */
	keep = strcmp(want_q, "keep") == 0;
	set_live = !keep && (plan.qdisc != NULL || (!in.have_default_qdisc &&
	    (kq == KCONFIG_BUILTIN || kq == KCONFIG_MODULE)));
	memset(&qp, 0, sizeof qp);
	if (!keep)
		qdisc_plan_compute(facts, set_live ? want_q : NULL, &qp);
	if (qp.error != NULL) {
		/* Never "nothing to do": the traffic leaves by an interface
		 * no one looked at. */
		res->status = RESULT_FAILED;
		res->msg = xprintf("cannot tell which interface carries the "
		    "traffic: %s; nothing was changed", qp.error);
		qdisc_plan_clear(&qp);
		cc_plan_clear(&plan);
		return 0;
	}
	if ((st = tune_stage(ctx, tune_file(ctx, conf->sysctl_file,
	    module_conf_given(congestion_params, conf, AT(sysctl_file))),
	    &cause)) == NULL) {
		res->status = RESULT_FAILED;
		res->msg = cause;
		qdisc_plan_clear(&qp);
		cc_plan_clear(&plan);
		return 0;
	}
	cc_plan_to_dropin(&plan, &st->dropin);
	add_module(st, plan.cc_modprobe);
	add_module(st, plan.qdisc_modprobe);
	if (plan.cc_skipped)
		stage_note(st, "%s", plan.reason_cc);
	if (plan.qdisc_skipped)
		stage_note(st, "%s", plan.reason_qdisc);
	if (!keep) {
		free(st->qdisc);
		st->qdisc = qp.devs != NULL ? xstrdup(want_q) : NULL;
		qdisc_plan_clear(&st->qplan);
		st->qplan = qp;
		live_notes(st, &in, kq, want_q, set_live);
	}
	res->status = RESULT_OK;
	res->msg = xprintf("%s%s%s", plan.cc != NULL ? plan.cc :
	    "congestion control unchanged", plan.qdisc != NULL ? " + " :
	    "", plan.qdisc != NULL ? plan.qdisc : "");
	if (plan.qdisc_skipped || plan.cc_skipped) {
		char *m = xprintf("%s; %s", res->msg, plan.qdisc_skipped ?
		    plan.reason_qdisc : plan.reason_cc);

		free(res->msg);
		res->msg = m;
	}
	for (i = 0; !keep && i < st->qplan.nwarnings; i++) {
		char *m = xprintf("%s; warning: %s", res->msg,
		    st->qplan.warnings[i]);

		free(res->msg);
		res->msg = m;
	}
	cc_plan_clear(&plan);
	return 0;
}

const struct module mod_congestion = {
	.name = "congestion",
	.summary = "set the congestion control algorithm and the live qdisc",
	.params = congestion_params,
	.conf_size = sizeof(struct congestion_conf),
	.run = congestion_run,
	.check_safe = 1,
	.stager = &tune_stager,
};
