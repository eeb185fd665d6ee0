/* Kernel config symbols; what they mean is in kconfig.h. */

#include "tune/kconfig.h"

#include <ctype.h>
#include <string.h>

#include "base/xalloc.h"

enum kconfig
kconfig_from_string(const char *s)
{
	if (s == NULL)
		return KCONFIG_UNKNOWN;
	if (strcmp(s, "y") == 0)
		return KCONFIG_BUILTIN;
	if (strcmp(s, "m") == 0)
		return KCONFIG_MODULE;
	if (strcmp(s, "n") == 0 || strcmp(s, "") == 0 ||
	    strcmp(s, "absent") == 0 || strcmp(s, "not set") == 0)
		return KCONFIG_ABSENT;
	return KCONFIG_UNKNOWN;
}

char *
kconfig_symbol(const char *prefix, const char *name)
{
	char	*s, *p;

	s = xprintf("CONFIG_%s%s", prefix, name);
	for (p = s + 7 + strlen(prefix); *p != '\0'; p++)
		*p = *p == '-' ? '_' : (char)toupper((unsigned char)*p);
	return s;
}
