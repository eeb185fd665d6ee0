#include "base/utf8.h"

/* Whether s[0..len) is well-formed UTF-8 (jansson refuses anything
 * else, and a string it refuses would be a NULL value). */
int
utf8_valid(const char *s, size_t len)
{
	const unsigned char	*p = (const unsigned char *)s;
	const unsigned char	*end = p + len;
	unsigned		 c, need, min;

	while (p < end) {
		c = *p++;
		if (c < 0x80)
			continue;
		if (c >= 0xc2 && c <= 0xdf) {
			need = 1;
			min = 0x80;
			c &= 0x1f;
		} else if (c >= 0xe0 && c <= 0xef) {
			need = 2;
			min = 0x800;
			c &= 0x0f;
		} else if (c >= 0xf0 && c <= 0xf4) {
			need = 3;
			min = 0x10000;
			c &= 0x07;
		} else
			return 0;
		if ((size_t)(end - p) < need)
			return 0;
		for (; need > 0; need--, p++) {
			if ((*p & 0xc0) != 0x80)
				return 0;
			c = (c << 6) | (*p & 0x3f);
		}
		if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
			return 0;
	}
	return 1;
}
