/* A growable string buffer.
 *
 * Invariants: buf is never NULL after strbuf_init; buf[len] == '\0' always;
 * len <= alloc. The buffer owns buf; strbuf_detach hands it to the caller
 * and leaves the strbuf empty and reusable. Binary data (with NULs) may be
 * stored; len is authoritative. */
#ifndef TCPTUNE_STRBUF_H
#define TCPTUNE_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

struct strbuf {
	char	*buf;
	size_t	 len;
	size_t	 alloc;
};

#define STRBUF_INIT { NULL, 0, 0 }

void	 strbuf_init(struct strbuf *sb);
void	 strbuf_release(struct strbuf *sb);
void	 strbuf_reset(struct strbuf *sb);
char	*strbuf_detach(struct strbuf *sb, size_t *len);
void	 strbuf_grow(struct strbuf *sb, size_t extra);
void	 strbuf_add(struct strbuf *sb, const void *data, size_t len);
void	 strbuf_addstr(struct strbuf *sb, const char *s);
void	 strbuf_addch(struct strbuf *sb, int c);
void	 strbuf_addf(struct strbuf *sb, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
void	 strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
/* Remove trailing whitespace. */
void	 strbuf_rtrim(struct strbuf *sb);

#endif
