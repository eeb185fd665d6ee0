/* The command-line front end: one table row per subcommand (cmd-<name>.c),
 * global options parsed once by main.c into struct options. Only cmd/ prints
 * and exits; lib/ returns codes and messages. */
#ifndef TCPTUNE_CMD_H
#define TCPTUNE_CMD_H

#include <jansson.h>
#include <stddef.h>

/* Exit status: 0 ok; 1 could not run; otherwise the OR of these bits. */
#define EXIT_COULD_NOT_RUN	1
#define EXIT_HOST_FAILED	2
#define EXIT_HOST_UNREACHABLE	4
#define EXIT_CHANGES		8

/* jsonl: one event per line as the run goes (docs/output.md), for the
 * commands that stream (OPT_STREAM). */
enum output_format { FORMAT_TEXT = 0, FORMAT_JSON, FORMAT_JSONL };

struct settings;

/* Filled from the command line; a zero or NULL field was not given there
 * and settings_resolve (settings.c) then sets it from ANSIBLE_* variables,
 * ansible.cfg or tcptune's default. */
struct options {
	char			**inventories;	/* -i, in order */
	size_t			  ninventories;
	const char		 *limit;	/* -l/--limit */
	int			  forks;	/* -f */
	char			**extra_vars;	/* -e, raw "k=v", "@file" or JSON */
	size_t			  nextra_vars;
	const char		 *user;		/* -u */
	const char		 *private_key;	/* --private-key */
	int			  become;	/* -b */
	enum output_format	  format;	/* --format */
	int			  verbose;	/* -v, repeatable */
	int			  color;	/* off with --no-color or !isatty */
	int			  timeout;	/* --timeout: connect, seconds */
	int			  command_timeout; /* --command-timeout */
	int			  confirm_timeout; /* --confirm-timeout */
	int			  confirm_timeout_given; /* 0 is a value */
	const char		 *ssh_config;	/* --ssh-config */
	const char		 *known_hosts;	/* --known-hosts */
	const char		 *host_key_checking; /* strict|accept-new|off */
	int			  check;	/* -C/--check */
	int			  diff;		/* -D/--diff */
	int			  detailed_exitcode;
	int			  list;		/* inventory --list */
	const char		 *host;		/* inventory --host */
	int			  graph;	/* inventory --graph */
	const char		 *tags;		/* -t/--tags */
	const char		 *skip_tags;	/* --skip-tags */
	const char		 *prometheus;	/* drift --prometheus FILE */
	const char		 *webhook;	/* drift --webhook URL */
	char			**vault_password_files; /* --vault-password-file */
	size_t			  nvault_password_files;
	char			**vault_ids;	/* --vault-id [label@]source */
	size_t			  nvault_ids;
	int			  ask_vault_pass; /* -J/--ask-vault-pass */
	int			  ask_become_pass; /* -K/--ask-become-pass */
	const char		 *become_user;	/* --become-user, else the
						   file's: under the host's
						   ansible_become_user */
	int			  list_hosts;	/* --list-hosts */
	int			  list_tasks;	/* --list-tasks */
	const char		 *start_at_task; /* --start-at-task NAME */
	const char		 *color_when;	/* --color auto|always|never */
	const char		 *log_file;	/* --log-file FILE */
	const char		 *report_file;	/* --report FILE.html: the
						   verification path matrix */
	/* From ansible.cfg or ANSIBLE_*: like Ansible, used only where the
	 * inventory sets nothing for the host (ansible_user, ...). */
	const char		 *cfg_user;	/* remote_user */
	const char		 *cfg_private_key; /* private_key_file */
	int			  cfg_become;	/* become */
	int			  cfg_nocolor;	/* nocolor, ANSIBLE_NOCOLOR */
	int			  cfg_force_color; /* force_color */
	const char		 *roles_path;	/* roles_path, ':'-separated */
	const struct settings	 *settings;	/* what was resolved, and from
						   where (tcptune config) */
	char			**args;		/* positional arguments */
	int			  nargs;
};

/* Which command-specific options a command accepts (global ones always). */
#define OPT_INVENTORY_VIEW	0x01	/* --list --host --graph */
#define OPT_CHECK		0x02	/* --check --diff --detailed-exitcode */
#define OPT_TAGS		0x04	/* --tags --skip-tags */
#define OPT_REPORT		0x08	/* --prometheus --webhook */
#define OPT_LOOK		0x10	/* --list-hosts --list-tasks
					   --start-at-task */
#define OPT_STREAM		0x20	/* --format jsonl: prints a run's
					   results as they come */
#define OPT_MATRIX		0x40	/* --report FILE.html */
#define OPT_CONFIRM		0x80	/* --confirm-timeout */

struct cmd_entry {
	const char	*name;
	const char	*alias;
	const char	*usage;		/* arguments after the name */
	const char	*summary;
	int		 accepts;	/* OPT_* bits */
	int		 min_args;
	int		 max_args;	/* -1: any */
	int		(*exec)(struct options *opts);
};

extern const struct cmd_entry *const cmd_table[];

/* The KEY= words `tcptune size` takes: tcp_buffers' parameters that are no
 * line on a host, then the host facts it takes as words (mem, tcp_rmem,
 * tcp_wmem); *n of them (cmd-size.c). */
const char *const *size_keys(size_t *n);

/* Print "tcptune: error: <message>" to stderr (through say.c, the one
 * printer) and return EXIT_COULD_NOT_RUN (cmd-error.c). */
int	cmd_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
