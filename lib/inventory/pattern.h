/* Host patterns, as Ansible evaluates them for plays' `hosts:` and for
 * --limit: names, groups, 'all' or '*', shell globs (fnmatch), '~regex'
 * (POSIX ERE, anchored at the start like Python's re.match), unions with
 * ',' or ':', intersections ':&g', exclusions ':!g', subscripts 'g[0]',
 * 'g[-1]', 'g[0:2]' (inclusive), 'g[1:]', and '@file' (one pattern per
 * line; Ansible allows it only in --limit, we allow it everywhere).
 *
 * Evaluation: the plain patterns first (their union, in pattern order),
 * then each intersection, then each exclusion; a list of only & and !
 * patterns starts from 'all'. The order of the result is Ansible's: the
 * order in which the union found the hosts (a group contributes its hosts
 * in inventory order, its own before its children's). */
#ifndef TCPTUNE_PATTERN_H
#define TCPTUNE_PATTERN_H

#include <stddef.h>

struct inventory;

/* Split a pattern string into single patterns like Ansible's
 * split_host_pattern, expanding '@file' entries. */
int	pattern_split(const char *pattern, char ***parts, size_t *n,
	    char **cause);

/* Hosts matched by pattern: an allocated array of allocated names.
 * Matching nothing is not an error (0 with *n == 0): a play with no hosts
 * is skipped, while --limit should say "--limit 'x' matches no hosts";
 * the caller decides. Errors: a bad regex, a subscript out of range, an
 * unreadable @file. */
int	inventory_select(const struct inventory *inv, const char *pattern,
	    char ***hosts, size_t *n, char **cause);
/* inventory_select(pattern) restricted to the hosts limit selects (limit
 * may be NULL), keeping pattern's order. */
int	inventory_select_limit(const struct inventory *inv,
	    const char *pattern, const char *limit, char ***hosts, size_t *n,
	    char **cause);
void	pattern_hosts_free(char **hosts, size_t n);

#endif
