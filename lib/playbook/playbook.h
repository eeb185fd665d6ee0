/* Playbooks: a YAML list of plays, each a host pattern and a list of tasks
 * that call modules (docs/playbooks.md).
 *
 * playbook_load checks everything that can be checked before any host is
 * contacted -- keys (with did-you-mean), types, module parameters against
 * the module tables, `when` and template syntax -- and collects every error
 * it finds in a struct diag, each "file:line:col: message". What depends on
 * per-host values (undefined variables, what a template renders to) is
 * checked at run time: the runner calls template_eval_bool for `when` and
 * task_render_args for the arguments. The playbook keeps its YAML document,
 * so every node (and each task's args_node) keeps its position. */
#ifndef TCPTUNE_PLAYBOOK_H
#define TCPTUNE_PLAYBOOK_H

#include <jansson.h>
#include <stdint.h>
#include <stddef.h>

#include "yaml/diag.h"
#include "playbook/loop.h"
#include "playbook/module.h"
#include "playbook/nodes.h"
#include "playbook/serial.h"
#include "yaml/ydoc.h"

/*
 * A play is a tree: its sections (pre_tasks, roles, tasks, post_tasks) hold
 * blocks, a block holds tasks and blocks in three parts (block, rescue,
 * always), and a role or a statically imported file is a block of the tasks
 * it brings. Roles, their meta dependencies and import_tasks are expanded
 * when the playbook loads, so every task keeps the file:line:col it was
 * written at. The tree is kept in tree order in one array, the play's
 * `tasks` (Ansible's iterator.all_tasks): a block's part is a range of it,
 * and a task names its innermost block and its part there. What a task
 * inherits from the blocks, roles and imports around it (when, tags, vars,
 * ignore_errors, the role) is folded into the task at load time, so the
 * runner reads one task, never its ancestors; where a host goes after a
 * task (the next one, a rescue, an always) is play_walk_next (walk.c).
 */
struct task {
	struct ypos		 pos;		/* the task's mapping */
	enum task_kind		 kind;
	char			*name;		/* "name:", else the module's */
	const struct module	*module;	/* TASK_MODULE, else NULL */
	struct ypos		 module_pos;	/* the module key */
	json_t			*args;		/* bound at load: typed, with
						 * defaults; templated values
						 * still strings */
	const struct ynode	*args_node;	/* the module key's value */
	char			*when;		/* NULL: always; a list, and
						 * the blocks' and roles' around
						 * it, joined "(a) and (b)" */
	struct ypos		 when_pos;
	char			**tags;		/* its own and inherited */
	size_t			 ntags;
	char			*register_as;	/* NULL: none */
	char			*changed_when;	/* NULL: the module's word */
	struct ypos		 changed_when_pos;
	char			*failed_when;	/* NULL: the module's word */
	struct ypos		 failed_when_pos;
	char			*until;		/* NULL: one attempt */
	struct ypos		 until_pos;
	int			 retries;	/* -1: Ansible's 3 */
	int			 delay;		/* seconds; -1: Ansible's 5 */
	int			 ignore_errors;
	char			*ignore_errors_tmpl; /* a templated one
						 * ("{{ ansible_check_mode }}"),
						 * decided per host; NULL */
	int			 run_once;	/* on the first host at it; its
						 * result is every host's (> 0;
						 * -1 while loading: unset) */
	int			 no_log;	/* its result is not shown nor
						 * kept (registered, it is) */
	int			 become;	/* its own, else its blocks'
						 * (-1: unset, the play's) */
	char			*become_user;	/* the same; NULL: unset */
	struct ypos		 become_user_pos;
	char			*delegate_to;	/* its own, else its blocks':
						 * the host whose connection
						 * it runs over (a template);
						 * NULL: its own */
	struct ypos		 delegate_to_pos;
	json_t			*environment;	/* as written (templates in it),
						 * or NULL */
	struct ypos		 environment_pos;
	int			 check_mode;	/* -1 unset */
	int			 diff;		/* -1 unset */
	json_t			*vars;		/* the blocks' vars, then the
						 * task's own; NULL: none */
	struct task_loop	 loop;
	char			**notify;	/* handler names or listen
						 * topics */
	size_t			 nnotify;
	char			**listen;	/* a handler's topics */
	size_t			 nlisten;
	const struct role	*role;		/* NULL: none */
	char			*include;	/* TASK_INCLUDE: the file, as
						 * written (a template) */
	char			*include_dir;	/* relative to which */
	int			 include_role;	/* TASK_INCLUDE of a role:
						 * include is its name */
	json_t			*include_opts;	/* its tasks_from, ... */
	char			*include_pbfile; /* the playbook it is in:
						 * where roles are looked
						 * for */
	const struct block	*parent;	/* its innermost block; NULL
						 * in a play made by hand: a
						 * list of tasks */
	enum block_part		 part;		/* and the part it is in */
	int			 implicit;	/* a flush the play adds */
	enum meta_kind		 meta;		/* TASK_META */
	int			 before_start;	/* before the task the run
						 * starts at: not run
						 * (playbook_start_at) */
};

/* One of a play's vars_prompt: asked before the play runs unless -e
 * gives it (cmd/tcptune/vars-prompt.c). */
struct var_prompt {
	struct ypos		 pos;
	char			*name;
	char			*prompt;	/* NULL: the name */
	int			 private;	/* no echo (default) */
	int			 confirm;	/* asked twice */
	json_t			*def;		/* or NULL */
};

struct play {
	struct ypos		 pos;
	char			*name;		/* "" when not given */
	char			*hosts;		/* a list is joined with ',' */
	const struct ynode	*hosts_node;	/* as written */
	json_t			*vars;		/* vars, then vars_files over
						 * them, in order */
	int			 become;	/* -1 unset */
	char			*become_user;	/* NULL unset */
	struct ypos		 become_user_pos;
	struct serial_spec	 serial;
	int			 max_fail_percentage; /* -1 unset */
	int			 any_errors_fatal;
	int			 force_handlers;
	int			 gather_facts;	/* default 1: run probe first;
						 * 0 too when before_start */
	json_t			*gather_subset;	/* its list of strings, or
						 * NULL: ["all"] */
	unsigned		 gather_mask;	/* its collectors (playbook/
						 * gather-subset.h) */
	int			 before_start;	/* wholly before the task the
						 * run starts at: nothing runs,
						 * not even fact gathering */
	char			**tags;
	size_t			 ntags;
	struct task		*tasks;		/* the tree, in tree order */
	size_t			 ntasks;
	struct task		*handlers;	/* roles' first, then the
						 * play's, in definition order */
	size_t			 nhandlers;
	struct block		**blocks;	/* every block, blocks[0] the
						 * root */
	size_t			 nblocks;
	struct role		**roles;	/* every role the play uses */
	size_t			 nroles;
	struct var_prompt	*prompts;	/* vars_prompt */
	size_t			 nprompts;
	json_t			*role_defaults;	/* every top role's defaults */
	json_t			*role_vars;	/* and vars (exported) */
};

struct playbook {
	char		*path;
	struct ydoc	*doc;
	struct ydoc	**docs;		/* the files its roles and imports
					 * read: their nodes are the tasks' */
	size_t		 ndocs;
	struct play	*plays;
	size_t		 nplays;
	/* what loaded but will not run as Ansible runs it (a task calling
	 * an Ansible module tcptune lacks): "file:line:col: text", for lint
	 * and play to show */
	struct diag	 warnings;
};

/* Where roles are looked for besides the playbook's roles/ directory and
 * the playbook's own directory: a colon-separated list (ansible.cfg's
 * roles_path, ANSIBLE_ROLES_PATH), NULL for Ansible's default. Set once by
 * cmd/ before loading. */
void		 playbook_set_roles_path(const char *paths);

/* Load and check a playbook. Returns 0 with *out, or -1 with *out NULL and
 * every error found added to d. Relative vars_files are relative to the
 * playbook's directory. */
int		 playbook_load(const char *path, struct playbook **out,
		     struct diag *d);
/* The same from a buffer, named name in messages (vars_files are then
 * relative to name's directory). */
int		 playbook_load_buffer(const char *name, const char *buf,
		     size_t len, struct playbook **out, struct diag *d);
void		 playbook_free(struct playbook *pb);

/* A vars_prompt's answer v (stolen) as a play variable. */
void		 play_answer_prompt(struct play *p,
		    const struct var_prompt *vp, json_t *v);

/* Play vars with vars_files merged over them (a new reference). */
json_t		*playbook_play_vars(const struct play *p);

/* The variables of one host for one play, a new object, lowest precedence
 * first: inventory vars (host over group, already merged by the caller),
 * play vars and vars_files, registered results, extra vars; then the
 * reserved names: facts (probe output, {} when NULL), inventory_hostname
 * and groups (group name -> list of host names; shared, not copied: the
 * caller must not change it while the vars live). Any argument but p may
 * be NULL. */
json_t		*playbook_host_vars(const struct play *p,
		     const json_t *inventory_vars, const json_t *registered,
		     const json_t *extra_vars, const json_t *facts,
		     const char *inventory_hostname, const json_t *groups);
/* The same for task t of p (NULL: none), Ansible's order: every role's
 * defaults, t's role's defaults, inventory vars, play vars and vars_files,
 * every role's vars, t's role's vars, t's block and task vars, registered
 * results, t's role params, extra vars; then the reserved names. */
json_t		*playbook_task_vars(const struct play *p, const struct task *t,
		     const json_t *inventory_vars, const json_t *registered,
		     const json_t *extra_vars, const json_t *facts,
		     const char *inventory_hostname, const json_t *groups);

/* include_tasks task inc of play p for one host: file (rendered) read
 * now, its tasks a tree of their own, once per item of items (an array of
 * the loop's items, NULL: no loop; the loop variable set in each copy's
 * vars), each with inc's role and vars. Returns a playbook of one play
 * holding that tree (its tasks' names and nodes live as long as it), or
 * NULL with *cause (every error, file:line:col each). */
struct playbook	*playbook_load_include(const struct play *p,
		     const struct task *inc, const char *file,
		     const json_t *items, char **cause);

/* Whether handler hd answers a notify of name: its name (a role's
 * handler with or without "role : "), or a topic it listens to. */
int		 handler_answers(const struct task *hd, const char *name);

/* Where a host goes after tasks[i] of p (walk.c). failed: the task failed
 * (not ignored). *failing: in, whether the host carries a failure through
 * an always part; out, whether it does after this step. *rescued is set
 * when a rescue caught the failure. Returns the next index, p->ntasks at
 * the end (a host still failing then has failed the play). */
size_t		 play_walk_next(const struct play *p, size_t i, int failed,
		     int *failing, int *rescued);

/* Render a task's arguments with a host's vars and bind them again
 * (bind_rendered_args): each error is reported at its parameter's
 * position. Returns a new object, with *given (when not NULL) the mask of
 * the parameters the task gave, or NULL with *cause. */
json_t		*task_render_args(const struct task *t, const json_t *vars,
		     uint64_t *given, char **cause);

/* Whether a task runs under --tags/--skip-tags (comma-separated; NULL or ""
 * for tags means "all", for skip_tags nothing) and --start-at-task (never
 * before the task the run starts at, playbook/select.h), with Ansible's
 * rules for tags: a
 * task's tags include its play's; untagged tasks have the tag 'untagged';
 * 'all', 'tagged' and 'untagged' select by kind; 'always' runs unless
 * skipped by name; 'never' runs only when asked for by one of its tags. */
int		 task_selected(const struct play *p, const struct task *t,
		     const char *tags, const char *skip_tags);

/* How many times a task with an until runs at most, as Ansible's
 * TaskExecutor: retries + 1, 4 when retries is not given (-1), 1 for 0
 * (then the condition is not looked at). */
int		 task_until_attempts(const struct task *t);
/* Whether a failure of t is ignored on a host with vars: its
 * ignore_errors, a templated one rendered and read as Ansible's boolean()
 * (one that does not render: not ignored). */
int		 task_ignores_errors(const struct task *t, const json_t *vars);

/* The Ansible release whose language tcptune follows, as the magic
 * variable ansible_version tells roles (Debian 12's ansible-core, the one
 * the tests compare with). */
#define PLAYBOOK_ANSIBLE_MAJOR		2
#define PLAYBOOK_ANSIBLE_MINOR		14
#define PLAYBOOK_ANSIBLE_REVISION	18

/* Names that a playbook may not define as vars (set by the runner). */
int		 playbook_reserved_var(const char *name);

#endif
