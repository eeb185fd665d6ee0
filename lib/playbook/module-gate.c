/* A module's arguments through the host-line gate: the loop over its
 * parameter table; the rules themselves are remote/hostline.c's. */
#include "playbook/module.h"

int
hostline_check_args(const struct module *m, const json_t *args,
    const json_t *vars, char **cause)
{
	const struct module_param *p;

	for (p = m->params; p->name != NULL; p++) {
		if (hostline_check_value(p->name, p->host_line,
		    json_object_get(args, p->name), vars, cause) != 0)
			return -1;
	}
	return 0;
}
