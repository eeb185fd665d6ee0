/* tcptune: parse global options once, then dispatch through cmd_table. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "settings.h"
#include "base/xalloc.h"
#include "yaml/diag.h"

extern const struct cmd_entry cmd_help_entry;
extern const struct cmd_entry cmd_version_entry;
extern const struct cmd_entry cmd_modules_entry;
extern const struct cmd_entry cmd_inventory_entry;
extern const struct cmd_entry cmd_lint_entry;
extern const struct cmd_entry cmd_ping_entry;
extern const struct cmd_entry cmd_rollback_entry;
extern const struct cmd_entry cmd_size_entry;
extern const struct cmd_entry cmd_verify_entry;
extern const struct cmd_entry cmd_drift_entry;
extern const struct cmd_entry cmd_play_entry;
extern const struct cmd_entry cmd_plan_entry;
extern const struct cmd_entry cmd_probe_entry;
extern const struct cmd_entry cmd_config_entry;

const struct cmd_entry *const cmd_table[] = {
	&cmd_inventory_entry,
	&cmd_lint_entry,
	&cmd_play_entry,
	&cmd_plan_entry,
	&cmd_drift_entry,
	&cmd_rollback_entry,
	&cmd_ping_entry,
	&cmd_probe_entry,
	&cmd_verify_entry,
	&cmd_size_entry,
	&cmd_modules_entry,
	&cmd_config_entry,
	&cmd_version_entry,
	&cmd_help_entry,
	NULL,
};

enum {
	OPTV_PRIVATE_KEY = 256,
	OPTV_FORMAT,
	OPTV_NO_COLOR,
	OPTV_TIMEOUT,
	OPTV_COMMAND_TIMEOUT,
	OPTV_SSH_CONFIG,
	OPTV_KNOWN_HOSTS,
	OPTV_HOST_KEY_CHECKING,
	OPTV_DETAILED_EXITCODE,
	OPTV_LIST,
	OPTV_HOST,
	OPTV_GRAPH,
	OPTV_SKIP_TAGS,
	OPTV_PROMETHEUS,
	OPTV_WEBHOOK,
	OPTV_VAULT_PASSWORD_FILE,
	OPTV_VAULT_ID,
	OPTV_BECOME_USER,
	OPTV_LIST_HOSTS,
	OPTV_LIST_TASKS,
	OPTV_START_AT_TASK,
	OPTV_COLOR,
	OPTV_LOG_FILE,
	OPTV_REPORT,
};

static const struct option long_options[] = {
	{ "inventory", required_argument, NULL, 'i' },
	{ "limit", required_argument, NULL, 'l' },
	{ "forks", required_argument, NULL, 'f' },
	{ "extra-vars", required_argument, NULL, 'e' },
	{ "user", required_argument, NULL, 'u' },
	{ "private-key", required_argument, NULL, OPTV_PRIVATE_KEY },
	{ "become", no_argument, NULL, 'b' },
	{ "format", required_argument, NULL, OPTV_FORMAT },
	{ "verbose", no_argument, NULL, 'v' },
	{ "no-color", no_argument, NULL, OPTV_NO_COLOR },
	{ "timeout", required_argument, NULL, OPTV_TIMEOUT },
	{ "command-timeout", required_argument, NULL, OPTV_COMMAND_TIMEOUT },
	{ "ssh-config", required_argument, NULL, OPTV_SSH_CONFIG },
	{ "known-hosts", required_argument, NULL, OPTV_KNOWN_HOSTS },
	{ "host-key-checking", required_argument, NULL,
	  OPTV_HOST_KEY_CHECKING },
	{ "check", no_argument, NULL, 'C' },
	{ "diff", no_argument, NULL, 'D' },
	{ "detailed-exitcode", no_argument, NULL, OPTV_DETAILED_EXITCODE },
	{ "list", no_argument, NULL, OPTV_LIST },
	{ "host", required_argument, NULL, OPTV_HOST },
	{ "graph", no_argument, NULL, OPTV_GRAPH },
	{ "tags", required_argument, NULL, 't' },
	{ "skip-tags", required_argument, NULL, OPTV_SKIP_TAGS },
	{ "prometheus", required_argument, NULL, OPTV_PROMETHEUS },
	{ "webhook", required_argument, NULL, OPTV_WEBHOOK },
	{ "vault-password-file", required_argument, NULL,
	  OPTV_VAULT_PASSWORD_FILE },
	{ "vault-pass-file", required_argument, NULL,
	  OPTV_VAULT_PASSWORD_FILE },
	{ "vault-id", required_argument, NULL, OPTV_VAULT_ID },
	{ "ask-vault-pass", no_argument, NULL, 'J' },
	{ "ask-vault-password", no_argument, NULL, 'J' },
	{ "ask-become-pass", no_argument, NULL, 'K' },
	{ "become-user", required_argument, NULL, OPTV_BECOME_USER },
	{ "list-hosts", no_argument, NULL, OPTV_LIST_HOSTS },
	{ "list-tasks", no_argument, NULL, OPTV_LIST_TASKS },
	{ "start-at-task", required_argument, NULL, OPTV_START_AT_TASK },
	{ "color", required_argument, NULL, OPTV_COLOR },
	{ "log-file", required_argument, NULL, OPTV_LOG_FILE },
	{ "report", required_argument, NULL, OPTV_REPORT },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

static const char usage_options[] =
"Global options (they may also follow the command):\n"
"  -i, --inventory SRC       inventory file, directory, URL or 'a,b,' list\n"
"                            (repeatable; default $TCPTUNE_INVENTORY, then\n"
"                            ansible.cfg's: see 'tcptune config')\n"
"  -l, --limit PATTERN       restrict to hosts matching an Ansible pattern\n"
"  -f, --forks N             hosts worked on at once (default 50)\n"
"  -e, --extra-vars VARS     k=v pairs, JSON, or @file (repeatable)\n"
"  -u, --user USER           remote user (overrides ansible_user)\n"
"      --private-key FILE    ssh private key\n"
"  -b, --become              run remote commands through sudo (-n, or -S\n"
"                            with -K or ansible_become_password)\n"
"      --become-user USER    sudo to USER instead of root\n"
"  -K, --ask-become-pass     ask for the sudo password (no echo)\n"
"      --vault-password-file FILE   vault password file or script\n"
"                            (repeatable; ansible.cfg's is added)\n"
"      --vault-id [LABEL@]SOURCE    a vault id: a file, script or 'prompt'\n"
"  -J, --ask-vault-pass      ask for the vault password (no echo)\n"
"      --format text|json|jsonl   output format (default text; jsonl:\n"
"                            one JSON event per line as the run goes)\n"
"  -v, --verbose             more output (repeat for more)\n"
"  -V, --version             print the version and exit\n"
"      --no-color            no ANSI colours\n"
"      --timeout SEC         connect timeout (default 10)\n"
"      --command-timeout SEC per-command timeout (default 120)\n"
"      --ssh-config FILE     ssh config file (default ~/.ssh/config)\n"
"      --known-hosts FILE    known_hosts file (default ~/.ssh/known_hosts)\n"
"      --host-key-checking strict|accept-new|off   (default strict)\n"
"Command options:\n"
"  -C, --check               plan only: change nothing on any host\n"
"  -D, --diff                show file diffs and live before -> after\n"
"      --detailed-exitcode   set bit 8 when something would change\n"
"  -t, --tags T / --skip-tags T   select tasks by tag\n"
"      --list, --host NAME, --graph   inventory views\n"
"      --prometheus FILE, --webhook URL   drift reporting\n"
"      --report FILE.html    play, verify: the path matrix as an HTML page\n"
"                            (--prometheus FILE: as Prometheus series)\n"
"      --list-hosts, --list-tasks   show what would run; contact nothing\n"
"      --start-at-task NAME  skip the tasks before the first named NAME\n"
"\n"
"Exit status: 0 ok; 1 could not run (bad options, parse or validation\n"
"error, nothing matched); otherwise the OR of 2 (a host failed),\n"
"4 (a host was unreachable) and 8 (changes pending with --check\n"
"--detailed-exitcode, or drift found). 130: interrupted (Ctrl-C).\n";

static void
print_usage(FILE *fp)
{
	size_t i;

	fputs("usage: tcptune <command> [options] [args]\n\nCommands:\n", fp);
	for (i = 0; cmd_table[i] != NULL; i++) {
		const struct cmd_entry *c = cmd_table[i];
		char *left = xprintf("%s %s", c->name, c->usage);

		if (strlen(left) > 32)
			fprintf(fp, "  %s\n  %-32s %s\n", left, "", c->summary);
		else
			fprintf(fp, "  %-32s %s\n", left, c->summary);
		free(left);
	}
	fputc('\n', fp);
	fputs(usage_options, fp);
}

static int
cmd_help_exec(struct options *opts)
{
	(void)opts;
	print_usage(stdout);
	return 0;
}

const struct cmd_entry cmd_help_entry = {
	.name = "help",
	.usage = "",
	.summary = "show this help",
	.min_args = 0,
	.max_args = -1,
	.exec = cmd_help_exec,
};

static int
cmd_version_exec(struct options *opts)
{
	(void)opts;
	printf("tcptune %s\n", TCPTUNE_VERSION);
	return 0;
}

const struct cmd_entry cmd_version_entry = {
	.name = "version",
	.usage = "",
	.summary = "print the version",
	.min_args = 0,
	.max_args = 0,
	.exec = cmd_version_exec,
};

static const struct cmd_entry *
cmd_find(const char *name)
{
	size_t i;

	for (i = 0; cmd_table[i] != NULL; i++) {
		if (strcmp(cmd_table[i]->name, name) == 0 ||
		    (cmd_table[i]->alias != NULL &&
		    strcmp(cmd_table[i]->alias, name) == 0))
			return cmd_table[i];
	}
	return NULL;
}

/* "unknown option '--chek' (did you mean '--check'?)": the closest long
 * option by edit distance, the value of "--opt=value" left out. */
static void
unknown_option(const char *arg)
{
	const char	*names[sizeof long_options / sizeof long_options[0]];
	const char	*best, *word = arg;
	char		*bare;
	size_t		 n;

	while (*word == '-')
		word++;
	bare = xstrndup(word, strcspn(word, "="));
	for (n = 0; long_options[n].name != NULL; n++)
		names[n] = long_options[n].name;
	if (strncmp(arg, "--", 2) == 0 && *bare != '\0' &&
	    (best = did_you_mean(bare, names, n)) != NULL)
		cmd_error("unknown option '%s' (did you mean '--%s'?)", arg,
		    best);
	else
		cmd_error("unknown option '%s' (see 'tcptune help')", arg);
	free(bare);
}

/* "unknown command 'plya' (did you mean 'play'?)". */
static int
unknown_command(const char *name)
{
	const char	*names[2 * (sizeof cmd_table / sizeof cmd_table[0])];
	const char	*best;
	size_t		 i, n = 0;

	for (i = 0; cmd_table[i] != NULL; i++) {
		names[n++] = cmd_table[i]->name;
		if (cmd_table[i]->alias != NULL)
			names[n++] = cmd_table[i]->alias;
	}
	if ((best = did_you_mean(name, names, n)) != NULL)
		return cmd_error("unknown command '%s' (did you mean '%s'?)",
		    name, best);
	return cmd_error("unknown command '%s' (see 'tcptune help')", name);
}

static int
parse_int_arg(const char *opt, const char *arg, int min, int max, int *out)
{
	char *end;
	long v;

	v = strtol(arg, &end, 10);
	if (*arg == '\0' || *end != '\0' || v < min || v > max)
		return cmd_error("invalid value '%s' for %s (expected %d..%d)",
		    arg, opt, min, max);
	*out = (int)v;
	return 0;
}

static void
push(char ***list, size_t *n, char *item)
{
	*list = xreallocarray(*list, *n + 1, sizeof **list);
	(*list)[(*n)++] = item;
}

/* Reject a command-specific option the command does not take. */
static int
needs(const struct cmd_entry *cmd, int bit, const char *opt)
{
	if (cmd != NULL && (cmd->accepts & bit) == 0)
		return cmd_error("option '%s' does not apply to '%s'", opt,
		    cmd->name);
	return 0;
}

static int
parse_options(int argc, char **argv, const struct cmd_entry *cmd,
    struct options *o)
{
	int c;

	opterr = 0;
	optind = 0;	/* GNU getopt: re-initialise for each round */
	while ((c = getopt_long(argc, argv, "+:i:l:f:e:u:bvCDt:hJKV", long_options,
	    NULL)) != -1) {
		switch (c) {
		case 'i': push(&o->inventories, &o->ninventories, optarg); break;
		case 'l': o->limit = optarg; break;
		case 'f':
			if (parse_int_arg("--forks", optarg, 1, 1000,
			    &o->forks) != 0)
				return -1;
			break;
		case 'e': push(&o->extra_vars, &o->nextra_vars, optarg); break;
		case 'u': o->user = optarg; break;
		case OPTV_PRIVATE_KEY: o->private_key = optarg; break;
		case 'b': o->become = 1; break;
		case OPTV_FORMAT:
			if (strcmp(optarg, "text") == 0)
				o->format = FORMAT_TEXT;
			else if (strcmp(optarg, "json") == 0)
				o->format = FORMAT_JSON;
			else if (strcmp(optarg, "jsonl") == 0) {
				if (needs(cmd, OPT_STREAM, "--format jsonl"))
					return -1;
				o->format = FORMAT_JSONL;
			} else {
				cmd_error("invalid --format '%s' (expected "
				    "text, json or jsonl)", optarg);
				return -1;
			}
			break;
		case 'v': o->verbose++; break;
		case OPTV_NO_COLOR: o->color = 0; break;
		case OPTV_TIMEOUT:
			if (parse_int_arg("--timeout", optarg, 1, 3600,
			    &o->timeout) != 0)
				return -1;
			break;
		case OPTV_COMMAND_TIMEOUT:
			if (parse_int_arg("--command-timeout", optarg, 1, 86400,
			    &o->command_timeout) != 0)
				return -1;
			break;
		case OPTV_SSH_CONFIG: o->ssh_config = optarg; break;
		case OPTV_KNOWN_HOSTS: o->known_hosts = optarg; break;
		case OPTV_HOST_KEY_CHECKING:
			if (strcmp(optarg, "strict") != 0 &&
			    strcmp(optarg, "accept-new") != 0 &&
			    strcmp(optarg, "off") != 0) {
				cmd_error("invalid --host-key-checking '%s' "
				    "(expected strict, accept-new or off)",
				    optarg);
				return -1;
			}
			o->host_key_checking = optarg;
			break;
		case 'C':
			if (needs(cmd, OPT_CHECK, "--check") != 0)
				return -1;
			o->check = 1;
			break;
		case 'D':
			if (needs(cmd, OPT_CHECK, "--diff") != 0)
				return -1;
			o->diff = 1;
			break;
		case OPTV_DETAILED_EXITCODE:
			if (needs(cmd, OPT_CHECK, "--detailed-exitcode") != 0)
				return -1;
			o->detailed_exitcode = 1;
			break;
		case OPTV_LIST:
			if (needs(cmd, OPT_INVENTORY_VIEW, "--list") != 0)
				return -1;
			o->list = 1;
			break;
		case OPTV_HOST:
			if (needs(cmd, OPT_INVENTORY_VIEW, "--host") != 0)
				return -1;
			o->host = optarg;
			break;
		case OPTV_GRAPH:
			if (needs(cmd, OPT_INVENTORY_VIEW, "--graph") != 0)
				return -1;
			o->graph = 1;
			break;
		case 't':
			if (needs(cmd, OPT_TAGS, "--tags") != 0)
				return -1;
			o->tags = optarg;
			break;
		case OPTV_SKIP_TAGS:
			if (needs(cmd, OPT_TAGS, "--skip-tags") != 0)
				return -1;
			o->skip_tags = optarg;
			break;
		case OPTV_PROMETHEUS:
			/* drift's series, or play/verify's path matrix */
			if (needs(cmd, OPT_REPORT | OPT_MATRIX,
			    "--prometheus") != 0)
				return -1;
			o->prometheus = optarg;
			break;
		case OPTV_WEBHOOK:
			if (needs(cmd, OPT_REPORT, "--webhook") != 0)
				return -1;
			o->webhook = optarg;
			break;
		case OPTV_VAULT_PASSWORD_FILE:
			push(&o->vault_password_files,
			    &o->nvault_password_files, optarg);
			break;
		case OPTV_VAULT_ID:
			push(&o->vault_ids, &o->nvault_ids, optarg);
			break;
		case 'J': o->ask_vault_pass = 1; break;
		case 'K': o->ask_become_pass = 1; break;
		case OPTV_BECOME_USER: o->become_user = optarg; break;
		case OPTV_LIST_HOSTS:
			if (needs(cmd, OPT_LOOK, "--list-hosts") != 0)
				return -1;
			o->list_hosts = 1;
			break;
		case OPTV_LIST_TASKS:
			if (needs(cmd, OPT_LOOK, "--list-tasks") != 0)
				return -1;
			o->list_tasks = 1;
			break;
		case OPTV_START_AT_TASK:
			if (needs(cmd, OPT_LOOK, "--start-at-task") != 0)
				return -1;
			o->start_at_task = optarg;
			break;
		case OPTV_COLOR:
			if (strcmp(optarg, "auto") != 0 &&
			    strcmp(optarg, "always") != 0 &&
			    strcmp(optarg, "never") != 0) {
				cmd_error("invalid --color '%s' (expected "
				    "auto, always or never)", optarg);
				return -1;
			}
			o->color_when = optarg;
			break;
		case OPTV_LOG_FILE: o->log_file = optarg; break;
		case OPTV_REPORT:
			if (needs(cmd, OPT_MATRIX, "--report") != 0)
				return -1;
			o->report_file = optarg;
			break;
		case 'h':
			print_usage(stdout);
			exit(0);
		case 'V':
			printf("tcptune %s\n", TCPTUNE_VERSION);
			exit(0);
		case ':':
			cmd_error("option '%s' needs a value", argv[optind - 1]);
			return -1;
		default:
			unknown_option(argv[optind - 1]);
			return -1;
		case 1:
			break;
		}
	}
	return 0;
}

/*
 * Options may come before or after positional arguments, as with
 * ansible-playbook: parse in rounds, taking one positional argument
 * whenever getopt stops on one. The positional ones go to opts->args.
 */
static int
parse_command_line(int argc, char **argv, const struct cmd_entry *cmd,
    struct options *opts)
{
	int	 sub_argc = argc - 1, i;
	char	**sub_argv = argv + 1;

	opts->args = xcalloc((size_t)argc, sizeof *opts->args);
	while (sub_argc > 0) {
		if (parse_options(sub_argc, sub_argv, cmd, opts) != 0)
			return -1;
		sub_argc -= optind;
		sub_argv += optind;
		if (sub_argc > 0 && strcmp(sub_argv[-1], "--") == 0) {
			for (i = 0; i < sub_argc; i++)
				opts->args[opts->nargs++] = sub_argv[i];
			break;
		}
		if (sub_argc > 0) {
			opts->args[opts->nargs++] = sub_argv[0];
			/* make sub_argv[0] act as argv[0] next round */
		}
	}
	if (opts->nargs < cmd->min_args ||
	    (cmd->max_args >= 0 && opts->nargs > cmd->max_args))
		return cmd_error("usage: tcptune %s %s", cmd->name, cmd->usage);
	return 0;
}

/* Everything but help and version reads ansible.cfg and ANSIBLE_*, as
 * every Ansible command does: help must work in a broken project too. */
static int
resolve_settings(const struct cmd_entry *cmd, struct options *opts,
    struct settings *settings)
{
	char *cause = NULL;

	if (cmd == &cmd_help_entry || cmd == &cmd_version_entry)
		return 0;
	if (settings_resolve(settings, opts, &cause) != 0) {
		cmd_error("%s", cause);
		free(cause);
		return -1;
	}
	if (settings->warning != NULL)
		fprintf(stderr, "tcptune: warning: %s\n", settings->warning);
	return 0;
}

int
main(int argc, char **argv)
{
	struct options			 opts;
	struct settings			 settings;
	const struct cmd_entry		*cmd;
	int				 r = EXIT_COULD_NOT_RUN;

	/* Zero means "not on the command line" (cmd.h): the defaults are
	 * settings.c's, below the environment and ansible.cfg. */
	memset(&opts, 0, sizeof opts);
	memset(&settings, 0, sizeof settings);
	opts.color = isatty(STDOUT_FILENO);
	if (getenv("NO_COLOR") != NULL)
		opts.color = 0;

	if (argc < 2) {
		print_usage(stderr);
		return EXIT_COULD_NOT_RUN;
	}
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
		print_usage(stdout);
		return 0;
	}
	if (strcmp(argv[1], "-V") == 0 || strcmp(argv[1], "--version") == 0) {
		printf("tcptune %s\n", TCPTUNE_VERSION);
		return 0;
	}
	if ((cmd = cmd_find(argv[1])) == NULL)
		return unknown_command(argv[1]);
	if (parse_command_line(argc, argv, cmd, &opts) == 0 &&
	    resolve_settings(cmd, &opts, &settings) == 0)
		r = cmd->exec(&opts);
	free(opts.args);
	free(opts.inventories);
	free(opts.extra_vars);
	free(opts.vault_password_files);
	free(opts.vault_ids);
	settings_free(&settings);
	return r;
}
