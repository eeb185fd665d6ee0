/* Host pattern evaluation after ansible-core 2.14's InventoryManager
 * (split_host_pattern, order_patterns, _match_one_pattern,
 * _split_subscript, _apply_subscript, _enumerate_matches). */
#include "inventory/pattern.h"

#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inventory/hostrange.h"
#include "inventory/inventory.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

static void
push(char ***v, size_t *n, char *s)
{
	*v = inv_grow(*v, *n, sizeof **v);
	(*v)[(*n)++] = s;
}

static void
push_stripped(char ***v, size_t *n, const char *s, size_t len)
{
	while (len > 0 && isspace((unsigned char)*s)) {
		s++;
		len--;
	}
	while (len > 0 && isspace((unsigned char)s[len - 1]))
		len--;
	if (len != 0)
		push(v, n, xstrndup(s, len));
}

static int
read_pattern_file(const char *path, char ***v, size_t *n, char ***origins,
    size_t *norigins, char **cause)
{
	FILE	*fp;
	char	*line = NULL;
	size_t	 cap = 0;
	ssize_t	 len;
	int	 lineno = 0;

	if ((fp = fopen(path, "r")) == NULL)
		return fail(cause, "unable to read limit file '%s': %s", path,
		    strerror(errno));
	while ((len = getline(&line, &cap, fp)) >= 0) {
		size_t before = *n;

		lineno++;
		push_stripped(v, n, line, (size_t)len);
		if (origins != NULL && *n != before) {
			while (*norigins < before)
				push(origins, norigins, NULL);
			push(origins, norigins, xprintf("%s:%d", path, lineno));
		}
	}
	free(line);
	fclose(fp);
	return 0;
}

/* origins (may be NULL): "file:line" for patterns read from an @file,
 * NULL for the others; the array may be shorter than parts. */
static int
split(const char *pattern, char ***parts, size_t *n, char ***origins,
    size_t *norigins, char **cause)
{
	char		**raw = NULL;
	size_t		  nraw = 0, i;
	const char	 *p, *q;
	int		  port, parsed, r = -1;

	*parts = NULL;
	*n = 0;
	if (strchr(pattern, ',') != NULL) {
		for (p = pattern; p != NULL; p = q == NULL ? NULL : q + 1) {
			q = strchr(p, ',');
			push_stripped(&raw, &nraw, p, q == NULL ? strlen(p) :
			    (size_t)(q - p));
		}
	} else {
		char *host = hostrange_parse_address(pattern, &port, &parsed);

		free(host);
		if (parsed)
			push_stripped(&raw, &nraw, pattern, strlen(pattern));
		else {
			/* (?:[^\s:\[\]]|\[[^\]]*\])+ */
			for (p = pattern; *p != '\0';) {
				const char *s = p;

				for (;;) {
					if (*p == '[' && strchr(p, ']') != NULL)
						p = strchr(p, ']') + 1;
					else if (*p != '\0' && *p != ':' &&
					    *p != '[' && *p != ']' &&
					    !isspace((unsigned char)*p))
						p++;
					else
						break;
				}
				if (p == s)
					p++;
				else
					push(&raw, &nraw, xstrndup(s,
					    (size_t)(p - s)));
			}
		}
	}
	for (i = 0; i < nraw; i++) {
		if (raw[i][0] == '@') {
			if (read_pattern_file(raw[i] + 1, parts, n, origins,
			    norigins, cause) != 0)
				goto out;
		} else {
			push(parts, n, raw[i]);
			raw[i] = NULL;
		}
	}
	r = 0;
out:
	for (i = 0; i < nraw; i++)
		free(raw[i]);
	free(raw);
	if (r != 0) {
		pattern_hosts_free(*parts, *n);
		*parts = NULL;
		*n = 0;
	}
	return r;
}

int
pattern_split(const char *pattern, char ***parts, size_t *n, char **cause)
{
	return split(pattern, parts, n, NULL, NULL, cause);
}

void
pattern_hosts_free(char **hosts, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(hosts[i]);
	free(hosts);
}

/* A list of hosts with duplicates allowed (Ansible applies subscripts
 * before removing them). */
struct hlist {
	const struct inv_host	**v;
	size_t			  n;
};

static void
hl_add(struct hlist *l, const struct inv_host *h)
{
	l->v = inv_grow(l->v, l->n, sizeof *l->v);
	l->v[l->n++] = h;
}

struct matcher {
	int	 regex;
	regex_t	 re;
	char	*glob;
};

/* glibc's regcomp copies the operand of a counted repetition once per count
 * and nests stacked repeat operators, so a short '~' pattern can ask for
 * gigabytes ("((a{99}){99}){99}", "e++++..."). Such patterns are refused
 * before compiling: a repeat after a repeat, beyond Python's lazy or
 * possessive suffix ("a*?", "a++"), is "multiple repeat" as in Python's re;
 * and the pattern may not count more than PATTERN_REGEX_MAX_SIZE atoms once
 * its repetitions are expanded. */
#define PATTERN_REGEX_MAX_SIZE	50000
#define PATTERN_REGEX_MAX_DEPTH	64

/* A counted repetition at p ("{m}", "{m,}", "{m,n}"): its largest count,
 * and *end past it; 0 if p is not one. */
static unsigned long long
regex_interval(const char *p, const char **end)
{
	unsigned long long	 m = 0, n;
	const char		*q = p + 1;

	if (!isdigit((unsigned char)*q))
		return 0;
	while (isdigit((unsigned char)*q) && m <= PATTERN_REGEX_MAX_SIZE)
		m = m * 10 + (unsigned long long)(*q++ - '0');
	n = m;
	if (*q == ',') {
		q++;
		n = m + 1;
		if (isdigit((unsigned char)*q)) {
			n = 0;
			while (isdigit((unsigned char)*q) &&
			    n <= PATTERN_REGEX_MAX_SIZE)
				n = n * 10 + (unsigned long long)(*q++ - '0');
		}
	}
	while (isdigit((unsigned char)*q))
		q++;
	if (*q != '}')
		return 0;
	*end = q + 1;
	return (n > m ? n : m) + (m == 0 && n == 0);
}

/* NULL, or why the regex is refused. */
static const char *
regex_refused(const char *p)
{
	unsigned long long	 size[PATTERN_REGEX_MAX_DEPTH + 1], last = 0, k;
	const char		*end;
	int			 depth = 0, repeats = 0;

	size[0] = 0;
	while (*p != '\0') {
		if (*p == '*' || *p == '+' || *p == '?' ||
		    (*p == '{' && (k = regex_interval(p, &end)) != 0)) {
			if (repeats > 1 || (repeats == 1 && *p != '?' &&
			    *p != '+'))
				return "multiple repeat";
			if (repeats++ == 0 && *p == '{') {
				if (last != 0 && k - 1 > PATTERN_REGEX_MAX_SIZE /
				    last)
					return "too large once its repetitions "
					    "are expanded";
				size[depth] += last * (k - 1);
				last *= k;
			}
			p = *p == '{' ? end : p + 1;
		} else if (*p == '(') {
			if (depth == PATTERN_REGEX_MAX_DEPTH)
				return "groups nested too deeply";
			size[++depth] = 0;
			repeats = 0;
			p++;
			continue;
		} else if (*p == ')' && depth > 0) {
			last = size[depth--] + 1;
			size[depth] += last;
			repeats = 0;
			p++;
		} else {
			if (*p == '\\' && p[1] != '\0')
				p++;
			else if (*p == '[') {
				/* a bracket expression is one atom */
				end = p + 1 + (p[1] == '^');
				if (*end == ']')
					end++;
				if ((end = strchr(end, ']')) == NULL)
					return NULL;	/* regcomp says */
				p = end;
			}
			p++;
			last = 1;
			size[depth]++;
			repeats = 0;
		}
		if (size[depth] > PATTERN_REGEX_MAX_SIZE)
			return "too large once its repetitions are expanded";
	}
	return NULL;
}

static int
matcher_init(struct matcher *m, const char *pattern, char **cause)
{
	const char	*why;
	char		 buf[256];
	int		 e;

	memset(m, 0, sizeof *m);
	if (pattern[0] == '~') {
		if ((why = regex_refused(pattern + 1)) != NULL)
			return fail(cause, "invalid host pattern '%s': %s",
			    pattern, why);
		if ((e = regcomp(&m->re, pattern + 1, REG_EXTENDED)) != 0) {
			regerror(e, &m->re, buf, sizeof buf);
			return fail(cause, "invalid host pattern '%s': %s",
			    pattern, buf);
		}
		m->regex = 1;
	} else
		m->glob = xstrdup(pattern);
	return 0;
}

static int
matcher_match(struct matcher *m, const char *s)
{
	regmatch_t pm;

	if (m->regex)
		return regexec(&m->re, s, 1, &pm, 0) == 0 && pm.rm_so == 0;
	return fnmatch(m->glob, s, 0) == 0;
}

static void
matcher_free(struct matcher *m)
{
	if (m->regex)
		regfree(&m->re);
	free(m->glob);
}

static int
enumerate(const struct inventory *inv, const char *pattern, struct hlist *out,
    char **cause)
{
	struct matcher	  m;
	size_t		  i, j, nh, ngroups = 0;
	const char	**names;

	if (matcher_init(&m, pattern, cause) != 0)
		return -1;
	for (i = 0; i < inv->ngroups; i++) {
		if (!matcher_match(&m, inv->groups[i]->name))
			continue;
		ngroups++;
		inventory_group_hosts(inv, inv->groups[i]->name, &names, &nh);
		for (j = 0; j < nh; j++)
			hl_add(out, inventory_host(inv, names[j]));
		free(names);
	}
	if (ngroups == 0 || pattern[0] == '~' ||
	    strpbrk(pattern, ".?*[") != NULL) {
		for (i = 0; i < inv->nhosts; i++) {
			if (matcher_match(&m, inv->hosts[i]->name))
				hl_add(out, inv->hosts[i]);
		}
	}
	matcher_free(&m);
	return 0;
}

/* (.+)\[(?:(-?[0-9]+)|([0-9]+)([:-])([0-9]*))\]$ */
static int
split_subscript(const char *pattern, char **expr, long *start, long *end,
    int *has)
{
	size_t		 len = strlen(pattern);
	const char	*open, *p;
	char		*e;

	*has = 0;
	*expr = xstrdup(pattern);
	if (pattern[0] == '~' || len < 4 || pattern[len - 1] != ']')
		return 0;
	if ((open = strrchr(pattern, '[')) == NULL || open == pattern)
		return 0;
	p = open + 1;
	if (*p == '-' || isdigit((unsigned char)*p)) {
		long v = strtol(p, &e, 10);

		if (e != p && *e == ']' && e == pattern + len - 1 &&
		    (isdigit((unsigned char)*p) || isdigit((unsigned char)p[1]))) {
			*start = v;
			*end = 0;
			*has = 1;
		} else if (isdigit((unsigned char)*p) && (*e == ':' ||
		    *e == '-')) {
			const char *q = e + 1;

			*start = v;
			if (*q == ']')
				*end = -1;
			else {
				*end = strtol(q, &e, 10);
				if (!isdigit((unsigned char)*q) || *e != ']')
					return 0;
				q = e;
			}
			if (*q != ']' || q != pattern + len - 1)
				return 0;
			*has = 2;
		} else
			return 0;
		(*expr)[open - pattern] = '\0';
	}
	return 0;
}

static int
match_one(const struct inventory *inv, const char *p, struct hlist *out,
    char **cause)
{
	char		*expr;
	long		 start = 0, end = 0;
	int		 has, r = -1;
	struct hlist	 all = { NULL, 0 };
	size_t		 i;

	if (p[0] == '&' || p[0] == '!')
		p++;
	split_subscript(p, &expr, &start, &end, &has);
	if (enumerate(inv, expr, &all, cause) != 0)
		goto out;
	if (all.n == 0 || !has) {
		*out = all;
		all.v = NULL;
		r = 0;
		goto out;
	}
	if (has == 1 || end == 0) {
		long idx = start < 0 ? (long)all.n + start : start;

		if (idx < 0 || idx >= (long)all.n) {
			fail(cause, "no hosts matched the subscripted pattern "
			    "'%s'", p);
			goto out;
		}
		hl_add(out, all.v[idx]);
	} else {
		if (end == -1)
			end = (long)all.n - 1;
		for (i = (size_t)start; i < all.n && (long)i <= end; i++)
			hl_add(out, all.v[i]);
	}
	r = 0;
out:
	free(all.v);
	free(expr);
	return r;
}

/* The evaluated hosts, deduplicated, as inv_host pointers. */
static int
evaluate(const struct inventory *inv, const char *pattern, struct hlist *res,
    char **cause)
{
	char		**parts = NULL, **ordered, **origins = NULL;
	const char	**origin_of;
	size_t		  n = 0, no = 0, i, j, k, norigins = 0;
	char		 *in = NULL;
	int		  pass, r = -1;

	memset(res, 0, sizeof *res);
	if (split(pattern, &parts, &n, &origins, &norigins, cause) != 0)
		return -1;
	/* order_patterns: plain, then &, then ! */
	ordered = xcalloc(n + 1, sizeof *ordered);
	origin_of = xcalloc(n + 1, sizeof *origin_of);
	for (pass = 0; pass < 3; pass++) {
		for (i = 0; i < n; i++) {
			int kind = parts[i][0] == '&' ? 1 :
			    parts[i][0] == '!' ? 2 : 0;

			if (kind == pass) {
				origin_of[no] = i < norigins ? origins[i] : NULL;
				ordered[no++] = parts[i];
			}
		}
		if (pass == 0 && no == 0)
			ordered[no++] = "all";
	}
	in = xcalloc(inv->nhosts + 1, 1);
	for (i = 0; i < no; i++) {
		const char		*p = ordered[i];
		const struct inv_host	*h = inventory_host(inv, p);
		struct hlist		 that = { NULL, 0 };
		char			*mark;

		if (h != NULL) {
			if (!in[h->index]) {
				in[h->index] = 1;
				hl_add(res, h);
			}
			continue;
		}
		if (match_one(inv, p, &that, cause) != 0) {
			if (origin_of[i] != NULL && cause != NULL) {
				char *msg = *cause;

				*cause = xprintf("%s: %s", origin_of[i], msg);
				free(msg);
			}
			goto out;
		}
		if (p[0] == '!' || p[0] == '&') {
			mark = xcalloc(inv->nhosts + 1, 1);
			for (j = 0; j < that.n; j++)
				mark[that.v[j]->index] = 1;
			for (j = 0, k = 0; j < res->n; j++) {
				int keep = p[0] == '!' ? !mark[res->v[j]->index] :
				    mark[res->v[j]->index];

				if (keep)
					res->v[k++] = res->v[j];
				else
					in[res->v[j]->index] = 0;
			}
			res->n = k;
			free(mark);
		} else {
			for (j = 0; j < that.n; j++) {
				if (!in[that.v[j]->index]) {
					in[that.v[j]->index] = 1;
					hl_add(res, that.v[j]);
				}
			}
		}
		free(that.v);
	}
	r = 0;
out:
	if (r != 0) {
		free(res->v);
		memset(res, 0, sizeof *res);
	}
	free(in);
	free(ordered);
	free(origin_of);
	pattern_hosts_free(parts, n);
	pattern_hosts_free(origins, norigins);
	return r;
}

int
inventory_select_limit(const struct inventory *inv, const char *pattern,
    const char *limit, char ***hosts, size_t *n, char **cause)
{
	struct hlist	 res, lim = { NULL, 0 };
	char		*keep = NULL;
	size_t		 i;

	*hosts = NULL;
	*n = 0;
	if (evaluate(inv, pattern, &res, cause) != 0)
		return -1;
	if (limit != NULL) {
		if (evaluate(inv, limit, &lim, cause) != 0) {
			free(res.v);
			return -1;
		}
		keep = xcalloc(inv->nhosts + 1, 1);
		for (i = 0; i < lim.n; i++)
			keep[lim.v[i]->index] = 1;
	}
	*hosts = xcalloc(res.n + 1, sizeof **hosts);
	for (i = 0; i < res.n; i++) {
		if (keep == NULL || keep[res.v[i]->index])
			(*hosts)[(*n)++] = xstrdup(res.v[i]->name);
	}
	free(keep);
	free(res.v);
	free(lim.v);
	return 0;
}

int
inventory_select(const struct inventory *inv, const char *pattern,
    char ***hosts, size_t *n, char **cause)
{
	return inventory_select_limit(inv, pattern, NULL, hosts, n, cause);
}
