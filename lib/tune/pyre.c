/* Python's regular expressions on PCRE2 (see pyre.h). */
#include "tune/pyre.h"

#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/xalloc.h"

/* A Python regular expression compiled by PCRE2: Python's \Z (the very
 * end) is PCRE2's \z; everything else a task writes reads the same. */
pcre2_code *
pyre_compile(const char *what, const char *re, char **cause)
{
	struct strbuf	 sb;
	pcre2_code	*code;
	PCRE2_UCHAR	 msg[120];
	PCRE2_SIZE	 off;
	int		 err;
	size_t		 i;

	strbuf_init(&sb);
	for (i = 0; re[i] != '\0'; i++) {
		if (re[i] == '\\' && re[i + 1] != '\0') {
			strbuf_addch(&sb, '\\');
			strbuf_addch(&sb, re[i + 1] == 'Z' ? 'z' : re[i + 1]);
			i++;
		} else
			strbuf_addch(&sb, re[i]);
	}
	code = pcre2_compile((PCRE2_SPTR)sb.buf, sb.len, 0, &err, &off, NULL);
	strbuf_release(&sb);
	if (code == NULL) {
		pcre2_get_error_message(err, msg, sizeof msg);
		fail(cause, "%s '%.64s' is not a regular expression: %s at "
		    "character %zu", what, re, (const char *)msg, (size_t)off);
	}
	return code;
}

/* bre.search(line): 1 with md filled, 0, or -1 (a match limit hit). */
int
pyre_search(pcre2_code *code, const char *s, size_t n, pcre2_match_data *md)
{
	int rc = pcre2_match(code, (PCRE2_SPTR)s, n, 0, 0, md, NULL);

	if (rc >= 0)
		return 1;
	return rc == PCRE2_ERROR_NOMATCH ? 0 : -1;
}


int
pyre_multiline(const char *re)
{
	const char	*p = re;
	size_t		 n;
	int		 m = 0;

	/* Python's global flags: leading "(?letters)" groups */
	while (p[0] == '(' && p[1] == '?') {
		n = strspn(p + 2, "aiLmsux");
		if (n == 0 || p[2 + n] != ')')
			break;
		m |= memchr(p + 2, 'm', n) != NULL;
		p += 3 + n;
	}
	return m;
}
