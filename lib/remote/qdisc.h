/* What shapes a host's outgoing traffic on an interface, read from the
 * probe's qdisc fact (default_route.qdisc: the root's kind and handle, and
 * its children with their parents).
 *
 * A multiqueue NIC (virtio_net, gVNIC, ENA ... on most cloud VMs) has an mq
 * root, which only hands each tx queue to its own leaf qdisc: there the
 * leaves' kind is what matters, and what tcptune sets ("mq" is never what a
 * play asks for). Everywhere a live qdisc is compared with a planned one --
 * the plan, the check after an apply, drift -- goes through here. */
#ifndef TCPTUNE_QDISC_H
#define TCPTUNE_QDISC_H

#include <jansson.h>

/* The kind that shapes the traffic: the root's, or for an mq root the one
 * kind all its leaves share. "mixed" when the leaves differ, "mq" for an
 * mq root that lists no leaves, NULL when the probe saw no root qdisc. */
const char	*qdisc_effective(const json_t *qdisc);

/* For messages: "fq_codel", "fq on 4 mq queues", "mixed on 4 mq queues
 * (fq, fq_codel)", or "?" when unknown. Free it. */
char		*qdisc_describe(const json_t *qdisc);

#endif
