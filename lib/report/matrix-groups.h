/* Which group of the path matrix each measured host is in.
 *
 * - matrix_groups given (a list of inventory group names, or one string of
 *   comma-separated names): those groups, in that order; a host goes to the
 *   first listed group it is in (directly or through children); a pair
 *   with a host in none of them is left out and counted (unassigned).
 * - otherwise the inventory's groups that partition the measured hosts
 *   (every host that ran a test or served as a peer in exactly one of
 *   them), preferring the partition with the most groups (the most
 *   specific), then the deeper groups, then inventory order. 'all',
 *   'ungrouped', a group holding every measured host and a group holding
 *   none are never candidates; two groups with the same measured hosts
 *   count once (the deeper). The search is bounded (about two million
 *   steps); past that the best partition found so far is kept.
 * - when no set of groups partitions the hosts: one group named "all". */
#ifndef TCPTUNE_MATRIX_GROUPS_H
#define TCPTUNE_MATRIX_GROUPS_H

#include <jansson.h>

#include "inventory/inventory.h"
#include "report/matrix.h"

/* Fill g (initialised here) for the hosts of in. var is the
 * matrix_groups value or NULL. -1 and *cause ("matrix_groups: ...") when
 * var is not a list of group names of inv; g is then empty. With an empty
 * input this only checks var: do it before any host is contacted. */
int	matrix_groups_choose(struct matrix_groups *g,
	    const struct inventory *inv, const json_t *var,
	    const struct matrix_input *in, char **cause);

#endif
