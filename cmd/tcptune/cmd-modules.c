/* tcptune modules [NAME]: help printed from the modules' parameter tables,
 * so the documentation can never drift from what the binder accepts. */
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "playbook/module.h"

static void
print_param(const struct module_param *p)
{
	const char *const *c;

	printf("  %-16s %-7s %s", p->name, param_type_name(p->type),
	    p->required ? "required" : "optional");
	if (p->def != NULL)
		printf(", default %s", p->def);
	if (p->min < p->max)
		printf(", %g..%g", p->min, p->max);
	if (p->choices != NULL) {
		printf(", one of");
		for (c = p->choices; *c != NULL; c++)
			printf("%s %s", c == p->choices ? "" : ",", *c);
	}
	printf("\n  %-16s %s\n", "", p->help != NULL ? p->help : "");
}

/* ", also NAME, NAME" for a module's aliases, or "". */
static void
print_aliases(const struct module *m)
{
	const char *const *a;

	for (a = m->aliases; a != NULL && *a != NULL; a++)
		printf("%s%s", a == m->aliases ? " (also " : ", ", *a);
	if (m->aliases != NULL && *m->aliases != NULL)
		printf(")");
}

static void
print_module(const struct module *m)
{
	const struct module_param *p;

	printf("%s", m->name);
	print_aliases(m);
	printf(" - %s%s\n", m->summary,
	    m->run == NULL ? " (not implemented yet)" : "");
	if (m->claims != NULL)
		printf("chosen for a task that gives '%s'\n", m->claims);
	printf("parameters:\n");
	for (p = m->params; p->name != NULL; p++)
		print_param(p);
}

static int
cmd_modules_exec(struct options *opts)
{
	const struct module	*m;
	size_t			 i, n;

	if (opts->nargs == 1) {
		/* Every module answering to the name: `sysctl` is two. */
		if (module_find(opts->args[0]) == NULL) {
			const char *s = module_suggestion(opts->args[0]);

			if (s != NULL)
				return cmd_error("unknown module '%s' (did "
				    "you mean '%s'?)", opts->args[0], s);
			return cmd_error("unknown module '%s' (see 'tcptune "
			    "modules')", opts->args[0]);
		}
		for (i = 0, n = 0; module_table[i] != NULL; i++) {
			if (!module_answers(module_table[i], opts->args[0]))
				continue;
			if (n++ > 0)
				printf("\n");
			print_module(module_table[i]);
		}
		return 0;
	}
	for (i = 0; module_table[i] != NULL; i++) {
		m = module_table[i];
		printf("%-14s %s%s\n", m->name, m->summary,
		    m->run == NULL ? " (not implemented yet)" : "");
	}
	return 0;
}

const struct cmd_entry cmd_modules_entry = {
	.name = "modules",
	.usage = "[NAME]",
	.summary = "list modules, or show one module's parameters",
	.min_args = 0,
	.max_args = 1,
	.exec = cmd_modules_exec,
};
