/* community.general.modprobe: load or unload a kernel module, and keep it
 * (and its parameters) across reboots in /etc/modules-load.d and
 * /etc/modprobe.d, as that module does, so that a task copied from a role
 * does the same here -- with a real --check (nothing written, where the
 * module writes its files in check mode too), a --diff of every file, and
 * no Python on the host.
 *
 * A task is one round trip when nothing is to be done, else two
 * (lib/remote/modprobe.sh): read shows whether the module is loaded,
 * modprobe's dry run of the change and the files of both directories; the
 * decisions and the new files are made here (lib/tune/modprobeconf.c:
 * the module's rules, unit-tested); write, never in check mode, runs
 * modprobe (or modprobe -r) and replaces each file atomically, each file's
 * checksum as read travelling with it: a file changed in between is
 * refused, not overwritten. */
#include "playbook/module.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/udiff.h"
#include "base/xalloc.h"
#include "remote/hostline.h"
#include "remote/modprobe.h"
#include "remote/remote-cmd.h"
#include "tune/modprobeconf.h"

struct modprobe_conf {
	struct module_conf	 hdr;
	const char		*name;
	const char		*state;
	const char		*params;
	const char		*persistent;
};

#define AT(f)	offsetof(struct modprobe_conf, f)

static const char *const states[] = { "present", "absent", NULL };
static const char *const persists[] = { "disabled", "present", "absent",
	NULL };

static const struct module_param modprobe_params[] = {
	{ .name = "name", .type = PARAM_STR, .offset = AT(name),
	  .required = 1, .host_line = HOSTLINE_WORD,
	  .help = "the kernel module ([A-Za-z0-9_-])" },
	{ .name = "state", .type = PARAM_CHOICE, .offset = AT(state),
	  .def = "present", .choices = states,
	  .help = "whether the module is loaded now" },
	{ .name = "params", .type = PARAM_STR, .offset = AT(params),
	  .def = "", .host_line = HOSTLINE_MODULE_PARAMS,
	  .help = "its parameters, \"key=value\" words: given to modprobe, "
	  "and with persistent present written to /etc/modprobe.d/NAME.conf" },
	{ .name = "persistent", .type = PARAM_CHOICE, .offset = AT(persistent),
	  .def = "disabled", .choices = persists,
	  .help = "present: /etc/modules-load.d/NAME.conf and the params' "
	  "options lines; absent: every line that loads it or sets its "
	  "params commented out; disabled: the files are left alone" },
	{ .name = NULL },
};

static int
modprobe_validate(const void *vconf, char **cause)
{
	const struct modprobe_conf *c = vconf;

	if (!modprobe_name_ok(c->name))
		return fail(cause, "name '%.64s' is not a kernel module's "
		    "(letters, digits, '_' and '-')", c->name != NULL ? c->name :
		    "");
	return 0;
}

static int
present(const char *state)
{
	return state == NULL || strcmp(state, "present") == 0;
}

static enum modprobe_persist
persist_of(const char *p)
{
	if (p != NULL && strcmp(p, "present") == 0)
		return MODPROBE_PERSIST_PRESENT;
	if (p != NULL && strcmp(p, "absent") == 0)
		return MODPROBE_PERSIST_ABSENT;
	return MODPROBE_PERSIST_DISABLED;
}

/* One task on one host: what was read, the plan, what the write did. */
struct mp {
	struct module_ctx		*ctx;
	const struct modprobe_conf	*conf;
	struct modprobe_task		 task;
	struct modprobe_result		 read, done;
	struct modprobe_plan		 plan;
	int				 wrote;
};

/* Run one call of the script; 0, or -1 with res failed. */
static int
mp_exec(struct mp *s, const struct modprobe_request *req,
    struct modprobe_result *out, struct module_result *res)
{
	struct remote_call	 call;
	struct tp_result	 tr;
	enum tp_status		 st;
	char			*cause = NULL;

	/* The last line of defence for check mode, as tune_run_apply's. */
	if (req->write && module_ctx_check(s->ctx)) {
		res->status = RESULT_FAILED;
		res->msg = xstrdup("refused: a change was asked for in check "
		    "mode (a bug; nothing was sent)");
		return -1;
	}
	modprobe_call(req, &call);
	st = module_ctx_exec(s->ctx, call.command, call.program,
	    call.program_len, 0, &tr, &cause);
	remote_call_clear(&call);
	if (st != TP_OK) {
		module_result_transport_failed(res, st, cause);
		tp_result_clear(&tr);
		return -1;
	}
	if (modprobe_parse(tr.out, tr.out_len, out, &cause) != 0) {
		module_result_unparsed(res, cause, &tr);
		tp_result_clear(&tr);
		return -1;
	}
	tp_result_clear(&tr);
	return 0;
}

/* The module's result keys (Ansible's: name, params, state), with what a
 * failed modprobe said as its fail_json does. */
static json_t *
mp_data(const struct mp *s, const struct modprobe_run *failed)
{
	json_t	*d, *files;
	size_t	 i;

	d = json_pack("{s:s, s:s, s:s, s:s}", "name", s->conf->name,
	    "params", s->conf->params != NULL ? s->conf->params : "",
	    "state", present(s->conf->state) ? "present" : "absent",
	    "persistent", s->conf->persistent != NULL ? s->conf->persistent :
	    "disabled");
	if (failed != NULL) {
		json_object_set_new(d, "rc", json_integer(failed->rc));
		json_object_set_new(d, "stdout", json_string(failed->out ?
		    failed->out : ""));
		json_object_set_new(d, "stderr", json_string(failed->err ?
		    failed->err : ""));
		return d;
	}
	files = json_array();
	for (i = 0; i < s->plan.nedits; i++)
		json_array_append_new(files,
		    json_string(s->plan.edits[i].path));
	json_object_set_new(d, s->wrote ? "written" : "to_write", files);
	return d;
}

static void
mp_failed(struct mp *s, struct module_result *res, char *msg,
    const struct modprobe_run *run)
{
	res->status = RESULT_FAILED;
	res->msg = msg;
	json_decref(res->data);
	res->data = mp_data(s, run);
}

/* What read showed, split by directory; 0, or -1 with res failed. */
static int
mp_files(struct mp *s, struct modprobe_file **load, size_t *nload,
    struct modprobe_file **opt, size_t *nopt, struct module_result *res)
{
	const size_t	 ll = strlen(MODPROBE_LOAD_DIR "/");
	size_t		 i;

	*load = xcalloc(s->read.nfiles + 1, sizeof **load);
	*opt = xcalloc(s->read.nfiles + 1, sizeof **opt);
	*nload = *nopt = 0;
	for (i = 0; i < s->read.nfiles; i++) {
		const struct modprobe_seen *f = &s->read.files[i];

		if (f->error != NULL || f->path == NULL || f->text == NULL) {
			mp_failed(s, res, xstrdup(f->error != NULL ? f->error :
			    "the modprobe script showed a file without its "
			    "path"), NULL);
			return -1;
		}
		if (strncmp(f->path, MODPROBE_LOAD_DIR "/", ll) == 0)
			(*load)[(*nload)++] = (struct modprobe_file){ f->path,
			    f->text };
		else
			(*opt)[(*nopt)++] = (struct modprobe_file){ f->path,
			    f->text };
	}
	return 0;
}

static const char *
sum_of(const struct mp *s, const char *path)
{
	size_t i;

	for (i = 0; i < s->read.nfiles; i++) {
		if (strcmp(s->read.files[i].path, path) == 0)
			return s->read.files[i].sum;
	}
	return "absent";
}

/* Do what the plan says: modprobe, then the files. */
static int
mp_write(struct mp *s, struct module_result *res)
{
	struct modprobe_request	 req;
	struct modprobe_write	*w;
	const struct modprobe_run *run;
	size_t			 i;
	int			 r;

	w = xcalloc(s->plan.nedits + 1, sizeof *w);
	for (i = 0; i < s->plan.nedits; i++)
		w[i] = (struct modprobe_write){ s->plan.edits[i].path,
		    sum_of(s, s->plan.edits[i].path), s->plan.edits[i].text };
	memset(&req, 0, sizeof req);
	req.write = 1;
	req.name = s->conf->name;
	req.params = s->conf->params;
	req.present = s->task.present;
	req.action = s->plan.load ? "load" : s->plan.unload ? "unload" : NULL;
	req.writes = w;
	req.nwrites = s->plan.nedits;
	r = mp_exec(s, &req, &s->done, res);
	free(w);
	if (r != 0)
		return -1;
	s->wrote = s->done.written > 0;
	run = s->done.load.ran ? &s->done.load : s->done.unload.ran ?
	    &s->done.unload : NULL;
	if (run != NULL && run->rc != 0) {
		mp_failed(s, res, xstrdup(run->err != NULL && *run->err != '\0' ?
		    run->err : "modprobe failed"), run);
		return -1;
	}
	if (s->done.error != NULL || s->done.write_error != NULL) {
		mp_failed(s, res, xprintf("%s%s%s", s->done.error ?
		    s->done.error : "", s->done.error && s->done.write_error ?
		    "; " : "", s->done.write_error ? s->done.write_error : ""),
		    NULL);
		return -1;
	}
	return 0;
}

/* Whether the module is loaded after the task (or would be). */
static int
mp_loaded_after(const struct mp *s)
{
	if (s->done.loaded_after >= 0)
		return s->done.loaded_after;
	if (s->plan.load)
		return 1;
	if (s->plan.unload)
		return 0;
	return s->read.loaded;
}

static char *
mp_diff(const struct mp *s)
{
	struct strbuf	 sb;
	size_t		 i;
	char		*d;
	int		 after = mp_loaded_after(s);

	strbuf_init(&sb);
	for (i = 0; i < s->plan.nedits; i++) {
		const struct modprobe_edit *e = &s->plan.edits[i];

		d = udiff(e->old, e->text, e->path, e->path, 3);
		strbuf_addstr(&sb, d);
		free(d);
	}
	strbuf_addf(&sb, "module %s: %s -> %s\n", s->conf->name,
	    s->read.loaded ? "loaded" : "not loaded", after ? "loaded" :
	    "not loaded");
	return strbuf_detach(&sb, NULL);
}

/* The task line and status. "changed" as the module says it: a load or
 * unload (in check mode, one that would be made; after a load, only if
 * the module is then loaded), or the persistent files' decision. */
static void
mp_verdict(struct mp *s, struct module_result *res)
{
	const char	*would = module_ctx_check(s->ctx) ? "would " : "";
	struct strbuf	 sb;
	int		 live, files;
	size_t		 i;

	live = s->plan.load || s->plan.unload;
	if (live && !module_ctx_check(s->ctx) && s->plan.load)
		live = s->done.loaded_after == 1;
	files = s->plan.persist_changed;
	strbuf_init(&sb);
	if (s->plan.load)
		strbuf_addf(&sb, "%sload %s", would, s->conf->name);
	else if (s->plan.unload)
		strbuf_addf(&sb, "%sunload %s", would, s->conf->name);
	else
		strbuf_addf(&sb, "%s %s", s->conf->name, s->read.loaded ?
		    "loaded" : "not loaded");
	for (i = 0; i < s->plan.nedits; i++)
		strbuf_addf(&sb, "%s%s", i > 0 ? ", " : s->wrote ? "; wrote " :
		    "; would write ", s->plan.edits[i].path);
	if (s->done.warn != NULL)
		strbuf_addf(&sb, "; warning: %s", s->done.warn);
	res->status = live || files ? RESULT_CHANGED : RESULT_OK;
	res->msg = strbuf_detach(&sb, NULL);
	res->data = mp_data(s, NULL);
	json_object_set_new(res->data, "loaded",
	    json_boolean(mp_loaded_after(s)));
}

static int
mp_task(struct module_ctx *ctx, const void *vconf, struct module_result *res,
    int plan_only)
{
	struct mp		 s;
	struct modprobe_request	 req;
	struct modprobe_file	*load = NULL, *opt = NULL;
	size_t			 nload, nopt;

	memset(&s, 0, sizeof s);
	s.ctx = ctx;
	s.conf = vconf;
	s.task.name = s.conf->name;
	s.task.params = s.conf->params != NULL ? s.conf->params : "";
	s.task.present = present(s.conf->state);
	s.task.persistent = persist_of(s.conf->persistent);
	s.done.loaded_after = -1;
	memset(&req, 0, sizeof req);
	req.name = s.task.name;
	req.params = s.task.params;
	req.present = s.task.present;
	if (mp_exec(&s, &req, &s.read, res) != 0)
		goto out;
	if (s.read.error != NULL || s.read.loaded < 0) {
		mp_failed(&s, res, xstrdup(s.read.error != NULL ?
		    s.read.error : "the modprobe script did not say whether "
		    "the module is loaded"), NULL);
		goto out;
	}
	/* The module fails on modprobe's refusal (in check mode, on its dry
	 * run's); the dry run tells before anything is done. */
	if (s.read.dry.ran && s.read.dry.rc != 0) {
		mp_failed(&s, res, xstrdup(s.read.dry.err != NULL &&
		    *s.read.dry.err != '\0' ? s.read.dry.err :
		    "modprobe failed"), &s.read.dry);
		goto out;
	}
	if (mp_files(&s, &load, &nload, &opt, &nopt, res) != 0)
		goto out;
	modprobe_plan(&s.task, s.read.loaded, load, nload, opt, nopt,
	    &s.plan);
	if (!plan_only && (s.plan.load || s.plan.unload ||
	    s.plan.nedits > 0) && mp_write(&s, res) != 0)
		goto out;
	if (module_ctx_diff(ctx))
		res->diff = mp_diff(&s);
	mp_verdict(&s, res);
out:
	free(load);
	free(opt);
	modprobe_plan_free(&s.plan);
	modprobe_result_clear(&s.read);
	modprobe_result_clear(&s.done);
	return 0;
}

static int
modprobe_run(struct module_ctx *ctx, const void *conf,
    struct module_result *res)
{
	return mp_task(ctx, conf, res, 0);
}

/* Check mode: one read (modprobe's dry run included), the same plan,
 * nothing sent that writes. */
static int
modprobe_plan_task(struct module_ctx *ctx, const void *conf,
    struct module_result *res)
{
	return mp_task(ctx, conf, res, 1);
}

static const char *const modprobe_aliases[] = { "modprobe",
	"community.general.system.modprobe", NULL };

const struct module mod_modprobe = {
	.name = "community.general.modprobe",
	.aliases = modprobe_aliases,
	.summary = "load or unload a kernel module, and keep it across "
	    "reboots (modules-load.d, modprobe.d)",
	.params = modprobe_params,
	.conf_size = sizeof(struct modprobe_conf),
	.validate = modprobe_validate,
	.run = modprobe_run,
	.plan = modprobe_plan_task,
	.kv_free_form = 1,
};
