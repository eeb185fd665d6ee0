/* libFuzzer harness: the output of the apply script (apply_parse in
 * lib/remote/apply.c), which the host being changed prints. Given NUL-terminated
 * as its caller (modules/tune.c) has it from the transport. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "remote/apply.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct apply_result	 res;
	char			*cause = NULL, *text;

	/* Exactly size bytes, no NUL after them: the parser must stay inside
	 * what the transport gave it. */
	if ((text = malloc(size > 0 ? size : 1)) == NULL)
		return 0;
	memcpy(text, data, size);
	apply_parse(text, size, &res, &cause);
	apply_result_clear(&res);
	free(cause);
	free(text);
	return 0;
}
