/* tcptune lint [PLAYBOOK...]: check playbooks (and the -i inventories)
 * offline, list every error with file:line:col, exit 1 if there was any. */
#include <stdio.h>
#include <stdlib.h>

#include "cmd-common.h"
#include "yaml/diag.h"
#include "inventory/inventory.h"
#include "inventory/pattern.h"
#include "playbook/playbook.h"

static size_t
lint_playbook(const char *path, const struct inventory *inv)
{
	struct playbook	*pb = NULL;
	struct diag	 d = DIAG_INIT;
	size_t		 i, nerr, ntasks = 0;

	if (playbook_load(path, &pb, &d) == 0 && inv != NULL) {
		/* Patterns are checked against the inventory they will use. */
		for (i = 0; i < pb->nplays; i++) {
			char	**hosts = NULL, *cause = NULL;
			size_t	  n = 0;

			if (inventory_select(inv, pb->plays[i].hosts, &hosts, &n,
			    &cause) != 0)
				diag_add(&d, &pb->plays[i].pos, "%s", cause);
			else if (n == 0)
				fprintf(stderr, "%s:%d:%d: warning: hosts '%s' "
				    "matches no host of the inventory\n",
				    pb->plays[i].pos.file, pb->plays[i].pos.line,
				    pb->plays[i].pos.col, pb->plays[i].hosts);
			free(cause);
			pattern_hosts_free(hosts, n);
		}
	}
	nerr = diag_count(&d);
	for (i = 0; i < nerr; i++)
		fprintf(stderr, "%s\n", diag_get(&d, i));
	if (nerr == 0 && pb != NULL) {
		for (i = 0; i < pb->nplays; i++)
			ntasks += pb->plays[i].ntasks;
		printf("%s: ok (%zu play%s, %zu task%s)\n", path, pb->nplays,
		    pb->nplays == 1 ? "" : "s", ntasks, ntasks == 1 ? "" : "s");
	}
	diag_clear(&d);
	playbook_free(pb);
	return nerr;
}

static int
cmd_lint_exec(struct options *opts)
{
	struct inventory	*inv = NULL;
	size_t			 errors = 0;
	int			 i;

	if (opts->nargs == 0 && opts->ninventories == 0)
		return cmd_error("usage: tcptune lint [-i INVENTORY] "
		    "[PLAYBOOK...]");
	/* vars_files and playbooks may be vaulted */
	if (cmd_vault_setup(opts) != 0)
		return EXIT_COULD_NOT_RUN;
	if (opts->ninventories > 0) {
		if ((inv = cmd_load_inventory(opts)) == NULL)
			return EXIT_COULD_NOT_RUN;
		printf("inventory: ok (%zu hosts, %zu groups)\n", inv->nhosts,
		    inv->ngroups);
	}
	for (i = 0; i < opts->nargs; i++)
		errors += lint_playbook(opts->args[i], inv);
	inventory_free(inv);
	if (errors > 0) {
		fprintf(stderr, "%zu error%s\n", errors, errors == 1 ? "" :
		    "s");
		return EXIT_COULD_NOT_RUN;
	}
	return 0;
}

const struct cmd_entry cmd_lint_entry = {
	.name = "lint",
	.usage = "[-i INVENTORY] [PLAYBOOK...]",
	.summary = "check playbooks and inventories offline; list every error",
	.min_args = 0,
	.max_args = -1,
	.exec = cmd_lint_exec,
};
