/* The sizing policy; the rules are in sizing.h and docs/sizing.md. */

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tune/dropin.h"
#include "tune/sizing.h"
#include "base/strbuf.h"
#include "base/units.h"
#include "base/xalloc.h"

/* UTF-8 for the reasons: the drop-in is UTF-8 text like the seeds' notes. */
#define TIMES	"\xc3\x97"	/* multiplication sign */
#define ARROW	"\xe2\x86\x92"	/* rightwards arrow */

int
tcp_triple_parse(const char *s, struct tcp_triple *out)
{
	uint64_t		 v[3];
	unsigned long long	 n;
	char			*end;
	int			 i;

	for (i = 0; i < 3; i++) {
		while (isspace((unsigned char)*s))
			s++;
		if (!isdigit((unsigned char)*s))
			return -1;
		errno = 0;
		n = strtoull(s, &end, 10);
		if (errno != 0)
			return -1;
		v[i] = n;
		s = end;
		if (*s != '\0' && !isspace((unsigned char)*s))
			return -1;
	}
	while (isspace((unsigned char)*s))
		s++;
	if (*s != '\0')
		return -1;
	out->min = v[0];
	out->def = v[1];
	out->max = v[2];
	return 0;
}

char *
tcp_triple_format(const struct tcp_triple *t)
{
	return xprintf("%llu %llu %llu", (unsigned long long)t->min,
	    (unsigned long long)t->def, (unsigned long long)t->max);
}

uint64_t
sizing_bdp(double bandwidth_mbit, double rtt_ms)
{
	double	b;

	if (!(bandwidth_mbit > 0) || !(rtt_ms > 0))
		return 0;
	/* Mbit/s x 1e6 / 8 = bytes/s; x ms / 1000 = bytes: x 125 in all. */
	b = bandwidth_mbit * rtt_ms * 125.0;
	if (b >= 9.2e18)
		return (uint64_t)1 << 63;
	return (uint64_t)llround(b);
}

uint64_t
sizing_pow2_ceil(uint64_t v)
{
	if (v <= 1)
		return 1;
	if (v > ((uint64_t)1 << 63))
		return (uint64_t)1 << 63;
	return (uint64_t)1 << (64 - __builtin_clzll(v - 1));
}

double
sizing_flow_cap_mbit(uint64_t buffer_bytes, double rtt_ms)
{
	if (!(rtt_ms > 0))
		return 0;
	/* One window per round trip: bytes x 8 bits / (ms / 1000) / 1e6. */
	return (double)buffer_bytes * 8.0 / (rtt_ms * 1000.0);
}

void
sizing_plan_clear(struct sizing_plan *p)
{
	free(p->reason_rmem);
	free(p->reason_wmem);
	free(p->reason_rmem_max);
	free(p->reason_wmem_max);
	memset(p, 0, sizeof *p);
}

/* Append a byte size in binary units. */
static void
add_bytes(struct strbuf *sb, uint64_t v)
{
	char	*s = format_bytes_binary(v);

	strbuf_addstr(sb, s);
	free(s);
}

/* Shared description of one buffer family (receive or send). */
struct family {
	const char		*triple_key;	/* net.ipv4.tcp_rmem */
	const char		*max_key;	/* net.core.rmem_max */
	const char		*param;		/* rmem_default */
	const char		*sockopt;	/* SO_RCVBUF */
	const char		*triple_name;	/* tcp_rmem */
	enum sizing_state	 st_triple, st_max;
	const struct tcp_triple	*cur;
	uint64_t		 cur_max;
	struct tcp_triple	 kernel;
	uint64_t		 want_def;
};

/* Plan one of tcp_rmem/tcp_wmem. base is the ceiling's own reason. */
static void
plan_triple(const struct family *f, uint64_t ceiling, const char *base,
    int allow_decrease, struct tcp_triple *out, int *set, char **reason)
{
	struct strbuf		sb;
	struct tcp_triple	from;
	uint64_t		target;
	int			known;

	strbuf_init(&sb);
	switch (f->st_triple) {
	case SIZING_READONLY:
		*out = *f->cur;
		*set = 0;
		strbuf_addf(&sb, "cannot be set here: %s is read-only here "
		    "(a network namespace or container); the host keeps "
		    "maximum ", f->triple_key);
		add_bytes(&sb, f->cur->max);
		strbuf_addstr(&sb, ", the plan wanted ");
		add_bytes(&sb, ceiling);
		*reason = strbuf_detach(&sb, NULL);
		return;
	case SIZING_ABSENT:
		memset(out, 0, sizeof *out);
		*set = 0;
		strbuf_addf(&sb, "cannot be set here: %s does not exist here",
		    f->triple_key);
		*reason = strbuf_detach(&sb, NULL);
		return;
	case SIZING_PRESENT:
		from = *f->cur;
		known = 1;
		break;
	default:
		from = f->kernel;
		known = 0;
		break;
	}
	*set = 1;
	out->min = from.min;

	/* The middle value: kept, or the play's, never lowered. */
	if (f->want_def != 0 && known && f->want_def < from.def &&
	    !allow_decrease)
		out->def = from.def;
	else if (f->want_def != 0)
		out->def = f->want_def;
	else
		out->def = from.def;

	/* The maximum. A maximum below the default would make the default
	 * unreachable: never plan one. */
	target = ceiling;
	if (target < out->def)
		target = out->def;
	if (known && from.max > target && !allow_decrease) {
		out->max = from.max;
		strbuf_addstr(&sb, "host already has ");
		add_bytes(&sb, from.max);
		strbuf_addstr(&sb, " (higher); kept (allow_decrease is "
		    "false); planned ");
		add_bytes(&sb, target);
		strbuf_addf(&sb, " from %s", base);
	} else {
		out->max = target;
		strbuf_addstr(&sb, base);
		if (target != ceiling) {
			strbuf_addstr(&sb, "; raised to the default value ");
			add_bytes(&sb, target);
		}
		/* Nothing here depends on the host's current value: the
		 * rendered file must be the same bytes before and after the
		 * apply, or a second run would rewrite it. The before value is
		 * in the plan's live table instead. */
		(void)known;
	}

	strbuf_addstr(&sb, "; min ");
	add_bytes(&sb, out->min);
	strbuf_addstr(&sb, " kept");
	strbuf_addstr(&sb, ", default ");
	add_bytes(&sb, out->def);
	if (f->want_def == 0)
		strbuf_addstr(&sb, " kept");
	else if (out->def != f->want_def) {
		strbuf_addf(&sb, " kept (higher than %s ", f->param);
		add_bytes(&sb, f->want_def);
		strbuf_addstr(&sb, "; allow_decrease is false)");
	} else
		strbuf_addf(&sb, " (%s)", f->param);
	if (!known)
		strbuf_addstr(&sb, " (host value unknown: the kernel's "
		    "defaults assumed)");
	*reason = strbuf_detach(&sb, NULL);
}

/* Plan one of rmem_max/wmem_max: at least the triple's maximum. */
static void
plan_max(const struct family *f, uint64_t target, int allow_decrease,
    uint64_t *out, int *set, char **reason)
{
	struct strbuf	sb;

	strbuf_init(&sb);
	switch (f->st_max) {
	case SIZING_READONLY:
		*out = f->cur_max;
		*set = 0;
		strbuf_addf(&sb, "cannot be set here: %s is read-only here "
		    "(a network namespace or container); the host keeps ",
		    f->max_key);
		add_bytes(&sb, f->cur_max);
		strbuf_addf(&sb, ", so setsockopt(%s) stays capped at that; "
		    "autotuning uses %s", f->sockopt, f->triple_name);
		*reason = strbuf_detach(&sb, NULL);
		return;
	case SIZING_ABSENT:
		*out = 0;
		*set = 0;
		strbuf_addf(&sb, "cannot be set here: %s does not exist here",
		    f->max_key);
		*reason = strbuf_detach(&sb, NULL);
		return;
	default:
		break;
	}
	*set = 1;
	if (f->st_max == SIZING_PRESENT && f->cur_max > target &&
	    !allow_decrease) {
		*out = f->cur_max;
		strbuf_addstr(&sb, "host already has ");
		add_bytes(&sb, f->cur_max);
		strbuf_addstr(&sb, " (higher); kept (allow_decrease is "
		    "false); ");
	} else
		*out = target;
	strbuf_addf(&sb, "at least the %s maximum (", f->triple_name);
	add_bytes(&sb, target);
	strbuf_addf(&sb, "): setsockopt(%s) is capped by %s", f->sockopt,
	    f->max_key);
	*reason = strbuf_detach(&sb, NULL);
}

int
sizing_plan_compute(const struct sizing_input *in, struct sizing_plan *p,
    char **cause)
{
	static const struct tcp_triple kernel_rmem = SIZING_KERNEL_RMEM;
	static const struct tcp_triple kernel_wmem = SIZING_KERNEL_WMEM;
	struct family	 rf, wf;
	struct strbuf	 sb;
	double		 headroom;
	unsigned	 divisor;
	uint64_t	 max_buffer, unit;
	char		*s, *base = NULL;
	int		 r = -1;

	memset(p, 0, sizeof *p);
	strbuf_init(&sb);
	headroom = in->headroom != 0 ? in->headroom : SIZING_DEFAULT_HEADROOM;
	divisor = in->ram_divisor != 0 ? in->ram_divisor :
	    SIZING_DEFAULT_RAM_DIVISOR;
	max_buffer = in->max_buffer != 0 ? in->max_buffer :
	    SIZING_DEFAULT_MAX_BUFFER;

	if (!(in->bandwidth_mbit > 0)) {
		fail(cause, "no bandwidth: set bandwidth_mbit (the NIC "
		    "reports no speed)");
		goto out;
	}
	if (!(in->rtt_ms > 0)) {
		fail(cause, "no rtt: set rtt_ms (the host's peers could not "
		    "be measured)");
		goto out;
	}
	if (in->mem_total == 0) {
		fail(cause, "no memory size: MemTotal is unknown, so the "
		    "buffers cannot be capped by RAM");
		goto out;
	}
	if (!(headroom >= 1) || headroom > 1024) {
		fail(cause, "headroom must be between 1 and 1024");
		goto out;
	}
	if (max_buffer < 4096) {
		fail(cause, "max_buffer below 4096 bytes");
		goto out;
	}

	p->bdp_bytes = sizing_bdp(in->bandwidth_mbit, in->rtt_ms);
	p->wanted = sizing_pow2_ceil((uint64_t)ceil((double)p->bdp_bytes *
	    headroom));
	/* The RAM budget in whole MiB (whole pages below 1 MiB): a buffer
	 * size like 16.69 MiB would only look precise. */
	p->ram_cap = in->mem_total / divisor;
	unit = p->ram_cap >= MiB ? MiB : 4096;
	p->ram_cap -= p->ram_cap % unit;
	if (p->ram_cap < 4096)
		p->ram_cap = 4096;

	strbuf_addstr(&sb, "BDP ");
	s = format_tenths(in->bandwidth_mbit);
	strbuf_addf(&sb, "%s Mbit/s " TIMES " ", s);
	free(s);
	s = format_tenths(in->rtt_ms);
	strbuf_addf(&sb, "%s ms = ", s);
	free(s);
	s = format_bytes_decimal(p->bdp_bytes);
	strbuf_addstr(&sb, s);
	free(s);
	s = format_tenths(headroom);
	strbuf_addf(&sb, ", " TIMES "%s headroom " ARROW " ", s);
	free(s);
	add_bytes(&sb, p->wanted);
	strbuf_addf(&sb, "; RAM cap 1/%u of ", divisor);
	add_bytes(&sb, in->mem_total);
	strbuf_addstr(&sb, " = ");
	add_bytes(&sb, p->ram_cap);
	p->ceiling = p->wanted;
	if (p->ceiling > p->ram_cap) {
		strbuf_addstr(&sb, " applied (wanted ");
		add_bytes(&sb, p->ceiling);
		strbuf_addch(&sb, ')');
		p->ceiling = p->ram_cap;
	}
	if (p->ceiling > max_buffer) {
		strbuf_addstr(&sb, "; max_buffer ");
		add_bytes(&sb, max_buffer);
		strbuf_addstr(&sb, " applied (wanted ");
		add_bytes(&sb, p->ceiling);
		strbuf_addch(&sb, ')');
		p->ceiling = max_buffer;
	}
	base = strbuf_detach(&sb, NULL);

	rf = (struct family){ "net.ipv4.tcp_rmem", "net.core.rmem_max",
	    "rmem_default", "SO_RCVBUF", "tcp_rmem", in->st_rmem,
	    in->st_rmem_max, &in->cur_rmem, in->cur_rmem_max, kernel_rmem,
	    in->rmem_default };
	wf = (struct family){ "net.ipv4.tcp_wmem", "net.core.wmem_max",
	    "wmem_default", "SO_SNDBUF", "tcp_wmem", in->st_wmem,
	    in->st_wmem_max, &in->cur_wmem, in->cur_wmem_max, kernel_wmem,
	    in->wmem_default };

	plan_triple(&rf, p->ceiling, base, in->allow_decrease, &p->rmem,
	    &p->set_rmem, &p->reason_rmem);
	plan_triple(&wf, p->ceiling, base, in->allow_decrease, &p->wmem,
	    &p->set_wmem, &p->reason_wmem);
	plan_max(&rf, p->set_rmem && p->rmem.max > p->ceiling ?
	    p->rmem.max : p->ceiling, in->allow_decrease, &p->rmem_max,
	    &p->set_rmem_max, &p->reason_rmem_max);
	plan_max(&wf, p->set_wmem && p->wmem.max > p->ceiling ?
	    p->wmem.max : p->ceiling, in->allow_decrease, &p->wmem_max,
	    &p->set_wmem_max, &p->reason_wmem_max);
	r = 0;
out:
	free(base);
	strbuf_release(&sb);
	return r;
}

/* ---- congestion control and qdisc */

enum kconfig
kconfig_from_string(const char *s)
{
	if (s == NULL)
		return KCONFIG_UNKNOWN;
	if (strcmp(s, "y") == 0)
		return KCONFIG_BUILTIN;
	if (strcmp(s, "m") == 0)
		return KCONFIG_MODULE;
	if (strcmp(s, "n") == 0 || strcmp(s, "") == 0 ||
	    strcmp(s, "absent") == 0 || strcmp(s, "not set") == 0)
		return KCONFIG_ABSENT;
	return KCONFIG_UNKNOWN;
}

/* "CONFIG_<prefix><NAME>" with name upper-cased and '-' made '_'. */
static char *
kconfig_symbol(const char *prefix, const char *name)
{
	char	*s, *p;

	s = xprintf("CONFIG_%s%s", prefix, name);
	for (p = s + 7 + strlen(prefix); *p != '\0'; p++)
		*p = *p == '-' ? '_' : (char)toupper((unsigned char)*p);
	return s;
}

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
			    "at boot", sym, mod, SIZING_MODULES_LOAD_FILE);
		}
		goto out;
	}
	switch (in->kconf_cc) {
	case KCONFIG_BUILTIN:
		p->cc = xstrdup(want);
		strbuf_addf(&sb, "%s=y: %s is built into this kernel", sym,
		    want);
		break;
	case KCONFIG_MODULE:
		if (!in->load_module) {
			p->cc_skipped = 1;
			strbuf_addf(&sb, "%s skipped: %s=m but %s is not "
			    "loaded and load_module is false", want, sym, mod);
			break;
		}
		p->cc = xstrdup(want);
		p->cc_modprobe = xstrdup(mod);
		p->cc_persist = xstrdup(mod);
		strbuf_addf(&sb, "%s=m: modprobe %s, and %s listed in %s so "
		    "it loads at boot", sym, mod, mod,
		    SIZING_MODULES_LOAD_FILE);
		break;
	case KCONFIG_ABSENT:
		p->cc_skipped = 1;
		strbuf_addf(&sb, "%s skipped: %s is not set in this kernel",
		    want, sym);
		if (in->available_cc != NULL)
			strbuf_addf(&sb, " (tcp_available_congestion_control: "
			    "%s)", in->available_cc);
		strbuf_addstr(&sb, "; congestion control left as is");
		if (in->current_cc != NULL)
			strbuf_addf(&sb, " (%s)", in->current_cc);
		break;
	default:
		if (!in->load_module) {
			p->cc_skipped = 1;
			strbuf_addf(&sb, "%s skipped: no kernel config to "
			    "tell whether %s exists, it is not loaded and "
			    "load_module is false", want, mod);
			break;
		}
		/* The apply step reads the value back and fails loudly if
		 * the module was not there after all. */
		p->cc = xstrdup(want);
		p->cc_modprobe = xstrdup(mod);
		p->cc_persist = xstrdup(mod);
		strbuf_addf(&sb, "no kernel config to tell whether %s exists "
		    "and %s is not loaded: will try modprobe %s", sym, want,
		    mod);
		break;
	}
out:
	free(sym);
	free(mod);
	p->reason_cc = strbuf_detach(&sb, NULL);
}

static void
plan_qdisc(const struct cc_input *in, struct cc_plan *p)
{
	struct strbuf	 sb;
	const char	*want = in->want_qdisc, *cc;
	char		*sym = NULL, *mod = NULL;
	enum kconfig	 kc = in->kconf_qdisc;
	int		 bbr;

	strbuf_init(&sb);
	cc = p->cc != NULL ? p->cc : in->current_cc;
	bbr = cc != NULL && strcmp(cc, "bbr") == 0;
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
	switch (kc) {
	case KCONFIG_BUILTIN:
		p->qdisc = xstrdup(want);
		if (strcmp(want, "pfifo_fast") == 0)
			strbuf_addstr(&sb, "pfifo_fast is always built in");
		else
			strbuf_addf(&sb, "%s=y: %s is built into this kernel",
			    sym, want);
		break;
	case KCONFIG_MODULE:
		if (!in->load_module) {
			p->qdisc_skipped = 1;
			strbuf_addf(&sb, "%s skipped: %s=m and load_module is "
			    "false", want, sym);
			break;
		}
		p->qdisc = xstrdup(want);
		p->qdisc_modprobe = xstrdup(mod);
		p->qdisc_persist = xstrdup(mod);
		strbuf_addf(&sb, "%s=m: modprobe %s, and %s listed in %s so "
		    "it loads at boot", sym, mod, mod,
		    SIZING_MODULES_LOAD_FILE);
		break;
	case KCONFIG_ABSENT:
		p->qdisc_skipped = 1;
		strbuf_addf(&sb, "%s skipped: %s is not set in this kernel",
		    want, sym);
		if (bbr && strcmp(want, "fq") == 0) {
			strbuf_addstr(&sb, "; BBR paces by itself since 4.13");
			if (in->kernel_major != 0 && (in->kernel_major < 4 ||
			    (in->kernel_major == 4 && in->kernel_minor < 13)))
				strbuf_addf(&sb, "; warning: kernel %d.%d is "
				    "older than 4.13, where BBR needs fq to "
				    "pace", in->kernel_major,
				    in->kernel_minor);
		} else
			strbuf_addstr(&sb, "; default_qdisc left as is");
		break;
	default:
		if (!in->load_module) {
			p->qdisc_skipped = 1;
			strbuf_addf(&sb, "%s skipped: no kernel config to tell "
			    "whether %s exists and load_module is false", want,
			    sym);
			break;
		}
		p->qdisc = xstrdup(want);
		p->qdisc_modprobe = xstrdup(mod);
		p->qdisc_persist = xstrdup(mod);
		strbuf_addf(&sb, "no kernel config to tell whether %s exists: "
		    "will try modprobe %s", sym, mod);
		break;
	}
	if (p->qdisc != NULL && bbr && strcmp(want, "fq") == 0)
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
sizing_plan_to_dropin(const struct sizing_plan *p, struct dropin *d)
{
	char	*v;

	if (p->set_rmem) {
		v = tcp_triple_format(&p->rmem);
		dropin_set(d, "net.ipv4.tcp_rmem", v, p->reason_rmem);
		free(v);
	}
	if (p->set_wmem) {
		v = tcp_triple_format(&p->wmem);
		dropin_set(d, "net.ipv4.tcp_wmem", v, p->reason_wmem);
		free(v);
	}
	if (p->set_rmem_max) {
		v = xprintf("%llu", (unsigned long long)p->rmem_max);
		dropin_set(d, "net.core.rmem_max", v, p->reason_rmem_max);
		free(v);
	}
	if (p->set_wmem_max) {
		v = xprintf("%llu", (unsigned long long)p->wmem_max);
		dropin_set(d, "net.core.wmem_max", v, p->reason_wmem_max);
		free(v);
	}
}

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
