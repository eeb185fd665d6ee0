/* Sizing policy: pure functions from a host's facts to the values tcptune
 * plans, each with a human reason. No I/O. The policy and worked examples
 * are in docs/sizing.md.
 *
 * Buffers:
 * - BDP = bandwidth x RTT (bytes = Mbit/s x 1e6 / 8 x ms / 1000).
 * - The ceilings tcp_rmem[2] and tcp_wmem[2] = BDP x headroom (default 2:
 *   the kernel counts its own per-packet overhead against the buffer),
 *   rounded up to a power of two, then capped by the RAM budget (MemTotal /
 *   ram_divisor, default 1/64, rounded down to a whole MiB) and by
 *   max_buffer (default 256 MiB), and never below the middle (default)
 *   value.
 * - net.core.rmem_max / wmem_max are at least the ceilings (they cap
 *   setsockopt(SO_RCVBUF/SO_SNDBUF); autotuning uses tcp_rmem/tcp_wmem).
 * - The middle values are kept unless rmem_default/wmem_default are given;
 *   the minimums are kept.
 * - Never lower: per value, a host value that is already higher is kept
 *   unless allow_decrease.
 * - A key the host cannot set (read-only or absent, as in a network
 *   namespace or a container) is not planned; its reason says why.
 *
 * Congestion control and qdisc: tune/congestion.h. */
#ifndef TCPTUNE_SIZING_H
#define TCPTUNE_SIZING_H

#include <stddef.h>
#include <stdint.h>

#define SIZING_DEFAULT_HEADROOM		2.0
#define SIZING_DEFAULT_RAM_DIVISOR	64
#define SIZING_DEFAULT_MAX_BUFFER	((uint64_t)256 * 1024 * 1024)

/* Linux's defaults, assumed for the minimum and middle value when the
 * host's current triple is unknown. */
#define SIZING_KERNEL_RMEM	{ 4096, 131072, 6291456 }
#define SIZING_KERNEL_WMEM	{ 4096, 16384, 4194304 }

struct tcp_triple {
	uint64_t	min;
	uint64_t	def;
	uint64_t	max;
};

/* Parse "4096 131072 6291456" (any blanks around and between, as sysctl
 * prints tabs). Returns 0, or -1 if it is not exactly three unsigned
 * integers. */
int	 tcp_triple_parse(const char *s, struct tcp_triple *out);
/* "4096 131072 6291456", a new string. */
char	*tcp_triple_format(const struct tcp_triple *t);

/* What the host has for one key. */
enum sizing_state {
	SIZING_UNKNOWN = 0,	/* not probed or unreadable: value not known */
	SIZING_PRESENT,		/* exists, writable, value known */
	SIZING_READONLY,	/* exists, value known, cannot be set here */
	SIZING_ABSENT,		/* does not exist here */
};

struct sizing_input {
	double			 rtt_ms;	/* > 0, else the plan fails */
	double			 bandwidth_mbit; /* <= 0: unknown: fails */
	/* The path rtt_ms and bandwidth_mbit are for, named in the reason
	 * ("... x 92.3 ms to bhs-db1 (ovh_bhs) = ..."): the peer (or
	 * address), NULL when none (given values); the group whose
	 * bandwidth was taken, NULL when the host's; rtt_assumed: rtt_ms is
	 * var rtt_ms standing in for a peer that was not measured. */
	const char		*to;
	const char		*group;
	int			 rtt_assumed;
	uint64_t		 mem_total;	/* bytes; 0: unknown: fails */
	double			 headroom;	/* 0: default 2 */
	unsigned		 ram_divisor;	/* 0: default 64 */
	uint64_t		 max_buffer;	/* 0: default 256 MiB */
	int			 allow_decrease;

	enum sizing_state	 st_rmem, st_wmem, st_rmem_max, st_wmem_max;
	struct tcp_triple	 cur_rmem, cur_wmem;
	uint64_t		 cur_rmem_max, cur_wmem_max;

	uint64_t		 rmem_default;	/* 0: keep the host's */
	uint64_t		 wmem_default;	/* 0: keep the host's */
};

struct sizing_plan {
	struct tcp_triple	 rmem, wmem;
	uint64_t		 rmem_max, wmem_max;
	/* 1: write the key; 0: it cannot be set here (the reason says
	 * why) and the value above is the host's, or 0 if unknown. */
	int			 set_rmem, set_wmem, set_rmem_max, set_wmem_max;
	char			*reason_rmem, *reason_wmem;
	char			*reason_rmem_max, *reason_wmem_max;

	uint64_t		 bdp_bytes;	/* bandwidth x RTT */
	uint64_t		 wanted;	/* BDP x headroom, power of two */
	uint64_t		 ram_cap;	/* MemTotal / ram_divisor, MiB */
	uint64_t		 ceiling;	/* wanted after the caps */
};

/* One path a host's buffers must fill: to a peer (or a target the probe
 * measured), with its RTT and bandwidth. A host talks to many peers at
 * different RTTs; one set of buffer ceilings must fill the widest path. */
struct sizing_path {
	const char	*to;		/* peer name or address (borrowed) */
	const char	*group;		/* group whose bandwidth applies, or NULL */
	double		 rtt_ms;	/* <= 0: unknown */
	double		 bandwidth_mbit; /* <= 0: unknown */
	int		 rtt_assumed;	/* rtt_ms is var rtt_ms: not measured */
};

/* The index of the path with the largest bandwidth x RTT (the first of
 * equals, so the order given breaks ties), or -1 when no path has both an
 * RTT and a bandwidth. */
int	 sizing_widest_path(const struct sizing_path *paths, size_t n);
/* Copy path's RTT, bandwidth and names into in. */
void	 sizing_input_path(struct sizing_input *in,
	    const struct sizing_path *path);

/* Compute the plan. Returns 0, or -1 with *cause set when a host cannot be
 * sized: no bandwidth ("no bandwidth: set bandwidth_mbit (the NIC reports
 * no speed)"), no RTT, no MemTotal, or bad settings. The plan is zeroed
 * first; free it with sizing_plan_clear (also after a failure). */
int	 sizing_plan_compute(const struct sizing_input *,
	    struct sizing_plan *, char **cause);
void	 sizing_plan_clear(struct sizing_plan *);

/* BDP in bytes, rounded to the nearest byte (0 for non-positive inputs). */
uint64_t sizing_bdp(double bandwidth_mbit, double rtt_ms);
/* The smallest power of two >= v (1 for 0; UINT64_MAX's answer saturates
 * at 2^63). */
uint64_t sizing_pow2_ceil(uint64_t v);
/* The most one flow can carry when buffer_bytes is its window: buffer x 8
 * / RTT, in Mbit/s (0 if rtt_ms <= 0). 212992 B at 105 ms: 16.2. */
double	 sizing_flow_cap_mbit(uint64_t buffer_bytes, double rtt_ms);

struct dropin;
/* Put the planned buffer keys into a drop-in, with their reasons, in the
 * order tcp_rmem, tcp_wmem, rmem_max, wmem_max; keys that cannot be set
 * here are left out. */
void	 sizing_plan_to_dropin(const struct sizing_plan *, struct dropin *);

#endif
