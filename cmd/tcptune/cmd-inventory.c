/* tcptune inventory --list | --host NAME | --graph [GROUP]: the inventory as
 * tcptune reads it, in the shapes ansible-inventory prints, so the two can
 * be compared with `jq -S`. -l/--limit narrows hosts. */
#include <stdio.h>
#include <stdlib.h>

#include "cmd-common.h"
#include "say.h"
#include "inventory/inventory.h"
#include "inventory/inventory-view.h"
#include "inventory/pattern.h"

extern const struct cmd_entry cmd_inventory_entry;

static int
print_json(json_t *j)
{
	char *s = json_dumps(j, JSON_INDENT(4) | JSON_SORT_KEYS);

	if (s == NULL)
		return cmd_error("cannot encode JSON output");
	puts(s);
	free(s);
	return 0;
}

static int
cmd_inventory_exec(struct options *opts)
{
	struct inventory	*inv = NULL;
	char			*cause = NULL, *text, **hosts = NULL;
	size_t			 n = 0;
	json_t			*j;
	int			 r = EXIT_COULD_NOT_RUN;

	if (opts->list + (opts->host != NULL) + opts->graph != 1) {
		cmd_error("inventory: give one of --list, --host NAME or "
		    "--graph");
		goto out;
	}
	if (opts->graph && opts->format != FORMAT_TEXT) {
		/* As ansible-inventory: the graph is text; --list is the
		 * JSON form of the same inventory. */
		say_usage(&cmd_inventory_entry, "--graph prints text only (no "
		    "--format %s); --list gives the inventory as JSON",
		    opts->format == FORMAT_JSON ? "json" : "jsonl");
		goto out;
	}
	if ((inv = cmd_load_inventory(opts)) == NULL)
		goto out;
	if (opts->limit != NULL) {
		if (inventory_select(inv, opts->limit, &hosts, &n,
		    &cause) != 0)
			goto fail;
		if (n == 0) {
			cmd_error("--limit '%s' matches no hosts", opts->limit);
			goto out;
		}
	}
	if (opts->host != NULL) {
		if ((j = inventory_host_json(inv, opts->host)) == NULL) {
			cmd_error("unknown host '%s'", opts->host);
			goto out;
		}
		r = print_json(j);
		json_decref(j);
	} else if (opts->graph) {
		text = inventory_graph(inv, opts->nargs > 0 ? opts->args[0] :
		    NULL, 0, opts->limit, &cause);
		if (text == NULL)
			goto fail;
		fputs(text, stdout);
		free(text);
		r = 0;
	} else {
		if ((j = inventory_list_json(inv, opts->limit, &cause)) == NULL)
			goto fail;
		r = print_json(j);
		json_decref(j);
	}
	goto out;
fail:
	r = cmd_error("%s", cause);
out:
	free(cause);
	pattern_hosts_free(hosts, n);
	inventory_free(inv);
	return r;
}

const struct cmd_entry cmd_inventory_entry = {
	.name = "inventory",
	.alias = NULL,
	.usage = "-i INVENTORY (--list | --host NAME | --graph [GROUP])",
	.summary = "show the inventory as ansible-inventory does",
	.accepts = OPT_INVENTORY_VIEW,
	.min_args = 0,
	.max_args = 1,
	.exec = cmd_inventory_exec,
};
