/* wait_for_connection: wait until the host answers again, as Ansible's
 * action plugin (ansible/plugins/action/wait_for_connection.py): after
 * delay, a command over a new connection (Ansible's ping module, here
 * `true`) every sleep seconds until one runs or timeout passes
 * (modules/wait-loop.c); then the host's own connection is reset, so the
 * next task connects anew. Skipped in check mode, as the plugin does. */
#include "playbook/module.h"

#include <stddef.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>

#include "base/xalloc.h"
#include "modules/wait-loop.h"

struct wfc_conf {
	struct module_conf	 hdr;
	long long		 connect_timeout, delay, sleep, timeout;
};

#define AT(f)	offsetof(struct wfc_conf, f)

static const struct module_param wfc_params[] = {
	{ .name = "connect_timeout", .type = PARAM_INT,
	  .offset = AT(connect_timeout), .def = "5", .min = 1, .max = 3600,
	  .help = "seconds one try may take to connect" },
	{ .name = "delay", .type = PARAM_INT, .offset = AT(delay),
	  .def = "0", .min = 0, .max = 86400,
	  .help = "seconds to wait before the first try" },
	{ .name = "sleep", .type = PARAM_INT, .offset = AT(sleep),
	  .def = "1", .min = 1, .max = 3600,
	  .help = "seconds between tries" },
	{ .name = "timeout", .type = PARAM_INT, .offset = AT(timeout),
	  .def = "600", .min = 0, .max = 86400,
	  .help = "seconds to wait in all" },
	{ .name = NULL },
};

double
wait_clock_now(void *arg)
{
	struct timespec ts;

	(void)arg;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void
wait_clock_sleep(void *arg, double seconds)
{
	struct timespec ts;

	(void)arg;
	ts.tv_sec = (time_t)seconds;
	ts.tv_nsec = (long)((seconds - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) != 0)
		;
}

struct wfc_try {
	struct module_ctx	*ctx;
	int			 connect_timeout;
};

static int
wfc_attempt(void *arg, char **err)
{
	struct wfc_try		*t = arg;
	struct tp_result	 tr;
	enum tp_status		 st;

	st = module_ctx_exec_fresh(t->ctx, "true", NULL, 0,
	    t->connect_timeout, t->connect_timeout, &tr, err);
	if (st == TP_OK && tr.exit_status != 0) {
		free(*err);
		*err = xprintf("ping test failed (exit %d)", tr.exit_status);
		st = TP_FAILED;
	} else if (st != TP_OK && *err == NULL)
		*err = xstrdup(tp_strerror(st));
	tp_result_clear(&tr);
	return st == TP_OK ? 0 : -1;
}

static int
wfc_run(struct module_ctx *ctx, const void *vconf, struct module_result *res)
{
	const struct wfc_conf	*c = vconf;
	struct wfc_try		 t = { ctx, (int)c->connect_timeout };
	struct wait_ops		 ops = { wait_clock_now, wait_clock_sleep,
	    wfc_attempt, &t };
	double			 t0 = wait_clock_now(NULL);
	char			*last = NULL;
	int			 tries, r;

	if (module_ctx_check(ctx)) {
		res->status = RESULT_SKIPPED;
		res->msg = xstrdup("skipped in check mode, as Ansible's "
		    "wait_for_connection is");
		res->data = json_pack("{s:b}", "skipped", 1);
		return 0;
	}
	if (c->delay > 0)
		wait_clock_sleep(NULL, (double)c->delay);
	r = wait_until(&ops, (double)c->timeout, (double)c->sleep, &last,
	    &tries);
	res->data = json_pack("{s:I}", "elapsed",
	    (json_int_t)(wait_clock_now(NULL) - t0));
	if (r != 0) {
		res->status = RESULT_FAILED;
		res->msg = xprintf("timed out waiting for ping module test: %s",
		    last != NULL ? last : "no try was made");
		json_object_set_new(res->data, "msg", json_string(res->msg));
		free(last);
		return 0;
	}
	/* the host's own connection may be the one that went away */
	module_ctx_reset_connection(ctx);
	res->status = RESULT_OK;
	res->msg = xprintf("connected after %d tr%s", tries, tries == 1 ?
	    "y" : "ies");
	return 0;
}

static const char *const wfc_aliases[] = {
	"ansible.builtin.wait_for_connection",
	"ansible.legacy.wait_for_connection", NULL };

const struct module mod_wait_for_connection = {
	.name = "wait_for_connection",
	.aliases = wfc_aliases,
	.summary = "wait until the host can be reached again (delay, sleep, "
	    "timeout, connect_timeout; skipped in check mode)",
	.params = wfc_params,
	.conf_size = sizeof(struct wfc_conf),
	.run = wfc_run,
	.check_safe = 1,
	.kv_free_form = 1,
};
