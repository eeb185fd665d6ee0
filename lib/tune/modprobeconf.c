/* community.general.modprobe's decisions and file edits (see
 * modprobeconf.h for its rules). */
#include "tune/modprobeconf.h"

#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/xalloc.h"

/* Python's \s for str, restricted to ASCII. */
static int
is_space(int c)
{
	return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c &&
	    c <= 0x1f);
}

static int
is_word(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '_';
}

int
modprobe_name_ok(const char *name)
{
	const char *p;

	if (name == NULL || *name == '\0')
		return 0;
	for (p = name; *p != '\0'; p++) {
		if (!is_word((unsigned char)*p) && *p != '-')
			return 0;
	}
	return 1;
}

/* The tail both expressions share: ` *(?:[#;].*)?\n?\Z` from s to e. A
 * line holds a newline only at its end, so `.*` takes the rest of it. */
static int
tail_ok(const char *s, const char *e)
{
	while (s < e && *s == ' ')
		s++;
	if (s == e || (*s == '\n' && s + 1 == e))
		return 1;
	return *s == '#' || *s == ';';
}

int
modprobe_line_loads(const char *line, size_t len, const char *name)
{
	const char	*s = line, *e = line + len;
	size_t		 nl = strlen(name);

	while (s < e && *s == ' ')
		s++;
	if ((size_t)(e - s) < nl || memcmp(s, name, nl) != 0)
		return 0;
	return tail_ok(s + nl, e);
}

int
modprobe_line_param(const char *line, size_t len, const char *name,
    const char **param, size_t *plen)
{
	const char	*s = line, *e = line + len, *start, *v, *r;
	size_t		 nl = strlen(name);

	if (len < 8 || memcmp(s, "options ", 8) != 0)
		return 0;
	s += 8;
	if ((size_t)(e - s) < nl + 1 || memcmp(s, name, nl) != 0 ||
	    s[nl] != ' ')
		return 0;
	start = s += nl + 1;
	while (s < e && is_word((unsigned char)*s))
		s++;
	if (s == start || s == e || *s != '=')
		return 0;
	v = ++s;
	while (s < e && !is_space((unsigned char)*s))
		s++;
	/* \S+ is greedy: the longest run whose rest still matches. */
	for (r = s; r > v; r--) {
		if (tail_ok(r, e)) {
			*param = start;
			*plen = (size_t)(r - start);
			return 1;
		}
	}
	return 0;
}

/* A set of strings, as Python's set() of the module. */
struct strset {
	char	**v;
	size_t	  n;
};

static void
strset_add(struct strset *set, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < set->n; i++) {
		if (strlen(set->v[i]) == len && memcmp(set->v[i], s, len) == 0)
			return;
	}
	set->v = xreallocarray(set->v, set->n + 1, sizeof *set->v);
	set->v[set->n++] = xstrndup(s, len);
}

static int
strset_has(const struct strset *set, const char *s)
{
	size_t i;

	for (i = 0; i < set->n; i++) {
		if (strcmp(set->v[i], s) == 0)
			return 1;
	}
	return 0;
}

static int
strset_equal(const struct strset *a, const struct strset *b)
{
	size_t i;

	if (a->n != b->n)
		return 0;
	for (i = 0; i < a->n; i++) {
		if (!strset_has(b, a->v[i]))
			return 0;
	}
	return 1;
}

static void
strset_free(struct strset *set)
{
	size_t i;

	for (i = 0; i < set->n; i++)
		free(set->v[i]);
	free(set->v);
}

/* The next word of *p as str.split() takes words: *w and *len; 0 at the
 * end. */
static int
next_word(const char **p, const char **w, size_t *len)
{
	while (**p != '\0' && is_space((unsigned char)**p))
		(*p)++;
	if (**p == '\0')
		return 0;
	*w = *p;
	while (**p != '\0' && !is_space((unsigned char)**p))
		(*p)++;
	*len = (size_t)(*p - *w);
	return 1;
}

static void
param_words(const char *params, struct strset *set)
{
	const char	*p = params, *w;
	size_t		 n;

	while (next_word(&p, &w, &n))
		strset_add(set, w, n);
}

/* The next line of text at *p (its newline included); 0 at the end. */
static int
next_line(const char **p, const char **line, size_t *len)
{
	const char *nl;

	if (**p == '\0')
		return 0;
	*line = *p;
	nl = strchr(*p, '\n');
	*len = nl != NULL ? (size_t)(nl - *p) + 1 : strlen(*p);
	*p += *len;
	return 1;
}

static int
file_loads(const char *text, const char *name)
{
	const char	*p = text, *l;
	size_t		 n;

	while (next_line(&p, &l, &n)) {
		if (modprobe_line_loads(l, n, name))
			return 1;
	}
	return 0;
}

static void
file_params(const char *text, const char *name, struct strset *set)
{
	const char	*p = text, *l, *v;
	size_t		 n, vl;

	while (next_line(&p, &l, &n)) {
		if (modprobe_line_param(l, n, name, &v, &vl))
			strset_add(set, v, vl);
	}
}

/* The edit of path in plan, added with its file's text (NULL: absent). */
static struct modprobe_edit *
edit_of(struct modprobe_plan *plan, const char *path,
    const struct modprobe_file *files, size_t n)
{
	struct modprobe_edit	*e;
	size_t			 i;

	for (i = 0; i < plan->nedits; i++) {
		if (strcmp(plan->edits[i].path, path) == 0)
			return &plan->edits[i];
	}
	plan->edits = xreallocarray(plan->edits, plan->nedits + 1,
	    sizeof *plan->edits);
	e = &plan->edits[plan->nedits++];
	memset(e, 0, sizeof *e);
	e->path = xstrdup(path);
	for (i = 0; i < n; i++) {
		if (strcmp(files[i].path, path) == 0)
			e->old = files[i].text;
	}
	e->text = e->old != NULL ? xstrdup(e->old) : NULL;
	return e;
}

static void
edit_set(struct modprobe_edit *e, char *text)
{
	free(e->text);
	e->text = text;
}

/* Comment out with '#' every line of every file that matches (params: an
 * options line of name, else a line that loads it). */
static void
comment_out(struct modprobe_plan *plan, const struct modprobe_file *files,
    size_t n, const char *name, int params)
{
	struct modprobe_edit	*e;
	struct strbuf		 sb;
	const char		*p, *l, *v;
	size_t			 i, ln, vl;
	int			 hit;

	for (i = 0; i < n; i++) {
		e = edit_of(plan, files[i].path, files, n);
		if (e->text == NULL)
			continue;
		strbuf_init(&sb);
		hit = 0;
		p = e->text;
		while (next_line(&p, &l, &ln)) {
			if (params ? modprobe_line_param(l, ln, name, &v, &vl) :
			    modprobe_line_loads(l, ln, name)) {
				strbuf_addch(&sb, '#');
				hit = 1;
			}
			strbuf_add(&sb, l, ln);
		}
		if (hit)
			edit_set(e, strbuf_detach(&sb, NULL));
		else
			strbuf_release(&sb);
	}
}

/* Drop the edits that leave a file's bytes as they were. */
static void
drop_unchanged(struct modprobe_plan *plan)
{
	size_t i, k = 0;

	for (i = 0; i < plan->nedits; i++) {
		struct modprobe_edit *e = &plan->edits[i];

		if (e->text == NULL || (e->old != NULL &&
		    strcmp(e->old, e->text) == 0)) {
			free(e->path);
			free(e->text);
			continue;
		}
		plan->edits[k++] = *e;
	}
	plan->nedits = k;
}

static char *
options_text(const char *name, const char *params)
{
	struct strbuf	 sb;
	const char	*p = params, *w;
	size_t		 n;

	strbuf_init(&sb);
	while (next_word(&p, &w, &n))
		strbuf_addf(&sb, "%soptions %s %.*s", sb.len > 0 ? "\n" : "",
		    name, (int)n, w);
	strbuf_addch(&sb, '\n');
	return strbuf_detach(&sb, NULL);
}

void
modprobe_plan(const struct modprobe_task *t, int loaded,
    const struct modprobe_file *load_files, size_t nload,
    const struct modprobe_file *opt_files, size_t nopt,
    struct modprobe_plan *plan)
{
	struct strset	 have = { NULL, 0 }, want = { NULL, 0 };
	int		 persistent = 0, params_set;
	size_t		 i;
	char		*path;

	memset(plan, 0, sizeof *plan);
	plan->load = t->present && !loaded;
	plan->unload = !t->present && loaded;
	for (i = 0; i < nload; i++)
		persistent |= file_loads(load_files[i].text, t->name);
	for (i = 0; i < nopt; i++)
		file_params(opt_files[i].text, t->name, &have);
	param_words(t->params != NULL ? t->params : "", &want);
	params_set = strset_equal(&have, &want);
	if (t->persistent == MODPROBE_PERSIST_PRESENT &&
	    !(persistent && params_set)) {
		plan->persist_changed = 1;
		if (!persistent) {
			path = xprintf("%s/%s.conf", MODPROBE_LOAD_DIR,
			    t->name);
			edit_set(edit_of(plan, path, load_files, nload),
			    xprintf("%s\n", t->name));
			free(path);
		}
		if (!params_set) {
			comment_out(plan, opt_files, nopt, t->name, 1);
			path = xprintf("%s/%s.conf", MODPROBE_OPTIONS_DIR,
			    t->name);
			edit_set(edit_of(plan, path, opt_files, nopt),
			    options_text(t->name, t->params != NULL ?
			    t->params : ""));
			free(path);
		}
	} else if (t->persistent == MODPROBE_PERSIST_ABSENT &&
	    (persistent || have.n > 0)) {
		plan->persist_changed = 1;
		if (persistent)
			comment_out(plan, load_files, nload, t->name, 0);
		if (have.n > 0)
			comment_out(plan, opt_files, nopt, t->name, 1);
	}
	drop_unchanged(plan);
	strset_free(&have);
	strset_free(&want);
}

void
modprobe_plan_free(struct modprobe_plan *plan)
{
	size_t i;

	for (i = 0; i < plan->nedits; i++) {
		free(plan->edits[i].path);
		free(plan->edits[i].text);
	}
	free(plan->edits);
	memset(plan, 0, sizeof *plan);
}
