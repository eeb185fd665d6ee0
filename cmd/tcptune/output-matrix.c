/* The path matrix of a run: from the runner's results to the terminal,
 * the JSON output and the report files; see output-matrix.h. */
#include "output-matrix.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/atomicfile.h"
#include "inventory/inventory.h"
#include "playbook/playbook.h"
#include "report/matrix-groups.h"
#include "report/matrix-html.h"
#include "report/matrix-prom.h"
#include "run/runner.h"

const json_t *
run_matrix_var(const json_t *extra, const struct playbook *pb)
{
	const json_t	*v;
	size_t		 i;

	if ((v = json_object_get(extra, "matrix_groups")) != NULL)
		return v;
	for (i = 0; pb != NULL && i < pb->nplays; i++) {
		if ((v = json_object_get(pb->plays[i].vars,
		    "matrix_groups")) != NULL)
			return v;
	}
	return NULL;
}

int
run_matrix_check(const struct options *opts, const struct inventory *inv,
    const json_t *var)
{
	struct matrix_groups	g;
	struct matrix_input	none;
	char			*cause = NULL;
	int			 r = 0;

	matrix_input_init(&none);
	if (matrix_groups_choose(&g, inv, var, &none, &cause) != 0 ||
	    (opts->report_file != NULL &&
	    file_dir_writable(opts->report_file, &cause) != 0) ||
	    (opts->prometheus != NULL &&
	    file_dir_writable(opts->prometheus, &cause) != 0)) {
		cmd_error("%s", cause);
		free(cause);
		r = -1;
	}
	matrix_groups_release(&g);
	return r;
}

void
run_matrix_build(struct run_matrix *rm, struct output *o,
    const struct runner *r, const json_t *var)
{
	char	*cause = NULL;
	size_t	 i, j;

	memset(rm, 0, sizeof *rm);
	matrix_input_init(&rm->in);
	for (i = 0; i < r->nhosts; i++) {
		const struct host_state *h = r->hosts[i];

		for (j = 0; j < h->nresults; j++) {
			const struct task_result *tr = &h->results[j];

			if (tr->module == NULL || tr->data == NULL ||
			    strcmp(tr->module, "iperf3_verify") != 0)
				continue;
			/* The module wrote it: a bad shape is a bug there,
			 * said, and that result left out. */
			if (matrix_input_add(&rm->in, h->name, tr->data,
			    &cause) != 0) {
				fprintf(stderr, "tcptune: path matrix: %s\n",
				    cause);
				free(cause);
				cause = NULL;
			}
		}
	}
	/* Checked before the run (run_matrix_check): cannot fail now. */
	if (matrix_groups_choose(&rm->groups, r->inv, var, &rm->in,
	    &cause) != 0) {
		fprintf(stderr, "tcptune: %s\n", cause);
		free(cause);
		matrix_groups_release(&rm->groups);
		matrix_groups_init(&rm->groups, "all");
	}
	matrix_build(&rm->m, &rm->in, &rm->groups);
	rm->built = 1;
	if (rm->in.n > 0)
		output_add_matrix(o, matrix_json(&rm->m));
}

static int
write_file(const char *path, char *text, const char *what)
{
	char	*cause = NULL;
	int	 r = 0;

	if (file_replace_atomic(path, text, strlen(text), 0644, &cause) != 0) {
		fprintf(stderr, "tcptune: %s not written: %s\n", what, cause);
		free(cause);
		r = EXIT_HOST_FAILED;
	}
	free(text);
	return r;
}

int
run_matrix_finish(struct run_matrix *rm, const struct options *opts)
{
	struct timespec	 now;
	struct tm	 tm;
	char		 when[64], *t;
	int		 rc = 0;

	if (!rm->built)
		return 0;
	if (opts->format == FORMAT_TEXT && rm->in.n > 0) {
		t = matrix_text(&rm->m);
		printf("\n%s", t);
		free(t);
	}
	if (opts->check && (opts->report_file != NULL ||
	    opts->prometheus != NULL)) {
		/* Nothing was measured: keep the last real report. */
		fprintf(stderr, "tcptune: check mode: --report and "
		    "--prometheus not written\n");
		return 0;
	}
	clock_gettime(CLOCK_REALTIME, &now);
	if (opts->report_file != NULL) {
		gmtime_r(&now.tv_sec, &tm);
		strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S UTC", &tm);
		rc |= write_file(opts->report_file, matrix_html(&rm->m, when),
		    "--report");
	}
	if (opts->prometheus != NULL)
		rc |= write_file(opts->prometheus, matrix_prom(&rm->m,
		    (double)now.tv_sec + now.tv_nsec / 1e9), "--prometheus");
	return rc;
}

void
run_matrix_free(struct run_matrix *rm)
{
	if (!rm->built)
		return;
	matrix_release(&rm->m);
	matrix_groups_release(&rm->groups);
	matrix_input_release(&rm->in);
	rm->built = 0;
}
