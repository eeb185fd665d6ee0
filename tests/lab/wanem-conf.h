/* wanem configuration: hosts (network namespaces with a WAN address) and
 * pipes (one per ordered host pair) with delay, rate, queue and loss.
 *
 * File format, one statement a line, '#' starts a comment:
 *
 *	host NAME NETNS ADDRESS
 *	link A B [delay=52ms] [rate=100mbit] [queue=bdp|BYTES] [loss=P]
 *	    [mtu=BYTES]
 *	pipe A B [options]	(one direction only, A to B)
 *	default [options]	(every host pair with no link or pipe)
 *
 * A link is two pipes, A to B and B to A, with the same options. */
#ifndef WANEM_CONF_H
#define WANEM_CONF_H

#include <stddef.h>
#include <stdint.h>

#include <netinet/in.h>

struct wan_host {
	char		*name;
	char		*netns;		/* name under /run/netns */
	struct in_addr	 addr;
	int		 line;
};

struct wan_pipe_conf {
	uint64_t	 delay_ns;	/* one-way propagation delay */
	uint64_t	 rate_bps;	/* bit/s; 0 means no rate limit */
	uint64_t	 queue_bytes;	/* drop-tail limit; 0 means none */
	double		 loss;		/* probability in [0, 1] */
	/* The largest IPv4 packet the pipe carries; larger ones are dropped
	 * without an ICMP "fragmentation needed": a router with a smaller
	 * MTU whose ICMP is filtered (an MTU blackhole). 0: no limit. */
	uint32_t	 mtu;
	int		 line;		/* where it was defined, 0 if unset */
};

struct wan_conf {
	char			*path;
	struct wan_host		*hosts;
	size_t			 nhosts;
	/* nhosts * nhosts entries, [src * nhosts + dst]; line 0 = no pipe. */
	struct wan_pipe_conf	*pipes;
	struct wan_pipe_conf	 dflt;		/* line 0 = no default */
};

/* Parse path into conf. On failure returns -1 and sets *cause to a message
 * of the form "FILE:LINE: what is wrong". conf must be freed either way. */
int	 wan_conf_load(struct wan_conf *conf, const char *path, char **cause);
/* Parse one option list (the words after "link A B") into pc. Exposed so the
 * option syntax has one implementation. */
int	 wan_conf_parse_opts(struct wan_pipe_conf *pc, char **words,
	    size_t nwords, char **cause);
/* The pipe configuration from src to dst, or NULL if the pair is unlinked. */
const struct wan_pipe_conf *wan_conf_pipe(const struct wan_conf *conf,
	    size_t src, size_t dst);
void	 wan_conf_free(struct wan_conf *conf);

#endif
