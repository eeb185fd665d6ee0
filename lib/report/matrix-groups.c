/* The groups of the path matrix; the rule is in matrix-groups.h. */
#include "report/matrix-groups.h"

#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

#define SEARCH_BUDGET	2000000L

/* A candidate group: the measured hosts it holds, as indexes. */
struct cand {
	const struct inv_group	*g;
	size_t			*members;
	size_t			 n;
};

struct search {
	struct cand	*c;
	size_t		 nc;
	size_t		 nh;
	int		*owner;		/* host -> candidate, -1 */
	size_t		*chosen;
	size_t		 nchosen;
	size_t		*best;
	size_t		 nbest;
	long		 best_depth;
	long		 budget;
};

/* The measured hosts, each once, in input order (borrowed names). */
static const char **
measured_hosts(const struct matrix_input *in, json_t *index, size_t *n)
{
	const char	**h = xcalloc(2 * in->n + 1, sizeof *h);
	const char	 *name;
	size_t		  i;
	int		  end;

	*n = 0;
	for (i = 0; i < in->n; i++) {
		for (end = 0; end < 2; end++) {
			name = end == 0 ? in->pairs[i].host : in->pairs[i].peer;
			if (json_object_get(index, name) != NULL)
				continue;
			json_object_set_new(index, name,
			    json_integer((json_int_t)*n));
			h[(*n)++] = name;
		}
	}
	return h;
}

static int
same_members(const struct cand *a, const struct cand *b)
{
	return a->n == b->n && memcmp(a->members, b->members,
	    a->n * sizeof *a->members) == 0;
}

static int
cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return (x > y) - (x < y);
}

/* Deeper first, then inventory order: the order the search tries. */
static int
cmp_cand(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	if (x->g->depth != y->g->depth)
		return x->g->depth > y->g->depth ? -1 : 1;
	return (x->g->index > y->g->index) - (x->g->index < y->g->index);
}

static size_t
candidates(const struct inventory *inv, const json_t *index, size_t nh,
    struct cand **out)
{
	struct cand	*c = NULL, cur;
	const char	**members;
	const json_t	*j;
	size_t		 i, k, m, n = 0;

	for (i = 0; i < inv->ngroups; i++) {
		const struct inv_group *g = inv->groups[i];

		if (strcmp(g->name, "all") == 0 ||
		    strcmp(g->name, "ungrouped") == 0 ||
		    inventory_group_hosts(inv, g->name, &members, &m) != 0)
			continue;
		cur.g = g;
		cur.members = xcalloc(m + 1, sizeof *cur.members);
		cur.n = 0;
		for (k = 0; k < m; k++) {
			if ((j = json_object_get(index, members[k])) != NULL)
				cur.members[cur.n++] =
				    (size_t)json_integer_value(j);
		}
		free(members);
		qsort(cur.members, cur.n, sizeof *cur.members, cmp_size);
		for (k = 0; k < n; k++) {
			if (same_members(&c[k], &cur))
				break;
		}
		if (cur.n == 0 || cur.n == nh || k < n) {
			/* The deeper of two groups with the same hosts. */
			if (k < n && cur.g->depth > c[k].g->depth)
				c[k].g = g;
			free(cur.members);
			continue;
		}
		c = xreallocarray(c, n + 1, sizeof *c);
		c[n++] = cur;
	}
	if (n > 0)
		qsort(c, n, sizeof *c, cmp_cand);
	*out = c;
	return n;
}

static int
cmp_inventory_order(const void *a, const void *b)
{
	const struct cand *x = *(const struct cand *const *)a;
	const struct cand *y = *(const struct cand *const *)b;

	return (x->g->index > y->g->index) - (x->g->index < y->g->index);
}

static void
dfs(struct search *s, long depth_sum)
{
	size_t	h, i, k;
	int	ok;

	for (h = 0; h < s->nh && s->owner[h] >= 0; h++)
		;
	s->budget -= (long)h + 1;
	if (h == s->nh) {
		if (s->nchosen > s->nbest || (s->nchosen == s->nbest &&
		    depth_sum > s->best_depth)) {
			memcpy(s->best, s->chosen, s->nchosen *
			    sizeof *s->chosen);
			s->nbest = s->nchosen;
			s->best_depth = depth_sum;
		}
		return;
	}
	for (i = 0; i < s->nc && s->budget > 0; i++) {
		const struct cand *c = &s->c[i];

		if (bsearch(&h, c->members, c->n, sizeof h, cmp_size) == NULL)
			continue;
		ok = 1;
		for (k = 0; k < c->n && ok; k++)
			ok = s->owner[c->members[k]] < 0;
		s->budget -= (long)c->n;
		if (!ok)
			continue;
		for (k = 0; k < c->n; k++)
			s->owner[c->members[k]] = (int)i;
		s->chosen[s->nchosen++] = i;
		dfs(s, depth_sum + c->g->depth);
		s->nchosen--;
		for (k = 0; k < c->n; k++)
			s->owner[c->members[k]] = -1;
	}
}

static void
choose_default(struct matrix_groups *g, const struct inventory *inv,
    const struct matrix_input *in)
{
	struct search	 s;
	json_t		*index = json_object();
	const char	**hosts;
	const struct cand **chosen = NULL;
	size_t		 nh, i, k;

	hosts = measured_hosts(in, index, &nh);
	memset(&s, 0, sizeof s);
	s.nh = nh;
	s.nc = candidates(inv, index, nh, &s.c);
	s.owner = xcalloc(nh + 1, sizeof *s.owner);
	for (i = 0; i < nh; i++)
		s.owner[i] = -1;
	s.chosen = xcalloc(s.nc + 1, sizeof *s.chosen);
	s.best = xcalloc(s.nc + 1, sizeof *s.best);
	s.budget = SEARCH_BUDGET;
	if (nh > 0)
		dfs(&s, 0);
	if (s.nbest > 0) {
		matrix_groups_init(g, "inventory");
		/* Groups in inventory order, which is how people wrote
		 * them (regions usually in some order of their own). */
		chosen = xcalloc(s.nbest, sizeof *chosen);
		for (i = 0; i < s.nbest; i++)
			chosen[i] = &s.c[s.best[i]];
		qsort(chosen, s.nbest, sizeof *chosen, cmp_inventory_order);
		for (i = 0; i < s.nbest; i++) {
			const struct cand *c = chosen[i];

			for (k = 0; k < c->n; k++)
				matrix_groups_place(g, c->g->name,
				    hosts[c->members[k]]);
		}
	} else {
		matrix_groups_init(g, "all");
		for (i = 0; i < nh; i++)
			matrix_groups_place(g, "all", hosts[i]);
	}
	for (i = 0; i < s.nc; i++)
		free(s.c[i].members);
	free(s.c);
	free(chosen);
	free(s.owner);
	free(s.chosen);
	free(s.best);
	free(hosts);
	json_decref(index);
}

/* The names of var as a JSON list in *names (always set: the caller
 * frees it), each checked against the inventory. */
static int
parse_var(const struct inventory *inv, const json_t *var, json_t **names,
    char **cause)
{
	json_t		*list = json_array();
	const json_t	*it;
	const char	*s, *comma, *name;
	size_t		 i, len;

	*names = list;
	if (json_is_string(var)) {
		/* -e matrix_groups=eu,us */
		for (s = json_string_value(var); *s != '\0'; s = comma + 1) {
			comma = strchr(s, ',');
			len = comma != NULL ? (size_t)(comma - s) : strlen(s);
			json_array_append_new(list,
			    json_stringn(s, len));
			if (comma == NULL)
				break;
		}
	} else if (json_is_array(var)) {
		json_array_foreach(var, i, it) {
			if (!json_is_string(it))
				return fail(cause, "matrix_groups: item %zu "
				    "is not a group name", i + 1);
			json_array_append(list, (json_t *)it);
		}
	} else
		return fail(cause, "matrix_groups: expected a list of "
		    "inventory group names");
	if (json_array_size(list) == 0)
		return fail(cause, "matrix_groups: the list is empty");
	json_array_foreach(list, i, it) {
		name = json_string_value(it);
		if (inventory_group(inv, name) == NULL)
			return fail(cause, "matrix_groups: '%s' is not a "
			    "group of the inventory", name);
	}
	return 0;
}

static void
choose_listed(struct matrix_groups *g, const struct inventory *inv,
    const json_t *names, const struct matrix_input *in)
{
	const char	**groups;
	const char	 *host;
	size_t		  i, k, n;
	int		  end;

	matrix_groups_init(g, "matrix_groups");
	for (i = 0; i < json_array_size(names); i++)
		matrix_groups_place(g, json_string_value(json_array_get(names,
		    i)), NULL);
	for (i = 0; i < in->n; i++) {
		for (end = 0; end < 2; end++) {
			host = end == 0 ? in->pairs[i].host : in->pairs[i].peer;
			if (matrix_groups_of(g, host) >= 0 ||
			    inventory_host_groups(inv, host, &groups, &n) != 0)
				continue;
			/* The first listed group the host is in. */
			for (k = 0; k < g->n; k++) {
				const char *want = g->names[k];
				size_t j;

				for (j = 0; j < n; j++) {
					if (strcmp(groups[j], want) == 0)
						break;
				}
				if (j < n) {
					matrix_groups_place(g, want, host);
					break;
				}
			}
			free(groups);
		}
	}
}

int
matrix_groups_choose(struct matrix_groups *g, const struct inventory *inv,
    const json_t *var, const struct matrix_input *in, char **cause)
{
	json_t	*names = NULL;
	int	 r = 0;

	if (var == NULL || json_is_null(var))
		choose_default(g, inv, in);
	else if ((r = parse_var(inv, var, &names, cause)) == 0)
		choose_listed(g, inv, names, in);
	else
		matrix_groups_init(g, "matrix_groups");
	json_decref(names);
	return r;
}
