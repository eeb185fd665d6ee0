/* Python's repr() and str() (pyrepr.h). */
#include "base/pyrepr.h"

#include "base/xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
py_repr_string(struct strbuf *sb, const char *s)
{
	int q = strchr(s, '\'') != NULL && strchr(s, '"') == NULL ? '"' : '\'';

	strbuf_addch(sb, q);
	for (; *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '\\' || c == q)
			strbuf_addf(sb, "\\%c", c);
		else if (c == '\n')
			strbuf_addstr(sb, "\\n");
		else if (c == '\r')
			strbuf_addstr(sb, "\\r");
		else if (c == '\t')
			strbuf_addstr(sb, "\\t");
		else if (c < 0x20 || c == 0x7f)
			strbuf_addf(sb, "\\x%02x", c);
		else
			strbuf_addch(sb, c);
	}
	strbuf_addch(sb, q);
}

char *
py_float_text(double d)
{
	char	buf[64];
	int	prec, exp10;

	if (isnan(d))
		return xstrdup("nan");
	if (isinf(d))
		return xstrdup(d < 0 ? "-inf" : "inf");
	if (d == 0)
		return xstrdup(signbit(d) ? "-0.0" : "0.0");
	for (prec = 1; prec < 17; prec++) {
		snprintf(buf, sizeof buf, "%.*e", prec - 1, d);
		if (strtod(buf, NULL) == d)
			break;
	}
	snprintf(buf, sizeof buf, "%.*e", prec - 1, d);
	exp10 = atoi(strchr(buf, 'e') + 1);
	if (exp10 < -4 || exp10 >= 16) {
		/* 1e+16 as Python prints it */
		snprintf(buf, sizeof buf, "%.*g", prec, d);
		return xstrdup(buf);
	}
	snprintf(buf, sizeof buf, "%.*f",
	    prec - 1 - exp10 > 0 ? prec - 1 - exp10 : 0, d);
	if (strchr(buf, '.') == NULL)
		return xprintf("%s.0", buf);
	return xstrdup(buf);
}

void
py_repr(struct strbuf *sb, const json_t *v)
{
	const char	*k;
	json_t		*x;
	size_t		 i;
	int		 first = 1;

	switch (json_typeof(v)) {
	case JSON_NULL: strbuf_addstr(sb, "None"); break;
	case JSON_TRUE: strbuf_addstr(sb, "True"); break;
	case JSON_FALSE: strbuf_addstr(sb, "False"); break;
	case JSON_INTEGER:
		strbuf_addf(sb, "%lld", (long long)json_integer_value(v));
		break;
	case JSON_REAL: {
		char *f = py_float_text(json_real_value(v));

		strbuf_addstr(sb, f);
		free(f);
		break;
	}
	case JSON_STRING: py_repr_string(sb, json_string_value(v)); break;
	case JSON_ARRAY:
		strbuf_addch(sb, '[');
		json_array_foreach(v, i, x) {
			strbuf_addstr(sb, i == 0 ? "" : ", ");
			py_repr(sb, x);
		}
		strbuf_addch(sb, ']');
		break;
	case JSON_OBJECT:
		strbuf_addch(sb, '{');
		json_object_foreach((json_t *)v, k, x) {
			strbuf_addstr(sb, first ? "" : ", ");
			first = 0;
			py_repr_string(sb, k);
			strbuf_addstr(sb, ": ");
			py_repr(sb, x);
		}
		strbuf_addch(sb, '}');
		break;
	}
}

char *
py_str(const json_t *v)
{
	struct strbuf sb;

	if (json_is_string(v))
		return xstrndup(json_string_value(v), json_string_length(v));
	strbuf_init(&sb);
	py_repr(&sb, v);
	return strbuf_detach(&sb, NULL);
}
