#include "remote/apply.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "remote/embedded.h"
#include "remote/probe.h"
#include "remote/remote-cmd.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

static const char *
mode_name(enum apply_mode mode)
{
	switch (mode) {
	case APPLY_CHECK:
		return "check";
	case APPLY_APPLY:
		return "apply";
	case APPLY_ROLLBACK:
		return "rollback";
	case APPLY_CONF_READ:
		return "conf-read";
	case APPLY_CONF_WRITE:
		return "conf-write";
	case APPLY_CONFIRM:
		return "confirm";
	default:
		return "rollback-check";
	}
}

static int
empty(const char *s)
{
	return s == NULL || *s == '\0';
}

/* The script of every apply call: confirm.sh's functions, then apply.sh
 * (which calls them). A new string. */
static char *
apply_script(void)
{
	return xprintf("%s%s", embedded_confirm_sh, embedded_apply_sh);
}

/* The header's names and the NULL row. */
#define APPLY_NVARS	23

/* The header of one call; revert: the program the host's timer runs. */
static void
apply_vars(struct remote_var *v, const struct apply_request *req,
    const char *mode, const char *probe, const char *confirm,
    const char *revert, const char *input)
{
	const struct remote_var vars[] = {
		{ "MODE", mode },
		{ "FILE", req->file },
		{ "STATE", req->state_dir != NULL ? req->state_dir :
		    "/var/lib/tcptune" },
		{ "QDISC", req->qdisc },
		{ "DEV", req->dev },
		{ "TXQ", req->tx_queues },
		{ "MODULES", req->modules },
		{ "ROUTE", req->route_opts },
		{ "PROBE", probe },
		{ "PERSIST", req->route_persist ? "unit" : "" },
		{ "TO", req->to_previous ? "previous" : "" },
		{ "KEY", req->key },
		{ "EXPECT", req->expect_sum },
		{ "SETKV", req->set_kv },
		{ "WRITE", req->write ? "1" : "" },
		{ "RELOAD", req->reload ? "1" : "" },
		{ "IGNORE", req->ignore_errors ? "1" : "" },
		{ "CONFIRM", confirm },
		{ "TOKEN", req->token },
		{ "REVERT", revert },
		{ "CANCEL", req->cancel ? "1" : "" },
		{ "INPUT", input },
		{ NULL, NULL } };

	_Static_assert(sizeof vars == APPLY_NVARS * sizeof vars[0],
	    "APPLY_NVARS counts the header's names and the NULL row");
	memcpy(v, vars, sizeof vars);
}

enum probe_reread
apply_reread(const struct apply_request *req)
{
	if (!empty(req->modules))
		return PROBE_NET_MODULES;
	if (!empty(req->qdisc) || !empty(req->route_opts))
		return PROBE_NET;
	return PROBE_SYSCTL;
}

void
apply_call(const struct apply_request *req, const char *input,
    struct remote_call *call)
{
	struct remote_var	 vars[APPLY_NVARS];
	char			 confirm[32], *probe = NULL;
	char			*script = apply_script(), *revert = NULL;
	int			 arm = req->mode == APPLY_APPLY &&
	    req->confirm > 0;

	snprintf(confirm, sizeof confirm, "%d", req->confirm);
	/* After a change the probe reads again what the apply can have
	 * changed: the sysctls and sysctl.d files; the links, routes and
	 * congestion controls when a qdisc or route was set; the modules when
	 * one was loaded (tune_refresh_facts keeps the rest). */
	if (req->reprobe)
		probe = probe_program(apply_reread(req), req->links);
	if (arm) {
		/* What the timer runs: the same script, as a revert. */
		apply_vars(vars, req, "revert", NULL, "", NULL, NULL);
		revert = remote_program(script, vars);
	}
	apply_vars(vars, req, mode_name(req->mode), probe, arm ? confirm : "",
	    revert, input);
	remote_call(call, "apply", script, vars);
	free(revert);
	free(script);
	free(probe);
}

/* The sections whose "error=" lines go to step_error. */
static int
step_section(const char *section)
{
	static const char *const steps[] = { "old", "undo", "rollback",
	    "state", "backup", "conf", NULL };
	size_t i;

	for (i = 0; steps[i] != NULL; i++) {
		if (strcmp(section, steps[i]) == 0)
			return 1;
	}
	return 0;
}

/* One "key=value" line of a @set or @reload section. */
static void
parse_sysctl_run(struct apply_sysctl_run *r, const char *k, size_t kl,
    const char *v, size_t vl)
{
	r->ran = 1;
	if (kl == 2 && memcmp(k, "rc", 2) == 0)
		r->rc = remote_value_status(v, vl);
	else if (kl == 3 && memcmp(k, "out", 3) == 0)
		remote_value_set(&r->out, v, vl);
	else if (kl == 6 && memcmp(k, "failed", 6) == 0)
		r->failed = vl > 0 && *v == '1';
}

int
apply_parse(const char *out, size_t len, struct apply_result *res,
    char **cause)
{
	const char		*p = out, *end = out + len, *nl;
	char			 section[32] = "";
	struct strbuf		 old = STRBUF_INIT, backup = STRBUF_INIT;
	struct apply_key	*key = NULL;
	int			 first = 1, no_newline = 0;

	memset(res, 0, sizeof *res);
	res->live_rc = -1;
	strbuf_init(&old);
	strbuf_init(&backup);
	while (p < end) {
		size_t		 n;
		const char	*eq;

		nl = memchr(p, '\n', (size_t)(end - p));
		n = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);
		if (first) {
			if (n != 15 || memcmp(p, "tcptune-apply 1", 15) != 0) {
				strbuf_release(&old);
				strbuf_release(&backup);
				return fail(cause, "unexpected output from the "
				    "apply script: '%.*s'", (int)(n < 60 ? n : 60),
				    p);
			}
			first = 0;
		} else if (n == 7 && memcmp(p, "@@probe", 7) == 0) {
			const char *pe, *q = nl != NULL ? nl + 1 : end;

			/* One probe, after the change; its output runs up to
			 * its "@end" line (out need not end in a NUL). */
			if (res->facts != NULL) {
				strbuf_release(&old);
				strbuf_release(&backup);
				return fail(cause, "the apply script printed "
				    "two probes");
			}
			pe = memmem(q, (size_t)(end - q), "\n@end\n", 6);
			if (pe == NULL) {
				strbuf_release(&old);
				strbuf_release(&backup);
				return fail(cause, "the probe after apply was "
				    "cut short");
			}
			res->facts = probe_parse(q, (size_t)(pe - q) + 6, cause);
			if (res->facts == NULL) {
				strbuf_release(&old);
				strbuf_release(&backup);
				return -1;
			}
			nl = pe + 5;
		} else if (n == 5 && memcmp(p, "@done", 5) == 0) {
			res->done = 1;
		} else if (n > 0 && p[0] == '|') {
			struct strbuf *sb = strcmp(section, "old") == 0 ?
			    &old : &backup;

			strbuf_add(sb, p + 1, n - 1);
			strbuf_addch(sb, '\n');
		} else if (n > 0 && p[0] == '@') {
			const char *sp = memchr(p, ' ', n);
			size_t sl = sp != NULL ? (size_t)(sp - p - 1) : n - 1;

			if (sl >= sizeof section)
				sl = sizeof section - 1;
			memcpy(section, p + 1, sl);
			section[sl] = '\0';
			key = NULL;
			if (strcmp(section, "key") == 0 && sp != NULL) {
				res->keys = xreallocarray(res->keys,
				    res->nkeys + 1, sizeof *res->keys);
				key = &res->keys[res->nkeys++];
				memset(key, 0, sizeof *key);
				key->key = remote_unescape(sp + 1,
				    (size_t)(p + n - sp - 1));
			}
		} else if ((eq = memchr(p, '=', n)) != NULL) {
			size_t		 kl = (size_t)(eq - p);
			const char	*v = eq + 1;
			size_t		 vl = n - kl - 1;

#define IS(k) (kl == strlen(k) && memcmp(p, k, kl) == 0)
			if (key == NULL && IS("error") &&
			    step_section(section))
				remote_value_add(&res->step_error, v, vl);
			else if (strcmp(section, "old") == 0) {
				if (IS("exists"))
					res->old_exists = (vl > 0 && *v == '1');
				else if (IS("no_newline"))
					no_newline = 1;
			} else if (strcmp(section, "write") == 0) {
				if (IS("status")) {
					res->written = vl == 7 &&
					    memcmp(v, "written", 7) == 0;
					res->unchanged = vl == 9 &&
					    memcmp(v, "unchanged", 9) == 0;
				} else if (IS("error"))
					remote_value_set(&res->write_error, v, vl);
				else if (IS("backup"))
					remote_value_set(&res->backup, v, vl);
			} else if (strcmp(section, "backup") == 0) {
				if (IS("exists"))
					res->backup_exists = vl > 0 &&
					    *v == '1';
				else if (IS("orig") && vl > 0 && *v == '1' &&
				    res->backup_text == NULL)
					/* A marker: the text is the |lines. */
					res->backup_text = xstrdup("");
			} else if (key != NULL) {
				if (IS("want"))
					remote_value_set(&key->want, v, vl);
				else if (IS("before"))
					remote_value_set(&key->before, v, vl);
				else if (IS("changed"))
					key->changed = (vl > 0 && *v == '1');
				else if (IS("live"))
					remote_value_set(&key->live, v, vl);
				else if (IS("error"))
					remote_value_set(&key->error, v, vl);
			} else if (strcmp(section, "qdisc") == 0) {
				if (IS("live"))
					remote_value_set(&res->qdisc_live, v, vl);
				else if (IS("error"))
					remote_value_add(&res->qdisc_error, v, vl);
			} else if (strcmp(section, "route") == 0) {
				if (IS("live"))
					remote_value_set(&res->route_live, v, vl);
				else if (IS("error"))
					remote_value_set(&res->route_error, v, vl);
				else if (IS("persisted"))
					remote_value_set(&res->route_persisted, v, vl);
			} else if (strcmp(section, "module") == 0) {
				if (IS("error"))
					remote_value_add(&res->module_error, v, vl);
			} else if (strcmp(section, "rollback") == 0) {
				if (IS("status"))
					remote_value_set(&res->rollback_status, v, vl);
				else if (IS("file"))
					remote_value_set(&res->rollback_file, v, vl);
			} else if (strcmp(section, "undo") == 0) {
				if (IS("status"))
					res->undone = vl == 6 &&
					    memcmp(v, "undone", 6) == 0;
			} else if (strcmp(section, "conf") == 0) {
				if (IS("sum"))
					remote_value_set(&res->conf_sum, v, vl);
			} else if (strcmp(section, "live") == 0) {
				if (IS("rc"))
					res->live_rc = remote_value_status(v, vl);
				else if (IS("value"))
					remote_value_set(&res->live, v, vl);
			} else if (strcmp(section, "set") == 0 ||
			    strcmp(section, "reload") == 0) {
				parse_sysctl_run(section[0] == 's' ?
				    &res->set : &res->reload, p, kl, v, vl);
			} else if (strcmp(section, "confirm") == 0) {
				if (IS("status"))
					remote_value_set(&res->confirm_status, v, vl);
				else if (IS("due"))
					res->confirm_due = remote_value_count(v, vl);
				else if (IS("at"))
					res->confirm_at = remote_value_count(v, vl);
				else if (IS("error"))
					remote_value_add(&res->confirm_error, v, vl);
			} else if (strcmp(section, "error") == 0) {
				if (IS("error"))
					remote_value_set(&res->write_error, v, vl);
			}
#undef IS
		}
		p = nl != NULL ? nl + 1 : end;
	}
	if (res->old_exists) {
		if (no_newline && old.len > 0)
			old.len--, old.buf[old.len] = '\0';
		res->old_text = strbuf_detach(&old, NULL);
	}
	if (res->backup_text != NULL) {
		free(res->backup_text);
		res->backup_text = strbuf_detach(&backup, NULL);
	}
	strbuf_release(&old);
	strbuf_release(&backup);
	if (!res->done)
		return fail(cause, "the apply script was cut short (no "
		    "'@done')");
	return 0;
}

void
apply_result_clear(struct apply_result *res)
{
	size_t i;

	free(res->old_text);
	free(res->write_error);
	free(res->backup);
	free(res->backup_text);
	for (i = 0; i < res->nkeys; i++) {
		free(res->keys[i].key);
		free(res->keys[i].want);
		free(res->keys[i].before);
		free(res->keys[i].live);
		free(res->keys[i].error);
	}
	free(res->keys);
	free(res->qdisc_live);
	free(res->qdisc_error);
	free(res->route_live);
	free(res->route_error);
	free(res->route_persisted);
	free(res->module_error);
	free(res->rollback_status);
	free(res->rollback_file);
	free(res->step_error);
	json_decref(res->facts);
	free(res->conf_sum);
	free(res->live);
	free(res->set.out);
	free(res->reload.out);
	free(res->confirm_status);
	free(res->confirm_error);
	memset(res, 0, sizeof *res);
}
