/* `{{ expr }}` substitution in strings and values, and `when` (the
 * expression language itself is in expr*.c, expr.h). */
#include "template/template.h"

#include <stdlib.h>
#include <string.h>

#include "base/shquote.h"
#include "base/strbuf.h"
#include "base/utf8.h"
#include "base/xalloc.h"
#include "template/expr-int.h"
#include "template/expr.h"
#include "template/pyliteral.h"
#include "template/stmt.h"
#include "template/value.h"

/*
 * Find the next `{{ ... }}` block from p. Returns 1 with the expression's
 * bounds and the text after the block, 0 when there is none, -1 with *msg
 * for an unclosed block or a `{% %}`/`{# #}` block: strings with those
 * are stmt.c's, except shell text, which keeps to `{{ }}`.
 * Quotes inside the expression may hold "}}", and so may brackets (`{{
 * {'a': {}} }}`): Jinja2's lexer balances them.
 */
static int
next_block(const char *p, const char **open, const char **expr,
    size_t *len, const char **after, char **msg)
{
	const char	*q;
	char		 quote = 0;
	int		 depth = 0;

	for (; *p != '\0'; p++) {
		if (p[0] != '{')
			continue;
		if (p[1] == '%' || p[1] == '#') {
			*msg = xprintf("'{%c' blocks are not supported in "
			    "shell text", p[1]);
			return -1;
		}
		if (p[1] == '{')
			break;
	}
	if (*p == '\0')
		return 0;
	*open = p;
	*expr = p + 2;
	for (q = p + 2; *q != '\0'; q++) {
		if (quote != 0) {
			if (*q == '\\' && q[1] != '\0')
				q++;
			else if (*q == quote)
				quote = 0;
		} else if (*q == '\'' || *q == '"')
			quote = *q;
		else if (depth == 0 && q[0] == '}' && q[1] == '}')
			break;
		else
			depth = stmt_bracket_depth(depth, *q);
	}
	if (*q == '\0') {
		*msg = xstrdup("missing '}}'");
		return -1;
	}
	*len = (size_t)(q - *expr);
	*after = q + 2;
	return 1;
}

/* The text of a template or expression as a message quotes it: a long one
 * (a generated `when`) is cut, at a character boundary. */
#define QUOTE_MAX	80

static char *
quoted(const char *s)
{
	size_t len = strlen(s);

	if (len <= QUOTE_MAX)
		return xstrdup(s);
	len = QUOTE_MAX - 3;
	while (len > 0 && ((unsigned char)s[len] & 0xc0) == 0x80)
		len--;
	return xprintf("%.*s...", (int)len, s);
}

int
template_has(const char *s)
{
	return strstr(s, "{{") != NULL || strstr(s, "{%") != NULL;
}

/* Whether s needs Jinja2's whole template language (stmt.c) rather than
 * `{{ }}` substitution alone: statements, comments, whitespace control. */
static int
has_statements(const char *s)
{
	return strstr(s, "{%") != NULL || strstr(s, "{#") != NULL ||
	    strstr(s, "{{-") != NULL || strstr(s, "-}}") != NULL;
}

int
template_check(const char *s, char **cause)
{
	const char	*p = s, *open, *expr, *after;
	size_t		 len;
	char		*msg = NULL, *src;
	int		 found;

	if (has_statements(s)) {
		(void)stmt_check(s, &msg);
		goto checked;
	}
	while ((found = next_block(p, &open, &expr, &len, &after, &msg)) > 0) {
		src = xstrndup(expr, len);
		if (expr_check_flags(src, (size_t)(expr - s),
		    EXPR_RAW_STRINGS, &msg) != 0) {
			free(src);
			break;
		}
		free(src);
		p = after;
	}
checked:
	if (msg == NULL)
		return 0;
	src = quoted(s);
	fail(cause, "invalid template '%s': %s", src, msg);
	free(src);
	free(msg);
	return -1;
}

/* A `when` written as "{{ expr }}": the inner expression and its offset,
 * else NULL. */
static char *
unwrap_when(const char *expr, size_t *base)
{
	const char	*open, *inner, *after, *p = expr;
	size_t		 len;
	char		*msg = NULL;

	*base = 0;
	while (*p == ' ' || *p == '\t')
		p++;
	if (next_block(p, &open, &inner, &len, &after, &msg) != 1) {
		free(msg);
		return NULL;
	}
	if (open != p || strspn(after, " \t\n") != strlen(after))
		return NULL;
	*base = (size_t)(inner - expr);
	return xstrndup(inner, len);
}

int
template_check_when(const char *expr, char **cause)
{
	size_t	 base;
	char	*inner = unwrap_when(expr, &base), *msg = NULL, *q;
	int	 r;

	r = expr_check(inner != NULL ? inner : expr, base, &msg);
	free(inner);
	if (r == 0)
		return 0;
	q = quoted(expr);
	fail(cause, "invalid when expression '%s': %s", q, msg);
	free(q);
	free(msg);
	return -1;
}

static void
pos_prefix(struct strbuf *sb, const struct ypos *pos)
{
	if (pos != NULL && pos->file != NULL)
		strbuf_addf(sb, "%s:%d:%d: ", pos->file, pos->line, pos->col);
}

/* Format an expr_eval failure for a template string. */
/* The code of the last render_fail on this thread: a lazy variable's
 * template that failed on an undefined variable makes the variable
 * undefined, any other failure is an error (expr_lazy_var). */
static _Thread_local int render_code;

static void
render_fail(char **cause, const struct ypos *pos, const char *s, int code,
    char *msg)
{
	struct strbuf	 sb;
	char		*q = quoted(s);

	render_code = code;
	strbuf_init(&sb);
	pos_prefix(&sb, pos);
	if (code == EXPR_SYNTAX)
		strbuf_addf(&sb, "invalid template '%s': %s", q, msg);
	else if (code == EXPR_UNDEFINED)
		strbuf_addstr(&sb, msg);
	else
		strbuf_addf(&sb, "%s in '%s'", msg, q);
	free(q);
	free(msg);
	if (cause != NULL)
		*cause = strbuf_detach(&sb, NULL);
	strbuf_release(&sb);
}

/*
 * What a template's value is, as ansible-core 2.14 (jinja2_native off)
 * makes it: Templar.template's shortcut first, then ansible_eval_concat.
 *
 * single_var: a string that is exactly `{{ name }}` whose variable is a
 * number, a boolean or null gives that value itself (Templar's SINGLE_VAR
 * and NON_TEMPLATED_TYPES). NULL otherwise: render it.
 */
static json_t *
single_var(const char *s, const json_t *vars)
{
	const char	*p = s + 2, *name;
	size_t		 n;
	json_t		*v;
	char		*key;

	if (strncmp(s, "{{", 2) != 0)
		return NULL;
	p += strspn(p, " \t\n\r");
	name = p;
	while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
	    (*p >= '0' && *p <= '9') || *p == '_')
		p++;
	n = (size_t)(p - name);
	p += strspn(p, " \t\n\r");
	if (n == 0 || strcmp(p, "}}") != 0)
		return NULL;
	key = xstrndup(name, n);
	v = json_object_get(vars, key);
	free(key);
	if (v == NULL || !(json_is_number(v) || json_is_boolean(v) ||
	    json_is_null(v)))
		return NULL;
	return json_incref(v);
}

/* ansible_eval_concat of a text: one that starts with '[' or '{', or is
 * "True" or "False", is read as a Python literal when it is one
 * (ast.literal_eval: "[1, 'a']" is the list, '{"k": 1}' from to_json the
 * mapping, "[x]" stays text). Consumes v. */
static json_t *
concat_text(json_t *v)
{
	const char	*t = json_string_value(v);
	json_t		*lit;

	if (t == NULL || !(t[0] == '[' || t[0] == '{' ||
	    strcmp(t, "True") == 0 || strcmp(t, "False") == 0))
		return v;
	lit = py_literal_eval(t);
	if (json_is_string(lit)) {
		json_decref(lit);
		return v;
	}
	json_decref(v);
	return lit;
}

/* Whether the expression (len bytes) ends in a filter whose text Ansible
 * keeps as text (C.STRING_TYPE_FILTERS, whose result is NativeJinjaText:
 * `{{ m | to_json }}` is the JSON text, not read back as a mapping). Read
 * from the text: a filter binds tighter than any operator after it. */
static int
ends_in_text_filter(const char *expr, size_t len)
{
	static const char *const names[] = { "string", "to_json",
	    "to_nice_json", "to_yaml", "to_nice_yaml", NULL };
	size_t	i, n, depth = 0;

	while (len > 0 && strchr(" \t\n\r", expr[len - 1]) != NULL)
		len--;
	/* past a call's arguments */
	if (len > 0 && expr[len - 1] == ')') {
		for (n = len; n > 0; n--) {
			if (expr[n - 1] == ')')
				depth++;
			else if (expr[n - 1] == '(' && --depth == 0)
				break;
		}
		if (n == 0)
			return 0;
		len = n - 1;
	}
	for (i = 0; names[i] != NULL; i++) {
		n = strlen(names[i]);
		if (len < n || strncmp(expr + len - n, names[i], n) != 0)
			continue;
		n = len - n;
		while (n > 0 && strchr(" \t\n\r", expr[n - 1]) != NULL)
			n--;
		if (n > 0 && expr[n - 1] == '|')
			return 1;
	}
	return 0;
}

/* ansible_eval_concat of one block's value: a number becomes its text
 * (Python's str), none the empty text (Ansible's finalize), a boolean, a
 * list and a mapping stay what they are (their text would read back the
 * same). Consumes v. */
static json_t *
concat_one(json_t *v)
{
	json_t	*t;
	char	*text;

	if (json_is_null(v)) {
		json_decref(v);
		return json_string("");
	}
	if (!json_is_number(v))
		return concat_text(v);
	text = template_to_text(v);
	t = json_string(text);
	free(text);
	json_decref(v);
	return t;
}

/* Render s; with shell set, each substitution is one single-quoted sh word
 * (lib/base/shquote.h) and the result is always a string. */
static json_t *
render_string(const char *s, const json_t *vars, const struct ypos *pos,
    int shell, char **cause)
{
	const char	*p = s, *open, *expr, *after;
	size_t		 len;
	char		*msg = NULL, *src, *text;
	json_t		*v = NULL;
	struct strbuf	 sb;
	int		 found, code;

	if (!utf8_valid(s, strlen(s))) {
		render_fail(cause, pos, s, EXPR_ERROR,
		    xstrdup("invalid UTF-8"));
		return NULL;
	}
	/* Statements make a string (shell text keeps to `{{ }}`: each is one
	 * quoted word there, which a statement's output could not be). */
	if (!shell && has_statements(s)) {
		if ((code = stmt_render(s, vars, EXPR_RAW_STRINGS, &v,
		    &msg)) != EXPR_OK) {
			render_fail(cause, pos, s, code, msg);
			return NULL;
		}
		return concat_text(v);
	}
	if (!shell && (v = single_var(s, vars)) != NULL)
		return v;
	strbuf_init(&sb);
	while ((found = next_block(p, &open, &expr, &len, &after, &msg)) > 0) {
		if (sb.len > EXPR_MAX_STRING) {
			render_fail(cause, pos, s, EXPR_ERROR, xprintf("result "
			    "longer than %d MiB", EXPR_MAX_STRING /
			    (1024 * 1024)));
			strbuf_release(&sb);
			return NULL;
		}
		src = xstrndup(expr, len);
		code = expr_eval_flags(src, (size_t)(expr - s), vars,
		    EXPR_RAW_STRINGS, &v, &msg);
		free(src);
		if (code != EXPR_OK) {
			render_fail(cause, pos, s, code, msg);
			strbuf_release(&sb);
			return NULL;
		}
		/* exactly one block: the value as Ansible's concat makes it */
		if (!shell && open == s && *after == '\0') {
			strbuf_release(&sb);
			if (json_is_string(v) && ends_in_text_filter(expr, len))
				return v;
			return concat_one(v);
		}
		strbuf_add(&sb, p, (size_t)(open - p));
		/* none is "" (Ansible's finalize), other values their text */
		text = json_is_null(v) ? xstrdup("") : template_to_text(v);
		if (shell)
			shquote_add(&sb, text);
		else
			strbuf_addstr(&sb, text);
		free(text);
		json_decref(v);
		v = NULL;
		p = after;
	}
	if (found < 0) {
		render_fail(cause, pos, s, EXPR_SYNTAX, msg);
		strbuf_release(&sb);
		return NULL;
	}
	strbuf_addstr(&sb, p);
	v = json_stringn(sb.buf, sb.len);
	strbuf_release(&sb);
	/* text with no template is the text (Templar returns it as is) */
	return shell || p == s ? v : concat_text(v);
}

json_t *
template_render_string(const char *s, const json_t *vars,
    const struct ypos *pos, char **cause)
{
	return render_string(s, vars, pos, 0, cause);
}

char *
template_render_text(const char *s, size_t len, const json_t *vars,
    const char *name, size_t *out_len, char **cause)
{
	json_t		*v = NULL;
	char		*msg = NULL, *out = NULL, *src;
	struct strbuf	 sb;
	size_t		 want, have;
	int		 code;

	if (memchr(s, '\0', len) != NULL || !utf8_valid(s, len)) {
		fail(cause, "%s: not UTF-8 text", name);
		return NULL;
	}
	/* Jinja2 as Ansible sets it up drops the source's last newline
	 * (keep_trailing_newline off), then Ansible's do_template pads the
	 * result to as many trailing newlines as the source has. */
	for (want = 0; want < len && s[len - 1 - want] == '\n'; want++)
		;
	src = xstrndup(s, want > 0 ? len - 1 : len);
	code = stmt_render(src, vars, 0, &v, &msg);
	free(src);
	if (code != EXPR_OK) {
		fail(cause, "%s: %s", name, msg);
		free(msg);
		return NULL;
	}
	strbuf_init(&sb);
	if (json_is_string(v))
		strbuf_add(&sb, json_string_value(v), json_string_length(v));
	else {
		out = template_to_text(v);
		strbuf_addstr(&sb, out);
		free(out);
	}
	json_decref(v);
	for (have = 0; have < sb.len && sb.buf[sb.len - 1 - have] == '\n';
	    have++)
		;
	for (; have < want; have++)
		strbuf_addch(&sb, '\n');
	return strbuf_detach(&sb, out_len);
}

json_t *
template_render_shell(const char *s, const json_t *vars,
    const struct ypos *pos, char **cause)
{
	return render_string(s, vars, pos, 1, cause);
}

json_t *
template_render(const json_t *value, const json_t *vars,
    const struct ypos *pos, char **cause)
{
	json_t		*out, *item, *r;
	const char	*key;
	size_t		 i;

	if (json_is_string(value))
		return template_render_string(json_string_value(value), vars,
		    pos, cause);
	if (json_is_array(value)) {
		out = json_array();
		json_array_foreach(value, i, item) {
			if ((r = template_render(item, vars, pos, cause)) ==
			    NULL) {
				json_decref(out);
				return NULL;
			}
			json_array_append_new(out, r);
		}
		return out;
	}
	if (json_is_object(value)) {
		out = json_object();
		json_object_foreach((json_t *)value, key, item) {
			if ((r = template_render(item, vars, pos, cause)) ==
			    NULL) {
				json_decref(out);
				return NULL;
			}
			json_object_set_new(out, key, r);
		}
		return out;
	}
	return json_incref((json_t *)value);
}

int
template_eval_bool(const char *expr, const json_t *vars,
    const struct ypos *pos, int *result, char **cause)
{
	size_t		 base;
	char		*inner = unwrap_when(expr, &base), *msg = NULL;
	json_t		*v = NULL;
	struct strbuf	 sb;
	int		 code;

	code = expr_eval(inner != NULL ? inner : expr, base, vars, &v, &msg);
	free(inner);
	if (code == EXPR_OK) {
		*result = template_truthy(v);
		json_decref(v);
		return 0;
	}
	strbuf_init(&sb);
	pos_prefix(&sb, pos);
	inner = quoted(expr);
	if (code == EXPR_SYNTAX)
		strbuf_addf(&sb, "invalid when expression '%s': %s", inner,
		    msg);
	else if (code == EXPR_UNDEFINED)
		strbuf_addstr(&sb, msg);
	else
		strbuf_addf(&sb, "%s in when expression '%s'", msg, inner);
	free(inner);
	free(msg);
	if (cause != NULL)
		*cause = strbuf_detach(&sb, NULL);
	strbuf_release(&sb);
	return -1;
}

/* ---- Ansible's lazy variables (expr-int.h) ---- */

/* The variables being rendered on this thread, innermost last: a name
 * met again is a template that reads itself. */
#define LAZY_MAX_DEPTH	64
static _Thread_local const char	*lazy_names[LAZY_MAX_DEPTH];
static _Thread_local size_t	 lazy_depth;
/* The loop's message, said once by every level it unwinds through (each
 * render would add its own template to it) */
static _Thread_local char		*lazy_loop;

/* Whether v holds template syntax in a string, at any depth. */
static int
has_template(const json_t *v)
{
	const json_t	*item;
	const char	*key;
	size_t		 i;

	if (json_is_string(v))
		return template_has(json_string_value(v));
	if (json_is_array(v)) {
		json_array_foreach(v, i, item) {
			if (has_template(item))
				return 1;
		}
	} else if (json_is_object(v)) {
		json_object_foreach((json_t *)v, key, item) {
			if (has_template(item))
				return 1;
		}
	}
	return 0;
}

int
expr_lazy_var(struct ectx *ctx, const struct enode *n, json_t **out)
{
	const json_t	*raw = json_object_get(ctx->vars, n->name), *unsafe;
	json_t		*v;
	char		*cause = NULL, *text;
	size_t		 i;

	*out = NULL;
	if (raw == NULL) {
		ctx->undef = n;
		return 0;
	}
	unsafe = json_object_get(ctx->vars, TEMPLATE_UNSAFE_VARS);
	if (json_object_get(unsafe, n->name) != NULL || !has_template(raw)) {
		*out = json_incref((json_t *)raw);
		return 0;
	}
	for (i = 0; i < lazy_depth; i++) {
		if (strcmp(lazy_names[i], n->name) == 0)
			break;
	}
	if (i < lazy_depth || lazy_depth == LAZY_MAX_DEPTH) {
		text = json_is_string(raw) ? quoted(json_string_value(raw)) :
		    xstrdup(n->name);
		free(lazy_loop);
		lazy_loop = xprintf("recursive loop detected in template "
		    "string: %s (variable '%s')", text, n->name);
		free(text);
		expr_error(ctx, "%s", lazy_loop);
		return -1;
	}
	lazy_names[lazy_depth++] = n->name;
	render_code = EXPR_OK;
	v = template_render(raw, ctx->vars, NULL, &cause);
	lazy_depth--;
	if (v != NULL) {
		*out = v;
		return 0;
	}
	if (render_code == EXPR_UNDEFINED) {
		/* Ansible's Undefined: `is defined` false, default() applies,
		 * and a use says why */
		ctx->undef = n;
		free(ctx->hint);
		ctx->hint_node = n;
		ctx->hint = cause;
		return 0;
	}
	if (lazy_loop != NULL)
		expr_error(ctx, "%s", lazy_loop);
	else
		expr_error(ctx, "%s (variable '%s')", cause, n->name);
	free(cause);
	if (lazy_depth == 0) {
		free(lazy_loop);
		lazy_loop = NULL;
	}
	return -1;
}

void
template_mark_unsafe(json_t *vars, const char *name)
{
	json_t *set = json_object_get(vars, TEMPLATE_UNSAFE_VARS);

	if (set == NULL) {
		set = json_object();
		json_object_set_new(vars, TEMPLATE_UNSAFE_VARS, set);
	}
	json_object_set_new(set, name, json_true());
}
