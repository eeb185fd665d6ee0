/* Templates against Ansible's own rendering, as the template module
 * renders a file (template_render_text) or, for a case with "playbook":
 * true, as a task's string is (template_render_string): Jinja2's statements
 * (lib/template/stmt.c; tests/data/template/stmt-cases.json) and every
 * filter, test, method and function of the expression language (the rows
 * of expr-filters.c and the files beside it: expr-int.h lists them;
 * filter-cases.json). Each case (a template, its
 * vars) holds what Ansible's Templar made of it when the case was written
 * (its "want": the text, or the kind of error); tcptune must make the same
 * text, or fail where Ansible fails. Where ansible-core is installed, every
 * case is also rendered by Ansible now (tests/data/template/
 * ansible-template.py) and must still give its "want", so the tables
 * cannot drift from Ansible. */
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "template/template.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "ansible-driver.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static json_t *
load_cases(const char *name)
{
	const char	*src = getenv("TCPTUNE_SRC");
	char		*path;
	json_t		*cases;
	json_error_t	 err;

	path = xprintf("%s/tests/data/template/%s", src != NULL ? src : ".",
	    name);
	cases = json_load_file(path, 0, &err);
	if (cases == NULL)
		fail_msg("%s: %s", path, err.text);
	free(path);
	return cases;
}

/* A case's text as tcptune renders it: a template file's, or with
 * "playbook" a task string's. */
static json_t *
render(const json_t *c, const char *src, char **cause)
{
	json_t	*vars = json_object_get(c, "vars"), *out;
	char	*text;
	size_t	 len;

	if (json_is_true(json_object_get(c, "playbook")))
		return template_render_string(src, vars, NULL, cause);
	text = template_render_text(src, strlen(src), vars, "case", &len,
	    cause);
	if (text == NULL)
		return NULL;
	out = json_stringn(text, len);
	free(text);
	return out;
}

static void
check_cases(const char *name)
{
	json_t		*cases = load_cases(name), *c, *want, *out;
	const char	*src;
	char		*cause;
	size_t		 i, bad = 0;

	json_array_foreach(cases, i, c) {
		src = json_string_value(json_object_get(c, "src"));
		want = json_object_get(json_object_get(c, "want"), "out");
		cause = NULL;
		out = render(c, src, &cause);
		if (want != NULL && (out == NULL || !json_equal(out, want))) {
			print_message("case %zu: '%s': want '%s', got '%s'\n", i,
			    src, json_string_value(want), out != NULL ?
			    json_string_value(out) : cause);
			bad++;
		} else if (want == NULL && out != NULL) {
			print_message("case %zu: '%s': Ansible fails, tcptune "
			    "made '%s'\n", i, src, json_string_value(out));
			bad++;
		}
		/* lint agrees with rendering on the syntax */
		if (want != NULL && template_check(src, &cause) != 0) {
			print_message("case %zu: lint refuses it: %s\n", i,
			    cause);
			bad++;
		}
		free(cause);
		json_decref(out);
	}
	json_decref(cases);
	assert_int_equal(bad, 0);
}

static void
test_statements(void **state)
{
	(void)state;
	check_cases("stmt-cases.json");
}

static void
test_filters(void **state)
{
	(void)state;
	check_cases("filter-cases.json");
}

static void
test_errors(void **state)
{
	static const struct {
		const char	*src;
		const char	*msg;
	} errs[] = {
		{ "{% for x in 3 %}{% endfor %}",
		  "cannot loop over int at character 13" },
		{ "a{% endif %}", "unexpected 'endif' at character 4" },
		{ "{% if true %}open", "missing '{% endif %}'" },
		{ "{% for x in [1] %}{{ y }}{% endfor %}",
		  "undefined variable 'y'" },
		{ "{% for a, b in [1, 2] %}{% endfor %}",
		  "cannot unpack int into 'a, b'" },
		{ "{% macro m() %}{% endmacro %}",
		  "'macro' statements are not supported" },
		{ "{% set x %}a{% endset %}",
		  "a block 'set' is not supported" },
		{ "{% if x %}", "missing '{% endif %}'" },
		{ "{% else %}", "unexpected 'else'" },
		{ "{% for x in [] %}{% endfor x %}",
		  "unexpected text after 'endfor'" },
		{ "{# open", "missing '#}' for the tag at character 1" },
		{ "{% if 1 = 2 %}{% endif %}", "invalid template" },
		/* keyword arguments (Ansible gives the template back as it
		 * is for a repeated one, a TemplateSyntaxError inside) */
		{ "{{ x | default(default_value='a', default_value='b') }}",
		  "filter 'default' got argument 'default_value' twice" },
		{ "{{ 'a' | replace('a', old='b') }}",
		  "filter 'replace' got argument 'old' twice" },
		{ "{{ 'a' | regex_replace('a', 'b', nosuch=1) }}",
		  "filter 'regex_replace' has no argument named 'nosuch'" },
		{ "{{ 'a' is version('1', strict=true, '>') }}",
		  "positional argument after a keyword argument" },
		{ "{{ 'x'.nosuch() }}", "unknown method 'nosuch'" },
		{ "{{ [1].split() }}", "'list' object has no attribute 'split'" },
		{ "{{ nosuch(1) }}", "unknown function 'nosuch'" },
		{ "{{ lookup('pipe', 'id') }}",
		  "lookup plugin (pipe) not found" },
	};
	/* a template that looks itself up: bounded (Ansible's own recursion
	 * only ends with its process, so it is not in the table) */
	json_t	*self = json_pack("{s:[s]}", "ansible_search_path",
	    "tests/data/template");
	json_t	*vars = json_object(), *out;
	char	*cause;
	size_t	 i;

	(void)state;
	for (i = 0; i < sizeof errs / sizeof errs[0]; i++) {
		cause = NULL;
		out = template_render_string(errs[i].src, vars, NULL, &cause);
		if (out != NULL || cause == NULL ||
		    strstr(cause, errs[i].msg) == NULL)
			fail_msg("'%s': want an error with '%s', got '%s'",
			    errs[i].src, errs[i].msg, out != NULL ?
			    json_string_value(out) : cause);
		free(cause);
	}
	cause = NULL;
	out = template_render_string("{{ lookup('template', 'self.j2') }}",
	    self, NULL, &cause);
	assert_null(out);
	assert_non_null(strstr(cause, "templates nest deeper than 16"));
	free(cause);
	json_decref(self);
	/* Nesting is bounded (Jinja's own limit is Python's stack). */
	{
		struct strbuf	sb;
		int		j;

		strbuf_init(&sb);
		for (j = 0; j < 200; j++)
			strbuf_addstr(&sb, "{% if true %}");
		cause = NULL;
		assert_null(template_render_string(sb.buf, vars, NULL,
		    &cause));
		assert_non_null(strstr(cause, "nested too deeply"));
		free(cause);
		strbuf_release(&sb);
	}
	json_decref(vars);
}

/* Where tcptune's text differs from Ansible's on purpose: quote goes
 * through base/shquote.h, the one quoting helper, which always quotes
 * and writes a quote as '\'' where shlex.quote leaves a safe word bare and
 * writes '"'"'. The shell reads the same word. */
static void
test_quote(void **state)
{
	json_t	*vars = json_object(), *out;
	char	*cause = NULL;

	(void)state;
	out = template_render_string("{{ \"it's\" | quote }} {{ 'a' | quote }}",
	    vars, NULL, &cause);
	assert_non_null(out);
	assert_string_equal(json_string_value(out), "'it'\\''s' 'a'");
	json_decref(out);
	json_decref(vars);
}

/* The tables are still Ansible's. */
static void
against_ansible(const char *name)
{
	json_t	*cases = load_cases(name), *answers, *c, *a;
	size_t	 i, bad = 0;

	answers = ansible_driver("/usr/lib/python3/dist-packages/ansible/"
	    "template/__init__.py", "tests/data/template/ansible-template.py",
	    cases);
	if (answers == NULL) {
		json_decref(cases);
		print_message("python3 or ansible-core missing: the table not "
		    "compared\n");
		skip();
	}
	assert_int_equal(json_array_size(answers), json_array_size(cases));
	json_array_foreach(cases, i, c) {
		a = json_array_get(answers, i);
		if (!json_equal(a, json_object_get(c, "want"))) {
			print_message("case %zu: Ansible now gives %s\n", i,
			    json_dumps(a, JSON_COMPACT));
			bad++;
		}
	}
	print_message("%s: %zu cases rendered by Ansible\n", name,
	    json_array_size(cases));
	json_decref(answers);
	json_decref(cases);
	assert_int_equal(bad, 0);
}

static void
test_against_ansible(void **state)
{
	(void)state;
	against_ansible("stmt-cases.json");
	against_ansible("filter-cases.json");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_statements),
		cmocka_unit_test(test_filters),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_quote),
		cmocka_unit_test(test_against_ansible),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
