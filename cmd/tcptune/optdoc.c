/* The option table: what each option of main.c's parser means, for every
 * help text, the man page and shell completion (optdoc.h). A row's help is
 * the truth users read: keep it in step with the parser's case. */
#include "optdoc.h"

#include <string.h>

#include "cmd.h"
#include "base/xalloc.h"

const char *const optdoc_group_title[OPTG_COUNT] = {
	[OPTG_INVENTORY] = "Inventory and variables",
	[OPTG_CONNECTION] = "Connection",
	[OPTG_BECOME] = "Privilege escalation",
	[OPTG_VAULT] = "Ansible Vault",
	[OPTG_OUTPUT] = "Output",
	[OPTG_INFO] = "Information",
};

const struct optdoc optdoc_table[] = {
	/* global: inventory and variables */
	{ .short_name = 'i', .long_name = "inventory", .arg = "SRC",
	  .value = OVAL_FILE, .group = OPTG_INVENTORY,
	  .help = "Inventory file, directory, executable script, https:// "
	  "URL of a dynamic inventory, or an inline list 'a,b,' "
	  "(repeatable). Default $TCPTUNE_INVENTORY, else "
	  "$ANSIBLE_INVENTORY or ansible.cfg's inventory." },
	{ .short_name = 'l', .long_name = "limit", .arg = "PATTERN",
	  .value = OVAL_HOSTS, .group = OPTG_INVENTORY,
	  .help = "Only the hosts matching an Ansible host pattern (groups, "
	  "globs, ~regex, ':' union, ':&' intersection, ':!' exclusion, "
	  "group[0:2], @file)." },
	{ .short_name = 'e', .long_name = "extra-vars", .arg = "VARS",
	  .value = OVAL_TEXT, .group = OPTG_INVENTORY,
	  .help = "Extra variables: k=v pairs, a JSON object, or @file "
	  "(repeatable); they win over every other variable." },
	/* global: connection */
	{ .short_name = 'f', .long_name = "forks", .arg = "N",
	  .value = OVAL_TEXT, .group = OPTG_CONNECTION,
	  .help = "Hosts worked on at once, 1 to 1000 (default 50, or "
	  "ansible.cfg's forks)." },
	{ .short_name = 'u', .long_name = "user", .arg = "USER",
	  .value = OVAL_TEXT, .group = OPTG_CONNECTION,
	  .help = "Remote user, over the inventory's ansible_user." },
	{ .long_name = "private-key", .arg = "FILE", .value = OVAL_FILE,
	  .group = OPTG_CONNECTION,
	  .help = "SSH private key file." },
	{ .long_name = "timeout", .arg = "SEC", .value = OVAL_TEXT,
	  .group = OPTG_CONNECTION,
	  .help = "Connect timeout in seconds, 1 to 3600 (default 10)." },
	{ .long_name = "command-timeout", .arg = "SEC", .value = OVAL_TEXT,
	  .group = OPTG_CONNECTION,
	  .help = "Time a remote command may take, 1 to 86400 seconds "
	  "(default 120)." },
	{ .long_name = "ssh-config", .arg = "FILE", .value = OVAL_FILE,
	  .group = OPTG_CONNECTION,
	  .help = "OpenSSH client configuration file (default "
	  "~/.ssh/config)." },
	{ .long_name = "known-hosts", .arg = "FILE", .value = OVAL_FILE,
	  .group = OPTG_CONNECTION,
	  .help = "known_hosts file (default ~/.ssh/known_hosts)." },
	{ .long_name = "host-key-checking", .arg = "MODE",
	  .value = OVAL_CHOICE, .choices = "strict accept-new off",
	  .group = OPTG_CONNECTION,
	  .help = "strict (the default) refuses an unknown or changed host "
	  "key; accept-new records an unknown one; off checks nothing." },
	/* global: become */
	{ .short_name = 'b', .long_name = "become", .group = OPTG_BECOME,
	  .help = "Run remote commands through sudo: 'sudo -n', or 'sudo -S' "
	  "with -K or ansible_become_password." },
	{ .long_name = "become-user", .arg = "USER", .value = OVAL_TEXT,
	  .group = OPTG_BECOME,
	  .help = "Become USER instead of root." },
	{ .short_name = 'K', .long_name = "ask-become-pass",
	  .group = OPTG_BECOME,
	  .help = "Ask for the sudo password once, with no echo, before any "
	  "host is contacted." },
	/* global: vault */
	{ .long_name = "vault-password-file", .also = "vault-pass-file",
	  .arg = "FILE", .value = OVAL_FILE, .group = OPTG_VAULT,
	  .help = "Vault password file, or an executable that prints the "
	  "password (repeatable; ansible.cfg's is added)." },
	{ .long_name = "vault-id", .arg = "[LABEL@]SOURCE", .value = OVAL_FILE,
	  .group = OPTG_VAULT,
	  .help = "A vault id: its password from a file, a script or "
	  "'prompt' (repeatable)." },
	{ .short_name = 'J', .long_name = "ask-vault-pass",
	  .also = "ask-vault-password", .group = OPTG_VAULT,
	  .help = "Ask for the vault password, with no echo." },
	/* global: output */
	{ .long_name = "format", .arg = "FORMAT", .value = OVAL_CHOICE,
	  .choices = "text json jsonl", .group = OPTG_OUTPUT,
	  .help = "text (the default), json (one document, written batch by "
	  "batch), or "
	  "jsonl (one JSON event per line as the run goes; commands that "
	  "run on hosts)." },
	{ .short_name = 'v', .long_name = "verbose", .group = OPTG_OUTPUT,
	  .help = "More output; repeat for more (-vv, -vvv)." },
	{ .long_name = "color", .arg = "WHEN", .value = OVAL_CHOICE,
	  .choices = "auto always never", .group = OPTG_OUTPUT,
	  .help = "When to colour the output: auto (on a terminal, unless "
	  "NO_COLOR is set and not empty; the default), always or never." },
	{ .long_name = "no-color", .group = OPTG_OUTPUT,
	  .help = "No colours: the same as --color never." },
	{ .long_name = "log-file", .arg = "FILE", .value = OVAL_FILE,
	  .group = OPTG_OUTPUT,
	  .help = "Append every run's events to FILE, each with a timestamp "
	  "(also $TCPTUNE_LOG_FILE, or ansible.cfg's log_path)." },
	/* global: information */
	{ .short_name = 'h', .long_name = "help", .group = OPTG_INFO,
	  .help = "Show the help: the command summary, or after a command "
	  "that command's usage, options and examples." },
	{ .short_name = 'V', .long_name = "version", .group = OPTG_INFO,
	  .help = "Print the version and exit." },

	/* command-specific, by OPT_* bit */
	{ .short_name = 'C', .long_name = "check", .accepts = OPT_CHECK,
	  .help = "Plan only: change nothing on any host." },
	{ .short_name = 'D', .long_name = "diff", .accepts = OPT_CHECK,
	  .help = "Show the drop-in's diff and each live value before -> "
	  "after." },
	{ .long_name = "detailed-exitcode", .accepts = OPT_CHECK,
	  .help = "With --check: add 8 to the exit status when something "
	  "would change." },
	{ .long_name = "confirm-timeout", .arg = "SEC", .value = OVAL_TEXT,
	  .accepts = OPT_CONFIRM,
	  .help = "A change that could cut a host off is tried, not trusted: "
	  "the host schedules its own revert first, and tcptune cancels it "
	  "only from a new SSH connection after the change; unconfirmed, "
	  "the host restores its previous state after SEC seconds. 0: off; "
	  "10 to 3600: for every live change, sysctls alone too. Default: "
	  "120 for a live qdisc or route change (docs/confirm.md)." },
	{ .short_name = 't', .long_name = "tags", .arg = "TAGS",
	  .value = OVAL_TEXT, .accepts = OPT_TAGS,
	  .help = "Only the tasks with one of these tags (comma-separated)." },
	{ .long_name = "skip-tags", .arg = "TAGS", .value = OVAL_TEXT,
	  .accepts = OPT_TAGS,
	  .help = "Skip the tasks with one of these tags (comma-separated)." },
	{ .long_name = "list-hosts", .accepts = OPT_LOOK,
	  .help = "List the hosts each play would run on; contact nothing." },
	{ .long_name = "list-tasks", .accepts = OPT_LOOK,
	  .help = "List the tasks each play would run; contact nothing." },
	{ .long_name = "start-at-task", .arg = "NAME", .value = OVAL_TEXT,
	  .accepts = OPT_LOOK,
	  .help = "Start at the first task named NAME, skipping the ones "
	  "before it." },
	{ .long_name = "list", .accepts = OPT_INVENTORY_VIEW,
	  .help = "Every group and host with its variables, as JSON "
	  "(ansible-inventory --list)." },
	{ .long_name = "host", .arg = "NAME", .value = OVAL_HOSTS,
	  .accepts = OPT_INVENTORY_VIEW,
	  .help = "One host's merged variables, as JSON." },
	{ .long_name = "graph", .accepts = OPT_INVENTORY_VIEW,
	  .help = "The group tree, from GROUP (default all)." },
	{ .long_name = "prometheus", .arg = "FILE", .value = OVAL_FILE,
	  .accepts = OPT_REPORT | OPT_MATRIX,
	  .help = "Write the result as node_exporter textfile metrics to "
	  "FILE (atomically): drift's findings, or the path matrix of play "
	  "and verify." },
	{ .long_name = "webhook", .arg = "URL", .value = OVAL_TEXT,
	  .accepts = OPT_REPORT,
	  .help = "POST a summary to URL when drift is found; better "
	  "$TCPTUNE_WEBHOOK, which keeps the secret out of ps." },
	{ .long_name = "report", .arg = "FILE", .value = OVAL_FILE,
	  .accepts = OPT_MATRIX,
	  .help = "Write the verification path matrix as a self-contained "
	  "HTML file." },
	{ .long_name = NULL },
};

int
optdoc_accepted(const struct optdoc *o, const struct cmd_entry *cmd)
{
	return o->accepts == 0 || (cmd->accepts & o->accepts) != 0;
}

const struct optdoc *
optdoc_find(const char *word)
{
	const struct optdoc	*o;
	const char		*name = word;

	if (word[0] == '-' && word[1] != '-' && word[1] != '\0' &&
	    word[2] == '\0') {
		for (o = optdoc_table; o->long_name != NULL; o++) {
			if (o->short_name == word[1])
				return o;
		}
		return NULL;
	}
	while (*name == '-')
		name++;
	for (o = optdoc_table; o->long_name != NULL; o++) {
		if (strcmp(o->long_name, name) == 0 ||
		    (o->also != NULL && strcmp(o->also, name) == 0))
			return o;
	}
	return NULL;
}

char *
optdoc_flags(const struct optdoc *o)
{
	return xprintf("%s%c%s--%s%s%s", o->short_name != 0 ? "-" : " ",
	    o->short_name != 0 ? o->short_name : ' ',
	    o->short_name != 0 ? ", " : "  ", o->long_name,
	    o->arg != NULL ? " " : "", o->arg != NULL ? o->arg : "");
}
