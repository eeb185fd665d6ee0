/* libFuzzer harness: the host probe's output (probe_parse in lib/remote/probe.c),
 * which a host under someone else's control writes. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <jansson.h>

#include "remote/probe.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_t	*facts;
	char	*cause = NULL;

	if ((facts = probe_parse((const char *)data, size, &cause)) != NULL)
		json_decref(facts);
	free(cause);
	return 0;
}
