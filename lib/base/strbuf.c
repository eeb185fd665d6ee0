#include "base/strbuf.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

/* Empty buffers point here so that buf is never NULL and reads are safe. */
static char strbuf_empty[1];

void
strbuf_init(struct strbuf *sb)
{
	sb->buf = strbuf_empty;
	sb->len = 0;
	sb->alloc = 0;
}

void
strbuf_release(struct strbuf *sb)
{
	if (sb->alloc != 0)
		free(sb->buf);
	strbuf_init(sb);
}

void
strbuf_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->alloc != 0)
		sb->buf[0] = '\0';
}

char *
strbuf_detach(struct strbuf *sb, size_t *len)
{
	char *p;

	if (sb->alloc == 0)
		p = xstrdup("");
	else
		p = sb->buf;
	if (len != NULL)
		*len = sb->len;
	strbuf_init(sb);
	return p;
}

void
strbuf_grow(struct strbuf *sb, size_t extra)
{
	size_t want;

	if (sb->buf == NULL)
		strbuf_init(sb);
	want = sb->len + extra + 1;
	if (want <= sb->alloc)
		return;
	if (want < 64)
		want = 64;
	if (want < sb->alloc * 2)
		want = sb->alloc * 2;
	if (sb->alloc == 0) {
		sb->buf = xmalloc(want);
		sb->buf[0] = '\0';
	} else
		sb->buf = xrealloc(sb->buf, want);
	sb->alloc = want;
}

void
strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	strbuf_grow(sb, len);
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void
strbuf_addstr(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void
strbuf_addch(struct strbuf *sb, int c)
{
	char ch = (char)c;

	strbuf_add(sb, &ch, 1);
}

void
strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	char *p = xvprintf(fmt, ap);

	strbuf_addstr(sb, p);
	free(p);
}

void
strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

void
strbuf_rtrim(struct strbuf *sb)
{
	while (sb->len > 0 && isspace((unsigned char)sb->buf[sb->len - 1]))
		sb->len--;
	if (sb->alloc != 0)
		sb->buf[sb->len] = '\0';
}
