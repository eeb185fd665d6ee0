/* The value types of Ansible's base.yml, as ensure_type (config/manager.py)
 * converts them: boolean, integer, string (unquoted), path, list, pathlist,
 * and ssh argument strings split as shlex.split does. */
#include "config/ansible-cfg.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "base/shlex.h"
#include "base/strbuf.h"
#include "base/util.h"
#include "base/xalloc.h"

/* A value becomes an option, a file name or a user name: none may hold a
 * control character (a continuation line's newline included). */
static int
check_one_line(const char *s, char **cause)
{
	for (; *s != '\0'; s++) {
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return fail(cause, "a control character or a line "
			    "break in the value");
	}
	return 0;
}

int
acfg_to_bool(const char *value, int *out, char **cause)
{
	if (ansible_bool_text(value, out))
		return 0;
	return fail(cause, "expected a boolean (yes/no, true/false, on/off, "
	    "1/0)");
}

int
acfg_to_int(const char *value, long long min, long long max, long long *out,
    char **cause)
{
	char		*end;
	long long	 v;

	errno = 0;
	v = strtoll(value, &end, 10);
	if (end == value)	/* no digits */
		return fail(cause, "expected an integer %lld..%lld", min, max);
	while (isspace((unsigned char)*end))
		end++;
	if (*end != '\0' || errno != 0 || v < min || v > max)
		return fail(cause, "expected an integer %lld..%lld", min, max);
	*out = v;
	return 0;
}

/* Ansible's unquote: one pair of matching surrounding quotes, unless the
 * closing one is escaped. */
static char *
unquote(const char *s, size_t len)
{
	if (len > 1 && s[0] == s[len - 1] && (s[0] == '"' || s[0] == '\'') &&
	    s[len - 2] != '\\')
		return xstrndup(s + 1, len - 2);
	return xstrndup(s, len);
}

int
acfg_to_string(const char *value, char **out, char **cause)
{
	char *s = unquote(value, strlen(value));

	if (check_one_line(s, cause) != 0) {
		free(s);
		return -1;
	}
	*out = s;
	return 0;
}

/* os.path.expandvars: $NAME and ${NAME} of set variables; the others are
 * left as they are. */
static void
expand_vars(struct strbuf *sb, const char *s)
{
	const char	*p, *name, *v;
	size_t		 len;
	char		*n;

	for (p = s; *p != '\0'; p++) {
		len = 0;
		if (p[0] == '$' && p[1] == '{' && strchr(p + 2, '}') != NULL) {
			name = p + 2;
			len = (size_t)(strchr(name, '}') - name);
		} else if (p[0] == '$') {
			name = p + 1;
			while (isalnum((unsigned char)name[len]) || name[len] == '_')
				len++;
		}
		if (len == 0) {
			strbuf_addch(sb, *p);
			continue;
		}
		n = xstrndup(name, len);
		if ((v = getenv(n)) != NULL) {
			strbuf_addstr(sb, v);
			p = name + len + (p[1] == '{') - 1;
		} else
			strbuf_addch(sb, *p);
		free(n);
	}
}

/* os.path.normpath for an absolute path: no "//", ".", "..". */
static char *
normalise(const char *path)
{
	struct strbuf	 sb = STRBUF_INIT;
	const char	*p = path, *seg;
	size_t		 len;

	strbuf_init(&sb);
	while (*p != '\0') {
		while (*p == '/')
			p++;
		seg = p;
		while (*p != '\0' && *p != '/')
			p++;
		len = (size_t)(p - seg);
		if (len == 0 || (len == 1 && seg[0] == '.'))
			continue;
		if (len == 2 && seg[0] == '.' && seg[1] == '.') {
			while (sb.len > 0 && sb.buf[sb.len - 1] != '/')
				sb.len--;
			if (sb.len > 0)
				sb.len--;
			sb.buf[sb.len] = '\0';
			continue;
		}
		strbuf_addch(&sb, '/');
		strbuf_add(&sb, seg, len);
	}
	if (sb.len == 0)
		strbuf_addch(&sb, '/');
	return strbuf_detach(&sb, NULL);
}

int
acfg_to_path(const char *value, const char *basedir, char **out,
    char **cause)
{
	struct strbuf	 sb = STRBUF_INIT;
	const char	*home, *cwd_magic, *s;
	char		*joined;

	if (check_one_line(value, cause) != 0)
		return -1;
	strbuf_init(&sb);
	/* resolve_path's magic {{CWD}}: the current directory. */
	cwd_magic = strstr(value, "{{CWD}}");
	if (cwd_magic != NULL) {
		char *cwd = getcwd(NULL, 0);

		strbuf_add(&sb, value, (size_t)(cwd_magic - value));
		strbuf_addstr(&sb, cwd != NULL ? cwd : ".");
		strbuf_addstr(&sb, cwd_magic + 7);
		free(cwd);
		joined = strbuf_detach(&sb, NULL);
		expand_vars(&sb, joined);
		free(joined);
	} else
		expand_vars(&sb, value);
	s = sb.buf;
	if (s[0] == '~' && (s[1] == '/' || s[1] == '\0') &&
	    (home = getenv("HOME")) != NULL)
		joined = xprintf("%s%s", home, s + 1);
	else if (s[0] != '/')
		joined = xprintf("%s/%s", basedir != NULL ? basedir : ".", s);
	else
		joined = xstrdup(s);
	strbuf_release(&sb);
	*out = joined[0] == '/' ? normalise(joined) : xstrdup(joined);
	free(joined);
	return 0;
}

static void
push(char ***items, size_t *n, char *item)
{
	*items = xreallocarray(*items, *n + 1, sizeof **items);
	(*items)[(*n)++] = item;
}

/* Split on ',' and call one() on each non-empty trimmed item. */
static int
split_commas(const char *value, const char *basedir, char ***items,
    size_t *n, int (*one)(const char *, size_t, const char *, char **,
    char **), char **cause)
{
	const char	*p = value, *end, *s;
	size_t		 len;
	char		*item;

	*items = NULL;
	*n = 0;
	for (;;) {
		end = strchr(p, ',');
		len = end != NULL ? (size_t)(end - p) : strlen(p);
		s = p;
		while (len > 0 && isspace((unsigned char)*s)) {
			s++;
			len--;
		}
		while (len > 0 && isspace((unsigned char)s[len - 1]))
			len--;
		if (len > 0) {
			if (one(s, len, basedir, &item, cause) != 0) {
				names_free(*items, *n);
				*items = NULL;
				*n = 0;
				return -1;
			}
			push(items, n, item);
		}
		if (end == NULL)
			return 0;
		p = end + 1;
	}
}

static int
list_item(const char *s, size_t len, const char *basedir, char **out,
    char **cause)
{
	char *raw = unquote(s, len);

	(void)basedir;
	if (check_one_line(raw, cause) != 0) {
		free(raw);
		return -1;
	}
	*out = raw;
	return 0;
}

static int
path_item(const char *s, size_t len, const char *basedir, char **out,
    char **cause)
{
	char	*raw = xstrndup(s, len);
	int	 r = acfg_to_path(raw, basedir, out, cause);

	free(raw);
	return r;
}

int
acfg_to_list(const char *value, char ***items, size_t *n, char **cause)
{
	return split_commas(value, NULL, items, n, list_item, cause);
}

int
acfg_to_pathlist(const char *value, const char *basedir, char ***items,
    size_t *n, char **cause)
{
	return split_commas(value, basedir, items, n, path_item, cause);
}

int
acfg_split_words(const char *value, char ***words, size_t *n, char **cause)
{
	const char *err;

	*words = NULL;
	*n = 0;
	if (check_one_line(value, cause) != 0)
		return -1;
	if (shlex_split(value, 0, words, n, &err) != 0)
		return fail(cause, "%s", err);
	return 0;
}
