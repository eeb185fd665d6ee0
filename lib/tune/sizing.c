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

int
sizing_widest_path(const struct sizing_path *paths, size_t n)
{
	uint64_t	best = 0, bdp;
	size_t		i;
	int		at = -1;

	for (i = 0; i < n; i++) {
		bdp = sizing_bdp(paths[i].bandwidth_mbit, paths[i].rtt_ms);
		/* Strictly larger: a later path of equal BDP does not take
		 * over, so the same peers always name the same path. */
		if (bdp > 0 && (at < 0 || bdp > best)) {
			best = bdp;
			at = (int)i;
		}
	}
	return at;
}

void
sizing_input_path(struct sizing_input *in, const struct sizing_path *path)
{
	in->rtt_ms = path->rtt_ms;
	in->bandwidth_mbit = path->bandwidth_mbit;
	in->to = path->to;
	in->group = path->group;
	in->rtt_assumed = path->rtt_assumed;
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

/* A triple this host cannot set (read-only or absent here): 1, with the
 * host's value kept and the reason; 0 if it can be set. */
static int
triple_unsettable(const struct family *f, uint64_t ceiling,
    struct tcp_triple *out, int *set, char **reason)
{
	struct strbuf	sb;

	switch (f->st_triple) {
	case SIZING_READONLY:
		*out = *f->cur;
		strbuf_init(&sb);
		strbuf_addf(&sb, "cannot be set here: %s is read-only here "
		    "(a network namespace or container); the host keeps "
		    "maximum ", f->triple_key);
		add_bytes(&sb, f->cur->max);
		strbuf_addstr(&sb, ", the plan wanted ");
		add_bytes(&sb, ceiling);
		*reason = strbuf_detach(&sb, NULL);
		break;
	case SIZING_ABSENT:
		memset(out, 0, sizeof *out);
		*reason = xprintf("cannot be set here: %s does not exist here",
		    f->triple_key);
		break;
	default:
		return 0;
	}
	*set = 0;
	return 1;
}

/* The end of a triple's reason: its minimum and middle value. */
static void
add_min_default(struct strbuf *sb, const struct family *f,
    const struct tcp_triple *out, int known)
{
	strbuf_addstr(sb, "; min ");
	add_bytes(sb, out->min);
	strbuf_addstr(sb, " kept");
	strbuf_addstr(sb, ", default ");
	add_bytes(sb, out->def);
	if (f->want_def == 0)
		strbuf_addstr(sb, " kept");
	else if (out->def != f->want_def) {
		strbuf_addf(sb, " kept (higher than %s ", f->param);
		add_bytes(sb, f->want_def);
		strbuf_addstr(sb, "; allow_decrease is false)");
	} else
		strbuf_addf(sb, " (%s)", f->param);
	if (!known)
		strbuf_addstr(sb, " (host value unknown: the kernel's "
		    "defaults assumed)");
}

/* Plan one of tcp_rmem/tcp_wmem. base is the ceiling's own reason. */
static void
plan_triple(const struct family *f, uint64_t ceiling, const char *base,
    int allow_decrease, struct tcp_triple *out, int *set, char **reason)
{
	struct strbuf		sb;
	struct tcp_triple	from;
	uint64_t		target;
	int			known;

	if (triple_unsettable(f, ceiling, out, set, reason))
		return;
	strbuf_init(&sb);
	/* Not probed: the kernel's defaults stand in for the host's. */
	known = f->st_triple == SIZING_PRESENT;
	from = known ? *f->cur : f->kernel;
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
	}

	add_min_default(&sb, f, out, known);
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

/* The input's settings with their defaults filled in. */
struct settings {
	double		 headroom;
	unsigned	 divisor;
	uint64_t	 max_buffer;
};

/* Fill in the defaults and refuse a host that cannot be sized. */
static int
check_input(const struct sizing_input *in, struct settings *set,
    char **cause)
{
	set->headroom = in->headroom != 0 ? in->headroom :
	    SIZING_DEFAULT_HEADROOM;
	set->divisor = in->ram_divisor != 0 ? in->ram_divisor :
	    SIZING_DEFAULT_RAM_DIVISOR;
	set->max_buffer = in->max_buffer != 0 ? in->max_buffer :
	    SIZING_DEFAULT_MAX_BUFFER;

	if (!(in->bandwidth_mbit > 0))
		return fail(cause, "no bandwidth: set bandwidth_mbit (the NIC "
		    "reports no speed)");
	if (!(in->rtt_ms > 0))
		return fail(cause, "no rtt: set rtt_ms (the host's peers could "
		    "not be measured)");
	if (in->mem_total == 0)
		return fail(cause, "no memory size: MemTotal is unknown, so "
		    "the buffers cannot be capped by RAM");
	if (!(set->headroom >= 1) || set->headroom > 1024)
		return fail(cause, "headroom must be between 1 and 1024");
	if (set->max_buffer < 4096)
		return fail(cause, "max_buffer below 4096 bytes");
	return 0;
}

/* " to bhs-db1 (ovh_bhs)": the path that set the BDP, when one is named;
 * the group only when its bandwidth was taken. */
static void
add_path(struct strbuf *sb, const struct sizing_input *in)
{
	if (in->to == NULL)
		return;
	strbuf_addf(sb, " to %s", in->to);
	if (in->group != NULL && in->rtt_assumed)
		strbuf_addf(sb, " (%s; rtt_ms, not measured)", in->group);
	else if (in->group != NULL)
		strbuf_addf(sb, " (%s)", in->group);
	else if (in->rtt_assumed)
		strbuf_addstr(sb, " (rtt_ms, not measured)");
}

/* The ceiling of both triples: BDP x headroom as a power of two, capped by
 * the RAM budget and max_buffer. Returns its reason, a new string. */
static char *
plan_ceiling(const struct sizing_input *in, const struct settings *set,
    struct sizing_plan *p)
{
	struct strbuf	 sb;
	uint64_t	 unit;
	char		*s;

	p->bdp_bytes = sizing_bdp(in->bandwidth_mbit, in->rtt_ms);
	p->wanted = sizing_pow2_ceil((uint64_t)ceil((double)p->bdp_bytes *
	    set->headroom));
	/* The RAM budget in whole MiB (whole pages below 1 MiB): a buffer
	 * size like 16.69 MiB would only look precise. */
	p->ram_cap = in->mem_total / set->divisor;
	unit = p->ram_cap >= MiB ? MiB : 4096;
	p->ram_cap -= p->ram_cap % unit;
	if (p->ram_cap < 4096)
		p->ram_cap = 4096;

	strbuf_init(&sb);
	strbuf_addstr(&sb, "BDP ");
	s = format_tenths(in->bandwidth_mbit);
	strbuf_addf(&sb, "%s Mbit/s " TIMES " ", s);
	free(s);
	s = format_tenths(in->rtt_ms);
	strbuf_addf(&sb, "%s ms", s);
	free(s);
	add_path(&sb, in);
	strbuf_addstr(&sb, " = ");
	s = format_bytes_decimal(p->bdp_bytes);
	strbuf_addstr(&sb, s);
	free(s);
	s = format_tenths(set->headroom);
	strbuf_addf(&sb, ", " TIMES "%s headroom " ARROW " ", s);
	free(s);
	add_bytes(&sb, p->wanted);
	strbuf_addf(&sb, "; RAM cap 1/%u of ", set->divisor);
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
	if (p->ceiling > set->max_buffer) {
		strbuf_addstr(&sb, "; max_buffer ");
		add_bytes(&sb, set->max_buffer);
		strbuf_addstr(&sb, " applied (wanted ");
		add_bytes(&sb, p->ceiling);
		strbuf_addch(&sb, ')');
		p->ceiling = set->max_buffer;
	}
	return strbuf_detach(&sb, NULL);
}

int
sizing_plan_compute(const struct sizing_input *in, struct sizing_plan *p,
    char **cause)
{
	static const struct tcp_triple kernel_rmem = SIZING_KERNEL_RMEM;
	static const struct tcp_triple kernel_wmem = SIZING_KERNEL_WMEM;
	struct settings	 set;
	struct family	 rf, wf;
	char		*base;

	memset(p, 0, sizeof *p);
	if (check_input(in, &set, cause) != 0)
		return -1;
	base = plan_ceiling(in, &set, p);

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
	free(base);
	return 0;
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
