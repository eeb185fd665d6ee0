/* The options as data: one row per option the parser (main.c's
 * long_options) takes, with its argument, its help and which commands
 * accept it. Every help text, the man page and the shell completion are
 * printed from this table, so they cannot drift from each other; the
 * lint/option-table test fails when long_options has an option without a
 * row here. */
#ifndef TCPTUNE_OPTDOC_H
#define TCPTUNE_OPTDOC_H

#include <stdio.h>

struct cmd_entry;

/* The headings global options are listed under (command-specific ones
 * are listed under the command). */
enum optdoc_group {
	OPTG_INVENTORY = 0,	/* which hosts, which variables */
	OPTG_CONNECTION,	/* how to reach them */
	OPTG_BECOME,		/* privilege escalation */
	OPTG_VAULT,		/* Ansible Vault passwords */
	OPTG_OUTPUT,		/* what is printed, and where */
	OPTG_INFO,		/* --help, --version */
	OPTG_COUNT
};

/* What shell completion offers for an option's argument. */
enum optdoc_value {
	OVAL_NONE = 0,		/* a flag: takes no argument */
	OVAL_TEXT,		/* free text: nothing to offer */
	OVAL_FILE,		/* a path */
	OVAL_HOSTS,		/* a host pattern: the inventory's names */
	OVAL_CHOICE,		/* one of .choices */
};

struct optdoc {
	char			 short_name;	/* 'i', or 0 */
	const char		*long_name;	/* "inventory" */
	const char		*also;		/* a second long name the
						   parser takes, or NULL */
	const char		*arg;		/* "SRC", or NULL for a flag */
	enum optdoc_value	 value;
	const char		*choices;	/* "text json jsonl" */
	int			 accepts;	/* 0: global, every command
						   takes it; else its OPT_*
						   bit (cmd.h) */
	enum optdoc_group	 group;		/* for a global option */
	const char		*help;		/* one or more sentences,
						   wrapped when printed */
};

/* NULL-terminated (long_name NULL). */
extern const struct optdoc	optdoc_table[];
extern const char *const	optdoc_group_title[OPTG_COUNT];

/* Does cmd take the option (a global one, or one of its OPT_* bits)? */
int			 optdoc_accepted(const struct optdoc *o,
			    const struct cmd_entry *cmd);
/* The row for "-i", "--inventory", "--vault-pass-file" or "inventory";
 * NULL when there is none. */
const struct optdoc	*optdoc_find(const char *word);
/* "-i, --inventory SRC" / "    --list-hosts": the left column of help. */
char			*optdoc_flags(const struct optdoc *o);

#endif
