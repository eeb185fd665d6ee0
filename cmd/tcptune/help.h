/* Help printed from the tables: cmd_table (main.c), the option table
 * (optdoc.c) and the command docs (cmddoc.c). `tcptune --help` is the
 * command summary; `tcptune CMD --help` and `tcptune help CMD` that
 * command's usage, description, options and examples. */
#ifndef TCPTUNE_HELP_H
#define TCPTUNE_HELP_H

#include <stdio.h>

struct cmd_entry;

/* The exit status paragraph, for the help and the man page. */
extern const char	help_exit_status[];

/* The global help: the commands, the global options, the exit status. */
void	help_print_global(FILE *fp);
/* Its first part: the usage line and the command list (README's "Usage"
 * block is this, `tcptune __doc readme`). */
void	help_print_commands(FILE *fp);
/* One command's help. */
void	help_print_command(const struct cmd_entry *cmd, FILE *fp);
/* Print text from column col (the cursor is there), wrapped at width
 * with continuation lines indented to indent, and a newline. */
void	help_wrap(FILE *fp, const char *text, int col, int indent, int width);

/* main.c: a command or alias by its exact name (hidden ones too), or
 * NULL; and the "unknown command 'x' (did you mean 'y'?)" error. */
const struct cmd_entry	*cmd_find(const char *name);
int			 unknown_command(const char *name);

#endif
