/* reboot: reboot the host and wait for it, as Ansible's action plugin
 * (ansible/plugins/action/reboot.py, 2.14): read its boot_id, run the
 * reboot command, wait (reboot_timeout, the plugin's backoff,
 * modules/wait-loop.c) until the host answers with another boot_id, then
 * until test_command succeeds. Never on the controller's own kernel: a
 * host whose boot_id is the controller's is refused before anything is
 * run (modules/reboot.h). In check mode nothing is run and the result is
 * the plugin's: changed, rebooted, elapsed 0. */
#include "playbook/module.h"
#include "modules/reboot.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/shquote.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "modules/wait-loop.h"

#define BOOT_ID_PATH	"/proc/sys/kernel/random/boot_id"

struct reboot_conf {
	struct module_conf	 hdr;
	long long		 reboot_timeout, connect_timeout;
	long long		 pre_reboot_delay, post_reboot_delay;
	const char		*msg;
	const char		*test_command;
	const char		*reboot_command;
};

#define AT(f)	offsetof(struct reboot_conf, f)

static const struct module_param reboot_params[] = {
	{ .name = "reboot_timeout", .type = PARAM_INT,
	  .offset = AT(reboot_timeout), .def = "600", .min = 1, .max = 86400,
	  .help = "seconds to wait for the new boot, and again for "
	  "test_command" },
	{ .name = "connect_timeout", .type = PARAM_INT,
	  .offset = AT(connect_timeout), .def = "10", .min = 1, .max = 3600,
	  .help = "seconds one try may take to connect" },
	{ .name = "pre_reboot_delay", .type = PARAM_INT,
	  .offset = AT(pre_reboot_delay), .def = "0", .min = 0,
	  .max = 86400, .help = "seconds before the reboot (shutdown's "
	  "minutes: this // 60)" },
	{ .name = "post_reboot_delay", .type = PARAM_INT,
	  .offset = AT(post_reboot_delay), .def = "0", .min = 0,
	  .max = 86400, .help = "seconds to wait after the reboot, before "
	  "the checks" },
	{ .name = "msg", .type = PARAM_STR, .offset = AT(msg),
	  .def = "Reboot initiated by Ansible",
	  .help = "the message shutdown shows users" },
	{ .name = "test_command", .type = PARAM_STR,
	  .offset = AT(test_command), .def = "whoami",
	  .host_line = HOSTLINE_SHELL,
	  .help = "a command that succeeds once the host is up" },
	{ .name = "reboot_command", .type = PARAM_STR,
	  .offset = AT(reboot_command), .host_line = HOSTLINE_SHELL,
	  .help = "the command that reboots (default shutdown -r 0 MSG)" },
	{ .name = NULL },
};

int
reboot_guard(const char *host, const char *host_boot_id,
    const char *own_boot_id, char **cause)
{
	if (host_boot_id == NULL || strlen(host_boot_id) < 32)
		return fail(cause, "refusing to reboot %s: its boot_id (%s) "
		    "could not be read, so a reboot could not be told from "
		    "none, nor the host from this controller", host,
		    BOOT_ID_PATH);
	if (own_boot_id == NULL || own_boot_id[0] == '\0')
		return fail(cause, "refusing to reboot %s: this controller's "
		    "own boot_id (%s) could not be read, so the host cannot be "
		    "told from it", host, BOOT_ID_PATH);
	if (strcmp(host_boot_id, own_boot_id) == 0)
		return fail(cause, "refusing to reboot %s: its boot_id %s is "
		    "this controller's own, so it runs on this machine's "
		    "kernel (a namespace or a container) and a reboot would "
		    "reboot the controller", host, host_boot_id);
	return 0;
}

char *
reboot_command_line(const char *reboot_command, long long pre_delay,
    const char *msg)
{
	struct strbuf sb;

	if (reboot_command != NULL && reboot_command[0] != '\0')
		return xstrdup(reboot_command);
	strbuf_init(&sb);
	strbuf_addf(&sb, "shutdown -r %lld ", pre_delay / 60);
	shquote_add(&sb, msg != NULL ? msg : "");
	return strbuf_detach(&sb, NULL);
}

/* s without its trailing blanks and newlines, in place. */
static char *
chomp(char *s)
{
	size_t n = strlen(s);

	while (n > 0 && strchr(" \t\r\n", s[n - 1]) != NULL)
		s[--n] = '\0';
	return s;
}

static char *
own_boot_id(void)
{
	char	 buf[64];
	FILE	*f = fopen(BOOT_ID_PATH, "r");

	if (f == NULL)
		return NULL;
	if (fgets(buf, sizeof buf, f) == NULL)
		buf[0] = '\0';
	fclose(f);
	return xstrdup(chomp(buf));
}

/* The host's boot_id over its connection (reset first: the last one may
 * be the host that went down), or NULL with *err. */
static char *
host_boot_id(struct module_ctx *ctx, int timeout, int reset, char **err)
{
	struct tp_result	 tr;
	enum tp_status		 st;
	char			*id = NULL;

	if (reset)
		module_ctx_reset_connection(ctx);
	st = module_ctx_exec(ctx, "cat " BOOT_ID_PATH, NULL, 0, timeout, &tr,
	    err);
	if (st == TP_OK && tr.exit_status == 0 && tr.out != NULL)
		id = chomp(xstrndup(tr.out, tr.out_len));
	else if (st == TP_OK) {
		free(*err);
		*err = xprintf("cat %s: exit %d", BOOT_ID_PATH,
		    tr.exit_status);
	}
	tp_result_clear(&tr);
	return id;
}

struct boot_wait {
	struct module_ctx	*ctx;
	const struct reboot_conf *c;
	const char		*before;
};

static int
new_boot(void *arg, char **err)
{
	struct boot_wait	*w = arg;
	char			*id = host_boot_id(w->ctx,
	    (int)w->c->connect_timeout, 1, err);
	int			 r = -1;

	if (id != NULL && strcmp(id, w->before) == 0) {
		free(*err);
		*err = xstrdup("boot time has not changed");
	} else if (id != NULL)
		r = 0;
	free(id);
	return r;
}

static int
test_ok(void *arg, char **err)
{
	struct boot_wait	*w = arg;
	struct tp_result	 tr;
	enum tp_status		 st;
	int			 r = -1;

	st = module_ctx_exec(w->ctx, w->c->test_command, NULL, 0,
	    (int)w->c->connect_timeout, &tr, err);
	if (st == TP_OK && tr.exit_status == 0)
		r = 0;
	else if (st == TP_OK) {
		free(*err);
		*err = xprintf("Test command failed: %.*s %.*s",
		    (int)tr.err_len, tr.err != NULL ? tr.err : "",
		    (int)tr.out_len, tr.out != NULL ? tr.out : "");
	} else
		module_ctx_reset_connection(w->ctx);
	tp_result_clear(&tr);
	return r;
}

static void
reboot_failed(struct module_result *res, int rebooted, char *msg)
{
	res->status = RESULT_FAILED;
	res->msg = msg;
	json_object_set_new(res->data, "rebooted", json_boolean(rebooted));
	json_object_set_new(res->data, "msg", json_string(msg));
}

static int
reboot_run(struct module_ctx *ctx, const void *vconf,
    struct module_result *res)
{
	const struct reboot_conf *c = vconf;
	struct boot_wait	 w = { ctx, c, NULL };
	struct wait_ops		 boot_ops = { wait_clock_now, wait_clock_sleep,
	    new_boot, &w };
	struct wait_ops		 test_ops = { wait_clock_now, wait_clock_sleep,
	    test_ok, &w };
	struct tp_result	 tr;
	enum tp_status		 st;
	double			 t0 = wait_clock_now(NULL);
	char			*before, *own, *cause = NULL, *line, *last;
	const char		*desc;
	int			 tries, r;

	res->data = json_pack("{s:b, s:I, s:b}", "changed", 0, "elapsed",
	    (json_int_t)0, "rebooted", 0);
	if (module_ctx_check(ctx)) {
		/* the plugin's check mode: nothing run, changed */
		res->status = RESULT_CHANGED;
		res->msg = xstrdup("would reboot");
		json_object_set_new(res->data, "changed", json_true());
		json_object_set_new(res->data, "rebooted", json_true());
		return 0;
	}
	before = host_boot_id(ctx, (int)c->connect_timeout, 0, &cause);
	own = own_boot_id();
	if (reboot_guard(module_ctx_host_name(ctx), before, own, &cause) !=
	    0) {
		free(before);
		free(own);
		reboot_failed(res, 0, cause);
		return 0;
	}
	free(own);
	w.before = before;
	line = reboot_command_line(c->reboot_command, c->pre_reboot_delay,
	    c->msg);
	st = module_ctx_exec(ctx, line, NULL, 0, (int)c->connect_timeout, &tr,
	    &cause);
	free(line);
	/* a connection cut by the shutdown is the reboot going ahead */
	if (st == TP_OK && tr.exit_status != 0) {
		reboot_failed(res, 0, xprintf("Reboot command failed. Error "
		    "was: '%.*s, %.*s'", (int)tr.out_len, tr.out != NULL ?
		    tr.out : "", (int)tr.err_len, tr.err != NULL ? tr.err :
		    ""));
		tp_result_clear(&tr);
		free(before);
		free(cause);
		return 0;
	}
	tp_result_clear(&tr);
	free(cause);
	if (c->post_reboot_delay > 0)
		wait_clock_sleep(NULL, (double)c->post_reboot_delay);
	desc = "last boot time check";
	if (wait_until(&boot_ops, (double)c->reboot_timeout, 0, &last,
	    &tries) == 0) {
		desc = "post-reboot test command";
		free(last);
		r = wait_until(&test_ops, (double)c->reboot_timeout, 0, &last,
		    &tries);
	} else
		r = -1;
	free(last);
	if (r != 0) {
		reboot_failed(res, 1, xprintf("Timed out waiting for %s "
		    "(timeout=%lld)", desc, c->reboot_timeout));
		free(before);
		return 0;
	}
	free(before);
	res->status = RESULT_CHANGED;
	json_object_set_new(res->data, "changed", json_true());
	json_object_set_new(res->data, "rebooted", json_true());
	json_object_set_new(res->data, "elapsed",
	    json_integer((json_int_t)(wait_clock_now(NULL) - t0)));
	res->msg = xstrdup("rebooted");
	return 0;
}

static const char *const reboot_aliases[] = { "ansible.builtin.reboot",
	"ansible.legacy.reboot", NULL };

const struct module mod_reboot = {
	.name = "reboot",
	.aliases = reboot_aliases,
	.summary = "reboot the host and wait for it (reboot_timeout, "
	    "test_command, msg; never the controller's own kernel)",
	.params = reboot_params,
	.conf_size = sizeof(struct reboot_conf),
	.run = reboot_run,
	.check_safe = 1,
	.kv_free_form = 1,
};
