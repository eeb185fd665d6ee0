/* with_first_found, as ansible-core 2.14's plugins/lookup/first_found.py
 * finds its file (loop.h). */
#include "playbook/loop.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/strbuf.h"
#include "base/xalloc.h"
#include "template/template.h"

/* s split on any of seps, as first_found's _split_on (no trimming),
 * appended to out. */
static void
split_into(json_t *out, const char *s, const char *seps)
{
	size_t len;

	for (;;) {
		len = strcspn(s, seps);
		json_array_append_new(out, json_stringn(s, len));
		if (s[len] == '\0')
			break;
		s += len + 1;
	}
}

/* A mapping's `files` or `paths` rendered where it can be (an undefined
 * part stays as written, as listify_lookup_plugin_terms leaves it for
 * first_found), split into names. */
static json_t *
option_names(const json_t *v, const json_t *vars, const char *seps)
{
	json_t		*out = json_array(), *r, *e;
	size_t		 i;
	char		*cause = NULL;

	if (v == NULL)
		return out;
	r = template_render(v, vars, NULL, &cause);
	free(cause);
	if (r == NULL)
		r = json_incref((json_t *)v);
	if (json_is_string(r))
		split_into(out, json_string_value(r), seps);
	json_array_foreach(json_is_array(r) ? r : NULL, i, e) {
		if (json_is_string(e))
			split_into(out, json_string_value(e), seps);
	}
	json_decref(r);
	return out;
}

/* The names to try, in order, of terms into search; -1 with *cause on a
 * term first_found refuses. */
static int
collect(const json_t *terms, const json_t *vars, json_t *search, int *skip,
    char **cause)
{
	json_t		*files, *paths, *t, *f, *p, *sk;
	size_t		 i, j, k;
	char		*why = NULL;

	if (json_is_string(terms)) {
		json_array_append(search, (json_t *)terms);
		return 0;
	}
	json_array_foreach(json_is_array(terms) ? terms : NULL, i, t) {
		if (json_is_string(t)) {
			json_array_append(search, t);
			continue;
		}
		if (json_is_array(t)) {
			if (collect(t, vars, search, skip, cause) != 0)
				return -1;
			continue;
		}
		if (!json_is_object(t)) {
			*cause = xstrdup("Invalid term supplied, can handle "
			    "string, mapping or list of strings");
			return -1;
		}
		files = option_names(json_object_get(t, "files"), vars, ",;");
		paths = option_names(json_object_get(t, "paths"), vars,
		    ",:;");
		if ((sk = json_object_get(t, "skip")) != NULL) {
			json_t *r = template_render(sk, vars, NULL, &why);

			free(why);
			why = NULL;
			*skip = r != NULL && (json_is_true(r) ||
			    (json_is_string(r) && strchr("yYtT1",
			    *json_string_value(r)) != NULL));
			json_decref(r);
		}
		if (json_array_size(paths) > 0) {
			json_array_foreach(paths, j, p) {
				json_array_foreach(files, k, f)
					json_array_append_new(search,
					    json_sprintf("%s/%s",
					    json_string_value(p),
					    json_string_value(f)));
			}
		} else if (json_array_size(files) > 0) {
			/* as first_found: these replace what came before */
			json_array_clear(search);
			json_array_extend(search, files);
		}
		json_decref(files);
		json_decref(paths);
	}
	return 0;
}

static int
exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

/* name found as the loader's path_dwim_relative_stack finds it, or NULL;
 * allocated. */
static char *
find_in_search_path(const char *name, const json_t *vars,
    const char *subdir)
{
	const json_t	*sp = json_object_get(vars, "ansible_search_path");
	const char	*role = json_string_value(json_object_get(vars,
			    "role_path"));
	const char	*base = json_string_value(json_object_get(vars,
			    "playbook_dir"));
	json_t		*dirs = json_array(), *d;
	size_t		 i, sublen = strlen(subdir);
	char		*cand = NULL;
	int		 own = strncmp(name, subdir, sublen) == 0 &&
			    (name[sublen] == '/' || name[sublen] == '\0');

	if (name[0] == '/')
		return exists(name) ? xstrdup(name) : NULL;
	if (json_is_array(sp))
		json_array_extend(dirs, (json_t *)sp);
	else if (role != NULL) {
		json_array_append_new(dirs, json_string(role));
		json_array_append_new(dirs, json_sprintf("%s/tasks", role));
	}
	if (base != NULL)
		json_array_append_new(dirs, json_string(base));
	json_array_foreach(dirs, i, d) {
		if (!json_is_string(d))
			continue;
		if (!own) {
			cand = xprintf("%s/%s/%s", json_string_value(d),
			    subdir, name);
			if (exists(cand))
				break;
			free(cand);
		}
		cand = xprintf("%s/%s", json_string_value(d), name);
		if (exists(cand))
			break;
		free(cand);
		cand = NULL;
	}
	json_decref(dirs);
	return cand;
}

json_t *
loop_first_found(const json_t *terms, const json_t *vars, const char *subdir,
    const struct ypos *pos, char **cause)
{
	json_t		*search = json_array(), *t, *r, *out = NULL;
	size_t		 i;
	int		 skip = 0;
	char		*why = NULL, *found;

	if (collect(terms, vars, search, &skip, &why) != 0) {
		ypos_fail(cause, pos, "%s", why);
		free(why);
		json_decref(search);
		return NULL;
	}
	json_array_foreach(search, i, t) {
		if ((r = template_render(t, vars, pos, &why)) == NULL) {
			/* an undefined name is passed over, as Ansible's */
			free(why);
			why = NULL;
			continue;
		}
		found = json_is_string(r) ? find_in_search_path(
		    json_string_value(r), vars, subdir != NULL ? subdir :
		    "files") : NULL;
		json_decref(r);
		if (found != NULL) {
			out = json_array();
			json_array_append_new(out, json_string(found));
			free(found);
			break;
		}
	}
	json_decref(search);
	if (out == NULL && skip)
		out = json_array();
	if (out == NULL)
		ypos_fail(cause, pos, "No file was found when using "
		    "first_found.");
	return out;
}
