/* The tree of a play (playbook.h): sections, blocks, static imports and
 * the handlers, each task loaded by load_task and given what the blocks
 * around it pass down, as Ansible's Block and Task inherit (when, tags,
 * vars, ignore_errors, the role). */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/strbuf.h"
#include "base/util.h"
#include "base/xalloc.h"
#include "playbook/loader.h"
#include "playbook/loop.h"
#include "playbook/playbook.h"
#include "template/template.h"

static const char *const block_keys[] = { "block", "rescue", "always",
	"name", "when", "tags", "vars", "ignore_errors", "no_log", "run_once",
	"environment", "become", "become_user", "delegate_to",
	"delegate_facts", NULL };
/* what scope_derive hands down to the imported tasks */
static const char *const import_keys[] = { "name", "when", "tags", "vars",
	"ignore_errors", "become", "become_user", "environment", "no_log",
	"run_once", "delegate_to", NULL };
static const char *const part_names[NPARTS] = { "block", "rescue",
	"always" };

/* The keyword of a task mapping among names, FQCN or not. */
static const char *
keyword(const struct ynode *n, const char *name, size_t *index)
{
	char	*fq = xprintf("ansible.builtin.%s", name);
	char	*legacy = xprintf("ansible.legacy.%s", name);
	size_t	 i;
	const char *found = NULL;

	for (i = 0; n->type == YNODE_MAP && i < n->n && found == NULL; i++) {
		const char *k = ynode_key(n, i);

		if (strcmp(k, name) == 0 || strcmp(k, fq) == 0 ||
		    strcmp(k, legacy) == 0) {
			found = k;
			if (index != NULL)
				*index = i;
		}
	}
	free(fq);
	free(legacy);
	return found;
}

static struct task *
new_task(struct loader *ld, const struct scope *sc)
{
	struct play	*p = ld->play;
	struct task	*t;

	if (sc->handlers) {
		p->handlers = xreallocarray(p->handlers, p->nhandlers + 1,
		    sizeof *p->handlers);
		t = &p->handlers[p->nhandlers++];
	} else {
		p->tasks = xreallocarray(p->tasks, p->ntasks + 1,
		    sizeof *p->tasks);
		t = &p->tasks[p->ntasks++];
	}
	memset(t, 0, sizeof *t);
	t->become = -1;
	t->check_mode = -1;
	t->diff = -1;
	t->retries = t->delay = -1;
	t->parent = sc->block;
	t->part = sc->part;
	t->role = sc->role;
	return t;
}

/* A task the runner takes without a module: a flush of the handlers or
 * the place of an empty block part. */
void
tree_add_meta(struct loader *ld, const struct scope *sc, enum task_kind kind,
    const struct ypos *pos)
{
	struct task *t = new_task(ld, sc);

	t->kind = kind;
	t->pos = *pos;
	t->name = xstrdup(kind == TASK_FLUSH_HANDLERS ?
	    "meta: flush_handlers" : "meta: noop");
}

static void
implicit_flush(struct loader *ld, const struct scope *sc,
    const struct ypos *pos)
{
	tree_add_meta(ld, sc, TASK_FLUSH_HANDLERS, pos);
	ld->play->tasks[ld->play->ntasks - 1].implicit = 1;
}

static char *
join_when(const char *outer, const char *inner)
{
	if (outer == NULL)
		return inner != NULL ? xstrdup(inner) : NULL;
	if (inner == NULL)
		return xstrdup(outer);
	return xprintf("(%s) and (%s)", outer, inner);
}

static int
has_name(char *const *v, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (strcmp(v[i], s) == 0)
			return 1;
	}
	return 0;
}

static void
add_tags(char ***tags, size_t *ntags, char *const *more, size_t nmore)
{
	size_t i;

	for (i = 0; i < nmore; i++) {
		if (has_name(*tags, *ntags, more[i]))
			continue;
		*tags = xreallocarray(*tags, *ntags + 1, sizeof **tags);
		(*tags)[(*ntags)++] = xstrdup(more[i]);
	}
}

/* What the blocks around t give it. */
static void
inherit(const struct scope *sc, struct task *t)
{
	char	**own = t->tags;
	size_t	  nown = t->ntags;
	char	 *w;
	json_t	 *v;

	if (sc->when != NULL) {
		w = join_when(sc->when, t->when);
		if (t->when == NULL)
			t->when_pos = sc->when_pos;
		free(t->when);
		t->when = w;
	}
	t->tags = NULL;
	t->ntags = 0;
	add_tags(&t->tags, &t->ntags, sc->tags, sc->ntags);
	add_tags(&t->tags, &t->ntags, own, nown);
	free_tags(own, nown);
	if (sc->vars != NULL) {
		v = json_deep_copy(sc->vars);
		if (t->vars != NULL)
			json_object_update(v, t->vars);
		json_decref(t->vars);
		t->vars = v;
	}
	if (sc->ignore_errors > 0)
		t->ignore_errors = 1;
	/* a task's own no_log, run_once and environment over its blocks' */
	if (t->no_log < 0)
		t->no_log = sc->no_log > 0;
	if (t->run_once < 0)
		t->run_once = sc->run_once > 0;
	/* become and become_user each: the task's, else the innermost
	 * block's that sets it (Ansible's _get_parent_attribute); the
	 * play's is the runner's (task_become) */
	if (t->become < 0)
		t->become = sc->become;
	if (t->become_user == NULL && sc->become_user != NULL) {
		t->become_user = xstrdup(sc->become_user);
		t->become_user_pos = sc->become_user_pos;
	}
	if (t->delegate_to == NULL && sc->delegate_to != NULL) {
		t->delegate_to = xstrdup(sc->delegate_to);
		t->delegate_to_pos = sc->delegate_to_pos;
	}
	if (sc->environment != NULL && (t->environment == NULL ||
	    json_is_object(t->environment))) {
		v = json_deep_copy(sc->environment);
		if (t->environment != NULL)
			json_object_update(v, t->environment);
		json_decref(t->environment);
		t->environment = v;
		if (t->environment_pos.file == NULL)
			t->environment_pos = sc->environment_pos;
	}
	/* Task.get_name(): a role's task is "role : name" */
	if (sc->role != NULL && t->name != NULL) {
		w = xprintf("%s : %s", sc->role->name, t->name);
		free(t->name);
		t->name = w;
	}
}

/* A scope for what is inside mapping n (a block, an import, a role
 * entry): the when, tags, vars and ignore_errors it sets over up's. */
void
scope_derive(struct loader *ld, const struct scope *up, const struct ynode *n,
    struct scope *out)
{
	const struct ynode	*v;
	char			*when, **tags = NULL;
	size_t			 ntags = 0;
	json_t			*env;

	*out = *up;
	out->dir = xstrdup(up->dir);
	when = get_when(ld, ynode_get(n, "when"));
	out->when = join_when(up->when, when);
	if (when != NULL)
		out->when_pos = ynode_get(n, "when")->pos;
	free(when);
	out->tags = NULL;
	out->ntags = 0;
	add_tags(&out->tags, &out->ntags, up->tags, up->ntags);
	get_tags(ld, ynode_get(n, "tags"), &tags, &ntags);
	add_tags(&out->tags, &out->ntags, tags, ntags);
	free_tags(tags, ntags);
	out->vars = up->vars != NULL ? json_deep_copy(up->vars) : NULL;
	if ((v = ynode_get(n, "vars")) != NULL && !ynode_is_null(v)) {
		if (out->vars == NULL)
			out->vars = json_object();
		load_vars_into(ld, v, out->vars);
	}
	get_bool(ld, ynode_get(n, "ignore_errors"), "ignore_errors",
	    &out->ignore_errors);
	get_bool(ld, ynode_get(n, "no_log"), "no_log", &out->no_log);
	get_bool(ld, ynode_get(n, "run_once"), "run_once", &out->run_once);
	out->become_user = up->become_user != NULL ?
	    xstrdup(up->become_user) : NULL;
	get_become(ld, n, &out->become, &out->become_user,
	    &out->become_user_pos);
	out->delegate_to = up->delegate_to != NULL ?
	    xstrdup(up->delegate_to) : NULL;
	get_delegate(ld, n, &out->delegate_to, &out->delegate_to_pos);
	out->environment = up->environment != NULL ?
	    json_deep_copy(up->environment) : NULL;
	if ((v = ynode_get(n, "environment")) != NULL && !ynode_is_null(v)) {
		if (v->type != YNODE_MAP)
			type_error(ld, v, "environment", "a mapping of "
			    "variables (on a block)");
		else {
			if (out->environment == NULL)
				out->environment = json_object();
			vars_merge(out->environment, (env = ynode_to_json(v)));
			json_decref(env);
			out->environment_pos = v->pos;
		}
	}
}

void
scope_release(struct scope *s)
{
	json_decref(s->environment);
	free(s->become_user);
	free(s->delegate_to);
	free(s->when);
	free_tags(s->tags, s->ntags);
	json_decref(s->vars);
	free(s->dir);
}

struct block *
tree_open(struct loader *ld, const struct scope *sc, const struct ypos *pos,
    const char *kind)
{
	struct play	*p = ld->play;
	struct block	*b = xcalloc(1, sizeof *b);
	int		 i;

	b->pos = *pos;
	b->kind = xstrdup(kind);
	b->parent = sc->block;
	b->part = sc->part;
	for (i = 0; i < NPARTS; i++)
		b->first[i] = b->end[i] = p->ntasks;
	p->blocks = xreallocarray(p->blocks, p->nblocks + 1,
	    sizeof *p->blocks);
	p->blocks[p->nblocks++] = b;
	return b;
}

/* Keys a construct does not take: an error each, never ignored. */
static void
check_keys(struct loader *ld, const struct ynode *n,
    const char *const *known, const char *own, const char *what)
{
	const char	*key, *sugg;
	size_t		 i;

	for (i = 0; i < n->n; i++) {
		key = ynode_key(n, i);
		if (in_list(key, known) || (own != NULL && strcmp(key, own) ==
		    0))
			continue;
		if ((sugg = did_you_mean(key, known, count_words(known))) !=
		    NULL)
			diag_add(ld->d, &n->keys[i]->pos, "unknown %s key '%s' "
			    "(did you mean '%s'?)", what, key, sugg);
		else
			diag_add(ld->d, &n->keys[i]->pos, "'%s' is not "
			    "supported on %s", key, what);
	}
}

static int
is_block(const struct ynode *n)
{
	return n->type == YNODE_MAP && (ynode_get(n, "block") != NULL ||
	    ynode_get(n, "rescue") != NULL || ynode_get(n, "always") != NULL);
}

static void
load_block(struct loader *ld, const struct ynode *n, const struct scope *sc)
{
	struct scope	 in;
	struct block	*b;
	int		 part;

	if (sc->handlers) {
		diag_add(ld->d, &n->pos, "a block among handlers is not "
		    "supported");
		return;
	}
	check_keys(ld, n, block_keys, NULL, "block");
	scope_derive(ld, sc, n, &in);
	b = tree_open(ld, sc, &n->pos, "block");
	in.block = b;
	for (part = 0; part < NPARTS; part++) {
		const struct ynode *list = ynode_get(n, part_names[part]);

		in.part = part;
		b->first[part] = ld->play->ntasks;
		if (list != NULL && !ynode_is_null(list))
			tree_load_list(ld, list, &in, part_names[part]);
		/* every block part has a task: a host always enters a
		 * block at its block part (walk.c) */
		if (part == PART_BLOCK && ld->play->ntasks == b->first[part])
			tree_add_meta(ld, &in, TASK_NOOP, &n->pos);
		b->end[part] = ld->play->ntasks;
	}
	scope_release(&in);
}

static char *
dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (slash == NULL)
		return xstrdup(".");
	return xstrndup(path, (size_t)(slash - path));
}

/* import_tasks: the file's tasks, read now, as a block of their own. */
static void
load_import_tasks(struct loader *ld, const struct ynode *n, const char *key,
    const struct scope *sc)
{
	const struct ynode	*file = ynode_get(n, key), *root;
	struct scope		 in;
	struct ypos		 pos;
	char			*path, *kind;

	check_keys(ld, n, import_keys, key, "import_tasks");
	if (file->type != YNODE_SCALAR || ynode_is_null(file)) {
		type_error(ld, file, key, "a file name");
		return;
	}
	if (template_has(file->value)) {
		diag_add(ld->d, &file->pos, "a templated import_tasks file is "
		    "not supported (it is read when the playbook loads)");
		return;
	}
	if (ld->depth >= LOADER_MAX_DEPTH) {
		diag_add(ld->d, &file->pos, "imports nested more than %d deep "
		    "(does '%s' import itself?)", LOADER_MAX_DEPTH,
		    file->value);
		return;
	}
	path = file->value[0] == '/' ? xstrdup(file->value) :
	    xprintf("%s/%s", sc->dir, file->value);
	pos = file->pos;
	if ((root = loader_read(ld, path, &pos)) == NULL) {
		free(path);
		return;
	}
	scope_derive(ld, sc, n, &in);
	if (in.role == NULL) {
		free(in.dir);
		in.dir = dir_of(path);
	}
	kind = xprintf("import_tasks '%s'", file->value);
	in.block = tree_open(ld, sc, &n->pos, kind);
	in.part = PART_BLOCK;
	ld->depth++;
	if (!ynode_is_null(root))
		tree_load_list(ld, root, &in, "tasks");
	ld->depth--;
	if (ld->play->ntasks == in.block->first[PART_BLOCK] && !sc->handlers)
		tree_add_meta(ld, &in, TASK_NOOP, &n->pos);
	in.block->end[PART_BLOCK] = in.block->first[PART_RESCUE] =
	    in.block->end[PART_RESCUE] = in.block->first[PART_ALWAYS] =
	    in.block->end[PART_ALWAYS] = ld->play->ntasks;
	free(kind);
	free(path);
	scope_release(&in);
}

static const char *const include_keys[] = { "name", "when", "tags",
	"vars", "loop", "with_items", "with_list", "with_dict",
	"with_indexed_items", "with_together", "with_nested", "with_sequence",
	"with_first_found", "loop_control", "ignore_errors", NULL };

static const char *const include_role_opts[] = { "name", "tasks_from",
	"vars_from", "defaults_from", "handlers_from", "allow_duplicates",
	"public", "rolespec_validate", NULL };

/* include_role's mapping: the role's name and its *_from options (not
 * templated: a role's files are read whole when it is included). */
static const struct ynode *
include_role_opts_of(struct loader *ld, const struct ynode *v, json_t **opts)
{
	const struct ynode	*name, *o;
	size_t			 i;

	*opts = json_object();
	if (v->type != YNODE_MAP || (name = ynode_get(v, "name")) == NULL ||
	    name->type != YNODE_SCALAR || ynode_is_null(name)) {
		diag_add(ld->d, &v->pos, "include_role needs 'name:' with the "
		    "role's name");
		return NULL;
	}
	for (i = 0; i < v->n; i++) {
		const char *k = ynode_key(v, i);

		o = v->items[i];
		if (strcmp(k, "apply") == 0)
			diag_add(ld->d, &v->keys[i]->pos, "'apply' on "
			    "include_role is not supported");
		else if (!in_list(k, include_role_opts))
			diag_add(ld->d, &v->keys[i]->pos, "unknown "
			    "include_role option '%s'", k);
		else if (strstr(k, "_from") != NULL) {
			if (o->type != YNODE_SCALAR || ynode_is_null(o) ||
			    template_has(o->value))
				type_error(ld, o, k, "a file name (not "
				    "templated)");
			else
				json_object_set_new(*opts, k,
				    json_string(o->value));
		}
	}
	return name;
}

/* The included file or role as it stands, read now for lint only (not
 * kept in the tree): into a play of its own, with the real play's
 * handlers for an include_tasks' notify. */
static void
include_lint(struct loader *ld, const struct task *t, const struct ynode *n,
    const struct ypos *at, const struct scope *sc)
{
	struct play		 shadow, *real = ld->play;
	struct scope		 in = *sc;
	const struct ynode	*root;
	char			*path;

	if (template_has(t->include) || ld->depth >= LOADER_MAX_DEPTH)
		return;
	memset(&shadow, 0, sizeof shadow);
	ld->play = &shadow;
	in.block = tree_open(ld, sc, &n->pos, "include");
	in.part = PART_BLOCK;
	ld->depth++;
	if (t->include_role) {
		role_load_dynamic(ld, t->include, t->include_opts, at, &in);
		if (shadow.nhandlers > 0)
			diag_add(ld->d, at, "role '%s' has handlers: "
			    "include_role of a role with handlers is not "
			    "supported (import_role or roles: take them)",
			    t->include);
	} else {
		shadow.handlers = real->handlers;
		shadow.nhandlers = real->nhandlers;
		path = t->include[0] == '/' ? xstrdup(t->include) :
		    xprintf("%s/%s", sc->dir, t->include);
		if ((root = loader_read(ld, path, at)) != NULL &&
		    !ynode_is_null(root))
			tree_load_list(ld, root, &in, "tasks");
		free(path);
		shadow.handlers = NULL;
		shadow.nhandlers = 0;
	}
	ld->depth--;
	ld->play = real;
	play_free_tree(&shadow);
}

/* include_tasks and include_role: a task whose file or role is read per
 * host when it runs (playbook_load_include); an untemplated one is read
 * now too, so that lint finds its errors. */
static void
load_include(struct loader *ld, const struct ynode *n, const char *key,
    const struct scope *sc)
{
	const struct ynode	*file = ynode_get(n, key);
	struct task		*t;
	json_t			*opts = NULL;
	int			 role = strstr(key, "include_role") != NULL;
	const char		*what = role ? "include_role" : "include_tasks";

	check_keys(ld, n, include_keys, key, what);
	if (role)
		file = include_role_opts_of(ld, file, &opts);
	else if (file->type == YNODE_MAP)
		file = ynode_get(file, "file");
	if (file == NULL || file->type != YNODE_SCALAR ||
	    ynode_is_null(file)) {
		if (!role)
			type_error(ld, file != NULL ? file : n, key,
			    "a file name");
		json_decref(opts);
		return;
	}
	if (sc->handlers) {
		diag_add(ld->d, &n->pos, "%s among handlers is not "
		    "supported", what);
		json_decref(opts);
		return;
	}
	t = new_task(ld, sc);
	t->kind = TASK_INCLUDE;
	t->pos = n->pos;
	t->include = xstrdup(file->value);
	t->include_dir = xstrdup(sc->dir);
	t->include_role = role;
	t->include_opts = opts;
	t->include_pbfile = xstrdup(ld->file);
	get_string(ld, ynode_get(n, "name"), "name", &t->name);
	/* as Ansible names an unnamed one */
	if (t->name == NULL)
		t->name = role ? xprintf("include_role : %s", file->value) :
		    xstrdup(key);
	if ((t->when = get_when(ld, ynode_get(n, "when"))) != NULL)
		t->when_pos = ynode_get(n, "when")->pos;
	get_tags(ld, ynode_get(n, "tags"), &t->tags, &t->ntags);
	get_bool(ld, ynode_get(n, "ignore_errors"), "ignore_errors",
	    &t->ignore_errors);
	if (ynode_get(n, "vars") != NULL && !ynode_is_null(ynode_get(n,
	    "vars"))) {
		t->vars = json_object();
		load_vars_into(ld, ynode_get(n, "vars"), t->vars);
	}
	loop_load(&t->loop, n, ld->d);
	inherit(sc, t);
	include_lint(ld, t, n, &file->pos, sc);
}

/* Ansible 2.14's deprecated bare `include:` of tasks: static, as
 * import_tasks, unless it loops or its file name is templated, when it is
 * include_tasks (playbook/helpers.py, load_list_of_tasks). */
static void
load_bare_include(struct loader *ld, const struct ynode *n, const char *key,
    const struct scope *sc)
{
	const struct ynode	*file = ynode_get(n, key);
	size_t			 at;

	if (loop_keyword(n, &at) != NULL || (file->type == YNODE_SCALAR &&
	    template_has(file->value)))
		load_include(ld, n, key, sc);
	else
		load_import_tasks(ld, n, key, sc);
}

static const char *const meta_names[] = { "noop", "end_play", "end_batch",
	"end_host", "clear_facts", NULL };

static void
load_meta(struct loader *ld, const struct ynode *n, const char *key,
    const struct scope *sc)
{
	const struct ynode	*v = ynode_get(n, key);
	struct task		*t;
	size_t			 k;

	if (v->type == YNODE_SCALAR && strcmp(v->value, "flush_handlers") ==
	    0 && !sc->handlers) {
		check_keys(ld, n, (const char *const[]){ "name", NULL }, key,
		    "meta");
		tree_add_meta(ld, sc, TASK_FLUSH_HANDLERS, &n->pos);
		return;
	}
	for (k = 0; v->type == YNODE_SCALAR && meta_names[k] != NULL; k++) {
		if (strcmp(v->value, meta_names[k]) == 0)
			break;
	}
	if (v->type != YNODE_SCALAR || meta_names[k] == NULL ||
	    sc->handlers) {
		diag_add(ld->d, &v->pos, "meta: '%s' is not supported (only "
		    "flush_handlers, noop, end_play, end_batch, end_host and "
		    "clear_facts, in tasks)", v->type == YNODE_SCALAR ?
		    v->value : ynode_type_name(v));
		return;
	}
	check_keys(ld, n, (const char *const[]){ "name", "when", "tags",
	    NULL }, key, "meta");
	t = new_task(ld, sc);
	t->kind = TASK_META;
	t->meta = (enum meta_kind)k;
	t->pos = n->pos;
	get_string(ld, ynode_get(n, "name"), "name", &t->name);
	if (t->name == NULL)
		t->name = xstrdup(key);
	if ((t->when = get_when(ld, ynode_get(n, "when"))) != NULL)
		t->when_pos = ynode_get(n, "when")->pos;
	get_tags(ld, ynode_get(n, "tags"), &t->tags, &t->ntags);
	inherit(sc, t);
}

void
tree_load_list(struct loader *ld, const struct ynode *n,
    const struct scope *sc, const char *what)
{
	const struct ynode	*item;
	const char		*key;
	struct task		*t;
	size_t			 i, at;

	if (n->type != YNODE_SEQ) {
		type_error(ld, n, what, "a list");
		return;
	}
	for (i = 0; i < n->n; i++) {
		item = n->items[i];
		if (is_block(item))
			load_block(ld, item, sc);
		else if ((key = keyword(item, "import_tasks", &at)) != NULL)
			load_import_tasks(ld, item, key, sc);
		else if ((key = keyword(item, "import_role", &at)) != NULL)
			role_load_import(ld, item, key, sc);
		else if ((key = keyword(item, "include_tasks", &at)) != NULL ||
		    (key = keyword(item, "include_role", &at)) != NULL)
			load_include(ld, item, key, sc);
		else if ((key = keyword(item, "include", &at)) != NULL)
			load_bare_include(ld, item, key, sc);
		else if ((key = keyword(item, "import_playbook", &at)) != NULL)
			diag_add(ld->d, &item->keys[at]->pos, "'%s' is not "
			    "supported among tasks (only as a play)", key);
		else if ((key = keyword(item, "meta", &at)) != NULL)
			load_meta(ld, item, key, sc);
		else {
			t = new_task(ld, sc);
			load_task(ld, item, t);
			inherit(sc, t);
		}
	}
}

int
handler_answers(const struct task *hd, const char *name)
{
	size_t n;

	if (has_name(hd->listen, hd->nlisten, name))
		return 1;
	if (hd->name == NULL)
		return 0;
	if (strcmp(hd->name, name) == 0)
		return 1;
	/* a role's handler answers to its own name too */
	n = hd->role != NULL ? strlen(hd->role->name) : 0;
	return n > 0 && strncmp(hd->name, hd->role->name, n) == 0 &&
	    strncmp(hd->name + n, " : ", 3) == 0 &&
	    strcmp(hd->name + n + 3, name) == 0;
}

/* A notify must name a handler or a topic one listens to. */
static void
check_notify(struct loader *ld, const struct task *t)
{
	const struct play	*p = ld->play;
	size_t			 i, j;

	for (i = 0; i < t->nnotify; i++) {
		for (j = 0; j < p->nhandlers; j++) {
			if (handler_answers(&p->handlers[j], t->notify[i]))
				break;
		}
		if (j == p->nhandlers)
			diag_add(ld->d, &t->pos, "notify names no handler: "
			    "'%s' is neither a handler's name nor a topic "
			    "one listens to", t->notify[i]);
	}
}

static void
load_section(struct loader *ld, const struct ynode *n, const char *key,
    const struct scope *sc)
{
	const struct ynode *v = ynode_get(n, key);

	if (v != NULL && !ynode_is_null(v))
		tree_load_list(ld, v, sc, key);
}

/* A play without handlers has nothing to flush: its implicit flushes go,
 * so that its tree is just its tasks. Every block's range is moved to
 * the kept tasks' new indexes. */
static void
drop_implicit_flushes(struct play *p)
{
	size_t	*to = xcalloc(p->ntasks + 1, sizeof *to), i, n = 0;
	int	 part;

	for (i = 0; i < p->ntasks; i++) {
		to[i] = n;
		if (p->tasks[i].kind == TASK_FLUSH_HANDLERS &&
		    p->tasks[i].parent == p->blocks[0] &&
		    p->tasks[i].implicit)
			task_clear(&p->tasks[i]);
		else
			p->tasks[n++] = p->tasks[i];
	}
	to[p->ntasks] = n;
	for (i = 0; i < p->nblocks; i++) {
		for (part = 0; part < NPARTS; part++) {
			p->blocks[i]->first[part] = to[p->blocks[i]->first[part]];
			p->blocks[i]->end[part] = to[p->blocks[i]->end[part]];
		}
	}
	p->ntasks = n;
	free(to);
}

void
tree_load_play(struct loader *ld, const struct ynode *n)
{
	struct play		*p = ld->play;
	const struct ynode	*roles;
	struct scope		 sc;
	struct block		*root;
	size_t			 i;
	int			 part;

	memset(&sc, 0, sizeof sc);
	sc.ignore_errors = -1;
	sc.become = -1;
	sc.dir = dir_of(ld->file);
	root = tree_open(ld, &sc, &n->pos, "play");
	sc.block = root;
	sc.part = PART_BLOCK;
	/* Play.compile(): pre_tasks, flush, roles, tasks, flush,
	 * post_tasks, flush */
	load_section(ld, n, "pre_tasks", &sc);
	implicit_flush(ld, &sc, &n->pos);
	if ((roles = ynode_get(n, "roles")) != NULL && !ynode_is_null(roles)) {
		if (roles->type != YNODE_SEQ)
			type_error(ld, roles, "roles", "a list");
		for (i = 0; roles->type == YNODE_SEQ && i < roles->n; i++)
			role_load_entry(ld, roles->items[i], &sc);
	}
	load_section(ld, n, "tasks", &sc);
	implicit_flush(ld, &sc, &n->pos);
	load_section(ld, n, "post_tasks", &sc);
	implicit_flush(ld, &sc, &n->pos);
	for (part = 0; part < NPARTS; part++) {
		root->first[part] = part == PART_BLOCK ? 0 : p->ntasks;
		root->end[part] = p->ntasks;
	}
	/* roles' handlers came with the roles; the play's come after */
	sc.handlers = 1;
	load_section(ld, n, "handlers", &sc);
	if (p->nhandlers == 0)
		drop_implicit_flushes(p);
	for (i = 0; i < p->ntasks; i++)
		check_notify(ld, &p->tasks[i]);
	for (i = 0; i < p->nhandlers; i++)
		check_notify(ld, &p->handlers[i]);
	free(sc.dir);
}

void
play_free_tree(struct play *p)
{
	size_t i;

	for (i = 0; i < p->ntasks; i++)
		task_clear(&p->tasks[i]);
	free(p->tasks);
	for (i = 0; i < p->nhandlers; i++)
		task_clear(&p->handlers[i]);
	free(p->handlers);
	for (i = 0; i < p->nblocks; i++) {
		free(p->blocks[i]->kind);
		free(p->blocks[i]);
	}
	free(p->blocks);
	for (i = 0; i < p->nroles; i++)
		role_free(p->roles[i]);
	free(p->roles);
	json_decref(p->role_defaults);
	json_decref(p->role_vars);
}

struct playbook *
playbook_load_include(const struct play *p, const struct task *inc,
    const char *file, const json_t *items, char **cause)
{
	struct playbook		*pb = xcalloc(1, sizeof *pb);
	struct play		*fp;
	struct diag		 d = DIAG_INIT;
	struct loader		 ld;
	struct scope		 sc, in;
	struct block		*root;
	const struct ynode	*node;
	struct strbuf		 sb;
	size_t			 i, n = items != NULL ? json_array_size(items) : 1;
	int			 part;

	if (inc->include_role)
		pb->path = xstrdup(inc->include_pbfile);
	else
		pb->path = file[0] == '/' ? xstrdup(file) : xprintf("%s/%s",
		    inc->include_dir, file);
	pb->plays = fp = xcalloc(1, sizeof *fp);
	pb->nplays = 1;
	fp->name = xstrdup(p->name);
	fp->hosts = xstrdup(p->hosts != NULL ? p->hosts : "");
	fp->vars = json_object();
	fp->max_fail_percentage = -1;
	fp->become = -1;
	memset(&ld, 0, sizeof ld);
	ld.pb = pb;
	ld.d = &d;
	ld.play = fp;
	ld.file = pb->path;
	memset(&sc, 0, sizeof sc);
	sc.ignore_errors = -1;
	/* the include's become (its own and its blocks') is its tasks' */
	sc.become = inc->become;
	sc.become_user = inc->become_user;
	sc.become_user_pos = inc->become_user_pos;
	sc.delegate_to = inc->delegate_to;
	sc.delegate_to_pos = inc->delegate_to_pos;
	sc.role = inc->role;
	sc.dir = inc->role != NULL ? xprintf("%s/tasks", inc->role->path) :
	    dir_of(pb->path);
	root = tree_open(&ld, &sc, &inc->pos, "include_tasks");
	sc.block = root;
	sc.part = PART_BLOCK;
	node = inc->include_role ? NULL : loader_read(&ld, pb->path,
	    &inc->pos);
	for (i = 0; (inc->include_role || (node != NULL &&
	    !ynode_is_null(node))) && i < n; i++) {
		/* each item's copy: the include's vars and the item */
		in = sc;
		in.vars = inc->vars != NULL ? json_deep_copy(inc->vars) :
		    json_object();
		if (items != NULL)
			loop_set_item(&inc->loop, in.vars, items, i);
		in.block = tree_open(&ld, &sc, &inc->pos, "include_tasks");
		if (inc->include_role)
			role_load_dynamic(&ld, file, inc->include_opts,
			    &inc->pos, &in);
		else
			tree_load_list(&ld, node, &in, "tasks");
		for (part = 0; part < NPARTS; part++) {
			if (part != PART_BLOCK)
				in.block->first[part] = fp->ntasks;
			in.block->end[part] = fp->ntasks;
		}
		json_decref(in.vars);
	}
	for (part = 0; part < NPARTS; part++) {
		root->first[part] = part == PART_BLOCK ? 0 : fp->ntasks;
		root->end[part] = fp->ntasks;
	}
	free(sc.dir);
	if (fp->nhandlers > 0)
		diag_add(&d, &inc->pos, "role '%s' has handlers: include_role "
		    "of a role with handlers is not supported (import_role or "
		    "roles: take them)", file);
	/* a notify names the play's handlers */
	if (fp->nhandlers == 0) {
		struct play *real = ld.play;

		real->handlers = p->handlers;
		real->nhandlers = p->nhandlers;
		for (i = 0; i < fp->ntasks; i++)
			check_notify(&ld, &fp->tasks[i]);
		real->handlers = NULL;
		real->nhandlers = 0;
	}
	if (diag_count(&d) == 0) {
		diag_clear(&d);
		return pb;
	}
	strbuf_init(&sb);
	for (i = 0; i < diag_count(&d); i++)
		strbuf_addf(&sb, "%s%s", i > 0 ? "; " : "", diag_get(&d, i));
	*cause = strbuf_detach(&sb, NULL);
	diag_clear(&d);
	playbook_free(pb);
	return NULL;
}
