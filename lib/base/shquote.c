#include "base/shquote.h"

#include <string.h>

#include "base/strbuf.h"
#include "base/xalloc.h"

void
shquote_add(struct strbuf *sb, const char *s)
{
	const char *q;

	strbuf_addch(sb, '\'');
	/* Copy runs between single quotes verbatim; each quote becomes '\''. */
	while ((q = strchr(s, '\'')) != NULL) {
		strbuf_add(sb, s, (size_t)(q - s));
		strbuf_addstr(sb, "'\\''");
		s = q + 1;
	}
	strbuf_addstr(sb, s);
	strbuf_addch(sb, '\'');
}

char *
shquote(const char *s)
{
	struct strbuf sb;

	strbuf_init(&sb);
	shquote_add(&sb, s);
	return strbuf_detach(&sb, NULL);
}

void
shquote_addv(struct strbuf *sb, const char *const *argv)
{
	size_t i;

	for (i = 0; argv[i] != NULL; i++) {
		if (i != 0)
			strbuf_addch(sb, ' ');
		shquote_add(sb, argv[i]);
	}
}
