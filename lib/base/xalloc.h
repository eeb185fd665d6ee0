/* Allocation helpers that abort on out-of-memory, and formatted allocation.
 * Every tcptune allocation goes through these, so callers never check for
 * NULL from an allocator. */
#ifndef TCPTUNE_XALLOC_H
#define TCPTUNE_XALLOC_H

#include <stdarg.h>
#include <stddef.h>

void *xmalloc(size_t size);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *ptr, size_t size);
/* Grow an array of nmemb elements to at least want, doubling. */
void *xreallocarray(void *ptr, size_t nmemb, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *xvprintf(const char *fmt, va_list ap);

/* Set *cause to a new formatted message (if cause is not NULL) and return -1,
 * so that failing functions can end with `return fail(cause, "...")`. */
int fail(char **cause, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
