/* tcptune lint [PLAYBOOK...]: check playbooks (and the -i inventories)
 * offline, list every error with file:line:col, exit 1 if there was any.
 * --format json prints one document instead (docs/output.md). */
#include <stdio.h>
#include <stdlib.h>

#include "cmd-common.h"
#include "say.h"
#include "yaml/diag.h"
#include "inventory/inventory.h"
#include "inventory/pattern.h"
#include "playbook/playbook.h"
#include "base/xalloc.h"

/* The --format json document's "schema": raised when a field changes
 * meaning or goes away. */
#define LINT_SCHEMA	1

extern const struct cmd_entry cmd_lint_entry;

/* One playbook's verdict: its errors and warnings, and the counts when it
 * loaded. In text, printed as it goes; in json, its entry in out. */
static size_t
lint_playbook(const char *path, const struct inventory *inv, json_t *out)
{
	struct playbook	*pb = NULL;
	struct diag	 d = DIAG_INIT;
	json_t		*warnings = json_array(), *errors = json_array();
	size_t		 i, nerr, ntasks = 0;
	char		*w;

	if (playbook_load(path, &pb, &d) == 0 && inv != NULL) {
		/* Patterns are checked against the inventory they will use. */
		for (i = 0; i < pb->nplays; i++) {
			char	**hosts = NULL, *cause = NULL;
			size_t	  n = 0;

			if (inventory_select(inv, pb->plays[i].hosts, &hosts, &n,
			    &cause) != 0)
				diag_add(&d, &pb->plays[i].pos, "%s", cause);
			else if (n == 0) {
				w = xprintf("%s:%d:%d: hosts '%s' matches no "
				    "host of the inventory",
				    pb->plays[i].pos.file, pb->plays[i].pos.line,
				    pb->plays[i].pos.col, pb->plays[i].hosts);
				if (out == NULL)
					say_warning(NULL, "%s", w);
				json_array_append_new(warnings, json_string(w));
				free(w);
			}
			free(cause);
			pattern_hosts_free(hosts, n);
		}
	}
	for (i = 0; pb != NULL && i < diag_count(&pb->warnings); i++) {
		if (out == NULL)
			say_warning(NULL, "%s", diag_get(&pb->warnings, i));
		json_array_append_new(warnings,
		    json_string(diag_get(&pb->warnings, i)));
	}
	nerr = diag_count(&d);
	for (i = 0; i < nerr; i++) {
		if (out == NULL)
			fprintf(stderr, "%s\n", diag_get(&d, i));
		json_array_append_new(errors, json_string(diag_get(&d, i)));
	}
	if (nerr == 0 && pb != NULL) {
		for (i = 0; i < pb->nplays; i++) {
			size_t j;

			/* the tasks written: not the flushes and place
			 * holders of the tree */
			for (j = 0; j < pb->plays[i].ntasks; j++)
				ntasks += pb->plays[i].tasks[j].kind ==
				    TASK_MODULE || pb->plays[i].tasks[j].kind ==
				    TASK_INCLUDE || pb->plays[i].tasks[j].kind ==
				    TASK_META;
		}
		if (out == NULL)
			printf("%s: ok (%zu play%s, %zu task%s)\n", path,
			    pb->nplays, pb->nplays == 1 ? "" : "s", ntasks,
			    ntasks == 1 ? "" : "s");
	}
	if (out != NULL) {
		json_t *entry = json_pack("{s:s, s:b, s:O, s:O}", "path", path,
		    "ok", nerr == 0, "errors", errors, "warnings", warnings);

		if (nerr == 0 && pb != NULL) {
			json_object_set_new(entry, "plays",
			    json_integer((json_int_t)pb->nplays));
			json_object_set_new(entry, "tasks",
			    json_integer((json_int_t)ntasks));
		}
		json_array_append_new(out, entry);
	}
	json_decref(errors);
	json_decref(warnings);
	diag_clear(&d);
	playbook_free(pb);
	return nerr;
}

static int
cmd_lint_exec(struct options *opts)
{
	struct inventory	*inv = NULL;
	json_t			*doc = NULL, *playbooks = NULL;
	size_t			 errors = 0;
	int			 i;

	if (opts->nargs == 0 && opts->ninventories == 0)
		return say_usage(&cmd_lint_entry, "lint needs a playbook or "
		    "-i INVENTORY");
	/* vars_files and playbooks may be vaulted */
	if (cmd_vault_setup(opts) != 0)
		return EXIT_COULD_NOT_RUN;
	if (opts->format == FORMAT_JSON) {
		playbooks = json_array();
		doc = json_pack("{s:i}", "schema", LINT_SCHEMA);
	}
	if (opts->ninventories > 0) {
		if ((inv = cmd_load_inventory(opts)) == NULL) {
			json_decref(doc);
			json_decref(playbooks);
			return EXIT_COULD_NOT_RUN;
		}
		if (doc != NULL)
			json_object_set_new(doc, "inventory", json_pack(
			    "{s:I, s:I}", "hosts", (json_int_t)inv->nhosts,
			    "groups", (json_int_t)inv->ngroups));
		else
			printf("inventory: ok (%zu hosts, %zu groups)\n",
			    inv->nhosts, inv->ngroups);
	}
	for (i = 0; i < opts->nargs; i++)
		errors += lint_playbook(opts->args[i], inv, playbooks);
	inventory_free(inv);
	if (doc != NULL) {
		json_object_set_new(doc, "playbooks", playbooks);
		json_object_set_new(doc, "errors", json_integer(
		    (json_int_t)errors));
		json_dumpf(doc, stdout, JSON_INDENT(2));
		fputc('\n', stdout);
		json_decref(doc);
	}
	if (errors > 0) {
		if (opts->format == FORMAT_TEXT)
			fprintf(stderr, "%zu error%s\n", errors,
			    errors == 1 ? "" : "s");
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
