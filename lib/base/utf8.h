/* UTF-8 well-formedness, the one check every layer shares: jansson
 * refuses a string that is not well-formed UTF-8 (json_stringn returns
 * NULL), so text from a file or a host is checked here before it becomes a
 * JSON value. */
#ifndef TCPTUNE_UTF8_H
#define TCPTUNE_UTF8_H

#include <stddef.h>

/* Whether s[0..len) is well-formed UTF-8: no overlong forms, no surrogates,
 * nothing above U+10FFFF. NUL bytes are well-formed. */
int	 utf8_valid(const char *s, size_t len);

#endif
