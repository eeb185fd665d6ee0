#include "playbook/playbook.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "playbook/bind.h"
#include "playbook/loader.h"
#include "playbook/loop.h"
#include "remote/ansible-facts.h"
#include "base/strbuf.h"
#include "template/template.h"
#include "base/xalloc.h"
#include "base/util.h"
#include "playbook/gather-subset.h"

static const char *const play_keys[] = { "name", "hosts", "vars",
	"vars_files", "become", "become_user", "serial", "max_fail_percentage",
	"any_errors_fatal", "gather_facts", "tasks", "tags", "pre_tasks",
	"roles", "post_tasks", "handlers", "force_handlers", "vars_prompt",
	"gather_subset", NULL };
static const char *const task_keys[] = { "name", "when", "tags", "register",
	"ignore_errors", "check_mode", "diff", "vars", "notify", "listen",
	"loop", "loop_control", "changed_when", "failed_when", "until",
	"retries", "delay", "run_once", "no_log", "environment", "become",
	"become_user", "delegate_to", "delegate_facts", NULL };
static const char *const reserved_vars[] = { "facts", "groups",
	"inventory_hostname", "hostvars", "role_name", "role_path",
	"ansible_version", "ansible_facts", NULL };

size_t
count_words(const char *const *words)
{
	size_t n = 0;

	while (words[n] != NULL)
		n++;
	return n;
}

int
in_list(const char *word, const char *const *words)
{
	for (; *words != NULL; words++) {
		if (strcmp(word, *words) == 0)
			return 1;
	}
	return 0;
}

int
playbook_reserved_var(const char *name)
{
	return in_list(name, reserved_vars);
}


/* "string 'maybe'", "int '5'", "list" for messages. */
static char *
describe(const struct ynode *n)
{
	if (n == NULL)
		return xstrdup("null");
	if (n->type != YNODE_SCALAR)
		return xstrdup(ynode_type_name(n));
	if (ynode_is_null(n))
		return xstrdup("null");
	if (strcmp(ynode_type_name(n), "string") != 0)
		return xprintf("%s %s", ynode_type_name(n), n->value);
	return xprintf("string '%s'", n->value);
}

void
type_error(struct loader *ld, const struct ynode *n, const char *key,
    const char *expected)
{
	char *what = describe(n);

	diag_add(ld->d, &n->pos, "'%s' must be %s, got %s", key, expected,
	    what);
	free(what);
}

/* Keys of a mapping: duplicates, and unknown ones with a suggestion. The
 * caller handles keys that are not in known (modules) when other is set. */
static void
check_duplicates(struct loader *ld, const struct ynode *map, const char *what)
{
	size_t i;

	for (i = 0; i < map->n; i++) {
		if (ynode_key_repeated(map, i))
			diag_add(ld->d, &map->keys[i]->pos,
			    "duplicate %s key '%s'", what, ynode_key(map, i));
	}
}

int
get_bool(struct loader *ld, const struct ynode *n, const char *key, int *out)
{
	json_t *v;

	if (n == NULL)
		return 0;
	v = ynode_to_json(n);
	if (!json_is_boolean(v)) {
		type_error(ld, n, key, "a bool");
		json_decref(v);
		return -1;
	}
	*out = json_is_true(v);
	json_decref(v);
	return 0;
}

static void	check_templates(struct loader *, const struct ynode *);

/* gather_subset: a list of strings or one string of comma-separated ones
 * (the setup module's list type), checked now as setup would check it. */
static void
load_gather_subset(struct loader *ld, const struct ynode *n, struct play *p)
{
	json_t		*v, *item;
	const char	*s, *c;
	char		*cause = NULL;
	size_t		 i, len;

	p->gather_mask = GATHER_ALL;
	if (n == NULL || ynode_is_null(n))
		return;
	v = ynode_to_json(n);
	if (json_is_string(v)) {
		item = json_array();
		for (s = json_string_value(v); ; s = c + 1) {
			c = strchr(s, ',');
			len = c != NULL ? (size_t)(c - s) : strlen(s);
			s = str_trim(s, &len);
			json_array_append_new(item, json_stringn(s, len));
			if (c == NULL)
				break;
		}
		json_decref(v);
		v = item;
	}
	if (!json_is_array(v)) {
		type_error(ld, n, "gather_subset", "a list of subsets");
		json_decref(v);
		return;
	}
	json_array_foreach(v, i, item) {
		if (json_is_string(item) &&
		    template_has(json_string_value(item))) {
			diag_add(ld->d, &n->pos, "gather_subset: a template is "
			    "not supported here ('%s')",
			    json_string_value(item));
			json_decref(v);
			return;
		}
	}
	if (gather_subset_mask(v, &p->gather_mask, &cause) != 0) {
		diag_add(ld->d, &n->pos, "gather_subset: %s", cause);
		free(cause);
		json_decref(v);
		return;
	}
	p->gather_subset = v;
}

void
get_become(struct loader *ld, const struct ynode *n, int *become,
    char **user, struct ypos *user_pos)
{
	const struct ynode *u = ynode_get(n, "become_user");

	get_bool(ld, ynode_get(n, "become"), "become", become);
	if (u == NULL || ynode_is_null(u))
		return;
	if (get_string(ld, u, "become_user", user) == 0) {
		check_templates(ld, u);
		*user_pos = u->pos;
	}
}

void
get_delegate(struct loader *ld, const struct ynode *n, char **to,
    struct ypos *pos)
{
	const struct ynode	*v = ynode_get(n, "delegate_to");
	int			 facts = 0;

	/* delegate_facts: true would put the facts a task sets on the
	 * delegated host; tcptune keeps Ansible's default only */
	if (get_bool(ld, ynode_get(n, "delegate_facts"), "delegate_facts",
	    &facts) == 0 && facts)
		diag_add(ld->d, &ynode_get(n, "delegate_facts")->pos,
		    "'delegate_facts: true' is not supported (what a delegated "
		    "task sets is the original host's)");
	if (v == NULL || ynode_is_null(v))
		return;
	if (get_string(ld, v, "delegate_to", to) == 0) {
		check_templates(ld, v);
		*pos = v->pos;
	}
}

int
get_string(struct loader *ld, const struct ynode *n, const char *key,
    char **out)
{
	if (n == NULL || ynode_is_null(n))
		return 0;
	if (n->type != YNODE_SCALAR) {
		type_error(ld, n, key, "a string");
		return -1;
	}
	free(*out);
	*out = xstrdup(n->value);
	return 0;
}

/* Check template syntax in every string under n (keys too). */
static void
check_templates(struct loader *ld, const struct ynode *n)
{
	char	*cause = NULL;
	size_t	 i;

	if (n == NULL)
		return;
	if (n->type == YNODE_SCALAR) {
		if (template_has(n->value) &&
		    template_check(n->value, &cause) != 0) {
			diag_add(ld->d, &n->pos, "%s", cause);
			free(cause);
		}
		return;
	}
	for (i = 0; i < n->n; i++)
		check_templates(ld, n->items[i]);
}

static void
add_tag(char ***tags, size_t *ntags, const char *s, size_t len)
{
	while (len > 0 && isspace((unsigned char)*s)) {
		s++;
		len--;
	}
	while (len > 0 && isspace((unsigned char)s[len - 1]))
		len--;
	if (len == 0)
		return;
	*tags = xreallocarray(*tags, *ntags + 1, sizeof **tags);
	(*tags)[(*ntags)++] = xstrndup(s, len);
}

/* Split "a, b" on commas, as Ansible does for a tags string. */
static void
add_tags_csv(char ***tags, size_t *ntags, const char *s)
{
	const char *comma;

	while ((comma = strchr(s, ',')) != NULL) {
		add_tag(tags, ntags, s, (size_t)(comma - s));
		s = comma + 1;
	}
	add_tag(tags, ntags, s, strlen(s));
}

void
get_tags(struct loader *ld, const struct ynode *n, char ***tags,
    size_t *ntags)
{
	size_t i;

	if (n == NULL || ynode_is_null(n))
		return;
	if (n->type == YNODE_SCALAR) {
		add_tags_csv(tags, ntags, n->value);
		return;
	}
	if (n->type != YNODE_SEQ) {
		type_error(ld, n, "tags", "a string or a list of strings");
		return;
	}
	for (i = 0; i < n->n; i++) {
		if (n->items[i]->type != YNODE_SCALAR ||
		    ynode_is_null(n->items[i])) {
			type_error(ld, n->items[i], "tags",
			    "a string or a list of strings");
			continue;
		}
		add_tags_csv(tags, ntags, n->items[i]->value);
	}
}

void
free_tags(char **tags, size_t ntags)
{
	size_t i;

	for (i = 0; i < ntags; i++)
		free(tags[i]);
	free(tags);
}

/* `when`: a string, a list of strings ANDed, or a bool. */
char *
get_when(struct loader *ld, const struct ynode *n)
{
	struct strbuf	 sb;
	const struct ynode *item;
	char		*cause = NULL;
	size_t		 i;

	if (n == NULL || ynode_is_null(n))
		return NULL;
	if (n->type == YNODE_MAP) {
		type_error(ld, n, "when", "a string, a list of strings or a "
		    "bool");
		return NULL;
	}
	strbuf_init(&sb);
	for (i = 0; i < (n->type == YNODE_SEQ ? n->n : 1); i++) {
		item = n->type == YNODE_SEQ ? n->items[i] : n;
		if (item->type != YNODE_SCALAR || ynode_is_null(item)) {
			type_error(ld, item, "when", "a string, a list of "
			    "strings or a bool");
			continue;
		}
		if (template_check_when(item->value, &cause) != 0) {
			diag_add(ld->d, &item->pos, "%s", cause);
			free(cause);
			cause = NULL;
			continue;
		}
		if (n->type == YNODE_SEQ && n->n > 1)
			strbuf_addf(&sb, "%s(%s)", sb.len > 0 ? " and " : "",
			    item->value);
		else
			strbuf_addstr(&sb, item->value);
	}
	if (sb.len > 0)
		return strbuf_detach(&sb, NULL);
	strbuf_release(&sb);
	return NULL;
}

/* notify: a name or a list of names; listen the same. */
static void
get_names(struct loader *ld, const struct ynode *n, const char *key,
    char ***out, size_t *nout)
{
	size_t i;

	if (n == NULL || ynode_is_null(n))
		return;
	if (n->type == YNODE_SCALAR) {
		*out = xreallocarray(*out, *nout + 1, sizeof **out);
		(*out)[(*nout)++] = xstrdup(n->value);
		return;
	}
	if (n->type != YNODE_SEQ) {
		type_error(ld, n, key, "a string or a list of strings");
		return;
	}
	for (i = 0; i < n->n; i++) {
		if (n->items[i]->type != YNODE_SCALAR ||
		    ynode_is_null(n->items[i])) {
			type_error(ld, n->items[i], key, "a string or a list "
			    "of strings");
			continue;
		}
		*out = xreallocarray(*out, *nout + 1, sizeof **out);
		(*out)[(*nout)++] = xstrdup(n->items[i]->value);
	}
}

const char *
module_suggestion(const char *key)
{
	const char	*names[64];
	size_t		 n = 0;

	while (module_table[n] != NULL && n < 64) {
		names[n] = module_table[n]->name;
		n++;
	}
	return did_you_mean(key, names, n);
}

static char *
module_names(void)
{
	struct strbuf	sb;
	size_t		i;

	strbuf_init(&sb);
	for (i = 0; module_table[i] != NULL; i++)
		strbuf_addf(&sb, "%s%s", i > 0 ? ", " : "",
		    module_table[i]->name);
	return strbuf_detach(&sb, NULL);
}

/* The module a task's key names, by the parameters it gives (two modules
 * may answer to one name: module_find_task). */
static const struct module *
task_module(const char *key, const struct ynode *params)
{
	const struct module	 *m;
	const char		**given = NULL;
	size_t			  i, n = 0;

	if (params != NULL && params->type == YNODE_MAP) {
		given = xcalloc(params->n + 1, sizeof *given);
		for (i = 0; i < params->n; i++)
			given[n++] = ynode_key(params, i);
	}
	m = module_find_task(key, given, n);
	free(given);
	return m;
}

/* retries and delay: a whole number of 0 or more, not templated. */
static void
get_count(struct loader *ld, const struct ynode *n, const char *key, int *out)
{
	char		*end;
	long		 v;

	if (n == NULL || ynode_is_null(n))
		return;
	if (n->type == YNODE_SCALAR) {
		v = strtol(n->value, &end, 10);
		if (*n->value != '\0' && *end == '\0' && v >= 0 && v <= 100000) {
			*out = (int)v;
			return;
		}
	}
	type_error(ld, n, key, "a whole number from 0 to 100000 (not "
	    "templated)");
}

/* doc kept with the playbook (its nodes are the tasks'): its root. */
struct ynode *
keep_doc(struct loader *ld, struct ydoc *doc)
{
	ld->pb->docs = xreallocarray(ld->pb->docs, ld->pb->ndocs + 1,
	    sizeof *ld->pb->docs);
	ld->pb->docs[ld->pb->ndocs++] = doc;
	return ydoc_root(doc);
}

/* The free-form arguments text of local_action (s, the rest after the
 * module's name) as a node of its own, at the place it was written (v's
 * position, col columns in): a document whose one scalar is s, padded so
 * that its errors name the playbook's line and column. Kept with the
 * playbook's documents. NULL when there is nothing after the name. */
static const struct ynode *
local_action_args(struct loader *ld, const struct ynode *v, const char *s,
    size_t col)
{
	struct strbuf	 sb;
	struct ydoc	*doc;
	json_t		*str;
	char		*quoted, *cause = NULL;
	int		 i;

	while (*s == ' ')
		s++, col++;
	if (*s == '\0')
		return NULL;
	str = json_string(s);
	quoted = json_dumps(str, JSON_ENCODE_ANY);
	json_decref(str);
	strbuf_init(&sb);
	for (i = 1; i < v->pos.line; i++)
		strbuf_addstr(&sb, "\n");
	for (i = 1; i < v->pos.col + (int)col; i++)
		strbuf_addstr(&sb, " ");
	strbuf_addf(&sb, "%s\n", quoted);
	free(quoted);
	doc = ydoc_load_buffer(v->pos.file, sb.buf, sb.len, &cause);
	strbuf_release(&sb);
	if (doc == NULL) {
		diag_take(ld->d, cause);
		return NULL;
	}
	return keep_doc(ld, doc);
}

/* local_action: MODULE ARGS, Ansible's old form of a module call
 * delegated to localhost (parsing/mod_args.py): the module and its
 * free-form arguments; NULL when v names no module. */
static const struct module *
local_action(struct loader *ld, const struct ynode *v, struct task *t)
{
	const struct module	*m;
	size_t			 len;
	char			*word;

	if (v->type != YNODE_SCALAR || ynode_is_null(v)) {
		type_error(ld, v, "local_action", "a module and its arguments "
		    "('local_action: command echo hi'; the mapping form is not "
		    "supported)");
		return NULL;
	}
	len = strcspn(v->value, " ");
	word = xstrndup(v->value, len);
	if ((m = module_find_task(word, NULL, 0)) == NULL)
		diag_add(ld->d, &v->pos, "unknown module '%s' in local_action",
		    word);
	else {
		t->module = m;
		t->module_pos = v->pos;
		t->args_node = local_action_args(ld, v, v->value + len, len);
		free(t->delegate_to);
		t->delegate_to = xstrdup("localhost");
		t->delegate_to_pos = v->pos;
		if (t->name == NULL)
			t->name = xstrdup(word);
	}
	free(word);
	return m;
}

/* A task calling Ansible's module fq (taken), which tcptune lacks: it
 * loads, unchecked, and fails where it runs (modules/unimplemented.c);
 * the playbook's warnings say so at the module's key. */
static void
unimplemented_module(struct loader *ld, struct task *t,
    const struct ynode *keynode, char *fq)
{
	t->module = &mod_unimplemented;
	t->module_pos = keynode->pos;
	t->args = json_pack("{s:s}", "module", fq);
	if (ld->pb != NULL)
		diag_add(&ld->pb->warnings, &keynode->pos, "module '%s' is "
		    "not implemented by tcptune: the task fails on a host "
		    "where it runs (its parameters are not checked)", fq);
	free(fq);
}

void
load_task(struct loader *ld, const struct ynode *n, struct task *t)
{
	const struct ynode	*v;
	const struct module	*m;
	const char		*key, *sugg, *module_key = NULL;
	char			*names, *fq;
	size_t			 i;
	int			 has_module = 0, reported = 0;

	t->pos = n->pos;
	t->check_mode = -1;
	t->diff = -1;
	t->retries = t->delay = -1;
	/* unset: the blocks' (tree.c) */
	t->run_once = t->no_log = t->become = -1;
	if (n->type != YNODE_MAP) {
		diag_add(ld->d, &n->pos, "task must be a mapping, got %s",
		    ynode_type_name(n));
		return;
	}
	check_duplicates(ld, n, "task");
	/* before the module: local_action's localhost wins, as Ansible's */
	get_delegate(ld, n, &t->delegate_to, &t->delegate_to_pos);
	for (i = 0; i < n->n; i++) {
		if (module_find(ynode_key(n, i)) != NULL)
			has_module = 1;
	}
	for (i = 0; !has_module && i < n->n; i++) {
		if (!in_list(ynode_key(n, i), task_keys) &&
		    (fq = module_unimplemented_fqcn(ynode_key(n, i))) != NULL) {
			has_module = 1;
			free(fq);
		}
	}
	for (i = 0; i < n->n; i++) {
		key = ynode_key(n, i);
		if (in_list(key, task_keys) || loop_is_keyword(key))
			continue;
		if (strcmp(key, "local_action") == 0) {
			reported = local_action(ld, n->items[i], t) == NULL;
			continue;
		}
		if ((m = task_module(key, n->items[i])) != NULL) {
			if (t->module != NULL && t->module != m) {
				diag_add(ld->d, &n->keys[i]->pos, "task has "
				    "more than one module: '%s' and '%s'",
				    t->module->name, key);
				reported = 1;
				continue;
			}
			t->module = m;
			module_key = key;
			t->module_pos = n->keys[i]->pos;
			t->args_node = n->items[i];
			continue;
		}
		if (t->module == NULL &&
		    (fq = module_unimplemented_fqcn(key)) != NULL) {
			unimplemented_module(ld, t, n->keys[i], fq);
			module_key = key;
			continue;
		}
		reported = 1;
		if ((sugg = did_you_mean(key, task_keys, count_words(task_keys))) !=
		    NULL)
			diag_add(ld->d, &n->keys[i]->pos, "unknown task key "
			    "'%s' (did you mean '%s'?)", key, sugg);
		else if ((sugg = module_suggestion(key)) != NULL)
			diag_add(ld->d, &n->keys[i]->pos, "unknown module '%s' "
			    "(did you mean '%s'?)", key, sugg);
		else if (has_module)
			diag_add(ld->d, &n->keys[i]->pos, "unknown task key "
			    "'%s'", key);
		else
			diag_add(ld->d, &n->keys[i]->pos, "unknown module "
			    "'%s'", key);
	}
	if (t->module == NULL && !reported) {
		names = module_names();
		diag_add(ld->d, &n->pos, "task has no module (one of %s)",
		    names);
		free(names);
	}
	/* parameters first, so that errors come in file order */
	if (t->module != NULL && t->module != &mod_unimplemented)
		bind_task_params(t->module, &t->module_pos, t->args_node,
		    &t->args, ld->d);
	get_string(ld, ynode_get(n, "name"), "name", &t->name);
	check_templates(ld, ynode_get(n, "name"));
	if ((t->when = get_when(ld, ynode_get(n, "when"))) != NULL)
		t->when_pos = ynode_get(n, "when")->pos;
	if ((t->changed_when = get_when(ld, ynode_get(n, "changed_when"))) !=
	    NULL)
		t->changed_when_pos = ynode_get(n, "changed_when")->pos;
	if ((t->failed_when = get_when(ld, ynode_get(n, "failed_when"))) !=
	    NULL)
		t->failed_when_pos = ynode_get(n, "failed_when")->pos;
	if ((t->until = get_when(ld, ynode_get(n, "until"))) != NULL)
		t->until_pos = ynode_get(n, "until")->pos;
	get_count(ld, ynode_get(n, "retries"), "retries", &t->retries);
	get_count(ld, ynode_get(n, "delay"), "delay", &t->delay);
	get_tags(ld, ynode_get(n, "tags"), &t->tags, &t->ntags);
	if (get_string(ld, ynode_get(n, "register"), "register",
	    &t->register_as) == 0 && t->register_as != NULL &&
	    (!str_is_identifier(t->register_as) ||
	    playbook_reserved_var(t->register_as))) {
		diag_add(ld->d, &ynode_get(n, "register")->pos, "invalid "
		    "register name '%s'", t->register_as);
	}
	if ((v = ynode_get(n, "ignore_errors")) != NULL &&
	    v->type == YNODE_SCALAR && template_has(v->value)) {
		/* a template (kubespray's "{{ ansible_check_mode }}"):
		 * each host's, when its task fails */
		check_templates(ld, v);
		t->ignore_errors_tmpl = xstrdup(v->value);
	} else
		get_bool(ld, v, "ignore_errors", &t->ignore_errors);
	get_bool(ld, ynode_get(n, "run_once"), "run_once", &t->run_once);
	get_bool(ld, ynode_get(n, "no_log"), "no_log", &t->no_log);
	get_become(ld, n, &t->become, &t->become_user, &t->become_user_pos);
	if ((v = ynode_get(n, "environment")) != NULL && !ynode_is_null(v)) {
		if (v->type == YNODE_SEQ)
			type_error(ld, v, "environment", "a mapping of "
			    "variables");
		else {
			check_templates(ld, v);
			t->environment = ynode_to_json(v);
			t->environment_pos = v->pos;
		}
	}
	get_bool(ld, ynode_get(n, "check_mode"), "check_mode", &t->check_mode);
	get_bool(ld, ynode_get(n, "diff"), "diff", &t->diff);
	if (ynode_get(n, "vars") != NULL && !ynode_is_null(ynode_get(n,
	    "vars"))) {
		t->vars = json_object();
		load_vars_into(ld, ynode_get(n, "vars"), t->vars);
	}
	loop_load(&t->loop, n, ld->d);
	if (t->module != NULL)
		t->loop.subdir = t->module->search_subdir;
	check_templates(ld, ynode_get(n, "loop"));
	get_names(ld, ynode_get(n, "notify"), "notify", &t->notify,
	    &t->nnotify);
	get_names(ld, ynode_get(n, "listen"), "listen", &t->listen,
	    &t->nlisten);
	/* As ansible-playbook: the module as the task wrote it. */
	if (t->module != NULL && t->name == NULL)
		t->name = xstrdup(module_key);
}

static char *
vars_file_path(const char *playbook, const char *file)
{
	const char *slash;

	if (file[0] == '/' || (slash = strrchr(playbook, '/')) == NULL)
		return xstrdup(file);
	return xprintf("%.*s/%s", (int)(slash - playbook), playbook, file);
}

void
load_vars_into(struct loader *ld, const struct ynode *n, json_t *into)
{
	json_t	*v;
	size_t	 i;

	if (n == NULL || ynode_is_null(n))
		return;
	if (n->type != YNODE_MAP) {
		type_error(ld, n, "vars", "a mapping");
		return;
	}
	check_duplicates(ld, n, "vars");
	for (i = 0; i < n->n; i++) {
		if (!str_is_identifier(ynode_key(n, i)))
			diag_add(ld->d, &n->keys[i]->pos, "invalid variable "
			    "name '%s'", ynode_key(n, i));
		else if (playbook_reserved_var(ynode_key(n, i)))
			diag_add(ld->d, &n->keys[i]->pos, "'%s' is a reserved "
			    "variable name", ynode_key(n, i));
	}
	check_templates(ld, n);
	v = ynode_to_json(n);
	json_object_update(into, v);
	json_decref(v);
}

static void
load_vars_file(struct loader *ld, const struct ynode *item, struct play *p)
{
	struct ydoc	*doc;
	struct ynode	*root;
	char		*path, *cause = NULL;

	if (item->type != YNODE_SCALAR || ynode_is_null(item)) {
		type_error(ld, item, "vars_files", "a list of paths");
		return;
	}
	if (template_has(item->value)) {
		diag_add(ld->d, &item->pos, "templated vars_files paths are "
		    "not supported");
		return;
	}
	path = vars_file_path(ld->file, item->value);
	if (access(path, R_OK) != 0) {
		diag_add(ld->d, &item->pos, "cannot read vars file '%s': %s",
		    path, strerror(errno));
		free(path);
		return;
	}
	if ((doc = ydoc_load_file(path, &cause)) == NULL) {
		diag_take(ld->d, cause);
		free(path);
		return;
	}
	root = ydoc_root(doc);
	if (root != NULL && root->type != YNODE_MAP)
		diag_add(ld->d, &root->pos, "vars file must be a mapping, got "
		    "%s", ynode_type_name(root));
	else if (root != NULL)
		load_vars_into(ld, root, p->vars);
	ydoc_free(doc);
	free(path);
}

struct ynode *
loader_read(struct loader *ld, const char *path, const struct ypos *at)
{
	struct ydoc	*doc;
	char		*cause = NULL;

	if (access(path, R_OK) != 0) {
		diag_add(ld->d, at, "cannot read '%s': %s", path,
		    strerror(errno));
		return NULL;
	}
	if ((doc = ydoc_load_file(path, &cause)) == NULL) {
		diag_take(ld->d, cause);
		return NULL;
	}
	return keep_doc(ld, doc);
}

static void
load_play(struct loader *ld, const struct ynode *n, struct play *p)
{
	const struct ynode	*v;
	const char		*key, *sugg;
	char			*cause = NULL;
	json_t			*j;
	size_t			 i;

	p->pos = n->pos;
	p->hosts_node = ynode_get(n, "hosts");
	p->become = -1;
	p->max_fail_percentage = -1;
	p->gather_facts = 1;
	p->vars = json_object();
	p->name = xstrdup("");
	if (n->type != YNODE_MAP) {
		diag_add(ld->d, &n->pos, "play must be a mapping, got %s",
		    ynode_type_name(n));
		return;
	}
	check_duplicates(ld, n, "play");
	for (i = 0; i < n->n; i++) {
		key = ynode_key(n, i);
		if (in_list(key, play_keys))
			continue;
		if ((sugg = did_you_mean(key, play_keys, count_words(play_keys))) !=
		    NULL)
			diag_add(ld->d, &n->keys[i]->pos, "unknown play key "
			    "'%s' (did you mean '%s'?)", key, sugg);
		else
			diag_add(ld->d, &n->keys[i]->pos, "unknown play key "
			    "'%s'", key);
	}
	get_string(ld, ynode_get(n, "name"), "name", &p->name);
	prompts_load(ld, ynode_get(n, "vars_prompt"), p);

	v = ynode_get(n, "hosts");
	if (v == NULL) {
		/* unless a typo of it was already reported */
		for (i = 0; i < n->n; i++) {
			key = ynode_key(n, i);
			sugg = did_you_mean(key, play_keys, count_words(play_keys));
			if (!in_list(key, play_keys) && sugg != NULL &&
			    strcmp(sugg, "hosts") == 0)
				break;
		}
		if (i == n->n)
			diag_add(ld->d, &n->pos, "play is missing required "
			    "key 'hosts'");
	} else if (v->type == YNODE_SEQ) {
		struct strbuf sb;

		strbuf_init(&sb);
		for (i = 0; i < v->n; i++) {
			if (v->items[i]->type != YNODE_SCALAR) {
				type_error(ld, v->items[i], "hosts",
				    "a pattern or a list of patterns");
				continue;
			}
			strbuf_addf(&sb, "%s%s", i > 0 ? "," : "",
			    v->items[i]->value);
		}
		p->hosts = strbuf_detach(&sb, NULL);
	} else if (v->type != YNODE_SCALAR || ynode_is_null(v))
		type_error(ld, v, "hosts", "a pattern or a list of patterns");
	else
		p->hosts = xstrdup(v->value);
	if (p->hosts != NULL && *p->hosts == '\0')
		diag_add(ld->d, &v->pos, "'hosts' must not be empty");

	load_vars_into(ld, ynode_get(n, "vars"), p->vars);
	if ((v = ynode_get(n, "vars_files")) != NULL && !ynode_is_null(v)) {
		if (v->type == YNODE_SEQ) {
			for (i = 0; i < v->n; i++)
				load_vars_file(ld, v->items[i], p);
		} else if (v->type == YNODE_SCALAR)
			load_vars_file(ld, v, p);
		else
			type_error(ld, v, "vars_files", "a list of paths");
	}
	get_become(ld, n, &p->become, &p->become_user, &p->become_user_pos);
	get_bool(ld, ynode_get(n, "any_errors_fatal"), "any_errors_fatal",
	    &p->any_errors_fatal);
	get_bool(ld, ynode_get(n, "gather_facts"), "gather_facts",
	    &p->gather_facts);
	load_gather_subset(ld, ynode_get(n, "gather_subset"), p);
	if (get_bool(ld, ynode_get(n, "force_handlers"), "force_handlers",
	    &p->force_handlers) == 0 && p->force_handlers)
		diag_add(ld->d, &ynode_get(n, "force_handlers")->pos,
		    "'force_handlers: true' is not supported yet (handlers "
		    "run only on hosts that have not failed)");

	if ((v = ynode_get(n, "serial")) != NULL) {
		j = ynode_to_json(v);
		if (serial_parse(j, &p->serial, &cause) != 0) {
			diag_add(ld->d, &v->pos, "%s", cause);
			free(cause);
			cause = NULL;
		}
		json_decref(j);
	}
	if ((v = ynode_get(n, "max_fail_percentage")) != NULL &&
	    !ynode_is_null(v)) {
		long	 pct = -1;
		char	*end;

		j = ynode_to_json(v);
		if (json_is_integer(j))
			pct = (long)json_integer_value(j);
		else if (json_is_string(j)) {
			pct = strtol(json_string_value(j), &end, 10);
			if (end == json_string_value(j) || strcmp(end, "%") != 0)
				pct = -1;
		}
		if (pct < 0 || pct > 100)
			type_error(ld, v, "max_fail_percentage",
			    "a percentage from 0 to 100");
		else
			p->max_fail_percentage = (int)pct;
		json_decref(j);
	}
	get_tags(ld, ynode_get(n, "tags"), &p->tags, &p->ntags);

	ld->play = p;
	tree_load_play(ld, n);
	ld->play = NULL;
}

static void	load_plays(struct loader *, const struct ynode *, char **,
		    size_t);

/* import_playbook: the plays of another playbook, read now, in place;
 * its tags on each of them. */
static void
load_import_playbook(struct loader *ld, const struct ynode *n,
    const char *key, char **tags, size_t ntags)
{
	const struct ynode	*file = ynode_get(n, key), *root;
	const char		*saved = ld->file;
	char			*path, **more = NULL;
	size_t			 i, nmore = 0;

	for (i = 0; i < n->n; i++) {
		const char *k = ynode_key(n, i);

		if (strcmp(k, key) != 0 && strcmp(k, "name") != 0 &&
		    strcmp(k, "tags") != 0)
			diag_add(ld->d, &n->keys[i]->pos, "'%s' is not "
			    "supported on import_playbook", k);
	}
	if (file->type != YNODE_SCALAR || ynode_is_null(file) ||
	    template_has(file->value)) {
		type_error(ld, file, key, "a file name (not templated)");
		return;
	}
	if (ld->depth >= LOADER_MAX_DEPTH) {
		diag_add(ld->d, &file->pos, "import_playbook nested more than "
		    "%d deep", LOADER_MAX_DEPTH);
		return;
	}
	path = vars_file_path(ld->file, file->value);
	if ((root = loader_read(ld, path, &file->pos)) == NULL) {
		free(path);
		return;
	}
	if (ynode_is_null(root) || root->type != YNODE_SEQ) {
		diag_add(ld->d, &root->pos, "playbook must be a list of plays");
		free(path);
		return;
	}
	for (i = 0; i < ntags; i++) {
		more = xreallocarray(more, nmore + 1, sizeof *more);
		more[nmore++] = xstrdup(tags[i]);
	}
	get_tags(ld, ynode_get(n, "tags"), &more, &nmore);
	/* the imported playbook's own paths are relative to it; its file
	 * name lives in the kept document */
	ld->file = ydoc_file(ld->pb->docs[ld->pb->ndocs - 1]);
	ld->depth++;
	load_plays(ld, root, more, nmore);
	ld->depth--;
	ld->file = saved;
	free_tags(more, nmore);
	free(path);
}

/* The plays of list root, and those import_playbook brings, each with
 * tags[0..ntags) added. */
static void
load_plays(struct loader *ld, const struct ynode *root, char **tags,
    size_t ntags)
{
	struct playbook	*pb = ld->pb;
	const char	*key;
	struct play	*p;
	size_t		 i, j;

	for (i = 0; i < root->n; i++) {
		const struct ynode *n = root->items[i];

		key = NULL;
		for (j = 0; n->type == YNODE_MAP && j < n->n; j++) {
			if (strcmp(ynode_key(n, j), "import_playbook") == 0 ||
			    strcmp(ynode_key(n, j),
			    "ansible.builtin.import_playbook") == 0)
				key = ynode_key(n, j);
		}
		if (key != NULL) {
			load_import_playbook(ld, n, key, tags, ntags);
			continue;
		}
		pb->plays = xreallocarray(pb->plays, pb->nplays + 1,
		    sizeof *pb->plays);
		p = &pb->plays[pb->nplays++];
		memset(p, 0, sizeof *p);
		load_play(ld, n, p);
		for (j = 0; j < ntags; j++) {
			p->tags = xreallocarray(p->tags, p->ntags + 1,
			    sizeof *p->tags);
			p->tags[p->ntags++] = xstrdup(tags[j]);
		}
	}
}

/* Load the plays of a playbook whose document is in pb->doc. */
static int
load_doc(struct playbook *pb, struct diag *d)
{
	struct loader	 ld = { pb, d, NULL, pb->path, 0 };
	struct ynode	*root;
	struct ypos	 top;
	size_t		 before = diag_count(d), i;

	top.file = ydoc_file(pb->doc);
	top.line = 1;
	top.col = 1;
	if ((root = ydoc_root(pb->doc)) == NULL || ynode_is_null(root))
		return diag_add(d, &top, "playbook is empty");
	if (root->type != YNODE_SEQ)
		return diag_add(d, &root->pos, "playbook must be a list of "
		    "plays, got %s", ynode_type_name(root));
	if (root->n == 0)
		return diag_add(d, &root->pos, "playbook has no plays");
	(void)i;
	load_plays(&ld, root, NULL, 0);
	return diag_count(d) != before ? -1 : 0;
}

static int
load_playbook(const char *path, const char *buf, size_t len,
    struct playbook **out, struct diag *d)
{
	struct playbook	*pb = xcalloc(1, sizeof *pb);
	char		*cause = NULL;

	*out = NULL;
	pb->path = xstrdup(path);
	pb->doc = buf != NULL ? ydoc_load_buffer(path, buf, len, &cause) :
	    ydoc_load_file(path, &cause);
	if (pb->doc == NULL) {
		diag_take(d, cause);
		playbook_free(pb);
		return -1;
	}
	if (load_doc(pb, d) != 0) {
		playbook_free(pb);
		return -1;
	}
	*out = pb;
	return 0;
}

int
playbook_load(const char *path, struct playbook **out, struct diag *d)
{
	return load_playbook(path, NULL, 0, out, d);
}

int
playbook_load_buffer(const char *name, const char *buf, size_t len,
    struct playbook **out, struct diag *d)
{
	return load_playbook(name, buf, len, out, d);
}

void
task_clear(struct task *t)
{
	free(t->name);
	free(t->ignore_errors_tmpl);
	json_decref(t->args);
	free(t->when);
	free_tags(t->tags, t->ntags);
	free(t->register_as);
	free(t->changed_when);
	free(t->until);
	json_decref(t->environment);
	free(t->become_user);
	free(t->delegate_to);
	free(t->failed_when);
	json_decref(t->vars);
	loop_clear(&t->loop);
	free_tags(t->notify, t->nnotify);
	free_tags(t->listen, t->nlisten);
	free(t->include);
	free(t->include_dir);
	json_decref(t->include_opts);
	free(t->include_pbfile);
}

void
playbook_free(struct playbook *pb)
{
	struct play	*p;
	size_t		 i;

	if (pb == NULL)
		return;
	diag_clear(&pb->warnings);
	for (i = 0; i < pb->nplays; i++) {
		p = &pb->plays[i];
		free(p->name);
		free(p->hosts);
		free(p->become_user);
		json_decref(p->vars);
		json_decref(p->gather_subset);
		serial_free(&p->serial);
		free_tags(p->tags, p->ntags);
		play_free_tree(p);
		prompts_free(p);
	}
	free(pb->plays);
	for (i = 0; i < pb->ndocs; i++)
		ydoc_free(pb->docs[i]);
	free(pb->docs);
	ydoc_free(pb->doc);
	free(pb->path);
	free(pb);
}

json_t *
playbook_play_vars(const struct play *p)
{
	return p->vars != NULL ? json_deep_copy(p->vars) : json_object();
}

void
vars_merge(json_t *into, const json_t *from)
{
	json_t *copy;

	if (!json_is_object(from))
		return;
	copy = json_deep_copy(from);
	json_object_update(into, copy);
	json_decref(copy);
}

/* Ansible's magic variable: the release tcptune follows. */
static json_t *
ansible_version(void)
{
	char	*full = xprintf("%d.%d.%d", PLAYBOOK_ANSIBLE_MAJOR,
		    PLAYBOOK_ANSIBLE_MINOR, PLAYBOOK_ANSIBLE_REVISION);
	json_t	*v = json_pack("{s:s, s:i, s:i, s:i, s:s}", "full", full,
		    "major", PLAYBOOK_ANSIBLE_MAJOR, "minor",
		    PLAYBOOK_ANSIBLE_MINOR, "revision",
		    PLAYBOOK_ANSIBLE_REVISION, "string", full);

	free(full);
	return v;
}

json_t *
playbook_task_vars(const struct play *p, const struct task *t,
    const json_t *inventory_vars, const json_t *registered,
    const json_t *extra_vars, const json_t *facts,
    const char *inventory_hostname, const json_t *groups)
{
	const struct role	*role = t != NULL ? t->role : NULL;
	json_t			*v = json_object(), *ansible, *fact;
	const char		*key;

	vars_merge(v, p->role_defaults);
	if (role != NULL)
		vars_merge(v, role->all_defaults);
	vars_merge(v, inventory_vars);
	/* Ansible's gathered facts: over the inventory, under the play */
	ansible = probe_ansible_facts(facts);
	if (facts != NULL) {
		json_object_foreach(ansible, key, fact) {
			char *name = ansible_fact_var(key);

			json_object_set(v, name, fact);
			free(name);
		}
	}
	vars_merge(v, p->vars);
	vars_merge(v, p->role_vars);
	if (role != NULL)
		vars_merge(v, role->all_vars);
	if (t != NULL)
		vars_merge(v, t->vars);
	vars_merge(v, registered);
	if (role != NULL)
		vars_merge(v, role->all_params);
	vars_merge(v, extra_vars);
	/* registered results, set_fact's and facts are data: never templated
	 * again when read (template.h), as Ansible's unsafe values; a name
	 * a later level set again is that level's (a -e value is templated) */
	json_object_foreach((json_t *)registered, key, fact) {
		if (json_object_get(extra_vars, key) == NULL &&
		    (role == NULL || json_object_get(role->all_params, key) ==
		    NULL))
			template_mark_unsafe(v, key);
	}
	if (facts != NULL) {
		json_object_foreach(ansible, key, fact) {
			char *name = ansible_fact_var(key);

			template_mark_unsafe(v, name);
			free(name);
		}
	}
	template_mark_unsafe(v, "facts");
	template_mark_unsafe(v, "ansible_facts");
	template_mark_unsafe(v, "hostvars");
	template_mark_unsafe(v, "groups");
	json_object_set_new(v, "facts", facts != NULL ?
	    json_deep_copy(facts) : json_object());
	json_object_set_new(v, "ansible_facts", ansible);
	if (inventory_hostname != NULL)
		json_object_set_new(v, "inventory_hostname",
		    json_string(inventory_hostname));
	json_object_set_new(v, "ansible_version", ansible_version());
	if (role != NULL) {
		json_object_set_new(v, "role_name", json_string(role->name));
		json_object_set_new(v, "role_path", json_string(role->path));
	}
	/* Shared, not copied: it names every host of the inventory, and a
	 * copy per host and step made a run's time and memory grow with the
	 * square of the fleet. Templates only read it (as `hostvars`). */
	json_object_set_new(v, "groups", groups != NULL ?
	    json_incref((json_t *)groups) : json_object());
	return v;
}

json_t *
playbook_host_vars(const struct play *p, const json_t *inventory_vars,
    const json_t *registered, const json_t *extra_vars, const json_t *facts,
    const char *inventory_hostname, const json_t *groups)
{
	return playbook_task_vars(p, NULL, inventory_vars, registered,
	    extra_vars, facts, inventory_hostname, groups);
}

int
task_ignores_errors(const struct task *t, const json_t *vars)
{
	json_t	*v;
	char	*cause = NULL;
	int	 b = 0;

	if (t->ignore_errors > 0 || t->ignore_errors_tmpl == NULL)
		return t->ignore_errors > 0;
	v = template_render_string(t->ignore_errors_tmpl, vars, NULL, &cause);
	free(cause);
	if (v != NULL && !ansible_bool_value(v, &b))
		b = 0;
	json_decref(v);
	return b;
}

int
task_until_attempts(const struct task *t)
{
	if (t->until == NULL || t->retries == 0)
		return 1;
	return t->retries < 0 ? 4 : t->retries + 1;
}

/* The rest parameter's mapping (set_fact's facts) rendered, its names
 * too, each then a variable name, as Ansible's set_fact renders and
 * checks them. */
static json_t *
render_rest(const struct module *m, const json_t *val, const json_t *vars,
    const struct ypos *at, char **cause)
{
	const char	*key;
	json_t		*out = json_object(), *v, *r, *k;

	json_object_foreach((json_t *)val, key, v) {
		k = template_has(key) ? template_render_string(key, vars, at,
		    cause) : json_string(key);
		if (k == NULL)
			goto bad;
		if (!json_is_string(k) ||
		    !str_is_identifier(json_string_value(k))) {
			ypos_fail(cause, at, "invalid variable name '%s' for "
			    "module '%s' (from '%s')", json_is_string(k) ?
			    json_string_value(k) : "(not a string)", m->name,
			    key);
			json_decref(k);
			goto bad;
		}
		if ((r = template_render(v, vars, at, cause)) == NULL) {
			json_decref(k);
			goto bad;
		}
		json_object_set_new(out, json_string_value(k), r);
		json_decref(k);
	}
	return out;
bad:
	json_decref(out);
	return NULL;
}

json_t *
task_render_args(const struct task *t, const json_t *vars, uint64_t *given,
    char **cause)
{
	const struct ynode	*node;
	const struct ypos	*at;
	const struct module_param *param;
	const char		*key;
	json_t			*rendered, *val, *r, *args = NULL;

	if (t->module == NULL || t->args == NULL) {
		ypos_fail(cause, &t->pos, "task has no bound module");
		return NULL;
	}
	rendered = json_object();
	json_object_foreach(t->args, key, val) {
		node = NULL;
		if (t->args_node != NULL && t->args_node->type == YNODE_MAP)
			node = ynode_get(t->args_node, key);
		else if (t->args_node != NULL &&
		    t->args_node->type == YNODE_SCALAR)
			node = t->args_node;	/* the free form */
		at = node != NULL ? &node->pos : &t->module_pos;
		param = module_find_param(t->module, key);
		if (param != NULL && param->host_line == HOSTLINE_SHELL &&
		    json_is_string(val))
			r = template_render_shell(json_string_value(val), vars,
			    at, cause);
		else if (t->module->rest != NULL && strcmp(key,
		    t->module->rest) == 0 && json_is_object(val))
			r = render_rest(t->module, val, vars, at, cause);
		else
			r = template_render(val, vars, at, cause);
		if (r == NULL)
			goto out;
		json_object_set_new(rendered, key, r);
	}
	bind_rendered_args(t->module, rendered, t->args_node, &t->module_pos,
	    &args, given, cause);
out:
	json_decref(rendered);
	return args;
}

/* Split a comma-separated selection into a NULL-terminated list. */
static char **
split_csv(const char *s, size_t *n)
{
	char **v = NULL;

	*n = 0;
	if (s != NULL)
		add_tags_csv(&v, n, s);
	v = xreallocarray(v, *n + 1, sizeof *v);
	v[*n] = NULL;
	return v;
}

static int
disjoint(char **a, char **b)
{
	size_t i;

	for (i = 0; a[i] != NULL; i++) {
		if (in_list(a[i], (const char *const *)b))
			return 0;
	}
	return 1;
}

int
task_selected(const struct play *p, const struct task *t, const char *tags,
    const char *skip_tags)
{
	char	**only, **skip, **mine;
	size_t	  nonly, nskip, nmine = 0, i;
	int	  run = 1, untagged;

	if (t->before_start)
		return 0;
	only = split_csv(tags != NULL && *tags != '\0' ? tags : "all", &nonly);
	skip = split_csv(skip_tags, &nskip);
	mine = xcalloc(t->ntags + p->ntags + 2, sizeof *mine);
	for (i = 0; i < t->ntags; i++)
		mine[nmine++] = t->tags[i];
	for (i = 0; i < p->ntags; i++)
		mine[nmine++] = p->tags[i];
	untagged = (nmine == 0);
	if (untagged)
		mine[nmine++] = (char *)"untagged";

	/* Ansible's Taggable.evaluate_tags() */
	if (nonly > 0) {
		run = 0;
		if (in_list("always", (const char *const *)mine))
			run = 1;
		else if (in_list("all", (const char *const *)only) &&
		    !in_list("never", (const char *const *)mine))
			run = 1;
		else if (!disjoint(mine, only))
			run = 1;
		else if (in_list("tagged", (const char *const *)only) &&
		    !untagged && !in_list("never", (const char *const *)mine))
			run = 1;
		else if (in_list("untagged", (const char *const *)only) &&
		    untagged)
			run = 1;
	}
	if (run && nskip > 0) {
		if (in_list("all", (const char *const *)skip)) {
			if (!in_list("always", (const char *const *)mine) ||
			    in_list("always", (const char *const *)skip))
				run = 0;
		} else if (!disjoint(mine, skip))
			run = 0;
		else if (in_list("tagged", (const char *const *)skip) &&
		    !untagged)
			run = 0;
		else if (in_list("untagged", (const char *const *)skip) &&
		    untagged)
			run = 0;
	}
	free_tags(only, nonly);
	free_tags(skip, nskip);
	free(mine);
	return run;
}
