/* The inventory model: groups, hosts, their links, and the merged
 * variables of a host. Parsers (inventory-yaml.c, inventory-ini.c,
 * inventory-json.c) fill it through inv_add_group/inv_add_host/
 * inv_add_child; inventory_finish then does what Ansible's
 * reconcile_inventory does. */
#include "inventory/inventory.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "inventory/hostrange.h"
#include "net/http.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "vault/vault.h"
#include "yaml/ydoc.h"
#include "base/util.h"

struct inventory *
inventory_new(void)
{
	struct inventory *inv = xcalloc(1, sizeof *inv);

	inv->group_index = json_object();
	inv->host_index = json_object();
	inv_add_group(inv, "all");
	inv_add_group(inv, "ungrouped");
	inv_add_child(inv, inv->groups[0], inv->groups[1], NULL, NULL);
	return inv;
}

static void
free_file_vars(json_t **fv, size_t n)
{
	size_t i;

	if (fv == NULL)
		return;
	for (i = 0; i < n; i++)
		json_decref(fv[i]);
	free(fv);
}

void
inventory_free(struct inventory *inv)
{
	size_t i;

	if (inv == NULL)
		return;
	for (i = 0; i < inv->ngroups; i++) {
		struct inv_group *g = inv->groups[i];

		free(g->name);
		json_decref(g->vars);
		free(g->children);
		free(g->parents);
		free(g->hosts);
		free_file_vars(g->file_vars, inv->nroots);
		free(g);
	}
	for (i = 0; i < inv->nhosts; i++) {
		struct inv_host *h = inv->hosts[i];

		free(h->name);
		json_decref(h->vars);
		free(h->groups);
		free_file_vars(h->file_vars, inv->nroots);
		free(h);
	}
	for (i = 0; i < inv->nroots; i++)
		free(inv->roots[i].dir);
	for (i = 0; i < inv->nwarnings; i++)
		free(inv->warnings[i]);
	free(inv->warnings);
	free(inv->roots);
	free(inv->groups);
	free(inv->hosts);
	json_decref(inv->group_index);
	json_decref(inv->host_index);
	free(inv);
}

void *
inv_grow(void *array, size_t n, size_t size)
{
	if ((n & (n - 1)) != 0)
		return array;
	return xreallocarray(array, n == 0 ? 1 : n * 2, size);
}

void
inv_warn(struct inventory *inv, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	inv->warnings = inv_grow(inv->warnings, inv->nwarnings,
	    sizeof *inv->warnings);
	inv->warnings[inv->nwarnings++] = xvprintf(fmt, ap);
	va_end(ap);
}

/* C.INVALID_VARIABLE_NAMES = '^[\d\W]|[^\w]' */
int
inv_valid_group_name(const char *name)
{
	const unsigned char *p = (const unsigned char *)name;

	if (*p == '\0' || isdigit(*p))
		return 0;
	for (; *p != '\0'; p++) {
		if (!isalnum(*p) && *p != '_' && *p < 0x80)
			return 0;
	}
	return 1;
}

struct inv_group *
inventory_group(const struct inventory *inv, const char *name)
{
	json_t *j = json_object_get(inv->group_index, name);

	return j == NULL ? NULL : inv->groups[json_integer_value(j)];
}

struct inv_host *
inventory_host(const struct inventory *inv, const char *name)
{
	json_t *j = json_object_get(inv->host_index, name);

	return j == NULL ? NULL : inv->hosts[json_integer_value(j)];
}

struct inv_group *
inv_add_group(struct inventory *inv, const char *name)
{
	struct inv_group *g;

	if ((g = inventory_group(inv, name)) != NULL)
		return g;
	g = xcalloc(1, sizeof *g);
	g->name = xstrdup(name);
	g->vars = json_object();
	g->priority = 1;
	g->index = inv->ngroups;
	inv->groups = inv_grow(inv->groups, inv->ngroups,
	    sizeof *inv->groups);
	inv->groups[inv->ngroups++] = g;
	json_object_set_new(inv->group_index, name, json_integer(g->index));
	return g;
}

/* Membership and links are checked from the shorter side: 'all' may have a
 * child per group, a group a host per line, and the check runs per link. */
static int
group_has_host(const struct inv_group *g, const struct inv_host *h)
{
	size_t i;

	if (h->ngroups <= g->nhosts) {
		for (i = 0; i < h->ngroups; i++) {
			if (h->groups[i] == g)
				return 1;
		}
		return 0;
	}
	for (i = 0; i < g->nhosts; i++) {
		if (g->hosts[i] == h)
			return 1;
	}
	return 0;
}

static int
has_child(const struct inv_group *parent, const struct inv_group *child)
{
	size_t i;

	if (child->nparents <= parent->nchildren) {
		for (i = 0; i < child->nparents; i++) {
			if (child->parents[i] == parent)
				return 1;
		}
		return 0;
	}
	for (i = 0; i < parent->nchildren; i++) {
		if (parent->children[i] == child)
			return 1;
	}
	return 0;
}

struct inv_host *
inv_add_host(struct inventory *inv, const char *name, struct inv_group *g,
    int port)
{
	struct inv_host *h;

	if ((h = inventory_host(inv, name)) == NULL) {
		h = xcalloc(1, sizeof *h);
		h->name = xstrdup(name);
		h->vars = json_object();
		h->index = inv->nhosts;
		inv->hosts = inv_grow(inv->hosts, inv->nhosts,
		    sizeof *inv->hosts);
		inv->hosts[inv->nhosts++] = h;
		json_object_set_new(inv->host_index, name,
		    json_integer(h->index));
	}
	if (g != NULL && !group_has_host(g, h)) {
		g->hosts = inv_grow(g->hosts, g->nhosts,
		    sizeof *g->hosts);
		g->hosts[g->nhosts++] = h;
		h->groups = inv_grow(h->groups, h->ngroups,
		    sizeof *h->groups);
		h->groups[h->ngroups++] = g;
	}
	if (port >= 0)
		json_object_set_new(h->vars, "ansible_port",
		    json_integer(port));
	return h;
}

/* One side of the cycle search: breadth first, down through children from
 * the new child or up through parents from the new parent, advanced one
 * link at a time so that neither side outruns the other. */
struct walk {
	struct inv_group	**queue;
	size_t			  head, tail, cap;
	size_t			  link;		/* next link of queue[head] */
	int			  up;
};

static void
walk_push(struct walk *w, struct inv_group *g, unsigned long long stamp)
{
	g->seen[w->up] = stamp;
	if (w->tail == w->cap) {
		w->cap = w->cap == 0 ? 16 : w->cap * 2;
		w->queue = xreallocarray(w->queue, w->cap, sizeof *w->queue);
	}
	w->queue[w->tail++] = g;
}

/* Follow one link. 1: go on; 0: this side is exhausted; -1: it reached a
 * group the other side has seen, so child reaches parent. */
static int
walk_step(struct walk *w, unsigned long long stamp)
{
	struct inv_group	*g, *next;
	size_t			 n;

	if (w->head == w->tail)
		return 0;
	g = w->queue[w->head];
	n = w->up ? g->nparents : g->nchildren;
	if (w->link == n) {
		w->head++;
		w->link = 0;
		return 1;
	}
	next = w->up ? g->parents[w->link++] : g->children[w->link++];
	if (next->seen[!w->up] == stamp)
		return -1;
	if (next->seen[w->up] != stamp)
		walk_push(w, next, stamp);
	return 1;
}

/* Is parent reachable from child (so that linking them makes a cycle)?
 * Searching from both ends at once costs about the smaller of child's
 * descendants and parent's ancestors: chains built top down (INI, JSON) or
 * bottom up (nested YAML) cost a step or two per link, and diamonds are
 * walked once, not once per path. */
static int
reaches(struct inventory *inv, struct inv_group *child,
    struct inv_group *parent)
{
	struct walk		 down, up;
	unsigned long long	 stamp = ++inv->search;
	int			 r;

	if (child == parent)
		return 1;
	memset(&down, 0, sizeof down);
	memset(&up, 0, sizeof up);
	up.up = 1;
	walk_push(&down, child, stamp);
	walk_push(&up, parent, stamp);
	while ((r = walk_step(&down, stamp)) == 1 &&
	    (r = walk_step(&up, stamp)) == 1)
		;
	free(down.queue);
	free(up.queue);
	return r == -1;
}

/* The path from 'from' down to 'to' that a depth-first search in child order
 * finds first, as "from -> ... -> to". Iterative, each group entered once. */
static void
find_path(struct inventory *inv, struct inv_group *from,
    struct inv_group *to, struct strbuf *sb)
{
	struct frame {
		struct inv_group	*g;
		size_t			 i;
	}			*st;
	struct inv_group	*c;
	unsigned long long	 stamp = ++inv->search;
	size_t			 n = 0, cap = 16, i;

	st = xreallocarray(NULL, cap, sizeof *st);
	st[n].g = from;
	st[n++].i = 0;
	from->seen[0] = stamp;
	while (n > 0 && st[n - 1].g != to) {
		if (st[n - 1].i == st[n - 1].g->nchildren) {
			n--;
			continue;
		}
		c = st[n - 1].g->children[st[n - 1].i++];
		if (c->seen[0] == stamp)
			continue;
		c->seen[0] = stamp;
		if (n == cap)
			st = xreallocarray(st, cap *= 2, sizeof *st);
		st[n].g = c;
		st[n++].i = 0;
	}
	for (i = 0; i < n; i++)
		strbuf_addf(sb, "%s%s", i == 0 ? "" : " -> ", st[i].g->name);
	free(st);
}

int
inv_add_child(struct inventory *inv, struct inv_group *parent,
    struct inv_group *child, const char *where, char **cause)
{
	struct strbuf	 sb;
	int		 r;

	if (has_child(parent, child))
		return 0;
	if (reaches(inv, child, parent)) {
		strbuf_init(&sb);
		find_path(inv, child, parent, &sb);
		r = fail(cause, "%s%sgroup '%s' is its own ancestor: %s -> %s",
		    where != NULL ? where : "", where != NULL ? ": " : "",
		    child->name, sb.buf, child->name);
		strbuf_release(&sb);
		return r;
	}
	parent->children = inv_grow(parent->children, parent->nchildren,
	    sizeof *parent->children);
	parent->children[parent->nchildren++] = child;
	child->parents = inv_grow(child->parents, child->nparents,
	    sizeof *child->parents);
	child->parents[child->nparents++] = parent;
	return 0;
}

int
inv_group_set_var(struct inv_group *g, const char *key, json_t *value,
    const char *where, char **cause)
{
	if (strcmp(key, "ansible_group_priority") == 0) {
		/* int(value): Python accepts ints, floats (truncated) and
		 * strings of digits; beyond an int it is refused, not
		 * wrapped (a cast of an out-of-range double is undefined). */
		double		 d = 0;
		const char	*s = json_string_value(value);
		char		*end = NULL;
		int		 ok = 1;

		if (json_is_integer(value))
			d = (double)json_integer_value(value);
		else if (json_is_real(value))
			d = json_real_value(value);
		else if (s != NULL && s[0] != '\0' &&
		    strspn(s, "-0123456789") == strlen(s)) {
			errno = 0;
			d = (double)strtoll(s, &end, 10);
			ok = errno == 0 && *end == '\0';
		} else
			ok = 0;
		if (!ok || !(d > INT_MIN - 1.0 && d < INT_MAX + 1.0)) {
			json_decref(value);
			return fail(cause, "%s%sansible_group_priority of group "
			    "'%s' must be an integer (from %d to %d)",
			    where ? where : "", where ? ": " : "", g->name,
			    INT_MIN, INT_MAX);
		}
		g->priority = (int)d;
		json_decref(value);
		return 0;
	}
	json_object_set_new(g->vars, key, value);
	return 0;
}

/* --- sources --- */


static int
add_root(struct inventory *inv, const char *dir, int play, char **cause)
{
	char	*real, *other;
	size_t	 i;
	int	 same;

	/* keep the path as given (messages name it), compare real paths */
	if ((real = realpath(dir, NULL)) == NULL)
		real = xstrdup(dir);
	for (i = 0; i < inv->nroots; i++) {
		if (inv->roots[i].play != play)
			continue;
		if ((other = realpath(inv->roots[i].dir, NULL)) == NULL)
			other = xstrdup(inv->roots[i].dir);
		same = strcmp(other, real) == 0;
		free(other);
		if (same) {
			free(real);
			return 0;
		}
	}
	free(real);
	real = xstrdup(dir);
	inv->roots = xreallocarray(inv->roots, inv->nroots + 1,
	    sizeof *inv->roots);
	inv->roots[inv->nroots].dir = real;
	inv->roots[inv->nroots].play = play;
	inv->nroots++;
	/* grow the per-root arrays of existing entities */
	for (i = 0; i < inv->ngroups; i++) {
		struct inv_group *g = inv->groups[i];

		if (g->file_vars != NULL) {
			g->file_vars = xrealloc(g->file_vars,
			    inv->nroots * sizeof *g->file_vars);
			g->file_vars[inv->nroots - 1] = NULL;
		}
	}
	for (i = 0; i < inv->nhosts; i++) {
		struct inv_host *h = inv->hosts[i];

		if (h->file_vars != NULL) {
			h->file_vars = xrealloc(h->file_vars,
			    inv->nroots * sizeof *h->file_vars);
			h->file_vars[inv->nroots - 1] = NULL;
		}
	}
	if (inv->finished)
		return inv_load_root_vars(inv, inv->nroots - 1, cause);
	return 0;
}

int
inventory_add_vars_root(struct inventory *inv, const char *dir, char **cause)
{
	return add_root(inv, dir, 1, cause);
}

/* The host_list plugin: "a, b:2222, [v6]:22," -- no ranges. */
static int
add_host_list(struct inventory *inv, const char *list)
{
	char		*copy = xstrdup(list), *p = copy, *tok;
	struct inv_group *ungrouped = inventory_group(inv, "ungrouped");

	while ((tok = strsep(&p, ",")) != NULL) {
		char	*end, *host;
		int	 port, parsed;

		while (isspace((unsigned char)*tok))
			tok++;
		end = tok + strlen(tok);
		while (end > tok && isspace((unsigned char)end[-1]))
			*--end = '\0';
		if (*tok == '\0')
			continue;
		host = hostrange_parse_address(tok, &port, &parsed);
		inv_add_host(inv, host, ungrouped, port);
		free(host);
	}
	free(copy);
	return 0;
}

static int
has_suffix(const char *s, const char *suffix)
{
	size_t ls = strlen(s), lx = strlen(suffix);

	return ls >= lx && strcmp(s + ls - lx, suffix) == 0;
}

static const char *
extension(const char *path)
{
	const char *base = strrchr(path, '/'), *dot;

	base = base == NULL ? path : base + 1;
	/* os.path.splitext: leading dots of the base name do not count */
	while (*base == '.')
		base++;
	dot = strrchr(base, '.');
	return dot == NULL ? "" : dot;
}

static int
add_file(struct inventory *inv, const char *path, char **cause)
{
	const char	*ext = extension(path);
	struct ydoc	*doc = NULL;
	struct ynode	*root;
	char		*ycause = NULL;
	int		 r = -1;

	if (inventory_source_is_script(path))
		return inv->no_scripts ? 0 :
		    inventory_add_script(inv, path, cause);
	if (strcmp(ext, ".yml") == 0 || strcmp(ext, ".yaml") == 0 ||
	    strcmp(ext, ".json") == 0) {
		if ((doc = ydoc_load_file(path, cause)) == NULL)
			goto out;
		r = inv_load_yaml(inv, path, doc, cause);
		goto out;
	}
	if (*ext == '\0') {
		/* Ansible tries its yaml plugin first, then ini. */
		doc = ydoc_load_file(path, &ycause);
		root = doc != NULL ? ydoc_root(doc) : NULL;
		if (root != NULL && root->type == YNODE_MAP) {
			r = inv_load_yaml(inv, path, doc, cause);
			goto out;
		}
	}
	r = inv_load_ini(inv, path, cause);
out:
	free(ycause);
	ydoc_free(doc);
	return r;
}

/* INVENTORY_IGNORE_EXTS and IGNORED_ALWAYS of ansible-core 2.14. */
static int
ignored_entry(const char *name)
{
	static const char *const exts[] = { ".pyc", ".pyo", ".swp", ".bak",
	    "~", ".rpm", ".md", ".txt", ".rst", ".orig", ".ini", ".cfg",
	    ".retry", NULL };
	size_t i;

	if (name[0] == '.' || strcmp(name, "host_vars") == 0 ||
	    strcmp(name, "group_vars") == 0 ||
	    strcmp(name, "vars_plugins") == 0)
		return 1;
	for (i = 0; exts[i] != NULL; i++) {
		if (has_suffix(name, exts[i]))
			return 1;
	}
	return 0;
}


static int add_path(struct inventory *, const char *, char **);

static int
add_dir(struct inventory *inv, const char *dir, char **cause)
{
	char	**names = NULL;
	size_t	  n = 0, i;
	int	  r = -1;

	if (dir_list_sorted(dir, ignored_entry, &names, &n, cause) != 0)
		return -1;
	for (i = 0; i < n; i++) {
		char *path = xprintf("%s/%s", dir, names[i]);
		int rr = add_path(inv, path, cause);

		free(path);
		if (rr != 0)
			goto out;
	}
	r = 0;
out:
	names_free(names, n);
	return r;
}

static int
add_path(struct inventory *inv, const char *path, char **cause)
{
	if (path_is_dir(path))
		return add_dir(inv, path, cause);
	return add_file(inv, path, cause);
}

int
inventory_add_source(struct inventory *inv, const char *source, char **cause)
{
	char	*dir, *slash;
	int	 r;

	if (http_url_scheme(source) != HTTP_SCHEME_NONE)
		return inventory_add_url(inv, source, cause);
	if (access(source, F_OK) != 0) {
		if (strchr(source, ',') != NULL)
			return add_host_list(inv, source);
		return fail(cause, "inventory source '%s' does not exist",
		    source);
	}
	if (path_is_dir(source)) {
		if ((r = add_dir(inv, source, cause)) != 0)
			return r;
		return add_root(inv, source, 0, cause);
	}
	if ((r = add_file(inv, source, cause)) != 0)
		return r;
	dir = xstrdup(source);
	if ((slash = strrchr(dir, '/')) == NULL) {
		free(dir);
		dir = xstrdup(".");
	} else if (slash == dir)
		slash[1] = '\0';
	else
		*slash = '\0';
	r = add_root(inv, dir, 0, cause);
	free(dir);
	return r;
}

/* --- finish --- */

static int
has_ancestor(const struct inv_group *g)
{
	return g->nparents != 0;
}

/* Every group's depth, the longest path from 'all': groups in topological
 * order (Kahn), so a long chain needs no recursion and a diamond is
 * visited once. */
static void
set_depths(struct inventory *inv)
{
	struct inv_group	**queue, *g, *c;
	size_t			 *left, head = 0, tail = 0, i;

	queue = xcalloc(inv->ngroups + 1, sizeof *queue);
	left = xcalloc(inv->ngroups + 1, sizeof *left);
	for (i = 0; i < inv->ngroups; i++) {
		g = inv->groups[i];
		g->depth = 0;
		if ((left[i] = g->nparents) == 0)
			queue[tail++] = g;
	}
	while (head < tail) {
		g = queue[head++];
		for (i = 0; i < g->nchildren; i++) {
			c = g->children[i];
			if (c->depth < g->depth + 1)
				c->depth = g->depth + 1;
			if (--left[c->index] == 0)
				queue[tail++] = c;
		}
	}
	free(left);
	free(queue);
}

int
inventory_finish(struct inventory *inv, char **cause)
{
	struct inv_group	*all = inv->groups[0];
	struct inv_group	*ungrouped = inv->groups[1];
	size_t			 i, j;

	/* every group hangs under 'all' */
	for (i = 1; i < inv->ngroups; i++) {
		if (!has_ancestor(inv->groups[i]) &&
		    inv_add_child(inv, all, inv->groups[i], NULL, cause) != 0)
			return -1;
	}
	/* ungrouped: hosts in no group but 'all' (or 'ungrouped') */
	for (i = 0; i < inv->nhosts; i++) {
		struct inv_host	*h = inv->hosts[i];
		int		 other = 0, in_ungrouped = 0;

		for (j = 0; j < h->ngroups; j++) {
			if (h->groups[j] == ungrouped)
				in_ungrouped = 1;
			else if (h->groups[j] != all)
				other = 1;
		}
		if (in_ungrouped && other) {
			size_t k, o = 0;

			for (k = 0; k < ungrouped->nhosts; k++) {
				if (ungrouped->hosts[k] != h)
					ungrouped->hosts[o++] = ungrouped->hosts[k];
			}
			ungrouped->nhosts = o;
			for (k = 0, o = 0; k < h->ngroups; k++) {
				if (h->groups[k] != ungrouped)
					h->groups[o++] = h->groups[k];
			}
			h->ngroups = o;
		} else if (!in_ungrouped && !other)
			inv_add_host(inv, h->name, ungrouped, -1);
	}
	set_depths(inv);
	for (i = 0; i < inv->ngroups; i++) {
		if (inventory_host(inv, inv->groups[i]->name) != NULL)
			inv_warn(inv, "found both group and host with same "
			    "name: %s", inv->groups[i]->name);
	}
	inv->finished = 1;
	for (i = 0; i < inv->nroots; i++) {
		if (inv_load_root_vars(inv, i, cause) != 0)
			return -1;
	}
	return 0;
}

/* --- queries --- */

/* A set of groups by index, sized to what it holds: a host's groups are
 * usually few, while the inventory may have a great many. */
struct gset {
	size_t	*slot;		/* index + 1, 0 empty */
	size_t	 cap, n;
};

static void
gset_grow(struct gset *set)
{
	struct gset	 old = *set;
	size_t		 i;

	set->cap = old.cap == 0 ? 16 : old.cap * 2;
	set->slot = xcalloc(set->cap, sizeof *set->slot);
	set->n = 0;
	for (i = 0; i < old.cap; i++) {
		if (old.slot[i] != 0) {
			size_t k = (old.slot[i] * 0x9e3779b97f4a7c15ULL) &
			    (set->cap - 1);

			while (set->slot[k] != 0)
				k = (k + 1) & (set->cap - 1);
			set->slot[k] = old.slot[i];
			set->n++;
		}
	}
	free(old.slot);
}

/* 1 if g was not in the set yet. */
static int
gset_add(struct gset *set, const struct inv_group *g)
{
	size_t	key = g->index + 1, k;

	if (set->n * 2 >= set->cap)
		gset_grow(set);
	k = (key * 0x9e3779b97f4a7c15ULL) & (set->cap - 1);
	for (; set->slot[k] != 0; k = (k + 1) & (set->cap - 1)) {
		if (set->slot[k] == key)
			return 0;
	}
	set->slot[k] = key;
	set->n++;
	return 1;
}

/* All groups of a host: its groups and their ancestors, 'all' included,
 * each once (breadth first; callers sort). */
static size_t
host_all_groups(const struct inv_host *h, const struct inv_group ***out)
{
	const struct inv_group	 *g;
	struct gset		  seen;
	size_t			  n = 0, cap = h->ngroups + 1, k, i;

	memset(&seen, 0, sizeof seen);
	*out = xcalloc(cap, sizeof **out);
	for (i = 0; i < h->ngroups; i++) {
		if (gset_add(&seen, h->groups[i]))
			(*out)[n++] = h->groups[i];
	}
	for (k = 0; k < n; k++) {
		g = (*out)[k];
		for (i = 0; i < g->nparents; i++) {
			if (!gset_add(&seen, g->parents[i]))
				continue;
			if (n == cap)
				*out = xreallocarray(*out, cap *= 2,
				    sizeof **out);
			(*out)[n++] = g->parents[i];
		}
	}
	free(seen.slot);
	return n;
}

static int
cmp_group_sort(const void *a, const void *b)
{
	const struct inv_group *x = *(const struct inv_group *const *)a;
	const struct inv_group *y = *(const struct inv_group *const *)b;

	if (x->depth != y->depth)
		return x->depth < y->depth ? -1 : 1;
	if (x->priority != y->priority)
		return x->priority < y->priority ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int
cmp_group_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

json_t *
inventory_host_vars(const struct inventory *inv, const char *name)
{
	const struct inv_host	 *h = inventory_host(inv, name);
	const struct inv_group	**groups, *all = inv->groups[0];
	size_t			  n, i, o, r;
	json_t			 *vars;
	int			  play;

	if (h == NULL)
		return NULL;
	n = host_all_groups(h, &groups);
	/* 'all' is applied on its own, first */
	for (i = 0, o = 0; i < n; i++) {
		if (groups[i] != all)
			groups[o++] = groups[i];
	}
	n = o;
	qsort(groups, n, sizeof *groups, cmp_group_sort);

	vars = json_deep_copy(all->vars);
	for (i = 0; i < n; i++)
		json_object_update(vars, groups[i]->vars);
	/* VARIABLE_PRECEDENCE: all_plugins_inventory, all_plugins_play,
	 * groups_plugins_inventory, groups_plugins_play */
	for (play = 0; play <= 1; play++) {
		for (r = 0; r < inv->nroots; r++) {
			if (inv->roots[r].play == play && all->file_vars != NULL &&
			    all->file_vars[r] != NULL)
				json_object_update(vars, all->file_vars[r]);
		}
	}
	for (play = 0; play <= 1; play++) {
		for (r = 0; r < inv->nroots; r++) {
			if (inv->roots[r].play != play)
				continue;
			for (i = 0; i < n; i++) {
				if (groups[i]->file_vars != NULL &&
				    groups[i]->file_vars[r] != NULL)
					json_object_update(vars,
					    groups[i]->file_vars[r]);
			}
		}
	}
	json_object_update(vars, h->vars);
	for (play = 0; play <= 1; play++) {
		for (r = 0; r < inv->nroots; r++) {
			if (inv->roots[r].play == play && h->file_vars != NULL &&
			    h->file_vars[r] != NULL)
				json_object_update(vars, h->file_vars[r]);
		}
	}
	free(groups);
	return vars;
}

int
inventory_host_groups(const struct inventory *inv, const char *name,
    const char ***out, size_t *nout)
{
	const struct inv_host	 *h = inventory_host(inv, name);
	const struct inv_group	**groups;
	size_t			  n, i;

	*out = NULL;
	*nout = 0;
	if (h == NULL)
		return -1;
	n = host_all_groups(h, &groups);
	*out = xcalloc(n + 1, sizeof **out);
	for (i = 0; i < n; i++)
		(*out)[i] = groups[i]->name;
	qsort(*out, n, sizeof **out, cmp_group_name);
	*nout = n;
	free(groups);
	return 0;
}

int
inventory_group_hosts(const struct inventory *inv, const char *name,
    const char ***out, size_t *nout)
{
	const struct inv_group	 *g = inventory_group(inv, name);
	const struct inv_group	**queue;
	char			 *seen;
	size_t			  head = 0, tail = 0, i, n = 0;

	*out = NULL;
	*nout = 0;
	if (g == NULL)
		return -1;
	/* breadth first from the group, as Group.get_hosts does */
	queue = xcalloc(inv->ngroups + 1, sizeof *queue);
	seen = xcalloc(inv->ngroups + inv->nhosts + 1, 1);
	queue[tail++] = g;
	seen[g->index] = 1;
	*out = xcalloc(inv->nhosts + 1, sizeof **out);
	while (head < tail) {
		const struct inv_group *q = queue[head++];

		for (i = 0; i < q->nhosts; i++) {
			if (!seen[inv->ngroups + q->hosts[i]->index]) {
				seen[inv->ngroups + q->hosts[i]->index] = 1;
				(*out)[n++] = q->hosts[i]->name;
			}
		}
		for (i = 0; i < q->nchildren; i++) {
			if (!seen[q->children[i]->index]) {
				seen[q->children[i]->index] = 1;
				queue[tail++] = q->children[i];
			}
		}
	}
	*nout = n;
	free(queue);
	free(seen);
	return 0;
}

/* --- connection --- */

void
host_conn_clear(struct host_conn *c)
{
	free(c->address);
	free(c->user);
	free(c->key_file);
	free(c->become_user);
	if (c->become_password != NULL) {
		explicit_bzero(c->become_password, strlen(c->become_password));
		free(c->become_password);
	}
	free(c->proxy_jump);
	memset(c, 0, sizeof *c);
}

static char *
var_string(json_t *vars, const char *key)
{
	json_t *v = json_object_get(vars, key);

	if (v == NULL || json_is_null(v))
		return NULL;
	if (json_is_string(v))
		return xstrdup(json_string_value(v));
	if (json_is_integer(v))
		return xprintf("%lld", (long long)json_integer_value(v));
	return NULL;
}

/* The become password. Ansible's sudo plugin lists ansible_become_password,
 * ansible_become_pass, ansible_sudo_pass, and the last one set wins (its
 * config manager's _loop_entries). A string or a number is a password;
 * anything else (a list, a mapping) is an error that never shows the value.
 * Inline vault values were decrypted by the caller (vault_reveal_vars),
 * which fails, naming host and variable, when no password opens them. */
static int
become_password(json_t *vars, const char *host, char **out, char **cause)
{
	static const char *const names[] = { "ansible_sudo_pass",
	    "ansible_become_pass", "ansible_become_password", NULL };
	json_t	*v = NULL;
	size_t	 i;

	*out = NULL;
	for (i = 0; names[i] != NULL; i++) {
		v = json_object_get(vars, names[i]);
		if (v != NULL && !json_is_null(v))
			break;
	}
	if (names[i] == NULL)
		return 0;
	if ((*out = var_string(vars, names[i])) == NULL)
		return fail(cause, "host '%s': %s must be a string, got %s",
		    host, names[i], json_is_array(v) ? "a list" :
		    json_is_object(v) ? "a mapping" : json_is_boolean(v) ?
		    "a boolean" : "a number that is not an integer");
	return 0;
}

/* "-o ProxyJump=x", "-oProxyJump=x", "-o 'ProxyJump x'", "-J x" */
static char *
find_proxy_jump(const char *args)
{
	const char	*p, *v;
	size_t		 len;

	if (args == NULL)
		return NULL;
	for (p = args; *p != '\0'; p++) {
		v = NULL;
		if (strncasecmp(p, "ProxyJump", 9) == 0) {
			v = p + 9;
			while (*v == ' ' || *v == '=')
				v++;
		} else if (strncmp(p, "-J", 2) == 0 && (p == args ||
		    p[-1] == ' ')) {
			v = p + 2;
			while (*v == ' ')
				v++;
		}
		if (v == NULL)
			continue;
		len = strcspn(v, " '\"");
		if (len != 0)
			return xstrndup(v, len);
	}
	return NULL;
}

static int
truthy(json_t *v, int *out)
{
	const char *s;

	if (json_is_boolean(v)) {
		*out = json_is_true(v);
		return 0;
	}
	if (json_is_integer(v)) {
		*out = json_integer_value(v) != 0;
		return 0;
	}
	if (!json_is_string(v))
		return -1;
	/* Ansible's boolean(): the usual spellings, case-insensitive */
	s = json_string_value(v);
	if (strcasecmp(s, "yes") == 0 || strcasecmp(s, "true") == 0 ||
	    strcasecmp(s, "on") == 0 || strcmp(s, "1") == 0 ||
	    strcasecmp(s, "y") == 0 || strcasecmp(s, "t") == 0)
		*out = 1;
	else if (strcasecmp(s, "no") == 0 || strcasecmp(s, "false") == 0 ||
	    strcasecmp(s, "off") == 0 || strcmp(s, "0") == 0 ||
	    strcasecmp(s, "n") == 0 || strcasecmp(s, "f") == 0 ||
	    *s == '\0')
		*out = 0;
	else
		return -1;
	return 0;
}

/* ansible_connection: local, or one of the ssh plugins (tcptune's libssh
 * speaks for them all); any other plugin (docker, winrm, network_cli...)
 * would run somewhere tcptune cannot reach, so it is refused. */
static int
connection(json_t *vars, const char *host, int *local, char **cause)
{
	static const char *const ssh[] = { "ssh", "smart", "paramiko",
	    "paramiko_ssh", "ansible.builtin.ssh",
	    "ansible.builtin.paramiko_ssh", NULL };
	char	*c = var_string(vars, "ansible_connection");
	size_t	 i;
	int	 r = 0;

	*local = 0;
	if (c == NULL)
		return 0;
	if (strcmp(c, "local") == 0 || strcmp(c, "ansible.builtin.local") == 0)
		*local = 1;
	else {
		for (i = 0; ssh[i] != NULL && strcmp(ssh[i], c) != 0; i++)
			;
		if (ssh[i] == NULL)
			r = fail(cause, "host '%s': ansible_connection '%s' is "
			    "not supported (tcptune connects with ssh, or runs "
			    "on the controller with local)", host, c);
	}
	free(c);
	return r;
}

int
inventory_host_conn(const struct inventory *inv, const char *host,
    const json_t *extra, struct host_conn *out, char **cause)
{
	json_t		*vars, *v;
	char		*s;
	const char	*key;
	int		 r = -1;

	memset(out, 0, sizeof *out);
	out->become = -1;
	if ((vars = inventory_host_vars(inv, host)) == NULL)
		return fail(cause, "unknown host '%s'", host);
	if (extra != NULL)
		json_object_update(vars, (json_t *)extra);
	/* ansible_user or ansible_become_password may be inline vault */
	s = xprintf("host '%s'", host);
	r = vault_reveal_vars(vars, s, cause);
	free(s);
	if (r != 0)
		goto out;
	r = -1;

	if ((out->address = var_string(vars, "ansible_host")) == NULL &&
	    (out->address = var_string(vars, "ansible_ssh_host")) == NULL)
		out->address = xstrdup(host);
	key = json_object_get(vars, "ansible_port") != NULL ? "ansible_port" :
	    "ansible_ssh_port";
	if ((v = json_object_get(vars, key)) != NULL && !json_is_null(v)) {
		long	 port = -1;
		char	*end;

		if (json_is_integer(v))
			port = (long)json_integer_value(v);
		else if (json_is_string(v)) {
			errno = 0;
			port = strtol(json_string_value(v), &end, 10);
			if (*end != '\0' || end == json_string_value(v))
				port = -1;
		}
		if (port < 1 || port > 65535) {
			s = json_dumps(v, JSON_ENCODE_ANY);
			fail(cause, "host '%s': %s must be a port number, got "
			    "%s", host, key, s);
			free(s);
			goto out;
		}
		out->port = (int)port;
	}
	if ((out->user = var_string(vars, "ansible_user")) == NULL)
		out->user = var_string(vars, "ansible_ssh_user");
	if (connection(vars, host, &out->local, cause) != 0)
		goto out;
	out->key_file = var_string(vars, "ansible_ssh_private_key_file");
	if ((v = json_object_get(vars, "ansible_become")) != NULL &&
	    !json_is_null(v) && truthy(v, &out->become) != 0) {
		s = json_dumps(v, JSON_ENCODE_ANY);
		fail(cause, "host '%s': ansible_become must be a boolean, got "
		    "%s", host, s);
		free(s);
		goto out;
	}
	out->become_user = var_string(vars, "ansible_become_user");
	if (become_password(vars, host, &out->become_password, cause) != 0)
		goto out;
	if ((out->proxy_jump = var_string(vars, "tcptune_proxy_jump")) == NULL) {
		s = var_string(vars, "ansible_ssh_common_args");
		out->proxy_jump = find_proxy_jump(s);
		free(s);
	}
	if (out->proxy_jump == NULL) {
		s = var_string(vars, "ansible_ssh_extra_args");
		out->proxy_jump = find_proxy_jump(s);
		free(s);
	}
	r = 0;
out:
	if (r != 0)
		host_conn_clear(out);
	json_decref(vars);
	return r;
}

void
inv_remove_internal_vars(json_t *vars)
{
	static const char *const internal[] = { "ansible_diff_mode",
	    "ansible_config_file", "ansible_facts", "ansible_forks",
	    "ansible_inventory_sources", "ansible_limit",
	    "ansible_playbook_python", "ansible_run_tags", "ansible_skip_tags",
	    "ansible_verbosity", "ansible_version", "inventory_dir",
	    "inventory_file", "inventory_hostname", "inventory_hostname_short",
	    "groups", "group_names", "omit", "playbook_dir", NULL };
	size_t i;

	for (i = 0; internal[i] != NULL; i++)
		json_object_del(vars, internal[i]);
}
