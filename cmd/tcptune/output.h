/* Printing a run: Ansible-like task lines as each host finishes and the
 * recap, with a live progress line when stderr is a terminal; one JSON event
 * per line (--format jsonl); or one JSON document (--format json), written
 * batch by batch (output-json.c). docs/output.md describes them. */
#ifndef TCPTUNE_OUTPUT_H
#define TCPTUNE_OUTPUT_H

#include <stdio.h>

#include "cmd.h"
#include "output-json.h"
#include "run/runner.h"

struct output {
	const struct options	*opts;
	int			 progress;	/* live line on stderr */
	int			 progress_shown;
	double			 start;
	struct jdoc		*doc;		/* --format json, streamed */
	json_t			*matrix;	/* for the document's end */
	const char		*play;		/* the running play's name */
	const char		*task;		/* the last task header */
	json_t			*warnings;	/* [{host, msg}] as they came */
	int			 quiet;		/* a report prints instead */
};

void	output_init(struct output *o, const struct options *opts);
/* Print no results (a report prints its own): only the progress line,
 * warnings on stderr, and the events to the run log. */
void	output_quiet(struct output *o);
/* Wire the callbacks of a run_config to this output. */
void	output_attach(struct output *o, struct run_config *cfg);
/* Print the recap (text) or the document's end (json); the recap event
 * to jsonl and the run log. */
void	output_finish(struct output *o, const struct runner *r);
/* Print every iperf3_verify table of the run's results (data "table"),
 * hosts in inventory order, each after a blank line. */
void	output_verify_tables(const struct runner *r);
/* The run's path matrix (a new reference, taken): --format json puts it
 * in the document as "matrix", jsonl emits a "matrix" event (before the
 * recap); text ignores it (output-matrix.c prints its table). */
void	output_add_matrix(struct output *o, json_t *matrix);
void	output_free(struct output *o);
/* Fill the run_config fields that come from global options. */
int	run_config_from_options(struct run_config *cfg,
	    const struct options *opts);

#endif
