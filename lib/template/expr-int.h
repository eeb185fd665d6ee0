/* Inside the expression language (expr.h): what its files share, for
 * lib/template/expr*.c only.
 *
 *   expr-lex.c      source text -> tokens
 *   expr-parse.c    tokens -> a tree of struct enode, in Jinja2's
 *                   precedence; each filter or test name is looked up in
 *                   its table here, once, and its arguments counted
 *   expr.c          the tree -> a value (expr_eval)
 *   expr-filters.c  the filter and test tables, one function per row;
 *                   the functions of some rows live in files of their own:
 *   expr-filters-ansible.c  Ansible's filters of lists and mappings
 *   expr-filters-lists.c    sort, select(attr), zip, product, sum
 *   expr-filters-text.c     paths, base64, split, quote, mandatory
 *   expr-regex.c            Python's re on PCRE2: the regex_* filters and
 *                           the match, search and regex tests
 *   expr-tests-ansible.c    Ansible's tests (task results, sets, compare)
 *   expr-version.c          Ansible's version test: LooseVersion,
 *                           StrictVersion, SemanticVersion
 *   expr-methods.c          Python's methods of str, dict and list that
 *                           templates call: x.items(), s.split(), ...
 *   expr-lookup.c           the functions range(), lookup(), query(),
 *                           q() and their plugins env, file, vars,
 *                           template
 *   expr-format.c           Python's fmt % args and the format filter
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
 * 4", base added to positions); flags: EXPR_RAW_STRINGS or 0 (expr.h). */
int	 expr_lex(const char *src, size_t base, int flags, struct lexer *lx,
	     char **cause);
void	 expr_lexer_free(struct lexer *lx);

/* The tree. */

enum node_kind {
	N_LIT, N_VAR, N_ATTR, N_INDEX, N_LIST, N_DICT, N_NOT, N_NEG, N_AND,
	N_OR, N_BIN, N_CMP, N_IN, N_FILTER, N_TEST, N_COND, N_METHOD,
	N_CALL,
};

#define EXPR_MAX_ARGS	8	/* positional arguments of a call, at most */
#define EXPR_MAX_KW	8	/* keyword-only arguments a row declares */

struct enode {
	enum node_kind		  kind;
	char			  op[3];	/* N_BIN, N_CMP */
	int			  negate;	/* N_IN, N_TEST */
	char			 *name;		/* N_VAR, N_ATTR, N_FILTER,
						   N_TEST, N_METHOD */
	json_t			 *lit;		/* N_LIT */
	const struct expr_filter *filter;	/* N_FILTER, N_CALL: its row */
	const struct expr_test	 *test;		/* N_TEST: its row */
	struct enode		 *a, *b, *c;
	struct enode		**args;		/* N_LIST, N_DICT (k,v,k,v),
						   calls: by position, a
						   keyword bound to its
						   position; NULL where none
						   was given */
	size_t			  nargs;
	struct enode		 *kw[EXPR_MAX_KW]; /* calls: the row's
						   keyword-only arguments */
	unsigned		  depth;	/* of the tree below: leaf 0 */
};

/* Parse src into a tree, or NULL with *cause as for EXPR_SYNTAX. */
struct enode	*expr_parse(const char *src, size_t base, int flags,
		    char **cause);
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
/* The path of what made n undefined ("facts.x"), allocated. */
char	*expr_undefined_name(const struct ectx *ctx, const struct enode *n);
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

/* A row's lazy: whether its function evaluates the call itself (below). */
#define EXPR_EAGER	0
#define EXPR_LAZY	1

/* One call of a filter or test, as its function sees it. */
struct expr_call {
	struct ectx		*ctx;
	const struct enode	*n;	/* the call: operand n->a, n->args */
	const char		*name;	/* as written: an alias is itself */
	json_t			*v;	/* the operand, defined */
	json_t			*arg[EXPR_MAX_ARGS]; /* those given, defined
						      (NULL: not given) */
	json_t			*kw[EXPR_MAX_KW];	/* the same */
	size_t			 nargs;	/* positions up to the last given */
	int			 item;	/* a lazy row called on an item (map,
					   select): its operand is v as it
					   is, NULL for undefined, not n->a */
};

/*
 * A row of a table. The parser refuses a name not in the table and a count
 * of arguments outside [min_args, max_args], before anything runs.
 * Arguments may be given by keyword, as in Python: params names the
 * positional ones in order (space-separated, as the Python function's
 * signature has them), so that `regex_replace('a', 'b', ignorecase=true)`
 * binds ignorecase to its position; kwonly names the keyword-only ones
 * (Python's after `*args`), bound to c->kw in that order. A keyword that
 * the row does not name, or one given twice, is a syntax error. Before
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
	const char	*params;	/* or NULL: none by keyword */
	const char	*kwonly;	/* or NULL */
};

struct expr_test {
	const char	*name;
	size_t		 min_args, max_args;
	/* 1 true, 0 false, or -1 with an error */
	int		(*fn)(struct expr_call *c);
	int		 lazy;		/* EXPR_EAGER, EXPR_LAZY */
	const char	*params;
	const char	*kwonly;
};

/* A method of Python's str, dict or list (expr-methods.c), called as
 * `x.name(args)`: rows as filters, one per receiver type, with the
 * receiver as c->v. */
struct expr_method {
	const char	*name;
	json_type	 recv;		/* JSON_STRING, _OBJECT, _ARRAY */
	size_t		 min_args, max_args;
	int		(*fn)(struct expr_call *c, json_t **out);
	const char	*params;
};

/* The row of a method for recv's type (recv NULL: of any type), or
 * NULL. */
const struct expr_method *expr_method_find(const char *name,
	     const json_t *recv);

/* Ansible's filters of lists and mappings (expr-filters-ansible.c): rows
 * of the table in expr-filters.c. */
int	 expr_filter_dict2items(struct expr_call *c, json_t **out);
int	 expr_filter_items2dict(struct expr_call *c, json_t **out);
int	 expr_filter_combine(struct expr_call *c, json_t **out);
int	 expr_filter_flatten(struct expr_call *c, json_t **out);
int	 expr_filter_unique(struct expr_call *c, json_t **out);
/* expr-plugin-names.c: whether ansible-core ships NAME as a filter (test
 * 0) or test plugin of its own, so that ansible.builtin.NAME is NAME */
int	 expr_ansible_plugin(const char *name, int test);
/* expr-filters-sets.c */
int	 expr_filter_intersect(struct expr_call *c, json_t **out);
int	 expr_filter_difference(struct expr_call *c, json_t **out);
int	 expr_filter_symmetric_difference(struct expr_call *c, json_t **out);
int	 expr_filter_union(struct expr_call *c, json_t **out);
/* expr-format.c: the UTF-8 characters (Python's) in the first n bytes of
 * s. */
size_t	 expr_char_count(const char *s, size_t n);
/* expr-filters-comment.c */
int	 expr_filter_comment(struct expr_call *c, json_t **out);
/* expr-filters-random.c */
int	 expr_filter_random(struct expr_call *c, json_t **out);
int	 expr_filter_to_json(struct expr_call *c, json_t **out);
int	 expr_filter_from_json(struct expr_call *c, json_t **out);
int	 expr_filter_ternary(struct expr_call *c, json_t **out);
int	 expr_filter_map(struct expr_call *c, json_t **out);
int	 expr_filter_list(struct expr_call *c, json_t **out);

/* Calls of a row on each item (map, select, selectattr): whether the
 * arguments from position from on fit [min, max]; the test row's result
 * on item with them. */
int	 expr_item_args(struct expr_call *c, const char *what, size_t min,
	     size_t max, size_t from);
int	 expr_item_test(struct expr_call *c, const struct expr_test *row,
	     const char *name, json_t *item, size_t from);
/* item's attribute: a mapping key, a dotted path of them, or a list
 * index (Jinja2's make_attrgetter); NULL when it has none, with an error
 * if need is set. Borrowed. */
json_t	*expr_attribute(struct expr_call *c, json_t *item, const json_t *attr,
	     int need);
/* Python's `a in b`: 1, 0, or -1 with an error (b not a container). */
int	 expr_contains(struct ectx *ctx, const json_t *b, const json_t *a);
/* a[b] as a template reads it (a lazy mapping's too): 0 with *item a new
 * reference or NULL (no such item), -1 when a has no items. */
int	 expr_getitem(struct ectx *ctx, const json_t *a, const json_t *b,
	    json_t **item);
/* expr-filters-ansible.c */
int	 expr_filter_extract(struct expr_call *c, json_t **out);
/* Python's a + b, - * / // % (what the operators do). */
int	 expr_arith(struct ectx *ctx, const char *op, const json_t *a,
	     const json_t *b, json_t **out);

/* Rows of lists (expr-filters-lists.c). */
int	 expr_filter_sort(struct expr_call *c, json_t **out);
int	 expr_filter_dictsort(struct expr_call *c, json_t **out);
int	 expr_filter_select(struct expr_call *c, json_t **out);
int	 expr_filter_reject(struct expr_call *c, json_t **out);
int	 expr_filter_selectattr(struct expr_call *c, json_t **out);
int	 expr_filter_rejectattr(struct expr_call *c, json_t **out);
int	 expr_filter_zip(struct expr_call *c, json_t **out);
int	 expr_filter_product(struct expr_call *c, json_t **out);
int	 expr_filter_sum(struct expr_call *c, json_t **out);

/* Rows of strings (expr-filters-text.c); expr_str_split is str.split,
 * the filter and the method. */
int	 expr_filter_basename(struct expr_call *c, json_t **out);
int	 expr_filter_dirname(struct expr_call *c, json_t **out);
int	 expr_filter_b64encode(struct expr_call *c, json_t **out);
int	 expr_filter_b64decode(struct expr_call *c, json_t **out);
int	 expr_str_split(struct expr_call *c, json_t **out);
int	 expr_filter_quote(struct expr_call *c, json_t **out);
int	 expr_filter_mandatory(struct expr_call *c, json_t **out);
int	 expr_filter_to_nice_json(struct expr_call *c, json_t **out);

/* Python's fmt % args (the operator, expr-format.c) and the format
 * filter. */
int	 expr_format_op(struct ectx *ctx, const json_t *fmt, const json_t *args,
	     json_t **out);
int	 expr_filter_format(struct expr_call *c, json_t **out);

/* Rows of Python's re (expr-regex.c). */
int	 expr_filter_regex_replace(struct expr_call *c, json_t **out);
int	 expr_filter_regex_search(struct expr_call *c, json_t **out);
int	 expr_filter_regex_findall(struct expr_call *c, json_t **out);
int	 expr_filter_regex_escape(struct expr_call *c, json_t **out);
/* The keys of obj that re searches (re.search), appended to ret: 0, or -1
 * with an error (the varnames lookup). */
int	 expr_regex_names(struct expr_call *c, const char *re,
	     const json_t *obj, json_t *ret);
int	 expr_test_match(struct expr_call *c);
int	 expr_test_search(struct expr_call *c);
int	 expr_test_regex(struct expr_call *c);

/* Ansible's version test (expr-version.c) and its other tests
 * (expr-tests-ansible.c). */
int	 expr_test_version(struct expr_call *c);
int	 expr_test_failed(struct expr_call *c);
int	 expr_test_success(struct expr_call *c);
int	 expr_test_changed(struct expr_call *c);
int	 expr_test_skipped(struct expr_call *c);
int	 expr_test_reachable(struct expr_call *c);
int	 expr_test_unreachable(struct expr_call *c);
int	 expr_test_truthy(struct expr_call *c);
int	 expr_test_falsy(struct expr_call *c);
int	 expr_test_true(struct expr_call *c);
int	 expr_test_false(struct expr_call *c);
int	 expr_test_any(struct expr_call *c);
int	 expr_test_all(struct expr_call *c);
int	 expr_test_in(struct expr_call *c);
int	 expr_test_contains(struct expr_call *c);
int	 expr_test_subset(struct expr_call *c);
int	 expr_test_superset(struct expr_call *c);
int	 expr_test_eq(struct expr_call *c);
int	 expr_test_ne(struct expr_call *c);
int	 expr_test_lt(struct expr_call *c);
int	 expr_test_le(struct expr_call *c);
int	 expr_test_gt(struct expr_call *c);
int	 expr_test_ge(struct expr_call *c);
int	 expr_test_divisibleby(struct expr_call *c);
int	 expr_test_lower(struct expr_call *c);
int	 expr_test_upper(struct expr_call *c);
int	 expr_test_iterable(struct expr_call *c);

/* The row of a function called by name (`lookup(...)`: expr-lookup.c),
 * or NULL. */
const struct expr_filter *expr_function_find(const char *name);

/* The row of a name, or NULL. */
const struct expr_filter *expr_filter_find(const char *name);
const struct expr_test	 *expr_test_find(const char *name);

#endif
