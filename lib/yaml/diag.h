/* Diagnostics: a list of positioned error messages.
 *
 * Loading and linting collect every error they can find instead of stopping
 * at the first, so that `tcptune lint` reports them all at once. Each message
 * is complete ("file:line:col: message", lower-case, no full stop) and owned
 * by the diag. A zeroed struct diag (or DIAG_INIT) is empty and ready. */
#ifndef TCPTUNE_DIAG_H
#define TCPTUNE_DIAG_H

#include <stddef.h>

#include "yaml/ydoc.h"

struct diag {
	char	**msgs;
	size_t	  n;
};

#define DIAG_INIT { NULL, 0 }

void		 diag_init(struct diag *d);
/* Free every message and leave d empty and reusable. */
void		 diag_clear(struct diag *d);
/* Add "file:line:col: message"; pos may be NULL (no position). Both
 * return -1 so that a failing check can `return diag_add(...)`. */
int		 diag_add(struct diag *d, const struct ypos *pos,
		    const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int		 diag_addf(struct diag *d, const char *fmt, ...)
		    __attribute__((format(printf, 2, 3)));
/* Take ownership of an allocated, already positioned message (such as a
 * *cause); NULL adds "unknown error". Returns -1. */
int		 diag_take(struct diag *d, char *msg);
size_t		 diag_count(const struct diag *d);
/* Message i (0 <= i < diag_count). */
const char	*diag_get(const struct diag *d, size_t i);

/* Levenshtein distance between two strings. */
size_t		 edit_distance(const char *a, const char *b);
/* The candidate closest to word, if it is close enough to be a plausible
 * typo (distance <= 2 and less than the candidate's length), else NULL.
 * Ties go to the earliest candidate. */
const char	*did_you_mean(const char *word, const char *const *cands,
		    size_t n);

#endif
