/* Jinja's truth and text of a JSON value (value.h). */
#include "template/value.h"

#include "base/pyrepr.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

int
template_truthy(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT: return json_object_size(v) != 0;
	case JSON_ARRAY: return json_array_size(v) != 0;
	case JSON_STRING: return json_string_length(v) != 0;
	case JSON_INTEGER: return json_integer_value(v) != 0;
	case JSON_REAL: return json_real_value(v) != 0.0;
	case JSON_TRUE: return 1;
	case JSON_FALSE:
	case JSON_NULL: return 0;
	}
	return 0;
}

char *
template_to_text(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_STRING:
		return xstrndup(json_string_value(v), json_string_length(v));
	case JSON_INTEGER:
		return xprintf("%lld", (long long)json_integer_value(v));
	case JSON_REAL:
		return py_float_text(json_real_value(v));
	case JSON_TRUE:
		return xstrdup("True");
	case JSON_FALSE:
		return xstrdup("False");
	case JSON_NULL:
		return xstrdup("None");
	default:
		/* a list or mapping in text is Python's str() of it, as
		 * Jinja2 renders it: "['a', 'b']", "{'k': 1}" */
		return py_str(v);
	}
}
