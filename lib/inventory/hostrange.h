/* Ansible host ranges and addresses: "web[01:50].example.com" (zero padding
 * kept), strides "[01:50:2]", letters "db-[a:f]", several ranges in one
 * name, and the optional ":port" suffix of inventory host keys. */
#ifndef TCPTUNE_HOSTRANGE_H
#define TCPTUNE_HOSTRANGE_H

#include <stddef.h>

/* The most names one pattern may expand to: the product of its ranges
 * (h[0:9][0:9] is 100), not each range alone. */
#define HOSTRANGE_MAX_NAMES	100000

/* Expand every [begin:end(:step)] in pattern, in order, as Ansible's
 * expand_hostname_range does. A name without '[' expands to itself. The
 * result is an allocated array of allocated strings. Errors carry no
 * position: callers prefix it. */
int	hostrange_expand(const char *pattern, char ***names, size_t *n,
	    char **cause);
void	hostrange_free(char **names, size_t n);

/* Ansible's parse_address(allow_ranges=True): split "host:port" or
 * "[v6]:port" when the rest is a valid host name, IPv4 or IPv6 address
 * (ranges allowed). *port is -1 without a port. Returns the host part
 * (allocated), or the whole string unchanged when it does not parse. */
char	*hostrange_parse_address(const char *s, int *port, int *parsed);

#endif
