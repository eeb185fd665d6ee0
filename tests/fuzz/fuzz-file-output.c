/* libFuzzer harness: the output of the file script (file_parse in
 * lib/remote/fileop.c), which the host being changed prints, and the
 * text it shows through lineinfile's and blockinfile's rules
 * (lib/tune/lineinfile.c, lib/tune/blockinfile.c) for a few task shapes,
 * and the systemd script's (systemd_parse, lib/remote/systemd.c). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "remote/fileop.h"
#include "remote/systemd.h"
#include "tune/blockinfile.h"
#include "tune/lineinfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void
edit_all(const char *text)
{
	static const struct lif_task lt[] = {
		{ 1, "^a(\\d)", NULL, "a=\\1", "EOF", NULL, 1, 0 },
		{ 1, NULL, "x", "y", NULL, "^#", 0, 1 },
		{ 1, NULL, NULL, "z", "BOF", NULL, 0, 0 },
		{ 0, "^\\s*$", NULL, NULL, NULL, NULL, 0, 0 },
	};
	static const struct bif_task bt[] = {
		{ 1, "# {mark} M", "BEGIN", "END", "k=1", "^a", NULL },
		{ 1, "# {mark} M", "BEGIN", "END", "k=1\n", NULL, "(?m)^x" },
		{ 0, "# {mark} M", "BEGIN", "END", "", NULL, NULL },
	};
	struct lif_out	 lo;
	struct bif_out	 bo;
	char		*cause;
	size_t		 i;

	for (i = 0; i < sizeof lt / sizeof lt[0]; i++) {
		cause = NULL;
		if (lif_decide(&lt[i], text, strlen(text), &lo, &cause) == 0)
			lif_out_clear(&lo);
		free(cause);
	}
	for (i = 0; i < sizeof bt / sizeof bt[0]; i++) {
		cause = NULL;
		if (bif_decide(&bt[i], text, strlen(text), &bo, &cause) == 0)
			bif_out_clear(&bo);
		free(cause);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct file_result	 res;
	struct systemd_result	 sd;
	char			*cause = NULL, *text;

	/* Exactly size bytes, no NUL after them: the parsers must stay inside
	 * what the transport gave them. */
	if ((text = malloc(size > 0 ? size : 1)) == NULL)
		return 0;
	memcpy(text, data, size);
	if (file_parse(text, size, &res, &cause) == 0) {
		if (res.text != NULL)
			edit_all(res.text);
		(void)file_stat_sum(&res.st);
		file_result_clear(&res);
	}
	free(cause);
	cause = NULL;
	if (systemd_parse(text, size, &sd, &cause) == 0)
		systemd_result_clear(&sd);
	free(cause);
	free(text);
	return 0;
}
