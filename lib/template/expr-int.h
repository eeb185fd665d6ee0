/* Inside the expression language (expr.h): what its files share, for
 * lib/template/expr*.c only.
 *
 *   expr-lex.c      source text -> tokens
 *   expr-parse.c    tokens -> a tree of struct enode, in Jinja2's
 *                   precedence; each filter or test name is looked up in
 *                   its table here, once, and its arguments counted
 *   expr.c          the tree -> a value (expr_eval)
 *   expr-filters.c  the filter and test tables, one function per row
 */
#ifndef TCPTUNE_EXPR_INT_H
#define TCPTUNE_EXPR_INT_H

#include <jansson.h>
#include <stddef.h>

#include "base/strbuf.h"

/* Tokens. */

enum tok_type { T_EOF, T_NAME, T_INT, T_FLOAT, T_STR, T_OP };

struct token {
	enum tok_type	 type;
	size_t		 off;	/* offset in the source */
	char		 op[3];	/* T_OP */
	char		*text;	/* T_NAME, T_STR (decoded) */
	json_int_t	 i;
	double		 f;
};

/* The tokens of one expression, the last one T_EOF. */
struct lexer {
	struct token	*toks;
	size_t		 n;
	size_t		 cap;
};

/* Tokenize src: 0, or -1 with *cause ("unterminated string at character
 * 4", base added to positions). */
int	 expr_lex(const char *src, size_t base, struct lexer *lx,
	     char **cause);
void	 expr_lexer_free(struct lexer *lx);

/* The tree. */

enum node_kind {
	N_LIT, N_VAR, N_ATTR, N_INDEX, N_LIST, N_DICT, N_NOT, N_NEG, N_AND,
	N_OR, N_BIN, N_CMP, N_IN, N_FILTER, N_TEST, N_COND,
};

struct enode {
	enum node_kind		  kind;
	char			  op[3];	/* N_BIN, N_CMP */
	int			  negate;	/* N_IN, N_TEST */
	char			 *name;		/* N_VAR, N_ATTR, N_FILTER,
						   N_TEST */
	json_t			 *lit;		/* N_LIT */
	const struct expr_filter *filter;	/* N_FILTER: its row */
	const struct expr_test	 *test;		/* N_TEST: its row */
	struct enode		 *a, *b, *c;
	struct enode		**args;		/* N_LIST, N_DICT (k,v,k,v),
						   calls */
	size_t			  nargs;
	unsigned		  depth;	/* of the tree below: leaf 0 */
};

/* Parse src into a tree, or NULL with *cause as for EXPR_SYNTAX. */
struct enode	*expr_parse(const char *src, size_t base, char **cause);
void		 expr_node_free(struct enode *n);

/* Evaluation. A value of NULL with 0 returned is Jinja's Undefined; undef
 * remembers the node that first produced it, to name it in errors. */

struct ectx {
	const json_t		*vars;
	const struct enode	*undef;
	char			*cause;
	int			 code;	/* EXPR_UNDEFINED, EXPR_ERROR */
	/* why a variable read lazily was undefined (its template used an
	 * undefined one): said when undef is hint_node */
	const struct enode	*hint_node;
	char			*hint;
};

/* Ansible's lazy variables: the value of the variable n names (N_VAR), its
 * templates rendered with the same variables when it has any, as
 * Ansible's AnsibleJ2Vars renders a variable when a template reads it (so
 * `a: "{{ b }}"`, `b: "{{ c }}"`, `c: 3` give a == "3"). A value whose name
 * TEMPLATE_UNSAFE_VARS lists is data, never rendered. 0 with *out (a new
 * reference, or NULL: undefined, also when its template used an undefined
 * variable, as Ansible's Undefined), or -1 with an error: a variable whose
 * template reads itself, directly or not ("recursive loop detected in
 * template string: {{ b }}"). In template.c, beside the renderer. */
int	 expr_lazy_var(struct ectx *ctx, const struct enode *n, json_t **out);

/* Evaluate n into *out (a new reference, or NULL: undefined). */
int	 expr_eval_node(struct ectx *ctx, const struct enode *n,
	     json_t **out);
/* The same, but undefined is an error ("undefined variable 'x.y'"). */
int	 expr_need(struct ectx *ctx, const struct enode *n, json_t **out);
/* Record the first error (EXPR_ERROR) and return -1. */
int	 expr_error(struct ectx *ctx, const char *fmt, ...)
	     __attribute__((format(printf, 2, 3)));

/* Python's name of a value's type: "int", "list", "mapping", ... */
const char *expr_type_name(const json_t *v);
int	 expr_is_num(const json_t *v);
/* Python's a == b: numbers by value (1 == 1.0), else the same JSON. */
int	 expr_values_equal(const json_t *a, const json_t *b);
/* Order a and b as Python does: 0 with *res <0, 0 or >0, or -1 with an
 * error ("'<' not supported between int and list"). */
int	 expr_values_order(struct ectx *ctx, const char *op, const json_t *a,
	     const json_t *b, int *res);
/* A float result (finite) or a string result (at most EXPR_MAX_STRING
 * bytes; sb is released), or -1 with an error. */
int	 expr_real_out(struct ectx *ctx, double d, json_t **out);
int	 expr_string_out(struct ectx *ctx, struct strbuf *sb, json_t **out);

/* Filters and tests. */

#define EXPR_MAX_ARGS	2	/* the most that any row takes */
/* A row's lazy: whether its function evaluates the call itself (below). */
#define EXPR_EAGER	0
#define EXPR_LAZY	1

/* One call of a filter or test, as its function sees it. */
struct expr_call {
	struct ectx		*ctx;
	const struct enode	*n;	/* the call: operand n->a, n->args */
	const char		*name;	/* as written: an alias is itself */
	json_t			*v;	/* the operand, defined */
	json_t			*arg[EXPR_MAX_ARGS]; /* those given, defined */
};

/*
 * A row of a table. The parser refuses a name not in the table and a count
 * of arguments outside [min_args, max_args], before anything runs. Before
 * fn, the evaluator evaluates the operand and then each argument, in that
 * order, each of which must be defined; unless the row is lazy: then v and
 * arg are NULL and fn evaluates what it needs from n itself, so that it
 * may see an undefined operand (default, defined) and leave an argument it
 * does not use unevaluated.
 */
struct expr_filter {
	const char	*name;
	size_t		 min_args, max_args;
	/* 0 with *out (a new reference, or NULL for undefined), or -1 with
	 * an error (expr_error) */
	int		(*fn)(struct expr_call *c, json_t **out);
	int		 lazy;		/* EXPR_EAGER, EXPR_LAZY */
};

struct expr_test {
	const char	*name;
	size_t		 min_args, max_args;
	/* 1 true, 0 false, or -1 with an error */
	int		(*fn)(struct expr_call *c);
	int		 lazy;		/* EXPR_EAGER, EXPR_LAZY */
};

/* Ansible's filters of lists and mappings (expr-filters-ansible.c): rows
 * of the table in expr-filters.c. */
int	 expr_filter_dict2items(struct expr_call *c, json_t **out);
int	 expr_filter_items2dict(struct expr_call *c, json_t **out);
int	 expr_filter_combine(struct expr_call *c, json_t **out);
int	 expr_filter_flatten(struct expr_call *c, json_t **out);
int	 expr_filter_unique(struct expr_call *c, json_t **out);
int	 expr_filter_to_json(struct expr_call *c, json_t **out);
int	 expr_filter_from_json(struct expr_call *c, json_t **out);
int	 expr_filter_ternary(struct expr_call *c, json_t **out);
int	 expr_filter_map(struct expr_call *c, json_t **out);
int	 expr_filter_select(struct expr_call *c, json_t **out);
int	 expr_filter_reject(struct expr_call *c, json_t **out);
int	 expr_filter_list(struct expr_call *c, json_t **out);

/* The row of a name, or NULL. */
const struct expr_filter *expr_filter_find(const char *name);
const struct expr_test	 *expr_test_find(const char *name);

#endif
