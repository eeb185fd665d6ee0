/* Python's printf-style formatting, `'%s:%d' % (host, port)` and Jinja2's
 * format filter (`'%.2f' | format(x)`): the conversions s r a d i u x X o
 * e E f F g G c and %%, with the flags - + space 0 #, a width and a
 * precision (not `*`), and `%(name)s` from a mapping. Values print as
 * tcptune prints them (a list as JSON where Python prints its repr).
 *
 * Python tells a tuple of arguments from one argument by its type; here
 * tuples are lists, so for `%` a list is always the arguments (`'%s' %
 * [1, 2]` fails where Python prints the list); the format filter's
 * arguments are its own. */
#include "template/expr-int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/xalloc.h"
#include "template/expr.h"
#include "template/value.h"

struct spec {
	char		 key[64];	/* %(key)s, or "" */
	int		 minus, plus, space, zero, alt;
	long		 width;		/* -1: none */
	long		 prec;		/* -1: none */
	char		 conv;
};

/* Parse the spec after '%' at *p; *p moved past it. */
static int
parse_spec(struct ectx *ctx, const char **p, struct spec *sp)
{
	const char	*s = *p, *e;
	char		*end;

	memset(sp, 0, sizeof *sp);
	sp->width = sp->prec = -1;
	if (*s == '(') {
		if ((e = strchr(s, ')')) == NULL ||
		    (size_t)(e - s - 1) >= sizeof sp->key)
			return expr_error(ctx, "incomplete format key");
		memcpy(sp->key, s + 1, (size_t)(e - s - 1));
		s = e + 1;
	}
	for (;; s++) {
		if (*s == '-')
			sp->minus = 1;
		else if (*s == '+')
			sp->plus = 1;
		else if (*s == ' ')
			sp->space = 1;
		else if (*s == '0')
			sp->zero = 1;
		else if (*s == '#')
			sp->alt = 1;
		else
			break;
	}
	if (*s >= '0' && *s <= '9') {
		sp->width = strtol(s, &end, 10);
		s = end;
	}
	if (*s == '.') {
		sp->prec = strtol(s + 1, &end, 10);
		s = end;
	}
	if (*s == '*' || sp->width > 4096 || sp->prec > 4096)
		return expr_error(ctx, "format: '*' and widths over 4096 are not "
		    "supported");
	if (*s == 'h' || *s == 'l' || *s == 'L')
		s++;
	if (*s == '\0' || strchr("sradiuxXoeEfFgGc%", *s) == NULL)
		return expr_error(ctx, "unsupported format character '%c'",
		    *s != '\0' ? *s : '?');
	sp->conv = *s++;
	*p = s;
	return 0;
}

size_t
expr_char_count(const char *s, size_t n)
{
	size_t i, c = 0;

	for (i = 0; i < n; i++)
		c += ((unsigned char)s[i] & 0xc0) != 0x80;
	return c;
}

/* The bytes of s's first n characters. */
static size_t
prefix_chars(const char *s, size_t n)
{
	size_t len, c = 0;

	for (len = 0; s[len] != '\0'; len++) {
		if (((unsigned char)s[len] & 0xc0) == 0x80)
			continue;
		if (c++ == n)
			break;
	}
	return len;
}

/* sign, prefix and body padded to the width: spaces before (or after,
 * with '-'), or zeros between the prefix and the body. */
static void
pad(struct strbuf *sb, const struct spec *sp, const char *sign,
    const char *prefix, const char *body, size_t len, int zeros)
{
	size_t	n = strlen(sign) + strlen(prefix) + expr_char_count(body, len), i;
	size_t	w = sp->width > 0 ? (size_t)sp->width : 0;

	if (!sp->minus && !(zeros && sp->zero))
		for (i = n; i < w; i++)
			strbuf_addch(sb, ' ');
	strbuf_addstr(sb, sign);
	strbuf_addstr(sb, prefix);
	if (!sp->minus && zeros && sp->zero)
		for (i = n; i < w; i++)
			strbuf_addch(sb, '0');
	strbuf_add(sb, body, len);
	if (sp->minus)
		for (i = n; i < w; i++)
			strbuf_addch(sb, ' ');
}

/* Python's repr of a string (single quotes unless it holds one and no
 * double quote); other values as they print. */
static char *
repr(const json_t *v)
{
	const char	*s, *p;
	struct strbuf	 sb;
	char		 q;

	if (!json_is_string(v))
		return template_to_text(v);
	s = json_string_value(v);
	q = strchr(s, '\'') != NULL && strchr(s, '"') == NULL ? '"' : '\'';
	strbuf_init(&sb);
	strbuf_addch(&sb, q);
	for (p = s; *p != '\0'; p++) {
		if (*p == '\\' || *p == q)
			strbuf_addch(&sb, '\\');
		if (*p == '\n')
			strbuf_addstr(&sb, "\\n");
		else if (*p == '\t')
			strbuf_addstr(&sb, "\\t");
		else
			strbuf_addch(&sb, *p);
	}
	strbuf_addch(&sb, q);
	return strbuf_detach(&sb, NULL);
}

static int
need_number(struct ectx *ctx, const struct spec *sp, const json_t *v)
{
	if (expr_is_num(v) || json_is_boolean(v))
		return 0;
	return expr_error(ctx, "%%%c format: a real number is required, not "
	    "%s", sp->conv, expr_type_name(v));
}

/* One conversion of v. */
static int
convert(struct ectx *ctx, struct strbuf *sb, const struct spec *sp,
    const json_t *v)
{
	char		 fmt[64], buf[4200], *text;
	const char	*sign;
	double		 d;
	long long	 n;
	size_t		 len;

	switch (sp->conv) {
	case 's':
	case 'r':
	case 'a':
		text = sp->conv == 's' ? template_to_text(v) : repr(v);
		len = strlen(text);
		if (sp->prec >= 0)
			len = prefix_chars(text, (size_t)sp->prec);
		pad(sb, sp, "", "", text, len, 0);
		free(text);
		return 0;
	case 'c':
		if (json_is_string(v) && expr_char_count(json_string_value(v),
		    json_string_length(v)) == 1) {
			pad(sb, sp, "", "", json_string_value(v),
			    json_string_length(v), 0);
			return 0;
		}
		if (!json_is_integer(v) || json_integer_value(v) < 0 ||
		    json_integer_value(v) > 127)
			return expr_error(ctx, "%%c requires a character or an "
			    "ASCII code here");
		buf[0] = (char)json_integer_value(v);
		pad(sb, sp, "", "", buf, 1, 0);
		return 0;
	case 'd':
	case 'i':
	case 'u':
	case 'x':
	case 'X':
	case 'o':
		if (need_number(ctx, sp, v) != 0)
			return -1;
		if (json_is_real(v) && (!isfinite(json_real_value(v)) ||
		    fabs(json_real_value(v)) >= 9.2e18))
			return expr_error(ctx, "format: %g is out of range for "
			    "%%%c", json_real_value(v), sp->conv);
		n = json_is_integer(v) ? json_integer_value(v) :
		    json_is_real(v) ? (long long)json_real_value(v) :
		    json_is_true(v);
		sign = n < 0 ? "-" : sp->plus ? "+" : sp->space ? " " : "";
		snprintf(buf, sizeof buf, sp->conv == 'x' ? "%llx" :
		    sp->conv == 'X' ? "%llX" : sp->conv == 'o' ? "%llo" : "%llu",
		    n < 0 ? 0ULL - (unsigned long long)n : (unsigned long long)n);
		pad(sb, sp, sign, !sp->alt ? "" : sp->conv == 'x' ? "0x" :
		    sp->conv == 'X' ? "0X" : sp->conv == 'o' ? "0o" : "", buf,
		    strlen(buf), 1);
		return 0;
	default:	/* e E f F g G */
		if (need_number(ctx, sp, v) != 0)
			return -1;
		d = json_is_boolean(v) ? json_is_true(v) : json_number_value(v);
		snprintf(fmt, sizeof fmt, "%%%s%s%s%s%s%.0d.%d%c",
		    sp->minus ? "-" : "", sp->plus ? "+" : "",
		    sp->space ? " " : "", sp->zero ? "0" : "", sp->alt ? "#" :
		    "", sp->width > 0 ? (int)sp->width : 0, sp->prec >= 0 ?
		    (int)sp->prec : 6, sp->conv);
		snprintf(buf, sizeof buf, fmt, d);
		strbuf_addstr(sb, buf);
		return 0;
	}
}

/* fmt % args, args a list of the arguments or a mapping of them. */
static int
format_with(struct ectx *ctx, const char *fmt, const json_t *args,
    json_t **out)
{
	struct strbuf	 sb;
	struct spec	 sp;
	const char	*p = fmt, *q;
	const json_t	*v;
	size_t		 next = 0;

	strbuf_init(&sb);
	while ((q = strchr(p, '%')) != NULL) {
		strbuf_add(&sb, p, (size_t)(q - p));
		p = q + 1;
		if (parse_spec(ctx, &p, &sp) != 0)
			goto fail;
		if (sp.conv == '%') {
			strbuf_addch(&sb, '%');
			continue;
		}
		if (sp.key[0] != '\0') {
			if (!json_is_object(args)) {
				expr_error(ctx, "format requires a mapping");
				goto fail;
			}
			if ((v = json_object_get(args, sp.key)) == NULL) {
				expr_error(ctx, "format: no key '%s'", sp.key);
				goto fail;
			}
		} else if (json_is_object(args)) {
			v = args;
			next++;
		} else if ((v = json_array_get(args, next++)) == NULL) {
			expr_error(ctx, "not enough arguments for format string");
			goto fail;
		}
		if (convert(ctx, &sb, &sp, v) != 0)
			goto fail;
	}
	strbuf_addstr(&sb, p);
	if (json_is_array(args) && next < json_array_size(args)) {
		expr_error(ctx, "not all arguments converted during string "
		    "formatting");
		goto fail;
	}
	return expr_string_out(ctx, &sb, out);
fail:
	strbuf_release(&sb);
	return -1;
}

int
expr_format_op(struct ectx *ctx, const json_t *a, const json_t *b,
    json_t **out)
{
	const char	*fmt = json_string_value(a);
	json_t		*one;
	int		 r;

	if (json_is_object(b) || json_is_array(b))
		return format_with(ctx, fmt, b, out);
	one = json_pack("[O]", b);
	r = format_with(ctx, fmt, one, out);
	json_decref(one);
	return r;
}

/* format(args...): the operand's text % the arguments. */
int
expr_filter_format(struct expr_call *c, json_t **out)
{
	json_t	*args = json_array();
	char	*fmt = template_to_text(c->v);
	size_t	 i;
	int	 r;

	for (i = 0; i < c->nargs; i++)
		json_array_append(args, c->arg[i]);
	r = format_with(c->ctx, fmt, args, out);
	json_decref(args);
	free(fmt);
	return r;
}
