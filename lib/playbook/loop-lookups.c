/*
 * The with_* lookups that are more than a reshaping of a list (loop.h):
 * with_subelements and with_fileglob, as ansible-core 2.14's
 * plugins/lookup/subelements.py and fileglob.py make their items.
 */
#include "playbook/loop.h"

#include <glob.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/util.h"
#include "base/xalloc.h"

#define FILEGLOB_MAX	10000	/* items of one with_fileglob */

/* item0's sublist at the dotted path, taken out of item0 as the lookup's
 * pop() takes it; NULL (and *skip) when a missing key may be skipped. */
static json_t *
sublist_of(json_t *item0, const char *path, int skip_missing, int *skip,
    char **cause)
{
	json_t	*at = item0, *v, *list;
	char	*copy = xstrdup(path), *key, *save = NULL, *next;

	*skip = 0;
	for (key = strtok_r(copy, ".", &save); key != NULL; key = next) {
		next = strtok_r(NULL, ".", &save);
		if ((v = json_object_get(at, key)) == NULL) {
			if (skip_missing) {
				*skip = 1;
				free(copy);
				return NULL;
			}
			fail(cause, "could not find '%s' key in iterated item",
			    key);
			free(copy);
			return NULL;
		}
		if (next != NULL) {
			if (!json_is_object(v)) {
				if (skip_missing) {
					*skip = 1;
					free(copy);
					return NULL;
				}
				fail(cause, "the key %s should point to a "
				    "dictionary", key);
				free(copy);
				return NULL;
			}
			at = v;
			continue;
		}
		if (!json_is_array(v)) {
			fail(cause, "the key %s should point to a list", key);
			free(copy);
			return NULL;
		}
		list = json_incref(v);
		json_object_del(at, key);
		free(copy);
		return list;
	}
	free(copy);
	return fail(cause, "subelements lookup expects a subkey"), NULL;
}

/* Ansible's boolean(v, strict=False): what is no boolean is false. */
static int
flag_true(const json_t *v)
{
	int b;

	return ansible_bool_value(v, &b) && b;
}

json_t *
loop_subelements(const json_t *terms, char **cause)
{
	const json_t	*elements, *flags = NULL, *skipped;
	json_t		*out, *item0, *sub, *e;
	const char	*key;
	size_t		 i, j, n;
	int		 skip_missing = 0, skip;

	n = json_is_array(terms) ? json_array_size(terms) : 0;
	if (n < 2 || n > 3 || (!json_is_array(json_array_get(terms, 0)) &&
	    !json_is_object(json_array_get(terms, 0))) ||
	    !json_is_string(json_array_get(terms, 1)))
		return fail(cause, "subelements lookup expects a list of two "
		    "or three items, first a dict or a list, second a string "
		    "pointing to the subkey"), NULL;
	elements = json_array_get(terms, 0);
	if (n == 3) {
		flags = json_array_get(terms, 2);
		if (!json_is_object(flags))
			return fail(cause, "subelements lookup expects a list "
			    "of two or three items, the optional third item "
			    "must be a dict with flags skip_missing"), NULL;
		skip_missing = flag_true(json_object_get(flags,
		    "skip_missing"));
	}
	out = json_array();
	if (json_is_object(elements)) {
		/* a registered result: its values, none when it was skipped */
		skipped = json_object_get(elements, "skipped");
		if (skipped != NULL && !json_is_false(skipped))
			return out;
		e = json_array();
		json_object_foreach((json_t *)elements, key, item0)
			json_array_append(e, item0);
		elements = e;
	} else
		json_incref((json_t *)elements);
	json_array_foreach(elements, i, item0) {
		if (!json_is_object(item0)) {
			fail(cause, "subelements lookup expects a dictionary");
			goto bad;
		}
		skipped = json_object_get(item0, "skipped");
		if (skipped != NULL && !json_is_false(skipped))
			continue;
		/* item0 loses its sublist: a copy, the value is the vars' */
		item0 = json_deep_copy(item0);
		sub = sublist_of(item0, json_string_value(json_array_get(terms,
		    1)), skip_missing, &skip, cause);
		if (sub == NULL && !skip) {
			json_decref(item0);
			goto bad;
		}
		json_array_foreach(sub, j, e)
			json_array_append_new(out, json_pack("[O, O]", item0,
			    e));
		json_decref(sub);
		json_decref(item0);
	}
	json_decref((json_t *)elements);
	return out;
bad:
	json_decref((json_t *)elements);
	json_decref(out);
	return NULL;
}



/* The regular files matching dir/pattern, appended; how many. */
static size_t
glob_into(json_t *out, const char *dir, const char *pattern)
{
	glob_t	 g;
	char	*pat = xprintf("%s/%s", dir, pattern);
	size_t	 i, n = 0;

	memset(&g, 0, sizeof g);
	if (glob(pat, 0, NULL, &g) == 0) {
		for (i = 0; i < g.gl_pathc && json_array_size(out) <
		    FILEGLOB_MAX; i++) {
			if (path_is_file(g.gl_pathv[i])) {
				json_array_append_new(out,
				    json_string(g.gl_pathv[i]));
				n++;
			}
		}
	}
	globfree(&g);
	free(pat);
	return n;
}

/* The search path of a task: its role's directory, then the playbook's
 * (ansible_search_path when set). */
static size_t
search_dirs(const json_t *vars, const char **dirs, size_t max)
{
	const json_t	*paths = json_object_get(vars, "ansible_search_path");
	const char	*d;
	size_t		 i, n = 0;

	if (json_is_array(paths)) {
		for (i = 0; i < json_array_size(paths) && n < max; i++) {
			if ((d = json_string_value(json_array_get(paths,
			    i))) != NULL)
				dirs[n++] = d;
		}
		return n;
	}
	if ((d = json_string_value(json_object_get(vars, "role_path"))) !=
	    NULL)
		dirs[n++] = d;
	if ((d = json_string_value(json_object_get(vars, "playbook_dir"))) !=
	    NULL)
		dirs[n++] = d;
	return n;
}

json_t *
loop_fileglob(const json_t *terms, const json_t *vars, char **cause)
{
	const char	*dirs[16], *term, *slash;
	json_t		*out = json_array(), *t;
	char		*dir, *cand;
	size_t		 i, k, ndirs = search_dirs(vars, dirs, 16);
	int		 sub;

	json_array_foreach(terms, i, t) {
		if ((term = json_string_value(t)) == NULL) {
			json_decref(out);
			return fail(cause, "with_fileglob expects strings"),
			    NULL;
		}
		if ((slash = strrchr(term, '/')) != NULL) {
			/* the directory found as a file would be, then the
			 * name globbed in it */
			dir = xstrndup(term, (size_t)(slash - term));
			if (term[0] == '/' || dir[0] == '\0') {
				glob_into(out, dir[0] != '\0' ? dir : "/",
				    slash + 1);
				free(dir);
				continue;
			}
			for (k = 0; k < ndirs; k++) {
				for (sub = 1; sub >= 0; sub--) {
					cand = xprintf("%s/%s%s", dirs[k],
					    sub ? "files/" : "", dir);
					if (path_is_dir(cand)) {
						glob_into(out, cand, slash + 1);
						free(cand);
						goto next;
					}
					free(cand);
				}
			}
next:
			free(dir);
			continue;
		}
		for (k = 0; k < ndirs; k++) {
			cand = xprintf("%s/files", dirs[k]);
			sub = glob_into(out, cand, term) > 0 ||
			    glob_into(out, dirs[k], term) > 0;
			free(cand);
			if (sub)
				break;
		}
	}
	return out;
}
