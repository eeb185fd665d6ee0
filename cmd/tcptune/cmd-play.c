/* tcptune play PLAYBOOK: run a playbook; `plan` is play --check --diff. */
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd-common.h"
#include "cmd-look.h"
#include "yaml/diag.h"
#include "base/util.h"
#include "inventory/inventory.h"
#include "output.h"
#include "say.h"
#include "output-matrix.h"
#include "playbook/playbook.h"
#include "prompt.h"
#include "run/runner.h"
#include "net/transport.h"
#include "vars-prompt.h"
#include "base/xalloc.h"

static struct playbook *
load_playbook(const char *path)
{
	struct playbook	*pb = NULL;
	struct diag	 d = DIAG_INIT;
	size_t		 i;

	if (playbook_load(path, &pb, &d) != 0) {
		for (i = 0; i < diag_count(&d); i++)
			fprintf(stderr, "%s\n", diag_get(&d, i));
		cmd_error("'%s' has %zu error%s; nothing was "
		    "run", path, diag_count(&d), diag_count(&d) == 1 ? "" :
		    "s");
	}
	diag_clear(&d);
	/* what loaded but runs unlike Ansible, said before anything runs */
	for (i = 0; pb != NULL && i < diag_count(&pb->warnings); i++)
		say_warning(NULL, "%s", diag_get(&pb->warnings, i));
	return pb;
}

/* Whether any host would change (check mode) or changed. */
static int
any_changed(const struct runner *r)
{
	size_t i;

	for (i = 0; i < r->nhosts; i++) {
		if (r->hosts[i]->stats.changed > 0)
			return 1;
	}
	return 0;
}

int
cmd_run_playbook(struct options *opts, int drift,
    int (*report)(const struct options *, const struct runner *, double,
    const json_t *))
{
	struct inventory	*inv = NULL;
	struct playbook		*pb = NULL;
	struct runner		 r;
	struct run_config	 cfg;
	struct output		 out;
	struct run_matrix	 rm = { .built = 0 };
	const json_t		*mvar;
	json_t			*extra = NULL;
	char			*cause = NULL, *dir, *become_pass = NULL;
	int			 rc = EXIT_COULD_NOT_RUN, started = 0;
	double			 start = monotonic_seconds();

	if (cmd_vault_setup(opts) != 0 ||
	    (pb = load_playbook(opts->args[0])) == NULL)
		return EXIT_COULD_NOT_RUN;
	if (cmd_ask_become_pass(opts, &become_pass) != 0)
		goto out;
	if ((inv = cmd_load_inventory(opts)) == NULL)
		goto out;
	/* group_vars/ and host_vars/ next to the playbook, as in Ansible. */
	dir = xstrdup(opts->args[0]);
	if (inventory_add_vars_root(inv, dirname(dir), &cause) != 0) {
		cmd_error("%s", cause);
		free(dir);
		goto out;
	}
	free(dir);
	if ((extra = cmd_extra_vars(opts)) == NULL)
		goto out;
	if (cmd_look(opts, pb, inv, &rc) != 0)
		goto out;
	if (cmd_vars_prompt(pb, extra) != 0)
		goto out;
	mvar = run_matrix_var(extra, pb);
	if (report == NULL && run_matrix_check(opts, inv, mvar) != 0)
		goto out;
	transport_global_init();
	run_config_from_options(&cfg, opts);
	cfg.extra_vars = extra;
	cfg.become_password = become_pass;
	cfg.playbook_path = opts->args[0];
	cfg.drift = drift;
	/* A plan's results are printed as they come and read no more
	 * (drift's report and play's iperf3 tables read theirs after; the
	 * json document spools each result as it is reported). */
	cfg.lean_results = opts->check && !drift;
	output_init(&out, opts);
	output_attach(&out, &cfg);
	/* The report prints its own result; keep only the progress and the
	 * warnings (and the run log's events). */
	if (report != NULL && (opts->verbose == 0 ||
	    opts->format == FORMAT_JSON))
		output_quiet(&out);
	cmd_catch_interrupt();
	started = 1;
	if (runner_init(&r, &cfg, inv, &cause) != 0 ||
	    runner_play(&r, pb, &cause) != 0) {
		cmd_error("%s", cause);
		goto out;
	}
	if (report != NULL) {
		output_quiet(&out);
		output_finish(&out, &r);
		rc = report(opts, &r, monotonic_seconds() - start,
		    out.warnings);
		goto out;
	}
	run_matrix_build(&rm, &out, &r, mvar);
	output_finish(&out, &r);
	/* The before/after iperf3 tables, like the seeds', then the path
	 * matrix over them. */
	if (opts->format == FORMAT_TEXT)
		output_verify_tables(&r);
	rc = runner_exit_status(&r) | run_matrix_finish(&rm, opts);
	if (opts->check && opts->detailed_exitcode && any_changed(&r))
		rc |= EXIT_CHANGES;
out:
	run_matrix_free(&rm);
	if (started) {
		runner_free(&r);
		output_free(&out);
	}
	free(cause);
	json_decref(extra);
	inventory_free(inv);
	playbook_free(pb);
	secret_free(become_pass);
	return rc;
}

static int
cmd_play_exec(struct options *opts)
{
	return cmd_run_playbook(opts, 0, NULL);
}

static int
cmd_plan_exec(struct options *opts)
{
	opts->check = 1;
	opts->diff = 1;
	return cmd_run_playbook(opts, 0, NULL);
}

const struct cmd_entry cmd_play_entry = {
	.name = "play",
	.alias = "playbook",
	.usage = "PLAYBOOK [-C] [-D] [--detailed-exitcode]",
	.summary = "run a playbook over the inventory",
	.accepts = OPT_CHECK | OPT_TAGS | OPT_LOOK | OPT_STREAM | OPT_MATRIX |
	    OPT_CONFIRM,
	.min_args = 1,
	.max_args = 1,
	.exec = cmd_play_exec,
};

const struct cmd_entry cmd_plan_entry = {
	.name = "plan",
	.usage = "PLAYBOOK [--detailed-exitcode]",
	.summary = "what play would change (play --check --diff): changes "
		   "nothing",
	.accepts = OPT_CHECK | OPT_TAGS | OPT_LOOK | OPT_STREAM,
	.min_args = 1,
	.max_args = 1,
	.exec = cmd_plan_exec,
};
