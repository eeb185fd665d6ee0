/* Jinja's truth and text of a JSON value (value.h). */
#include "template/value.h"

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

/* Python's repr() of a float: the shortest text that reads back the same,
 * with ".0" on whole numbers and exponents only outside [1e-4, 1e16). */
static char *
float_text(double d)
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

/* repr() of a str: '' quotes unless the text holds ' and no ", then "";
 * backslash, that quote, \n \r \t escaped, other control bytes \xNN;
 * the rest (UTF-8 included) as it is. */
void
template_repr_string(struct strbuf *sb, const char *s, size_t n)
{
	char	 q = memchr(s, '\'', n) != NULL && memchr(s, '"', n) == NULL ?
		    '"' : '\'';
	size_t	 i;

	strbuf_addch(sb, q);
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '\\' || c == (unsigned char)q) {
			strbuf_addch(sb, '\\');
			strbuf_addch(sb, (char)c);
		} else if (c == '\n')
			strbuf_addstr(sb, "\\n");
		else if (c == '\r')
			strbuf_addstr(sb, "\\r");
		else if (c == '\t')
			strbuf_addstr(sb, "\\t");
		else if (c < 0x20 || c == 0x7f)
			strbuf_addf(sb, "\\x%02x", c);
		else
			strbuf_addch(sb, (char)c);
	}
	strbuf_addch(sb, q);
}

/* repr() of a value, as str() of a list or a dict writes its items. */
void
template_repr(struct strbuf *sb, const json_t *v)
{
	const json_t	*item;
	const char	*key;
	size_t		 i = 0;
	char		*t;

	switch (json_typeof(v)) {
	case JSON_STRING:
		template_repr_string(sb, json_string_value(v), json_string_length(v));
		return;
	case JSON_ARRAY:
		strbuf_addch(sb, '[');
		json_array_foreach(v, i, item) {
			if (i > 0)
				strbuf_addstr(sb, ", ");
			template_repr(sb, item);
		}
		strbuf_addch(sb, ']');
		return;
	case JSON_OBJECT:
		strbuf_addch(sb, '{');
		json_object_foreach((json_t *)v, key, item) {
			if (i++ > 0)
				strbuf_addstr(sb, ", ");
			template_repr_string(sb, key, strlen(key));
			strbuf_addstr(sb, ": ");
			template_repr(sb, item);
		}
		strbuf_addch(sb, '}');
		return;
	default:
		t = template_to_text(v);
		strbuf_addstr(sb, t);
		free(t);
	}
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
		return float_text(json_real_value(v));
	case JSON_TRUE:
		return xstrdup("True");
	case JSON_FALSE:
		return xstrdup("False");
	case JSON_NULL:
		return xstrdup("None");
	default: {
		struct strbuf sb;

		strbuf_init(&sb);
		template_repr(&sb, v);
		return strbuf_detach(&sb, NULL);
	}
	}
}
