/* Roles (playbook.h, struct role): found along the role search path of
 * Ansible's RoleDefinition (the playbook's roles/, roles_path, the
 * playbook's directory; a collection's roles/ for ns.coll.role), their
 * defaults/, vars/, meta/main.yml dependencies, tasks/ and handlers/, as
 * blocks of the play's tree. A role used twice with the same parameters
 * runs once unless its meta allows duplicates (Ansible's role cache). */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"
#include "base/xalloc.h"
#include "playbook/loader.h"
#include "playbook/playbook.h"
#include "template/template.h"

static char *roles_path;

/* Keys of a `roles:` entry that are the role's keywords; any other key is
 * a role parameter (Ansible's RoleDefinition._split_role_params). */
static const char *const entry_keys[] = { "role", "name", "when", "tags",
	"vars", "ignore_errors", "become", "become_user", NULL };
/* Keywords a role entry may have in Ansible that tcptune does not take:
 * an error, not a parameter. */
static const char *const entry_unsupported[] = { "delegate_to", "environment", "connection", "any_errors_fatal",
	"become_method", "check_mode", "diff", "no_log", "run_once",
	"throttle", "timeout", "collections", NULL };
static const char *const import_role_keys[] = { "name", "tasks_from",
	"vars_from", "defaults_from", "handlers_from", "allow_duplicates",
	"public", "rolespec_validate", NULL };

void
playbook_set_roles_path(const char *paths)
{
	free(roles_path);
	roles_path = paths != NULL ? xstrdup(paths) : NULL;
}


/* "~/x" with $HOME. */
static char *
expand_home(const char *s, size_t len)
{
	const char *home = getenv("HOME");

	if (len > 0 && s[0] == '~' && (len == 1 || s[1] == '/') &&
	    home != NULL)
		return xprintf("%s%.*s", home, (int)len - 1, s + 1);
	return xstrndup(s, len);
}

/* The directory of role `name`, or NULL with the places looked at. A name
 * with slashes is searched as any other (roles/kubernetes/preinstall for
 * kubernetes/preinstall); *by_path is set when it was found only as a path
 * of its own. */
static char *
find_role(struct loader *ld, const char *name, const struct role *parent,
    char **looked, int *by_path)
{
	const char	*def = "~/.ansible/roles:/usr/share/ansible/roles:"
			    "/etc/ansible/roles";
	const char	*colls = "~/.ansible/collections:"
			    "/usr/share/ansible/collections:"
			    "/usr/lib/python3/dist-packages";
	const char	*path, *colon, *p;
	char		*pbdir, *cand, *dir, *found = NULL, *ns, *coll;
	char		*tried;

	p = strrchr(ld->file, '/');
	pbdir = p != NULL ? xstrndup(ld->file, (size_t)(p - ld->file)) :
	    xstrdup(".");
	tried = xstrdup("");
	*by_path = 0;
	if (name[0] == '/') {
		/* named by the whole path, as os.path.join finds it */
		if (path_is_dir(name))
			found = xstrdup(name);
		else {
			free(tried);
			tried = xstrdup(name);
		}
		goto out;
	}
	/* ns.coll.role: the role of an installed collection */
	if ((p = strchr(name, '.')) != NULL && strchr(p + 1, '.') != NULL) {
		ns = xstrndup(name, (size_t)(p - name));
		coll = xstrndup(p + 1, (size_t)(strchr(p + 1, '.') - p - 1));
		for (path = colls; *path != '\0' && found == NULL;
		    path = *colon != '\0' ? colon + 1 : colon) {
			colon = strchrnul(path, ':');
			dir = expand_home(path, (size_t)(colon - path));
			cand = xprintf("%s/ansible_collections/%s/%s/roles/%s",
			    dir, ns, coll, strrchr(name, '.') + 1);
			free(dir);
			if (path_is_dir(cand))
				found = cand;
			else {
				p = tried;
				tried = xprintf("%s%s%s", p, *p ? ", " : "",
				    cand);
				free((char *)p);
				free(cand);
			}
		}
		free(ns);
		free(coll);
		goto out;
	}
	/* the playbook's roles/, roles_path, a dependency's sibling, the
	 * playbook's directory */
	cand = xprintf("%s/roles", pbdir);
	{
		char *all = xprintf("%s:%s:%s%s%s", cand, roles_path != NULL ?
		    roles_path : def, parent != NULL ? parent->path : "",
		    parent != NULL ? "/.." : "", "");

		free(cand);
		for (path = all; found == NULL; path = colon + 1) {
			colon = strchrnul(path, ':');
			if (colon > path) {
				dir = expand_home(path, (size_t)(colon - path));
				cand = xprintf("%s/%s", dir, name);
				free(dir);
				if (path_is_dir(cand))
					found = cand;
				else {
					p = tried;
					tried = xprintf("%s%s%s", p, *p ? ", " :
					    "", cand);
					free((char *)p);
					free(cand);
				}
			}
			if (*colon == '\0')
				break;
		}
		free(all);
	}
	if (found == NULL) {
		cand = xprintf("%s/%s", pbdir, name);
		if (path_is_dir(cand))
			found = cand;
		else {
			p = tried;
			tried = xprintf("%s, %s", p, cand);
			free((char *)p);
			free(cand);
		}
	}
	/* last, a name with a slash as a path from the working directory,
	 * the role then named by its last component (Ansible's
	 * RoleDefinition._load_role_path) */
	if (found == NULL && strchr(name, '/') != NULL) {
		if (path_is_dir(name)) {
			found = xstrdup(name);
			*by_path = 1;
		} else {
			p = tried;
			tried = xprintf("%s, %s", p, name);
			free((char *)p);
		}
	}
out:
	free(pbdir);
	if (found == NULL)
		*looked = tried;
	else
		free(tried);
	return found;
}

/* DIR/SUB/NAME.yml (or .yaml, or no extension): the first that exists. */
static char *
role_file(const struct role *r, const char *sub, const char *name)
{
	static const char *const ext[] = { ".yml", ".yaml", "" };
	char	*path;
	size_t	 i;

	for (i = 0; i < 3; i++) {
		path = xprintf("%s/%s/%s%s", r->path, sub, name, ext[i]);
		if (access(path, R_OK) == 0 && !path_is_dir(path))
			return path;
		free(path);
	}
	return NULL;
}

/* defaults/ or vars/: a mapping, {} when the role has none. */
static json_t *
role_vars_file(struct loader *ld, const struct role *r, const char *sub,
    const char *name)
{
	const struct ynode	*root;
	char			*path;
	json_t			*v = json_object();

	if ((path = role_file(r, sub, name)) == NULL)
		return v;
	if ((root = loader_read(ld, path, &r->pos)) != NULL &&
	    !ynode_is_null(root)) {
		if (root->type != YNODE_MAP)
			diag_add(ld->d, &root->pos, "%s/%s must be a mapping, "
			    "got %s", sub, name, ynode_type_name(root));
		else
			load_vars_into(ld, root, v);
	}
	free(path);
	return v;
}

/* Role.get_default_vars() without a chain: the dependencies', then its
 * own. */
static void
defaults_of(json_t *into, const struct role *r)
{
	size_t i;

	for (i = 0; i < r->ndeps; i++)
		defaults_of(into, r->deps[i]);
	vars_merge(into, r->defaults);
}

/* Role.get_vars(include_params=False) without a chain. */
static void
vars_of(json_t *into, const struct role *r)
{
	size_t i;

	for (i = 0; i < r->ndeps; i++)
		vars_of(into, r->deps[i]);
	vars_merge(into, r->entry_vars);
	vars_merge(into, r->vars);
}

static void
chain_defaults(json_t *into, const struct role *r)
{
	if (r == NULL)
		return;
	chain_defaults(into, r->parent);
	vars_merge(into, r->defaults);
}

static void
chain_vars(json_t *into, const struct role *r)
{
	if (r == NULL)
		return;
	chain_vars(into, r->parent);
	vars_merge(into, r->entry_vars);
	vars_merge(into, r->vars);
}

static void
chain_params(json_t *into, const struct role *r)
{
	if (r == NULL)
		return;
	chain_params(into, r->parent);
	vars_merge(into, r->params);
}

/* What the role's tasks see (vars/manager.py with the dependency chain),
 * and what the play sees of a role it names. */
static void
role_vars_merge(struct play *p, struct role *r)
{
	size_t i;

	r->all_defaults = json_object();
	for (i = 0; i < r->ndeps; i++)
		defaults_of(r->all_defaults, r->deps[i]);
	chain_defaults(r->all_defaults, r->parent);
	vars_merge(r->all_defaults, r->defaults);
	r->all_vars = json_object();
	chain_vars(r->all_vars, r->parent);
	vars_of(r->all_vars, r);
	r->all_params = json_object();
	chain_params(r->all_params, r);
	if (!r->top)
		return;
	if (p->role_defaults == NULL)
		p->role_defaults = json_object();
	if (p->role_vars == NULL)
		p->role_vars = json_object();
	defaults_of(p->role_defaults, r);
	vars_of(p->role_vars, r);
}

/* The same role with the same parameters and tasks file, already in the
 * play: Ansible's role cache gives the same role, which runs once. */
static struct role *
cached(const struct play *p, const char *path, const json_t *params,
    const char *tasks_from)
{
	size_t i;

	for (i = 0; i < p->nroles; i++) {
		const struct role *r = p->roles[i];

		if (strcmp(r->path, path) == 0 && strcmp(r->tasks_from,
		    tasks_from) == 0 && json_equal(r->params, (json_t *)params))
			return p->roles[i];
	}
	return NULL;
}

/* meta/main.yml: allow_duplicates, and the dependencies' entries. */
static const struct ynode *
role_meta(struct loader *ld, const struct role *r, int *allow_duplicates)
{
	const struct ynode	*root, *v;
	char			*path;

	*allow_duplicates = 0;
	if ((path = role_file(r, "meta", "main")) == NULL)
		return NULL;
	root = loader_read(ld, path, &r->pos);
	free(path);
	if (root == NULL || ynode_is_null(root))
		return NULL;
	if (root->type != YNODE_MAP) {
		diag_add(ld->d, &root->pos, "meta/main must be a mapping, got "
		    "%s", ynode_type_name(root));
		return NULL;
	}
	get_bool(ld, ynode_get(root, "allow_duplicates"), "allow_duplicates",
	    allow_duplicates);
	v = ynode_get(root, "dependencies");
	if (v == NULL || ynode_is_null(v))
		return NULL;
	if (v->type != YNODE_SEQ) {
		type_error(ld, v, "dependencies", "a list of roles");
		return NULL;
	}
	return v;
}

struct role_use {
	const char		*name;
	struct ypos		 name_pos;	/* where it is named */
	const struct ynode	*entry;		/* its keywords (when, tags) */
	json_t			*params;
	json_t			*entry_vars;
	const char		*tasks_from;
	const char		*handlers_from;
	const char		*defaults_from;
	const char		*vars_from;
	int			 top;
	int			 dynamic;	/* include_role: runs each time
						 * (no role cache) */
};

static struct role *role_use(struct loader *, struct role_use *,
    const struct scope *);

static void
split_entry(struct loader *ld, const struct ynode *n, struct role_use *u)
{
	const struct ynode	*v;
	const char		*key;
	size_t			 i;

	u->params = json_object();
	u->entry_vars = json_object();
	if (n->type == YNODE_SCALAR && !ynode_is_null(n)) {
		u->name = n->value;
		u->name_pos = n->pos;
		return;
	}
	if (n->type != YNODE_MAP) {
		type_error(ld, n, "role", "a role name or a mapping");
		return;
	}
	u->entry = n;
	if ((v = ynode_get(n, "role")) == NULL)
		v = ynode_get(n, "name");
	if (v == NULL || v->type != YNODE_SCALAR || ynode_is_null(v)) {
		diag_add(ld->d, &n->pos, "role entry needs 'role:' with the "
		    "role's name");
		return;
	}
	u->name = v->value;
	u->name_pos = v->pos;
	for (i = 0; i < n->n; i++) {
		key = ynode_key(n, i);
		if (in_list(key, entry_keys))
			continue;
		if (in_list(key, entry_unsupported)) {
			diag_add(ld->d, &n->keys[i]->pos, "'%s' on a role is "
			    "not supported", key);
			continue;
		}
		if (!str_is_identifier(key)) {
			diag_add(ld->d, &n->keys[i]->pos, "invalid role "
			    "parameter name '%s'", key);
			continue;
		}
		json_object_set_new(u->params, key, ynode_to_json(n->items[i]));
	}
	if ((v = ynode_get(n, "vars")) != NULL && !ynode_is_null(v))
		load_vars_into(ld, v, u->entry_vars);
}

/* The role's dependencies, each a role of its own under r's block. */
static void
role_deps(struct loader *ld, struct role *r, const struct ynode *deps,
    const struct scope *sc)
{
	struct role_use	 u;
	struct role	*d;
	size_t		 i;

	for (i = 0; deps != NULL && i < deps->n; i++) {
		memset(&u, 0, sizeof u);
		split_entry(ld, deps->items[i], &u);
		u.tasks_from = u.handlers_from = "main";
		u.defaults_from = u.vars_from = "main";
		if (u.name != NULL && (d = role_use(ld, &u, sc)) != NULL) {
			r->deps = xreallocarray(r->deps, r->ndeps + 1,
			    sizeof *r->deps);
			r->deps[r->ndeps++] = d;
		}
		json_decref(u.params);
		json_decref(u.entry_vars);
	}
}

/* Load one use of a role into the tree under sc: its block (the entry's
 * when and tags on everything in it), dependencies first, then its tasks,
 * its handlers into the play's. Returns the role (an earlier one when
 * cached), or NULL. */
static struct role *
role_use(struct loader *ld, struct role_use *u, const struct scope *sc)
{
	struct play		*p = ld->play;
	const struct ynode	*deps, *root;
	struct role		*r, *same;
	struct scope		 in;
	char			*path, *looked = NULL, *kind, *file;
	int			 dups = 0, part, by_path = 0;

	if (ld->depth >= LOADER_MAX_DEPTH) {
		diag_add(ld->d, &u->name_pos, "roles nested more than "
		    "%d deep (does role '%s' depend on itself?)",
		    LOADER_MAX_DEPTH, u->name);
		return NULL;
	}
	if (template_has(u->name)) {
		diag_add(ld->d, &u->name_pos, "a templated role name is "
		    "not supported (roles are read when the playbook loads)");
		return NULL;
	}
	if ((path = find_role(ld, u->name, sc->role, &looked, &by_path)) ==
	    NULL) {
		diag_add(ld->d, &u->name_pos, "role '%s' not found (looked "
		    "in %s)", u->name, looked);
		free(looked);
		return NULL;
	}
	if (!u->dynamic &&
	    (same = cached(p, path, u->params, u->tasks_from)) != NULL) {
		int allow = 0;

		role_meta(ld, same, &allow);
		if (!allow) {
			free(path);
			return same;
		}
	}
	r = xcalloc(1, sizeof *r);
	r->name = xstrdup(by_path ? strrchr(u->name, '/') + 1 : u->name);
	r->tasks_from = xstrdup(u->tasks_from);
	r->path = path;
	r->pos = u->name_pos;
	r->parent = sc->role;
	r->top = u->top;
	r->params = json_deep_copy(u->params);
	r->entry_vars = json_deep_copy(u->entry_vars);
	p->roles = xreallocarray(p->roles, p->nroles + 1, sizeof *p->roles);
	p->roles[p->nroles++] = r;
	r->defaults = role_vars_file(ld, r, "defaults", u->defaults_from);
	r->vars = role_vars_file(ld, r, "vars", u->vars_from);
	deps = role_meta(ld, r, &dups);

	if (u->entry != NULL)
		scope_derive(ld, sc, u->entry, &in);
	else {
		in = *sc;
		in.when = sc->when != NULL ? xstrdup(sc->when) : NULL;
		in.tags = NULL;
		in.ntags = 0;
		for (size_t i = 0; i < sc->ntags; i++) {
			in.tags = xreallocarray(in.tags, in.ntags + 1,
			    sizeof *in.tags);
			in.tags[in.ntags++] = xstrdup(sc->tags[i]);
		}
		in.vars = sc->vars != NULL ? json_deep_copy(sc->vars) : NULL;
		in.environment = sc->environment != NULL ?
		    json_deep_copy(sc->environment) : NULL;
		in.become_user = sc->become_user != NULL ?
		    xstrdup(sc->become_user) : NULL;
		in.delegate_to = sc->delegate_to != NULL ?
		    xstrdup(sc->delegate_to) : NULL;
		in.dir = xstrdup(sc->dir);
	}
	/* a role entry's vars are the role's (entry_vars), not block vars */
	if (u->entry != NULL && in.vars != NULL) {
		json_decref(in.vars);
		in.vars = sc->vars != NULL ? json_deep_copy(sc->vars) : NULL;
	}
	kind = xprintf("role '%s'", u->name);
	in.block = tree_open(ld, sc, &u->name_pos, kind);
	free(kind);
	in.part = PART_BLOCK;
	in.role = r;
	free(in.dir);
	in.dir = xprintf("%s/tasks", r->path);
	ld->depth++;
	role_deps(ld, r, deps, &in);
	role_vars_merge(p, r);
	role_argspec_task(ld, r, u->tasks_from, &in);
	if ((file = role_file(r, "tasks", u->tasks_from)) != NULL) {
		if ((root = loader_read(ld, file, &r->pos)) != NULL &&
		    !ynode_is_null(root))
			tree_load_list(ld, root, &in, "tasks");
		free(file);
	} else if (strcmp(u->tasks_from, "main") != 0)
		diag_add(ld->d, &u->name_pos, "role '%s' has no tasks "
		    "file '%s'", u->name, u->tasks_from);
	if (ld->play->ntasks == in.block->first[PART_BLOCK])
		tree_add_meta(ld, &in, TASK_NOOP, &r->pos);
	for (part = 0; part < NPARTS; part++) {
		if (part != PART_BLOCK)
			in.block->first[part] = ld->play->ntasks;
		in.block->end[part] = ld->play->ntasks;
	}
	if ((file = role_file(r, "handlers", u->handlers_from)) != NULL) {
		if ((root = loader_read(ld, file, &r->pos)) != NULL &&
		    !ynode_is_null(root)) {
			in.handlers = 1;
			tree_load_list(ld, root, &in, "handlers");
			in.handlers = 0;
		}
		free(file);
	}
	ld->depth--;
	scope_release(&in);
	return r;
}

void
role_load_entry(struct loader *ld, const struct ynode *n,
    const struct scope *sc)
{
	struct role_use u;

	memset(&u, 0, sizeof u);
	split_entry(ld, n, &u);
	u.tasks_from = u.handlers_from = u.defaults_from = u.vars_from =
	    "main";
	u.top = 1;
	if (u.name != NULL)
		role_use(ld, &u, sc);
	json_decref(u.params);
	json_decref(u.entry_vars);
}

static const char *
import_option(struct loader *ld, const struct ynode *opts, const char *key)
{
	const struct ynode *v = ynode_get(opts, key);

	if (v == NULL || ynode_is_null(v))
		return "main";
	if (v->type != YNODE_SCALAR || template_has(v->value)) {
		type_error(ld, v, key, "a file name (not templated)");
		return "main";
	}
	return v->value;
}

void
role_load_import(struct loader *ld, const struct ynode *n, const char *key,
    const struct scope *sc)
{
	const struct ynode	*opts = ynode_get(n, key), *v;
	struct role_use		 u;
	struct scope		 in;
	size_t			 i;

	for (i = 0; i < n->n; i++) {
		const char *k = ynode_key(n, i);

		if (strcmp(k, key) != 0 && !in_list(k, (const char *const[]){
		    "name", "when", "tags", "vars", "ignore_errors", "become",
		    "become_user", NULL }))
			diag_add(ld->d, &n->keys[i]->pos, "'%s' is not "
			    "supported on import_role", k);
	}
	if (opts->type != YNODE_MAP || (v = ynode_get(opts, "name")) == NULL ||
	    v->type != YNODE_SCALAR) {
		diag_add(ld->d, &opts->pos, "import_role needs 'name:' with the "
		    "role's name");
		return;
	}
	for (i = 0; i < opts->n; i++) {
		if (!in_list(ynode_key(opts, i), import_role_keys))
			diag_add(ld->d, &opts->keys[i]->pos, "unknown "
			    "import_role option '%s'", ynode_key(opts, i));
	}
	memset(&u, 0, sizeof u);
	u.name = v->value;
	u.name_pos = v->pos;
	u.params = json_object();
	u.entry_vars = json_object();
	u.tasks_from = import_option(ld, opts, "tasks_from");
	u.handlers_from = import_option(ld, opts, "handlers_from");
	u.defaults_from = import_option(ld, opts, "defaults_from");
	u.vars_from = import_option(ld, opts, "vars_from");
	u.top = 1;
	/* the task's when, tags and vars are over the role's tasks */
	scope_derive(ld, sc, n, &in);
	role_use(ld, &u, &in);
	scope_release(&in);
	json_decref(u.params);
	json_decref(u.entry_vars);
}

/* include_role's options, as import_role's (not templated). */
static void
include_options(const json_t *opts, struct role_use *u)
{
	const char *const	 keys[] = { "tasks_from", "handlers_from",
	    "defaults_from", "vars_from" };
	const char		**to[] = { &u->tasks_from, &u->handlers_from,
	    &u->defaults_from, &u->vars_from };
	const char		*v;
	size_t			 i;

	for (i = 0; i < 4; i++) {
		v = json_string_value(json_object_get(opts, keys[i]));
		*to[i] = v != NULL ? v : "main";
	}
}

int
role_load_dynamic(struct loader *ld, const char *name, const json_t *opts,
    const struct ypos *pos, const struct scope *sc)
{
	struct role_use	u;
	struct role	*r;

	memset(&u, 0, sizeof u);
	u.name = name;
	u.name_pos = *pos;
	u.params = json_object();
	u.entry_vars = json_object();
	include_options(opts, &u);
	u.dynamic = 1;
	r = role_use(ld, &u, sc);
	json_decref(u.params);
	json_decref(u.entry_vars);
	return r != NULL ? 0 : -1;
}

void
role_free(struct role *r)
{
	free(r->name);
	free(r->tasks_from);
	free(r->path);
	json_decref(r->defaults);
	json_decref(r->vars);
	json_decref(r->entry_vars);
	json_decref(r->params);
	free(r->deps);
	json_decref(r->all_defaults);
	json_decref(r->all_vars);
	json_decref(r->all_params);
	free(r);
}
