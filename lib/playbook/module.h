/* Modules: what a task can call.
 *
 * Each module is modules/mod-<name>.c exporting one `const struct module
 * mod_<name>` written with designated initialisers. The core binds a task's
 * YAML parameters to the module's parameter table (type, required/default,
 * bounds, choices) before any host is contacted; modules never parse YAML and
 * never touch libssh: they run through the module_ctx they are given. */
#ifndef TCPTUNE_MODULE_H
#define TCPTUNE_MODULE_H

#include <jansson.h>

#include "remote/hostline.h"

enum param_type {
	PARAM_STR,	/* any scalar, taken as a string */
	PARAM_INT,	/* integer, bounded by min/max */
	PARAM_BOOL,	/* YAML 1.1 booleans (yes/no/true/false/on/off) */
	PARAM_FLOAT,	/* number, bounded by min/max */
	PARAM_SIZE,	/* bytes: an integer or "16M", "64MiB", "1G" */
	PARAM_CHOICE,	/* a string from choices[] */
	PARAM_LIST,	/* a list (items are not typed further) */
	PARAM_MAP,	/* a mapping (values are not typed further) */
	PARAM_PATH,	/* absolute path string */
};

struct module_param {
	const char		 *name;
	enum param_type		  type;
	int			  required;
	const char		 *def;		/* default, as YAML text; NULL: none */
	double			  min;		/* INT/FLOAT/SIZE bounds when min < max */
	double			  max;
	const char *const	 *choices;	/* PARAM_CHOICE, NULL-terminated */
	const char		 *help;
	/* What the value becomes on a host, if anything: the runner checks
	 * it at the gate (lib/remote/hostline.h) before the module runs. */
	enum hostline_kind	  host_line;
};

enum result_status {
	RESULT_OK = 0,
	RESULT_CHANGED,
	RESULT_SKIPPED,
	RESULT_FAILED,
	RESULT_UNREACHABLE,
};

struct module_ctx;	/* the runner's per-host context (lib/run/runner.h) */

struct module_result {
	enum result_status	 status;
	char			*msg;	/* one line for the task line, allocated */
	char			*diff;	/* text diff for --diff, allocated, or NULL */
	json_t			*data;	/* registered result, may be NULL */
};

struct module {
	const char			*name;
	const char			*summary;
	const struct module_param	*params;	/* terminated by name NULL */
	/* Cross-field rules after binding; NULL if none. */
	int	(*validate)(const json_t *args, char **cause);
	/* Run on one host: the writing path. NULL means "not implemented
	 * yet" (an error). In check mode the core never calls it unless
	 * check_safe is set (see module_call). */
	int	(*run)(struct module_ctx *ctx, const json_t *args,
		    struct module_result *res);
	/* Check mode for a module that changes hosts: read what is there
	 * and say what run would change (a diff), writing nothing. NULL: in
	 * check mode the task is skipped with a reason. */
	int	(*plan)(struct module_ctx *ctx, const json_t *args,
		    struct module_result *res);
	/* run only reads (ping, probe) or only stages changes for the core's
	 * apply (tuning modules), so check mode may call it. */
	int	check_safe;
	/* A tuning module: it only stages changes (lib/modules/tune.h); the runner
	 * applies the stage in one round trip before the next task that is
	 * not a tuning module, and at the end of the play. */
	int	stages;
};

/* NULL-terminated table of every module, in lib/modules/modules.c. */
extern const struct module *const module_table[];

const struct module		*module_find(const char *name);
const struct module_param	*module_find_param(const struct module *m,
				    const char *name);
const char			*param_type_name(enum param_type type);
void				 module_result_clear(struct module_result *res);
/* Call m on one host as the mode says: run, or in check mode run when it
 * is check-safe, else plan, else a skip with the reason. The only way the
 * runner calls a module, so check mode cannot reach a writing path. */
int				 module_call(const struct module *m,
				    struct module_ctx *ctx, const json_t *args,
				    struct module_result *res);
const char			*result_status_name(enum result_status s);
/* The gate (remote/hostline.h) over a task's rendered, bound arguments: each
 * parameter as its table row's host_line says, and, for a module with a
 * drop-in path, the host's HOSTLINE_DROPIN_VAR. In module-gate.c. */
int				 hostline_check_args(const struct module *m,
				    const json_t *args, const json_t *vars,
				    char **cause);

#endif
