/* libFuzzer harness: an INI inventory (lib/inventory/inventory-ini.c, host ranges,
 * Python literals), then what `tcptune inventory --list/--graph` and a
 * play do with it: finish, --list, --graph, every host's merged vars and
 * connection settings. No group_vars/: nothing is read from disk. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <jansson.h>

#include "inventory/inventory.h"
#include "inventory/inventory-view.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void
query(struct inventory *inv)
{
	struct host_conn	 conn;
	json_t			*j;
	char			*cause = NULL;
	const char		**names;
	size_t			 i, n;

	if ((j = inventory_list_json(inv, NULL, &cause)) != NULL)
		json_decref(j);
	free(cause);
	/* --graph prints a group once per path (capped at 64 MiB): a few
	 * dozen groups in diamonds would spend every run on that */
	if (inv->ngroups <= 24) {
		cause = NULL;
		free(inventory_graph(inv, NULL, 0, NULL, &cause));
		free(cause);
	}
	/* a range may give 100,000 hosts: their queries are all alike */
	for (i = 0; i < inv->nhosts && i < 256; i++) {
		cause = NULL;
		if (inventory_host_conn(inv, inv->hosts[i]->name, NULL, &conn,
		    &cause) == 0)
			host_conn_clear(&conn);
		free(cause);
		if (inventory_host_groups(inv, inv->hosts[i]->name, &names,
		    &n) == 0)
			free(names);
	}
	for (i = 0; i < inv->ngroups && i < 256; i++) {
		if (inventory_group_hosts(inv, inv->groups[i]->name, &names,
		    &n) == 0)
			free(names);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct inventory	*inv = inventory_new();
	char			*cause = NULL;

	if (inv_load_ini_buffer(inv, "fuzz.ini", (const char *)data, size,
	    &cause) == 0 && inventory_finish(inv, &cause) == 0)
		query(inv);
	free(cause);
	inventory_free(inv);
	return 0;
}
