/* What each command's help says beyond its cmd_entry row: a description,
 * what its positional arguments are (for shell completion), and two or
 * three real examples. Kept apart from cmd-<name>.c so the help text of
 * every command reads in one place; the cli/help test fails for a command
 * of cmd_table without a row. */
#ifndef TCPTUNE_CMDDOC_H
#define TCPTUNE_CMDDOC_H

struct cmd_entry;

/* What a command's positional arguments are, for completion. */
enum cmddoc_args {
	ARGS_NONE = 0,
	ARGS_FILES,		/* playbooks */
	ARGS_HOSTS,		/* a host pattern */
	ARGS_MODULES,		/* a module name */
	ARGS_COMMANDS,		/* a command name */
	ARGS_PARAMS,		/* KEY=VALUE words */
};

struct cmd_example {
	const char	*line;		/* the command, as typed */
	const char	*what;		/* what it does */
};

#define CMDDOC_EXAMPLES	3

struct cmd_doc {
	const char		*name;		/* the cmd_entry's name */
	const char		*description;	/* a paragraph, wrapped */
	enum cmddoc_args	 args;
	struct cmd_example	 examples[CMDDOC_EXAMPLES];
};

/* The row for a command, or NULL. */
const struct cmd_doc	*cmddoc_find(const struct cmd_entry *cmd);

#endif
