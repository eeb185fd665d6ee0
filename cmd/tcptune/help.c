/* tcptune help [COMMAND], --help: printed from the command table, the
 * option table and the command docs, so help cannot drift from what the
 * parser accepts (help.h). */
#include "help.h"

#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "cmddoc.h"
#include "say.h"
#include "optdoc.h"
#include "base/xalloc.h"

#define HELP_WIDTH	79
#define HELP_LEFT	28	/* where an option's help starts */

const char help_exit_status[] =
    "Exit status: 0 ok; 1 could not run (bad options, a parse or "
    "validation error, a pattern or --limit that matches nothing); "
    "otherwise the OR of 2 (a host failed), 4 (a host was unreachable) "
    "and 8 (changes pending with --check --detailed-exitcode, or drift "
    "found); 130 when Ctrl-C stopped the run.";

void
help_wrap(FILE *fp, const char *text, int col, int indent, int width)
{
	const char	*p = text;
	size_t		 len;

	while (*p != '\0') {
		len = strcspn(p, " ");
		if (col > indent && col + 1 + (int)len > width) {
			fprintf(fp, "\n%*s", indent, "");
			col = indent;
		} else if (p != text) {
			fputc(' ', fp);
			col++;
		}
		fwrite(p, 1, len, fp);
		col += (int)len;
		p += len;
		while (*p == ' ')
			p++;
	}
	fputc('\n', fp);
}

static void
print_option(const struct optdoc *o, FILE *fp)
{
	char	*flags = optdoc_flags(o);
	int	 col;

	col = fprintf(fp, "  %s", flags);
	if (col > HELP_LEFT - 2) {
		fprintf(fp, "\n%*s", HELP_LEFT, "");
		col = HELP_LEFT;
	} else {
		fprintf(fp, "%*s", HELP_LEFT - col, "");
		col = HELP_LEFT;
	}
	if (o->also != NULL) {
		char *text = xprintf("%s (Also --%s.)", o->help, o->also);

		help_wrap(fp, text, col, HELP_LEFT, HELP_WIDTH);
		free(text);
	} else
		help_wrap(fp, o->help, col, HELP_LEFT, HELP_WIDTH);
	free(flags);
}

static void
print_global_options(FILE *fp)
{
	const struct optdoc	*o;
	int			 g;

	for (g = 0; g < OPTG_COUNT; g++) {
		fprintf(fp, " %s:\n", optdoc_group_title[g]);
		for (o = optdoc_table; o->long_name != NULL; o++) {
			if (o->accepts == 0 && o->group == (enum optdoc_group)g)
				print_option(o, fp);
		}
	}
}

void
help_print_commands(FILE *fp)
{
	size_t i;

	fputs("usage: tcptune <command> [options] [args]   (options may also "
	    "follow the args)\n\nCommands:\n", fp);
	for (i = 0; cmd_table[i] != NULL; i++) {
		const struct cmd_entry *c = cmd_table[i];
		char *left = xprintf("%s %s", c->name, c->usage);

		if (strlen(left) > 32)
			fprintf(fp, "  %s\n  %-32s ", left, "");
		else
			fprintf(fp, "  %-32s ", left);
		help_wrap(fp, c->summary, 35, 35, HELP_WIDTH);
		free(left);
	}
	fputs("\nRun 'tcptune help COMMAND' (or 'tcptune COMMAND --help') for a "
	    "command's\noptions and examples.\n", fp);
}

void
help_print_global(FILE *fp)
{
	help_print_commands(fp);
	fputs("\nGlobal options (every command; they may also follow the "
	    "command's arguments):\n", fp);
	print_global_options(fp);
	fputc('\n', fp);
	help_wrap(fp, help_exit_status, 0, 0, HELP_WIDTH);
}

void
help_print_command(const struct cmd_entry *cmd, FILE *fp)
{
	const struct cmd_doc	*doc = cmddoc_find(cmd);
	const struct optdoc	*o;
	size_t			 i;
	int			 own = 0;

	fprintf(fp, "usage: tcptune %s%s%s\n", cmd->name,
	    *cmd->usage != '\0' ? " " : "", cmd->usage);
	if (cmd->alias != NULL)
		fprintf(fp, "   or: tcptune %s ...\n", cmd->alias);
	fputc('\n', fp);
	help_wrap(fp, doc != NULL ? doc->description : cmd->summary, 0, 0,
	    HELP_WIDTH);
	for (o = optdoc_table; o->long_name != NULL; o++) {
		if (o->accepts == 0 || !optdoc_accepted(o, cmd))
			continue;
		if (own++ == 0)
			fputs("\nOptions:\n", fp);
		print_option(o, fp);
	}
	for (i = 0; doc != NULL && i < CMDDOC_EXAMPLES; i++) {
		const struct cmd_example *ex = &doc->examples[i];

		if (ex->line == NULL)
			break;
		if (i == 0)
			fputs("\nExamples:\n", fp);
		fprintf(fp, "  %s\n", ex->line);
		if (*ex->what != '\0')
			fprintf(fp, "      %s\n", ex->what);
	}
	fputs("\nGlobal options:\n", fp);
	print_global_options(fp);
}

extern const struct cmd_entry cmd_help_entry;

/* tcptune help [COMMAND] */
static int
cmd_help_exec(struct options *opts)
{
	const struct cmd_entry *cmd;

	if (opts->format != FORMAT_TEXT)
		return say_usage(&cmd_help_entry, "help prints text only (no "
		    "--format %s); the option table is in the man page, "
		    "'tcptune __doc tcptune.1'", opts->format == FORMAT_JSON ?
		    "json" : "jsonl");
	if (opts->nargs == 0) {
		help_print_global(stdout);
		return 0;
	}
	if ((cmd = cmd_find(opts->args[0])) == NULL)
		return unknown_command(opts->args[0]);
	help_print_command(cmd, stdout);
	return 0;
}

const struct cmd_entry cmd_help_entry = {
	.name = "help",
	.usage = "[COMMAND]",
	.summary = "show this summary, or one command's options and examples",
	.min_args = 0,
	.max_args = 1,
	.exec = cmd_help_exec,
};
