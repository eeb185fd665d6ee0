/* Templates and `when`: paths, subscripts, filters, native types, errors
 * with positions, and a truth table of expressions as Jinja2 evaluates
 * them. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "template/expr.h"
#include "template/template.h"
#include "yaml/ydoc.h"

static json_t *
test_vars(void)
{
	json_error_t	 err;
	json_t		*v;

	v = json_loads("{"
	    "\"rtt_ms\": 92.5, \"peer\": \"198.18.0.2\", \"n\": 3,"
	    "\"zero\": 0, \"empty\": \"\", \"nothing\": null, \"yes\": true,"
	    "\"no\": false, \"name\": \"Web\", \"list\": [1, 2, 3],"
	    "\"words\": [\"a\", \"b\", \"c\"], \"ten\": \"10\","
	    "\"facts\": {\"mem_total_bytes\": 1073741824,"
	    "  \"kernel\": {\"release\": \"6.18.0\"},"
	    "  \"congestion_available\": [\"reno\", \"cubic\", \"bbr\"]},"
	    "\"groups\": {\"web\": [\"w1\", \"w2\"], \"all\": [\"w1\", \"w2\","
	    "  \"db\"]},"
	    "\"inventory_hostname\": \"w1\""
	    "}", 0, &err);
	assert_non_null(v);
	return v;
}

static const struct ypos pos = { "playbooks/x.yml", 9, 15 };

/* A template that is exactly one `{{ expr }}` is checked as the
 * expression's own value (what these cases test is the expression
 * language; what Ansible's concat then makes of it is test_concat's). */
static char *
render_text(const char *tmpl)
{
	json_t	*vars = test_vars(), *out;
	char	*cause = NULL, *s, *inner;
	size_t	 len = strlen(tmpl);

	if (len > 4 && strncmp(tmpl, "{{", 2) == 0 &&
	    strcmp(tmpl + len - 2, "}}") == 0 &&
	    strstr(tmpl + 2, "{{") == NULL && strstr(tmpl, "}}") ==
	    tmpl + len - 2) {
		inner = strndup(tmpl + 2, len - 4);
		if (expr_eval(inner, 2, vars, &out, &cause) != EXPR_OK)
			out = NULL;
		free(inner);
	} else
		out = template_render_string(tmpl, vars, &pos, &cause);
	if (out == NULL)
		fail_msg("render '%s': %s", tmpl, cause);
	s = json_dumps(out, JSON_ENCODE_ANY | JSON_COMPACT);
	json_decref(out);
	json_decref(vars);
	return s;
}

static void
check_render(const char *tmpl, const char *want_json)
{
	char *got = render_text(tmpl);

	if (strcmp(got, want_json) != 0)
		fail_msg("'%s': got %s, want %s", tmpl, got, want_json);
	free(got);
}

static void
check_render_error(const char *tmpl, const char *want)
{
	json_t	*vars = test_vars(), *out;
	char	*cause = NULL;

	out = template_render_string(tmpl, vars, &pos, &cause);
	if (out != NULL)
		fail_msg("'%s' rendered, want error %s", tmpl, want);
	if (strcmp(cause, want) != 0)
		fail_msg("'%s': got error\n  %s\nwant\n  %s", tmpl, cause,
		    want);
	free(cause);
	json_decref(vars);
}

static void
test_plain_strings(void **state)
{
	(void)state;
	check_render("no template here", "\"no template here\"");
	check_render("", "\"\"");
	check_render("a { b } c", "\"a { b } c\"");
}

static void
test_native_types(void **state)
{
	(void)state;
	/* exactly one {{ }} keeps the type */
	check_render("{{ rtt_ms }}", "92.5");
	check_render("{{ n }}", "3");
	check_render("{{ yes }}", "true");
	check_render("{{ nothing }}", "null");
	check_render("{{ list }}", "[1,2,3]");
	check_render("{{ facts.kernel }}", "{\"release\":\"6.18.0\"}");
	check_render("{{n}}", "3");
	/* mixed text makes a string, Python-style */
	check_render("rtt={{ rtt_ms }}ms", "\"rtt=92.5ms\"");
	check_render(" {{ n }}", "\" 3\"");
	check_render("{{ n }}{{ n }}", "\"33\"");
	check_render("{{ yes }}/{{ nothing }}", "\"True/\"");
	check_render("{{ 2.0 }} {{ 1e20 }} {{ 0.1 }}", "\"2.0 1e+20 0.1\"");
	/* a list in text: Python's str() of it, as Jinja2 renders it */
	check_render("{{ words }}!", "\"['a', 'b', 'c']!\"");
	/* "}}" inside a quoted string does not end the block */
	check_render("{{ '}}' }}", "\"}}\"");
}

static void
test_paths(void **state)
{
	(void)state;
	check_render("{{ facts.mem_total_bytes }}", "1073741824");
	check_render("{{ facts.kernel.release }}", "\"6.18.0\"");
	check_render("{{ facts['kernel']['release'] }}", "\"6.18.0\"");
	check_render("{{ groups.web[0] }}", "\"w1\"");
	check_render("{{ groups.web.1 }}", "\"w2\"");
	check_render("{{ groups['web'][-1] }}", "\"w2\"");
	check_render("{{ groups[inventory_hostname == 'w1' and 'web' or 'all']"
	    "[0] }}", "\"w1\"");
	check_render("{{ list[n - 1] }}", "3");
}

static void
test_filters(void **state)
{
	(void)state;
	check_render("{{ missing | default(5) }}", "5");
	check_render("{{ missing | d('x') }}", "\"x\"");
	check_render("{{ facts.nope | default(1) }}", "1");
	check_render("{{ missing.deeper.still | default(2) }}", "2");
	check_render("{{ n | default(5) }}", "3");
	check_render("{{ empty | default('e') }}", "\"\"");
	check_render("{{ empty | default('e', true) }}", "\"e\"");
	check_render("{{ missing | default }}", "\"\"");
	check_render("{{ ten | int }}", "10");
	check_render("{{ '12.7' | int }}", "12");
	check_render("{{ 'ten' | int }}", "0");
	check_render("{{ 'ten' | int(7) }}", "7");
	check_render("{{ rtt_ms | int }}", "92");
	check_render("{{ ten | float }}", "10.0");
	check_render("{{ n | float }}", "3.0");
	check_render("{{ n | string }}", "\"3\"");
	check_render("{{ rtt_ms | string }}", "\"92.5\"");
	check_render("{{ 'yes' | bool }}", "true");
	check_render("{{ 'On' | bool }}", "true");
	check_render("{{ 'no' | bool }}", "false");
	check_render("{{ 1 | bool }}", "true");
	check_render("{{ name | lower }}", "\"web\"");
	check_render("{{ name | upper }}", "\"WEB\"");
	check_render("{{ '  x ' | trim }}", "\"x\"");
	check_render("{{ list | length }}", "3");
	check_render("{{ name | length }}", "3");
	check_render("{{ 'caf\xc3\xa9' | length }}", "4");
	check_render("{{ facts | length }}", "3");
	check_render("{{ words | join(',') }}", "\"a,b,c\"");
	check_render("{{ list | join }}", "\"123\"");
	check_render("{{ words | first }}", "\"a\"");
	check_render("{{ words | last }}", "\"c\"");
	check_render("{{ list | max }}", "3");
	check_render("{{ list | min }}", "1");
	check_render("{{ -3 | abs }}", "3");
	check_render("{{ 2.345 | round(1) | string }}", "\"2.3\"");
	check_render("{{ name | replace('W', 'w') }}", "\"web\"");
	check_render("{{ (rtt_ms * 2) | int | string | length }}", "3");
	check_render("{{ facts.mem_total_bytes // 64 }}", "16777216");
}

static void
test_operators(void **state)
{
	(void)state;
	check_render("{{ 1 + 2 * 3 }}", "7");
	check_render("{{ (1 + 2) * 3 }}", "9");
	check_render("{{ 7 / 2 }}", "3.5");
	check_render("{{ 7 // 2 }}", "3");
	check_render("{{ -7 // 2 }}", "-4");
	check_render("{{ -7 % 3 }}", "2");
	check_render("{{ 'a' ~ n ~ 'b' }}", "\"a3b\"");
	check_render("{{ 'a' + 'b' }}", "\"ab\"");
	check_render("{{ [1] + [2] }}", "[1,2]");
	check_render("{{ {'k': n} }}", "{\"k\":3}");
	check_render("{{ 'big' if n > 2 else 'small' }}", "\"big\"");
	check_render("{{ n or 5 }}", "3");
	check_render("{{ zero or 5 }}", "5");
	check_render("{{ n and 'x' }}", "\"x\"");
}

static void
test_errors(void **state)
{
	(void)state;
	check_render_error("{{ rtt_msx }}",
	    "playbooks/x.yml:9:15: undefined variable 'rtt_msx'");
	check_render_error("rtt {{ rtt_msx }} ms",
	    "playbooks/x.yml:9:15: undefined variable 'rtt_msx'");
	check_render_error("{{ facts.mem_totl }}",
	    "playbooks/x.yml:9:15: undefined variable 'facts.mem_totl'");
	check_render_error("{{ groups.web[5] }}",
	    "playbooks/x.yml:9:15: undefined variable 'groups.web[5]'");
	check_render_error("{{ groups['db'][0] }}",
	    "playbooks/x.yml:9:15: undefined variable 'groups['db']'");
	check_render_error("{{ missing.deeper }}",
	    "playbooks/x.yml:9:15: undefined variable 'missing'");
	check_render_error("{{ missing | int }}",
	    "playbooks/x.yml:9:15: undefined variable 'missing'");
	check_render_error("{{ x",
	    "playbooks/x.yml:9:15: invalid template '{{ x': missing '}}'");
	check_render_error("{{ x + }}",
	    "playbooks/x.yml:9:15: invalid template '{{ x + }}': unexpected "
	    "end of expression");
	check_render_error("{{ }}",
	    "playbooks/x.yml:9:15: invalid template '{{ }}': empty "
	    "expression");
	check_render_error("{{ n | nosuch }}",
	    "playbooks/x.yml:9:15: invalid template '{{ n | nosuch }}': "
	    "unknown filter 'nosuch' at character 8");
	/* a collection's filter is Python: named, with its collection */
	check_render_error("{{ n | debops.debops.parse_kv_items }}",
	    "playbooks/x.yml:9:15: invalid template '{{ n | "
	    "debops.debops.parse_kv_items }}': filter "
	    "'debops.debops.parse_kv_items' at character 8 is a Python plugin "
	    "of the collection 'debops.debops', which tcptune does not run "
	    "(docs/playbooks.md lists the filters it has)");
	check_render_error("{{ n | join(',', 2, 3) }}",
	    "playbooks/x.yml:9:15: invalid template '{{ n | join(',', 2, 3) "
	    "}}': filter 'join' takes 0 to 2 arguments, got 3 at "
	    "character 8");
	/* statements render (tests/unit/test-template-ansible.c) */
	check_render_error("{% if x %}y{% endif %}",
	    "playbooks/x.yml:9:15: undefined variable 'x'");
	check_render_error("{{ 'a' + 1 }}",
	    "playbooks/x.yml:9:15: unsupported operand types for +: string and "
	    "int in '{{ 'a' + 1 }}'");
	check_render_error("{{ n / 0 }}",
	    "playbooks/x.yml:9:15: division by zero in '{{ n / 0 }}'");
	check_render_error("{{ 'it }}",
	    "playbooks/x.yml:9:15: invalid template '{{ 'it }}': missing '}}'");
}

static void
test_render_recursive(void **state)
{
	json_t	*vars = test_vars(), *in, *out;
	char	*cause = NULL, *s;

	(void)state;
	in = json_loads("{\"a\": \"{{ n }}\", \"b\": [\"{{ peer }}\", 1, "
	    "{\"c\": \"x{{ n }}\"}], \"{{ key }}\": true}", 0, NULL);
	out = template_render(in, vars, &pos, &cause);
	assert_non_null(out);
	s = json_dumps(out, JSON_COMPACT | JSON_SORT_KEYS);
	assert_string_equal(s, "{\"a\":3,\"b\":[\"198.18.0.2\",1,{\"c\":\"x3\"}],"
	    "\"{{ key }}\":true}");
	free(s);
	json_decref(out);
	json_decref(in);

	in = json_loads("[\"ok\", {\"k\": \"{{ nope }}\"}]", 0, NULL);
	assert_null(template_render(in, vars, &pos, &cause));
	assert_string_equal(cause,
	    "playbooks/x.yml:9:15: undefined variable 'nope'");
	free(cause);
	json_decref(in);
	json_decref(vars);
}

/* The truth table: each expression and what Jinja2 makes of it. */
static const struct {
	const char	*expr;
	int		 want;
} truth[] = {
	{ "true", 1 }, { "True", 1 }, { "false", 0 }, { "none", 0 },
	{ "n", 1 }, { "zero", 0 }, { "empty", 0 }, { "nothing", 0 },
	{ "list", 1 }, { "[]", 0 }, { "{}", 0 }, { "'0'", 1 }, { "0.0", 0 },
	{ "n == 3", 1 }, { "n == 3.0", 1 }, { "n != 3", 0 },
	{ "n < 4", 1 }, { "n <= 3", 1 }, { "n > 3", 0 }, { "n >= 3", 1 },
	{ "rtt_ms > 90", 1 }, { "rtt_ms < 90.1", 0 },
	{ "'abc' < 'abd'", 1 }, { "[1, 2] < [1, 3]", 1 },
	{ "name == 'Web'", 1 }, { "name == 'web'", 0 },
	{ "ten == 10", 0 }, { "ten | int == 10", 1 },
	{ "yes and n", 1 }, { "yes and zero", 0 }, { "no or n", 1 },
	{ "no or zero", 0 }, { "not no", 1 }, { "not n", 0 },
	{ "not not n", 1 }, { "no and missing", 0 }, { "yes or missing", 1 },
	{ "(no or yes) and not (zero or empty)", 1 },
	{ "not n == 4", 1 }, { "not (n == 3 or no)", 0 },
	{ "'bbr' in facts.congestion_available", 1 },
	{ "'fq' in facts.congestion_available", 0 },
	{ "'fq' not in facts.congestion_available", 1 },
	{ "'eb' in name", 1 }, { "'kernel' in facts", 1 },
	{ "2 in list", 1 }, { "inventory_hostname in groups.web", 1 },
	{ "inventory_hostname in groups['db'] | default([])", 0 },
	{ "n is defined", 1 }, { "missing is defined", 0 },
	{ "missing is not defined", 1 }, { "missing is undefined", 1 },
	{ "facts.kernel.release is defined", 1 },
	{ "facts.nope is defined", 0 }, { "missing.x is not defined", 1 },
	{ "groups.web[9] is defined", 0 },
	{ "nothing is none", 1 }, { "n is number", 1 },
	{ "n is integer", 1 }, { "rtt_ms is float", 1 },
	{ "name is string", 1 }, { "facts is mapping", 1 },
	{ "list is sequence", 1 }, { "yes is boolean", 1 },
	{ "n is odd", 1 }, { "n is even", 0 }, { "n is not even", 1 },
	{ "missing | default(3) == n", 1 },
	{ "facts.mem_total_bytes >= 1024 * 1024 * 1024", 1 },
	{ "list | length > 2 and words | join == 'abc'", 1 },
	{ "{{ n == 3 }}", 1 }, { "  {{ zero }} ", 0 },
};

static void
test_when_truth_table(void **state)
{
	json_t	*vars = test_vars();
	char	*cause = NULL;
	size_t	 i;
	int	 got;

	(void)state;
	for (i = 0; i < sizeof truth / sizeof truth[0]; i++) {
		got = -1;
		if (template_eval_bool(truth[i].expr, vars, &pos, &got,
		    &cause) != 0)
			fail_msg("'%s': %s", truth[i].expr, cause);
		if (got != truth[i].want)
			fail_msg("'%s': got %d, want %d", truth[i].expr, got,
			    truth[i].want);
		assert_int_equal(template_check_when(truth[i].expr, NULL), 0);
	}
	json_decref(vars);
}

static const struct {
	const char	*expr;
	const char	*want;
} when_errors[] = {
	{ "rtt_msx > 50", "playbooks/x.yml:9:15: undefined variable "
	    "'rtt_msx'" },
	{ "missing", "playbooks/x.yml:9:15: undefined variable 'missing'" },
	{ "not facts.nope", "playbooks/x.yml:9:15: undefined variable "
	    "'facts.nope'" },
	{ "n = 3", "playbooks/x.yml:9:15: invalid when expression 'n = 3': "
	    "unexpected '=' at character 3" },
	{ "n ==", "playbooks/x.yml:9:15: invalid when expression 'n ==': "
	    "unexpected end of expression" },
	{ "(n == 3", "playbooks/x.yml:9:15: invalid when expression "
	    "'(n == 3': unexpected end of expression" },
	{ "n == 3)", "playbooks/x.yml:9:15: invalid when expression "
	    "'n == 3)': unexpected ')' at character 7" },
	{ "n is frobbed", "playbooks/x.yml:9:15: invalid when expression "
	    "'n is frobbed': unknown test 'frobbed' at character 6" },
	{ "name == 'x", "playbooks/x.yml:9:15: invalid when expression "
	    "'name == 'x': unterminated string at character 9" },
	{ "n && yes", "playbooks/x.yml:9:15: invalid when expression "
	    "'n && yes': unexpected '&' at character 3" },
	{ "n < 'a'", "playbooks/x.yml:9:15: '<' not supported between int "
	    "and string in when expression 'n < 'a''" },
	{ "3 in n", "playbooks/x.yml:9:15: argument of type int is not "
	    "iterable in when expression '3 in n'" },
};

static void
test_when_errors(void **state)
{
	json_t	*vars = test_vars();
	char	*cause = NULL;
	size_t	 i;
	int	 got;

	(void)state;
	for (i = 0; i < sizeof when_errors / sizeof when_errors[0]; i++) {
		cause = NULL;
		if (template_eval_bool(when_errors[i].expr, vars, &pos, &got,
		    &cause) == 0)
			fail_msg("'%s' evaluated to %d", when_errors[i].expr,
			    got);
		if (strcmp(cause, when_errors[i].want) != 0)
			fail_msg("'%s': got\n  %s\nwant\n  %s",
			    when_errors[i].expr, cause, when_errors[i].want);
		free(cause);
	}
	/* lint sees syntax errors only; undefined names are for run time */
	assert_int_equal(template_check_when("rtt_msx > 50", NULL), 0);
	assert_int_equal(template_check_when("n = 3", &cause), -1);
	assert_string_equal(cause, "invalid when expression 'n = 3': "
	    "unexpected '=' at character 3");
	free(cause);
	json_decref(vars);
}

static void
test_check(void **state)
{
	char *cause = NULL;

	(void)state;
	assert_int_equal(template_check("a {{ b }} {{ c | default(1) }}",
	    NULL), 0);
	assert_int_equal(template_check("plain", NULL), 0);
	assert_int_equal(template_check("{{ undefined_is_fine_here }}", NULL),
	    0);
	assert_int_equal(template_check("ok {{ b }} {{ c", &cause), -1);
	assert_string_equal(cause, "invalid template 'ok {{ b }} {{ c': "
	    "missing '}}'");
	free(cause);
	assert_true(template_has("x {{ y }}"));
	assert_false(template_has("x { y }"));
}

static void
test_to_text(void **state)
{
	static const struct {
		const char *json, *text;
	} cases[] = {
		{ "1.5", "1.5" }, { "2.0", "2.0" }, { "0.1", "0.1" },
		{ "1e16", "1e+16" }, { "123456.789", "123456.789" },
		{ "0.0001", "0.0001" }, { "0.00001", "1e-05" },
		{ "-3", "-3" }, { "true", "True" }, { "null", "None" },
		{ "\"s\"", "s" }, { "[1,\"a\"]", "[1, 'a']" },
		{ "{\"k\":[0.5,null,\"it's\"]}", "{'k': [0.5, None, \"it's\"]}" },
		/* Python's repr() of a list and a dict's items */
		{ "{\"k\": \"it's\", \"n\": [true, null, 1.5, \"a\\nb\\\\\","
		  " \"q\\\"'\"]}",
		  "{'k': \"it's\", 'n': [True, None, 1.5, 'a\\nb\\\\', "
		  "'q\"\\'']}" },
	};
	size_t	 i;
	json_t	*v;
	char	*s;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		v = json_loads(cases[i].json, JSON_DECODE_ANY, NULL);
		assert_non_null(v);
		s = template_to_text(v);
		if (strcmp(s, cases[i].text) != 0)
			fail_msg("%s: got '%s', want '%s'", cases[i].json, s,
			    cases[i].text);
		free(s);
		json_decref(v);
	}
}

/* expr-invalid-utf8-literal.txt of the fuzzing run: a string literal that
 * is not UTF-8 made a NULL value, dereferenced by the evaluator. */
static void
test_invalid_utf8_literal(void **state)
{
	char	 src[64], *cause = NULL;
	json_t	*out = NULL;
	FILE	*fp;
	size_t	 n;

	(void)state;
	fp = fopen("tests/data/fuzz-regress/yaml/expr-invalid-utf8-literal.txt",
	    "rb");
	assert_non_null(fp);
	n = fread(src, 1, sizeof src - 1, fp);
	fclose(fp);
	src[n] = '\0';
	assert_int_equal(expr_eval(src, 0, NULL, &out, &cause), EXPR_SYNTAX);
	assert_null(out);
	assert_string_equal(cause, "invalid UTF-8 in string at character 1");
	free(cause);
	cause = NULL;
	assert_int_equal(expr_eval("x == '\xe2\x82'", 0, NULL, &out, &cause),
	    EXPR_SYNTAX);
	assert_string_equal(cause, "invalid UTF-8 in string at character 6");
	free(cause);
	cause = NULL;
	assert_int_equal(expr_eval("1 \xff 2", 0, NULL, &out, &cause),
	    EXPR_SYNTAX);
	assert_string_equal(cause, "unexpected byte 0xff at character 3");
	free(cause);
	/* text around the blocks too: jansson would refuse the result */
	check_render_error("a\xc3 {{ n }}", "playbooks/x.yml:9:15: invalid "
	    "UTF-8 in 'a\xc3 {{ n }}'");
	/* and valid multibyte text is kept whole */
	check_render("{{ 'h\xc3\xa9' | last }}", "\"\xc3\xa9\"");
	check_render("{{ '\xe2\x82\xac" "1' | first }}", "\"\xe2\x82\xac\"");
}

static char *
repeated(const char *head, const char *unit, size_t n, const char *tail)
{
	size_t	 ul = strlen(unit), hl = strlen(head);
	char	*s = malloc(hl + ul * n + strlen(tail) + 1), *p = s;
	size_t	 i;

	assert_non_null(s);
	memcpy(p, head, hl);
	p += hl;
	for (i = 0; i < n; i++, p += ul)
		memcpy(p, unit, ul);
	strcpy(p, tail);
	return s;
}

static void
check_when_limit(char *expr, const char *want)
{
	char *cause = NULL;

	assert_int_equal(template_check_when(expr, &cause), -1);
	if (strcmp(cause, want) != 0)
		fail_msg("got\n  %s\nwant\n  %s", cause, want);
	free(cause);
	free(expr);
}

/* when-deep-100000.yml and when-not-100000.yml of the fuzzing run: the
 * parser recursed until the stack ran out. */
static void
test_depth_limits(void **state)
{
	char	*s, *p, *cause = NULL;
	json_t	*out;
	size_t	 i;

	(void)state;
	s = repeated("", "(", 100000, "1");
	p = repeated(s, ")", 100000, "");
	free(s);
	check_when_limit(p, "invalid when expression '((((((((((((((((((((("
	    "((((((((((((((((((((((((((((((((((((((((((((((((((((((((...': "
	    "expression nests deeper than 100 levels at character 101");
	check_when_limit(repeated("", "not ", 100000, "x"),
	    "invalid when expression 'not not not not not not not not not "
	    "not not not not not not not not not not n...': expression nests "
	    "deeper than 100 levels at character 401");
	check_when_limit(repeated("", "-", 100000, "1"),
	    "invalid when expression '---------------------------------------"
	    "--------------------------------------...': expression nests "
	    "deeper than 100 levels at character 101");
	check_when_limit(repeated("", "[", 5000, ""),
	    "invalid when expression '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["
	    "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[...': expression nests "
	    "deeper than 100 levels at character 101");
	/* chains build a deep tree without recursing in the parser */
	check_when_limit(repeated("1", " + 1", 100000, ""),
	    "invalid when expression '1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 "
	    "+ 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1...': expression has "
	    "more than 1000 operators in a chain at character 4007");
	check_when_limit(repeated("x", "|int", 100000, ""),
	    "invalid when expression 'x|int|int|int|int|int|int|int|int|int|"
	    "int|int|int|int|int|int|int|int|int|int...': expression has "
	    "more than 1000 operators in a chain at character 4006");
	check_when_limit(repeated("x", ".a", 100000, ""),
	    "invalid when expression 'x.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a."
	    "a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a...': expression has more "
	    "than 1000 operators in a chain at character 2004");
	/* up to the limits, evaluation works */
	s = repeated("", "(", EXPR_MAX_NESTING - 1, "1");
	p = repeated(s, ")", EXPR_MAX_NESTING - 1, "");
	free(s);
	assert_int_equal(expr_eval(p, 0, NULL, &out, &cause), EXPR_OK);
	assert_int_equal(json_integer_value(out), 1);
	json_decref(out);
	free(p);
	p = repeated("1", " + 1", EXPR_MAX_DEPTH - 1, "");
	assert_int_equal(expr_eval(p, 0, NULL, &out, &cause), EXPR_OK);
	assert_int_equal(json_integer_value(out), EXPR_MAX_DEPTH);
	json_decref(out);
	free(p);
	for (i = 0; i < 2; i++) {
		p = repeated("", "not ", EXPR_MAX_NESTING - 1 - i, "true");
		assert_int_equal(expr_eval(p, 0, NULL, &out, &cause), EXPR_OK);
		assert_true(json_is_boolean(out));
		json_decref(out);
		free(p);
	}
}

/* Python's ints do not overflow and its floats print inf; jansson holds
 * neither, so these are errors instead of undefined behaviour or NULL. */
static void
test_number_limits(void **state)
{
	(void)state;
	check_render_error("{{ 9223372036854775807 + 1 }}",
	    "playbooks/x.yml:9:15: integer overflow in '+' in "
	    "'{{ 9223372036854775807 + 1 }}'");
	check_render_error("{{ -9223372036854775807 - 2 }}",
	    "playbooks/x.yml:9:15: integer overflow in '-' in "
	    "'{{ -9223372036854775807 - 2 }}'");
	check_render_error("{{ 4294967296 * 4294967296 }}",
	    "playbooks/x.yml:9:15: integer overflow in '*' in "
	    "'{{ 4294967296 * 4294967296 }}'");
	check_render_error("{{ (-9223372036854775807 - 1) // -1 }}",
	    "playbooks/x.yml:9:15: integer overflow in '//' in "
	    "'{{ (-9223372036854775807 - 1) // -1 }}'");
	check_render_error("{{ (-9223372036854775807 - 1) % -1 }}",
	    "playbooks/x.yml:9:15: integer overflow in '%' in "
	    "'{{ (-9223372036854775807 - 1) % -1 }}'");
	check_render_error("{{ -(-9223372036854775807 - 1) }}",
	    "playbooks/x.yml:9:15: integer overflow in unary - in "
	    "'{{ -(-9223372036854775807 - 1) }}'");
	check_render_error("{{ (-9223372036854775807 - 1) | abs }}",
	    "playbooks/x.yml:9:15: integer overflow in abs in "
	    "'{{ (-9223372036854775807 - 1) | abs }}'");
	check_render_error("{{ 1e300 * 1e300 }}",
	    "playbooks/x.yml:9:15: float result out of range in "
	    "'{{ 1e300 * 1e300 }}'");
	check_render_error("{{ 1e300 | int }}",
	    "playbooks/x.yml:9:15: value out of range for int in "
	    "'{{ 1e300 | int }}'");
	check_render_error("{{ '1e999' | float }}",
	    "playbooks/x.yml:9:15: value out of range for float in "
	    "'{{ '1e999' | float }}'");
	check_render_error("{{ 00000000000000000000000000000000000000000000000"
	    "000000000000000000001 }}", "playbooks/x.yml:9:15: invalid "
	    "template '{{ 0000000000000000000000000000000000000000000000000000"
	    "0000000000000001 }}': number too long at character 4");
	check_render("{{ 1.5 | round(400) }}", "1.5");
	check_render("{{ 9223372036854775806 + 1 }}", "9223372036854775807");
}

/* Shell text: the author's text stays, each value is one quoted word. */
static void
test_render_shell(void **state)
{
	json_t	*vars = json_pack("{s:s, s:s, s:i, s:s}", "evil",
	    "$(touch /tmp/x); `id` 'q' \n rm", "plain", "eth0", "n", 3,
	    "dash", "-f");
	json_t	*r;
	char	*cause = NULL;

	(void)state;
	r = template_render_shell("echo {{ evil }} > /tmp/out", vars, NULL,
	    &cause);
	assert_non_null(r);
	assert_string_equal(json_string_value(r), "echo '$(touch /tmp/x); "
	    "`id` '\\''q'\\'' \n rm' > /tmp/out");
	json_decref(r);
	/* A lone substitution is still a quoted string, never a bare value. */
	r = template_render_shell("{{ n }}", vars, NULL, &cause);
	assert_string_equal(json_string_value(r), "'3'");
	json_decref(r);
	r = template_render_shell("ip link show {{ plain }}; ls {{ dash }}",
	    vars, NULL, &cause);
	assert_string_equal(json_string_value(r),
	    "ip link show 'eth0'; ls '-f'");
	json_decref(r);
	r = template_render_shell("uptime", vars, NULL, &cause);
	assert_string_equal(json_string_value(r), "uptime");
	json_decref(r);
	assert_null(template_render_shell("echo {{ nope }}", vars, NULL,
	    &cause));
	assert_string_equal(cause, "undefined variable 'nope'");
	free(cause);
	/* No statements in shell text: their output could not be one word. */
	assert_null(template_render_shell("{% if n %}rm -rf x{% endif %}",
	    vars, NULL, &cause));
	assert_string_equal(cause, "invalid template '{% if n %}rm -rf x{% "
	    "endif %}': '{%' blocks are not supported in shell text");
	free(cause);
	json_decref(vars);
}

/* What a template's value is, as ansible-core 2.14's Templar and
 * ansible_eval_concat make it (each checked against ansible-playbook's
 * debug output: tests/data/lang4/vars.yml). */
static json_t *
lazy_vars(void)
{
	json_error_t	 err;
	json_t		*v;

	v = json_loads("{\"a\": \"{{ b }}\", \"b\": \"{{ c }}\", \"c\": 3,"
	    "\"n\": null, \"l\": [\"{{ c }}\", \"x{{ b }}\"],"
	    "\"m\": {\"k\": \"{{ a }}\"}, \"u\": \"{{ nope }}\","
	    "\"x\": \"{{ y }}\", \"y\": \"{{ x | default(1) }}\","
	    "\"out\": \"{{ c }}\", \"r\": {\"stdout\": \"{{ c }}\"}}",
	    0, &err);
	assert_non_null(v);
	/* r is a registered result: data */
	template_mark_unsafe(v, "r");
	return v;
}

static void
check_lazy(const char *tmpl, const char *want_json)
{
	json_t	*vars = lazy_vars(), *out;
	char	*cause = NULL, *got;

	out = template_render_string(tmpl, vars, &pos, &cause);
	if (out == NULL)
		fail_msg("render '%s': %s", tmpl, cause);
	got = json_dumps(out, JSON_ENCODE_ANY | JSON_COMPACT);
	if (strcmp(got, want_json) != 0)
		fail_msg("'%s': got %s, want %s", tmpl, got, want_json);
	free(got);
	json_decref(out);
	json_decref(vars);
}

static void
check_lazy_error(const char *tmpl, const char *want)
{
	json_t	*vars = lazy_vars(), *out;
	char	*cause = NULL;

	out = template_render_string(tmpl, vars, &pos, &cause);
	if (out != NULL)
		fail_msg("'%s' rendered, want error %s", tmpl, want);
	if (strcmp(cause, want) != 0)
		fail_msg("'%s': got error '%s', want '%s'", tmpl, cause, want);
	free(cause);
	json_decref(vars);
}

static void
test_concat(void **state)
{
	(void)state;
	check_lazy("{{ c * 1.5 }}", "\"4.5\"");	/* a number: its text */
	check_lazy("{{ 1 + 2 }}", "\"3\"");
	check_lazy("{{ none }}", "\"\"");
	check_lazy("{{ [1, 'a'] }}", "[1,\"a\"]");
	check_lazy("{{ {'k': 1} }}", "{\"k\":1}");
	check_lazy("{{ 1 == 1 }}", "true");
	check_lazy("{{ 'Tr' }}{{ 'ue' }}", "true");
	check_lazy("x{{ 1 }}", "\"x1\"");
	check_lazy("x{{ none }}", "\"x\"");
	/* a text that reads as a Python literal is its value */
	check_lazy("[{{ c }}, '{{ c }}']", "[3,\"3\"]");
	check_lazy("{{ '{\"k\": 1}' }}", "{\"k\":1}");
	/* a text filter's text stays text (NativeJinjaText) */
	check_lazy("{{ {'k': 1} | to_json }}", "\"{\\\"k\\\": 1}\"");
	check_lazy("{{ [c] | string }}", "\"[3]\"");
	check_lazy("x{{ [c] | string }}", "\"x[3]\"");
	check_lazy("[{{ 'x' }}]", "\"[x]\"");
	check_lazy("[1, 2]", "\"[1, 2]\"");	/* no template: the text */
	check_lazy("True", "\"True\"");
}

/* Variables that reference variables: rendered when read, as Ansible's. */
static void
test_lazy(void **state)
{
	(void)state;
	check_lazy("{{ c }}", "3");		/* SINGLE_VAR of a number */
	check_lazy("{{ n }}", "null");
	check_lazy("{{ a }}", "\"3\"");
	check_lazy("{{ b }}", "\"3\"");
	check_lazy("{{ a | int + 1 }}", "\"4\"");
	check_lazy("{{ l }}", "[3,\"x3\"]");
	check_lazy("{{ m.k }}", "\"3\"");
	check_lazy("{{ u | default('d') }} {{ u is defined }}", "\"d False\"");
	/* a registered result is data: not templated again */
	check_lazy("{{ r.stdout }}", "\"{{ c }}\"");
	check_lazy_error("{{ u }}", "playbooks/x.yml:9:15: undefined variable "
	    "'u' (undefined variable 'nope')");
	check_lazy_error("{{ x }}", "playbooks/x.yml:9:15: recursive loop "
	    "detected in template string: {{ y }} (variable 'x') in "
	    "'{{ x }}'");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_strings),
		cmocka_unit_test(test_native_types),
		cmocka_unit_test(test_paths),
		cmocka_unit_test(test_filters),
		cmocka_unit_test(test_operators),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_render_recursive),
		cmocka_unit_test(test_when_truth_table),
		cmocka_unit_test(test_when_errors),
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_to_text),
		cmocka_unit_test(test_invalid_utf8_literal),
		cmocka_unit_test(test_depth_limits),
		cmocka_unit_test(test_number_limits),
		cmocka_unit_test(test_render_shell),
		cmocka_unit_test(test_concat),
		cmocka_unit_test(test_lazy),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
