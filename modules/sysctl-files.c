/* Which file wins a key at boot, for a task that writes a sysctl file. */
#include "modules/sysctl-files.h"

#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/util.h"
#include "base/xalloc.h"
#include "modules/tune.h"
#include "playbook/module.h"
#include "remote/apply.h"
#include "remote/sysctld.h"
#include "tune/dropin.h"

/* s without surrounding blanks (str_trim's), cut in place. */
static char *
trim(char *s)
{
	size_t	 n = strlen(s);
	char	*t = s + (str_trim(s, &n) - s);

	t[n] = '\0';
	return t;
}

void
sysctl_files_stage(const char *file, const char *text, struct stage *st)
{
	char *copy = xstrdup(text != NULL ? text : ""), *line, *eq, *key;
	char *save = NULL, *norm;

	memset(st, 0, sizeof *st);
	st->file = (char *)file;
	dropin_init(&st->dropin);
	for (line = strtok_r(copy, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		line = trim(line);
		if (*line == '#' || *line == ';' ||
		    (eq = strchr(line, '=')) == NULL)
			continue;
		*eq = '\0';
		key = trim(line);
		if (*key == '-')
			key++;
		if (*key == '\0')
			continue;
		norm = sysctld_key_normalise(key);
		dropin_set(&st->dropin, norm, trim(eq + 1), NULL);
		free(norm);
	}
	free(copy);
}

int
sysctl_files_links_to(const json_t *facts, const char *path,
    const char *file)
{
	const json_t	*f;
	const char	*link = NULL, *slash;
	struct strbuf	 sb = STRBUF_INIT;
	size_t		 i;
	int		 r;

	json_array_foreach(json_object_get(facts, "sysctl_files"), i, f) {
		if (strcmp(json_string_value(json_object_get(f, "path")) ?: "",
		    path) == 0)
			link = json_string_value(json_object_get(f, "link"));
	}
	if (link == NULL)
		return 0;
	strbuf_init(&sb);
	if (link[0] != '/' && (slash = strrchr(path, '/')) != NULL)
		strbuf_add(&sb, path, (size_t)(slash - path));
	/* "dir/../name": each ".." takes off one component. */
	while (strncmp(link, "../", 3) == 0) {
		link += 3;
		while (sb.len > 0 && sb.buf[--sb.len] != '/')
			;
		sb.buf[sb.len] = '\0';
	}
	if (link[0] != '/')
		strbuf_addch(&sb, '/');
	strbuf_addstr(&sb, link);
	r = strcmp(sb.buf, file) == 0;
	strbuf_release(&sb);
	return r;
}

char *
sysctl_files_winner(const json_t *facts, const struct stage *st,
    const char *path, const char *key)
{
	char *winner = tune_boot_winner(facts, st, key);

	if (winner != NULL && (strcmp(winner, path) == 0 ||
	    sysctl_files_links_to(facts, winner, path))) {
		free(winner);
		winner = NULL;
	}
	return winner;
}

json_t *
sysctl_files_overrides(const json_t *facts, const char *path,
    const char *text)
{
	struct stage	 st;
	json_t		*out = NULL;
	size_t		 i;

	if (facts == NULL || path == NULL || !sysctld_config_path(path, NULL) ||
	    json_object_get(facts, "sysctl_files") == NULL)
		return NULL;
	sysctl_files_stage(path, text, &st);
	for (i = 0; i < st.dropin.n; i++) {
		const char	*key = st.dropin.entries[i].key;
		char		*winner = sysctl_files_winner(facts, &st, path,
		    key);

		if (winner == NULL)
			continue;
		if (out == NULL)
			out = json_array();
		json_array_append_new(out, json_pack("{s:s, s:s}", "key", key,
		    "overridden_by", winner));
		free(winner);
	}
	dropin_free(&st.dropin);
	return out;
}

void
sysctl_files_warn(struct strbuf *sb, const json_t *overrides)
{
	const json_t	*o;
	size_t		 i;

	json_array_foreach(overrides, i, o)
		strbuf_addf(sb, "; warning: '%s' also sets %s and wins at boot",
		    json_string_value(json_object_get(o, "overridden_by")),
		    json_string_value(json_object_get(o, "key")));
}

/* The live value of key in the check's answer, or NULL (unreadable, or
 * not a key of this kernel: nothing to compare). */
static const char *
live_of(const struct apply_result *ar, const char *key)
{
	size_t i;

	for (i = 0; i < ar->nkeys; i++) {
		if (strcmp(ar->keys[i].key, key) == 0)
			return ar->keys[i].error != NULL ? NULL :
			    ar->keys[i].before;
	}
	return NULL;
}

json_t *
sysctl_files_drift(struct module_ctx *ctx, const char *path,
    const char *text, char **cause)
{
	const json_t		*facts = module_ctx_facts(ctx);
	struct apply_request	 req;
	struct apply_result	 ar;
	struct module_result	 failed;
	struct stage		 st;
	json_t			*items;
	size_t			 i;
	int			 same;

	if (!sysctld_config_path(path, NULL))
		return NULL;
	memset(&req, 0, sizeof req);
	memset(&ar, 0, sizeof ar);
	memset(&failed, 0, sizeof failed);
	req.mode = APPLY_CHECK;
	req.file = path;
	req.state_dir = TUNE_STATE_DIR;
	if (tune_run_apply(ctx, &req, text, &ar, &failed) != 0) {
		*cause = failed.msg != NULL ? xstrdup(failed.msg) :
		    xstrdup("the read of the sysctl file failed");
		module_result_clear(&failed);
		apply_result_clear(&ar);
		return NULL;
	}
	module_result_clear(&failed);
	items = json_array();
	same = ar.old_exists && ar.old_text != NULL &&
	    strcmp(ar.old_text, text) == 0;
	if (!ar.old_exists)
		tune_drift_add(items, path, "present", "missing",
		    "file missing", NULL);
	else if (!same)
		tune_drift_add(items, path, "the task's text", "other text",
		    "file edited", NULL);
	sysctl_files_stage(path, text, &st);
	for (i = 0; i < st.dropin.n; i++) {
		const struct dropin_entry	*e = &st.dropin.entries[i];
		const char			*live = live_of(&ar, e->key);
		char				*winner;

		winner = facts != NULL ? sysctl_files_winner(facts, &st, path,
		    e->key) : NULL;
		if (winner != NULL)
			tune_drift_add(items, e->key, e->value, live,
			    "overridden", winner);
		else if (live != NULL && !sysctl_value_equal(live, e->value))
			/* the file is right: the kernel has another value
			 * (or the file was never loaded) */
			tune_drift_add(items, e->key, e->value, live, same ?
			    "changed at runtime" : "file edited", same ? NULL :
			    path);
		free(winner);
	}
	dropin_free(&st.dropin);
	apply_result_clear(&ar);
	return items;
}
