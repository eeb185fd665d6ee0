/* Python's ast.literal_eval of a text (pyliteral.h), as Ansible's INI
 * inventory plugin and its templates' concat (ansible_eval_concat) apply
 * it. */
#include "template/pyliteral.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/xalloc.h"


struct lit {
	const char	*p;
	int		 err;
	int		 depth;		/* brackets open */
};

/* Python's tokenizer refuses more than 200 nested brackets ("too many
 * nested parentheses"), so ast.literal_eval fails and Ansible keeps the
 * value as a string: the same here, which also bounds the recursion. */
#define PY_LITERAL_MAX_DEPTH	200

static void
lit_space(struct lit *l)
{
	for (;;) {
		while (*l->p == ' ' || *l->p == '\t' || *l->p == '\f')
			l->p++;
		if (*l->p == '#') {
			while (*l->p != '\0' && *l->p != '\n')
				l->p++;
			continue;
		}
		if (*l->p == '\\' && l->p[1] == '\n') {
			l->p += 2;
			continue;
		}
		return;
	}
}

static int
is_ident(int c)
{
	return isalnum(c) || c == '_' || c >= 0x80;
}

/* digit (_? digit)* in the given set; returns count of chars, 0 if none */
static size_t
digitpart(const char *p, const char *set, struct strbuf *out)
{
	size_t i = 0;

	if (*p == '\0' || strchr(set, *p) == NULL)
		return 0;
	while (p[i] != '\0') {
		if (strchr(set, p[i]) != NULL) {
			strbuf_addch(out, p[i]);
			i++;
		} else if (p[i] == '_' && p[i + 1] != '\0' &&
		    strchr(set, p[i + 1]) != NULL)
			i++;
		else
			break;
	}
	return i;
}

static json_t *
lit_number(struct lit *l, int neg)
{
	const char	*p = l->p;
	struct strbuf	 sb;
	json_t		*j = NULL;
	int		 base = 0, isfloat = 0;
	size_t		 k;

	strbuf_init(&sb);
	if (p[0] == '0' && strchr("xXoObB", p[1]) != NULL && p[1] != '\0') {
		const char *set = (p[1] == 'x' || p[1] == 'X') ?
		    "0123456789abcdefABCDEF" : (p[1] == 'o' || p[1] == 'O') ?
		    "01234567" : "01";

		base = (p[1] == 'x' || p[1] == 'X') ? 16 :
		    (p[1] == 'o' || p[1] == 'O') ? 8 : 2;
		p += 2;
		if (*p == '_')
			p++;
		if ((k = digitpart(p, set, &sb)) == 0)
			goto out;
		p += k;
	} else {
		k = digitpart(p, "0123456789", &sb);
		p += k;
		if (*p == '.') {
			isfloat = 1;
			strbuf_addch(&sb, '.');
			p++;
			p += digitpart(p, "0123456789", &sb);
			if (k == 0 && sb.len == 1)
				goto out;
		} else if (k == 0)
			goto out;
		if (*p == 'e' || *p == 'E') {
			const char *q = p + 1;

			strbuf_addch(&sb, 'e');
			if (*q == '+' || *q == '-')
				strbuf_addch(&sb, *q++);
			if ((k = digitpart(q, "0123456789", &sb)) == 0)
				goto out;
			p = q + k;
			isfloat = 1;
		}
		if (!isfloat) {
			/* "01" is a syntax error in Python 3, "00" is not */
			if (sb.buf[0] == '0' && strspn(sb.buf, "0") != sb.len)
				goto out;
			base = 10;
		}
	}
	if (*p == 'j' || *p == 'J' || is_ident((unsigned char)*p) ||
	    *p == '.')
		goto out;	/* complex numbers and 5abc: not for JSON */
	if (isfloat)
		j = json_real(neg ? -strtod(sb.buf, NULL) : strtod(sb.buf,
		    NULL));
	else {
		long long v;

		errno = 0;
		v = strtoll(sb.buf, NULL, base);
		if (errno == ERANGE)
			goto out;
		j = json_integer(neg ? -v : v);
	}
	l->p = p;
out:
	strbuf_release(&sb);
	if (j == NULL)
		l->err = 1;
	return j;
}

static int
hexval(int c)
{
	if (isdigit(c))
		return c - '0';
	return tolower(c) - 'a' + 10;
}

static void
add_utf8(struct strbuf *sb, unsigned long cp)
{
	if (cp < 0x80)
		strbuf_addch(sb, (int)cp);
	else if (cp < 0x800) {
		strbuf_addch(sb, (int)(0xc0 | (cp >> 6)));
		strbuf_addch(sb, (int)(0x80 | (cp & 0x3f)));
	} else if (cp < 0x10000) {
		strbuf_addch(sb, (int)(0xe0 | (cp >> 12)));
		strbuf_addch(sb, (int)(0x80 | ((cp >> 6) & 0x3f)));
		strbuf_addch(sb, (int)(0x80 | (cp & 0x3f)));
	} else {
		strbuf_addch(sb, (int)(0xf0 | (cp >> 18)));
		strbuf_addch(sb, (int)(0x80 | ((cp >> 12) & 0x3f)));
		strbuf_addch(sb, (int)(0x80 | ((cp >> 6) & 0x3f)));
		strbuf_addch(sb, (int)(0x80 | (cp & 0x3f)));
	}
}

/* One string literal with optional r/b/u prefix; appended to sb. */
static int
lit_string1(struct lit *l, struct strbuf *sb, int *is_bytes)
{
	const char	*p = l->p;
	int		 raw = 0, bytes = 0, q, triple;
	size_t		 i;

	while (strchr("rRbBuU", *p) != NULL && *p != '\0') {
		if (*p == 'r' || *p == 'R')
			raw = 1;
		else if (*p == 'b' || *p == 'B')
			bytes = 1;
		p++;
		if (p - l->p > 2)
			return -1;
	}
	if (*p != '\'' && *p != '"')
		return -1;
	*is_bytes = bytes;
	q = *p;
	triple = p[1] == q && p[2] == q;
	p += triple ? 3 : 1;
	for (;;) {
		if (*p == '\0')
			return -1;
		if (*p == q && (!triple || (p[1] == q && p[2] == q))) {
			p += triple ? 3 : 1;
			break;
		}
		if (*p == '\n' && !triple)
			return -1;
		if (*p != '\\') {
			if (bytes && (unsigned char)*p >= 0x80)
				return -1;
			strbuf_addch(sb, *p++);
			continue;
		}
		if (p[1] == '\0')
			return -1;
		if (raw) {
			strbuf_addch(sb, *p++);
			strbuf_addch(sb, *p++);
			continue;
		}
		p++;
		switch (*p) {
		case '\n': p++; break;
		case '\\': case '\'': case '"':
			strbuf_addch(sb, *p++);
			break;
		case 'a': strbuf_addch(sb, '\a'); p++; break;
		case 'b': strbuf_addch(sb, '\b'); p++; break;
		case 'f': strbuf_addch(sb, '\f'); p++; break;
		case 'n': strbuf_addch(sb, '\n'); p++; break;
		case 'r': strbuf_addch(sb, '\r'); p++; break;
		case 't': strbuf_addch(sb, '\t'); p++; break;
		case 'v': strbuf_addch(sb, '\v'); p++; break;
		case '0': case '1': case '2': case '3':
		case '4': case '5': case '6': case '7': {
			unsigned long v = 0;

			for (i = 0; i < 3 && *p >= '0' && *p <= '7'; i++)
				v = v * 8 + (unsigned long)(*p++ - '0');
			if (bytes)
				strbuf_addch(sb, (int)(v & 0xff));
			else
				add_utf8(sb, v);
			break;
		}
		case 'x': case 'u': case 'U': {
			size_t		 nd = *p == 'x' ? 2 : *p == 'u' ? 4 : 8;
			unsigned long	 v = 0;

			if (bytes && *p != 'x') {
				strbuf_addch(sb, '\\');
				strbuf_addch(sb, *p++);
				break;
			}
			p++;
			for (i = 0; i < nd; i++) {
				if (!isxdigit((unsigned char)p[i]))
					return -1;
				v = v * 16 + (unsigned long)hexval(p[i]);
			}
			p += nd;
			if (v > 0x10ffff)
				return -1;
			if (bytes)
				strbuf_addch(sb, (int)v);
			else
				add_utf8(sb, v);
			break;
		}
		case 'N':
			return -1;
		default:
			/* unknown escapes keep their backslash */
			strbuf_addch(sb, '\\');
			strbuf_addch(sb, *p++);
			break;
		}
	}
	l->p = p;
	return 0;
}

static int
starts_string(const char *p)
{
	size_t i;

	for (i = 0; i < 2 && *p != '\0' && strchr("rRbBuU", *p) != NULL; i++)
		p++;
	return *p == '\'' || *p == '"';
}

static json_t *lit_expr(struct lit *, int);

static json_t *
lit_seq(struct lit *l, int close, int *had_comma)
{
	json_t *arr = json_array(), *v;

	*had_comma = 0;
	for (;;) {
		lit_space(l);
		if (*l->p == close) {
			l->p++;
			return arr;
		}
		if ((v = lit_expr(l, 0)) == NULL)
			break;
		json_array_append_new(arr, v);
		lit_space(l);
		if (*l->p == ',') {
			*had_comma = 1;
			l->p++;
			continue;
		}
		if (*l->p == close) {
			l->p++;
			return arr;
		}
		break;
	}
	l->err = 1;
	json_decref(arr);
	return NULL;
}

static char *
key_string(json_t *k)
{
	if (json_is_string(k))
		return xstrdup(json_string_value(k));
	if (json_is_integer(k))
		return xprintf("%lld", (long long)json_integer_value(k));
	if (json_is_true(k))
		return xstrdup("true");
	if (json_is_false(k))
		return xstrdup("false");
	if (json_is_null(k))
		return xstrdup("null");
	if (json_is_real(k))
		return json_dumps(k, JSON_ENCODE_ANY);
	return NULL;
}

static json_t *
lit_dict(struct lit *l)
{
	json_t	*obj = NULL, *arr = NULL, *k, *v;
	char	*ks;

	for (;;) {
		lit_space(l);
		if (*l->p == '}') {
			l->p++;
			if (arr != NULL)
				return arr;
			return obj != NULL ? obj : json_object();
		}
		if ((k = lit_expr(l, 0)) == NULL)
			break;
		lit_space(l);
		if (*l->p == ':' && arr == NULL) {
			l->p++;
			if (obj == NULL)
				obj = json_object();
			if ((v = lit_expr(l, 0)) == NULL ||
			    (ks = key_string(k)) == NULL) {
				json_decref(k);
				json_decref(v);
				break;
			}
			json_object_set_new(obj, ks, v);
			free(ks);
			json_decref(k);
		} else if (obj == NULL) {
			/* a set literal: JSON has only arrays */
			if (arr == NULL)
				arr = json_array();
			json_array_append_new(arr, k);
		} else {
			json_decref(k);
			break;
		}
		lit_space(l);
		if (*l->p == ',') {
			l->p++;
			continue;
		}
		if (*l->p == '}')
			continue;
		break;
	}
	l->err = 1;
	json_decref(obj);
	json_decref(arr);
	return NULL;
}

/* A list, tuple, set or dict: l->p is on its opening bracket. */
static json_t *
lit_nested(struct lit *l)
{
	json_t	*j;
	int	 open = *l->p, had_comma;

	if (l->depth == PY_LITERAL_MAX_DEPTH) {
		l->err = 1;
		return NULL;
	}
	l->depth++;
	l->p++;
	if (open == '[')
		j = lit_seq(l, ']', &had_comma);
	else if (open == '{')
		j = lit_dict(l);
	else {
		j = lit_seq(l, ')', &had_comma);
		/* (x) is x, (x,) and () are tuples */
		if (j != NULL && json_array_size(j) == 1 && !had_comma) {
			json_t *one = json_incref(json_array_get(j, 0));

			json_decref(j);
			j = one;
		}
	}
	l->depth--;
	return j;
}

static json_t *
lit_atom(struct lit *l)
{
	const char	*p;
	json_t		*j;
	int		 neg = 0;

	lit_space(l);
	p = l->p;
	if (*p == '-' || *p == '+') {
		neg = *p == '-';
		l->p++;
		lit_space(l);
		if (!isdigit((unsigned char)*l->p) && *l->p != '.') {
			l->err = 1;
			return NULL;
		}
		return lit_number(l, neg);
	}
	if (isdigit((unsigned char)*p) || (*p == '.' &&
	    isdigit((unsigned char)p[1])))
		return lit_number(l, 0);
	if (starts_string(p)) {
		struct strbuf	sb;
		int		bytes = -1, b;

		strbuf_init(&sb);
		/* adjacent literals concatenate; bytes and str do not mix */
		while (starts_string(l->p)) {
			if (lit_string1(l, &sb, &b) != 0 ||
			    (bytes != -1 && b != bytes)) {
				strbuf_release(&sb);
				l->err = 1;
				return NULL;
			}
			bytes = b;
			lit_space(l);
		}
		j = json_stringn(sb.buf, sb.len);
		strbuf_release(&sb);
		if (j == NULL)
			l->err = 1;	/* invalid UTF-8 */
		return j;
	}
	if (*p == '[' || *p == '(' || *p == '{')
		return lit_nested(l);
	if (strncmp(p, "True", 4) == 0 && !is_ident((unsigned char)p[4])) {
		l->p += 4;
		return json_true();
	}
	if (strncmp(p, "False", 5) == 0 && !is_ident((unsigned char)p[5])) {
		l->p += 5;
		return json_false();
	}
	if (strncmp(p, "None", 4) == 0 && !is_ident((unsigned char)p[4])) {
		l->p += 4;
		return json_null();
	}
	l->err = 1;
	return NULL;
}

/* top: a bare tuple "1, 2" is allowed only at the top level */
static json_t *
lit_expr(struct lit *l, int top)
{
	json_t *first, *arr, *v;

	if ((first = lit_atom(l)) == NULL)
		return NULL;
	lit_space(l);
	if (!top || *l->p != ',')
		return first;
	arr = json_array();
	json_array_append_new(arr, first);
	while (*l->p == ',') {
		l->p++;
		lit_space(l);
		if (*l->p == '\0')
			break;
		if ((v = lit_atom(l)) == NULL) {
			json_decref(arr);
			return NULL;
		}
		json_array_append_new(arr, v);
		lit_space(l);
	}
	return arr;
}

json_t *
py_literal_eval(const char *s)
{
	struct lit	 l;
	json_t		*j;

	l.p = s;
	l.err = 0;
	l.depth = 0;
	while (*l.p == ' ' || *l.p == '\t')
		l.p++;
	j = lit_expr(&l, 1);
	if (j != NULL && !l.err) {
		lit_space(&l);
		while (*l.p == '\n' || *l.p == '\r' || *l.p == ' ')
			l.p++;
		if (*l.p == '\0')
			return j;
	}
	json_decref(j);
	return json_string(s);
}
