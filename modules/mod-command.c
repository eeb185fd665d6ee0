/* command and shell: run a command on the host, as Ansible's command
 * module (shell is the same module with _uses_shell): chdir, creates and
 * removes decided on the host by a guard that runs first, in the same
 * round trip (lib/remote/command.sh), argv run as words no shell reads,
 * stdin given to the command, and the module's return keys
 * (modules/command-result.c). In check mode only the guard runs: the
 * command is skipped, unless creates or removes decide (then ok or
 * changed, as the module says) or the play marks it safe (tcptune's: it
 * only reads, so it runs in check mode too and reports ok). */
#include "playbook/module.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include "base/shlex.h"
#include "base/shquote.h"
#include "base/strbuf.h"
#include "base/util.h"
#include "base/xalloc.h"
#include "modules/command-result.h"
#include "remote/command.h"

struct command_conf {
	struct module_conf	 hdr;
	const char		*cmd;
	const json_t		*argv;
	const char		*chdir;
	const char		*creates;
	const char		*removes;
	const char		*stdin_text;
	int			 stdin_add_newline;
	int			 strip_empty_ends;
	const char		*executable;
	int			 safe;
	long long		 expect_rc;
};

#define AT(field)	offsetof(struct command_conf, field)

#define COMMON_PARAMS \
	{ .name = "argv", .type = PARAM_LIST, .offset = AT(argv), \
	  .help = "the command as a list of words, run without a shell " \
		  "(not with cmd)" }, \
	{ .name = "chdir", .type = PARAM_STR, .offset = AT(chdir), \
	  .help = "directory to run in (creates and removes are relative " \
		  "to it)" }, \
	{ .name = "creates", .type = PARAM_STR, .offset = AT(creates), \
	  .help = "a glob: when a path matches it, the command is not run" }, \
	{ .name = "removes", .type = PARAM_STR, .offset = AT(removes), \
	  .help = "a glob: when no path matches it, the command is not " \
		  "run" }, \
	{ .name = "stdin", .type = PARAM_STR, .offset = AT(stdin_text), \
	  .help = "text given to the command on its standard input" }, \
	{ .name = "stdin_add_newline", .type = PARAM_BOOL, \
	  .offset = AT(stdin_add_newline), .def = "true", \
	  .help = "add a newline to stdin" }, \
	{ .name = "strip_empty_ends", .type = PARAM_BOOL, \
	  .offset = AT(strip_empty_ends), .def = "true", \
	  .help = "strip the trailing newlines of stdout and stderr" }, \
	{ .name = "safe", .type = PARAM_BOOL, .offset = AT(safe), \
	  .def = "false", \
	  .help = "the command only reads: run it in check mode too, and " \
		  "report ok rather than changed (tcptune's)" }, \
	{ .name = "expect_rc", .type = PARAM_INT, .offset = AT(expect_rc), \
	  .def = "0", .min = 0, .max = 255, \
	  .help = "exit status that means success (tcptune's)" }

static const struct module_param command_params[] = {
	{ .name = "cmd", .type = PARAM_STR, .offset = AT(cmd),
	  .host_line = HOSTLINE_ARGV_TEXT,
	  .help = "the command line, split into words as shlex.split does "
		  "and run without a shell, as Ansible's command module" },
	COMMON_PARAMS,
	{ .name = "executable", .type = PARAM_STR, .offset = AT(executable),
	  .help = "ignored, as the command module ignores it (shell's)" },
	{ .name = NULL },
};

static const struct module_param shell_params[] = {
	{ .name = "cmd", .type = PARAM_STR, .offset = AT(cmd),
	  .host_line = HOSTLINE_SHELL,
	  .help = "the shell text, run by /bin/sh (or executable); each {{ "
		  "}} in it is quoted as one shell word" },
	COMMON_PARAMS,
	{ .name = "executable", .type = PARAM_STR, .offset = AT(executable),
	  .help = "the shell to run the text with, as EXECUTABLE -c TEXT "
		  "(default /bin/sh)" },
	{ .name = NULL },
};

static int
command_validate(const void *vconf, char **cause)
{
	const struct command_conf *c = vconf;
	int has_cmd = c->cmd != NULL && c->cmd[strspn(c->cmd, " \t\n")] != '\0';

	if (!has_cmd && (c->argv == NULL || json_array_size(c->argv) == 0))
		return fail(cause, "no command given");
	if (has_cmd && c->argv != NULL)
		return fail(cause, "only command or argv can be given, not "
		    "both");
	return 0;
}

/* argv's items as one word each (a number or a boolean as its text). */
static int
argv_words(const json_t *argv, json_t **cmd, struct strbuf *sb,
    char **cause)
{
	const json_t	*v;
	size_t		 i;
	char		*w;

	*cmd = json_array();
	json_array_foreach(argv, i, v) {
		if (json_is_string(v))
			w = xstrdup(json_string_value(v));
		else if (json_is_integer(v))
			w = xprintf("%lld", (long long)json_integer_value(v));
		else if (json_is_boolean(v))
			w = xstrdup(json_is_true(v) ? "True" : "False");
		else {
			json_decref(*cmd);
			return fail(cause, "argv[%zu]: a word must be a "
			    "string, got %s", i, json_is_object(v) ?
			    "a mapping" : "a list");
		}
		if (i > 0)
			strbuf_addch(sb, ' ');
		command_word_add(sb, w);
		json_array_append_new(*cmd, json_string(w));
		free(w);
	}
	return 0;
}

/* A command task's free-form text as Ansible's command module makes it:
 * shlex.split's words (base/shlex.h), each appended to sb as one word
 * (command_word_add: $VAR and ~ expanded as run_command does, nothing
 * else) and to *cmd, the module's `cmd` key. -1 with *cause when the
 * text cannot be split (Python's ValueError). */
static int
text_words(const char *text, json_t **cmd, struct strbuf *sb, char **cause)
{
	char		**words = NULL;
	const char	 *err;
	size_t		  n = 0, i;

	if (shlex_split(text, 0, &words, &n, &err) != 0) {
		*cmd = NULL;
		return fail(cause, "cmd: %s (as shlex.split)", err);
	}
	*cmd = json_array();
	for (i = 0; i < n; i++) {
		if (i > 0)
			strbuf_addch(sb, ' ');
		command_word_add(sb, words[i]);
		json_array_append_new(*cmd, json_string(words[i]));
	}
	names_free(words, n);
	return 0;
}

/* The task's words (argv or the free form's) appended to sb, its `cmd`
 * key in *cmd. */
static int
command_words(const struct command_conf *c, json_t **cmd, struct strbuf *sb,
    char **cause)
{
	if (c->argv != NULL)
		return argv_words(c->argv, cmd, sb, cause);
	return text_words(c->cmd, cmd, sb, cause);
}

static double
now(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

static int
command_task(struct module_ctx *ctx, const struct command_conf *c, int shell,
    struct module_result *res)
{
	struct command_guard	 g = { c->chdir, c->creates, c->removes };
	struct command_outcome	 o;
	struct tp_result	 out;
	struct strbuf		 body;
	enum tp_status		 st;
	json_t			*cmd = NULL;
	char			*cause = NULL, *env, *line, *in = NULL;
	char			*start = NULL, *end = NULL, *delta = NULL;
	size_t			 off = 0, in_len = 0;
	int			 run = !module_ctx_check(ctx) || c->safe;
	int			 guarded = command_guard_wanted(&g);
	double			 t0, t1;

	memset(&o, 0, sizeof o);
	memset(&out, 0, sizeof out);
	/* again after rendering: a template may have emptied the command */
	if (command_validate(c, &cause) != 0) {
		res->status = RESULT_FAILED;
		res->msg = cause;
		res->data = json_pack("{s:i, s:s}", "rc", 256, "msg", cause);
		return 0;
	}
	/* In check mode without a guard or safe nothing is sent. */
	if (!run && !guarded) {
		if (shell)
			cmd = json_string(c->cmd);
		else {
			strbuf_init(&body);
			if (command_words(c, &cmd, &body, &cause) != 0)
				cmd = NULL;
			free(cause);
			strbuf_release(&body);
		}
		goto decided;
	}
	/* The task's environment first (Ansible's environment keyword),
	 * each value one quoted word. A command's words (argv, or its text
	 * split as shlex.split does) are each one quoted word, so the login
	 * shell runs exactly Ansible's argv and reads nothing in them; a
	 * shell task's text is the play author's own shell text, every
	 * template value in it quoted as one word when it was rendered
	 * (HOSTLINE_SHELL), so an inventory value is data to the shell,
	 * never code. */
	if ((env = module_ctx_environment(ctx, &cause)) == NULL) {
		res->status = RESULT_FAILED;
		res->msg = cause;
		return 0;
	}
	strbuf_init(&body);
	if (run)
		strbuf_addstr(&body, env);
	free(env);
	if (shell) {
		cmd = json_string(c->cmd);
		if (run) {
			/* Ansible runs it as [executable or /bin/sh, -c,
			 * text] */
			shquote_add(&body, c->executable != NULL &&
			    c->executable[0] != '\0' ? c->executable :
			    "/bin/sh");
			strbuf_addstr(&body, " -c ");
			shquote_add(&body, c->cmd);
		}
	} else {
		struct strbuf words;

		strbuf_init(&words);
		if (command_words(c, &cmd, &words, &cause) != 0) {
			strbuf_release(&words);
			strbuf_release(&body);
			res->status = RESULT_FAILED;
			res->msg = cause;
			res->data = json_pack("{s:i, s:s}", "rc", 256, "msg",
			    cause);
			return 0;
		}
		if (run)
			strbuf_addstr(&body, words.buf);
		strbuf_release(&words);
	}
	line = guarded ? command_guarded_line(&g, body.buf) :
	    strbuf_detach(&body, NULL);
	if (guarded)
		strbuf_release(&body);
	if (run && c->stdin_text != NULL) {
		in = xprintf("%s%s", c->stdin_text, c->stdin_add_newline ?
		    "\n" : "");
		in_len = strlen(in);
	}
	t0 = now();
	st = module_ctx_exec(ctx, line, in, in_len, 0, &out, &cause);
	t1 = now();
	free(line);
	free(in);
	if (st != TP_OK) {
		module_result_transport_failed(res, st, cause);
		tp_result_clear(&out);
		json_decref(cmd);
		return 0;
	}
	o.said = COMMAND_RAN;
	if (guarded && command_guard_parse(out.out, out.out_len, &o.said,
	    &o.err_no, &off, &cause) != 0) {
		module_result_unparsed(res, cause, &out);
		tp_result_clear(&out);
		json_decref(cmd);
		return 0;
	}
	if (o.said == COMMAND_RAN && run) {
		o.rc = out.exit_status;
		o.out = out.out + off;
		o.out_len = out.out_len - off;
		o.err = out.err;
		o.err_len = out.err_len;
		start = command_time_text(t0);
		end = command_time_text(t1);
		delta = command_delta_text(t1 - t0);
	}
decided:
	o.check = !run;
	o.strip = c->strip_empty_ends;
	o.expect_rc = (int)c->expect_rc;
	o.chdir = c->chdir;
	o.creates = c->creates;
	o.removes = c->removes;
	o.cmd = cmd;
	o.start = start;
	o.end = end;
	o.delta = delta;
	res->status = command_result(&o, &res->data, &res->msg);
	if (res->status == RESULT_CHANGED && c->safe)
		res->status = RESULT_OK;
	free(start);
	free(end);
	free(delta);
	json_decref(cmd);
	tp_result_clear(&out);
	return 0;
}

static int
command_run(struct module_ctx *ctx, const void *conf,
    struct module_result *res)
{
	return command_task(ctx, conf, 0, res);
}

static int
shell_run(struct module_ctx *ctx, const void *conf,
    struct module_result *res)
{
	return command_task(ctx, conf, 1, res);
}

static const char *const command_aliases[] = { "ansible.builtin.command",
	"ansible.legacy.command", NULL };
static const char *const shell_aliases[] = { "ansible.builtin.shell",
	"ansible.legacy.shell", NULL };

const struct module mod_command = {
	.name = "command",
	.aliases = command_aliases,
	.summary = "run a command (creates, removes, chdir, argv, stdin; "
	    "skipped in check mode unless creates/removes decide or safe)",
	.params = command_params,
	.conf_size = sizeof(struct command_conf),
	.validate = command_validate,
	.run = command_run,
	.plan = command_run,
};

const struct module mod_shell = {
	.name = "shell",
	.aliases = shell_aliases,
	.summary = "run shell text with /bin/sh (creates, removes, chdir, "
	    "stdin, executable; check mode as command)",
	.params = shell_params,
	.conf_size = sizeof(struct command_conf),
	.validate = command_validate,
	.run = shell_run,
	.plan = shell_run,
};
