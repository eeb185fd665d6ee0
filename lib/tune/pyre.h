/* Python's regular expressions over bytes, as the Ansible modules tcptune
 * ports use them (lineinfile, blockinfile), run by PCRE2: the same
 * leftmost-first backtracking, \d \w \s ASCII, (?:) (?P<n>) lookarounds,
 * lazy quantifiers and inline flags; Python's end-only \Z is PCRE2's \z,
 * which the compile translates. */
#ifndef TCPTUNE_TUNE_PYRE_H
#define TCPTUNE_TUNE_PYRE_H

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stddef.h>

/* re.compile(re): the code, or NULL with *cause naming what (the
 * parameter), the expression and PCRE2's reason. */
pcre2_code	*pyre_compile(const char *what, const char *re, char **cause);
/* re.search over n bytes at s: 1 with md filled, 0, or -1 (PCRE2's match
 * limit hit). */
int		 pyre_search(pcre2_code *code, const char *s, size_t n,
		    pcre2_match_data *md);

/* Whether re sets Python's re.MULTILINE for the whole expression (a
 * leading "(?m)", as compiled.flags & re.MULTILINE says). */
int		 pyre_multiline(const char *re);

#endif
