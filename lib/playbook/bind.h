/* Binding task parameters to a module's parameter table.
 *
 * Two steps, like nginx's directive slots and merge:
 * - bind_task_params, at load (lint) time, from the YAML node: unknown
 *   parameters (with a did-you-mean), missing required ones, wrong types,
 *   bounds, choices, sizes and absolute paths, with the file:line:col of
 *   the offending key or value. Defaults are filled in and values typed.
 *   A value containing "{{" cannot be checked yet: its template syntax is
 *   checked and it stays a string (a list or mapping holding templates
 *   stays as written) until the run.
 * - bind_rendered_args, at run time, after templating: the same checks on
 *   the rendered values, so a template that renders "ten" for an int is
 *   caught before the module runs. A value that renders to null counts as
 *   not given (its default applies).
 * The module's validate hook runs after binding when every value is known,
 * on the module's conf.
 * - bind_conf, when the module is called (module_call): the bound values
 *   into the module's own C struct, at the offsets its table gives (the
 *   types are in playbook/module.h), with the mask of the parameters the
 *   task gave.
 *
 * Sizes are parsed by units.h's parse_size: a non-negative integer of
 * bytes, or a number with a case-sensitive unit: K, M, G, T and KiB, MiB,
 * GiB, TiB are powers of 1024; KB, MB, GB, TB are powers of 1000; B is
 * bytes. "16M" = "16MiB" = 16777216, "16MB" = 16000000. */
#ifndef TCPTUNE_BIND_H
#define TCPTUNE_BIND_H

#include <jansson.h>
#include <stdint.h>

#include "yaml/diag.h"
#include "playbook/module.h"
#include "yaml/ydoc.h"

/* Bind the YAML parameters of one task (params: the value of the module
 * key, may be NULL or a null scalar for "no parameters"; pos: the module
 * key, where missing parameters are reported). On success returns 0 and
 * *args is a new object; otherwise adds every error to d, returns -1 and
 * sets *args to NULL. A plain scalar is accepted as the free form of a
 * module with a 'cmd' parameter (`command: uptime`). */
int	bind_task_params(const struct module *m, const struct ypos *pos,
	    const struct ynode *params, json_t **args, struct diag *d);

/* Bind rendered arguments at run time. params (may be NULL) is the task's
 * YAML parameters, used to report each error at its value's position
 * (otherwise errors are at pos) and to tell the values the task gave from
 * the defaults bound at load time; with no params every value counts as
 * given (an ad-hoc call). Returns 0 with *args a new object, or -1 with
 * *cause ("FILE:LINE:COL: expected int for 'duration', got string 'ten'"),
 * first error only. *given (when not NULL) is the mask of the parameters
 * the task gave, bit i for m->params[i]: a default is filled in like a
 * given value, so presence in *args cannot tell. */
int	bind_rendered_args(const struct module *m, const json_t *rendered,
	    const struct ynode *params, const struct ypos *pos, json_t **args,
	    uint64_t *given, char **cause);

/* One value written as text (a KEY=VALUE word) for parameter p, checked and
 * typed as a YAML scalar is: 0 with *out a new value, or -1 with *msg
 * ("value 0 for 'ram_divisor' is out of range 1 to 65536"). */
int	bind_param_text(const struct module_param *p, const char *text,
	    json_t **out, char **msg);

/* m's conf (m->conf_size bytes, allocated; free() it) from bound args:
 * each value at its row's offset, borrowed from args, which must outlive
 * it, and the given mask from bind_rendered_args. */
void	*bind_conf(const struct module *m, const json_t *args, uint64_t given);

#endif
