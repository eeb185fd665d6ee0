/* The expression language of templates and `when` on its own: Jinja2's
 * expressions over jansson values (what it accepts: template.h). Callers
 * outside lib/template/ include template.h, which includes this header.
 *
 * How it is built inside (lexer, parser, evaluator, the filter and test
 * tables): expr-int.h.
 *
 * All functions never print, and report errors with *cause; they are pure
 * but for lookup('env'), lookup('file') and lookup('template')
 * (expr-lookup.c). */
#ifndef TCPTUNE_EXPR_H
#define TCPTUNE_EXPR_H

#include <jansson.h>
#include <stddef.h>

/*
 * Limits of one expression, each an EXPR_SYNTAX error with the character
 * where it was crossed (the caller adds the task's file:line):
 *   EXPR_MAX_NESTING  brackets, calls, `not` and unary signs inside one
 *                     another (Jinja itself stops near 75: Python's stack)
 *   EXPR_MAX_DEPTH    operators in one chain (`a and b and ...`, a `when`
 *                     list, `x|int|int...`), each a level of the tree
 *   EXPR_MAX_STRING   bytes of a string that an operator or filter builds
 */
#define EXPR_MAX_NESTING	100
#define EXPR_MAX_DEPTH		1000
#define EXPR_MAX_STRING		(16 * 1024 * 1024)

/* Return codes of expr_eval. */
#define EXPR_OK		 0
#define EXPR_SYNTAX	-1	/* the expression does not parse */
#define EXPR_UNDEFINED	-2	/* "undefined variable 'x'" */
#define EXPR_ERROR	-3	/* a type error and the like */

/*
 * How string literals read (expr_eval_flags): Jinja2 decodes their escapes
 * as Python's unicode-escape ('\n' a newline, '\1' the byte 1, '\d' kept
 * as \d), as in a template file (the template module renders with
 * escape_backslashes off). In a playbook's strings Ansible first doubles
 * every backslash of a string literal inside `{{ }}` (its Templar's
 * escape_backslashes), so there a literal is its text as written:
 * regex_replace('(a)', '\1') in YAML's double quotes reaches re as \1.
 * EXPR_RAW_STRINGS reads them so.
 */
#define EXPR_RAW_STRINGS	0x1

/* Evaluate one expression (no braces). *out is a new reference. *cause has
 * no position: "unexpected '=' at character 3", "undefined variable 'x'";
 * base is added to character positions, for an expression that starts
 * base characters into a longer string (a template). */
int	 expr_eval(const char *src, size_t base, const json_t *vars,
	     json_t **out, char **cause);
/* The same, with EXPR_RAW_STRINGS or 0. */
int	 expr_eval_flags(const char *src, size_t base, const json_t *vars,
	     int flags, json_t **out, char **cause);
/* Parse only (lint): 0, or -1 with *cause as for EXPR_SYNTAX. */
int	 expr_check(const char *src, size_t base, char **cause);
int	 expr_check_flags(const char *src, size_t base, int flags,
	     char **cause);

/* A mapping whose items are made when a template reads one, as Ansible's
 * HostVars: `obj.key`, `obj[key]` and extract() on the object obj (by
 * identity) call get(arg, key), which returns a new reference or NULL
 * (then obj's own item, if any, is read). One per process; a NULL obj
 * removes it if arg is the one set. get is called from any thread that renders. Listing obj
 * (keys, items, a loop) sees its own items only. */
void	 template_set_lazy_mapping(const json_t *obj,
	    json_t *(*get)(void *arg, const char *key), void *arg);

#endif
