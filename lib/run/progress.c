#include "run/progress.h"

#include <stdio.h>
#include <string.h>

/* The longest prefix of s[0..len) that ends on a UTF-8 character
 * boundary. */
static size_t
utf8_prefix(const char *s, size_t len)
{
	while (len > 0 && ((unsigned char)s[len] & 0xc0) == 0x80)
		len--;
	return len;
}

/* Everything after the task name: the counts and the slowest host (or
 * pair). */
static void
progress_tail(char *buf, size_t size, const struct run_progress *p)
{
	int n;

	if (p->rounds > 0)
		n = snprintf(buf, size, " round %zu/%zu, %zu/%zu pairs done",
		    p->round, p->rounds, p->pairs_done, p->pairs_total);
	else
		n = snprintf(buf, size, " %zu/%zu hosts done", p->done,
		    p->total);
	if (n < 0 || (size_t)n >= size || p->slowest == NULL)
		return;
	size -= (size_t)n;
	buf += n;
	if (p->running > 1)
		snprintf(buf, size, ", waiting on %s (%.1fs) and %zu more",
		    p->slowest, p->slowest_secs, p->running - 1);
	else
		snprintf(buf, size, ", waiting on %s (%.1fs)", p->slowest,
		    p->slowest_secs);
}

char *
run_progress_line(char *buf, size_t size, const struct run_progress *p,
    int width)
{
	char	tail[512];
	size_t	limit, fixed, name;

	if (size == 0)
		return buf;
	limit = size - 1;
	if (width > 0 && (size_t)width - 1 < limit)
		limit = (size_t)width - 1;
	progress_tail(tail, sizeof tail, p);
	fixed = strlen(tail) + 2;		/* "[" and "]" */
	name = strlen(p->task);
	if (fixed + name <= limit)
		snprintf(buf, size, "[%s]%s", p->task, tail);
	else if (fixed + 3 < limit) {
		name = utf8_prefix(p->task, limit - fixed - 3);
		snprintf(buf, size, "[%.*s...]%s", (int)name, p->task, tail);
	} else
		snprintf(buf, size, "[...]%s", tail);
	name = strlen(buf);
	if (name > limit)
		buf[utf8_prefix(buf, limit)] = '\0';
	return buf;
}
