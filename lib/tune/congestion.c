/* The congestion control and qdisc planner; the rules are in congestion.h
 * and docs/sizing.md. */

#include "tune/congestion.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "tune/dropin.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

/* 1 if word is one of the blank-separated words of list. */
static int
has_word(const char *list, const char *word)
{
	size_t	len = strlen(word), n;

	while (*list != '\0') {
		while (isspace((unsigned char)*list))
			list++;
		n = strcspn(list, " \t\n");
		if (n == len && strncmp(list, word, len) == 0)
			return 1;
		list += n;
	}
	return 0;
}

static int
is_keep(const char *s)
{
	return s == NULL || *s == '\0' || strcmp(s, "keep") == 0;
}

/* Plan to set want, after modprobe mod, with mod listed in
 * CC_MODULES_LOAD_FILE. */
static void
plan_load(const char *want, const char *mod, char **set, char **modprobe,
    char **persist)
{
	*set = xstrdup(want);
	*modprobe = xstrdup(mod);
	*persist = xstrdup(mod);
}

/* The reason for a modular (=m) algorithm or qdisc that is loaded now. */
static void
add_modular(struct strbuf *sb, const char *sym, const char *mod)
{
	strbuf_addf(sb, "%s=m: modprobe %s, and %s listed in %s so it loads "
	    "at boot", sym, mod, mod, CC_MODULES_LOAD_FILE);
}

void
cc_plan_clear(struct cc_plan *p)
{
	free(p->cc);
	free(p->cc_modprobe);
	free(p->cc_persist);
	free(p->qdisc);
	free(p->qdisc_modprobe);
	free(p->qdisc_persist);
	free(p->reason_cc);
	free(p->reason_qdisc);
	memset(p, 0, sizeof *p);
}

/* The algorithm is not loaded: what the kernel config says decides. */
static void
cc_by_config(const struct cc_input *in, struct cc_plan *p, const char *sym,
    const char *mod, struct strbuf *sb)
{
	const char	*want = in->want_cc;

	switch (in->kconf_cc) {
	case KCONFIG_BUILTIN:
		p->cc = xstrdup(want);
		strbuf_addf(sb, "%s=y: %s is built into this kernel", sym,
		    want);
		break;
	case KCONFIG_MODULE:
		if (!in->load_module) {
			p->cc_skipped = 1;
			strbuf_addf(sb, "%s skipped: %s=m but %s is not "
			    "loaded and load_module is false", want, sym, mod);
			break;
		}
		plan_load(want, mod, &p->cc, &p->cc_modprobe, &p->cc_persist);
		add_modular(sb, sym, mod);
		break;
	case KCONFIG_ABSENT:
		p->cc_skipped = 1;
		strbuf_addf(sb, "%s skipped: %s is not set in this kernel",
		    want, sym);
		if (in->available_cc != NULL)
			strbuf_addf(sb, " (tcp_available_congestion_control: "
			    "%s)", in->available_cc);
		strbuf_addstr(sb, "; congestion control left as is");
		if (in->current_cc != NULL)
			strbuf_addf(sb, " (%s)", in->current_cc);
		break;
	default:
		if (!in->load_module) {
			p->cc_skipped = 1;
			strbuf_addf(sb, "%s skipped: no kernel config to "
			    "tell whether %s exists, it is not loaded and "
			    "load_module is false", want, mod);
			break;
		}
		/* The apply step reads the value back and fails loudly if
		 * the module was not there after all. */
		plan_load(want, mod, &p->cc, &p->cc_modprobe, &p->cc_persist);
		strbuf_addf(sb, "no kernel config to tell whether %s exists "
		    "and %s is not loaded: will try modprobe %s", sym, want,
		    mod);
		break;
	}
}

static void
plan_cc(const struct cc_input *in, struct cc_plan *p)
{
	struct strbuf	 sb;
	const char	*want = in->want_cc;
	char		*sym = NULL, *mod = NULL;
	int		 listed;

	strbuf_init(&sb);
	if (is_keep(want)) {
		strbuf_addstr(&sb, "congestion control left as is");
		if (in->current_cc != NULL)
			strbuf_addf(&sb, " (%s)", in->current_cc);
		goto out;
	}
	if (!in->cc_writable) {
		p->cc_skipped = 1;
		strbuf_addstr(&sb, "cannot be set here: "
		    "net.ipv4.tcp_congestion_control is read-only here");
		goto out;
	}
	sym = kconfig_symbol("TCP_CONG_", want);
	mod = xprintf("tcp_%s", want);
	listed = in->available_cc != NULL && has_word(in->available_cc, want);

	if (listed) {
		p->cc = xstrdup(want);
		strbuf_addf(&sb, "%s is available in this kernel "
		    "(tcp_available_congestion_control: %s)", want,
		    in->available_cc);
		if (in->kconf_cc == KCONFIG_MODULE) {
			/* Loaded now; make sure it is after a reboot. */
			p->cc_persist = xstrdup(mod);
			strbuf_addf(&sb, "; %s=m: %s listed in %s so it loads "
			    "at boot", sym, mod, CC_MODULES_LOAD_FILE);
		}
		goto out;
	}
	cc_by_config(in, p, sym, mod, &sb);
out:
	free(sym);
	free(mod);
	p->reason_cc = strbuf_detach(&sb, NULL);
}

/* Why BBR does without fq, and the warning where it cannot. */
static void
add_bbr_without_fq(struct strbuf *sb, const struct cc_input *in)
{
	strbuf_addstr(sb, "; BBR paces by itself since 4.13");
	if (in->kernel_major != 0 && (in->kernel_major < 4 ||
	    (in->kernel_major == 4 && in->kernel_minor < 13)))
		strbuf_addf(sb, "; warning: kernel %d.%d is older than 4.13, "
		    "where BBR needs fq to pace", in->kernel_major,
		    in->kernel_minor);
}

/* 1 if the plan leaves the host with BBR (p->cc is planned first). */
static int
bbr_chosen(const struct cc_input *in, const struct cc_plan *p)
{
	const char	*cc = p->cc != NULL ? p->cc : in->current_cc;

	return cc != NULL && strcmp(cc, "bbr") == 0;
}

/* kc decides: the option is CONFIG_NET_SCH_<WANT>, or built in. */
static void
qdisc_by_config(const struct cc_input *in, struct cc_plan *p, enum kconfig kc,
    const char *sym, const char *mod, struct strbuf *sb)
{
	const char	*want = in->want_qdisc;

	switch (kc) {
	case KCONFIG_BUILTIN:
		p->qdisc = xstrdup(want);
		if (strcmp(want, "pfifo_fast") == 0)
			strbuf_addstr(sb, "pfifo_fast is always built in");
		else
			strbuf_addf(sb, "%s=y: %s is built into this kernel",
			    sym, want);
		break;
	case KCONFIG_MODULE:
		if (!in->load_module) {
			p->qdisc_skipped = 1;
			strbuf_addf(sb, "%s skipped: %s=m and load_module is "
			    "false", want, sym);
			break;
		}
		plan_load(want, mod, &p->qdisc, &p->qdisc_modprobe,
		    &p->qdisc_persist);
		add_modular(sb, sym, mod);
		break;
	case KCONFIG_ABSENT:
		p->qdisc_skipped = 1;
		strbuf_addf(sb, "%s skipped: %s is not set in this kernel",
		    want, sym);
		if (bbr_chosen(in, p) && strcmp(want, "fq") == 0)
			add_bbr_without_fq(sb, in);
		else
			strbuf_addstr(sb, "; default_qdisc left as is");
		break;
	default:
		if (!in->load_module) {
			p->qdisc_skipped = 1;
			strbuf_addf(sb, "%s skipped: no kernel config to tell "
			    "whether %s exists and load_module is false", want,
			    sym);
			break;
		}
		plan_load(want, mod, &p->qdisc, &p->qdisc_modprobe,
		    &p->qdisc_persist);
		strbuf_addf(sb, "no kernel config to tell whether %s exists: "
		    "will try modprobe %s", sym, mod);
		break;
	}
}

static void
plan_qdisc(const struct cc_input *in, struct cc_plan *p)
{
	struct strbuf	 sb;
	const char	*want = in->want_qdisc;
	char		*sym = NULL, *mod = NULL;
	enum kconfig	 kc = in->kconf_qdisc;

	strbuf_init(&sb);
	if (is_keep(want)) {
		strbuf_addstr(&sb, "default_qdisc left as is");
		goto out;
	}
	if (!in->have_default_qdisc) {
		p->qdisc_skipped = 1;
		strbuf_addstr(&sb, "cannot be set here: net.core.default_qdisc "
		    "does not exist in this network namespace");
		goto out;
	}
	/* pfifo_fast is part of the scheduler core: no option of its own. */
	if (strcmp(want, "pfifo_fast") == 0)
		kc = KCONFIG_BUILTIN;
	sym = kconfig_symbol("NET_SCH_", want);
	mod = xprintf("sch_%s", want);
	qdisc_by_config(in, p, kc, sym, mod, &sb);
	if (p->qdisc != NULL && bbr_chosen(in, p) && strcmp(want, "fq") == 0)
		strbuf_addstr(&sb, "; BBR paces through fq");
out:
	free(sym);
	free(mod);
	p->reason_qdisc = strbuf_detach(&sb, NULL);
}

void
cc_plan_compute(const struct cc_input *in, struct cc_plan *p)
{
	memset(p, 0, sizeof *p);
	plan_cc(in, p);
	plan_qdisc(in, p);
}

/* ---- into the drop-in */

void
cc_plan_to_dropin(const struct cc_plan *p, struct dropin *d)
{
	if (p->qdisc != NULL)
		dropin_set(d, "net.core.default_qdisc", p->qdisc,
		    p->reason_qdisc);
	if (p->cc != NULL)
		dropin_set(d, "net.ipv4.tcp_congestion_control", p->cc,
		    p->reason_cc);
}
