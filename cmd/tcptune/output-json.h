/* The one document of --format json, written as the run goes, so that
 * its memory follows --forks and not the fleet (docs/output.md).
 *
 * A host's results are grouped under its name, and a host's results come
 * at different times, between other hosts' results. So each result is
 * written once it is reported, as JSON text, to a spool file (tmpfile(3):
 * the heap keeps only its offset and length), and at the end of each batch
 * the batch's hosts, in inventory order, are copied from the spool to the
 * document. The keys the run knows only at its end (stats, warnings,
 * matrix, stopped, interrupted) follow "plays".
 *
 * Lifecycle: jdoc_init, then jdoc_play_start for each play, jdoc_result
 * for each result reported, jdoc_batch_done after each batch, and
 * jdoc_finish once; jdoc_free closes a document the run left open (an
 * error stopped it: the document still parses, without "stats"). */
#ifndef TCPTUNE_OUTPUT_JSON_H
#define TCPTUNE_OUTPUT_JSON_H

#include <stdio.h>

#include <jansson.h>

#include "run/runner.h"

struct jdoc_rec {
	const char	*host;		/* the runner's h->name: stable */
	long		 off;
	size_t		 len;
};

struct jdoc {
	FILE		*out;
	FILE		*spool;		/* NULL until the first result */
	long		 spool_end;
	char		*membuf;	/* the spool in memory, without tmpfile */
	size_t		 memlen;
	struct jdoc_rec	*recs;		/* this batch's results, as they came */
	size_t		 nrecs;
	size_t		 cap;
	int		 opened;	/* the document's head is out */
	int		 finished;
	size_t		 nplays;
	size_t		 nhosts;	/* hosts written in the running play */
};

void	jdoc_init(struct jdoc *d, FILE *out);
void	jdoc_play_start(struct jdoc *d, const char *name, const char *hosts,
	    size_t host_count);
/* A result as it is reported (under the runner's lock: one at a time),
 * host being the runner's own name string. */
void	jdoc_result(struct jdoc *d, const char *host,
	    const struct task_result *tr);
void	jdoc_batch_done(struct jdoc *d, struct host_state **hosts, size_t n);
/* Close the document with tail's keys (an object; borrowed). */
void	jdoc_finish(struct jdoc *d, json_t *tail);
void	jdoc_free(struct jdoc *d);

#endif
