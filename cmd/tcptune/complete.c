/* tcptune __complete WHAT [ARG]: the words the shell completion scripts
 * (contrib/completion/) offer, printed from the same tables as the help,
 * one a line, so completion cannot drift from the parser:
 *
 *   commands        each command and alias, a tab, its summary
 *   options [CMD]   the option words CMD accepts (global ones too);
 *                   without CMD, every option of the table
 *   value OPTION    what OPTION's argument is: its choices, or ":file",
 *                   ":hosts" or ":text"; nothing for a flag
 *   args CMD        what CMD's positional arguments are: ":file",
 *                   ":hosts" or ":params" (each of the last two followed
 *                   by the KEY= words of size or verify), or the words
 *                   (modules, commands)
 *   modules         module names and aliases
 *   hosts           the inventory's host and group names (-i as usual)
 *
 * It never contacts a host and never asks for a password: dynamic
 * inventories (URLs, executable scripts, given to -i or in a directory
 * given to it) are skipped, vaulted
 * files give nothing, and errors are not printed (a completion has
 * nowhere to show them); the exit status is 0 unless WHAT is unknown. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "cmddoc.h"
#include "help.h"
#include "optdoc.h"
#include "inventory/inventory.h"
#include "net/http.h"
#include "playbook/module.h"

static void
print_words(const char *words)
{
	const char	*p = words;
	size_t		 len;

	while (*p != '\0') {
		len = strcspn(p, " ");
		printf("%.*s\n", (int)len, p);
		p += len;
		p += strspn(p, " ");
	}
}

static int
complete_commands(void)
{
	size_t i;

	for (i = 0; cmd_table[i] != NULL; i++) {
		printf("%s\t%s\n", cmd_table[i]->name, cmd_table[i]->summary);
		if (cmd_table[i]->alias != NULL)
			printf("%s\t%s\n", cmd_table[i]->alias,
			    cmd_table[i]->summary);
	}
	return 0;
}

static int
complete_options(const char *name)
{
	const struct cmd_entry	*cmd = name != NULL ? cmd_find(name) : NULL;
	const struct optdoc	*o;

	for (o = optdoc_table; o->long_name != NULL; o++) {
		if (cmd != NULL && !optdoc_accepted(o, cmd))
			continue;
		if (o->short_name != 0)
			printf("-%c\n", o->short_name);
		printf("--%s\n", o->long_name);
		if (o->also != NULL)
			printf("--%s\n", o->also);
	}
	return 0;
}

static int
complete_value(const char *word)
{
	const struct optdoc *o = word != NULL ? optdoc_find(word) : NULL;

	if (o == NULL)
		return 0;
	switch (o->value) {
	case OVAL_NONE:
		break;
	case OVAL_TEXT:
		printf(":text\n");
		break;
	case OVAL_FILE:
		printf(":file\n");
		break;
	case OVAL_HOSTS:
		printf(":hosts\n");
		break;
	case OVAL_CHOICE:
		print_words(o->choices);
		break;
	}
	return 0;
}

static int
complete_modules(void)
{
	const char *const	*a;
	size_t			 i;

	for (i = 0; module_table[i] != NULL; i++) {
		printf("%s\n", module_table[i]->name);
		for (a = module_table[i]->aliases; a != NULL && *a != NULL; a++)
			printf("%s\n", *a);
	}
	return 0;
}

/* The KEY= words of a command that takes KEY=VALUE arguments: size's
 * keys, verify's iperf3_verify parameters; one a line. */
static void
complete_params(const char *name)
{
	const struct module		*m;
	const struct module_param	*p;
	const char *const		*keys;
	size_t				 n, i;

	if (strcmp(name, "size") == 0) {
		keys = size_keys(&n);
		for (i = 0; i < n; i++)
			printf("%s=\n", keys[i]);
	} else if (strcmp(name, "verify") == 0 &&
	    (m = module_find("iperf3_verify")) != NULL) {
		for (p = m->params; p->name != NULL; p++)
			printf("%s=\n", p->name);
	}
}

/* What a command's positional arguments are: ":file", ":hosts" or
 * ":params" first, then for :hosts and :params the KEY= words the
 * command takes (the shell offers them without a space after); else the
 * plain words. */
static int
complete_args(const char *name)
{
	const struct cmd_entry	*cmd = name != NULL ? cmd_find(name) : NULL;
	const struct cmd_doc	*doc = cmd != NULL ? cmddoc_find(cmd) : NULL;
	size_t			 i;

	switch (doc != NULL ? doc->args : ARGS_NONE) {
	case ARGS_NONE:
		break;
	case ARGS_FILES:
		printf(":file\n");
		break;
	case ARGS_HOSTS:
		printf(":hosts\n");
		complete_params(cmd->name);
		break;
	case ARGS_PARAMS:
		printf(":params\n");
		complete_params(cmd->name);
		break;
	case ARGS_MODULES:
		complete_modules();
		break;
	case ARGS_COMMANDS:
		for (i = 0; cmd_table[i] != NULL; i++)
			printf("%s\n", cmd_table[i]->name);
		break;
	}
	return 0;
}

/* Static sources only: a URL or a script would reach out to a service
 * or run a program on every Tab, so URLs are skipped and so are scripts,
 * given to -i or inside a directory given to it. A source that fails is
 * left out. */
static int
complete_hosts(const struct options *opts)
{
	struct inventory	*inv = inventory_new();
	char			*cause = NULL;
	size_t			 i;

	inv->no_scripts = 1;
	for (i = 0; i < opts->ninventories; i++) {
		const char *src = opts->inventories[i];

		if (http_url_scheme(src) != HTTP_SCHEME_NONE)
			continue;
		if (inventory_add_source(inv, src, &cause) != 0) {
			free(cause);
			cause = NULL;
		}
	}
	if (inventory_finish(inv, &cause) != 0)
		free(cause);
	for (i = 0; i < inv->ngroups; i++)
		printf("%s\n", inv->groups[i]->name);
	for (i = 0; i < inv->nhosts; i++)
		printf("%s\n", inv->hosts[i]->name);
	inventory_free(inv);
	return 0;
}

static int
cmd_complete_exec(struct options *opts)
{
	const char	*what = opts->args[0];
	const char	*arg = opts->nargs > 1 ? opts->args[1] : NULL;

	if (strcmp(what, "commands") == 0)
		return complete_commands();
	if (strcmp(what, "options") == 0)
		return complete_options(arg);
	if (strcmp(what, "value") == 0)
		return complete_value(arg);
	if (strcmp(what, "args") == 0)
		return complete_args(arg);
	if (strcmp(what, "modules") == 0)
		return complete_modules();
	if (strcmp(what, "hosts") == 0)
		return complete_hosts(opts);
	return cmd_error("__complete: unknown '%s'", what);
}

const struct cmd_entry cmd_complete_entry = {
	.name = "__complete",
	.usage = "commands | options [CMD] | value OPTION | args CMD | "
	    "modules | hosts",
	.summary = "the words shell completion offers (hidden)",
	.min_args = 1,
	.max_args = 2,
	.exec = cmd_complete_exec,
};
