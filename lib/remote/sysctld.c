/* The sysctl.d precedence model; the rules are in sysctld.h. */

#include <ctype.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "remote/sysctld.h"
#include "base/xalloc.h"
#include "base/util.h"

/* Drop-in directories, highest priority first. */
static const char *sysctld_dirs[] = {
	"/etc/sysctl.d",
	"/run/sysctl.d",
	"/usr/local/lib/sysctl.d",
	"/usr/lib/sysctl.d",
	"/lib/sysctl.d",
};
#define SYSCTLD_NDIRS (sizeof sysctld_dirs / sizeof sysctld_dirs[0])

/* Room for element n of an array grown one element at a time: doubles when
 * n is a power of two (growing by one copies the array each time under
 * ASan, quadratic for a host with thousands of files or lines). */
static void *
grow(void *array, size_t n, size_t size)
{
	return (n & (n - 1)) != 0 ? array :
	    xreallocarray(array, n == 0 ? 1 : n * 2, size);
}

void
sysctld_init(struct sysctld_set *set)
{
	set->files = NULL;
	set->n = 0;
}

void
sysctld_free(struct sysctld_set *set)
{
	struct sysctld_file	*f;
	size_t			 i, j;

	for (i = 0; i < set->n; i++) {
		f = set->files[i];
		for (j = 0; j < f->n; j++) {
			free(f->entries[j].key);
			free(f->entries[j].value);
		}
		free(f->entries);
		free(f->path);
		free(f->dir);
		free(f);
	}
	free(set->files);
	sysctld_init(set);
}

struct sysctld_file *
sysctld_add_file(struct sysctld_set *set, const char *path, const char *dir)
{
	struct sysctld_file	*f;

	f = xcalloc(1, sizeof *f);
	f->path = xstrdup(path);
	f->dir = dir != NULL ? xstrdup(dir) : NULL;
	set->files = grow(set->files, set->n, sizeof *set->files);
	set->files[set->n++] = f;
	return f;
}


char *
sysctld_key_normalise(const char *key)
{
	const char	*s;
	char		*out, *p;
	size_t		 len = strlen(key);
	int		 dash = 0;

	s = str_trim(key, &len);
	if (len > 0 && *s == '-') {
		dash = 1;
		s++;
		len--;
	}
	out = xmalloc(len + 2);
	p = out;
	if (dash)
		*p++ = '-';
	memcpy(p, s, len);
	p[len] = '\0';

	/* Only a key written with slashes first is in the path form. */
	p += strcspn(p, "./");
	if (*p == '/') {
		for (; *p != '\0'; p++) {
			if (*p == '/')
				*p = '.';
			else if (*p == '.')
				*p = '/';
		}
	}
	return out;
}

int
sysctld_add_line(struct sysctld_file *f, const char *line, char **cause)
{
	struct sysctld_entry	*e;
	const char		*s, *eq, *k, *v;
	char			*key;
	size_t			 len, klen, vlen;
	int			 dash = 0;

	len = strlen(line);
	s = str_trim(line, &len);
	if (len == 0 || *s == '#' || *s == ';')
		return 0;
	eq = memchr(s, '=', len);
	if (eq == NULL)
		return fail(cause, "line without '=' in '%s': '%.*s'", f->path,
		    (int)len, s);
	klen = eq - s;
	k = str_trim(s, &klen);
	if (klen > 0 && *k == '-') {
		dash = 1;
		k++;
		klen--;
	}
	if (klen == 0)
		return fail(cause, "line without a key in '%s': '%.*s'",
		    f->path, (int)len, s);
	vlen = len - (eq + 1 - s);
	v = str_trim(eq + 1, &vlen);

	key = xstrndup(k, klen);
	f->entries = grow(f->entries, f->n, sizeof *f->entries);
	e = &f->entries[f->n++];
	e->key = sysctld_key_normalise(key);
	e->value = xstrndup(v, vlen);
	e->ignore_errors = dash;
	e->glob = strpbrk(e->key, "*?[") != NULL;
	free(key);
	return 0;
}

const char *
sysctld_file_name(const struct sysctld_file *f)
{
	const char	*slash;

	slash = strrchr(f->path, '/');
	return slash != NULL ? slash + 1 : f->path;
}

int
sysctld_config_path(const char *path, const char **dir)
{
	const char	*slash = strrchr(path, '/');
	size_t		 i, n, len = strlen(path);

	if (dir != NULL)
		*dir = NULL;
	if (strcmp(path, "/etc/sysctl.conf") == 0)
		return 1;
	if (slash == NULL || len - (size_t)(slash - path) <= 6 ||
	    strcmp(path + len - 5, ".conf") != 0)
		return 0;
	n = (size_t)(slash - path);
	for (i = 0; i < SYSCTLD_NDIRS; i++) {
		if (strlen(sysctld_dirs[i]) == n &&
		    strncmp(path, sysctld_dirs[i], n) == 0) {
			if (dir != NULL)
				*dir = sysctld_dirs[i];
			return 1;
		}
	}
	return 0;
}

/* Rank of a file's directory: lower applies with more priority when masking.
 * sysctl.conf (no directory) ranks after everything and is never masked. */
static size_t
dir_rank(const struct sysctld_file *f)
{
	size_t	i;

	if (f->dir == NULL)
		return SYSCTLD_NDIRS + 1;
	for (i = 0; i < SYSCTLD_NDIRS; i++) {
		if (strcmp(f->dir, sysctld_dirs[i]) == 0)
			return i;
	}
	return SYSCTLD_NDIRS;
}

const struct sysctld_file *
sysctld_masked_by(const struct sysctld_set *set, const struct sysctld_file *f)
{
	const struct sysctld_file	*g, *best = NULL;
	size_t				 i, rank, grank, best_rank = 0;
	int				 before = 1;

	if (f->dir == NULL)
		return NULL;
	rank = dir_rank(f);
	for (i = 0; i < set->n; i++) {
		g = set->files[i];
		if (g == f) {
			before = 0;
			continue;
		}
		if (g->dir == NULL ||
		    strcmp(sysctld_file_name(g), sysctld_file_name(f)) != 0)
			continue;
		/* Two files of one name and rank only come from an odd
		 * caller; the one added first wins. */
		grank = dir_rank(g);
		if (grank > rank || (grank == rank && !before))
			continue;
		if (best == NULL || grank < best_rank) {
			best = g;
			best_rank = grank;
		}
	}
	return best;
}

/* Swap '.' and '/' in place: the dotted form to the /proc/sys path form. */
static void
swap_separators(char *s)
{
	for (; *s != '\0'; s++) {
		if (*s == '.')
			*s = '/';
		else if (*s == '/')
			*s = '.';
	}
}

/* Does the glob key match the key? As systemd expands globs over /proc/sys
 * paths, a '*' stays within one level. */
static int
glob_match(const char *glob, const char *key)
{
	char	*g, *k;
	int	 r;

	g = xstrdup(glob);
	k = xstrdup(key);
	swap_separators(g);
	swap_separators(k);
	r = fnmatch(g, k, FNM_PATHNAME) == 0;
	free(g);
	free(k);
	return r;
}

/* A file and its position in the set, for sorts that must be stable. */
struct ranked {
	const struct sysctld_file	*f;
	size_t				 i;
	size_t				 rank;
};

/* Drop-in files by name, then directory rank, then the order added: the
 * first of each name is the one that applies, the others are masked. */
static int
mask_cmp(const void *a, const void *b)
{
	const struct ranked	*x = a, *y = b;
	int			 r;

	if ((r = strcmp(sysctld_file_name(x->f), sysctld_file_name(y->f))) != 0)
		return r;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* The order files apply in: drop-ins by file name, sysctl.conf files last,
 * each in the order added when equal. */
static int
order_cmp(const void *a, const void *b)
{
	const struct ranked	*x = a, *y = b;
	int			 r;

	if ((x->f->dir == NULL) != (y->f->dir == NULL))
		return x->f->dir == NULL ? 1 : -1;
	if (x->f->dir != NULL &&
	    (r = strcmp(sysctld_file_name(x->f), sysctld_file_name(y->f))) != 0)
		return r;
	return x->i < y->i ? -1 : x->i > y->i;
}

void
sysctld_masks(const struct sysctld_set *set, const struct sysctld_file **by)
{
	struct ranked	*r;
	size_t		 i, n = 0, first = 0;

	r = xcalloc(set->n + 1, sizeof *r);
	for (i = 0; i < set->n; i++) {
		by[i] = NULL;
		if (set->files[i]->dir == NULL)
			continue;
		r[n].f = set->files[i];
		r[n].i = i;
		r[n++].rank = dir_rank(set->files[i]);
	}
	qsort(r, n, sizeof *r, mask_cmp);
	for (i = 1; i < n; i++) {
		if (strcmp(sysctld_file_name(r[i].f),
		    sysctld_file_name(r[first].f)) != 0)
			first = i;
		else
			by[r[i].i] = r[first].f;
	}
	free(r);
}

const struct sysctld_file **
sysctld_order(const struct sysctld_set *set, size_t *n)
{
	const struct sysctld_file	**by, **out;
	struct ranked			 *r;
	size_t				  i, k = 0;

	by = xcalloc(set->n + 1, sizeof *by);
	r = xcalloc(set->n + 1, sizeof *r);
	sysctld_masks(set, by);
	for (i = 0; i < set->n; i++) {
		if (by[i] != NULL)
			continue;
		r[k].f = set->files[i];
		r[k++].i = i;
	}
	qsort(r, k, sizeof *r, order_cmp);
	out = xcalloc(k + 1, sizeof *out);
	for (i = 0; i < k; i++)
		out[i] = r[i].f;
	free(r);
	free(by);
	*n = k;
	return out;
}

const struct sysctld_entry *
sysctld_winner_entry(const struct sysctld_set *set, const char *key,
    const struct sysctld_file **file)
{
	const struct sysctld_file	**order;
	const struct sysctld_file	 *f, *wf = NULL, *gf = NULL;
	const struct sysctld_entry	 *e, *w = NULL, *g = NULL;
	char				 *nkey;
	size_t				  n, i, j;

	nkey = sysctld_key_normalise(key);
	order = sysctld_order(set, &n);
	for (i = 0; i < n; i++) {
		f = order[i];
		for (j = 0; j < f->n; j++) {
			e = &f->entries[j];
			if (!e->glob) {
				if (strcmp(e->key, nkey) == 0) {
					w = e;
					wf = f;
				}
			} else if (glob_match(e->key, nkey)) {
				g = e;
				gf = f;
			}
		}
	}
	/* An explicit assignment beats any glob. */
	if (w == NULL) {
		w = g;
		wf = gf;
	}
	free(order);
	free(nkey);
	if (file != NULL)
		*file = wf;
	return w;
}

int
sysctld_winner(const struct sysctld_set *set, const char *key,
    const char **file, const char **value)
{
	const struct sysctld_file	*f;
	const struct sysctld_entry	*e;

	if ((e = sysctld_winner_entry(set, key, &f)) == NULL)
		return 0;
	if (file != NULL)
		*file = f->path;
	if (value != NULL)
		*value = e->value;
	return 1;
}
