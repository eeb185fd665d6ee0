/* group_vars/ and host_vars/, as ansible-core's host_group_vars plugin finds
 * them: for entity NAME under ROOT/group_vars (or host_vars), the first of
 * NAME, NAME.yml, NAME.yaml, NAME.json that exists; when it is a directory,
 * every file in it with no extension or one of those, in name order,
 * descending into subdirectories without an extension. Hidden files and
 * backups (*~) are skipped. Files merge in that order, later keys win. */
#include "inventory/inventory.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/xalloc.h"
#include "yaml/ydoc.h"
#include "base/util.h"

static const char *const exts[] = { ".yml", ".yaml", ".json", NULL };

static int
valid_ext(const char *name)
{
	const char	*base = name, *dot;
	size_t		 i;

	while (*base == '.')
		base++;
	if ((dot = strrchr(base, '.')) == NULL)
		return 1;	/* no extension */
	for (i = 0; exts[i] != NULL; i++) {
		if (strcmp(dot, exts[i]) == 0)
			return 1;
	}
	return 0;
}

static int
has_ext(const char *name)
{
	const char *base = name;

	while (*base == '.')
		base++;
	return strchr(base, '.') != NULL;
}


static int
load_file(const char *path, json_t *into, char **cause)
{
	struct ydoc		*doc;
	const struct ynode	*root;
	json_t			*j;
	int			 r = -1;

	if ((doc = ydoc_load_file(path, cause)) == NULL)
		return -1;
	root = ydoc_root(doc);
	j = ynode_to_json(root);
	/* Ansible ignores empty (falsy) files */
	if (json_is_null(j) || (json_is_object(j) && json_object_size(j) == 0) ||
	    (json_is_array(j) && json_array_size(j) == 0) ||
	    (json_is_string(j) && json_string_length(j) == 0) ||
	    json_is_false(j)) {
		r = 0;
		goto out;
	}
	if (!json_is_object(j)) {
		ypos_fail(cause, &root->pos, "variables file must be a mapping, "
		    "got %s", ynode_type_name(root));
		goto out;
	}
	json_object_update(into, j);
	r = 0;
out:
	json_decref(j);
	ydoc_free(doc);
	return r;
}

/* Hidden files and editor backups are not vars files. */
static int
skipped_vars_entry(const char *name)
{
	size_t len = strlen(name);

	return name[0] == '.' || name[len - 1] == '~';
}

static int
load_dir(const char *dir, json_t *into, char **cause)
{
	char		**names = NULL;
	size_t		  n = 0, i;
	struct stat	  st;
	int		  r = -1;

	if (dir_list_sorted(dir, skipped_vars_entry, &names, &n, cause) != 0)
		return -1;
	for (i = 0; i < n; i++) {
		char *path = xprintf("%s/%s", dir, names[i]);
		int rr = 0;

		if (stat(path, &st) == 0) {
			if (S_ISDIR(st.st_mode) && !has_ext(names[i]))
				rr = load_dir(path, into, cause);
			else if (S_ISREG(st.st_mode) && valid_ext(names[i]))
				rr = load_file(path, into, cause);
		}
		free(path);
		if (rr != 0)
			goto out;
	}
	r = 0;
out:
	names_free(names, n);
	return r;
}

/* The merged variables for NAME under dir, or NULL when there are none. */
static int
find_vars(const char *dir, const char *name, json_t **out, char **cause)
{
	static const char *const tries[] = { "", ".yml", ".yaml", ".json",
	    NULL };
	struct stat	 st;
	json_t		*j = NULL;
	size_t		 i;
	int		 r = 0;

	*out = NULL;
	if (name[0] == '/')
		return 0;	/* Ansible skips chroot-like names */
	for (i = 0; tries[i] != NULL; i++) {
		char *path = xprintf("%s/%s%s", dir, name, tries[i]);

		if (stat(path, &st) != 0) {
			free(path);
			continue;
		}
		j = json_object();
		if (S_ISDIR(st.st_mode))
			r = load_dir(path, j, cause);
		else
			r = load_file(path, j, cause);
		free(path);
		break;
	}
	if (r != 0 || (j != NULL && json_object_size(j) == 0)) {
		json_decref(j);
		return r;
	}
	*out = j;
	return 0;
}


int
inv_load_root_vars(struct inventory *inv, size_t r, char **cause)
{
	char	*gdir, *hdir;
	size_t	 i;
	int	 rv = -1;

	gdir = xprintf("%s/group_vars", inv->roots[r].dir);
	hdir = xprintf("%s/host_vars", inv->roots[r].dir);
	for (i = 0; i < inv->ngroups; i++) {
		struct inv_group *g = inv->groups[i];

		if (g->file_vars == NULL)
			g->file_vars = xcalloc(inv->nroots,
			    sizeof *g->file_vars);
		if (path_is_dir(gdir) &&
		    find_vars(gdir, g->name, &g->file_vars[r], cause) != 0)
			goto out;
	}
	for (i = 0; i < inv->nhosts; i++) {
		struct inv_host *h = inv->hosts[i];

		if (h->file_vars == NULL)
			h->file_vars = xcalloc(inv->nroots,
			    sizeof *h->file_vars);
		if (path_is_dir(hdir) &&
		    find_vars(hdir, h->name, &h->file_vars[r], cause) != 0)
			goto out;
	}
	rv = 0;
out:
	free(gdir);
	free(hdir);
	return rv;
}
