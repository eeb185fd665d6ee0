/* shlex.split (shlex.h): a transcription of CPython 3.11's
 * shlex.read_token for posix=True, whitespace_split=True and no
 * punctuation_chars; its states are the same characters. */
#include "base/shlex.h"

#include <stdlib.h>

#include "base/strbuf.h"
#include "base/util.h"
#include "base/xalloc.h"

static void
push(char ***words, size_t *n, struct strbuf *cur)
{
	*words = xreallocarray(*words, *n + 1, sizeof **words);
	(*words)[(*n)++] = xstrndup(cur->buf, cur->len);
}

int
shlex_split(const char *s, int comments, char ***words, size_t *n,
    const char **err)
{
	struct strbuf	 cur;
	const char	*p;
	int		 state = ' ', escaped = 0, quoted = 0;

	*words = NULL;
	*n = 0;
	strbuf_init(&cur);
	for (p = s;; p++) {
		int c = (unsigned char)*p;

		if (state == '\\') {
			if (c == '\0') {
				*err = "no escaped character";
				goto fail;
			}
			/* in "...", only \" and \\ are escapes */
			if (escaped == '"' && c != '\\' && c != '"')
				strbuf_addch(&cur, '\\');
			strbuf_addch(&cur, c);
			state = escaped;
			continue;
		}
		if (state == '\'' || state == '"') {
			quoted = 1;
			if (c == '\0') {
				*err = "no closing quotation";
				goto fail;
			}
			if (c == state)
				state = 'a';
			else if (c == '\\' && state == '"') {
				escaped = state;
				state = '\\';
			} else
				strbuf_addch(&cur, c);
			continue;
		}
		/* ' ' (between words) and 'a' (in one) */
		if (c == '\0' || c == ' ' || c == '\t' || c == '\r' ||
		    c == '\n' || (comments && c == '#')) {
			if (state == 'a' && (cur.len != 0 || quoted))
				push(words, n, &cur);
			strbuf_reset(&cur);
			quoted = 0;
			state = ' ';
			if (c == '\0')
				break;
			if (c == '#') {
				/* the comment runs to the end of its line */
				while (p[1] != '\0' && p[1] != '\n')
					p++;
			}
			continue;
		}
		if (c == '\\') {
			escaped = 'a';
			state = '\\';
		} else if (c == '\'' || c == '"')
			state = c;
		else
			strbuf_addch(&cur, c);
		if (state == ' ')
			state = 'a';
	}
	strbuf_release(&cur);
	return 0;
fail:
	strbuf_release(&cur);
	names_free(*words, *n);
	*words = NULL;
	*n = 0;
	return -1;
}
