/* Congestion control and default_qdisc planning: pure functions from what
 * the host's kernel has (its config, its available algorithms, which keys
 * exist here) to what tcptune sets, each with a human reason. No I/O. The
 * policy and worked examples are in docs/sizing.md.
 *
 * - A wanted algorithm listed in tcp_available_congestion_control is set;
 *   if it is a module (=m) it is also listed in CC_MODULES_LOAD_FILE so it
 *   loads at boot.
 * - Otherwise the kernel config decides: =y set, =m modprobe (when
 *   load_module) and persist, not set: skipped with a reason; without a
 *   config, modprobe is tried (the apply step reads the value back).
 * - default_qdisc the same way, where net.core.default_qdisc exists here;
 *   pfifo_fast is always built in.
 * - What cannot be done is left as is with a reason, never an error. */
#ifndef TCPTUNE_CONGESTION_H
#define TCPTUNE_CONGESTION_H

#include "tune/kconfig.h"

/* The modules-load.d file a modular congestion control or qdisc is
 * persisted in. */
#define CC_MODULES_LOAD_FILE	"/etc/modules-load.d/tcptune.conf"

struct cc_input {
	const char	*want_cc;	/* e.g. "bbr"; NULL: leave as is */
	const char	*want_qdisc;	/* e.g. "fq"; NULL or "keep": leave */
	/* CONFIG_TCP_CONG_<WANT_CC> and CONFIG_NET_SCH_<WANT_QDISC>. */
	enum kconfig	 kconf_cc;
	enum kconfig	 kconf_qdisc;
	/* net.ipv4.tcp_available_congestion_control (space separated), or
	 * NULL if unknown. */
	const char	*available_cc;
	/* The host's current tcp_congestion_control, or NULL if unknown
	 * (only used in reasons). */
	const char	*current_cc;
	/* 1 if net.core.default_qdisc exists here (it does not in a child
	 * network namespace). */
	int		 have_default_qdisc;
	/* 1 if tcp_congestion_control can be written here. */
	int		 cc_writable;
	/* Whether modprobe may be used for modular algorithms/qdiscs. */
	int		 load_module;
	/* Kernel version, 0.0 if unknown: BBR paces by itself only since
	 * 4.13, so before that BBR without fq gets a warning. */
	int		 kernel_major, kernel_minor;
};

struct cc_plan {
	/* The algorithm to set, or NULL to leave it as is. */
	char	*cc;
	/* Module to modprobe now (e.g. "tcp_bbr"), or NULL. */
	char	*cc_modprobe;
	/* Module to list in CC_MODULES_LOAD_FILE so it loads at boot,
	 * or NULL. */
	char	*cc_persist;
	/* The default_qdisc to set, or NULL to leave it as is. */
	char	*qdisc;
	char	*qdisc_modprobe;
	char	*qdisc_persist;
	/* 1 when the wanted setting is not done because this host cannot
	 * have it (a kernel without it, a key that does not exist here):
	 * not an error, but something to show. */
	int	 cc_skipped, qdisc_skipped;
	char	*reason_cc, *reason_qdisc;
};

/* Decide congestion control and default_qdisc. Never fails: what cannot be
 * done is left as is with a reason. Free with cc_plan_clear. */
void	 cc_plan_compute(const struct cc_input *, struct cc_plan *);
void	 cc_plan_clear(struct cc_plan *);

struct dropin;
/* Put the planned net.core.default_qdisc and
 * net.ipv4.tcp_congestion_control into a drop-in, with their reasons
 * (qdisc first: it must exist before a new socket paces). */
void	 cc_plan_to_dropin(const struct cc_plan *, struct dropin *);

#endif
