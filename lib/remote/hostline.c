/* The gate for host lines; the rules are in hostline.h. */
#include "remote/hostline.h"

#include <string.h>

#include "base/strbuf.h"
#include "base/util.h"
#include "base/xalloc.h"

/* s shown safely: at most HOSTLINE_QUOTE_MAX bytes, control bytes and
 * backslashes escaped, "…" when cut. A new string. */
static char *
quoted(const char *s)
{
	struct strbuf	sb = STRBUF_INIT;
	size_t		i;

	strbuf_init(&sb);
	for (i = 0; s[i] != '\0' && i < HOSTLINE_QUOTE_MAX; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '\n')
			strbuf_addstr(&sb, "\\n");
		else if (c == '\r')
			strbuf_addstr(&sb, "\\r");
		else if (c == '\t')
			strbuf_addstr(&sb, "\\t");
		else if (c == '\\')
			strbuf_addstr(&sb, "\\\\");
		else if (c < 0x20 || c == 0x7f)
			strbuf_addf(&sb, "\\x%02x", c);
		else
			strbuf_addch(&sb, (char)c);
	}
	if (s[i] != '\0')
		strbuf_addstr(&sb, "…");
	return strbuf_detach(&sb, NULL);
}

static const char *
control_name(unsigned char c)
{
	switch (c) {
	case '\n': return "a line feed (U+000A)";
	case '\r': return "a carriage return (U+000D)";
	case 0x1b: return "an escape (U+001B)";
	case 0x7f: return "a delete (U+007F)";
	default: return "a control character";
	}
}

/* Bytes that are never part of a line we write: every C0 control but tab,
 * and DEL. Returns the offset of the first, or -1. */
static long
first_control(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if ((c < 0x20 && c != '\t') || c == 0x7f)
			return (long)i;
	}
	return -1;
}

static int
refuse(char **cause, const char *what, const char *s, const char *fmt,
    const char *detail)
{
	char *q = quoted(s), *why = xprintf(fmt, detail);

	fail(cause, "%s %s: '%s'", what, why, q);
	free(why);
	free(q);
	return -1;
}

int
hostline_text(const char *s, size_t max, const char *what, char **cause)
{
	size_t	len = strlen(s);
	long	bad = first_control(s, len);

	if (bad >= 0) {
		char *at = xprintf("has %s at byte %ld",
		    control_name((unsigned char)s[bad]), bad);
		int r = refuse(cause, what, s, "%s", at);

		free(at);
		return r;
	}
	if (len > max) {
		char *at = xprintf("is %zu bytes long (at most %zu)", len, max);
		int r = refuse(cause, what, s, "%s", at);

		free(at);
		return r;
	}
	return 0;
}

int
hostline_sysctl_value(const char *s, char **cause)
{
	const char *bad;

	if (hostline_text(s, HOSTLINE_VALUE_MAX, "value", cause) != 0)
		return -1;
	if ((bad = strpbrk(s, "$`;\"'\\<>&")) != NULL) {
		char *d = xprintf("has '%c' (shell quoting and substitution "
		    "characters are refused in sysctl values)", *bad);
		int r = refuse(cause, "value", s, "%s", d);

		free(d);
		return r;
	}
	return 0;
}

static int
key_char(char c, int slash_form)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '@' ||
	    c == '+' || (slash_form && c == '.');
}

int
hostline_sysctl_key(const char *key, char **cause)
{
	int		slash_form = strchr(key, '/') != NULL;
	char		sep = slash_form ? '/' : '.';
	const char	*p;
	size_t		part = 0;

	if (hostline_text(key, HOSTLINE_KEY_MAX, "sysctl key", cause) != 0)
		return -1;
	if (*key == '\0')
		return fail(cause, "empty sysctl key");
	for (p = key; *p != '\0'; p++) {
		if (*p == sep) {
			if (part == 0)
				return refuse(cause, "sysctl key", key,
				    "%s", "has an empty component");
			part = 0;
			continue;
		}
		if (strchr("*?[", *p) != NULL)
			return refuse(cause, "sysctl key", key, "%s",
			    "is a glob (a key tcptune sets must name one "
			    "/proc/sys file)");
		if (!key_char(*p, slash_form)) {
			char *d = xprintf("has '%c', not allowed in the "
			    "kernel's key names", *p);
			int r = refuse(cause, "sysctl key", key, "%s", d);

			free(d);
			return r;
		}
		part++;
	}
	if (part == 0)
		return refuse(cause, "sysctl key", key, "%s",
		    "has an empty component");
	/* "." and ".." as slash-form components would walk out of the key's
	 * /proc/sys directory. */
	if (slash_form && (strstr(key, "/./") != NULL ||
	    strstr(key, "/../") != NULL || strncmp(key, "./", 2) == 0 ||
	    strncmp(key, "../", 3) == 0))
		return refuse(cause, "sysctl key", key, "%s",
		    "has a '.' or '..' component");
	return 0;
}

int
hostline_path(const char *path, char **cause)
{
	const char	*p, *part;

	if (hostline_text(path, HOSTLINE_PATH_MAX, "path", cause) != 0)
		return -1;
	if (path[0] != '/')
		return refuse(cause, "path", path, "%s", "is not absolute");
	if (path[1] == '\0')
		return refuse(cause, "path", path, "%s", "is the root directory");
	for (part = path + 1;; part = p + 1) {
		size_t n;

		p = strchr(part, '/');
		n = p != NULL ? (size_t)(p - part) : strlen(part);
		/* one trailing '/', a directory's mark, as roles write it
		 * (kubespray's stat of /var/lib/waagent/) */
		if (n == 0 && p == NULL && part[-1] == '/' && part - 1 > path &&
		    part[-2] != '/')
			break;
		if (n == 0)
			return refuse(cause, "path", path, "%s",
			    "has an empty component ('//')");
		if ((n == 1 && part[0] == '.') || (n == 2 &&
		    strncmp(part, "..", 2) == 0))
			return refuse(cause, "path", path, "%s",
			    "has a '.' or '..' component");
		if (p == NULL)
			break;
	}
	return 0;
}

int
hostline_dropin_path(const char *path, char **cause)
{
	const char	*name;
	size_t		 dl = strlen(HOSTLINE_DROPIN_DIR), n;

	if (hostline_path(path, cause) != 0)
		return -1;
	name = path + dl;
	if (strncmp(path, HOSTLINE_DROPIN_DIR, dl) != 0 ||
	    strchr(name, '/') != NULL)
		return refuse(cause, "drop-in path", path, "%s",
		    "is not a file directly in " HOSTLINE_DROPIN_DIR);
	n = strlen(name);
	if (name[0] == '.' || n <= 5 || strcmp(name + n - 5, ".conf") != 0)
		return refuse(cause, "drop-in path", path, "%s",
		    "must name a '*.conf' file that does not start with '.' "
		    "(sysctl reads no other)");
	if (hostline_word(name, "drop-in name", cause) != 0)
		return -1;
	return 0;
}

static int
word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || strchr("_.:@+-", c) != NULL;
}

int
hostline_word(const char *s, const char *what, char **cause)
{
	const char *p;

	if (hostline_text(s, HOSTLINE_WORD_MAX, what, cause) != 0)
		return -1;
	if (*s == '\0')
		return fail(cause, "empty %s", what);
	if (*s == '-')
		return refuse(cause, what, s, "%s",
		    "starts with '-' (it would read as an option)");
	for (p = s; *p != '\0'; p++) {
		if (!word_char(*p)) {
			char *d = xprintf("has '%c' (only letters, digits and "
			    "_.:@+- are allowed)", *p);
			int r = refuse(cause, what, s, "%s", d);

			free(d);
			return r;
		}
	}
	return 0;
}

int
hostline_words(const char *s, const char *what, char **cause)
{
	char	*copy, *w, *save = NULL;
	int	 r = 0;

	if (hostline_text(s, HOSTLINE_VALUE_MAX, what, cause) != 0)
		return -1;
	if (*s == ' ' || strstr(s, "  ") != NULL || (*s != '\0' &&
	    s[strlen(s) - 1] == ' ') || strchr(s, '\t') != NULL)
		return refuse(cause, what, s, "%s",
		    "must be names separated by single spaces");
	copy = xstrdup(s);
	for (w = strtok_r(copy, " ", &save); w != NULL && r == 0;
	    w = strtok_r(NULL, " ", &save))
		r = hostline_word(w, what, cause);
	free(copy);
	return r;
}

int
hostline_module_params(const char *s, char **cause)
{
	const char *q;

	if (hostline_text(s, HOSTLINE_VALUE_MAX, "params", cause) != 0)
		return -1;
	if ((q = strpbrk(s, "'\"\\")) != NULL) {
		char	 c[2] = { *q, '\0' };

		return refuse(cause, "params", s, "has '%s' (quoting; module "
		    "parameters are key=value words)", c);
	}
	return 0;
}

/* The string of v, or NULL; -1 when it holds a NUL byte (a JSON "\u0000"
 * that C would silently cut there). */
static int
json_text(const json_t *v, const char **s, char **cause)
{
	*s = json_string_value(v);
	if (*s != NULL && strlen(*s) != json_string_length(v))
		return fail(cause, "has a NUL byte (U+0000)");
	return 0;
}

/* A sysctl map: every key in the grammar, every value one line. */
static int
check_sysctl_map(const char *param, const json_t *map, char **cause)
{
	const char	*key;
	json_t		*v;
	char		*why = NULL;

	json_object_foreach((json_t *)map, key, v) {
		const char *text;

		if (hostline_sysctl_key(key, &why) != 0 || json_text(v, &text,
		    &why) != 0 || (text != NULL && hostline_sysctl_value(text,
		    &why) != 0)) {
			char *q = quoted(key);

			fail(cause, "%s['%s']: %s", param, q, why);
			free(q);
			free(why);
			return -1;
		}
	}
	return 0;
}

/* The host var that may name the drop-in instead of the parameter. */
static int
dropin_var_check(const json_t *vars, char **cause)
{
	const json_t	*v = json_object_get(vars, HOSTLINE_DROPIN_VAR);
	const char	*s;
	char		*why = NULL;

	if (v == NULL || json_is_null(v))
		return 0;
	if (json_text(v, &s, &why) == 0 && s == NULL)
		why = xstrdup("is not a string");
	if (why == NULL && hostline_dropin_path(s, &why) == 0)
		return 0;
	fail(cause, "var %s: %s", HOSTLINE_DROPIN_VAR, why);
	free(why);
	return -1;
}

/* A key as an Ansible-style task gives it: blanks around it (Python's
 * ASCII whitespace) are dropped by the module, so they are not checked. */
static int
check_task_key(const char *s, char **cause)
{
	size_t	 a = 0, b = strlen(s);
	char	*key;
	int	 r;

	while (a < b && (s[a] == ' ' || (s[a] >= '\t' && s[a] <= '\r') ||
	    (s[a] >= '\x1c' && s[a] <= '\x1f')))
		a++;
	while (b > a && (s[b - 1] == ' ' || (s[b - 1] >= '\t' &&
	    s[b - 1] <= '\r') || (s[b - 1] >= '\x1c' && s[b - 1] <= '\x1f')))
		b--;
	key = xstrndup(s + a, b - a);
	if (key[0] == '-')
		r = refuse(cause, "sysctl key", key, "%s", "starts with '-' "
		    "(it would read as an option of sysctl)");
	else
		r = hostline_sysctl_key(key, cause);
	free(key);
	return r;
}

int
hostline_check_value(const char *param, enum hostline_kind kind,
    const json_t *v, const json_t *vars, char **cause)
{
	const char	*s;
	char		*why = NULL;
	int		 r = 0;

	if (kind == HOSTLINE_DROPIN_PATH && dropin_var_check(vars, cause) != 0)
		return -1;
	if (v == NULL || json_is_null(v) || kind == HOSTLINE_NONE)
		return 0;
	if (json_text(v, &s, &why) != 0) {
		r = -1;
		goto refused;
	}
	switch (kind) {
	case HOSTLINE_NONE:
		break;
	case HOSTLINE_WORD:
		if (s != NULL)
			r = hostline_word(s, "name", &why);
		break;
	case HOSTLINE_SHELL:
	case HOSTLINE_ARGV_TEXT:
		/* Quoted when rendered (shell) or word by word (argv
		 * text); a NUL (refused above) is the one byte a quoted
		 * word cannot carry. */
		break;
	case HOSTLINE_DROPIN_PATH:
		if (s != NULL)
			r = hostline_dropin_path(s, &why);
		break;
	case HOSTLINE_SYSCTL_KEY:
		if (s != NULL)
			r = check_task_key(s, &why);
		break;
	case HOSTLINE_SYSCTL_VALUE:
		if (s != NULL)
			r = hostline_sysctl_value(s, &why);
		break;
	case HOSTLINE_PATH:
		if (s != NULL)
			r = hostline_path(s, &why);
		break;
	case HOSTLINE_MODULE_PARAMS:
		if (s != NULL)
			r = hostline_module_params(s, &why);
		break;
	case HOSTLINE_SYSCTL_MAP:
		/* Its own message: it names the key too. */
		if (json_is_object(v) && check_sysctl_map(param, v, cause) != 0)
			return -1;
		break;
	}
refused:
	if (r != 0) {
		fail(cause, "%s: %s", param, why);
		free(why);
	}
	return r;
}
