/* libFuzzer harness: the dynamic-inventory `--list` JSON (what inventory
 * scripts and URLs return: lib/inventory/inventory-json.c), then finish, --list and
 * every host's merged vars. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <jansson.h>

#include "inventory/inventory.h"
#include "inventory/inventory-view.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct inventory	*inv;
	json_t			*doc, *out;
	json_error_t		 jerr;
	char			*cause = NULL;
	size_t			 i;

	if ((doc = json_loadb((const char *)data, size, 0, &jerr)) == NULL)
		return 0;
	inv = inventory_new();
	if (inventory_add_list_json(inv, doc, "fuzz", &cause) == 0 &&
	    inventory_finish(inv, &cause) == 0) {
		if ((out = inventory_list_json(inv, NULL, &cause)) != NULL)
			json_decref(out);
		for (i = 0; i < inv->nhosts; i++)
			json_decref(inventory_host_vars(inv,
			    inv->hosts[i]->name));
	}
	free(cause);
	inventory_free(inv);
	json_decref(doc);
	return 0;
}
