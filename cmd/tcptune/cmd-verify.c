/* tcptune verify [PATTERN] [KEY=VALUE...]: run iperf3_verify ad hoc on the
 * hosts matching PATTERN (default all): the runner measures the pairs of
 * their iperf3 peers in rounds (docs/verify.md), the schedule shown first,
 * and each pair's table is printed once before the recap.
 *
 * KEY=VALUE are the module's parameters (`tcptune modules iperf3_verify`),
 * e.g. `tcptune verify web duration=5 parallel=8 reverse=no`; a value
 * starting with '[' or '{' is read as JSON (pairs='[{"host": "a", "peer":
 * "b"}]'). They are checked before any host is contacted. One ad-hoc run
 * has no earlier baseline, so it measures and shows the figures (phase
 * auto = before); the gate applies within a play. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "playbook/bind.h"
#include "cmd-common.h"
#include "inventory/inventory.h"
#include "playbook/module.h"
#include "output.h"
#include "output-matrix.h"
#include "prompt.h"
#include "run/runner.h"
#include "net/transport.h"
#include "base/xalloc.h"
#include "yaml/ydoc.h"

extern const struct module mod_iperf3_verify;

/* The KEY=VALUE arguments as a parameter object; -1 on a bad one. */
static int
parse_params(struct options *opts, int first, json_t **out)
{
	json_t		*args = json_object(), *v;
	json_error_t	 jerr;
	const char	*a, *eq;
	char		*key;
	int		 i;

	for (i = first; i < opts->nargs; i++) {
		a = opts->args[i];
		if ((eq = strchr(a, '=')) == NULL || eq == a) {
			cmd_error("expected KEY=VALUE, got '%s'", a);
			goto bad;
		}
		key = xstrndup(a, eq - a);
		if (eq[1] == '[' || eq[1] == '{') {
			if ((v = json_loads(eq + 1, 0, &jerr)) == NULL) {
				cmd_error("'%s': not JSON: %s", key, jerr.text);
				free(key);
				goto bad;
			}
		} else
			v = json_string(eq + 1);
		json_object_set_new(args, key, v);
		free(key);
	}
	*out = args;
	return 0;
bad:
	json_decref(args);
	return -1;
}

static int
cmd_verify_exec(struct options *opts)
{
	struct inventory	*inv = NULL;
	struct runner		 r;
	struct run_config	 cfg;
	struct output		 out;
	struct run_matrix	 rm = { .built = 0 };
	struct ypos		 pos = { "<command line>", 1, 1 };
	const char		*pattern = "all";
	json_t			*params = NULL, *args = NULL, *extra = NULL;
	char			*cause = NULL, *become_pass = NULL;
	int			 first = 0, rc, started = 0;

	if (opts->nargs > 0 && strchr(opts->args[0], '=') == NULL) {
		pattern = opts->args[0];
		first = 1;
	}
	if (parse_params(opts, first, &params) != 0)
		return EXIT_COULD_NOT_RUN;
	if (bind_rendered_args(&mod_iperf3_verify, params, NULL, &pos, &args,
	    NULL, &cause) != 0) {
		rc = cmd_error("%s", cause);
		free(cause);
		json_decref(params);
		return rc;
	}
	json_decref(args);
	if (cmd_ask_become_pass(opts, &become_pass) != 0 ||
	    (inv = cmd_load_inventory(opts)) == NULL ||
	    (extra = cmd_extra_vars(opts)) == NULL ||
	    run_matrix_check(opts, inv, run_matrix_var(extra, NULL)) != 0) {
		secret_free(become_pass);
		json_decref(params);
		json_decref(extra);
		inventory_free(inv);
		return EXIT_COULD_NOT_RUN;
	}
	transport_global_init();
	run_config_from_options(&cfg, opts);
	cfg.become_password = become_pass;
	output_init(&out, opts);
	output_attach(&out, &cfg);
	cmd_catch_interrupt();
	if (runner_init(&r, &cfg, inv, &cause) != 0) {
		rc = cmd_error("%s", cause);
		free(cause);
		goto out;
	}
	started = 1;
	/* The runner binds (and fills defaults) per host, from the same
	 * parameters checked above. */
	if (runner_adhoc(&r, pattern, &mod_iperf3_verify, params,
	    &cause) != 0) {
		rc = cmd_error("%s", cause);
		free(cause);
		goto out;
	}
	run_matrix_build(&rm, &out, &r, run_matrix_var(extra, NULL));
	if (opts->format == FORMAT_TEXT)
		output_verify_tables(&r);
	rc = run_matrix_finish(&rm, opts);
	output_finish(&out, &r);
	rc |= runner_exit_status(&r);
out:
	run_matrix_free(&rm);
	if (started)
		runner_free(&r);
	output_free(&out);
	inventory_free(inv);
	json_decref(params);
	json_decref(extra);
	secret_free(become_pass);
	return rc;
}

const struct cmd_entry cmd_verify_entry = {
	.name = "verify",
	.usage = "[PATTERN] [KEY=VALUE...]",
	.accepts = OPT_STREAM | OPT_MATRIX,
	.summary = "measure every pair of the hosts' iperf3 peers, in rounds "
		   "(iperf3_verify ad hoc)",
	.min_args = 0,
	.max_args = -1,
	.exec = cmd_verify_exec,
};
