/* The tuning keys beyond buffers and congestion control that the guides
 * add (docs/sizing.md, "Beyond buffers"), each planned only where it
 * applies and with its reason. Pure functions, no I/O.
 *
 *   net.ipv4.tcp_slow_start_after_idle = 0   long_lived: a flow idle for
 *       an RTO keeps its window instead of starting over (GCP's TCP
 *       guidance); off by default: tuned's profiles leave it on.
 *   net.ipv4.tcp_notsent_lowat = N           latency_sensitive and the
 *       congestion control is bbr: the unsent data a socket queues is
 *       bounded, so a sender's newest write is not behind megabytes of
 *       older ones (Cloudflare's 16 KiB with BBR).
 *   net.ipv4.tcp_mtu_probing = 1             mtu_probing on, or auto and
 *       a path check found an MTU blackhole: TCP finds the MTU itself
 *       (ip-sysctl.rst: "enabled when an ICMP black hole detected").
 *   net.core.netdev_max_backlog = N          netdev_backlog: packets of
 *       1500 bytes that arrive at the link rate in 60 ms (OSG's fasterdata
 *       500000 at 100 Gbit/s), never below the kernel's 1000; off by
 *       default: tuned's network-throughput profile does not set it.
 *
 * net.ipv4.tcp_adv_win_scale is never planned: Linux 6.6 made it obsolete
 * (the window comes from each socket's measured payload/truesize ratio);
 * before 6.6 its default 1 is what the buffer sizing assumes. */
#ifndef TCPTUNE_SIZING_EXTRA_H
#define TCPTUNE_SIZING_EXTRA_H

#include <stddef.h>
#include <stdint.h>

#include "tune/sizing.h"

#define SIZING_NOTSENT_LOWAT		16384
#define SIZING_KERNEL_BACKLOG		1000
#define SIZING_BACKLOG_MS		60

enum sizing_switch {
	SIZING_OFF = 0,
	SIZING_ON,
	SIZING_AUTO,
};

struct sizing_extra_input {
	double			 bandwidth_mbit; /* <= 0 unknown */
	int			 long_lived;
	int			 latency_sensitive;
	uint64_t		 notsent_lowat;	/* 0: SIZING_NOTSENT_LOWAT */
	const char		*cc;		/* the congestion control the
						 * host will run, NULL unknown */
	enum sizing_switch	 mtu_probing;
	/* auto: what the path check found ("to lab02: 1500 lost, 1460
	 * passes"), NULL when it found no blackhole or did not run. */
	const char		*blackhole;
	int			 netdev_backlog;
	/* Each key's state on the host (SIZING_UNKNOWN: not probed, planned
	 * as if present; ABSENT or READONLY: not planned). */
	enum sizing_state	 st_idle, st_lowat, st_probing, st_backlog;
	uint64_t		 cur_backlog;	/* with st_backlog PRESENT */
};

/* One planned key, or a key left out (value NULL) with why. */
struct sizing_extra_key {
	const char	*key;
	char		*value;
	char		*reason;
};

struct sizing_extra {
	struct sizing_extra_key	 keys[4];
	size_t			 n;
};

/* The keys in; out is zeroed first; free with sizing_extra_clear. */
void	 sizing_extra_compute(const struct sizing_extra_input *in,
	    struct sizing_extra *out);
void	 sizing_extra_clear(struct sizing_extra *);
/* net.core.netdev_max_backlog for a link of mbit Mbit/s (at least
 * SIZING_KERNEL_BACKLOG). */
uint64_t sizing_backlog(double mbit);

struct dropin;
/* The planned keys (value not NULL) into the drop-in with their reasons. */
void	 sizing_extra_to_dropin(const struct sizing_extra *, struct dropin *);

#endif
