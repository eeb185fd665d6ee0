/* ansible.builtin.apt (and package, on a Debian host): packages present,
 * latest or absent, with update_cache and cache_valid_time, decided as the
 * module decides (lib/tune/aptplan.c) from one read (lib/remote/apt.sh:
 * dpkg-query and apt-cache policy of each package, after apt-get update
 * when the cache is older than cache_valid_time and not in check mode),
 * then, only when something is to be done, the module's one apt-get
 * command: with --simulate in check mode (it changes nothing; the module
 * runs the same), for real otherwise, then apt-mark manual after an
 * install, as the module marks them. */
#include "playbook/module.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/util.h"
#include "base/xalloc.h"
#include "modules/remote-exec.h"
#include "remote/apt.h"
#include "tune/aptplan.h"

struct apt_conf {
	struct module_conf	 hdr;
	const json_t		*name;
	const char		*state;
	int			 update_cache;
	long long		 cache_valid_time;
};

#define AT(f)	offsetof(struct apt_conf, f)

static const char *const states[] = { "present", "absent", "latest", NULL };

static const struct module_param apt_params[] = {
	{ .name = "name", .type = PARAM_ANY, .offset = AT(name),
	  .help = "a package, a list of them, or \"a,b\" (no version, glob "
	  "or .deb)" },
	{ .name = "state", .type = PARAM_CHOICE, .offset = AT(state),
	  .choices = states, .def = "present",
	  .help = "present (installed), latest (and upgraded), absent" },
	{ .name = "update_cache", .type = PARAM_BOOL,
	  .offset = AT(update_cache), .def = "false",
	  .help = "apt-get update first (not in check mode)" },
	{ .name = "cache_valid_time", .type = PARAM_INT,
	  .offset = AT(cache_valid_time), .def = "0", .min = 0,
	  .max = 1e12,
	  .help = "update only when the cache is older than this many "
	  "seconds (implies update_cache)" },
	{ .name = NULL },
};

/* A Debian package name (policy 5.6.1), with an optional :arch. */
static int
name_ok(const char *s)
{
	size_t n = strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789+.-");

	if (n < 1 || !strchr("abcdefghijklmnopqrstuvwxyz0123456789", s[0]))
		return 0;
	if (s[n] == ':')
		n += 1 + strspn(s + n + 1, "abcdefghijklmnopqrstuvwxyz"
		    "0123456789-");
	return s[n] == '\0';
}

/* name as the module's type='list' takes it: a list of strings, or a
 * string split at its commas; each stripped. */
static int
names_of(const json_t *v, char ***names, size_t *n, char **cause)
{
	const char	*s, *e;
	json_t		*item;
	size_t		 i;
	char		*w;

	*names = NULL;
	*n = 0;
	if (v == NULL || json_is_null(v))
		return 0;
	if (!json_is_string(v) && !json_is_array(v))
		return fail(cause, "name must be a string or a list");
	for (i = 0; json_is_string(v) || i < json_array_size(v); i++) {
		item = json_is_array(v) ? json_array_get(v, i) : NULL;
		if (json_is_array(v) && !json_is_string(item)) {
			names_free(*names, *n);
			return fail(cause, "name[%zu] must be a string", i);
		}
		s = json_string_value(item != NULL ? item : v);
		for (; ; s = e + 1) {
			e = json_is_array(v) ? s + strlen(s) : strchrnul(s, ',');
			while (s < e && strchr(" \t", *s))
				s++;
			w = xstrndup(s, (size_t)(e - s));
			while (w[0] != '\0' && strchr(" \t", w[strlen(w) - 1]))
				w[strlen(w) - 1] = '\0';
			if (!name_ok(w)) {
				names_free(*names, *n);
				*names = NULL;
				*n = 0;
				fail(cause, "package name '%s' is not supported "
				    "(a Debian name, optionally :arch; no "
				    "version, glob or .deb)", w);
				free(w);
				return -1;
			}
			*names = xreallocarray(*names, *n + 2,
			    sizeof **names);
			(*names)[(*n)++] = w;
			(*names)[*n] = NULL;
			if (*e == '\0')
				break;
		}
		if (json_is_string(v))
			break;
	}
	return 0;
}

static int
apt_validate(const void *vconf, char **cause)
{
	const struct apt_conf	*c = vconf;
	char			**names;
	size_t			  n;

	if (names_of(c->name, &names, &n, cause) != 0)
		return -1;
	names_free(names, n);
	if (n == 0 && !c->update_cache && c->cache_valid_time == 0)
		return fail(cause, "one of the following is required: name, "
		    "update_cache (or cache_valid_time)");
	return 0;
}

static int
apt_exec(struct module_ctx *ctx, const struct apt_request *req, int writes,
    struct apt_result *out, struct module_result *res)
{
	struct remote_call	 call;
	struct tp_result	 tr;
	char			*cause = NULL;

	memset(out, 0, sizeof *out);
	apt_call(req, &call);
	if (module_remote_exec(ctx, writes, &call, &tr, res) != 0)
		return -1;
	if (apt_parse(tr.out, tr.out_len, out, &cause) != 0) {
		module_result_unparsed(res, cause, &tr);
		tp_result_clear(&tr);
		return -1;
	}
	tp_result_clear(&tr);
	return 0;
}

static void
apt_failed(struct module_result *res, char *msg)
{
	res->status = RESULT_FAILED;
	res->msg = msg;
	if (res->data == NULL)
		res->data = json_object();
	json_object_set_new(res->data, "msg", json_string(msg));
}

/* The module's command line as its failure message quotes it. */
static char *
apt_cmdline(const char *action, int check, char *const *list)
{
	struct strbuf	sb;
	size_t		i;

	strbuf_init(&sb);
	for (i = 0; list[i] != NULL; i++)
		strbuf_addf(&sb, "%s'%s'", i > 0 ? " " : "", list[i]);
	if (strcmp(action, "remove") == 0) {
		char *s = xprintf("apt-get remove %s", sb.buf);

		strbuf_release(&sb);
		return s;
	}
	{
		char *s = xprintf("/usr/bin/apt-get -y -o \"Dpkg::Options::="
		    "--force-confdef\" -o \"Dpkg::Options::=--force-confold\""
		    "      %s install %s", check ? "--simulate" : "", sb.buf);

		strbuf_release(&sb);
		return s;
	}
}

static int
apt_task(struct module_ctx *ctx, const void *vconf, struct module_result *res)
{
	const struct apt_conf	*c = vconf;
	struct apt_request	 req;
	struct apt_result	 rd, done;
	struct apt_seen		*seen = NULL;
	struct apt_plan		 plan;
	char			**names = NULL, *cause = NULL;
	size_t			 n = 0, i;
	int			 check = module_ctx_check(ctx), stale, updated;
	int			 absent = strcmp(c->state, "absent") == 0;
	int			 want_update = c->update_cache ||
	    c->cache_valid_time > 0;
	long long		 cache_time;

	memset(&rd, 0, sizeof rd);
	memset(&done, 0, sizeof done);
	memset(&plan, 0, sizeof plan);
	if (names_of(c->name, &names, &n, &cause) != 0) {
		apt_failed(res, cause);
		return 0;
	}
	memset(&req, 0, sizeof req);
	req.mode = APT_READ;
	req.names = (const char *const *)names;
	req.update = want_update && !check;
	req.valid = c->cache_valid_time;
	if (apt_exec(ctx, &req, req.update, &rd, res) != 0)
		goto out;
	if (rd.update.ran && rd.update.rc != 0) {
		apt_failed(res, xprintf("Failed to update apt cache: %s",
		    rd.update.err != NULL && rd.update.err[0] != '\0' ?
		    rd.update.err : "unknown reason"));
		goto out;
	}
	stale = apt_cache_stale(want_update, c->cache_valid_time, rd.mtime,
	    rd.now);
	updated = check ? stale : rd.after >= 0 && rd.after != rd.mtime;
	cache_time = rd.after >= 0 ? rd.after : rd.mtime;
	res->data = json_pack("{s:b, s:b, s:I}", "changed", 0,
	    "cache_updated", updated, "cache_update_time",
	    (json_int_t)cache_time);
	if (n == 0) {
		/* update_cache alone: changed when the cache was updated */
		json_object_set_new(res->data, "changed", json_boolean(updated));
		res->status = updated ? RESULT_CHANGED : RESULT_OK;
		res->msg = xstrdup(updated ? (check ? "would update the cache" :
		    "cache updated") : "cache is valid");
		goto out;
	}
	if (rd.npkgs != n) {
		apt_failed(res, xprintf("the apt script read %zu packages of "
		    "%zu", rd.npkgs, n));
		goto out;
	}
	seen = xcalloc(n, sizeof *seen);
	for (i = 0; i < n; i++)
		seen[i] = (struct apt_seen){ names[i], rd.pkgs[i].status,
		    rd.pkgs[i].version, rd.pkgs[i].candidate,
		    rd.pkgs[i].known };
	if (apt_decide(c->state, seen, n, &plan, &cause) != 0) {
		json_decref(res->data);
		res->data = NULL;
		apt_failed(res, cause);
		goto out;
	}
	if (absent) {
		/* remove() exits without the cache's keys */
		json_object_del(res->data, "cache_updated");
		json_object_del(res->data, "cache_update_time");
	}
	if (plan.action == NULL) {
		res->status = RESULT_OK;
		res->msg = xprintf("%zu package%s %s", n, n == 1 ? "" : "s",
		    absent ? "absent" : "present");
		goto out;
	}
	memset(&req, 0, sizeof req);
	req.mode = check ? APT_SIMULATE : APT_WRITE;
	req.action = plan.action;
	req.list = (const char *const *)plan.list;
	req.names = absent ? NULL : (const char *const *)names;
	if (apt_exec(ctx, &req, !check, &done, res) != 0)
		goto out;
	if (!done.action.ran || done.action.rc != 0) {
		char *line = apt_cmdline(plan.action, check, plan.list);

		json_object_set_new(res->data, "rc",
		    json_integer(done.action.rc));
		json_object_set_new(res->data, "stdout", json_string(
		    done.action.out != NULL ? done.action.out : ""));
		json_object_set_new(res->data, "stderr", json_string(
		    done.action.err != NULL ? done.action.err : ""));
		apt_failed(res, xprintf("'%s' failed: %s", line,
		    done.action.err != NULL ? done.action.err : ""));
		free(line);
		goto out;
	}
	res->status = RESULT_CHANGED;
	json_object_set_new(res->data, "changed", json_true());
	json_object_set_new(res->data, "stdout", json_string(
	    done.action.out != NULL ? done.action.out : ""));
	json_object_set_new(res->data, "stderr", json_string(
	    done.action.err != NULL ? done.action.err : ""));
	json_object_set_new(res->data, "diff", json_object());
	{
		struct strbuf sb;

		strbuf_init(&sb);
		strbuf_addf(&sb, "%s%s:", check ? "would " : "", plan.action);
		for (i = 0; i < plan.n; i++)
			strbuf_addf(&sb, " %s", plan.list[i]);
		res->msg = strbuf_detach(&sb, NULL);
	}
	if (module_ctx_diff(ctx))
		res->diff = xprintf("%s\n", res->msg);
out:
	free(seen);
	apt_plan_clear(&plan);
	apt_result_clear(&rd);
	apt_result_clear(&done);
	names_free(names, n);
	return 0;
}

static const char *const apt_aliases[] = { "ansible.builtin.apt",
	"ansible.legacy.apt", "package", "ansible.builtin.package",
	"ansible.legacy.package", NULL };

const struct module mod_apt = {
	.name = "apt",
	.aliases = apt_aliases,
	.summary = "Debian packages present, latest or absent, update_cache "
	    "(check mode: apt-get --simulate)",
	.params = apt_params,
	.conf_size = sizeof(struct apt_conf),
	.validate = apt_validate,
	.run = apt_task,
	.plan = apt_task,
	.kv_free_form = 1,
};
