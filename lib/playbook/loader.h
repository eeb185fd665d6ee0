/* Private to lib/playbook/: what the play loader (playbook.c), the tree
 * builder (tree.c) and the role loader (role.c) share. */
#ifndef TCPTUNE_LOADER_H
#define TCPTUNE_LOADER_H

#include <jansson.h>

#include "playbook/nodes.h"
#include "yaml/diag.h"

struct playbook;
struct play;
struct task;

struct loader {
	struct playbook	*pb;
	struct diag	*d;
	struct play	*play;		/* the play being loaded */
	const char	*file;		/* the playbook file it is in (an
					 * imported one's): relative paths */
	int		 depth;		/* imports and roles inside each other */
};

/* What a task inherits from the blocks, roles and imports around it. */
struct scope {
	struct block		*block;		/* the innermost */
	enum block_part		 part;
	char			*when;		/* joined, or NULL */
	struct ypos		 when_pos;
	char			**tags;
	size_t			 ntags;
	json_t			*vars;		/* or NULL */
	int			 ignore_errors;	/* -1 unset */
	int			 no_log;	/* a block's, -1 unset */
	int			 run_once;
	json_t			*environment;	/* or NULL */
	struct ypos		 environment_pos;
	int			 become;	/* -1 unset */
	char			*become_user;	/* NULL unset */
	struct ypos		 become_user_pos;
	char			*delegate_to;	/* NULL unset */
	struct ypos		 delegate_to_pos;
	const struct role	*role;
	char			*dir;		/* import_tasks is relative to */
	int			 handlers;	/* loading a handlers list */
};

#define LOADER_MAX_DEPTH	32

void	 type_error(struct loader *ld, const struct ynode *n, const char *key,
	    const char *expected);
int	 get_bool(struct loader *ld, const struct ynode *n, const char *key,
	    int *out);
int	 get_string(struct loader *ld, const struct ynode *n, const char *key,
	    char **out);
void	 get_tags(struct loader *ld, const struct ynode *n, char ***tags,
	    size_t *ntags);
void	 free_tags(char **tags, size_t ntags);
/* become and become_user on mapping n (a play, block, role entry, import
 * or task), over what *become and *user hold (-1, NULL: unset);
 * become_user may be a template, rendered when the task runs. */
void	 get_become(struct loader *ld, const struct ynode *n, int *become,
	    char **user, struct ypos *user_pos);
/* delegate_to on mapping n (a block or task) into *to (a template, or
 * unchanged when n has none); delegate_facts: true is an error. */
void	 get_delegate(struct loader *ld, const struct ynode *n, char **to,
	    struct ypos *pos);
/* `when` as written on n (a string, a list ANDed, a bool) joined. */
char	*get_when(struct loader *ld, const struct ynode *n);
/* A vars mapping n checked (names, templates) and merged into into. */
void	 load_vars_into(struct loader *ld, const struct ynode *n,
	    json_t *into);
/* A YAML file of the play (an import, a role's file), kept for the run;
 * NULL with the error in ld->d. */
/* doc kept with the playbook (its nodes become tasks'): its root. */
struct ynode *keep_doc(struct loader *ld, struct ydoc *doc);
struct ynode *loader_read(struct loader *ld, const char *path,
	    const struct ypos *at);
/* The keys of a task mapping n, the module call and its parameters, into
 * *t (its inherited keywords come after: tree.c). */
void	 load_task(struct loader *ld, const struct ynode *n, struct task *t);
void	 task_clear(struct task *t);
/* A copy of from's keys over into's (from not an object: nothing). */
void	 vars_merge(json_t *into, const json_t *from);
int	 in_list(const char *word, const char *const *words);
size_t	 count_words(const char *const *words);

/* role-argspec.c: the validation task Ansible puts before role r's tasks
 * when r has an argument spec for its entry point, loaded under sc. */
void	 role_argspec_task(struct loader *ld, const struct role *r,
	    const char *entry, const struct scope *sc);
/* tree.c: the tasks of list n under scope sc, appended to the play's tree
 * (or its handlers). */
void	 tree_load_list(struct loader *ld, const struct ynode *n,
	    const struct scope *sc, const char *what);
/* A new block of kind `kind` in sc's part, starting at the next task;
 * tree_close sets its parts' ends. */
struct block *tree_open(struct loader *ld, const struct scope *sc,
	    const struct ypos *pos, const char *kind);
/* The play's sections, its handlers and its roles: the tree of play n. */
void	 tree_load_play(struct loader *ld, const struct ynode *n);
void	 play_free_tree(struct play *p);

/* tree.c, for role.c: what mapping n sets over up (when, tags, vars,
 * ignore_errors); released with scope_release. */
void	 scope_derive(struct loader *ld, const struct scope *up,
	    const struct ynode *n, struct scope *out);
void	 scope_release(struct scope *s);
/* The place of an empty block part, or a flush of the handlers. */
void	 tree_add_meta(struct loader *ld, const struct scope *sc,
	    enum task_kind kind, const struct ypos *pos);

/* role.c: the play's `roles:` entry n, its dependencies first, as a block
 * under sc; import_role's task n (key: the keyword) the same. */
void	 role_load_entry(struct loader *ld, const struct ynode *n,
	    const struct scope *sc);
void	 role_load_import(struct loader *ld, const struct ynode *n,
	    const char *key, const struct scope *sc);
/* include_role: role name (rendered) with opts (tasks_from, ...: strings)
 * under sc, read when the task runs (playbook_load_include). -1 when the
 * role was not loaded (the error in ld->d). */
int	 role_load_dynamic(struct loader *ld, const char *name,
	    const json_t *opts, const struct ypos *pos,
	    const struct scope *sc);
void	 role_free(struct role *r);

/* prompt.c: a play's vars_prompt list n. */
void	 prompts_load(struct loader *ld, const struct ynode *n,
	    struct play *p);
void	 prompts_free(struct play *p);

#endif
