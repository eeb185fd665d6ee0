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
#include <stddef.h>
#include <stdint.h>

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

/*
 * A module's conf: the C struct its parameter table binds into, like
 * nginx's ngx_command_t offsets. Its first member is a struct module_conf;
 * each row's offset (offsetof) names the field its value lands in, of the
 * C type the row's type says:
 *	PARAM_STR, PARAM_PATH, PARAM_CHOICE	const char *	(NULL: none)
 *	PARAM_INT				long long
 *	PARAM_FLOAT				double
 *	PARAM_SIZE				uint64_t	(bytes)
 *	PARAM_BOOL				int
 *	PARAM_LIST, PARAM_MAP			const json_t *	(NULL: none)
 * A parameter neither given nor defaulted stays 0 or NULL. Strings, lists
 * and mappings are borrowed from the bound arguments, which outlive the
 * module call. The binder fills the conf (lib/playbook/bind.c); a module
 * only reads it.
 */
struct module_conf {
	uint64_t	given;	/* bit i: the task gave params[i] (not its
				 * default) */
};

struct module_param {
	const char		 *name;
	enum param_type		  type;
	size_t			  offset;	/* of its field in the conf */
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
	/* sizeof the conf its params bind into; run, plan and validate get
	 * that struct as conf. 0 for a module without parameters: it gets a
	 * bare struct module_conf. */
	size_t				 conf_size;
	/* Cross-field rules after binding; NULL if none. */
	int	(*validate)(const void *conf, char **cause);
	/* Run on one host: the writing path. NULL means "not implemented
	 * yet" (an error). In check mode the core never calls it unless
	 * check_safe is set (see module_call). */
	int	(*run)(struct module_ctx *ctx, const void *conf,
		    struct module_result *res);
	/* Check mode for a module that changes hosts: read what is there
	 * and say what run would change (a diff), writing nothing. NULL: in
	 * check mode the task is skipped with a reason. */
	int	(*plan)(struct module_ctx *ctx, const void *conf,
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
/* Whether the task gave the parameter that params (a module's table) binds
 * at offset off of its conf (offsetof(struct X_conf, field)), rather than
 * the field holding the default. */
int				 module_conf_given(
				    const struct module_param *params,
				    const void *conf, size_t off);
void				 module_result_clear(struct module_result *res);
/* Call m on one host as the mode says: run, or in check mode run when it
 * is check-safe, else plan, else a skip with the reason. The only way the
 * runner calls a module, so check mode cannot reach a writing path. args
 * are the task's bound arguments (bind_rendered_args); the module gets
 * them bound into its conf. */
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
