/* libFuzzer harness: a YAML (or static JSON: the same loader) inventory
 * through lib/yaml/ydoc.c and lib/inventory/inventory-yaml.c, then what `tcptune
 * inventory --list/--graph` does with it. No group_vars/: nothing is read
 * from disk. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <jansson.h>

#include "inventory/inventory.h"
#include "inventory/inventory-view.h"
#include "yaml/ydoc.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct inventory	*inv = inventory_new();
	struct ydoc		*doc;
	json_t			*j;
	char			*cause = NULL;

	doc = ydoc_load_buffer("fuzz.yml", (const char *)data, size, &cause);
	if (doc != NULL && inv_load_yaml(inv, "fuzz.yml", doc, &cause) == 0 &&
	    inventory_finish(inv, &cause) == 0) {
		if ((j = inventory_list_json(inv, NULL, &cause)) != NULL)
			json_decref(j);
		free(cause);
		cause = NULL;
		free(inventory_graph(inv, NULL, 0, NULL, &cause));
	}
	free(cause);
	ydoc_free(doc);
	inventory_free(inv);
	return 0;
}
