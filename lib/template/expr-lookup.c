/* Ansible's lookup(), query() and q() (ansible/template/__init__.py
 * _lookup), with the plugins tuning roles call: env, file, vars and
 * template (ansible/plugins/lookup/). The functions are rows of their own
 * table, called as `name(args)`; the plugins a table below.
 *
 * lookup() joins the plugin's results with "," when they are all strings,
 * gives the one result when there is one, else the list; query() and q(),
 * and lookup(..., wantlist=true), give the list. errors='ignore' or 'warn'
 * turn a plugin's failure into none (lookup) or [] (query); nothing is
 * printed here, so 'warn' is 'ignore'.
 *
 * These read the controller's environment and files: the file plugin
 * searches the variable ansible_search_path when it is set, else role_path
 * and then playbook_dir (each DIR as DIR/files/NAME, then DIR/NAME), and an
 * absolute path as it is; with none of these it fails. The template plugin
 * searches DIR/templates/NAME, then DIR/NAME. */
#include "template/expr-int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/strbuf.h"
#include "base/utf8.h"
#include "base/xalloc.h"
#include "template/expr.h"
#include "template/template.h"
#include "template/value.h"

/* The keyword-only arguments of lookup and query, in c->kw. */
enum { KW_WANTLIST, KW_ERRORS, KW_DEFAULT, KW_RSTRIP, KW_LSTRIP,
	KW_TEMPLATE_VARS };

/* env: each term's first word as a variable of the environment, or the
 * default ('' unless given). */
static int
lookup_env(struct expr_call *c, const json_t *terms, json_t *ret)
{
	const json_t	*t;
	const char	*s, *val;
	char		*name;
	size_t		 i;

	json_array_foreach(terms, i, t) {
		if ((s = json_string_value(t)) == NULL)
			return expr_error(c->ctx, "lookup('env'): a name must be "
			    "a string, got %s", expr_type_name(t));
		s += strspn(s, " \t\n");
		name = xstrndup(s, strcspn(s, " \t\n"));
		if ((val = getenv(name)) != NULL)
			json_array_append_new(ret, json_string(val));
		else
			json_array_append_new(ret, c->kw[KW_DEFAULT] != NULL ?
			    json_incref(c->kw[KW_DEFAULT]) : json_string(""));
		free(name);
	}
	return 0;
}

/* A term of vars or varnames that is no string: their error. */
static int
not_a_name(struct expr_call *c, const json_t *t)
{
	return expr_error(c->ctx, "Invalid setting identifier, \"%s\" is "
	    "not a string, it is %s", "(term)", expr_type_name(t));
}

/* vars: each term's variable (its value as it is), else the default. */
static int
lookup_vars(struct expr_call *c, const json_t *terms, json_t *ret)
{
	const json_t	*t, *v;
	size_t		 i;

	json_array_foreach(terms, i, t) {
		if (!json_is_string(t))
			return not_a_name(c, t);
		v = json_object_get(c->ctx->vars, json_string_value(t));
		if (v == NULL)
			v = c->kw[KW_DEFAULT];
		if (v == NULL) {
			expr_error(c->ctx, "No variable found with this name: %s",
			    json_string_value(t));
			c->ctx->code = EXPR_UNDEFINED;
			return -1;
		}
		json_array_append(ret, (json_t *)v);
	}
	return 0;
}

/* varnames: the names of the variables each term, a regular expression,
 * searches (os_hardening's lookup('varnames', '^' + key + '$')). */
static int
lookup_varnames(struct expr_call *c, const json_t *terms, json_t *ret)
{
	const json_t	*t;
	size_t		 i;

	json_array_foreach(terms, i, t) {
		if (!json_is_string(t))
			return not_a_name(c, t);
		if (expr_regex_names(c, json_string_value(t), c->ctx->vars,
		    ret) != 0)
			return -1;
	}
	return 0;
}

/* A lookup file: at most this much is read. */
#define LOOKUP_FILE_MAX	EXPR_MAX_STRING

/* A regular file only: a device or a FIFO (/dev/stdin) could block or
 * never end. */
static int
is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The file a name stands for (path_dwim_relative_stack: DIR/SUB/NAME,
 * then DIR/NAME, SUB "files" or "templates"), allocated, or NULL. */
static char *
find_file(const json_t *vars, const char *subdir, const char *name)
{
	size_t	 sublen = strlen(subdir);
	const json_t	*paths = json_object_get(vars, "ansible_search_path");
	const json_t	*p;
	const char	*dirs[2] = { NULL, NULL }, *dir;
	char		*cand;
	size_t		 i, n = 0;
	int		 sub;

	if (name[0] == '/')
		return is_file(name) ? xstrdup(name) : NULL;
	if (!json_is_array(paths)) {
		dirs[0] = json_string_value(json_object_get(vars, "role_path"));
		dirs[1] = json_string_value(json_object_get(vars,
		    "playbook_dir"));
	}
	n = json_is_array(paths) ? json_array_size(paths) : 2;
	for (i = 0; i < n; i++) {
		p = json_is_array(paths) ? json_array_get(paths, i) : NULL;
		dir = p != NULL ? json_string_value(p) : dirs[i];
		if (dir == NULL)
			continue;
		/* DIR/SUB/NAME, unless NAME already starts with SUB/ */
		for (sub = strncmp(name, subdir, sublen) != 0 ||
		    name[sublen] != '/'; sub >= 0; sub--) {
			cand = xprintf("%s/%s%s%s", dir, sub ? subdir : "",
			    sub ? "/" : "", name);
			if (is_file(cand))
				return cand;
			free(cand);
		}
	}
	return NULL;
}

static int
is_white(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' ||
	    ch == '\v' || ch == '\f';
}

/* The text of a file, UTF-8; with strip, stripped as rstrip (default)
 * and lstrip say. */
static int
read_text(struct expr_call *c, const char *path, int strip, json_t **out)
{
	struct strbuf	 sb;
	char		 buf[8192];
	size_t		 n, b = 0;
	FILE		*f;

	if ((f = fopen(path, "r")) == NULL)
		return expr_error(c->ctx, "lookup('file'): cannot read '%s': %s",
		    path, strerror(errno));
	strbuf_init(&sb);
	while ((n = fread(buf, 1, sizeof buf, f)) > 0 &&
	    sb.len <= LOOKUP_FILE_MAX)
		strbuf_add(&sb, buf, n);
	fclose(f);
	if (sb.len > LOOKUP_FILE_MAX || memchr(sb.buf != NULL ? sb.buf : "",
	    '\0', sb.len) != NULL || !utf8_valid(sb.buf != NULL ? sb.buf : "",
	    sb.len)) {
		strbuf_release(&sb);
		return expr_error(c->ctx, "lookup('file'): '%s' is not UTF-8 "
		    "text of at most %d MiB", path, LOOKUP_FILE_MAX /
		    (1024 * 1024));
	}
	if (strip && (c->kw[KW_RSTRIP] == NULL ||
	    template_truthy(c->kw[KW_RSTRIP])))
		while (sb.len > 0 && is_white(sb.buf[sb.len - 1]))
			sb.len--;
	if (strip && c->kw[KW_LSTRIP] != NULL &&
	    template_truthy(c->kw[KW_LSTRIP]))
		while (b < sb.len && is_white(sb.buf[b]))
			b++;
	*out = json_stringn(sb.buf != NULL ? sb.buf + b : "", sb.len - b);
	strbuf_release(&sb);
	return 0;
}

/* A term's file under subdir (find_file), read (read_text): 0 with *text
 * and *path (allocated), or -1 with the plugin's error. */
static int
term_file(struct expr_call *c, const json_t *t, const char *subdir,
    int strip, char **path, json_t **text)
{
	const char *what = strip ? "file" : "template";

	if (!json_is_string(t))
		return expr_error(c->ctx, "lookup('%s'): a path must be a "
		    "string, got %s", what, expr_type_name(t));
	if ((*path = find_file(c->ctx->vars, subdir, json_string_value(t))) ==
	    NULL)
		return strip ? expr_error(c->ctx, "could not locate file in "
		    "lookup: %s", json_string_value(t)) : expr_error(c->ctx,
		    "the template file %s could not be found for the lookup",
		    json_string_value(t));
	if (read_text(c, *path, strip, text) != 0) {
		free(*path);
		*path = NULL;
		return -1;
	}
	return 0;
}

/* file: each term's file's text. */
static int
lookup_file(struct expr_call *c, const json_t *terms, json_t *ret)
{
	const json_t	*t;
	json_t		*text;
	char		*path;
	size_t		 i;

	json_array_foreach(terms, i, t) {
		if (term_file(c, t, "files", 1, &path, &text) != 0)
			return -1;
		free(path);
		json_array_append_new(ret, text);
	}
	return 0;
}

/* Template lookups inside template lookups, at most (a template that
 * looks itself up would recurse for ever). */
#define LOOKUP_TEMPLATE_NESTING	16
static _Thread_local int template_nesting;

/* template: each term's template file (DIR/templates/NAME) rendered with
 * the variables and template_vars, as the template module renders; the
 * text as it is (convert_data's literal evaluation is not done). */
static int
lookup_template(struct expr_call *c, const json_t *terms, json_t *ret)
{
	const json_t	*t;
	json_t		*vars, *text;
	char		*path, *out, *cause = NULL;
	size_t		 i, len;
	int		 r = 0;

	if (c->kw[KW_TEMPLATE_VARS] != NULL &&
	    !json_is_object(c->kw[KW_TEMPLATE_VARS]))
		return expr_error(c->ctx, "lookup('template'): template_vars "
		    "must be a mapping");
	json_array_foreach(terms, i, t) {
		if (term_file(c, t, "templates", 0, &path, &text) != 0)
			return -1;
		if (template_nesting >= LOOKUP_TEMPLATE_NESTING) {
			free(path);
			json_decref(text);
			return expr_error(c->ctx, "lookup('template'): templates "
			    "nest deeper than %d", LOOKUP_TEMPLATE_NESTING);
		}
		vars = json_copy((json_t *)c->ctx->vars);
		if (c->kw[KW_TEMPLATE_VARS] != NULL)
			json_object_update(vars, c->kw[KW_TEMPLATE_VARS]);
		template_nesting++;
		out = template_render_text(json_string_value(text),
		    json_string_length(text), vars, path, &len, &cause);
		template_nesting--;
		json_decref(vars);
		json_decref(text);
		free(path);
		if (out == NULL) {
			r = expr_error(c->ctx, "%s", cause);
			free(cause);
			break;
		}
		json_array_append_new(ret, json_stringn(out, len));
		free(out);
	}
	return r;
}

static const struct {
	const char	*name;
	int		(*run)(struct expr_call *, const json_t *, json_t *);
} plugins[] = {
	{ "env",	lookup_env },
	{ "file",	lookup_file },
	{ "template",	lookup_template },
	{ "vars",	lookup_vars },
	{ "varnames",	lookup_varnames },
};

/* lookup(name, terms..., wantlist=, errors=, default=, rstrip=, lstrip=) */
static int
run_lookup(struct expr_call *c, int wantlist, json_t **out)
{
	const char	*name = json_string_value(c->arg[0]);
	const char	*errors = json_string_value(c->kw[KW_ERRORS]);
	json_t		*terms = json_array(), *ret = json_array(), *item;
	size_t		 i, p;
	int		 r = -1, all_strings = 1;

	for (p = 0; p < sizeof plugins / sizeof plugins[0]; p++) {
		if (name != NULL && strcmp(plugins[p].name, name) == 0)
			break;
	}
	if (p == sizeof plugins / sizeof plugins[0]) {
		expr_error(c->ctx, "lookup plugin (%s) not found (tcptune has "
		    "env, file and vars)", name != NULL ? name : "");
		goto out;
	}
	if (c->kw[KW_ERRORS] != NULL && (errors == NULL ||
	    (strcmp(errors, "strict") != 0 && strcmp(errors, "warn") != 0 &&
	    strcmp(errors, "ignore") != 0))) {
		expr_error(c->ctx, "lookup: errors must be 'strict', 'warn' or "
		    "'ignore'");
		goto out;
	}
	for (i = 1; i < c->nargs; i++)
		json_array_append(terms, c->arg[i]);
	if (plugins[p].run(c, terms, ret) != 0) {
		/* an undefined variable is never ignored */
		if (errors == NULL || strcmp(errors, "strict") == 0 ||
		    c->ctx->code == EXPR_UNDEFINED)
			goto out;
		free(c->ctx->cause);
		c->ctx->cause = NULL;
		c->ctx->code = 0;
		*out = wantlist ? json_array() : json_null();
		r = 0;
		goto out;
	}
	r = 0;
	if (wantlist || json_array_size(ret) == 0) {
		*out = json_incref(ret);
		goto out;
	}
	json_array_foreach(ret, i, item)
		all_strings &= json_is_string(item);
	if (all_strings) {
		struct strbuf sb;

		strbuf_init(&sb);
		json_array_foreach(ret, i, item) {
			if (i > 0)
				strbuf_addch(&sb, ',');
			strbuf_addstr(&sb, json_string_value(item));
		}
		r = expr_string_out(c->ctx, &sb, out);
	} else if (json_array_size(ret) == 1)
		*out = json_incref(json_array_get(ret, 0));
	else
		*out = json_incref(ret);
out:
	json_decref(terms);
	json_decref(ret);
	return r;
}

static int
fn_lookup(struct expr_call *c, json_t **out)
{
	return run_lookup(c, c->kw[KW_WANTLIST] != NULL &&
	    template_truthy(c->kw[KW_WANTLIST]), out);
}

static int
fn_query(struct expr_call *c, json_t **out)
{
	return run_lookup(c, 1, out);
}

/* range([start, ]stop[, step]): Python's, as a list (at most
 * RANGE_MAX items). */
#define RANGE_MAX	1000000

static int
fn_range(struct expr_call *c, json_t **out)
{
	json_int_t	v[3] = { 0, 0, 1 }, i, n, span;
	size_t		 a;

	for (a = 0; a < c->nargs; a++) {
		if (!json_is_integer(c->arg[a]))
			return expr_error(c->ctx, "range() takes ints, got %s",
			    expr_type_name(c->arg[a]));
	}
	if (c->nargs == 1)
		v[1] = json_integer_value(c->arg[0]);
	else
		for (a = 0; a < c->nargs; a++)
			v[a] = json_integer_value(c->arg[a]);
	if (v[2] == 0)
		return expr_error(c->ctx, "range() arg 3 must not be zero");
	if (__builtin_sub_overflow(v[1], v[0], &span))
		return expr_error(c->ctx, "range(): stop - start is beyond 64 "
		    "bits");
	/* the count of start + k * step before stop, rounded up */
	if (span == 0 || (span > 0) != (v[2] > 0))
		n = 0;
	else
		n = span / v[2] + (span % v[2] != 0);
	if (n > RANGE_MAX)
		return expr_error(c->ctx, "range() of more than %d items",
		    RANGE_MAX);
	*out = json_array();
	for (i = 0; i < n; i++)
		json_array_append_new(*out, json_integer(v[0] + i * v[2]));
	return 0;
}

/* The functions a template may call by name, rows as filters' (their
 * operand is none). */
static const struct expr_filter functions[] = {
	{ "lookup",	1, EXPR_MAX_ARGS, fn_lookup, EXPR_EAGER, NULL,
	  "wantlist errors default rstrip lstrip template_vars" },
	{ "query",	1, EXPR_MAX_ARGS, fn_query, EXPR_EAGER, NULL,
	  "wantlist errors default rstrip lstrip template_vars" },
	{ "range",	1, 3,	fn_range,	EXPR_EAGER,	NULL,	NULL },
	{ "q",		1, EXPR_MAX_ARGS, fn_query, EXPR_EAGER, NULL,
	  "wantlist errors default rstrip lstrip template_vars" },
};

const struct expr_filter *
expr_function_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof functions / sizeof functions[0]; i++) {
		if (strcmp(functions[i].name, name) == 0)
			return &functions[i];
	}
	return NULL;
}
