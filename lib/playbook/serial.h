/* serial: rolling batch sizes, as Ansible computes them.
 *
 * A play's `serial` is an int, a percentage string "NN%", or a list of
 * those whose last item repeats until every host has had its turn.
 * Percentages are of the play's whole host count, rounded down but at
 * least 1. 0 (or no serial at all) means every host in one batch. */
#ifndef TCPTUNE_SERIAL_H
#define TCPTUNE_SERIAL_H

#include <jansson.h>
#include <stddef.h>

struct serial_item {
	int	percent;	/* value is a percentage of all hosts */
	long	value;		/* hosts, or percent 0..100; 0: all hosts */
};

struct serial_spec {
	struct serial_item	*items;	/* NULL/0: absent, all hosts at once */
	size_t			 n;
};

/* Parse a YAML-typed serial value (int, "NN", "NN%", or a non-empty list of
 * those). Fills *out (owned by the caller, free with serial_free); on error
 * returns -1 with *cause ("expected ..."), without position. */
int	serial_parse(const json_t *v, struct serial_spec *out, char **cause);
void	serial_free(struct serial_spec *s);

/* Hosts in batch number batch_index (0-based) of a run over total_hosts
 * hosts: the nominal size of that batch clamped to the hosts still left, so
 * 0 means there is no such batch. A runner iterates
 *   for (i = 0; (n = serial_batch_size(s, i, total)) > 0; i++) ...
 * s may be NULL (all hosts in one batch). */
size_t	serial_batch_size(const struct serial_spec *s, size_t batch_index,
	    size_t total_hosts);

/* "1, 25%" style description for messages; allocated. */
char	*serial_str(const struct serial_spec *s);

#endif
