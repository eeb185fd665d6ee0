/* The live qdisc planned for every interface that carries a host's
 * traffic (lib/remote/traffic.h): which ones the apply sets, each with the
 * tree it has now and what traffic it carries, for the plan, --diff, the
 * check after an apply and drift. Pure: from the probe's facts. */
#ifndef TCPTUNE_QDISC_PLAN_H
#define TCPTUNE_QDISC_PLAN_H

#include <jansson.h>
#include <stddef.h>

struct qdisc_plan_if {
	char	*dev;
	char	*carries;	/* "the default route; traffic to eu1" */
	char	*live;		/* its live tree described (qdisc_describe) */
	int	 tx_queues;	/* > 1 with an mq root: the kind goes on every
				 * leaf and mq stays */
	int	 set;		/* the live one is not the wanted kind */
};

struct qdisc_plan {
	char			*want;	/* the kind, NULL: none is set (the
					 * interfaces are only listed) */
	struct qdisc_plan_if	*ifs;	/* the interfaces to plan for */
	size_t			 n;
	char			*error;	/* no interface can be determined:
					 * why (the task fails), or NULL */
	char			**warnings;	/* interfaces left alone, peers
						 * not routed */
	size_t			 nwarnings;
	/* For the apply (lib/remote/apply.h): the interfaces to set, blank
	 * separated, their tx queue counts in the same order (0: not mq),
	 * and every interface planned for, for the re-probe to show. NULL
	 * when none. */
	char			*devs, *txqs, *links;
};

/* Plan want (a qdisc kind, or NULL: only list the interfaces) for the
 * interfaces of facts. An interface whose live tree already has want
 * (an mq root whose leaves all have it) is not set; a local one (lo) is
 * left alone with a warning. Clear p with qdisc_plan_clear. */
void	qdisc_plan_compute(const json_t *facts, const char *want,
	    struct qdisc_plan *p);
void	qdisc_plan_clear(struct qdisc_plan *p);

/* The root qdisc tree of dev in facts ("interfaces", else the default
 * route's own for its interface), or NULL. */
const json_t *qdisc_plan_live(const json_t *facts, const char *dev);

#endif
