/* command: run a command on the host. */
#include "playbook/module.h"

#include <stddef.h>
#include <stdlib.h>

#include "base/xalloc.h"

struct command_conf {
	struct module_conf	 hdr;
	const char		*cmd;
	int			 safe;
	long long		 expect_rc;
};

#define AT(field)	offsetof(struct command_conf, field)

static const struct module_param command_params[] = {
	{ .name = "cmd", .type = PARAM_STR, .offset = AT(cmd), .required = 1,
	  .host_line = HOSTLINE_SHELL,
	  .help = "shell command line to run; each {{ }} in it is quoted as "
		  "one shell word" },
	{ .name = "safe", .type = PARAM_BOOL, .offset = AT(safe),
	  .def = "false",
	  .help = "the command only reads: run it in check mode too, and "
		  "report ok rather than changed" },
	{ .name = "expect_rc", .type = PARAM_INT, .offset = AT(expect_rc),
	  .def = "0", .min = 0, .max = 255,
	  .help = "exit status that means success" },
	{ .name = NULL },
};

static int command_run(struct module_ctx *, const void *,
    struct module_result *);

/* Check mode: only a command the play marks as read-only runs. */
static int
command_plan(struct module_ctx *ctx, const void *vconf,
    struct module_result *res)
{
	const struct command_conf *conf = vconf;

	if (!conf->safe) {
		res->status = RESULT_SKIPPED;
		res->msg = xstrdup("skipped in check mode (mark it safe: true "
		    "if it only reads)");
		return 0;
	}
	return command_run(ctx, conf, res);
}

static int
command_run(struct module_ctx *ctx, const void *vconf,
    struct module_result *res)
{
	const struct command_conf *conf = vconf;
	const char		*cmd = conf->cmd;
	int			 safe = conf->safe;
	int			 expect = (int)conf->expect_rc;
	struct tp_result	 out;
	enum tp_status		 st;
	char			*cause = NULL, *env, *full;

	/* The command is the play author's own shell text, like Ansible's
	 * shell module; every template value in it was quoted as one word
	 * when it was rendered (HOSTLINE_SHELL), so an inventory value is
	 * data to the shell, never code. */
	/* the task's environment, before its text (Ansible's environment
	 * keyword): each value one quoted word */
	if ((env = module_ctx_environment(ctx, &cause)) == NULL) {
		res->status = RESULT_FAILED;
		res->msg = cause;
		return 0;
	}
	full = xprintf("%s%s", env, cmd);
	free(env);
	st = module_ctx_exec(ctx, full, NULL, 0, 0, &out, &cause);
	free(full);
	if (st != TP_OK) {
		module_result_transport_failed(res, st, cause);
		tp_result_clear(&out);
		return 0;
	}
	res->data = json_pack("{s:i, s:s%, s:s%}", "rc", out.exit_status,
	    "stdout", out.out, out.out_len, "stderr", out.err, out.err_len);
	if (out.exit_status != expect) {
		res->status = RESULT_FAILED;
		res->msg = xprintf("exit %d (expected %d): %.200s",
		    out.exit_status, expect, out.err_len > 0 ? out.err :
		    out.out);
	} else {
		res->status = safe ? RESULT_OK : RESULT_CHANGED;
		res->msg = xprintf("exit %d", out.exit_status);
	}
	tp_result_clear(&out);
	return 0;
}

const struct module mod_command = {
	.name = "command",
	.summary = "run a shell command (skipped in check mode unless safe)",
	.params = command_params,
	.conf_size = sizeof(struct command_conf),
	.run = command_run,
	.plan = command_plan,
};
