/* tcptune modules [NAME]: help printed from the modules' parameter tables,
 * so the documentation can never drift from what the binder accepts; the
 * same tables as one JSON document with --format json. */
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "playbook/module.h"

/* The --format json document's "schema": raised when a field changes
 * meaning or goes away. */
#define MODULES_SCHEMA	1

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

static json_t *
param_json(const struct module_param *p)
{
	json_t			*j, *choices;
	const char *const	*c;

	j = json_pack("{s:s, s:s, s:b}", "name", p->name, "type",
	    param_type_name(p->type), "required", p->required);
	json_object_set_new(j, "default", p->def != NULL ?
	    json_string(p->def) : json_null());
	if (p->min < p->max) {
		json_object_set_new(j, "min", json_real(p->min));
		json_object_set_new(j, "max", json_real(p->max));
	}
	if (p->choices != NULL) {
		choices = json_array();
		for (c = p->choices; *c != NULL; c++)
			json_array_append_new(choices, json_string(*c));
		json_object_set_new(j, "choices", choices);
	}
	json_object_set_new(j, "help", json_string(p->help != NULL ? p->help :
	    ""));
	return j;
}

/* A module as JSON; with its parameters when detailed. */
static json_t *
module_json(const struct module *m, int detailed)
{
	json_t				*j, *a;
	const char *const		*alias;
	const struct module_param	*p;

	a = json_array();
	for (alias = m->aliases; alias != NULL && *alias != NULL; alias++)
		json_array_append_new(a, json_string(*alias));
	j = json_pack("{s:s, s:o, s:s, s:b}", "name", m->name, "aliases", a,
	    "summary", m->summary, "implemented", m->run != NULL);
	if (!detailed)
		return j;
	json_object_set_new(j, "claims", m->claims != NULL ?
	    json_string(m->claims) : json_null());
	a = json_array();
	for (p = m->params; p->name != NULL; p++)
		json_array_append_new(a, param_json(p));
	json_object_set_new(j, "params", a);
	return j;
}

/* {"schema": 1, "modules": [...]}: every module, or those answering to
 * name with their parameters. */
static int
print_json(const char *name)
{
	json_t	*list = json_array(), *doc;
	size_t	 i;

	for (i = 0; module_table[i] != NULL; i++) {
		if (name == NULL || module_answers(module_table[i], name))
			json_array_append_new(list,
			    module_json(module_table[i], name != NULL));
	}
	doc = json_pack("{s:i, s:o}", "schema", MODULES_SCHEMA, "modules",
	    list);
	json_dumpf(doc, stdout, JSON_INDENT(2));
	fputc('\n', stdout);
	json_decref(doc);
	return 0;
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
		if (opts->format == FORMAT_JSON)
			return print_json(opts->args[0]);
		for (i = 0, n = 0; module_table[i] != NULL; i++) {
			if (!module_answers(module_table[i], opts->args[0]))
				continue;
			if (n++ > 0)
				printf("\n");
			print_module(module_table[i]);
		}
		return 0;
	}
	if (opts->format == FORMAT_JSON)
		return print_json(NULL);
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
