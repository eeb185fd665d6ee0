/* The tuning keys beyond buffers (sizing-extra.h states the policy). */
#include "tune/sizing-extra.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tune/dropin.h"
#include "base/xalloc.h"

uint64_t
sizing_backlog(double mbit)
{
	double pkts;

	if (!(mbit > 0))
		return SIZING_KERNEL_BACKLOG;
	/* packets of 1500 bytes in SIZING_BACKLOG_MS at the link rate */
	pkts = ceil(mbit * 1e6 / 8 / 1500 * SIZING_BACKLOG_MS / 1000);
	return pkts > SIZING_KERNEL_BACKLOG ? (uint64_t)pkts :
	    SIZING_KERNEL_BACKLOG;
}

static void
add(struct sizing_extra *out, const char *key, char *value, char *reason)
{
	struct sizing_extra_key *k = &out->keys[out->n++];

	k->key = key;
	k->value = value;
	k->reason = reason;
}

/* 1 when the host cannot take key (its reason added), else 0. */
static int
cannot(struct sizing_extra *out, const char *key, enum sizing_state st)
{
	if (st != SIZING_ABSENT && st != SIZING_READONLY)
		return 0;
	add(out, key, NULL, xstrdup(st == SIZING_ABSENT ? "not on this host" :
	    "read-only here"));
	return 1;
}

void
sizing_extra_compute(const struct sizing_extra_input *in,
    struct sizing_extra *out)
{
	uint64_t	 lowat, want;

	memset(out, 0, sizeof *out);
	if (in->long_lived && !cannot(out,
	    "net.ipv4.tcp_slow_start_after_idle", in->st_idle))
		add(out, "net.ipv4.tcp_slow_start_after_idle", xstrdup("0"),
		    xstrdup("long-lived flows: a flow idle for an RTO keeps its "
		    "window instead of starting over from the initial one"));
	if (in->latency_sensitive && !cannot(out,
	    "net.ipv4.tcp_notsent_lowat", in->st_lowat)) {
		lowat = in->notsent_lowat > 0 ? in->notsent_lowat :
		    SIZING_NOTSENT_LOWAT;
		if (in->cc != NULL && strcmp(in->cc, "bbr") == 0)
			add(out, "net.ipv4.tcp_notsent_lowat", xprintf("%llu",
			    (unsigned long long)lowat), xprintf("latency-"
			    "sensitive senders on bbr: at most %llu bytes not "
			    "yet sent wait in a socket, so a new write is not "
			    "queued behind the whole send buffer",
			    (unsigned long long)lowat));
		else
			add(out, "net.ipv4.tcp_notsent_lowat", NULL, xprintf(
			    "not planned: the congestion control is %s, not "
			    "bbr (the guides pair the two: bbr paces what the "
			    "small queue lets through)", in->cc != NULL ?
			    in->cc : "unknown"));
	}
	if (in->mtu_probing == SIZING_ON || (in->mtu_probing == SIZING_AUTO &&
	    in->blackhole != NULL)) {
		if (!cannot(out, "net.ipv4.tcp_mtu_probing", in->st_probing))
			add(out, "net.ipv4.tcp_mtu_probing", xstrdup("1"),
			    in->mtu_probing == SIZING_AUTO ? xprintf("the path "
			    "check found an MTU blackhole (%s): TCP probes "
			    "for the MTU once it sees one", in->blackhole) :
			    xstrdup("TCP probes for the path's MTU once it "
			    "detects a blackhole (asked for: mtu_probing on)"));
	}
	if (in->netdev_backlog && !cannot(out, "net.core.netdev_max_backlog",
	    in->st_backlog)) {
		want = sizing_backlog(in->bandwidth_mbit);
		if (!(in->bandwidth_mbit > 0))
			add(out, "net.core.netdev_max_backlog", NULL, xstrdup(
			    "not planned: the link rate is unknown"));
		else if (want <= SIZING_KERNEL_BACKLOG ||
		    (in->st_backlog == SIZING_PRESENT &&
		    in->cur_backlog >= want))
			add(out, "net.core.netdev_max_backlog", NULL, xprintf(
			    "not planned: %.0f Mbit/s needs %llu packets, the "
			    "host has %llu", in->bandwidth_mbit,
			    (unsigned long long)want, (unsigned long long)(
			    in->st_backlog == SIZING_PRESENT ? in->cur_backlog :
			    SIZING_KERNEL_BACKLOG)));
		else
			add(out, "net.core.netdev_max_backlog", xprintf("%llu",
			    (unsigned long long)want), xprintf("%.0f Mbit/s: "
			    "the 1500-byte packets of %d ms at the link rate "
			    "wait for the softirq instead of being dropped",
			    in->bandwidth_mbit, SIZING_BACKLOG_MS));
	}
}

void
sizing_extra_clear(struct sizing_extra *x)
{
	size_t i;

	for (i = 0; i < x->n; i++) {
		free(x->keys[i].value);
		free(x->keys[i].reason);
	}
	memset(x, 0, sizeof *x);
}

void
sizing_extra_to_dropin(const struct sizing_extra *x, struct dropin *d)
{
	size_t i;

	for (i = 0; i < x->n; i++)
		if (x->keys[i].value != NULL)
			dropin_set(d, x->keys[i].key, x->keys[i].value,
			    x->keys[i].reason);
}
