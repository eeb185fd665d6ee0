/* The interfaces that carry a host's traffic, read from its probe facts
 * (docs/facts.md): the default route's, and the one `ip route get` names
 * for each target the probe routed (facts "routes": the host's peers and
 * var rtt_to), each with the link facts the probe showed of it (facts
 * "interfaces": MTU, speed, tx queues, the live qdisc tree).
 *
 * A qdisc matters where the traffic leaves, and a host with a second NIC
 * (a private network to its peers, a management NIC with the default
 * route) sends its peers' traffic out of an interface that is not the
 * default route's: the congestion module plans the qdisc of each one found
 * here, and drift compares each. Where no interface can be determined (a
 * peer with no route, no default route and no peers) error says why:
 * never "nothing to do". Pure. */
#ifndef TCPTUNE_TRAFFIC_H
#define TCPTUNE_TRAFFIC_H

#include <jansson.h>
#include <stddef.h>

struct traffic_iface {
	char		*dev;
	const json_t	*link;		/* facts.interfaces[dev]; NULL when
					 * the probe did not show it */
	char		*carries;	/* "the default route; traffic to eu1,
					 * eu2" */
	int		 local;		/* only local addresses (lo): there is
					 * no qdisc of ours to set */
	size_t		 ntargets;	/* targets routed out of it */
};

struct traffic {
	struct traffic_iface	*ifs;	/* the default route's first, then
					 * in the order the targets were
					 * routed */
	size_t			 n;
	char			*error;	/* no interface for some traffic:
					 * why, or NULL */
	char			**warnings;
	size_t			 nwarnings;
};

/* Find the interfaces of facts into t (clear it with traffic_clear). A
 * target is named by its peer (facts "peers": name -> address), else by
 * its address. */
void	traffic_find(const json_t *facts, struct traffic *t);
void	traffic_clear(struct traffic *t);

/* The interface dev of t, or NULL. */
const struct traffic_iface *traffic_get(const struct traffic *t,
	    const char *dev);

#endif
