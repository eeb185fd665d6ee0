#include "yaml/diag.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

void
diag_init(struct diag *d)
{
	d->msgs = NULL;
	d->n = 0;
}

void
diag_clear(struct diag *d)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		free(d->msgs[i]);
	free(d->msgs);
	diag_init(d);
}

int
diag_take(struct diag *d, char *msg)
{
	if (msg == NULL)
		msg = xstrdup("unknown error");
	d->msgs = xreallocarray(d->msgs, d->n + 1, sizeof *d->msgs);
	d->msgs[d->n++] = msg;
	return -1;
}

int
diag_add(struct diag *d, const struct ypos *pos, const char *fmt, ...)
{
	va_list	 ap;
	char	*msg;

	va_start(ap, fmt);
	msg = xvprintf(fmt, ap);
	va_end(ap);
	if (pos != NULL && pos->file != NULL) {
		char *full = xprintf("%s:%d:%d: %s", pos->file, pos->line,
		    pos->col, msg);

		free(msg);
		msg = full;
	}
	return diag_take(d, msg);
}

int
diag_addf(struct diag *d, const char *fmt, ...)
{
	va_list	 ap;
	char	*msg;

	va_start(ap, fmt);
	msg = xvprintf(fmt, ap);
	va_end(ap);
	return diag_take(d, msg);
}

size_t
diag_count(const struct diag *d)
{
	return d->n;
}

const char *
diag_get(const struct diag *d, size_t i)
{
	return i < d->n ? d->msgs[i] : NULL;
}

size_t
edit_distance(const char *a, const char *b)
{
	size_t	 la = strlen(a), lb = strlen(b), i, j, r;
	size_t	*row = xcalloc(lb + 1, sizeof *row);

	/* One row of the classic dynamic programme. */
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t up = row[j], best;

			best = diag + (a[i - 1] == b[j - 1] ? 0 : 1);
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	r = row[lb];
	free(row);
	return r;
}

const char *
did_you_mean(const char *word, const char *const *cands, size_t n)
{
	const char	*best = NULL;
	size_t		 bestd = 3, i, dist;

	for (i = 0; i < n; i++) {
		if (cands[i] == NULL)
			continue;
		dist = edit_distance(word, cands[i]);
		if (dist < bestd && dist < strlen(cands[i])) {
			best = cands[i];
			bestd = dist;
		}
	}
	return best;
}
