/* ydoc: PyYAML's scalar resolver (a table made with PyYAML 6 under
 * Python 3.11), duplicate keys, and the limits on depth, aliases and size
 * with the positions their errors give. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Before cmocka.h: its fail() macro would rewrite xalloc's prototype. */
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "yaml/ydoc.h"

#include <cmocka.h>

/* Plain scalar -> the JSON of what we make of it. PyYAML's value, except
 * where jansson cannot hold it: an int beyond 64 bits is the string of its
 * exact digits (str() of it, which is what a template renders), inf and nan
 * keep their text, and "0x_" (a ValueError in PyYAML) stays a string. */
static const struct {
	const char	*scalar;
	const char	*json;
} resolver_cases[] = {
	{ "8086:8086", "\"8086:8086\"" },
	{ "1:60", "\"1:60\"" },
	{ "190:20:30", "685230" },
	{ "190:20:30.15", "685230.15" },
	{ "1:9999999999999999999", "\"1:9999999999999999999\"" },
	{ "4444444444444444444:0", "\"266666666666666666640\"" },
	{ "0x1ffffffffffffffffff", "\"9444732965739290427391\"" },
	{ "-.5", "\"-.5\"" },
	{ ".5", "0.5" },
	{ "+.5", "\"+.5\"" },
	{ "1.", "1.0" },
	{ "1_000.5", "1000.5" },
	{ "0:30", "\"0:30\"" },
	{ "0:30.5", "30.5" },
	{ "-1:30", "-90" },
	{ "+1:30", "90" },
	{ "1:05", "65" },
	{ "1::5", "\"1::5\"" },
	{ "1_:30", "90" },
	{ "1:3_0", "\"1:3_0\"" },
	{ "1:30.", "90.0" },
	{ "1:60.5", "\"1:60.5\"" },
	{ "01:30", "\"01:30\"" },
	{ "01:30.5", "90.5" },
	{ "0_", "0" },
	{ "00", "0" },
	{ "08", "\"08\"" },
	{ "0o17", "\"0o17\"" },
	{ "0b1010", "10" },
	{ "-0b1010", "-10" },
	{ "0B1", "\"0B1\"" },
	{ "0X1F", "\"0X1F\"" },
	{ "0x_", "\"0x_\"" },
	{ "1e5", "\"1e5\"" },
	{ "1.0e5", "\"1.0e5\"" },
	{ "1.0e+5", "100000.0" },
	{ "1.e+5", "100000.0" },
	{ "1.5E+3", "1500.0" },
	{ "9223372036854775807", "9223372036854775807" },
	{ "9223372036854775808", "\"9223372036854775808\"" },
	{ "-9223372036854775808", "-9223372036854775808" },
	{ "-9223372036854775809", "\"-9223372036854775809\"" },
	{ "0x8000000000000000", "\"9223372036854775808\"" },
	{ "-0x8000000000000000", "-9223372036854775808" },
	{ "077777777777777777777777", "\"590295810358705651711\"" },
	{ "1_000_000_000_000_000_000_000", "\"1000000000000000000000\"" },
	{ ".inf", "\".inf\"" },
	{ "-.inf", "\"-.inf\"" },
	{ ".nan", "\".nan\"" },
	{ "1.0e+400", "\"1.0e+400\"" },
	{ "+0", "0" },
	{ "-0", "0" },
	{ "_1", "\"_1\"" },
	{ "._5", "\"._5\"" },
	{ "yes", "true" },
	{ "Off", "false" },
	{ "~", "null" },
	{ "y", "\"y\"" },
	/* 60^k as Python rounds it once, not k times */
	{ "1:59:59:59:59:59:59:59:59:59:59:59:59:59:59:59:59:59:59:59:59:59:"
	    "59:59:59:59:59:59:59:59:59.5", "4.421478394414667e+53" },
};

static void
test_resolver(void **state)
{
	json_t	*got, *want;
	char	*g;
	size_t	 i;

	(void)state;
	for (i = 0; i < sizeof resolver_cases / sizeof resolver_cases[0];
	    i++) {
		got = yaml_scalar_to_json(resolver_cases[i].scalar,
		    strlen(resolver_cases[i].scalar), 1);
		want = json_loads(resolver_cases[i].json, JSON_DECODE_ANY,
		    NULL);
		assert_non_null(got);
		assert_non_null(want);
		if (json_typeof(got) != json_typeof(want) ||
		    !json_equal(got, want)) {
			g = json_dumps(got, JSON_ENCODE_ANY);
			fail_msg("'%s': got %s, want %s",
			    resolver_cases[i].scalar, g,
			    resolver_cases[i].json);
		}
		json_decref(got);
		json_decref(want);
	}
}

/* Quoted scalars are never numbers, whatever they look like. */
static void
test_resolver_quoted(void **state)
{
	json_t *j = yaml_scalar_to_json("190:20:30", 9, 0);

	(void)state;
	assert_true(json_is_string(j));
	json_decref(j);
}

static struct ydoc *
load(const char *yaml, char **cause)
{
	*cause = NULL;
	return ydoc_load_buffer("t.yml", yaml, strlen(yaml), cause);
}

static void
expect_error(const char *yaml, const char *want)
{
	struct ydoc	*doc;
	char		*cause;

	doc = load(yaml, &cause);
	if (doc != NULL) {
		ydoc_free(doc);
		fail_msg("loaded, want error '%s'", want);
	}
	assert_non_null(cause);
	if (strcmp(cause, want) != 0)
		fail_msg("got '%s', want '%s'", cause, want);
	free(cause);
}

static void
test_duplicate_keys(void **state)
{
	struct ydoc		*doc;
	struct ynode		*root, *web;
	struct ynode *const	*dups;
	json_t			*j;
	char			*cause, *s;
	size_t			 n;

	(void)state;
	doc = load("web:\n  hosts:\n    - a\n  hosts:\n    b:\n"
	    "  vars: {x: 1, <<: {y: 2}, <<: {z: 3}}\n", &cause);
	assert_non_null(doc);
	root = ydoc_root(doc);
	web = ynode_get(root, "web");
	assert_int_equal(web->n, 3);
	assert_true(ynode_key_shadowed(web, 0));
	assert_false(ynode_key_repeated(web, 0));
	assert_true(ynode_key_repeated(web, 1));
	assert_false(ynode_key_shadowed(web, 1));
	/* the last one, as PyYAML */
	assert_int_equal(ynode_get(web, "hosts")->type, YNODE_MAP);
	dups = ydoc_duplicate_keys(doc, &n);
	assert_int_equal(n, 1);	/* merge keys may repeat */
	s = ypos_str(&dups[0]->pos);
	assert_string_equal(s, "t.yml:4:3");
	free(s);
	j = ynode_to_json(root);
	s = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS);
	assert_string_equal(s, "{\"web\":{\"hosts\":{\"b\":null},"
	    "\"vars\":{\"x\":1,\"y\":2,\"z\":3}}}");
	free(s);
	json_decref(j);
	ydoc_free(doc);
}

/* Merge keys as PyYAML's flatten_mapping: a later merge key over an
 * earlier one, the earlier maps of a merged list first, written keys over
 * all (tcptune kept the first merge and ignored lists). */
static void
test_merge_keys(void **state)
{
	struct ydoc	*doc;
	json_t		*j;
	char		*cause, *s;

	(void)state;
	doc = load("x: {<<: {a: 1}, <<: {a: 2}}\n"
	    "y: {<<: [{a: 1, b: 1}, {a: 2, c: 2}], c: 3}\n"
	    "z: {c: 3, <<: [{a: 1, b: 1}, {a: 2, c: 2}]}\n", &cause);
	assert_non_null(doc);
	j = ynode_to_json(ydoc_root(doc));
	s = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS);
	assert_string_equal(s, "{\"x\":{\"a\":2},\"y\":{\"a\":1,\"b\":1,"
	    "\"c\":3},\"z\":{\"a\":1,\"b\":1,\"c\":3}}");
	free(s);
	json_decref(j);
	ydoc_free(doc);
}

/* Many keys: the index that keeps duplicate detection linear. */
static void
test_duplicate_keys_large(void **state)
{
	struct strbuf		 sb;
	struct ydoc		*doc;
	struct ynode *const	*dups;
	json_t			*j;
	char			*cause = NULL;
	size_t			 i, n;

	(void)state;
	strbuf_init(&sb);
	for (i = 0; i < 20000; i++)
		strbuf_addf(&sb, "k%zu: %zu\n", i % 15000, i);
	doc = ydoc_load_buffer("t.yml", sb.buf, sb.len, &cause);
	assert_non_null(doc);
	dups = ydoc_duplicate_keys(doc, &n);
	assert_int_equal(n, 5000);
	assert_int_equal(dups[0]->pos.line, 15001);
	assert_true(ynode_key_shadowed(ydoc_root(doc), 0));
	assert_false(ynode_key_shadowed(ydoc_root(doc), 5000));
	j = ynode_to_json(ydoc_root(doc));
	assert_int_equal(json_integer_value(json_object_get(j, "k0")), 15000);
	json_decref(j);
	ydoc_free(doc);
	strbuf_release(&sb);
}

static void
test_alias_cycle(void **state)
{
	(void)state;
	expect_error("all:\n  vars:\n    x: &a [*a]\n",
	    "t.yml:3:12: alias '*a' refers to itself");
	expect_error("- hosts: all\n  vars:\n    x: &a {k: [1, {j: *a}]}\n",
	    "t.yml:3:23: alias '*a' refers to itself");
	expect_error("x: *nope\n", "t.yml:1:4: unknown alias 'nope'");
}

static void
test_billion_laughs(void **state)
{
	(void)state;
	expect_error("l0: &l0 [a,a,a,a,a,a,a,a,a,a]\n"
	    "l1: &l1 [*l0,*l0,*l0,*l0,*l0,*l0,*l0,*l0,*l0,*l0]\n"
	    "l2: &l2 [*l1,*l1,*l1,*l1,*l1,*l1,*l1,*l1,*l1,*l1]\n"
	    "l3: &l3 [*l2,*l2,*l2,*l2,*l2,*l2,*l2,*l2,*l2,*l2]\n"
	    "l4: &l4 [*l3,*l3,*l3,*l3,*l3,*l3,*l3,*l3,*l3,*l3]\n"
	    "l5: &l5 [*l4,*l4,*l4,*l4,*l4,*l4,*l4,*l4,*l4,*l4]\n"
	    "l6: &l6 [*l5,*l5,*l5,*l5,*l5,*l5,*l5,*l5,*l5,*l5]\n",
	    "t.yml:6:38: aliases expand to more than 1000000 nodes");
}

/* Few nodes, long strings: the same attack in bytes. */
static void
test_alias_bytes(void **state)
{
	struct strbuf	 sb;
	size_t		 i;
	char		*want;

	(void)state;
	strbuf_init(&sb);
	strbuf_addstr(&sb, "s: &s \"");
	for (i = 0; i < 1024 * 1024; i++)
		strbuf_addch(&sb, 'x');
	strbuf_addstr(&sb, "\"\nl: [");
	for (i = 0; i < 65; i++)
		strbuf_addstr(&sb, "*s,");
	strbuf_addstr(&sb, "]\n");
	want = xprintf("t.yml:2:%d: aliases expand to more than 64 MiB of "
	    "text", 5 + 3 * 64);
	expect_error(sb.buf, want);
	free(want);
	strbuf_release(&sb);
}

static char *
nested(size_t depth)
{
	char	*s = xmalloc(2 * depth + 8), *p = s;
	size_t	 i;

	p += sprintf(p, "x: ");
	for (i = 0; i < depth; i++)
		*p++ = '[';
	for (i = 0; i < depth; i++)
		*p++ = ']';
	strcpy(p, "\n");
	return s;
}

static void
test_depth(void **state)
{
	struct ydoc	*doc;
	char		*s, *cause;

	(void)state;
	/* the root mapping is a level: 255 sequences fit in it */
	s = nested(YDOC_MAX_DEPTH - 1);
	doc = load(s, &cause);
	assert_non_null(doc);
	ydoc_free(doc);
	free(s);
	s = nested(YDOC_MAX_DEPTH);
	expect_error(s, "t.yml:1:259: nesting deeper than 256 levels");
	free(s);
	/* yaml-deepseq-100000.yml of the fuzzing run: 88 s in libyaml */
	s = nested(100000);
	expect_error(s, "t.yml:1:259: nesting deeper than 256 levels");
	free(s);
}

/* Aliases add depth: 200 levels pasted inside 100 more. */
static void
test_alias_depth(void **state)
{
	struct strbuf	sb;
	size_t		i;

	(void)state;
	strbuf_init(&sb);
	strbuf_addstr(&sb, "a: &a ");
	for (i = 0; i < 200; i++)
		strbuf_addch(&sb, '[');
	for (i = 0; i < 200; i++)
		strbuf_addch(&sb, ']');
	strbuf_addstr(&sb, "\nb: ");
	for (i = 0; i < 100; i++)
		strbuf_addch(&sb, '[');
	strbuf_addstr(&sb, "*a");
	for (i = 0; i < 100; i++)
		strbuf_addch(&sb, ']');
	strbuf_addch(&sb, '\n');
	expect_error(sb.buf, "t.yml:2:104: alias '*a' nests deeper than 256 "
	    "levels");
	strbuf_release(&sb);
}

static void
test_input_size(void **state)
{
	char	*buf, *cause = NULL, *path, tmpl[] = "/tmp/test-ydoc.XXXXXX";
	size_t	 len = YDOC_MAX_INPUT + 1;
	FILE	*fp;
	int	 fd;

	(void)state;
	buf = xmalloc(len);
	memset(buf, '#', len);
	buf[99] = '\n';
	assert_null(ydoc_load_buffer("t.yml", buf, len, &cause));
	assert_string_equal(cause, "t.yml:2:16777117: input larger than 16 "
	    "MiB");
	free(cause);
	cause = NULL;
	assert_true((fd = mkstemp(tmpl)) >= 0);
	assert_non_null(fp = fdopen(fd, "w"));
	assert_int_equal(fwrite(buf, 1, len, fp), len);
	fclose(fp);
	assert_null(ydoc_load_file(tmpl, &cause));
	path = xprintf("%s:2:16777117: input larger than 16 MiB", tmpl);
	assert_string_equal(cause, path);
	free(path);
	free(cause);
	unlink(tmpl);
	free(buf);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_resolver),
		cmocka_unit_test(test_resolver_quoted),
		cmocka_unit_test(test_duplicate_keys),
		cmocka_unit_test(test_duplicate_keys_large),
		cmocka_unit_test(test_merge_keys),
		cmocka_unit_test(test_alias_cycle),
		cmocka_unit_test(test_billion_laughs),
		cmocka_unit_test(test_alias_bytes),
		cmocka_unit_test(test_depth),
		cmocka_unit_test(test_alias_depth),
		cmocka_unit_test(test_input_size),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
