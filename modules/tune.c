#include "modules/tune.h"
#include "modules/tune-confirm.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "remote/apply.h"
#include "remote/hostline.h"
#include "remote/qdisc.h"
#include "base/strbuf.h"
#include "remote/sysctld.h"
#include "base/udiff.h"
#include "base/xalloc.h"

void
stage_free(struct stage *st)
{
	size_t i;

	if (st == NULL)
		return;
	free(st->file);
	dropin_free(&st->dropin);
	free(st->qdisc);
	qdisc_plan_clear(&st->qplan);
	free(st->modules);
	free(st->route_opts);
	for (i = 0; i < st->nnotes; i++)
		free(st->notes[i]);
	free(st->notes);
	free(st);
}

struct stage *
tune_stage(struct module_ctx *ctx, const char *file, char **cause)
{
	struct stage *st = module_ctx_stage(ctx);

	if (st == NULL) {
		st = xcalloc(1, sizeof *st);
		st->file = xstrdup(file);
		dropin_init(&st->dropin);
		module_ctx_set_stage(ctx, st);
	} else if (strcmp(st->file, file) != 0) {
		fail(cause, "this play already manages '%s'; one drop-in per "
		    "play (got sysctl_file '%s')", st->file, file);
		return NULL;
	}
	return st;
}

void
stage_note(struct stage *st, const char *fmt, ...)
{
	va_list ap;

	st->notes = xreallocarray(st->notes, st->nnotes + 1,
	    sizeof *st->notes);
	va_start(ap, fmt);
	st->notes[st->nnotes++] = xvprintf(fmt, ap);
	va_end(ap);
}

/* The sysctl.d model of a host, rebuilt from its probe facts. With planned
 * set, the file at planned->file is taken to hold planned's keys (as it
 * will once applied) instead of what the probe saw in it. */
static void
sysctld_from_facts(const json_t *facts, const struct stage *planned,
    struct sysctld_set *set)
{
	const json_t	*files = json_object_get(facts, "sysctl_files");
	const json_t	*f, *e;
	size_t		 i, j;
	int		 seen = 0;

	sysctld_init(set);
	json_array_foreach(files, i, f) {
		struct sysctld_file	*sf;
		const char		*path, *dir;

		path = json_string_value(json_object_get(f, "path"));
		dir = json_string_value(json_object_get(f, "dir"));
		if (path == NULL)
			continue;
		sf = sysctld_add_file(set, path, dir);
		if (planned != NULL && strcmp(path, planned->file) == 0) {
			seen = 1;
			continue;
		}
		json_array_foreach(json_object_get(f, "entries"), j, e) {
			char *line, *cause = NULL;

			line = xprintf("%s%s = %s",
			    json_is_true(json_object_get(e, "ignore_errors")) ?
			    "-" : "",
			    json_string_value(json_object_get(e, "key")) ?: "",
			    json_string_value(json_object_get(e, "value")) ?: "");
			sysctld_add_line(sf, line, &cause);
			free(cause);
			free(line);
		}
	}
	if (planned == NULL)
		return;
	if (!seen) {
		const char	*known;
		char		*dir = xstrdup(planned->file);
		char		*slash = strrchr(dir, '/');

		if (slash != NULL)
			*slash = '\0';
		/* A new /etc/sysctl.conf applies last, as the probe's does. */
		sysctld_add_file(set, planned->file,
		    sysctld_config_path(planned->file, &known) && known == NULL ?
		    NULL : dir);
		free(dir);
	}
	for (i = 0; i < set->n; i++) {
		if (strcmp(set->files[i]->path, planned->file) != 0)
			continue;
		for (j = 0; j < planned->dropin.n; j++) {
			char *line = xprintf("%s = %s",
			    planned->dropin.entries[j].key,
			    planned->dropin.entries[j].value), *cause = NULL;

			sysctld_add_line(set->files[i], line, &cause);
			free(cause);
			free(line);
		}
	}
}

char *
tune_boot_winner(const json_t *facts, const struct stage *planned,
    const char *key)
{
	struct sysctld_set	 set;
	const char		*file = NULL, *value = NULL;
	char			*r = NULL;

	sysctld_from_facts(facts, planned, &set);
	if (sysctld_winner(&set, key, &file, &value) == 1 && file != NULL)
		r = xstrdup(file);
	sysctld_free(&set);
	return r;
}

static int
values_equal(const char *a, const char *b)
{
	if (a == NULL || b == NULL)
		return 0;
	return sysctl_value_equal(a, b);
}

static void
fill_request(struct apply_request *req, const struct module_ctx *ctx,
    const struct stage *st)
{
	const json_t *facts = module_ctx_facts(ctx);
	const json_t *rt = json_object_get(facts, "default_route");

	memset(req, 0, sizeof *req);
	req->file = st != NULL ? st->file : NULL;
	req->state_dir = TUNE_STATE_DIR;
	/* Without a stage (a rollback), the backup names its interfaces;
	 * the default route's is for a backup that does not. */
	req->dev = json_string_value(json_object_get(rt, "interface"));
	if (st != NULL) {
		req->dev = st->qplan.devs;
		req->tx_queues = st->qplan.txqs;
		req->links = st->qplan.links;
		req->qdisc = st->qdisc;
		req->modules = st->modules;
		req->route_opts = st->route_opts;
		req->route_persist = st->route_persist;
	}
}

/* The gate over the apply script's arguments that become host lines or
 * commands there: the live qdisc, the interface (from the host's own
 * probe), modules for /etc/modules-load.d, route options for the unit. */
static int
request_check(const struct apply_request *req, char **cause)
{
	int conf = req->mode == APPLY_CONF_READ || req->mode == APPLY_CONF_WRITE;

	/* An Ansible-style task edits any sysctl file it names; its key and
	 * "key=value" are checked here once more, as they travel. */
	if (conf && (req->file == NULL || hostline_path(req->file, cause) != 0 ||
	    req->key == NULL || hostline_sysctl_key(req->key, cause) != 0 ||
	    (req->set_kv != NULL && hostline_sysctl_value(strchr(req->set_kv,
	    '=') != NULL ? strchr(req->set_kv, '=') + 1 : "", cause) != 0)))
		return req->file == NULL || req->key == NULL ? fail(cause,
		    "no file or key for the sysctl task") : -1;
	if (!conf && req->file != NULL && hostline_dropin_path(req->file,
	    cause) != 0)
		return -1;
	if (req->qdisc != NULL && hostline_word(req->qdisc, "qdisc",
	    cause) != 0)
		return -1;
	if (req->qdisc != NULL && req->dev == NULL)
		return fail(cause, "no interface to set the qdisc on");
	if ((req->dev != NULL && hostline_words(req->dev, "interface",
	    cause) != 0) || (req->links != NULL && hostline_words(req->links,
	    "interface", cause) != 0) || (req->tx_queues != NULL &&
	    hostline_words(req->tx_queues, "tx queue count", cause) != 0))
		return -1;
	if (req->modules != NULL && hostline_words(req->modules, "module",
	    cause) != 0)
		return -1;
	if (req->route_opts != NULL && hostline_words(req->route_opts,
	    "route option", cause) != 0)
		return -1;
	return 0;
}

/* Before anything is written: the probe's copy of the drop-in (facts
 * "dropin") may stop being true, so a later check in this play reads the
 * host again instead (copy on write: other tasks may hold the old facts). */
static void
forget_dropin(struct module_ctx *ctx)
{
	const json_t	*facts = module_ctx_facts(ctx);
	json_t		*f;

	if (json_object_get(facts, "dropin") == NULL)
		return;
	f = json_deep_copy(facts);
	json_object_del(f, "dropin");
	module_ctx_set_facts(ctx, f);
	json_decref(f);
}

/*
 * What a check-mode apply would read (apply.sh's check: the drop-in as it
 * is and each key's live value), taken from the probe of this play when it
 * holds all of it: the drop-in it showed whole is st's file, and every key
 * of st is one it read. Then a plan or drift costs no round trip beyond
 * the probe, and nothing is sent at all. Returns 0 with ar filled, or -1
 * when the probe lacks a part (another file, a key outside its list, a
 * value it could not read): the caller reads the host then.
 */
static int
check_from_facts(const json_t *facts, const struct stage *st,
    struct apply_result *ar)
{
	const json_t	*d = json_object_get(facts, "dropin");
	const json_t	*sys = json_object_get(facts, "sysctl");
	const char	*path = json_string_value(json_object_get(d, "path"));
	size_t		 i;

	if (path == NULL || strcmp(path, st->file) != 0 ||
	    !json_is_boolean(json_object_get(d, "exists")))
		return -1;
	for (i = 0; i < st->dropin.n; i++) {
		const json_t *k = json_object_get(sys, st->dropin.entries[i].key);

		if (k == NULL || (!json_is_false(json_object_get(k, "present")) &&
		    !json_is_string(json_object_get(k, "value"))))
			return -1;
	}
	memset(ar, 0, sizeof *ar);
	ar->old_exists = json_is_true(json_object_get(d, "exists"));
	if (ar->old_exists)
		ar->old_text = xstrdup(json_string_value(json_object_get(d,
		    "text")) ?: "");
	ar->keys = xcalloc(st->dropin.n + 1, sizeof *ar->keys);
	for (i = 0; i < st->dropin.n; i++) {
		const struct dropin_entry	*e = &st->dropin.entries[i];
		struct apply_key		*k = &ar->keys[ar->nkeys++];
		const json_t			*f = json_object_get(sys, e->key);

		k->key = xstrdup(e->key);
		k->want = xstrdup(e->value);
		if (json_is_false(json_object_get(f, "present"))) {
			/* as apply.sh's set_key says of a missing key */
			k->error = xstrdup("no such key on this kernel");
			continue;
		}
		k->before = xstrdup(json_string_value(json_object_get(f,
		    "value")));
		k->live = xstrdup(k->before);
	}
	ar->done = 1;
	return 0;
}

int
tune_run_apply(struct module_ctx *ctx, const struct apply_request *req,
    const char *input, struct apply_result *ar, struct module_result *res)
{
	struct tp_result	 out;
	enum tp_status		 st;
	struct remote_call	 call;
	char			*cause = NULL;

	/* The last line of defence for check mode: whatever a module does,
	 * the core never sends a writing apply for a check-mode task. */
	if (module_ctx_check(ctx) && (req->mode == APPLY_APPLY ||
	    req->mode == APPLY_ROLLBACK || req->mode == APPLY_CONF_WRITE)) {
		res->status = RESULT_FAILED;
		res->msg = xstrdup("refused: a change was asked for in check "
		    "mode (a bug in the module that asked; nothing was sent)");
		return -2;
	}
	if (request_check(req, &cause) != 0) {
		res->status = RESULT_FAILED;
		res->msg = xprintf("%s; refused, nothing was sent to this host",
		    cause);
		free(cause);
		return -2;
	}
	if (req->mode == APPLY_APPLY || req->mode == APPLY_ROLLBACK ||
	    req->mode == APPLY_CONF_WRITE)
		forget_dropin(ctx);
	apply_call(req, input, &call);
	st = module_ctx_exec(ctx, call.command, call.program,
	    call.program_len, 0, &out, &cause);
	remote_call_clear(&call);
	if (st != TP_OK) {
		module_result_transport_failed(res, st, cause);
		tp_result_clear(&out);
		return -1;
	}
	if (apply_parse(out.out, out.out_len, ar, &cause) != 0) {
		module_result_unparsed(res, cause, &out);
		tp_result_clear(&out);
		return -1;
	}
	tp_result_clear(&out);
	return 0;
}

/* One more error of a "; "-separated list. */
static void
add_error(struct strbuf *errors, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
add_error(struct strbuf *errors, const char *fmt, ...)
{
	va_list ap;

	if (errors->len > 0)
		strbuf_addstr(errors, "; ");
	va_start(ap, fmt);
	strbuf_vaddf(errors, fmt, ap);
	va_end(ap);
}

/* After an apply, each interface set must use the qdisc the plan set (tc
 * can succeed and leave another, e.g. an mq leaf it did not reach): read
 * from the probe that ran after it in the same round trip. */
static void
check_live_qdisc(const struct stage *st, const json_t *facts,
    struct strbuf *errors)
{
	const json_t	*q;
	const char	*kind;
	char		*live;
	size_t		 i;

	if (st->qdisc == NULL || facts == NULL)
		return;
	for (i = 0; i < st->qplan.n; i++) {
		const struct qdisc_plan_if *pi = &st->qplan.ifs[i];

		if (!pi->set)
			continue;
		q = qdisc_plan_live(facts, pi->dev);
		kind = qdisc_effective(q);
		if (kind != NULL && strcmp(kind, st->qdisc) == 0)
			continue;
		live = qdisc_describe(q);
		add_error(errors, "the live qdisc on %s is %s after the apply, "
		    "not %s", pi->dev, live, st->qdisc);
		free(live);
	}
}

/* What the probe after an apply does not read again: it pings no one (the
 * RTTs and the peers they were measured to stay the play's probe's, so a
 * tcp_buffers task after an apply in the same play still finds them), and
 * it leaves out what an apply does not change (probe.sh's ONLY). */
static const char *const kept_facts[] = { "rtt", "peers",
	"peers_not_probed", "routes", "kernel", "hostname", "distribution",
	"virtualization", "mem_total_bytes", "tuned", "tuned_active", NULL };
static const char *const module_facts[] = { "kernel_config", "modules",
	NULL };

static void
keep_facts(json_t *to, const json_t *from, const char *const *keys)
{
	json_t	*v;
	size_t	 i;

	for (i = 0; keys[i] != NULL; i++) {
		v = json_object_get(from, keys[i]);
		if (v != NULL)
			json_object_set(to, keys[i], v);
	}
}

void
tune_refresh_facts(struct module_ctx *ctx, struct apply_result *ar,
    enum probe_reread what)
{
	static const char *const sysctl_facts[] = { "sysctl", "sysctl_files",
	    "sysctl_order", "sysctl_readonly_mount", NULL };
	const json_t	*facts = module_ctx_facts(ctx);
	json_t		*f, *v;
	size_t		 i;

	if (ar->facts == NULL)
		return;
	if (facts == NULL) {
		module_ctx_set_facts(ctx, ar->facts);
		return;
	}
	if (what != PROBE_SYSCTL) {
		/* The new facts, but the old of what was not read again. */
		f = json_copy(ar->facts);
		keep_facts(f, facts, kept_facts);
		if (what != PROBE_NET_MODULES && what != PROBE_ALL)
			keep_facts(f, facts, module_facts);
		module_ctx_set_facts(ctx, f);
		json_decref(f);
		return;
	}
	/* Copy on write: other tasks may hold the old object. */
	f = json_deep_copy(facts);
	for (i = 0; sysctl_facts[i] != NULL; i++) {
		v = json_object_get(ar->facts, sysctl_facts[i]);
		if (v != NULL)
			json_object_set(f, sysctl_facts[i], v);
	}
	module_ctx_set_facts(ctx, f);
	json_decref(f);
}

/* Whether the file on the host has exactly our keys and values. */
static int
same_file_values(const struct apply_result *ar, const struct stage *st)
{
	struct dropin	 old;
	char		*cause = NULL;
	int		 same;

	if (!ar->old_exists)
		return 0;
	dropin_init(&old);
	same = dropin_parse(ar->old_text, &old, &cause) == 0 &&
	    dropin_same_values(&old, &st->dropin);
	free(cause);
	dropin_free(&old);
	return same;
}

/* "key: live -> planned (set by FILE)" lines for --diff. */
static void
add_key_table(struct strbuf *sb, const struct stage *st,
    const struct apply_result *ar, const json_t *facts)
{
	size_t i, j;

	strbuf_addf(sb, "live values (before -> planned), and the file that "
	    "sets each key at boot now:\n");
	for (i = 0; i < st->dropin.n; i++) {
		const struct dropin_entry	*e = &st->dropin.entries[i];
		const char			*before = NULL;
		char				*winner;

		for (j = 0; j < ar->nkeys; j++) {
			if (strcmp(ar->keys[j].key, e->key) == 0)
				before = ar->keys[j].before != NULL ?
				    ar->keys[j].before : ar->keys[j].live;
		}
		winner = tune_boot_winner(facts, NULL, e->key);
		strbuf_addf(sb, "  %-36s %s -> %s%s   (boot: %s)\n", e->key,
		    before != NULL ? before : "?", e->value,
		    values_equal(before, e->value) ? " (same)" : "",
		    winner != NULL ? winner : "no file");
		free(winner);
	}
	for (i = 0; i < st->nnotes; i++)
		strbuf_addf(sb, "  note: %s\n", st->notes[i]);
}

/* Which keys of ours another file overrides (it would win at boot). */
static void
check_overrides(const struct stage *st, const json_t *facts,
    struct strbuf *errors)
{
	size_t i;

	for (i = 0; i < st->dropin.n; i++) {
		char *winner = tune_boot_winner(facts, st,
		    st->dropin.entries[i].key);

		if (winner != NULL && strcmp(winner, st->file) != 0)
			add_error(errors, "%s: '%s' overrides '%s' (it would "
			    "win at the next boot)", st->dropin.entries[i].key,
			    winner, st->file);
		free(winner);
	}
}

void
tune_drift_add(json_t *items, const char *key, const char *expected,
    const char *live, const char *cause, const char *detail)
{
	json_t *item = json_pack("{s:s, s:s?, s:s?, s:s}", "key", key,
	    "expected", expected, "live", live, "cause", cause);

	if (detail != NULL)
		json_object_set_new(item, "detail", json_string(detail));
	json_array_append_new(items, item);
}

int
tune_changes_live_net(const struct stage *st)
{
	return (st->qdisc != NULL && st->qplan.devs != NULL) ||
	    (st->route_opts != NULL && st->route_changed);
}

char *
tune_route_opts(const json_t *cw, const json_t *rw)
{
	if (json_is_integer(cw) && json_is_integer(rw))
		return xprintf("initcwnd %lld initrwnd %lld",
		    (long long)json_integer_value(cw),
		    (long long)json_integer_value(rw));
	if (json_is_integer(cw))
		return xprintf("initcwnd %lld",
		    (long long)json_integer_value(cw));
	if (json_is_integer(rw))
		return xprintf("initrwnd %lld",
		    (long long)json_integer_value(rw));
	return NULL;
}

/*
 * What differs between the host and what the play would make of it, each
 * with its cause where it can be known: the file is missing or was edited,
 * another file overrides ours, a value was changed at runtime, the live
 * qdisc is not the configured one, a module is not loaded.
 */
json_t *
tune_drift_items(const struct stage *st, const struct apply_result *ar,
    const json_t *facts)
{
	json_t		*items = json_array();
	struct dropin	 old;
	char		*cause = NULL;
	size_t		 i, j, n_keys;
	int		 parsed = 0;

	dropin_init(&old);
	if (!ar->old_exists)
		tune_drift_add(items, st->file, "present", "missing", "file missing",
		    NULL);
	else {
		parsed = dropin_parse(ar->old_text, &old, &cause) == 0;
		free(cause);
	}
	for (i = 0; i < st->dropin.n; i++) {
		const struct dropin_entry	*e = &st->dropin.entries[i];
		const char			*live = NULL, *in_file;
		char				*winner;

		for (j = 0; j < ar->nkeys; j++) {
			if (strcmp(ar->keys[j].key, e->key) == 0)
				live = ar->keys[j].before;
		}
		winner = tune_boot_winner(facts, NULL, e->key);
		in_file = parsed ? dropin_get(&old, e->key) : NULL;
		if (winner != NULL && strcmp(winner, st->file) != 0 &&
		    ar->old_exists)
			tune_drift_add(items, e->key, in_file != NULL ? in_file :
			    e->value, live, "overridden", winner);
		else if (!ar->old_exists) {
			if (!values_equal(live, e->value))
				tune_drift_add(items, e->key, e->value, live,
				    "file missing", NULL);
		} else if (!values_equal(in_file, e->value))
			/* The file was edited (reloaded or not): the cause is
			 * the file, whatever the kernel has now. */
			tune_drift_add(items, e->key, e->value, in_file != NULL ?
			    in_file : "(not in the file)", "file edited",
			    st->file);
		else if (!values_equal(live, e->value))
			/* Our file is right, the kernel has another value. */
			tune_drift_add(items, e->key, e->value, live,
			    "changed at runtime", NULL);
		free(winner);
	}
	n_keys = json_array_size(items);
	if (ar->old_exists && n_keys == 0 && !same_file_values(ar, st))
		tune_drift_add(items, st->file, "as rendered", "differs",
		    "file edited", NULL);
	for (i = 0; st->qdisc != NULL && i < st->qplan.n; i++) {
		const struct qdisc_plan_if *pi = &st->qplan.ifs[i];
		char *live;

		if (!pi->set)
			continue;
		live = qdisc_describe(qdisc_plan_live(facts, pi->dev));
		tune_drift_add(items, "qdisc", st->qdisc, live,
		    "qdisc differs from the config", pi->dev);
		free(live);
	}
	if (st->route_opts != NULL && st->route_changed) {
		/* Lost at a reboot (no unit, or a unit that ran before the
		 * route was there) or by a network manager's reconfigure. */
		const json_t *rt = json_object_get(facts, "default_route");
		char *live = tune_route_opts(json_object_get(rt, "initcwnd"),
		    json_object_get(rt, "initrwnd"));

		tune_drift_add(items, "default route", st->route_opts, live != NULL ?
		    live : "none",
		    "route options not live", json_string_value(
		    json_object_get(rt, "interface")));
		free(live);
	}
	if (st->modules != NULL) {
		char *mods = xstrdup(st->modules), *m, *save = NULL;

		for (m = strtok_r(mods, " ", &save); m != NULL;
		    m = strtok_r(NULL, " ", &save)) {
			const json_t *mod = json_object_get(json_object_get(
			    facts, "modules"), m);

			if (!json_is_true(json_object_get(mod, "loaded")) &&
			    !json_is_true(json_object_get(mod, "builtin")))
				tune_drift_add(items, m, "loaded", "not loaded",
				    "module not loaded", NULL);
		}
		free(mods);
	}
	dropin_free(&old);
	return items;
}

/*
 * Flushing a stage: plan the request, render the drop-in, apply both in
 * one round trip, interpret what the host said. struct flush carries one
 * flush through the four steps.
 */
struct flush {
	struct module_ctx	*ctx;
	int			 check;
	const struct stage	*st;
	struct apply_request	 req;
	char			*text;		/* the rendered drop-in */
	struct apply_result	 ar;
	struct strbuf		 diff;
	struct strbuf		 errors;	/* "; "-separated */
	int			 changed;
};

/* Plan: what the apply script is asked to do on this host. */
static void
flush_plan(struct flush *f)
{
	fill_request(&f->req, f->ctx, f->st);
	f->req.mode = f->check ? APPLY_CHECK : APPLY_APPLY;
	f->req.reprobe = !f->check;
	/* Check mode schedules nothing: it changes nothing to revert. Nor
	 * does an apply whose qdisc is live on every interface already and
	 * whose route has its options: arming and cancelling a revert there
	 * cost a converged rerun a transient timer on the host each time
	 * (7.9 s of a no-op apply on a UML guest). */
	if (!f->check)
		f->req.confirm = tune_confirm_seconds(
		    module_ctx_confirm_timeout(f->ctx), tune_changes_live_net(
		    f->st));
}

/* Render: the drop-in's text, refused when anything in it does not pass
 * the gate (lib/remote/hostline.h). */
static int
flush_render(struct flush *f, struct module_result *res)
{
	const char	*playbook = module_ctx_playbook_path(f->ctx);
	char		*why;

	f->text = dropin_render(&f->st->dropin, playbook != NULL ? playbook :
	    "(ad hoc)", f->st->file, &why);
	if (f->text != NULL)
		return 0;
	res->status = RESULT_FAILED;
	res->msg = xprintf("%s; refused, nothing was written to this host",
	    why);
	free(why);
	return -1;
}

/* Apply: the one round trip; in check mode a read of the same, which the
 * probe has usually made already (check_from_facts). */
static int
flush_apply(struct flush *f, struct module_result *res)
{
	struct confirm_try	ct;
	int			rc;

	if (f->check && check_from_facts(module_ctx_facts(f->ctx), f->st,
	    &f->ar) == 0)
		return 0;
	if (f->req.confirm > 0)
		tune_confirm_begin(&ct, f->ctx, &f->req);
	rc = tune_run_apply(f->ctx, &f->req, f->text, &f->ar, res);
	if (f->req.confirm > 0) {
		rc = tune_confirm_end(&ct, f->ctx, &f->req, rc, &f->ar, res);
		f->req.token = NULL;	/* ct's, gone with this frame */
	}
	return rc;
}

/* The file: a unified diff from what is there to what we render, when its
 * keys or values differ (comments alone never rewrite it); then the
 * key table. */
static void
interpret_file(struct flush *f)
{
	const struct stage	*st = f->st;
	char			*d;

	if (!same_file_values(&f->ar, st) && (f->ar.old_exists ||
	    st->dropin.n > 0)) {
		f->changed = 1;
		d = udiff(f->ar.old_exists ? f->ar.old_text : NULL, f->text,
		    st->file, st->file, 3);
		strbuf_addstr(&f->diff, d);
		free(d);
	}
	add_key_table(&f->diff, st, &f->ar, module_ctx_facts(f->ctx));
}

/* Each key: changed when its value was another; after a write, an error
 * when the kernel does not have it. */
static void
interpret_keys(struct flush *f)
{
	size_t i;

	for (i = 0; i < f->ar.nkeys; i++) {
		const struct apply_key *k = &f->ar.keys[i];

		if (!values_equal(k->before, k->want))
			f->changed = 1;
		if (f->check)
			continue;
		if (k->error != NULL || !values_equal(k->live, k->want))
			add_error(&f->errors, "the kernel did not take %s = "
			    "%s from '%s' (live: %s%s%s)", k->key, k->want,
			    f->st->file, k->live != NULL ? k->live :
			    "unreadable", k->error != NULL ? ", " : "",
			    k->error != NULL ? k->error : "");
	}
}

/* The live qdisc and route options: their lines of the diff. */
static void
interpret_live(struct flush *f)
{
	const struct stage	*st = f->st;
	size_t			 i;

	if (st->qplan.want != NULL && st->qplan.n > 0)
		strbuf_addstr(&f->diff, "live qdisc (before -> planned) of "
		    "each interface that carries the traffic:\n");
	for (i = 0; st->qplan.want != NULL && i < st->qplan.n; i++) {
		const struct qdisc_plan_if *pi = &st->qplan.ifs[i];

		if (pi->set)
			f->changed = 1;
		strbuf_addf(&f->diff, "  %s: %s -> %s%s%s (carries %s)\n",
		    pi->dev, pi->live, st->qplan.want, pi->tx_queues > 1 ?
		    " on every mq queue" : "", pi->set ? "" : " (same)",
		    pi->carries);
	}
	if (st->route_opts != NULL) {
		if (st->route_changed || f->ar.route_persisted != NULL)
			f->changed = 1;
		strbuf_addf(&f->diff, "  default route: %s%s%s\n",
		    st->route_opts, st->route_persist ? ", kept across "
		    "reboots by " : "", st->route_persist ?
		    "/etc/systemd/system/tcptune-route.service" : "");
	}
}

/* After a write: what the script could not do, which of our keys another
 * file overrides, and the facts the re-probe brought. */
static void
interpret_write(struct flush *f)
{
	const struct stage	*st = f->st;
	const struct apply_result *ar = &f->ar;

	if (ar->write_error != NULL)
		add_error(&f->errors, "writing '%s': %s", st->file,
		    ar->write_error);
	if (ar->qdisc_error != NULL)
		add_error(&f->errors, "qdisc %s: %s", st->qdisc,
		    ar->qdisc_error);
	else
		check_live_qdisc(st, ar->facts, &f->errors);
	if (ar->route_error != NULL)
		add_error(&f->errors, "route %s: %s", st->route_opts,
		    ar->route_error);
	if (ar->module_error != NULL)
		add_error(&f->errors, "modules %s: %s", st->modules,
		    ar->module_error);
	/* Without a re-probe (nothing changed), the facts from the start of
	 * the play still say which file wins. */
	check_overrides(st, ar->facts != NULL ? ar->facts :
	    module_ctx_facts(f->ctx), &f->errors);
	tune_refresh_facts(f->ctx, &f->ar, apply_reread(&f->req));
}

/* The task line and data of tcptune drift: the drifted items. */
static void
drift_verdict(struct flush *f, struct module_result *res)
{
	json_t	*items = tune_drift_items(f->st, &f->ar,
	    module_ctx_facts(f->ctx));
	size_t	 n = json_array_size(items);

	res->status = n > 0 ? RESULT_CHANGED : RESULT_OK;
	res->msg = n > 0 ? xprintf("%zu drifted item%s", n, n == 1 ? "" :
	    "s") : xprintf("%s in sync", f->st->file);
	res->data = json_pack("{s:s, s:o}", "file", f->st->file, "drift",
	    items);
}

/* The task line and data of an apply or its plan. */
static void
apply_verdict(struct flush *f, struct module_result *res)
{
	const struct stage		*st = f->st;
	const struct apply_result	*ar = &f->ar;
	const char			*backup = ar->backup != NULL ?
	    "; backup kept under " TUNE_STATE_DIR : "";
	const char			*confirmed = ar->confirm_status !=
	    NULL && strcmp(ar->confirm_status, "confirmed") == 0 ?
	    "; confirmed from a new connection" : "";

	if (f->errors.len > 0) {
		res->status = RESULT_FAILED;
		res->msg = strbuf_detach(&f->errors, NULL);
	} else if (f->changed) {
		res->status = RESULT_CHANGED;
		if (st->dropin.n == 0 && !ar->old_exists)
			res->msg = xprintf("%s %s%s%s", f->check ?
			    "would set" : "set", st->route_opts != NULL ?
			    st->route_opts : st->qdisc != NULL ? st->qdisc :
			    "live values", backup, confirmed);
		else
			res->msg = xprintf("%s %s (%zu key%s)%s%s", f->check ?
			    "would write" : ar->written ? "wrote" : "loaded",
			    st->file, st->dropin.n, st->dropin.n == 1 ? "" :
			    "s", backup, confirmed);
	} else {
		res->status = RESULT_OK;
		res->msg = xprintf("%s is up to date (%zu key%s)", st->file,
		    st->dropin.n, st->dropin.n == 1 ? "" : "s");
	}
	res->data = json_pack("{s:s, s:b, s:s}", "file", st->file, "written",
	    ar->written, "content", f->text);
}

/* Interpret: from what the script said to the task's result -- the diff,
 * changed or not, every error, in any mode the steps the script could not
 * do (the host is not what the plan says then). */
static void
flush_interpret(struct flush *f, struct module_result *res)
{
	int drift = module_ctx_drift(f->ctx);

	interpret_file(f);
	interpret_keys(f);
	interpret_live(f);
	if (!f->check)
		interpret_write(f);
	if (f->ar.step_error != NULL)
		add_error(&f->errors, "%s", f->ar.step_error);
	if (f->ar.undone)
		strbuf_addf(&f->errors, "; nothing was changed: the previous "
		    "'%s' and the live values were put back", f->st->file);
	else if (f->check && !drift)
		/* A plan shows what the apply would fail on, too. */
		check_overrides(f->st, module_ctx_facts(f->ctx), &f->errors);
	res->diff = strbuf_detach(&f->diff, NULL);
	if (drift && f->ar.step_error == NULL)
		drift_verdict(f, res);
	else
		apply_verdict(f, res);
}

/* The tuning stager's flush: apply (in check mode, diff) the host's stage
 * in one round trip. */
static int
tune_flush(struct module_ctx *ctx, void *stage, struct module_result *res)
{
	struct flush f;

	memset(&f, 0, sizeof f);
	f.ctx = ctx;
	f.check = module_ctx_check(ctx);
	f.st = stage;
	strbuf_init(&f.diff);
	strbuf_init(&f.errors);
	flush_plan(&f);
	if (flush_render(&f, res) == 0 && flush_apply(&f, res) == 0)
		flush_interpret(&f, res);
	free(f.text);
	strbuf_release(&f.diff);
	strbuf_release(&f.errors);
	apply_result_clear(&f.ar);
	return 0;
}

static void
tune_stage_free(void *stage)
{
	stage_free(stage);
}

const struct module_stager tune_stager = {
	.name = "tune",
	.task_name = "apply tuning (sysctl drop-in, qdisc, route)",
	.flush = tune_flush,
	.free = tune_stage_free,
};

int
tune_rollback(struct module_ctx *ctx, const char *file, int previous,
    int plan, struct module_result *res)
{
	struct apply_request	req;
	struct apply_result	ar;
	struct strbuf		errors = STRBUF_INIT;
	size_t			i, restored = 0;
	char			*d;

	strbuf_init(&errors);
	memset(&ar, 0, sizeof ar);
	fill_request(&req, ctx, NULL);
	req.file = file;
	req.to_previous = previous;
	req.mode = plan ? APPLY_ROLLBACK_CHECK : APPLY_ROLLBACK;
	req.reprobe = !plan;
	if (tune_run_apply(ctx, &req, NULL, &ar, res) != 0)
		goto out;
	/* The script says what it could not do; never "restored" then. */
	if (ar.step_error != NULL) {
		res->status = RESULT_FAILED;
		res->msg = xprintf("rollback of '%s' failed: %s%s%s", file,
		    ar.step_error, ar.qdisc_error != NULL ? "; qdisc: " : "",
		    ar.qdisc_error != NULL ? ar.qdisc_error : "");
		goto out;
	}
	if (plan) {
		if (!ar.backup_exists) {
			res->status = RESULT_OK;
			res->msg = xprintf("nothing to roll back for '%s' (no "
			    "backup)", file);
			goto out;
		}
		d = udiff(ar.old_exists ? ar.old_text : NULL, ar.backup_text,
		    file, file, 3);
		res->diff = d;
		for (i = 0; i < ar.nkeys; i++) {
			char *line = xprintf("  %-36s %s -> %s\n",
			    ar.keys[i].key, ar.keys[i].before ?: "?",
			    ar.keys[i].want);

			d = xprintf("%s%s", res->diff, line);
			free(res->diff);
			free(line);
			res->diff = d;
		}
		res->status = RESULT_CHANGED;
		res->msg = xprintf("would %s '%s' and restore %zu live "
		    "value%s", ar.backup_text != NULL ? "restore" : "remove",
		    file, ar.nkeys, ar.nkeys == 1 ? "" : "s");
		goto out;
	}
	if (ar.rollback_status == NULL || strcmp(ar.rollback_status,
	    "nothing") == 0) {
		res->status = RESULT_OK;
		res->msg = xprintf("nothing to roll back for '%s' (no backup)",
		    file);
		goto out;
	}
	for (i = 0; i < ar.nkeys; i++) {
		const struct apply_key *k = &ar.keys[i];

		/* A read-only key that already has the value is fine. */
		if (values_equal(k->live, k->want)) {
			restored += k->changed;
			continue;
		}
		add_error(&errors, "could not restore %s = %s (live: %s%s%s)",
		    k->key, k->want, k->live != NULL ? k->live : "unreadable",
		    k->error != NULL ? ", " : "", k->error != NULL ? k->error :
		    "");
	}
	tune_refresh_facts(ctx, &ar, PROBE_SYSCTL);
	if (errors.len > 0) {
		res->status = RESULT_FAILED;
		res->msg = strbuf_detach(&errors, NULL);
	} else {
		res->status = RESULT_CHANGED;
		res->msg = xprintf("%s '%s', restored %zu live value%s",
		    ar.rollback_file != NULL && strcmp(ar.rollback_file,
		    "removed") == 0 ? "removed" : "restored", file, restored,
		    restored == 1 ? "" : "s");
	}
out:
	strbuf_release(&errors);
	apply_result_clear(&ar);
	return 0;
}
