/* ansible.posix.sysctl: Ansible's sysctl module, so that a task copied from
 * an Ansible playbook does here what it does there -- the same "name=value"
 * line in the same file, the other lines kept as that module keeps them,
 * the live value set when sysctl_set or reload asks -- with what tcptune
 * adds everywhere: an atomic write with a backup, the live value read
 * back, a later boot file that overrides the key said, a real --check
 * --diff, and changed=0 on a rerun.
 *
 * A task is at most two round trips (lib/remote/apply.sh): conf-read shows
 * the file and the live value; the edit and the decisions are computed
 * here (lib/tune/sysctlconf.c: Ansible's rules, tested against its code);
 * conf-write, only when something is to be done and never in check mode,
 * does what the module does in its order and reads the value back. The
 * edit is made on the controller rather than by the remote script so that
 * there is one implementation of the rules, in C, unit-tested byte for byte
 * against Ansible's, and so that --check --diff shows exactly the bytes a
 * run writes; the file's checksum travels with the write, and a file
 * changed in between is refused rather than overwritten. Each task reads
 * the host afresh: a task between two sysctl tasks may change the file. */
#include "playbook/module.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/udiff.h"
#include "base/xalloc.h"
#include "modules/sysctl-files.h"
#include "modules/tune.h"
#include "remote/apply.h"
#include "remote/hostline.h"
#include "tune/dropin.h"
#include "tune/sysctlconf.h"

struct posix_sysctl_conf {
	struct module_conf	 hdr;
	const char		*name;
	const char		*key;		/* alias of name */
	const char		*value;
	const char		*val;		/* alias of value */
	const char		*state;
	const char		*sysctl_file;
	int			 reload;
	int			 sysctl_set;
	int			 ignoreerrors;
};

#define AT(f)	offsetof(struct posix_sysctl_conf, f)

static const char *const states[] = { "present", "absent", NULL };

static const struct module_param posix_sysctl_params[] = {
	{ .name = "name", .type = PARAM_STR, .offset = AT(name),
	  .host_line = HOSTLINE_SYSCTL_KEY,
	  .help = "the sysctl key (required; alias: key)" },
	{ .name = "key", .type = PARAM_STR, .offset = AT(key),
	  .host_line = HOSTLINE_SYSCTL_KEY, .help = "alias of name" },
	{ .name = "value", .type = PARAM_STR, .offset = AT(value),
	  .host_line = HOSTLINE_SYSCTL_VALUE,
	  .help = "the value (required for state present; alias: val); "
	  "yes/no, on/off, true/false are 1/0" },
	{ .name = "val", .type = PARAM_STR, .offset = AT(val),
	  .host_line = HOSTLINE_SYSCTL_VALUE, .help = "alias of value" },
	{ .name = "state", .type = PARAM_CHOICE, .offset = AT(state),
	  .def = "present", .choices = states,
	  .help = "whether the key's line is in sysctl_file" },
	{ .name = "sysctl_file", .type = PARAM_PATH, .offset = AT(sysctl_file),
	  .def = "/etc/sysctl.conf", .host_line = HOSTLINE_PATH,
	  .help = "the file whose line is edited (its other lines stay)" },
	{ .name = "reload", .type = PARAM_BOOL, .offset = AT(reload),
	  .def = "yes",
	  .help = "after a change, sysctl -p sysctl_file (every key of it)" },
	{ .name = "sysctl_set", .type = PARAM_BOOL, .offset = AT(sysctl_set),
	  .def = "no", .help = "set the live value with sysctl -w if it "
	  "differs" },
	{ .name = "ignoreerrors", .type = PARAM_BOOL,
	  .offset = AT(ignoreerrors), .def = "no",
	  .help = "sysctl -e: unknown keys are not errors" },
	{ .name = NULL },
};

/* The key and value as Ansible's module takes them; an alias given wins
 * over its name, as in Ansible. */
static const char *
task_name(const struct posix_sysctl_conf *c)
{
	return c->key != NULL ? c->key : c->name;
}

static const char *
task_value(const struct posix_sysctl_conf *c)
{
	return c->val != NULL ? c->val : c->value;
}

static int
present(const struct posix_sysctl_conf *c)
{
	return c->state == NULL || strcmp(c->state, "present") == 0;
}

/* Ansible's own checks, with its words. */
static int
posix_sysctl_validate(const void *vconf, char **cause)
{
	const struct posix_sysctl_conf *c = vconf;

	if (task_name(c) == NULL)
		return fail(cause, "missing required parameter 'name' (a "
		    "'sysctl' task with 'values' is tcptune's drop-in module)");
	if (*task_name(c) == '\0')
		return fail(cause, "name cannot be blank");
	if (present(c) && task_value(c) == NULL)
		return fail(cause, "state is present but 'value' is missing");
	if (present(c) && *task_value(c) == '\0')
		return fail(cause, "value cannot be blank");
	return 0;
}

/* One task on one host: the task as the rules take it, what the host has,
 * the plan, and what the write did. */
struct psys {
	struct module_ctx		*ctx;
	const struct posix_sysctl_conf	*conf;
	struct sysctlconf_task		 task;
	char				*name, *value;
	struct apply_result		 read, done;
	const char			*old;	/* the file, NULL: none */
	const char			*proc;	/* live, NULL: unreadable */
	struct sysctlconf_plan		 plan;
	struct strbuf			 errors;
	int				 wrote;
};

static void
psys_request(const struct psys *s, struct apply_request *req,
    enum apply_mode mode)
{
	memset(req, 0, sizeof *req);
	req->mode = mode;
	req->file = s->conf->sysctl_file;
	req->state_dir = TUNE_STATE_DIR;
	req->key = s->name;
	req->ignore_errors = s->conf->ignoreerrors;
}

/* Read the file and the live value, and plan. */
static int
psys_read(struct psys *s, struct module_result *res)
{
	struct apply_request req;

	psys_request(s, &req, APPLY_CONF_READ);
	if (tune_run_apply(s->ctx, &req, NULL, &s->read, res) != 0)
		return -1;
	if (s->read.step_error != NULL) {
		res->status = RESULT_FAILED;
		res->msg = xstrdup(s->read.step_error);
		return -1;
	}
	s->old = s->read.old_exists ? s->read.old_text : NULL;
	s->proc = s->read.live_rc == 0 ? s->read.live : NULL;
	sysctlconf_plan(&s->task, s->old, s->proc, &s->plan);
	return 0;
}

/* One sysctl command's failure, in the module's words. */
static void
psys_sysctl_failed(struct psys *s, const struct apply_sysctl_run *r,
    const char *what)
{
	if (!r->ran || !r->failed)
		return;
	strbuf_addf(&s->errors, "%s%s (exit %d): %s", s->errors.len > 0 ?
	    "; " : "", what, r->rc, r->out != NULL ? r->out : "");
}

/* A live value for a message: blanks squeezed (sysctl prints tabs), or
 * "unreadable". New string. */
static char *
shown(const char *live)
{
	return live != NULL ? sysctl_value_normalise(live) :
	    xstrdup("unreadable");
}

/* The value the kernel has after a set or a reload must be the task's:
 * tcptune reads it back where the module trusts sysctl's exit status. */
static void
psys_read_back(struct psys *s)
{
	const struct apply_result	*d = &s->done;
	char				*live;

	if (!s->task.present || (!d->set.ran && !d->reload.ran) ||
	    s->errors.len > 0)
		return;
	if (s->conf->ignoreerrors && (d->live == NULL || *d->live == '\0'))
		return;	/* an unknown key, which -e ignores */
	if (d->live_rc == 0 && sysctlconf_values_equal(d->live, s->value))
		return;
	live = shown(d->live_rc == 0 ? d->live : NULL);
	strbuf_addf(&s->errors, "the kernel did not take %s = %s (live: %s)",
	    s->name, s->value, live);
	free(live);
}

/* Do what the plan says, in the module's order. */
static int
psys_write(struct psys *s, struct module_result *res)
{
	struct apply_request	 req;
	char			*kv = NULL, *what;
	int			 r;

	psys_request(s, &req, APPLY_CONF_WRITE);
	req.expect_sum = s->read.conf_sum;
	if (s->plan.set_proc)
		req.set_kv = kv = xprintf("%s=%s", s->name, s->value);
	req.write = s->plan.write_file;
	req.reload = s->plan.reload;
	req.reprobe = module_ctx_facts(s->ctx) != NULL;
	r = tune_run_apply(s->ctx, &req, s->plan.write_file ? s->plan.text :
	    NULL, &s->done, res);
	free(kv);
	if (r != 0)
		return -1;
	if (s->done.step_error != NULL)
		strbuf_addstr(&s->errors, s->done.step_error);
	what = xprintf("setting %s failed", s->name);
	psys_sysctl_failed(s, &s->done.set, what);
	free(what);
	if (s->done.write_error != NULL)
		strbuf_addf(&s->errors, "%s%s", s->errors.len > 0 ? "; " : "",
		    s->done.write_error);
	psys_sysctl_failed(s, &s->done.reload, "failed to reload sysctl");
	s->wrote = s->done.written;
	psys_read_back(s);
	tune_refresh_facts(s->ctx, &s->done, PROBE_SYSCTL);
	return 0;
}

/* A later boot file that sets the key wins over ours at the next boot:
 * said on the task line, not failed (the Ansible module says nothing, and a
 * copied playbook must still run). By the probe's facts (none without
 * gather_facts); in check mode with the planned lines in the file, after a
 * write by the probe that followed it. The other file, or NULL. */
static char *
psys_override(const struct psys *s)
{
	const json_t	*facts = module_ctx_facts(s->ctx);
	const char	*file = s->conf->sysctl_file;
	struct stage	 st;
	char		*winner;

	if (facts == NULL || !s->task.present)
		return NULL;
	sysctl_files_stage(file, s->plan.text, &st);
	winner = sysctl_files_winner(facts, s->wrote ? NULL : &st, file,
	    s->name);
	dropin_free(&st.dropin);
	return winner;
}

/* The live value after the task: read back, or as the plan will make it. */
static const char *
psys_live_after(const struct psys *s)
{
	if (s->done.done)
		return s->done.live_rc == 0 ? s->done.live : NULL;
	if (s->task.present && (s->plan.set_proc || s->plan.reload))
		return s->value;
	return s->proc;
}

/* --diff: the file from what is there to what the task makes it, and the
 * live value before -> after. */
static char *
psys_diff(const struct psys *s)
{
	const char	*after = psys_live_after(s);
	struct strbuf	 sb = STRBUF_INIT;
	char		*d, *before, *now;

	strbuf_init(&sb);
	if (s->plan.write_file) {
		d = udiff(s->old, s->plan.text, s->conf->sysctl_file,
		    s->conf->sysctl_file, 3);
		strbuf_addstr(&sb, d);
		free(d);
	}
	before = shown(s->proc);
	now = shown(after);
	strbuf_addf(&sb, "live %s: %s -> %s%s\n", s->name, before, now,
	    sysctlconf_values_equal(s->proc, after) ? " (same)" : "");
	free(before);
	free(now);
	return strbuf_detach(&sb, NULL);
}

/* The task line: what was (or would be) done, and an override. */
static void
psys_verdict(struct psys *s, struct module_result *res)
{
	const char	*check = module_ctx_check(s->ctx) ? "would " : "";
	const char	*after = psys_live_after(s);
	char		*winner = psys_override(s), *live;
	struct strbuf	 sb = STRBUF_INIT;

	strbuf_init(&sb);
	if (s->errors.len > 0) {
		res->status = RESULT_FAILED;
		res->msg = strbuf_detach(&s->errors, NULL);
		strbuf_release(&sb);
		free(winner);
		return;
	}
	res->status = s->plan.changed ? RESULT_CHANGED : RESULT_OK;
	if (!s->plan.write_file)
		strbuf_addf(&sb, s->task.present ? "%s=%s in %s" : "%s%s not in "
		    "%s", s->name, s->task.present ? s->value : "",
		    s->conf->sysctl_file);
	else if (s->task.present)
		strbuf_addf(&sb, "%sset %s=%s in %s", check, s->name, s->value,
		    s->conf->sysctl_file);
	else
		strbuf_addf(&sb, "%sremove %s from %s", check, s->name,
		    s->conf->sysctl_file);
	if (s->wrote)
		strbuf_addstr(&sb, " (written; the first backup is kept under "
		    TUNE_STATE_DIR ")");
	live = shown(after);
	strbuf_addf(&sb, "; live %s", live);
	free(live);
	if (winner != NULL)
		strbuf_addf(&sb, "; warning: '%s' also sets %s and wins at "
		    "boot", winner, s->name);
	res->msg = strbuf_detach(&sb, NULL);
	res->data = json_pack("{s:s, s:s, s:s?, s:s?, s:b, s:s?}", "file",
	    s->conf->sysctl_file, "name", s->name, "value", s->task.present ?
	    s->value : NULL, "live", after, "written", s->wrote,
	    "overridden_by", winner);
	free(winner);
}

static int
psys_task(struct module_ctx *ctx, const void *vconf,
    struct module_result *res, int plan_only)
{
	struct psys	s;

	memset(&s, 0, sizeof s);
	s.ctx = ctx;
	s.conf = vconf;
	s.name = sysctlconf_strip(task_name(s.conf));
	s.value = sysctlconf_value(task_value(s.conf));
	s.task.name = s.name;
	s.task.value = s.value;
	s.task.present = present(s.conf);
	s.task.reload = s.conf->reload;
	s.task.sysctl_set = s.conf->sysctl_set;
	strbuf_init(&s.errors);
	if (psys_read(&s, res) != 0)
		goto out;
	if (!plan_only && (s.plan.set_proc || s.plan.write_file ||
	    s.plan.reload) && psys_write(&s, res) != 0)
		goto out;
	if (module_ctx_diff(ctx))
		res->diff = psys_diff(&s);
	psys_verdict(&s, res);
out:
	free(s.name);
	free(s.value);
	apply_result_clear(&s.read);
	apply_result_clear(&s.done);
	sysctlconf_plan_free(&s.plan);
	strbuf_release(&s.errors);
	return 0;
}

static int
posix_sysctl_run(struct module_ctx *ctx, const void *conf,
    struct module_result *res)
{
	return psys_task(ctx, conf, res, 0);
}

/* Check mode: one read, the same plan, nothing sent that writes. */
static int
posix_sysctl_plan(struct module_ctx *ctx, const void *conf,
    struct module_result *res)
{
	return psys_task(ctx, conf, res, 1);
}

static const char *const posix_sysctl_aliases[] = { "sysctl",
	"ansible.builtin.sysctl", "ansible.legacy.sysctl", NULL };

const struct module mod_posix_sysctl = {
	.name = "ansible.posix.sysctl",
	.aliases = posix_sysctl_aliases,
	.summary = "Ansible's sysctl: one key's line in a sysctl file, and "
	    "its live value",
	.params = posix_sysctl_params,
	.conf_size = sizeof(struct posix_sysctl_conf),
	.validate = posix_sysctl_validate,
	.run = posix_sysctl_run,
	.plan = posix_sysctl_plan,
	.kv_free_form = 1,
};
