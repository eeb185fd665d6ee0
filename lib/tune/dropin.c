/* The managed drop-in; the rules are in dropin.h. */

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "tune/dropin.h"
#include "remote/hostline.h"
#include "base/strbuf.h"
#include "remote/sysctld.h"
#include "base/xalloc.h"
#include "base/util.h"

void
dropin_init(struct dropin *d)
{
	d->entries = NULL;
	d->n = 0;
}

void
dropin_free(struct dropin *d)
{
	size_t	i;

	for (i = 0; i < d->n; i++) {
		free(d->entries[i].key);
		free(d->entries[i].value);
		free(d->entries[i].reason);
	}
	free(d->entries);
	dropin_init(d);
}

/* The key in dotted form without a leading '-', a new string. */
static char *
dropin_key(const char *key, int *dash)
{
	char	*k, *out;

	k = sysctld_key_normalise(key);
	if (*k == '-') {
		out = xstrdup(k + 1);
		free(k);
		if (dash != NULL)
			*dash = 1;
		return out;
	}
	if (dash != NULL)
		*dash = 0;
	return k;
}

static struct dropin_entry *
dropin_lookup(const struct dropin *d, const char *key)
{
	char	*k;
	size_t	 i;

	k = dropin_key(key, NULL);
	for (i = 0; i < d->n; i++) {
		if (strcmp(d->entries[i].key, k) == 0) {
			free(k);
			return &d->entries[i];
		}
	}
	free(k);
	return NULL;
}

/* Set with an explicit '-' flag; returns the entry. */
static struct dropin_entry *
dropin_put(struct dropin *d, const char *key, const char *value,
    const char *reason)
{
	struct dropin_entry	*e;
	char			*k;
	int			 dash;

	k = dropin_key(key, &dash);
	if ((e = dropin_lookup(d, k)) != NULL) {
		free(k);
		free(e->value);
		free(e->reason);
	} else {
		d->entries = xreallocarray(d->entries, d->n + 1,
		    sizeof *d->entries);
		e = &d->entries[d->n++];
		e->key = k;
	}
	e->value = xstrdup(value);
	e->reason = reason != NULL ? xstrdup(reason) : NULL;
	e->ignore_errors = dash;
	return e;
}

void
dropin_set(struct dropin *d, const char *key, const char *value,
    const char *reason)
{
	dropin_put(d, key, value, reason);
}

const struct dropin_entry *
dropin_find(const struct dropin *d, const char *key)
{
	return dropin_lookup(d, key);
}

const char *
dropin_get(const struct dropin *d, const char *key)
{
	const struct dropin_entry	*e;

	if ((e = dropin_lookup(d, key)) == NULL)
		return NULL;
	return e->value;
}

int
dropin_remove(struct dropin *d, const char *key)
{
	struct dropin_entry	*e;
	size_t			 i;

	if ((e = dropin_lookup(d, key)) == NULL)
		return 0;
	i = e - d->entries;
	free(e->key);
	free(e->value);
	free(e->reason);
	memmove(e, e + 1, (d->n - i - 1) * sizeof *e);
	d->n--;
	return 1;
}

/* Add text as "# " comment lines, one per line of text ("#" alone for an
 * empty line, so no line ends in a blank). */
/* A reason is comment lines: each split at '\n' must be one line. */
static int
reason_check(const char *reason, char **cause)
{
	char	*copy = xstrdup(reason), *line, *save = NULL;
	int	 r = 0;

	for (line = strtok_r(copy, "\n", &save); line != NULL && r == 0;
	    line = strtok_r(NULL, "\n", &save))
		r = hostline_text(line, HOSTLINE_VALUE_MAX, "reason", cause);
	free(copy);
	return r;
}

static void
add_comment(struct strbuf *sb, const char *text)
{
	const char	*p = text;
	size_t		 len;

	for (;;) {
		len = strcspn(p, "\n");
		if (len == 0)
			strbuf_addstr(sb, "#\n");
		else
			strbuf_addf(sb, "# %.*s\n", (int)len, p);
		if (p[len] == '\0' || p[len + 1] == '\0')
			break;
		p += len + 1;
	}
}

/* The gate over every string the file is made of (lib/remote/hostline.h): a
 * value or a header field with a line break would add a key. */
static int
dropin_check(const struct dropin *d, const char *playbook, const char *path,
    char **cause)
{
	const struct dropin_entry	*e;
	char				*why = NULL;
	size_t				 i;

	if (hostline_dropin_path(path, cause) != 0)
		return -1;
	if (playbook != NULL && hostline_text(playbook, HOSTLINE_PATH_MAX,
	    "playbook name", cause) != 0)
		return -1;
	for (i = 0; i < d->n; i++) {
		e = &d->entries[i];
		if (hostline_sysctl_key(e->key, &why) != 0 ||
		    hostline_sysctl_value(e->value, &why) != 0 || (e->reason != NULL && reason_check(e->reason,
		    &why) != 0)) {
			fail(cause, "'%s': %s", path, why);
			free(why);
			return -1;
		}
	}
	return 0;
}

char *
dropin_render(const struct dropin *d, const char *playbook, const char *path,
    char **cause)
{
	struct strbuf		 sb;
	const struct dropin_entry *e;
	size_t			 i;

	if (path == NULL)
		path = DROPIN_DEFAULT_PATH;
	if (dropin_check(d, playbook, path, cause) != 0)
		return NULL;
	strbuf_init(&sb);
	strbuf_addstr(&sb, "# Managed by tcptune \xe2\x80\x94 do not edit; "
	    "changes are overwritten.\n");
	if (playbook != NULL)
		strbuf_addf(&sb, "# Playbook: %s\n", playbook);
	strbuf_addf(&sb, "# Apply: sysctl -p %s   Roll back: tcptune "
	    "rollback\n", path);
	for (i = 0; i < d->n; i++) {
		e = &d->entries[i];
		strbuf_addch(&sb, '\n');
		if (e->reason != NULL && *e->reason != '\0')
			add_comment(&sb, e->reason);
		strbuf_addf(&sb, "%s%s = %s\n", e->ignore_errors ? "-" : "",
		    e->key, e->value);
	}
	return strbuf_detach(&sb, NULL);
}

int
dropin_parse(const char *text, struct dropin *out, char **cause)
{
	struct strbuf		 comment;
	const char		*line, *nl, *s, *eq, *k, *v;
	char			*key = NULL, *value = NULL;
	size_t			 len, klen, vlen, lineno = 0;
	int			 have_comment = 0, r = -1;

	dropin_init(out);
	strbuf_init(&comment);
	for (line = text; *line != '\0'; line = nl + 1) {
		lineno++;
		nl = strchr(line, '\n');
		if (nl == NULL)
			nl = line + strlen(line) - 1;	/* last, no newline */
		len = nl - line + (*nl != '\n');
		s = str_trim(line, &len);
		if (len == 0) {
			/* A blank line detaches comments from the next key
			 * (the header, or notes about the file). */
			strbuf_reset(&comment);
			have_comment = 0;
			continue;
		}
		if (*s == '#' || *s == ';') {
			s++;
			len--;
			if (len > 0 && *s == ' ') {
				s++;
				len--;
			}
			if (have_comment)
				strbuf_addch(&comment, '\n');
			strbuf_add(&comment, s, len);
			have_comment = 1;
			continue;
		}
		eq = memchr(s, '=', len);
		if (eq == NULL) {
			fail(cause, "line %zu: no '=' in '%.*s'", lineno,
			    (int)len, s);
			goto out;
		}
		klen = eq - s;
		k = str_trim(s, &klen);
		if (klen == 0 || (klen == 1 && *k == '-')) {
			fail(cause, "line %zu: no key in '%.*s'", lineno,
			    (int)len, s);
			goto out;
		}
		vlen = len - (eq + 1 - s);
		v = str_trim(eq + 1, &vlen);
		key = xstrndup(k, klen);
		value = xstrndup(v, vlen);
		dropin_put(out, key, value, have_comment ? comment.buf : NULL);
		free(key);
		free(value);
		key = value = NULL;
		strbuf_reset(&comment);
		have_comment = 0;
	}
	r = 0;
out:
	strbuf_release(&comment);
	return r;
}

char *
sysctl_value_normalise(const char *s)
{
	struct strbuf	sb;
	int		space = 0;

	strbuf_init(&sb);
	while (isspace((unsigned char)*s))
		s++;
	for (; *s != '\0'; s++) {
		if (isspace((unsigned char)*s)) {
			space = 1;
			continue;
		}
		if (space)
			strbuf_addch(&sb, ' ');
		space = 0;
		strbuf_addch(&sb, *s);
	}
	return strbuf_detach(&sb, NULL);
}

int
sysctl_value_equal(const char *a, const char *b)
{
	char	*na, *nb;
	int	 eq;

	na = sysctl_value_normalise(a);
	nb = sysctl_value_normalise(b);
	eq = strcmp(na, nb) == 0;
	free(na);
	free(nb);
	return eq;
}

int
dropin_same_values(const struct dropin *a, const struct dropin *b)
{
	size_t	i;

	if (a->n != b->n)
		return 0;
	for (i = 0; i < a->n; i++) {
		if (strcmp(a->entries[i].key, b->entries[i].key) != 0 ||
		    !sysctl_value_equal(a->entries[i].value,
		    b->entries[i].value))
			return 0;
	}
	return 1;
}
