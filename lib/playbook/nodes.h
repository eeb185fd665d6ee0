/* The nodes of a play's tree above its tasks (playbook.h says how the
 * tree is kept): what a task is besides a module call, the parts of a
 * block, blocks and roles. */
#ifndef TCPTUNE_NODES_H
#define TCPTUNE_NODES_H

#include <jansson.h>
#include <stddef.h>

#include "yaml/ydoc.h"

enum task_kind {
	TASK_MODULE = 0,	/* calls its module */
	TASK_FLUSH_HANDLERS,	/* meta: flush_handlers, or the implicit one
				 * at the end of each section */
	TASK_NOOP,		/* holds the place of an empty block part
				 * (never shown, never reported) */
	TASK_INCLUDE,		/* include_tasks: a file read per host when
				 * the task runs (playbook_load_include) */
	TASK_META,		/* meta: other than flush_handlers (enum
				 * meta_kind, run by the runner's walk) */
};

/* What a meta task does to the walk (Ansible's _execute_meta). */
enum meta_kind {
	META_NOOP = 0,
	META_END_PLAY,		/* every host of the play ends it */
	META_END_BATCH,		/* every host of the batch ends the play */
	META_END_HOST,		/* this host ends the play, not failed */
	META_CLEAR_FACTS,	/* the host's gathered facts are dropped */
};

enum block_part {
	PART_BLOCK = 0,
	PART_RESCUE,
	PART_ALWAYS,
	NPARTS
};

/* A role as the play uses it: named by `roles:` (top) or by a role's
 * meta/main.yml dependencies (parent: the role that named it). The merged
 * objects are Ansible's Role.get_default_vars, get_vars and
 * get_role_params along the dependency chain (vars/manager.py). */
struct role {
	char			*name;
	char			*path;		/* the role's directory */
	char			*tasks_from;	/* "main" unless imported so */
	struct ypos		 pos;		/* where it was named */
	json_t			*defaults;	/* defaults/main.yml */
	json_t			*vars;		/* vars/main.yml */
	json_t			*entry_vars;	/* the entry's vars: */
	json_t			*params;	/* the entry's other keys */
	const struct role	*parent;
	struct role		**deps;		/* meta dependencies, direct */
	size_t			 ndeps;
	json_t			*all_defaults;	/* what its tasks see */
	json_t			*all_vars;
	json_t			*all_params;
	int			 top;
};

struct block {
	struct ypos		 pos;
	char			*kind;		/* "block", "role 'x'", ... */
	const struct block	*parent;	/* NULL: the play's root */
	enum block_part		 part;		/* its part of parent */
	size_t			 first[NPARTS];	/* each part's tasks, */
	size_t			 end[NPARTS];	/* [first, end) of the play's */
};

#endif
