/* One task on one host (runner-int.h, runner_run_task): its `when`, its
 * loop's items (playbook/loop.h) each with their own `when`, arguments
 * and module call, then one recorded result, the register variable and
 * the handlers it notifies. The runner's walk of the play's tree decides
 * which task; this file decides what running it means. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/strbuf.h"
#include "base/util.h"
#include "base/xalloc.h"
#include "playbook/loop.h"
#include "playbook/playbook.h"
#include "remote/hostline.h"
#include "run/runner.h"
#include "run/runner-int.h"
#include "template/template.h"

static json_t	*result_var(const struct module_result *);

/* into gets a copy of every key of from. */
static void
vars_update_copy(json_t *into, const json_t *from)
{
	json_t *copy = json_deep_copy(from);

	json_object_update(into, copy);
	json_decref(copy);
}
static void	 judge(const struct task *, json_t *, struct module_result *);
static void	 set_attempts(struct module_result *, int);
static void	 sleep_seconds(int);

int
runner_gate_args(const struct task *t, const json_t *args, const json_t *vars,
    struct module_result *res)
{
	char *why = NULL, *at;

	if (hostline_check_args(t->module, args, vars, &why) == 0)
		return 0;
	at = ypos_str(&t->pos);
	res->status = RESULT_FAILED;
	res->msg = xprintf("%s: task '%s': %s; refused, nothing was written "
	    "to this host", at, t->name, why);
	free(at);
	free(why);
	return -1;
}

/* A delegated task's host as Ansible's callbacks label it: its name, and
 * its address when that differs (the implicit localhost has none). */
static char *
delegated_label(const struct host_state *to)
{
	if (to->local || strcmp(to->tp.host, to->name) == 0)
		return xstrdup(to->name);
	return xprintf("%s(%s)", to->name, to->tp.host);
}

/* The module on the rendered arguments, judged: one attempt. */
static void
call_attempt(struct runner *r, struct host_state *h, const struct play *play,
    const struct task *t, json_t *vars, const json_t *args, uint64_t given,
    struct module_result *res)
{
	struct module_ctx ctx;

	runner_fill_ctx(&ctx, r, h, play, t, vars);
	if (ctx.conn_error != NULL) {
		res->status = RESULT_FAILED;
		res->msg = ctx.conn_error;
		ctx.conn_error = NULL;
	} else if (module_call(t->module, &ctx, args, given, res) != 0 &&
	    res->status != RESULT_FAILED && res->status != RESULT_UNREACHABLE) {
		res->status = RESULT_FAILED;
		if (res->msg == NULL)
			res->msg = xstrdup("module failed");
	}
	if (ctx.conn != h)
		res->delegated = delegated_label(ctx.conn);
	runner_clear_ctx(&ctx);
	judge(t, vars, res);
}

/* until, retries and delay, as Ansible's TaskExecutor: the arguments are
 * rendered once; with an until, up to retries + 1 attempts (retries 3 when
 * not given; 0: one attempt, the condition not looked at), each judged by
 * the condition with the task's result under its register name and the
 * facts it set (a failed attempt too); before each retry the retry line
 * and `delay` seconds (5 when not given). Out of attempts, the task has
 * failed with attempts = retries, Ansible's count. */
static void
call_until(struct runner *r, struct host_state *h, const struct play *play,
    const struct task *t, json_t *vars, const json_t *args, uint64_t given,
    struct module_result *res)
{
	const json_t	*facts;
	char		*cause = NULL;
	int		 attempts, attempt, truth = 0;

	attempts = task_until_attempts(t);
	for (attempt = 1; attempt <= attempts && !runner_interrupted;
	    attempt++) {
		if (attempt > 1)
			module_result_clear(res);
		memset(res, 0, sizeof *res);
		call_attempt(r, h, play, t, vars, args, given, res);
		set_attempts(res, attempt);
		if (attempts == 1 || res->status == RESULT_UNREACHABLE)
			return;
		if (json_is_object(facts = json_object_get(res->data,
		    "ansible_facts")))
			json_object_update(vars, (json_t *)facts);
		if (t->register_as != NULL)
			json_object_set_new(vars, t->register_as,
			    result_var(res));
		if (template_eval_bool(t->until, vars, &t->until_pos, &truth,
		    &cause) != 0) {
			res->status = RESULT_FAILED;
			free(res->msg);
			res->msg = cause;
			break;
		}
		if (truth)
			break;
		if (attempt < attempts) {
			runner_retry(r, h, t->name, attempts - attempt);
			sleep_seconds(t->delay < 0 ? 5 : t->delay);
		}
	}
	if (t->register_as != NULL)
		json_object_del(vars, t->register_as);
	if (truth || cause != NULL)
		return;
	set_attempts(res, attempts - 1);
	if (res->status != RESULT_FAILED && res->msg == NULL) {
		/* the result as Ansible shows it: its data, failed */
		json_object_set_new(res->data, "changed",
		    json_boolean(res->status == RESULT_CHANGED));
		res->msg = json_dumps(res->data, JSON_SORT_KEYS);
	}
	res->status = RESULT_FAILED;
}

/* when, templating, binding, the gate, then the module's attempts. */
static void
call_module(struct runner *r, struct host_state *h, const struct play *play,
    const struct task *t, json_t *vars, struct module_result *res)
{
	json_t			*args = NULL;
	uint64_t		 given = 0;
	char			*cause = NULL;
	int			 when = 1;

	if (t->when != NULL && template_eval_bool(t->when, vars, &t->when_pos,
	    &when, &cause) != 0) {
		res->status = RESULT_FAILED;
		res->msg = cause;
		return;
	}
	if (!when) {
		res->status = RESULT_SKIPPED;
		res->msg = xstrdup("condition was false");
		return;
	}
	if ((args = task_render_args(t, vars, &given, &cause)) == NULL) {
		res->status = RESULT_FAILED;
		res->msg = cause;
		return;
	}
	if (runner_gate_args(t, args, vars, res) == 0) {
		if (t->until != NULL)
			call_until(r, h, play, t, vars, args, given, res);
		else
			call_attempt(r, h, play, t, vars, args, given, res);
	}
	json_decref(args);
}

/* until's delay, in steps of a tenth of a second so that Ctrl-C ends it
 * soon. */
static void
sleep_seconds(int secs)
{
	struct timespec	tenth = { 0, 100000000L };
	long		i;

	for (i = 0; i < (long)secs * 10 && !runner_interrupted; i++)
		nanosleep(&tenth, NULL);
}

/* attempts in the registered result, as Ansible's. */
static void
set_attempts(struct module_result *res, int n)
{
	if (res->data == NULL)
		res->data = json_object();
	if (json_is_object(res->data))
		json_object_set_new(res->data, "attempts", json_integer(n));
}

/* changed_when, then failed_when, as Ansible's TaskExecutor: each sees
 * the task's own result under its register name; failed_when decides
 * failure either way (a failed command whose failed_when is false is not
 * failed). */
static void
judge(const struct task *t, json_t *vars, struct module_result *res)
{
	char	*cause = NULL;
	int	 changed = res->status == RESULT_CHANGED, failed, truth;

	/* a failure's own changed (result_var's) */
	if (res->status == RESULT_FAILED)
		changed = json_is_true(json_object_get(res->data, "changed"));
	if ((t->changed_when == NULL && t->failed_when == NULL) ||
	    res->status == RESULT_SKIPPED || res->status == RESULT_UNREACHABLE)
		return;
	failed = res->status == RESULT_FAILED;
	if (t->register_as != NULL)
		json_object_set_new(vars, t->register_as, result_var(res));
	if (t->changed_when != NULL) {
		if (template_eval_bool(t->changed_when, vars,
		    &t->changed_when_pos, &truth, &cause) != 0)
			goto bad;
		changed = truth;
	}
	if (t->failed_when != NULL) {
		if (template_eval_bool(t->failed_when, vars,
		    &t->failed_when_pos, &truth, &cause) != 0)
			goto bad;
		if (truth && !failed) {
			free(res->msg);
			res->msg = xstrdup("failed_when condition was true");
		}
		failed = truth;
	}
	res->status = failed ? RESULT_FAILED : changed ? RESULT_CHANGED :
	    RESULT_OK;
	/* what a failure changed, as changed_when judged it */
	if (failed && json_is_object(res->data))
		json_object_set_new(res->data, "changed", json_boolean(changed));
	goto out;
bad:
	res->status = RESULT_FAILED;
	free(res->msg);
	res->msg = cause;
out:
	if (t->register_as != NULL)
		json_object_del(vars, t->register_as);
}

/* A result as the registered variable sees it, Ansible's keys: changed,
 * failed, skipped, msg, and the module's data (rc, stdout, ...) at the
 * top, with stdout_lines; also tcptune's status and data. */
static json_t *
result_var(const struct module_result *res)
{
	json_t		*reg = json_pack("{s:s, s:b, s:b, s:b}",
	    "status", result_status_name(res->status),
	    "changed", res->status == RESULT_CHANGED,
	    "failed", res->status == RESULT_FAILED ||
	    res->status == RESULT_UNREACHABLE,
	    "skipped", res->status == RESULT_SKIPPED);
	const char	*key, *out;
	json_t		*v, *lines;

	if (res->msg != NULL)
		json_object_set_new(reg, "msg", json_string(res->msg));
	if (res->data == NULL)
		return reg;
	json_object_set(reg, "data", res->data);
	json_object_foreach(res->data, key, v) {
		/* the module's own msg (debug's) over the line's text; a
		 * failure's own changed (a command that ran and failed did
		 * change, as Ansible's result says) */
		if (json_object_get(reg, key) != NULL && strcmp(key, "msg") !=
		    0 && !(strcmp(key, "changed") == 0 && json_is_boolean(v) &&
		    res->status == RESULT_FAILED))
			continue;
		/* stdout and stderr as the module gives them: command and
		 * shell strip their trailing newlines themselves, as
		 * Ansible's command module does (strip_empty_ends) */
		json_object_set(reg, key, v);
	}
	if ((out = json_string_value(json_object_get(reg, "stdout"))) !=
	    NULL && json_object_get(reg, "stdout_lines") == NULL) {
		const char *nl;

		lines = json_array();
		while (*out != '\0') {
			nl = strchrnul(out, '\n');
			json_array_append_new(lines, json_stringn(out,
			    (size_t)(nl - out)));
			out = *nl != '\0' ? nl + 1 : nl;
		}
		json_object_set_new(reg, "stdout_lines", lines);
	}
	return reg;
}

/* The loop: every item, even after one failed (as Ansible), then one
 * result: failed if any item failed, changed if any changed, skipped if
 * every item was, else ok; data.results holds each item's. */
static void
run_loop(struct runner *r, struct host_state *h, const struct play *play,
    const struct task *t, json_t *vars, struct module_result *res)
{
	struct module_result	 item;
	struct strbuf		 diff;
	json_t			*items, *results, *one;
	char			*cause = NULL, *label;
	size_t			 i, n, failed = 0, changed = 0, skipped = 0;
	int			 undefined, when = 1;

	if ((items = loop_items(&t->loop, vars, &undefined, &cause)) ==
	    NULL) {
		/* an undefined loop under a false when is skipped */
		char *why = NULL;

		if (undefined && t->when != NULL && template_eval_bool(t->when,
		    vars, &t->when_pos, &when, &why) == 0 && !when) {
			free(cause);
			res->status = RESULT_SKIPPED;
			res->msg = xstrdup("condition was false");
			return;
		}
		free(why);
		res->status = RESULT_FAILED;
		res->msg = cause;
		return;
	}
	n = json_array_size(items);
	results = json_array();
	strbuf_init(&diff);
	for (i = 0; i < n; i++) {
		memset(&item, 0, sizeof item);
		loop_set_item(&t->loop, vars, items, i);
		call_module(r, h, play, t, vars, &item);
		one = result_var(&item);
		if (item.delegated != NULL)
			json_object_set_new(one, "_delegated",
			    json_string(item.delegated));
		if (item.verbose && item.msg != NULL)
			json_object_set_new(one, "_display",
			    json_string(item.msg));
		json_object_set(one, t->loop.loop_var, json_array_get(items,
		    i));
		if (strcmp(t->loop.loop_var, "item") != 0)
			json_object_set_new(one, "ansible_loop_var",
			    json_string(t->loop.loop_var));
		label = loop_label(&t->loop, vars, json_array_get(items, i));
		json_object_set_new(one, "_label", json_string(label));
		free(label);
		json_array_append_new(results, one);
		failed += item.status == RESULT_FAILED ||
		    item.status == RESULT_UNREACHABLE;
		changed += json_is_true(json_object_get(one, "changed"));
		skipped += item.status == RESULT_SKIPPED;
		/* --diff shows every item's */
		if (item.diff != NULL)
			strbuf_addstr(&diff, item.diff);
		module_result_clear(&item);
	}
	json_object_del(vars, t->loop.loop_var);
	if (failed > 0) {
		res->status = RESULT_FAILED;
		res->msg = xstrdup("One or more items failed");
	} else if (n == 0 || skipped == n) {
		res->status = RESULT_SKIPPED;
		res->msg = xstrdup(n == 0 ? "No items in the list" :
		    "All items skipped");
	} else
		res->status = changed > 0 ? RESULT_CHANGED : RESULT_OK;
	res->data = json_pack("{s:o}", "results", results);
	/* a failed loop changed what its changed items did (the recap's
	 * changed under ignore_errors, the registered changed) */
	if (res->status == RESULT_FAILED)
		json_object_set_new(res->data, "changed", json_boolean(
		    changed > 0));
	if (diff.len > 0)
		res->diff = strbuf_detach(&diff, NULL);
	strbuf_release(&diff);
	json_decref(items);
}

#define CENSORED	"the output has been hidden due to the fact that " \
			"'no_log: true' was specified for this result"

/* no_log: what is shown and kept of a result is Ansible's censored one
 * (its register variable has it all): a failure says only that, a loop's
 * items are labelled None; the diff goes. */
static void
censor(struct module_result *res)
{
	json_t	*results = json_object_get(res->data, "results"), *items, *it;
	size_t	 i;

	free(res->msg);
	res->msg = NULL;
	free(res->diff);
	res->diff = NULL;
	if (res->status == RESULT_FAILED)
		res->msg = xprintf("{\"censored\": \"%s\", \"changed\": "
		    "false}", CENSORED);
	items = json_array();
	json_array_foreach(results, i, it)
		json_array_append_new(items, json_pack("{s:O?, s:s, s:s}",
		    "status", json_object_get(it, "status"), "_label", "None",
		    "censored", CENSORED));
	json_decref(res->data);
	res->data = json_pack("{s:s}", "censored", CENSORED);
	if (json_array_size(items) > 0)
		json_object_set(res->data, "results", items);
	json_decref(items);
}

/* notify: every handler named so, and every one listening to the name. */
static void
notify(const struct play *play, struct host_state *h, const struct task *t)
{
	size_t i, j;

	if (h->notified == NULL)
		return;
	for (i = 0; i < t->nnotify; i++) {
		for (j = 0; j < play->nhandlers; j++) {
			if (handler_answers(&play->handlers[j], t->notify[i]))
				h->notified[j] = 1;
		}
	}
}

void
runner_run_task(struct runner *r, struct host_state *h,
    const struct play *play, size_t play_index, const struct task *t,
    json_t *vars)
{
	struct module_result	 res;
	double			 start = monotonic_seconds();

	memset(&res, 0, sizeof res);
	if (t->loop.kind != LOOP_NONE)
		run_loop(r, h, play, t, vars, &res);
	else
		call_module(r, h, play, t, vars, &res);
	if (t->register_as != NULL) {
		json_t *reg = result_var(&res);

		json_object_set_new(h->registered, t->register_as, reg);
	}
	/* set_fact's and include_vars' variables, as Ansible keeps a
	 * result's ansible_facts: only when the task did not fail */
	if (res.status != RESULT_FAILED && res.status != RESULT_UNREACHABLE) {
		json_object_update(h->included, h->pending_vars);
		json_object_update(h->registered, h->pending_facts);
	}
	/* run_once: what it set is every host's (runner_share_once) */
	if (t->run_once <= 0) {
		json_object_clear(h->pending_vars);
		json_object_clear(h->pending_facts);
	}
	if (res.status == RESULT_CHANGED)
		notify(play, h, t);
	if (t->no_log > 0)
		censor(&res);
	runner_record(h, play_index, t->name, t->module->name, &res,
	    res.status == RESULT_FAILED && task_ignores_errors(t, vars),
	    monotonic_seconds() - start);
	module_result_clear(&res);
}

/* The tree of an include, read once per file and items in the run. */
static const struct play *
include_tree(struct runner *r, const struct play *play, const struct task *t,
    const char *file, const json_t *items, size_t *seq, const char **path,
    char **cause)
{
	struct playbook	*pb;
	char		*dump = items != NULL ? json_dumps(items, JSON_COMPACT |
			    JSON_ENCODE_ANY) : NULL, *key;
	size_t		 i;

	key = xprintf("%p\n%s\n%s", (const void *)t, file, dump != NULL ?
	    dump : "");
	free(dump);
	for (i = 0; i < r->nincludes; i++) {
		if (strcmp(r->include_keys[i], key) == 0) {
			free(key);
			*seq = i + 1;
			*path = r->includes[i]->path;
			return &r->includes[i]->plays[0];
		}
	}
	if ((pb = playbook_load_include(play, t, file, items, cause)) ==
	    NULL) {
		free(key);
		return NULL;
	}
	r->includes = xreallocarray(r->includes, r->nincludes + 1,
	    sizeof *r->includes);
	r->include_keys = xreallocarray(r->include_keys, r->nincludes + 1,
	    sizeof *r->include_keys);
	r->includes[r->nincludes] = pb;
	r->include_keys[r->nincludes++] = key;
	*seq = r->nincludes;
	*path = pb->path;
	return &pb->plays[0];
}

/* The items an include's loop keeps: those whose `when` holds (the
 * include's when is per item, as a task's). */
static json_t *
include_items(const struct task *t, json_t *vars, int *skipped,
    char **cause)
{
	json_t	*items, *kept;
	size_t	 i;
	int	 undefined, when = 1;

	*skipped = 0;
	if ((items = loop_items(&t->loop, vars, &undefined, cause)) == NULL) {
		char *why = NULL;

		if (undefined && t->when != NULL && template_eval_bool(t->when,
		    vars, &t->when_pos, &when, &why) == 0 && !when) {
			free(*cause);
			*cause = NULL;
			*skipped = 1;
		}
		free(why);
		return NULL;
	}
	kept = json_array();
	for (i = 0; i < json_array_size(items); i++) {
		loop_set_item(&t->loop, vars, items, i);
		if (t->when != NULL && template_eval_bool(t->when, vars,
		    &t->when_pos, &when, cause) != 0) {
			json_decref(kept);
			kept = NULL;
			break;
		}
		if (t->when == NULL || when)
			json_array_append(kept, json_array_get(items, i));
	}
	json_object_del(vars, t->loop.loop_var);
	json_decref(items);
	if (kept != NULL && json_array_size(kept) == 0) {
		json_decref(kept);
		kept = NULL;
		*skipped = 1;
	}
	return kept;
}

const struct play *
runner_include(struct runner *r, struct host_state *h,
    const struct play *play, size_t play_index, const struct task *t,
    json_t *vars, size_t *seq)
{
	struct module_result	 res;
	const struct play	*tree = NULL;
	json_t			*items = NULL, *file = NULL;
	const char		*path = NULL;
	const char		*what = t->include_role ? "include_role" :
				    "include_tasks";
	char			*cause = NULL, *label;
	size_t			 i, n = 1;
	int			 when = 1, skipped = 0;

	memset(&res, 0, sizeof res);
	if (t->loop.kind != LOOP_NONE) {
		if ((items = include_items(t, vars, &skipped, &cause)) ==
		    NULL && !skipped)
			goto failed;
	} else if (t->when != NULL && template_eval_bool(t->when, vars,
	    &t->when_pos, &when, &cause) != 0)
		goto failed;
	if (skipped || !when) {
		res.status = RESULT_SKIPPED;
		res.msg = xstrdup("condition was false");
		goto record;
	}
	if ((file = template_render_string(t->include, vars, &t->pos,
	    &cause)) == NULL)
		goto failed;
	if (!json_is_string(file)) {
		ypos_fail(&cause, &t->pos, "%s: the %s must be a string",
		    what, t->include_role ? "role name" : "file");
		goto failed;
	}
	if ((tree = include_tree(r, play, t, json_string_value(file), items,
	    seq, &path, &cause)) == NULL)
		goto failed;
	/* one result per item, as Ansible's "included: FILE for h"; an
	 * included role's tasks say it all (Ansible prints and counts
	 * nothing for include_role itself) */
	n = t->include_role ? 0 : items != NULL ? json_array_size(items) : 1;
	for (i = 0; i < n; i++) {
		memset(&res, 0, sizeof res);
		res.status = RESULT_OK;
		if (items != NULL) {
			label = loop_label(&t->loop, vars,
			    json_array_get(items, i));
			res.msg = xprintf("included: %s (item=%s)", path,
			    label);
			free(label);
		} else
			res.msg = xprintf("included: %s", path);
		/* counted ok, as Ansible counts each included file once
		 * it is loaded (an include_role: nothing) */
		runner_record(h, play_index, t->name, what, &res, 0, 0);
	}
	goto out;
failed:
	res.status = RESULT_FAILED;
	res.msg = cause;
record:
	runner_record(h, play_index, t->name, what, &res,
	    res.status == RESULT_FAILED && task_ignores_errors(t, vars), 0);
	module_result_clear(&res);
	tree = NULL;
out:
	json_decref(items);
	json_decref(file);
	return tree != NULL && tree->ntasks > 0 ? tree : NULL;
}

void
runner_share_once(struct host_state *from, const struct task *t,
    struct host_state *to)
{
	const struct task_result	*last = from->nresults > 0 ?
					    &from->results[from->nresults - 1] :
					    NULL;
	json_t				*v;

	if (last == NULL || last->status == RESULT_FAILED ||
	    last->status == RESULT_UNREACHABLE) {
		/* a failure of it fails them all, as Ansible makes a
		 * run_once task's errors fatal */
		if (last != NULL && !last->ignored)
			to->failed = 1;
		return;
	}
	vars_update_copy(to->included, from->pending_vars);
	vars_update_copy(to->registered, from->pending_facts);
	if (t->register_as != NULL &&
	    (v = json_object_get(from->registered, t->register_as)) != NULL)
		json_object_set_new(to->registered, t->register_as,
		    json_deep_copy(v));
}
