#include "modules/actions.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/util.h"
#include "base/xalloc.h"
#include "template/template.h"
#include "yaml/ydoc.h"

char *
action_show(const json_t *result, int pretty)
{
	size_t	 flags = JSON_SORT_KEYS | JSON_ENCODE_ANY;
	char	*s;

	if (pretty)
		flags |= JSON_INDENT(4);
	if ((s = json_dumps(result, flags)) == NULL)
		s = xstrdup("{}");
	return s;
}

int
action_assert(const json_t *that, const json_t *vars, const char **failed,
    char **cause)
{
	const json_t	*one;
	size_t		 i, n = json_is_array(that) ? json_array_size(that) : 1;
	int		 truth;

	*failed = NULL;
	for (i = 0; i < n; i++) {
		one = json_is_array(that) ? json_array_get(that, i) : that;
		if (json_is_boolean(one)) {
			truth = json_is_true(one);
		} else if (!json_is_string(one)) {
			*cause = xstrdup("assert: each 'that' must be a "
			    "condition (a string)");
			return -1;
		} else if (template_eval_bool(json_string_value(one), vars,
		    NULL, &truth, cause) != 0)
			return -1;
		if (!truth) {
			*failed = json_is_string(one) ?
			    json_string_value(one) : json_is_true(one) ?
			    "True" : "False";
			return 0;
		}
	}
	return 1;
}

json_t *
action_debug_var(const char *expr, const json_t *vars)
{
	char	*t = xprintf("{{ %s }}", expr), *cause = NULL;
	json_t	*v;

	v = template_render_string(t, vars, NULL, &cause);
	free(t);
	free(cause);
	return v != NULL ? v : json_string("VARIABLE IS NOT DEFINED!");
}



char *
action_find_vars(const char *file, const char *role_path,
    const char *playbook_dir, int want_dir)
{
	int	(*exists)(const char *) = want_dir ? path_is_dir : path_is_file;

	char	*cand[4] = { NULL, NULL, NULL, NULL }, *found = NULL;
	size_t	 i;

	if (file[0] == '/')
		return exists(file) ? xstrdup(file) : NULL;
	if (role_path != NULL) {
		cand[0] = xprintf("%s/vars/%s", role_path, file);
		cand[1] = xprintf("%s/%s", role_path, file);
	}
	if (playbook_dir != NULL) {
		cand[2] = xprintf("%s/vars/%s", playbook_dir, file);
		cand[3] = xprintf("%s/%s", playbook_dir, file);
	}
	for (i = 0; i < 4; i++) {
		if (found == NULL && cand[i] != NULL && exists(cand[i]))
			found = cand[i];
		else
			free(cand[i]);
	}
	return found;
}

json_t *
action_read_vars(const char *path, char **cause)
{
	struct ydoc	*doc;
	struct ynode	*root;
	json_t		*v = NULL;

	if ((doc = ydoc_load_file(path, cause)) == NULL)
		return NULL;
	root = ydoc_root(doc);
	if (root == NULL || ynode_is_null(root))
		v = json_object();
	else if (root->type != YNODE_MAP)
		ypos_fail(cause, &root->pos, "include_vars: the file must be "
		    "a mapping, got %s", ynode_type_name(root));
	else
		v = ynode_to_json(root);
	ydoc_free(doc);
	return v;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int
vars_name(const char *name)
{
	static const char *const ext[] = { ".yml", ".yaml", ".json" };
	size_t	n = strlen(name), i, e;

	for (i = 0; i < 3; i++) {
		e = strlen(ext[i]);
		if (n > e && strcmp(name + n - e, ext[i]) == 0)
			return 1;
	}
	return 0;
}

json_t *
action_vars_dir(const char *dir, char **cause)
{
	DIR		*d;
	struct dirent	*e;
	char		**names = NULL, *path;
	size_t		 n = 0, i;
	json_t		*out;

	if ((d = opendir(dir)) == NULL) {
		*cause = xprintf("include_vars: cannot read directory '%s': "
		    "%s", dir, strerror(errno));
		return NULL;
	}
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		path = xprintf("%s/%s", dir, e->d_name);
		if (!path_is_file(path)) {
			free(path);
			continue;
		}
		if (!vars_name(e->d_name) && *cause == NULL)
			*cause = xprintf("%s does not have a valid extension: "
			    "yaml, yml, json", path);
		names = xreallocarray(names, n + 1, sizeof *names);
		names[n++] = path;
	}
	closedir(d);
	if (*cause != NULL) {
		for (i = 0; i < n; i++)
			free(names[i]);
		free(names);
		return NULL;
	}
	if (n > 0)
		qsort(names, n, sizeof *names, cmp_str);
	out = json_array();
	for (i = 0; i < n; i++) {
		json_array_append_new(out, json_string(names[i]));
		free(names[i]);
	}
	free(names);
	return out;
}
