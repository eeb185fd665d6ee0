/* tcptune: parse global options once, then dispatch through cmd_table. */
#include <sys/resource.h>

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "help.h"
#include "runlog.h"
#include "say.h"
#include "playbook/playbook.h"
#include "settings.h"
#include "base/xalloc.h"
#include "modules/tune-confirm.h"
#include "report/message.h"
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

/* Found by name but listed nowhere: what the build (man pages, README's
 * usage block) and the shell completion ask the binary (doc.c,
 * complete.c). */
extern const struct cmd_entry cmd_doc_entry;
extern const struct cmd_entry cmd_complete_entry;

static const struct cmd_entry *const cmd_hidden_table[] = {
	&cmd_doc_entry,
	&cmd_complete_entry,
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
	OPTV_CONFIRM_TIMEOUT,
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
	{ "confirm-timeout", required_argument, NULL, OPTV_CONFIRM_TIMEOUT },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

/* The version, or for a fleet's tooling one JSON object (json and jsonl
 * alike: a single line). */
static int
cmd_version_exec(struct options *opts)
{
	if (opts->format == FORMAT_TEXT)
		printf("tcptune %s\n", TCPTUNE_VERSION);
	else
		printf("{\"schema\": 1, \"version\": \"%s\"}\n",
		    TCPTUNE_VERSION);
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
cmd_find_in(const struct cmd_entry *const *table, const char *name)
{
	size_t i;

	for (i = 0; table[i] != NULL; i++) {
		if (strcmp(table[i]->name, name) == 0 ||
		    (table[i]->alias != NULL &&
		    strcmp(table[i]->alias, name) == 0))
			return table[i];
	}
	return NULL;
}

const struct cmd_entry *
cmd_find(const char *name)
{
	const struct cmd_entry *cmd;

	if ((cmd = cmd_find_in(cmd_table, name)) == NULL)
		cmd = cmd_find_in(cmd_hidden_table, name);
	return cmd;
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
int
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
		case OPTV_NO_COLOR: o->color_when = "never"; break;
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
		case OPTV_CONFIRM_TIMEOUT:
			if (needs(cmd, OPT_CONFIRM, "--confirm-timeout") != 0 ||
			    parse_int_arg("--confirm-timeout", optarg, 0,
			    CONFIRM_TIMEOUT_MAX, &o->confirm_timeout) != 0)
				return -1;
			/* A new connection needs some time to get through. */
			if (o->confirm_timeout > 0 &&
			    o->confirm_timeout < CONFIRM_TIMEOUT_MIN)
				return cmd_error("invalid value '%s' for "
				    "--confirm-timeout (expected 0 for off, or "
				    "%d..%d)", optarg, CONFIRM_TIMEOUT_MIN,
				    CONFIRM_TIMEOUT_MAX);
			o->confirm_timeout_given = 1;
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
			help_print_command(cmd, stdout);
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

/* "play takes 1 argument, not 0", the command's usage and its help. */
static int
wrong_arg_count(const struct cmd_entry *cmd, int n)
{
	if (cmd->max_args == cmd->min_args)
		return say_usage(cmd, "%s takes %d argument%s, not %d",
		    cmd->name, cmd->min_args, cmd->min_args == 1 ? "" : "s",
		    n);
	if (cmd->max_args < 0)
		return say_usage(cmd, "%s takes at least %d argument%s, not "
		    "%d", cmd->name, cmd->min_args, cmd->min_args == 1 ?
		    "" : "s", n);
	return say_usage(cmd, "%s takes %d to %d arguments, not %d",
	    cmd->name, cmd->min_args, cmd->max_args, n);
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
		return wrong_arg_count(cmd, opts->nargs);
	return 0;
}

/* Everything but help, version and __doc reads ansible.cfg and
 * ANSIBLE_*, as every Ansible command does: help must work in a broken
 * project too, and the generated documents must not depend on it. */
static int
resolve_settings(const struct cmd_entry *cmd, struct options *opts,
    struct settings *settings)
{
	char *cause = NULL;

	if (cmd == &cmd_help_entry || cmd == &cmd_version_entry ||
	    cmd == &cmd_doc_entry)
		return 0;
	if (settings_resolve(settings, opts, &cause) != 0) {
		cmd_error("%s", cause);
		free(cause);
		return -1;
	}
	if (settings->warning != NULL)
		say_warning(NULL, "%s", settings->warning);
	playbook_set_roles_path(opts->roles_path);
	return 0;
}

/* After the settings, before the command contacts anything: colour, the
 * -v level, and the run log (--log-file, TCPTUNE_LOG_FILE, log_path),
 * whose failure to open stops the command. `config` writes no log (it is
 * where a bad log_path is looked into), nor do help and version. */
static int
start_output(const struct cmd_entry *cmd, struct options *opts, int argc,
    char **argv)
{
	char *cause = NULL;

	if (opts->color_when == NULL && opts->cfg_force_color)
		opts->color_when = "always";
	else if (opts->color_when == NULL && opts->cfg_nocolor)
		opts->color_when = "never";
	opts->color = message_color_wanted(opts->color_when,
	    isatty(STDOUT_FILENO), getenv("NO_COLOR"));
	say_setup(opts);
	if (opts->log_file == NULL || cmd == &cmd_config_entry ||
	    cmd == &cmd_help_entry || cmd == &cmd_version_entry)
		return 0;
	if (runlog_open(opts->log_file, argc, argv, &cause) != 0) {
		cmd_error("%s", cause);
		free(cause);
		return -1;
	}
	return 0;
}

/* One connection is one descriptor, and a run holds up to 2 x --forks of
 * them (run/conn-pool.c): the soft limit (1024 by default on most systems)
 * would make -f 1000 fail hosts with "Too many open files", where the hard
 * limit (what the administrator allows) does not. Raised once at start, for
 * the whole run (nothing here uses select(2), so descriptors past 1024 are
 * fine). */
static void
raise_nofile(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur >= rl.rlim_max)
		return;
	rl.rlim_cur = rl.rlim_max;
	(void)setrlimit(RLIMIT_NOFILE, &rl);
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
	raise_nofile();

	if (argc < 2) {
		help_print_global(stderr);
		return EXIT_COULD_NOT_RUN;
	}
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
		help_print_global(stdout);
		return 0;
	}
	if (strcmp(argv[1], "-V") == 0 || strcmp(argv[1], "--version") == 0) {
		printf("tcptune %s\n", TCPTUNE_VERSION);
		return 0;
	}
	if ((cmd = cmd_find(argv[1])) == NULL)
		return unknown_command(argv[1]);
	if (parse_command_line(argc, argv, cmd, &opts) == 0 &&
	    resolve_settings(cmd, &opts, &settings) == 0 &&
	    start_output(cmd, &opts, argc, argv) == 0)
		r = cmd->exec(&opts);
	runlog_close(r);
	free(opts.args);
	free(opts.inventories);
	free(opts.extra_vars);
	free(opts.vault_password_files);
	free(opts.vault_ids);
	settings_free(&settings);
	return r;
}
