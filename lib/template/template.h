/* Templates: `{{ expr }}` substitution and `when` expressions.
 *
 * The expression language is the part of Jinja2 that playbooks use:
 *   literals     'str' "str" 12 1.5 true/True false/False none/None [a, b]
 *                {'k': v}
 *   variables    name, dotted paths (facts.mem_total_bytes, groups.web.0)
 *                and subscripts (groups['web'][0])
 *   operators    or and not, == != < <= > >=, in, not in, + - * / // % ~,
 *                unary -, parentheses, `a if cond else b`; `fmt % args`
 *                formats as Python's printf-style
 *   calls        filters `x | f(args)`, tests `x is [not] t(args)`,
 *                methods `x.m(args)` and functions `lookup(...)`, with
 *                Python's positional and keyword arguments; tuples are lists
 *   filters      default (d), mandatory, int, float, string, bool, lower,
 *                upper, trim, length (count), join, first, last, min, max,
 *                abs, round, replace, split, regex_replace, regex_search,
 *                regex_findall, regex_escape, basename, dirname, quote,
 *                b64encode, b64decode, dict2items, items2dict, combine,
 *                flatten, unique, to_json, to_nice_json, from_json,
 *                ternary, map, select, reject, selectattr, rejectattr,
 *                sort, dictsort, zip, product, sum, format, list
 *   tests        defined, undefined, none, string, number, integer, float,
 *                boolean, mapping, sequence, iterable, true, false, even,
 *                odd, version (version_compare), match, search, regex, in,
 *                contains, subset, superset, success, failed, changed,
 *                skipped, reachable, unreachable (and their other names),
 *                truthy, falsy, any, all, eq, ne, lt, le, gt, ge (and
 *                ==, !=, <, <=, >, >=, equalto, lessthan, greaterthan),
 *                divisibleby, lower, upper
 *   methods      dict items, keys, values, get; str split, lower, upper,
 *                strip, lstrip, rstrip, startswith, endswith, replace,
 *                join; list index, count
 *   functions    range; lookup, query, q with the plugins env, file,
 *                vars, template (they read the controller's environment
 *                and files)
 * (docs/playbooks.md has each one's arguments and what of Ansible's it
 * leaves out)
 * and, in any string but shell text, Jinja2's statements (if/elif/else,
 * for with loop.*, set), comments and whitespace control, as Ansible sets
 * Jinja2 up (stmt.h).
 * Truthiness is Jinja's (Python's): none, false, 0, 0.0, "", [] and {} are
 * false. Using an undefined variable is an error everywhere except under
 * `is defined`/`is undefined` and the `default` filter; so is reading a
 * missing key or index (the error names the whole path, e.g. 'facts.x').
 *
 * All functions never print, and report errors with *cause; they are pure
 * but for lookup('env'), lookup('file') and lookup('template'), which
 * read the controller. */
#ifndef TCPTUNE_TEMPLATE_H
#define TCPTUNE_TEMPLATE_H

#include <jansson.h>
#include <stddef.h>

/* This header is the layer's public face: the expression language itself
 * (expr_eval, the EXPR_* limits and codes) and a value's truth and text
 * (template_truthy, template_to_text) come with it. */
#include "template/expr.h"
#include "template/value.h"
#include "yaml/ydoc.h"

/* The variable that lists, as a mapping of name to true, the variables
 * whose values are data, never templated when a template reads them:
 * Ansible's AnsibleUnsafe values (registered results, set_fact's, facts,
 * loop items), so that a host's output that holds "{{" is not run as a
 * template. Every other variable's templates are rendered when it is
 * read, as Ansible's lazy variables (`a: "{{ b }}"` is b's value). */
#define TEMPLATE_UNSAFE_VARS	"__tcptune_unsafe"

/* Add name to vars' TEMPLATE_UNSAFE_VARS. */
void	 template_mark_unsafe(json_t *vars, const char *name);

/* Whether a string contains template syntax ("{{" or "{%"). */
int	 template_has(const char *s);
/* Check that every `{{ }}` in s parses (lint). Error without position:
 * "invalid template '{{ x': missing '}}'". */
int	 template_check(const char *s, char **cause);
/* Check a `when` expression parses (lint). Error without position:
 * "invalid when expression 'x = 1': unexpected '=' at character 3". */
int	 template_check_when(const char *expr, char **cause);

/* Render a value: every string is templated, lists and mappings
 * recursively (mapping keys are kept as they are). A string's value is
 * what ansible-core 2.14 makes it (jinja2_native off): exactly `{{ name
 * }}` of a number, boolean or null is that value; else exactly one `{{
 * expr }}` keeps a list, mapping or boolean, and gives a number as its
 * text and none as ""; any text that is "True" or "False" is a boolean;
 * other text is a string. Returns a new value, or NULL with *cause
 * "FILE:LINE:COL: undefined variable 'x'" where pos is the string's
 * position (pos may be NULL: no prefix). */
json_t	*template_render(const json_t *value, const json_t *vars,
	     const struct ypos *pos, char **cause);
/* Render one string the same way. */
json_t	*template_render_string(const char *s, const json_t *vars,
	     const struct ypos *pos, char **cause);
/* Render a whole template file (the template module's src, len bytes):
 * always text, its trailing newlines kept, as Ansible's template action
 * renders (trim_blocks on). Returns a new string (*out_len bytes), or NULL
 * with *cause "NAME: undefined variable 'x'". */
char	*template_render_text(const char *s, size_t len, const json_t *vars,
	     const char *name, size_t *out_len, char **cause);
/* Render shell text: the literal text is the author's, and each `{{ }}`
 * becomes exactly one single-quoted sh word (lib/base/shquote.h), so a value
 * from an inventory is data to the shell, never code. Always a string. */
json_t	*template_render_shell(const char *s, const json_t *vars,
	     const struct ypos *pos, char **cause);

/* Evaluate a `when` expression to a truth value. A `when` written as one
 * "{{ expr }}" is accepted too (Ansible warns but allows it). */
int	 template_eval_bool(const char *expr, const json_t *vars,
	     const struct ypos *pos, int *result, char **cause);

#endif
