/* Ansible's filters of strings (ansible/plugins/filter/core.py): paths
 * (basename, dirname), base64, split (str.split, also the method),
 * quote, and mandatory. Rows of the table in expr-filters.c. */
#include "template/expr-int.h"

#include <stdlib.h>
#include <string.h>

#include "base/shquote.h"
#include "base/strbuf.h"
#include "base/utf8.h"
#include "base/xalloc.h"
#include "template/expr.h"
#include "template/value.h"

/* os.path.basename: what follows the last '/'. */
int
expr_filter_basename(struct expr_call *c, json_t **out)
{
	char		*s = template_to_text(c->v);
	const char	*slash = strrchr(s, '/');

	*out = json_string(slash != NULL ? slash + 1 : s);
	free(s);
	return 0;
}

/* os.path.dirname: what precedes the last '/', its trailing slashes cut
 * unless it is all slashes ("/" stays "/"). */
int
expr_filter_dirname(struct expr_call *c, json_t **out)
{
	char	*s = template_to_text(c->v), *slash = strrchr(s, '/');
	size_t	 len;

	len = slash != NULL ? (size_t)(slash - s) + 1 : 0;
	if (strspn(s, "/") < len)
		while (len > 0 && s[len - 1] == '/')
			len--;
	*out = json_stringn(s, len);
	free(s);
	return 0;
}

static const char b64[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* b64encode: the text's UTF-8 bytes in base64 (only utf-8: the encoding
 * argument is refused). */
int
expr_filter_b64encode(struct expr_call *c, json_t **out)
{
	char		*s = template_to_text(c->v);
	unsigned char	*p = (unsigned char *)s;
	size_t		 len = strlen(s), i;
	unsigned	 v;
	struct strbuf	 sb;

	strbuf_init(&sb);
	for (i = 0; i + 2 < len; i += 3) {
		v = (unsigned)p[i] << 16 | (unsigned)p[i + 1] << 8 | p[i + 2];
		strbuf_addch(&sb, b64[v >> 18]);
		strbuf_addch(&sb, b64[(v >> 12) & 63]);
		strbuf_addch(&sb, b64[(v >> 6) & 63]);
		strbuf_addch(&sb, b64[v & 63]);
	}
	if (i < len) {
		v = (unsigned)p[i] << 16 | (i + 1 < len ? (unsigned)p[i + 1] <<
		    8 : 0);
		strbuf_addch(&sb, b64[v >> 18]);
		strbuf_addch(&sb, b64[(v >> 12) & 63]);
		strbuf_addch(&sb, i + 1 < len ? b64[(v >> 6) & 63] : '=');
		strbuf_addch(&sb, '=');
	}
	free(s);
	return expr_string_out(c->ctx, &sb, out);
}

/* b64decode: base64.b64decode as Python's non-strict mode reads it
 * (characters outside the alphabet are skipped), the bytes then read as
 * UTF-8. */
int
expr_filter_b64decode(struct expr_call *c, json_t **out)
{
	char		*s = template_to_text(c->v), *p;
	struct strbuf	 sb;
	const char	*at;
	unsigned	 acc = 0;
	size_t		 n = 0, pad = 0;

	strbuf_init(&sb);
	for (p = s; *p != '\0'; p++) {
		if (*p == '=') {
			pad++;
			continue;
		}
		if ((at = strchr(b64, *p)) == NULL || pad > 0)
			continue;
		acc = acc << 6 | (unsigned)(at - b64);
		if (++n % 4 == 0) {
			strbuf_addch(&sb, (char)(acc >> 16));
			strbuf_addch(&sb, (char)(acc >> 8));
			strbuf_addch(&sb, (char)acc);
			acc = 0;
		}
	}
	free(s);
	if (n % 4 == 1 || (n % 4 != 0 && pad < 4 - n % 4)) {
		strbuf_release(&sb);
		return expr_error(c->ctx, "b64decode: %s", n % 4 == 1 ?
		    "invalid base64-encoded string" : "incorrect padding");
	}
	if (n % 4 == 2)
		strbuf_addch(&sb, (char)(acc >> 4));
	else if (n % 4 == 3) {
		strbuf_addch(&sb, (char)(acc >> 10));
		strbuf_addch(&sb, (char)(acc >> 2));
	}
	if (memchr(sb.buf != NULL ? sb.buf : "", '\0', sb.len) != NULL ||
	    !utf8_valid(sb.buf != NULL ? sb.buf : "", sb.len)) {
		strbuf_release(&sb);
		return expr_error(c->ctx, "b64decode: the bytes are not UTF-8 "
		    "text");
	}
	return expr_string_out(c->ctx, &sb, out);
}

static int
is_space(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' ||
	    ch == '\v' || ch == '\f';
}

/* split(sep=none, maxsplit=-1): Python's str.split. Without sep, runs of
 * (ASCII) whitespace separate and none is kept at either end. */
int
expr_str_split(struct expr_call *c, json_t **out)
{
	char		*s = template_to_text(c->v), *p, *e;
	const char	*sep = NULL;
	long long	 max = -1;
	size_t		 seplen = 0;

	if (c->arg[0] != NULL && !json_is_null(c->arg[0])) {
		if (!json_is_string(c->arg[0]) ||
		    json_string_length(c->arg[0]) == 0) {
			free(s);
			return expr_error(c->ctx, "split: the separator must be "
			    "a string that is not empty");
		}
		sep = json_string_value(c->arg[0]);
		seplen = strlen(sep);
	}
	if (c->arg[1] != NULL) {
		if (!json_is_integer(c->arg[1])) {
			free(s);
			return expr_error(c->ctx, "split: maxsplit must be an "
			    "int, got %s", expr_type_name(c->arg[1]));
		}
		max = json_integer_value(c->arg[1]);
	}
	*out = json_array();
	for (p = s;;) {
		if (sep == NULL) {
			while (is_space(*p))
				p++;
			if (*p == '\0')
				break;
		}
		if (max == 0) {
			e = p + strlen(p);
			if (sep == NULL)
				while (e > p && is_space(e[-1]))
					e--;
		} else if (sep != NULL)
			e = strstr(p, sep);
		else
			for (e = p; *e != '\0' && !is_space(*e); e++)
				;
		if (e == NULL || (sep == NULL && *e == '\0') || max == 0) {
			json_array_append_new(*out, json_stringn(p, e != NULL ?
			    (size_t)(e - p) : strlen(p)));
			break;
		}
		json_array_append_new(*out, json_stringn(p, (size_t)(e - p)));
		p = e + (sep != NULL ? seplen : 0);
		if (max > 0)
			max--;
	}
	free(s);
	return 0;
}

/* quote: the text as one sh word, by the project's one quoting helper
 * (base/shquote.h). It always quotes, where Python's shlex.quote leaves a
 * word of safe characters bare and writes a quote as '"'"'; the shell
 * reads both as the same word. */
int
expr_filter_quote(struct expr_call *c, json_t **out)
{
	char	*s = json_is_null(c->v) ? xstrdup("") : template_to_text(c->v);
	char	*q = shquote(s);

	*out = json_string(q);
	free(q);
	free(s);
	return 0;
}

/* mandatory(msg=none): the operand, or an error when it is undefined. */
int
expr_filter_mandatory(struct expr_call *c, json_t **out)
{
	json_t	*msg = NULL;
	char	*name, *text;

	if (expr_eval_node(c->ctx, c->n->a, out) != 0)
		return -1;
	if (*out != NULL)
		return 0;
	name = expr_undefined_name(c->ctx, c->n->a);
	c->ctx->undef = NULL;
	if (c->n->nargs > 0 && c->n->args[0] != NULL) {
		if (expr_need(c->ctx, c->n->args[0], &msg) != 0) {
			free(name);
			return -1;
		}
		text = template_to_text(msg);
		expr_error(c->ctx, "%s", text);
		free(text);
		json_decref(msg);
	} else
		expr_error(c->ctx, "Mandatory variable '%s' not defined.",
		    name);
	free(name);
	return -1;
}
