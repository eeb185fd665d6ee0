#include "cmd-common.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "playbook/extravars.h"
#include "inventory/inventory.h"
#include "output.h"
#include "prompt.h"
#include "say.h"
#include "run/runner.h"
#include "net/transport.h"
#include "vault/vault.h"

struct inventory *
cmd_load_inventory(const struct options *opts)
{
	struct inventory	*inv = inventory_new();
	char			*cause = NULL;
	size_t			 i;

	if (cmd_vault_setup(opts) != 0) {
		inventory_free(inv);
		return NULL;
	}
	if (opts->ninventories == 0) {
		cmd_error("no inventory: give -i FILE (or set "
		    "TCPTUNE_INVENTORY, ANSIBLE_INVENTORY or inventory in "
		    "ansible.cfg)");
		inventory_free(inv);
		return NULL;
	}
	for (i = 0; i < opts->ninventories; i++) {
		if (inventory_add_source(inv, opts->inventories[i],
		    &cause) != 0)
			goto fail;
	}
	if (inventory_finish(inv, &cause) != 0)
		goto fail;
	for (i = 0; i < inv->nwarnings; i++)
		say_warning(NULL, "%s", inv->warnings[i]);
	return inv;
fail:
	cmd_error("%s", cause);
	free(cause);
	inventory_free(inv);
	return NULL;
}

json_t *
cmd_extra_vars(const struct options *opts)
{
	char	*cause = NULL;
	json_t	*v;

	v = extravars_parse(opts->extra_vars, opts->nextra_vars, &cause);
	if (v == NULL) {
		cmd_error("%s", cause);
		free(cause);
	}
	return v;
}

int
cmd_ask_become_pass(const struct options *opts, char **out)
{
	char *cause = NULL;

	*out = NULL;
	/* Listing contacts no host, so it needs no password (nor does
	 * ansible-playbook ask for one with --list-hosts/--list-tasks). */
	if (!opts->ask_become_pass || opts->list_hosts || opts->list_tasks)
		return 0;
	/* ansible-playbook's prompt, word for word. */
	if ((*out = prompt_secret("BECOME password: ", "become password",
	    &cause)) == NULL) {
		cmd_error("%s", cause);
		free(cause);
		return -1;
	}
	if (**out == '\0') {
		secret_free(*out);
		*out = NULL;
		return 0;
	}
	/* Never sent but on sudo's stdin; should a message ever quote it,
	 * the printer and the run log redact it like a vault value. */
	vault_remember(*out, strlen(*out));
	return 0;
}

static void
on_sigint(int sig)
{
	(void)sig;
	if (runner_interrupted) {
		/* A second Ctrl-C means now. */
		signal(SIGINT, SIG_DFL);
		raise(SIGINT);
	}
	runner_interrupted = 1;
}

void
cmd_catch_interrupt(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_sigint;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

int
cmd_adhoc(struct options *opts, const struct module *m,
    void (*report)(const struct runner *))
{
	struct inventory	*inv;
	struct runner		 r;
	struct run_config	 cfg;
	struct output		 out;
	char			*cause = NULL, *become_pass;
	json_t			*extra;
	int			 rc;

	if (cmd_ask_become_pass(opts, &become_pass) != 0)
		return EXIT_COULD_NOT_RUN;
	if ((inv = cmd_load_inventory(opts)) == NULL) {
		secret_free(become_pass);
		return EXIT_COULD_NOT_RUN;
	}
	if ((extra = cmd_extra_vars(opts)) == NULL) {
		secret_free(become_pass);
		inventory_free(inv);
		return EXIT_COULD_NOT_RUN;
	}
	transport_global_init();
	run_config_from_options(&cfg, opts);
	cfg.extra_vars = extra;
	cfg.become_password = become_pass;
	/* Printed as they come (the facts tables from the hosts' facts; the
	 * json document spools each result as it is reported). */
	cfg.lean_results = 1;
	output_init(&out, opts);
	output_attach(&out, &cfg);
	cmd_catch_interrupt();
	if (runner_init(&r, &cfg, inv, &cause) != 0 ||
	    runner_adhoc(&r, opts->nargs > 0 ? opts->args[0] : "all", m, NULL,
	    &cause) != 0) {
		rc = cmd_error("%s", cause);
		free(cause);
		goto out;
	}
	if (report != NULL && opts->format == FORMAT_TEXT)
		report(&r);
	output_finish(&out, &r);
	rc = runner_exit_status(&r);
out:
	runner_free(&r);
	output_free(&out);
	json_decref(extra);
	inventory_free(inv);
	secret_free(become_pass);
	return rc;
}
