#include "base/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void
out_of_memory(void)
{
	fputs("tcptune: out of memory\n", stderr);
	abort();
}

void *
xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (p == NULL)
		out_of_memory();
	return p;
}

void *
xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (p == NULL)
		out_of_memory();
	return p;
}

void *
xrealloc(void *ptr, size_t size)
{
	void *p = realloc(ptr, size ? size : 1);

	if (p == NULL)
		out_of_memory();
	return p;
}

void *
xreallocarray(void *ptr, size_t nmemb, size_t size)
{
	if (size != 0 && nmemb > ((size_t)-1) / size)
		out_of_memory();
	return xrealloc(ptr, nmemb * size);
}

char *
xstrdup(const char *s)
{
	char *p = strdup(s);

	if (p == NULL)
		out_of_memory();
	return p;
}

char *
xstrndup(const char *s, size_t n)
{
	char *p = strndup(s, n);

	if (p == NULL)
		out_of_memory();
	return p;
}

char *
xvprintf(const char *fmt, va_list ap)
{
	char *p;

	if (vasprintf(&p, fmt, ap) < 0)
		out_of_memory();
	return p;
}

char *
xprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;

	va_start(ap, fmt);
	p = xvprintf(fmt, ap);
	va_end(ap);
	return p;
}

int
fail(char **cause, const char *fmt, ...)
{
	va_list ap;

	if (cause != NULL) {
		va_start(ap, fmt);
		*cause = xvprintf(fmt, ap);
		va_end(ap);
	}
	return -1;
}
