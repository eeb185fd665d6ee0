/* A task's loop (task->loop, playbook.h): the keywords as written, checked
 * at load, and its items for one host at run time, as Ansible's `loop` and
 * its with_* lookups make them (plugins/lookup/items.py, dict.py, ...). */
#ifndef TCPTUNE_LOOP_H
#define TCPTUNE_LOOP_H

#include <jansson.h>

#include "yaml/diag.h"
#include "yaml/ydoc.h"

/* The loops of loop.c: `loop` and the with_* lookups it knows. */
enum loop_kind {
	LOOP_NONE = 0,
	LOOP_LIST,		/* loop, with_list */
	LOOP_ITEMS,		/* with_items: flattened one level */
	LOOP_DICT,		/* with_dict: {key, value} per entry */
	LOOP_INDEXED,		/* with_indexed_items: [index, item] */
	LOOP_TOGETHER,		/* with_together: zipped, short ones null */
	LOOP_NESTED,		/* with_nested: the product of the lists */
	LOOP_SEQUENCE,		/* with_sequence: start end stride format */
	LOOP_SUBELEMENTS,	/* with_subelements: [item, subitem] */
	LOOP_FILEGLOB,		/* with_fileglob: files found by pattern */
	LOOP_FIRST_FOUND,	/* with_first_found: the first file found */
};

struct task_loop {
	enum loop_kind		 kind;
	json_t			*value;		/* as written: a template or a
						 * list (of templates) */
	struct ypos		 pos;
	char			*loop_var;	/* "item" */
	char			*index_var;	/* NULL: none */
	char			*label;		/* template; NULL: the item */
	int			 extended;	/* ansible_loop */
	const char		*subdir;	/* with_first_found's: the
						 * task module's search_subdir,
						 * static; NULL: "files" */
};


/* The loop keyword of a task's mapping (loop, with_items, ...), or NULL. */
const char	*loop_keyword(const struct ynode *task, size_t *index);
/* Whether key is a loop keyword tcptune knows (loop, with_items, ...). */
int		 loop_is_keyword(const char *key);
/* Load the loop keywords of task mapping n into *l: the keyword, its value
 * and loop_control; errors go to d. */
void		 loop_load(struct task_loop *l, const struct ynode *n,
		     struct diag *d);
void		 loop_clear(struct task_loop *l);

/* The items of l for the given vars: the value rendered, then shaped as
 * the keyword does. Returns a new array, or NULL with *cause; *undefined
 * is set when the cause is an undefined variable (a task whose `when` is
 * false is skipped then, not failed, as in Ansible). */
json_t		*loop_items(const struct task_loop *l, const json_t *vars,
		     int *undefined, char **cause);
/* Shape an already rendered value as kind does (for loop_items and the
 * unit tests). */
json_t		*loop_shape(enum loop_kind kind, const json_t *value,
		     char **cause);

/* loop-lookups.c: with_subelements' items of its rendered terms ([list or
 * dict, "sub.key"(, {skip_missing})]); with_fileglob's of its patterns,
 * searched as Ansible's file lookups are (role_path, then playbook_dir,
 * each DIR/files then DIR; ansible_search_path when set), each pattern's
 * files sorted (Python's glob gives the directory's order). NULL with
 * *cause on bad terms. */
json_t		*loop_subelements(const json_t *terms, char **cause);
json_t		*loop_fileglob(const json_t *terms, const json_t *vars,
		     char **cause);

/* with_first_found's one item: the first of the files its terms name that
 * exists (ansible-core 2.14's plugins/lookup/first_found.py): a term is a
 * file name, a list of terms, or a mapping of `files`, `paths` (each a
 * string split on ",;" and ",:;", or a list) and `skip`; a name whose
 * template uses an undefined variable is passed over; each is searched as
 * Ansible's find_file_in_search_path does (ansible_search_path, else the
 * role and its tasks/, then playbook_dir: DIR/SUBDIR/NAME, then DIR/NAME).
 * No file: [] when skip, else NULL with *cause. terms are as written (not
 * rendered); pos is theirs. */
json_t		*loop_first_found(const json_t *terms, const json_t *vars,
		     const char *subdir, const struct ypos *pos, char **cause);

/* The variables of item i of n: loop_var, index_var and, when extended,
 * ansible_loop; set in vars (which is changed). */
void		 loop_set_item(const struct task_loop *l, json_t *vars,
		     const json_t *items, size_t i);
/* The label an item shows in output: label rendered, else the item as
 * Ansible prints it (a string as is, else JSON). Allocated. */
char		*loop_label(const struct task_loop *l, const json_t *vars,
		     const json_t *item);

#endif
