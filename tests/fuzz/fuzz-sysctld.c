/* libFuzzer harness: sysctl.d files. The whole input is one drop-in file
 * for dropin_parse (lib/tune/dropin.c); then it is read again as a set of files
 * for the precedence model (lib/remote/sysctld.c): a line "@DIR/NAME" starts a
 * file in DIR ("@NAME" alone: /etc/sysctl.conf), every other line is a
 * line of the current file. The model is then asked what probe_parse asks:
 * masks, order, and the winner of every key it holds. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tune/dropin.h"
#include "remote/sysctld.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static struct sysctld_file *
add_file(struct sysctld_set *set, const char *path)
{
	const char		*slash = strrchr(path, '/');
	struct sysctld_file	*f;
	char			*dir;

	if (slash == NULL || slash == path)
		return sysctld_add_file(set, path, NULL);
	if ((dir = strndup(path, (size_t)(slash - path))) == NULL)
		abort();
	f = sysctld_add_file(set, path, dir);
	free(dir);
	return f;
}

static void
model(char *text)
{
	struct sysctld_set		 set;
	struct sysctld_file		*f = NULL;
	const struct sysctld_file	**order, *wf;
	const char			*file, *value;
	char				*line, *next, *cause;
	size_t				 i, j, n;

	sysctld_init(&set);
	for (line = text; line != NULL; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		if (line[0] == '@') {
			f = add_file(&set, line + 1);
			continue;
		}
		if (f == NULL)
			f = sysctld_add_file(&set, "/etc/sysctl.d/99-a.conf",
			    "/etc/sysctl.d");
		cause = NULL;
		sysctld_add_line(f, line, &cause);
		free(cause);
	}
	for (i = 0; i < set.n; i++)
		(void)sysctld_masked_by(&set, set.files[i]);
	order = sysctld_order(&set, &n);
	free(order);
	for (i = 0; i < set.n && i < 16; i++) {
		for (j = 0; j < set.files[i]->n && j < 16; j++) {
			(void)sysctld_winner(&set, set.files[i]->entries[j].key,
			    &file, &value);
			(void)sysctld_winner_entry(&set,
			    set.files[i]->entries[j].key, &wf);
		}
	}
	sysctld_free(&set);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dropin	 d;
	char		*text, *cause = NULL;

	if ((text = strndup((const char *)data, size)) == NULL)
		return 0;
	dropin_parse(text, &d, &cause);
	dropin_free(&d);
	free(cause);
	model(text);
	free(text);
	return 0;
}
