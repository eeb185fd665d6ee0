/* The malformed corpus under tests/data/inventory/bad/: every file, and
 * every bad pattern, with the exact message it must produce (file:line:col
 * for YAML, file:line for INI). One table row per case. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inventory/inventory.h"
#include "inventory/pattern.h"

#define BAD "tests/data/inventory/bad/"

struct bad_case {
	const char	*source;
	const char	*pattern;	/* NULL: the source itself fails */
	const char	*message;
};

static const struct bad_case cases[] = {
	{ BAD "broken.yml", NULL, BAD "broken.yml:6:6: did not find expected "
	    "key while parsing a block mapping" },
	{ BAD "root-list.yml", NULL, BAD "root-list.yml:1:1: YAML inventory "
	    "must be a mapping of groups, got list" },
	{ BAD "group-not-mapping.yml", NULL, BAD "group-not-mapping.yml:2:3: "
	    "group 'web' must be a mapping, got list" },
	{ BAD "hosts-list.yml", NULL, BAD "hosts-list.yml:2:10: 'hosts' of "
	    "group 'web' must be a mapping, got list" },
	{ BAD "host-vars-list.yml", NULL, BAD "host-vars-list.yml:3:9: "
	    "variables of host 'w1' must be a mapping, got list" },
	{ BAD "host-int.yml", NULL, BAD "host-int.yml:3:5: host name in group "
	    "'web' must be a string, got int (quote numbers)" },
	{ BAD "unknown-key.yml", NULL, BAD "unknown-key.yml:2:3: unknown key "
	    "'hots' in group 'web' (did you mean 'hosts'?)" },
	{ BAD "unknown-key-far.yml", NULL, BAD "unknown-key-far.yml:4:3: "
	    "unknown key 'members' in group 'web' (expected 'hosts', "
	    "'children' or 'vars')" },
	{ BAD "cycle.yml", NULL, BAD "cycle.yml:3:5: group 'b' is its own "
	    "ancestor: b -> a -> b" },
	{ BAD "cycle-long.yml", NULL, BAD "cycle-long.yml:10:9: group 'a' is "
	    "its own ancestor: a -> b -> c -> a" },
	{ BAD "range-padding.yml", NULL, BAD "range-padding.yml:3:5: bad host "
	    "range 'web[01:5].example.net': host range must specify "
	    "equal-length begin and end formats" },
	{ BAD "range-noend.yml", NULL, BAD "range-noend.yml:3:5: bad host "
	    "range 'web[1:].example.net': host range must specify end value" },
	{ BAD "range-step0.yml", NULL, BAD "range-step0.yml:3:5: bad host "
	    "range 'web[1:5:0]': host range step must not be zero" },
	{ BAD "range-parts.yml", NULL, BAD "range-parts.yml:3:5: bad host "
	    "range 'web[1:2:3:4]': host range must be begin:end or "
	    "begin:end:step" },
	{ BAD "priority.yml", NULL, BAD "priority.yml:3:5: "
	    "ansible_group_priority of group 'web' must be an integer (from "
	    "-2147483648 to 2147483647)" },
	{ BAD "section-type.ini", NULL, BAD "section-type.ini:3: section "
	    "[web:foo] has unknown type 'foo' (expected hosts, children or "
	    "vars)" },
	{ BAD "section-space.ini", NULL, BAD "section-space.ini:1: invalid "
	    "section entry '[web servers]': no spaces or other invalid "
	    "characters are allowed" },
	{ BAD "host-noeq.ini", NULL, BAD "host-noeq.ini:2: expected key=value "
	    "host variable assignment, got ';'" },
	{ BAD "vars-noeq.ini", NULL, BAD "vars-noeq.ini:4: expected key=value, "
	    "got 'just_a_word'" },
	{ BAD "undefined-child.ini", NULL, BAD "undefined-child.ini:5: section "
	    "[all:children] includes undefined group 'db'" },
	{ BAD "vars-undefined.ini", NULL, BAD "vars-undefined.ini:3: section "
	    "[db:vars] not valid for undefined group 'db'" },
	{ BAD "quote.ini", NULL, BAD "quote.ini:2: error parsing host "
	    "definition 'w1 motd=\"unclosed': no closing quotation" },
	{ BAD "cycle.ini", NULL, BAD "cycle.ini:8: group 'a' is its own "
	    "ancestor: a -> b -> a" },
	{ BAD "range-mixed.ini", NULL, BAD "range-mixed.ini:2: bad host range "
	    "'db-[a:9]': invalid host range begin 'a'" },
	{ BAD "trailing-colon.ini", NULL, BAD "trailing-colon.ini:2: invalid "
	    "host pattern 'w1:': a trailing ':' must be followed by a port" },
	{ BAD "children-junk.ini", NULL, BAD "children-junk.ini:2: expected "
	    "group name, got 'not a group'" },
	{ BAD "vars-list", NULL, BAD "vars-list/group_vars/web.yml:1:1: "
	    "variables file must be a mapping, got list" },
	{ BAD "vars-broken", NULL, BAD "vars-broken/host_vars/w1.yml:2:1: did "
	    "not find expected ',' or ']' while parsing a flow sequence" },
	{ BAD "missing.yml", NULL, "inventory source '" BAD "missing.yml' "
	    "does not exist" },
	{ BAD "patterns.yml", "web[3]", "no hosts matched the subscripted "
	    "pattern 'web[3]'" },
	{ BAD "patterns.yml", "~w(1", "invalid host pattern '~w(1': "
	    "Unmatched ( or \\(" },
	{ BAD "patterns.yml", "@" BAD "pattern-regex.txt", BAD "pattern-regex.txt:2: "
	    "invalid host pattern '~web[': Invalid regular expression" },
	{ BAD "patterns.yml", "@" BAD "no-such-file", "unable to read limit "
	    "file '" BAD "no-such-file': No such file or directory" },
};

static void
run_case(const struct bad_case *c)
{
	struct inventory	*inv = inventory_new();
	char			*cause = NULL, **hosts;
	size_t			 n;
	int			 r;

	r = inventory_add_source(inv, c->source, &cause);
	if (r == 0)
		r = inventory_finish(inv, &cause);
	if (c->pattern != NULL) {
		if (r != 0)
			fail_msg("%s: %s", c->source, cause);
		r = inventory_select(inv, c->pattern, &hosts, &n, &cause);
	}
	if (r == 0)
		fail_msg("%s %s: no error, want: %s", c->source,
		    c->pattern ? c->pattern : "", c->message);
	if (strcmp(cause, c->message) != 0)
		fail_msg("%s %s:\n got: %s\nwant: %s", c->source,
		    c->pattern ? c->pattern : "", cause, c->message);
	free(cause);
	inventory_free(inv);
}

static void
test_bad_corpus(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
		run_case(&cases[i]);
}

/* Every file in the corpus directory has a row. */
static void
test_corpus_covered(void **state)
{
	static const char *const files[] = { "broken.yml", "root-list.yml",
	    "group-not-mapping.yml", "hosts-list.yml", "host-vars-list.yml",
	    "host-int.yml", "unknown-key.yml", "unknown-key-far.yml",
	    "cycle.yml", "cycle-long.yml", "range-padding.yml",
	    "range-noend.yml", "range-step0.yml", "range-parts.yml",
	    "priority.yml", "section-type.ini", "section-space.ini",
	    "host-noeq.ini", "vars-noeq.ini", "undefined-child.ini",
	    "vars-undefined.ini", "quote.ini", "cycle.ini",
	    "range-mixed.ini", "trailing-colon.ini", "children-junk.ini",
	    "vars-list", "vars-broken", "pattern-regex.txt", "patterns.yml",
	    NULL };
	const char *const *f;
	char	 path[512];
	FILE	*fp;
	size_t	 n = 0;

	(void)state;
	for (f = files; *f != NULL; f++, n++) {
		snprintf(path, sizeof path, BAD "%s", *f);
		fp = fopen(path, "r");
		if (fp == NULL)
			fail_msg("corpus file %s missing", path);
		fclose(fp);
	}
	assert_true(n >= 15);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_corpus),
		cmocka_unit_test(test_corpus_covered),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
