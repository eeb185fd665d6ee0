/* ansible.builtin.systemd (and service, on a systemd host): a unit's
 * state (started, stopped, restarted, reloaded) and whether it starts at
 * boot (enabled), with daemon_reload, decided as the module decides
 * (lib/tune/svcplan.c) from one read (lib/remote/systemd.sh: systemctl
 * show and is-enabled, after a daemon-reload when asked and not in check
 * mode, as the module reloads first), then a second round trip, only when
 * something is to be done and never in check mode: enable or disable,
 * then the state's systemctl command. A handler's `state: restarted`
 * restarts a running unit and starts a stopped one, as the module does. */
#include "playbook/module.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/xalloc.h"
#include "modules/remote-exec.h"
#include "remote/systemd.h"
#include "tune/svcplan.h"

struct systemd_conf {
	struct module_conf	 hdr;
	const char		*name;
	const char		*state;
	int			 enabled;
	int			 daemon_reload;
};

#define AT(f)	offsetof(struct systemd_conf, f)

static const char *const states[] = { "started", "stopped", "restarted",
	"reloaded", NULL };

static const struct module_param systemd_params[] = {
	{ .name = "name", .type = PARAM_STR, .offset = AT(name),
	  .host_line = HOSTLINE_WORD,
	  .help = "the unit (\"sshd\", \"sysctl.service\"; no glob)" },
	{ .name = "state", .type = PARAM_CHOICE, .offset = AT(state),
	  .choices = states,
	  .help = "started, stopped, restarted (a stopped unit is started), "
	  "reloaded (the same)" },
	{ .name = "enabled", .type = PARAM_BOOL, .offset = AT(enabled),
	  .help = "whether it starts at boot (not given: left alone)" },
	{ .name = "daemon_reload", .type = PARAM_BOOL,
	  .offset = AT(daemon_reload), .def = "false",
	  .help = "systemctl daemon-reload before anything else (not in "
	  "check mode)" },
	{ .name = NULL },
};

static int
systemd_validate(const void *vconf, char **cause)
{
	const struct systemd_conf *c = vconf;

	if (c->state == NULL && !module_conf_given(systemd_params, c,
	    AT(enabled)) && !c->daemon_reload)
		return fail(cause, "one of the following is required: state, "
		    "enabled, daemon_reload");
	if ((c->state != NULL || module_conf_given(systemd_params, c,
	    AT(enabled))) && c->name == NULL)
		return fail(cause, "name is required with state or enabled");
	if (c->name != NULL && strpbrk(c->name, "*?[") != NULL)
		return fail(cause, "glob patterns are not supported in a "
		    "service name: %s", c->name);
	return 0;
}

static int
sd_exec(struct module_ctx *ctx, const struct systemd_request *req,
    struct systemd_result *out, struct module_result *res)
{
	struct remote_call	 call;
	struct tp_result	 tr;
	char			*cause = NULL;

	memset(out, 0, sizeof *out);
	systemd_call(req, &call);
	if (module_remote_exec(ctx, req->write || req->reload, &call, &tr,
	    res) != 0)
		return -1;
	if (systemd_parse(tr.out, tr.out_len, out, &cause) != 0) {
		res->status = RESULT_FAILED;
		res->msg = cause;
		tp_result_clear(&tr);
		return -1;
	}
	tp_result_clear(&tr);
	return 0;
}

static void
sd_failed(struct module_result *res, char *msg)
{
	res->status = RESULT_FAILED;
	res->msg = msg;
	res->data = json_pack("{s:s}", "msg", msg);
}

static int
systemd_task(struct module_ctx *ctx, const void *vconf,
    struct module_result *res)
{
	const struct systemd_conf	*c = vconf;
	struct systemd_request		 req;
	struct systemd_result		 rd, done;
	struct svc_seen			 seen;
	struct svc_plan			 plan;
	struct strbuf			 sb;
	char				*cause = NULL;
	int				 enabled = -1, check;

	memset(&rd, 0, sizeof rd);
	memset(&done, 0, sizeof done);
	check = module_ctx_check(ctx);
	if (module_conf_given(systemd_params, c, AT(enabled)))
		enabled = c->enabled;
	memset(&req, 0, sizeof req);
	req.unit = c->name != NULL ? c->name : "";
	req.reload = c->daemon_reload && !check;
	if (c->name == NULL) {
		/* daemon_reload alone: the module says changed=false */
		res->status = RESULT_OK;
		if (!check && sd_exec(ctx, &req, &rd, res) != 0)
			goto out;
		if (rd.reload.ran && rd.reload.rc != 0) {
			sd_failed(res, xprintf("failure %d during "
			    "daemon-reload: %s", rd.reload.rc, rd.reload.err));
			goto out;
		}
		res->msg = xstrdup(check ? "daemon-reload (not in check mode)" :
		    "daemon-reload");
		goto out;
	}
	if (sd_exec(ctx, &req, &rd, res) != 0)
		goto out;
	if (rd.reload.ran && rd.reload.rc != 0) {
		sd_failed(res, xprintf("failure %d during daemon-reload: %s",
		    rd.reload.rc, rd.reload.err));
		goto out;
	}
	if (rd.error != NULL) {
		sd_failed(res, xstrdup(rd.error));
		goto out;
	}
	seen = (struct svc_seen){ rd.load_state, rd.active_state,
	    rd.load_error, rd.enabled.rc };
	if (svc_decide(c->name, c->state, enabled, &seen, &plan,
	    &cause) != 0) {
		sd_failed(res, cause);
		goto out;
	}
	if (!check && (plan.enable != NULL || plan.action != NULL)) {
		memset(&req, 0, sizeof req);
		req.write = 1;
		req.unit = c->name;
		req.enable = plan.enable;
		req.action = plan.action;
		if (sd_exec(ctx, &req, &done, res) != 0)
			goto out;
		if (done.enable.ran && done.enable.rc != 0) {
			sd_failed(res, xprintf("Unable to %s service %s: %s%s",
			    plan.enable, c->name, done.enable.out,
			    done.enable.err));
			goto out;
		}
		if (done.action.ran && done.action.rc != 0) {
			sd_failed(res, xprintf("Unable to %s service %s: %s",
			    plan.action, c->name, done.action.err));
			goto out;
		}
	}
	res->status = plan.changed ? RESULT_CHANGED : RESULT_OK;
	strbuf_init(&sb);
	strbuf_addf(&sb, "%s: %s", c->name, rd.active_state != NULL ?
	    rd.active_state : "?");
	if (plan.enable != NULL)
		strbuf_addf(&sb, ", %s%s", check ? "would " : "", plan.enable);
	if (plan.action != NULL)
		strbuf_addf(&sb, ", %s%s", check ? "would " : "", plan.action);
	res->msg = strbuf_detach(&sb, NULL);
	if (module_ctx_diff(ctx) && plan.changed)
		res->diff = xprintf("unit %s: %s%s%s\n", c->name,
		    plan.enable != NULL ? plan.enable : "",
		    plan.enable != NULL && plan.action != NULL ? ", " : "",
		    plan.action != NULL ? plan.action : "");
	res->data = json_pack("{s:s, s:{s:s?, s:s?, s:s?, s:s?}}", "name",
	    c->name, "status", "LoadState", rd.load_state, "ActiveState",
	    rd.active_state, "SubState", rd.sub_state, "UnitFileState",
	    rd.unit_file_state);
	if (plan.enabled >= 0)
		json_object_set_new(res->data, "enabled",
		    json_boolean(plan.enabled));
	if (plan.state != NULL)
		json_object_set_new(res->data, "state",
		    json_string(plan.state));
out:
	systemd_result_clear(&rd);
	systemd_result_clear(&done);
	return 0;
}

static const char *const systemd_aliases[] = { "ansible.builtin.systemd",
	"ansible.builtin.systemd_service", "systemd_service",
	"ansible.legacy.systemd", "service", "ansible.builtin.service",
	"ansible.legacy.service", NULL };

const struct module mod_systemd = {
	.name = "systemd",
	.aliases = systemd_aliases,
	.summary = "a systemd unit's state (started, stopped, restarted, "
	    "reloaded), enabled, daemon_reload",
	.params = systemd_params,
	.conf_size = sizeof(struct systemd_conf),
	.validate = systemd_validate,
	.run = systemd_task,
	.plan = systemd_task,
	.kv_free_form = 1,
};
