/* The tokenizer of the expression language (expr-int.h): names, numbers,
 * quoted strings and operators, each with its offset in the source. */
#include "template/expr-int.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/utf8.h"
#include "base/xalloc.h"
#include "template/expr.h"

void
expr_lexer_free(struct lexer *lx)
{
	size_t i;

	for (i = 0; i < lx->n; i++)
		free(lx->toks[i].text);
	free(lx->toks);
	lx->toks = NULL;
	lx->n = lx->cap = 0;
}

static struct token *
lexer_push(struct lexer *lx, enum tok_type type, size_t off)
{
	struct token *t;

	if (lx->n == lx->cap) {
		lx->cap = lx->cap < 16 ? 16 : lx->cap * 2;
		lx->toks = xreallocarray(lx->toks, lx->cap, sizeof *lx->toks);
	}
	t = &lx->toks[lx->n++];
	memset(t, 0, sizeof *t);
	t->type = type;
	t->off = off;
	return t;
}

static void
lex_name(const char *src, const char **pp, struct lexer *lx)
{
	const char	*s = *pp, *p = s;
	struct token	*t;

	while (isalnum((unsigned char)*p) || *p == '_')
		p++;
	t = lexer_push(lx, T_NAME, (size_t)(s - src));
	t->text = xstrndup(s, (size_t)(p - s));
	*pp = p;
}

/* The end of the number at s, and whether it is a float. */
static const char *
number_end(const char *src, const char *s, int *isfloat)
{
	const char *p = s;

	*isfloat = 0;
	while (isdigit((unsigned char)*p) || *p == '_')
		p++;
	/* "1.5" is a float but the 0 in "groups.web.0" is an index */
	if (*p == '.' && isdigit((unsigned char)p[1]) &&
	    (s == src || s[-1] != '.')) {
		*isfloat = 1;
		p++;
		while (isdigit((unsigned char)*p) || *p == '_')
			p++;
	}
	if ((*p == 'e' || *p == 'E') &&
	    (isdigit((unsigned char)p[1]) ||
	    ((p[1] == '+' || p[1] == '-') &&
	    isdigit((unsigned char)p[2])))) {
		*isfloat = 1;
		p += 2;
		while (isdigit((unsigned char)*p))
			p++;
	}
	return p;
}

static int
lex_number(const char *src, const char **pp, size_t base, struct lexer *lx,
    char **cause)
{
	const char	*s = *pp, *p;
	size_t		 start = (size_t)(s - src), o = 0;
	int		 isfloat;
	char		 buf[64];
	struct token	*t;

	p = number_end(src, s, &isfloat);
	for (; s < p; s++) {
		if (*s == '_')
			continue;
		if (o + 1 >= sizeof buf)
			return fail(cause, "number too long at character %zu",
			    base + start + 1);
		buf[o++] = *s;
	}
	buf[o] = '\0';
	t = lexer_push(lx, isfloat ? T_FLOAT : T_INT, start);
	errno = 0;
	if (isfloat)
		t->f = strtod(buf, NULL);
	else
		t->i = strtoll(buf, NULL, 10);
	if (errno == ERANGE)
		return fail(cause, "number too large at character %zu",
		    base + start + 1);
	*pp = p;
	return 0;
}

/* A code point as UTF-8 (below 0x110000, not a surrogate: the caller
 * checks the result with utf8_valid). */
static void
add_utf8(struct strbuf *sb, unsigned long cp)
{
	if (cp < 0x80)
		strbuf_addch(sb, (char)cp);
	else if (cp < 0x800) {
		strbuf_addch(sb, (char)(0xc0 | (cp >> 6)));
		strbuf_addch(sb, (char)(0x80 | (cp & 0x3f)));
	} else if (cp < 0x10000) {
		strbuf_addch(sb, (char)(0xe0 | (cp >> 12)));
		strbuf_addch(sb, (char)(0x80 | ((cp >> 6) & 0x3f)));
		strbuf_addch(sb, (char)(0x80 | (cp & 0x3f)));
	} else {
		strbuf_addch(sb, (char)(0xf0 | (cp >> 18)));
		strbuf_addch(sb, (char)(0x80 | ((cp >> 12) & 0x3f)));
		strbuf_addch(sb, (char)(0x80 | ((cp >> 6) & 0x3f)));
		strbuf_addch(sb, (char)(0x80 | (cp & 0x3f)));
	}
}

/*
 * One escape of a string literal, p just after its backslash, as Jinja2
 * decodes them (Python's unicode-escape): \\ \' \" \a \b \f \n \r \t \v,
 * octal \ooo, \xhh, \uXXXX, \UXXXXXXXX, and a backslash before a newline
 * drops both; before anything else the backslash stays, so that a regular
 * expression's '\d' reaches the regex as \d. Returns what follows.
 */
static const char *
unescape(struct strbuf *sb, const char *p)
{
	static const char simple[] = "\\\\''\"\"a\ab\bf\fn\nr\rt\tv\v";
	const char	*e;
	unsigned long	 cp = 0;
	size_t		 i, n;

	for (i = 0; simple[i] != '\0'; i += 2) {
		if (simple[i] == *p) {
			strbuf_addch(sb, simple[i + 1]);
			return p + 1;
		}
	}
	if (*p == '\n')
		return p + 1;
	if (*p >= '0' && *p <= '7') {
		for (e = p; e < p + 3 && *e >= '0' && *e <= '7'; e++)
			cp = cp * 8 + (unsigned long)(*e - '0');
		add_utf8(sb, cp);
		return e;
	}
	n = *p == 'x' ? 2 : *p == 'u' ? 4 : *p == 'U' ? 8 : 0;
	for (i = 0; i < n && isxdigit((unsigned char)p[1 + i]); i++)
		cp = cp * 16 + (unsigned long)(isdigit((unsigned char)p[1 + i]) ?
		    p[1 + i] - '0' : (tolower((unsigned char)p[1 + i]) - 'a' +
		    10));
	if (n > 0 && i == n && cp < 0x110000) {
		add_utf8(sb, cp);
		return p + 1 + n;
	}
	/* Python refuses a short \x, \u or \U; kept as written here */
	strbuf_addch(sb, '\\');
	return p;
}

static int
lex_string(const char *src, const char **pp, size_t base, int flags,
    struct lexer *lx, char **cause)
{
	const char	*s = *pp, *p = s + 1;
	char		 q = *s;
	struct strbuf	 sb;

	strbuf_init(&sb);
	while (*p != '\0' && *p != q) {
		/* raw: as written, up to the next quote (Ansible's doubled
		 * backslashes escape nothing, not even a quote) */
		if (*p == '\\' && p[1] != '\0' && !(flags & EXPR_RAW_STRINGS)) {
			p = unescape(&sb, p + 1);
			continue;
		}
		strbuf_addch(&sb, *p++);
	}
	if (*p != q) {
		strbuf_release(&sb);
		return fail(cause, "unterminated string at character %zu",
		    base + (size_t)(s - src) + 1);
	}
	if (!utf8_valid(sb.buf, sb.len)) {
		strbuf_release(&sb);
		return fail(cause, "invalid UTF-8 in string at character %zu",
		    base + (size_t)(s - src) + 1);
	}
	lexer_push(lx, T_STR, (size_t)(s - src))->text =
	    strbuf_detach(&sb, NULL);
	*pp = p + 1;
	return 0;
}

static int
lex_op(const char *src, const char **pp, size_t base, struct lexer *lx,
    char **cause)
{
	static const char *const ops2[] = { "==", "!=", "<=", ">=", "//",
	    "**", NULL };
	const char	*p = *pp;
	size_t		 i, off = (size_t)(p - src);
	struct token	*t;

	for (i = 0; ops2[i] != NULL; i++) {
		if (strncmp(p, ops2[i], 2) == 0) {
			memcpy(lexer_push(lx, T_OP, off)->op, p, 2);
			*pp = p + 2;
			return 0;
		}
	}
	if (strchr("<>()[]{},.:|+-*/%~=", *p) != NULL) {
		t = lexer_push(lx, T_OP, off);
		t->op[0] = *p;
		*pp = p + 1;
		return 0;
	}
	if (!isprint((unsigned char)*p))
		return fail(cause, "unexpected byte 0x%02x at character %zu",
		    (unsigned char)*p, base + off + 1);
	return fail(cause, "unexpected '%c' at character %zu", *p,
	    base + off + 1);
}

int
expr_lex(const char *src, size_t base, int flags, struct lexer *lx,
    char **cause)
{
	const char	*p = src;
	int		 r = 0;

	memset(lx, 0, sizeof *lx);
	for (;;) {
		while (isspace((unsigned char)*p))
			p++;
		if (*p == '\0')
			break;
		if (isalpha((unsigned char)*p) || *p == '_')
			lex_name(src, &p, lx);
		else if (isdigit((unsigned char)*p))
			r = lex_number(src, &p, base, lx, cause);
		else if (*p == '\'' || *p == '"')
			r = lex_string(src, &p, base, flags, lx, cause);
		else
			r = lex_op(src, &p, base, lx, cause);
		if (r != 0) {
			expr_lexer_free(lx);
			return -1;
		}
	}
	lexer_push(lx, T_EOF, (size_t)(p - src));
	return 0;
}
