/* Jinja2's statements in a template, private to lib/template/ (template.c
 * is their caller; template.h says what templates accept).
 *
 * A template is text with `{{ expr }}`, `{% statement %}` and `{# comment
 * #}` tags, set up as Ansible sets Jinja2 up (its Templar and its template
 * module): trim_blocks (the first newline after a statement or comment tag
 * is dropped), no lstrip_blocks, trailing newlines kept. A '-' just inside
 * a tag's opening (`{%-`, `{{-`, `{#-`) drops the whitespace before the tag,
 * one just inside its closing (`-%}`, `-}}`, `-#}`) the whitespace after
 * it; a '+' (`+%}`) keeps the newline trim_blocks would drop.
 *
 * Statements:
 *   {% if e %} {% elif e %} {% else %} {% endif %}
 *   {% for x in e %} {% for k, v in e %} {% else %} {% endfor %}
 *     over a list (its items) or a mapping (its keys), `m.items()` and
 *     the like being lists (expr-methods.c); the body sees `loop.index`,
 *     `index0`, `revindex`, `revindex0`, `first`, `last`, `length`,
 *     `previtem`, `nextitem`; `else` is the body for an empty sequence; a
 *     `set` inside a loop stays inside that iteration, as in Jinja2
 *   {% set x = e %}
 * Anything else (macro, call, filter, block, include, raw, with, a `for`
 * with `if` or `recursive`) is an error that names it. */
#ifndef TCPTUNE_TEMPLATE_STMT_H
#define TCPTUNE_TEMPLATE_STMT_H

#include <jansson.h>
#include <stddef.h>

/* Statements nested inside one another, and loop iterations of one
 * render, at most. */
#define STMT_MAX_NESTING	100
#define STMT_MAX_ITERATIONS	1000000

/* The depth of brackets ({[( against )]}) after character c of a tag's
 * inside, from depth (never below 0): a tag's closing "}}" counts only at
 * depth 0, as Jinja2's lexer balances brackets. */
int	 stmt_bracket_depth(int depth, char c);
/* Render src over vars: EXPR_OK with *out a new string, else an EXPR_*
 * code with *msg ("unexpected 'endfor' at character 12"). flags, for the
 * `{{ }}` tags only (EXPR_RAW_STRINGS in a playbook's strings, 0 in a
 * template file: expr.h), as Ansible escapes backslashes inside `{{ }}`
 * only. */
int	 stmt_render(const char *src, const json_t *vars, int flags,
	    json_t **out, char **msg);
/* Parse only (lint): 0, or -1 with *msg. */
int	 stmt_check(const char *src, char **msg);

#endif
