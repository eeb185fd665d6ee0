/* The path matrix of a play or verify run (lib/report/matrix.h): checked
 * before the run, built from the run's iperf3_verify results after it,
 * then printed (text, after the per-pair tables), put in the JSON output
 * ("matrix"), and written to --prometheus FILE and --report FILE.html.
 * docs/verify.md, "The path matrix". */
#ifndef TCPTUNE_OUTPUT_MATRIX_H
#define TCPTUNE_OUTPUT_MATRIX_H

#include "output.h"
#include "report/matrix.h"

struct playbook;

struct run_matrix {
	struct matrix_input	 in;
	struct matrix_groups	 groups;
	struct matrix		 m;
	int			 built;
};

/* The matrix_groups var: -e's, else the first play's of pb (may be NULL)
 * that sets it, else NULL (the default rule). Borrowed. */
const json_t	*run_matrix_var(const json_t *extra,
		    const struct playbook *pb);
/* Before any host is contacted: var names groups of inv, and the files of
 * --report and --prometheus can be written. Prints, returns -1. */
int		 run_matrix_check(const struct options *opts,
		    const struct inventory *inv, const json_t *var);
/* After the run, before output_finish: build the matrix from the run's
 * results and give --format json/jsonl their "matrix". */
void		 run_matrix_build(struct run_matrix *rm, struct output *o,
		    const struct runner *r, const json_t *var);
/* After output_finish (text: after the per-pair tables): print the table
 * and write the files. Returns exit bits (EXIT_HOST_FAILED when a file
 * could not be written), else 0. */
int		 run_matrix_finish(struct run_matrix *rm,
		    const struct options *opts);
void		 run_matrix_free(struct run_matrix *rm);

#endif
