/* The template module's rendering of a whole file (template_render_text):
 * statements with trim_blocks, and Ansible's trailing-newline rule (Jinja2
 * drops the source's last newline, do_template pads the result to as many
 * as the source ends with). Each source's answer is in the table (what
 * Ansible gave), and where python3 and ansible-core are installed every
 * source is also rendered by Ansible's own Templar as its template action
 * sets it up (tests/data/files/ansible-render.py), which must agree. */
#include "base/xalloc.h"
#include "template/template.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "ansible-driver.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

struct tcase {
	const char	*src;
	const char	*want;
};

static const struct tcase cases[] = {
	{ "x\n", "x\n" },
	{ "x\n\n", "x\n\n" },
	{ "x", "x" },
	{ "", "" },
	{ "\n\n\n", "\n\n\n" },
	{ "{{ a }}\n", "v\n" },
	{ "{{ a }}{{ a }}", "v\nv\n" },
	{ "{{ a }}\n\n", "v\n\n" },
	{ "{% if 1 %}\ny\n{% endif %}\n\n", "y\n\n" },
	{ "{% if 1 %}\ny\n{% endif %}\n", "y\n" },
	{ "{% for x in xs %}\n{{ x }}\n{% endfor %}", "1\n2\n" },
	{ "{% for x in xs %}\n{{ x }}\n{% endfor %}\n", "1\n2\n" },
	{ "{%- for x in xs %}\n# {{ loop.index }}\n{%- endfor %}\n\n",
	  "# 1# 2\n\n" },
	{ "a {# c #}\nb\n", "a b\n" },
	{ "k = {{ n }}\n{% set m = n * 2 %}\nm = {{ m }}\n", "k = 3\nm = 6\n" },
	{ "{{ 'x' if n > 2 else 'y' }}\n", "x\n" },
	{ "{% for k, v in d.items() %}\n{{ k }}={{ v }}\n{% endfor %}\n",
	  "p=1\nq=2\n" },
	{ "  {%- if 1 %} t {% endif -%}  \nend\n", " t end\n" },
};

static json_t *
vars(void)
{
	return json_pack("{s:s, s:[i, i], s:i, s:{s:i, s:i}}", "a", "v\n",
	    "xs", 1, 2, "n", 3, "d", "p", 1, "q", 2);
}

static void
test_table(void **state)
{
	json_t	*v = vars();
	char	*out, *cause = NULL;
	size_t	 i, len;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		out = template_render_text(cases[i].src, strlen(cases[i].src),
		    v, "t.j2", &len, &cause);
		if (out == NULL)
			fail_msg("case %zu: %s", i, cause);
		if (strcmp(out, cases[i].want) != 0 || len != strlen(out))
			fail_msg("case %zu: '%s', want '%s'", i, out,
			    cases[i].want);
		free(out);
	}
	/* an error names the template */
	assert_null(template_render_text("{{ nope }}", 10, v, "t.j2", &len,
	    &cause));
	assert_non_null(strstr(cause, "t.j2: "));
	assert_non_null(strstr(cause, "nope"));
	free(cause);
	cause = NULL;
	assert_null(template_render_text("a\0b", 3, v, "bin.j2", &len,
	    &cause));
	assert_non_null(strstr(cause, "bin.j2: not UTF-8 text"));
	free(cause);
	json_decref(v);
}

static void
test_against_ansible(void **state)
{
	json_t	*in, *srcs = json_array(), *answers;
	size_t	 i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
		json_array_append_new(srcs, json_string(cases[i].src));
	in = json_pack("{s:o, s:o}", "vars", vars(), "sources", srcs);
	answers = ansible_driver(
	    "/usr/lib/python3/dist-packages/ansible/plugins/action/template.py",
	    "tests/data/files/ansible-render.py", in);
	json_decref(in);
	if (answers == NULL)
		skip();
	assert_int_equal(json_array_size(answers), sizeof cases /
	    sizeof cases[0]);
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *a = json_string_value(json_array_get(answers, i));

		if (a == NULL || strcmp(a, cases[i].want) != 0)
			fail_msg("case %zu: Ansible renders '%s', the table "
			    "says '%s'", i, a != NULL ? a : "(an error)",
			    cases[i].want);
	}
	json_decref(answers);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_against_ansible),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
