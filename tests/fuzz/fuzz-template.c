/* libFuzzer harness: the template engine and the expression language
 * (lib/template/template.c, lib/template/expr*.c) over a small fixed set of variables: the
 * input as a template (check and render), as a `when` (check and
 * evaluate), and as a bare expression. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "template/expr.h"
#include "template/template.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static json_t *
fixed_vars(void)
{
	return json_loads("{\"n\": 3, \"f\": 2.5, \"s\": \"h\\u00e9llo\","
	    "\"big\": 9223372036854775807, \"neg\": -9223372036854775808,"
	    "\"t\": true, \"z\": null, \"l\": [1, \"a\", [2, 3], {\"k\": 1}],"
	    "\"m\": {\"a\": {\"b\": [1, 2]}, \"c\": \"d\"},"
	    "\"facts\": {\"mem_total_bytes\": 1073741824},"
	    "\"groups\": {\"all\": [\"h1\", \"h2\"], \"web\": [\"h1\"]}}", 0,
	    NULL);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static json_t		*vars;
	static const struct ypos pos = { "fuzz.yml", 1, 1 };
	char			*s, *cause = NULL;
	json_t			*out;
	int			 truth;

	if (vars == NULL)
		vars = fixed_vars();
	/* the engine takes C strings, as YAML scalars reach it */
	s = malloc(size + 1);
	memcpy(s, data, size);
	s[size] = '\0';

	template_check(s, &cause);
	free(cause);
	cause = NULL;
	if ((out = template_render_string(s, vars, &pos, &cause)) != NULL) {
		free(template_to_text(out));
		json_decref(out);
	}
	free(cause);
	cause = NULL;
	template_check_when(s, &cause);
	free(cause);
	cause = NULL;
	template_eval_bool(s, vars, &pos, &truth, &cause);
	free(cause);
	cause = NULL;
	if (expr_eval(s, 0, vars, &out, &cause) == EXPR_OK) {
		free(template_to_text(out));
		json_decref(out);
	}
	free(cause);
	free(s);
	return 0;
}
