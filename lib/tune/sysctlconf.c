/* Ansible's sysctl module, the pure part; the rules are in sysctlconf.h. */
#include "tune/sysctlconf.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/strbuf.h"
#include "base/xalloc.h"

static int
py_space(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r') ||
	    (c >= '\x1c' && c <= '\x1f');
}

/* The stripped part of s[0..len): *start and the length. */
static size_t
strip_span(const char *s, size_t len, size_t *start)
{
	size_t a = 0, b = len;

	while (a < b && py_space(s[a]))
		a++;
	while (b > a && py_space(s[b - 1]))
		b--;
	*start = a;
	return b - a;
}

static char *
strip_dup(const char *s, size_t len)
{
	size_t start, n = strip_span(s, len, &start);

	return xstrndup(s + start, n);
}

char *
sysctlconf_strip(const char *s)
{
	return strip_dup(s, strlen(s));
}

char *
sysctlconf_value(const char *raw)
{
	static const char *const yes[] = { "y", "yes", "on", "1", "true", "t",
	    NULL };
	static const char *const no[] = { "n", "no", "off", "0", "false", "f",
	    NULL };
	size_t i;

	if (raw == NULL)
		return xstrdup("");
	for (i = 0; yes[i] != NULL; i++) {
		if (strcasecmp(raw, yes[i]) == 0)
			return xstrdup("1");
		if (strcasecmp(raw, no[i]) == 0)
			return xstrdup("0");
	}
	return sysctlconf_strip(raw);
}

/* The next whitespace-separated word of *s: its start and length (0 at
 * the end); *s moves past it. */
static size_t
next_word(const char **s, const char **word)
{
	const char *p = *s;
	size_t n = 0;

	while (*p != '\0' && py_space(*p))
		p++;
	*word = p;
	while (p[n] != '\0' && !py_space(p[n]))
		n++;
	*s = p + n;
	return n;
}

int
sysctlconf_values_equal(const char *a, const char *b)
{
	const char	*wa, *wb;
	size_t		 na, nb;

	if (a == NULL || b == NULL)
		return 0;
	for (;;) {
		na = next_word(&a, &wa);
		nb = next_word(&b, &wb);
		if (na != nb || memcmp(wa, wb, na) != 0)
			return 0;
		if (na == 0)
			return 1;
	}
}

/* One line of the file, stripped: a "key=value" line has key set. */
struct conf_line {
	char	*text;
	char	*key;		/* NULL: kept as it is */
	char	*value;
};

struct conf_file {
	struct conf_line	*lines;
	size_t			 n;
};

static void
add_line(struct conf_file *f, const char *s, size_t len)
{
	struct conf_line	*l;
	const char		*eq;

	f->lines = xreallocarray(f->lines, f->n + 1, sizeof *f->lines);
	l = &f->lines[f->n++];
	memset(l, 0, sizeof *l);
	l->text = strip_dup(s, len);
	if (l->text[0] == '\0' || l->text[0] == '#' || l->text[0] == ';' ||
	    (eq = strchr(l->text, '=')) == NULL)
		return;
	l->key = strip_dup(l->text, (size_t)(eq - l->text));
	l->value = sysctlconf_strip(eq + 1);
}

/* The lines as Python's universal newlines split them. */
static void
read_lines(const char *text, struct conf_file *f)
{
	const char *p = text, *end;

	memset(f, 0, sizeof *f);
	while (text != NULL && *p != '\0') {
		end = p + strcspn(p, "\r\n");
		add_line(f, p, (size_t)(end - p));
		if (end[0] == '\r' && end[1] == '\n')
			end++;
		p = *end != '\0' ? end + 1 : end;
	}
}

static void
free_lines(struct conf_file *f)
{
	size_t i;

	for (i = 0; i < f->n; i++) {
		free(f->lines[i].text);
		free(f->lines[i].key);
		free(f->lines[i].value);
	}
	free(f->lines);
}

/* Whether an earlier "key=value" line than i has line i's key. */
static int
seen_before(const struct conf_file *f, size_t i)
{
	size_t j;

	for (j = 0; j < i; j++) {
		if (f->lines[j].key != NULL &&
		    strcmp(f->lines[j].key, f->lines[i].key) == 0)
			return 1;
	}
	return 0;
}

/* fix_lines, then write_sysctl's "each line stripped, then a newline". */
static char *
render(const struct sysctlconf_task *t, const struct conf_file *f)
{
	struct strbuf	sb = STRBUF_INIT;
	size_t		i;
	int		found = 0;

	strbuf_init(&sb);
	for (i = 0; i < f->n; i++) {
		const struct conf_line *l = &f->lines[i];

		if (l->key == NULL)
			strbuf_addf(&sb, "%s\n", l->text);
		else if (seen_before(f, i))
			continue;
		else if (strcmp(l->key, t->name) != 0)
			strbuf_addf(&sb, "%s=%s\n", l->key, l->value);
		else {
			found = 1;
			if (t->present)
				strbuf_addf(&sb, "%s=%s\n", l->key, t->value);
		}
	}
	if (!found && t->present)
		strbuf_addf(&sb, "%s=%s\n", t->name, t->value);
	return strbuf_detach(&sb, NULL);
}

/* The value of the last line of key, or NULL. */
static const char *
file_value(const struct conf_file *f, const char *key)
{
	const char	*v = NULL;
	size_t		 i;

	for (i = 0; i < f->n; i++) {
		if (f->lines[i].key != NULL &&
		    strcmp(f->lines[i].key, key) == 0)
			v = f->lines[i].value;
	}
	return v;
}

void
sysctlconf_plan(const struct sysctlconf_task *t, const char *file_text,
    const char *proc, struct sysctlconf_plan *p)
{
	struct conf_file	 f;
	const char		*fv;

	memset(p, 0, sizeof *p);
	read_lines(file_text, &f);
	p->text = render(t, &f);
	fv = file_value(&f, t->name);
	p->file_value = fv != NULL ? xstrdup(fv) : NULL;
	if (fv == NULL)
		p->changed = p->write_file = t->present;
	else if ((*fv != '\0' && !t->present) || strcmp(fv, t->value) != 0)
		p->changed = p->write_file = 1;
	else if (t->reload && !sysctlconf_values_equal(proc, t->value))
		p->changed = 1;
	if (t->sysctl_set && t->present &&
	    !sysctlconf_values_equal(proc, t->value)) {
		p->changed = 1;
		/* The module never sets a value it could not read. */
		p->set_proc = proc != NULL;
	}
	p->reload = p->changed && t->reload;
	free_lines(&f);
}

void
sysctlconf_plan_free(struct sysctlconf_plan *p)
{
	free(p->text);
	free(p->file_value);
	memset(p, 0, sizeof *p);
}
