/* Finding and parsing ansible.cfg: Ansible 2.14's find_ini_config_file and
 * Python 3's configparser._read, line for line where it matters (see
 * ansible-cfg.h for the dialect). */
#include "config/ansible-cfg.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/strbuf.h"
#include "base/util.h"
#include "base/xalloc.h"

struct parser {
	struct acfg		*cfg;
	const char		*path;
	unsigned		 line;
	const char		*section;	/* NULL before the first header */
	struct acfg_entry	*option;	/* what a continuation extends */
	struct strbuf		 value;		/* its value, until flushed */
	size_t			 indent;	/* the option line's indent */
};

static int
is_blank(int c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' ||
	    c == '\f';
}

/* s[0..len) without blanks at either end. */
static const char *
trim(const char *s, size_t *len)
{
	while (*len > 0 && is_blank((unsigned char)*s)) {
		s++;
		(*len)--;
	}
	while (*len > 0 && is_blank((unsigned char)s[*len - 1]))
		(*len)--;
	return s;
}

/* "FILE:LINE: what" in *cause; returns -1. */
static int __attribute__((format(printf, 3, 4)))
parse_fail(const struct parser *p, char **cause, const char *fmt, ...)
{
	va_list	 ap;
	char	*what;

	va_start(ap, fmt);
	what = xvprintf(fmt, ap);
	va_end(ap);
	if (cause != NULL)
		*cause = xprintf("%s:%u: %s", p->path, p->line, what);
	free(what);
	return -1;
}

/* The current option's value is complete: trailing blank lines and blanks
 * go, as configparser rstrips the joined value. */
static void
flush_option(struct parser *p)
{
	if (p->option == NULL)
		return;
	strbuf_rtrim(&p->value);
	p->option->value = strbuf_detach(&p->value, NULL);
	p->option = NULL;
}

/* Sections and keys are looked up by a linear scan: a bound keeps a
 * hostile file from making that quadratic. */
static int
too_many(const struct parser *p, char **cause)
{
	if (p->cfg->nentries + p->cfg->nsections < ACFG_MAX_KEYS)
		return 0;
	return parse_fail(p, cause, "more than %d keys and sections: not an "
	    "ansible.cfg", ACFG_MAX_KEYS) != 0;
}

static int
has_section(const struct acfg *cfg, const char *name)
{
	size_t i;

	for (i = 0; i < cfg->nsections; i++) {
		if (strcmp(cfg->sections[i], name) == 0)
			return 1;
	}
	return 0;
}

static const struct acfg_entry *
find_entry(const struct acfg *cfg, const char *section, const char *key)
{
	size_t i;

	for (i = 0; i < cfg->nentries; i++) {
		if (strcmp(cfg->entries[i].section, section) == 0 &&
		    strcmp(cfg->entries[i].key, key) == 0)
			return &cfg->entries[i];
	}
	return NULL;
}

/* A key or section name with a control byte (ESC, say) is in no
 * ansible.cfg, and errors print names: refused. */
static int
bad_name(const struct parser *p, const char *s, size_t len, char **cause)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return parse_fail(p, cause, "control character in a "
			    "key or section name");
	}
	return 0;
}

/* "[name]": configparser's SECTCRE, "\[(?P<header>.+)\]" matched at the
 * start, so the header runs to the last ']' and text after it is ignored. */
static int
header_line(struct parser *p, const char *s, size_t len, char **cause)
{
	struct acfg	*cfg = p->cfg;
	char		*name;
	size_t		 end = len;

	flush_option(p);
	while (end > 2 && s[end - 1] != ']')
		end--;
	if (bad_name(p, s + 1, end - 2, cause) != 0)
		return -1;
	name = xstrndup(s + 1, end - 2);
	if (strcmp(name, "DEFAULT") == 0) {
		free(name);
		p->section = "DEFAULT";
		return 0;
	}
	if (has_section(cfg, name) || too_many(p, cause)) {
		if (has_section(cfg, name))
			parse_fail(p, cause, "duplicate section [%s]", name);
		free(name);
		return -1;
	}
	cfg->sections = xreallocarray(cfg->sections, cfg->nsections + 1,
	    sizeof *cfg->sections);
	cfg->sections[cfg->nsections++] = name;
	p->section = name;
	return 0;
}

static int
is_header(const char *s, size_t len)
{
	size_t i;

	if (len < 3 || s[0] != '[')
		return 0;
	for (i = 2; i < len; i++) {
		if (s[i] == ']')
			return 1;
	}
	return 0;
}

/* "key = value" or "key: value": the first '=' or ':' splits. */
static int
option_line(struct parser *p, const char *s, size_t len, char **cause)
{
	struct acfg		*cfg = p->cfg;
	struct acfg_entry	*e;
	const char		*v;
	size_t			 klen, vlen, i;
	char			*key;

	for (klen = 0; klen < len && s[klen] != '=' && s[klen] != ':'; klen++)
		;
	if (klen == len)
		return parse_fail(p, cause, "not a [section], a 'key = value' "
		    "line or a comment");
	vlen = len - klen - 1;
	v = trim(s + klen + 1, &vlen);
	s = trim(s, &klen);
	if (klen == 0)
		return parse_fail(p, cause, "no key before '%c'", s[0]);
	if (bad_name(p, s, klen, cause) != 0)
		return -1;
	key = xstrndup(s, klen);
	for (i = 0; i < klen; i++) {
		if (key[i] >= 'A' && key[i] <= 'Z')
			key[i] = (char)(key[i] - 'A' + 'a');
	}
	if (find_entry(cfg, p->section, key) != NULL || too_many(p, cause)) {
		if (find_entry(cfg, p->section, key) != NULL)
			parse_fail(p, cause, "duplicate key '%s' in [%s]", key,
			    p->section);
		free(key);
		return -1;
	}
	flush_option(p);
	cfg->entries = xreallocarray(cfg->entries, cfg->nentries + 1,
	    sizeof *cfg->entries);
	e = &cfg->entries[cfg->nentries++];
	e->section = xstrdup(p->section);
	e->key = key;
	e->value = NULL;
	e->line = p->line;
	p->option = e;
	strbuf_add(&p->value, v, vlen);
	return 0;
}

/* A continuation line, or a blank one inside the value. */
static void
append_line(struct parser *p, const char *s, size_t len)
{
	strbuf_addch(&p->value, '\n');
	strbuf_add(&p->value, s, len);
}

/* Where the line's text ends: before a whole-line comment ('#' or ';'
 * first) or an inline one (';' at the start or after a blank). */
static size_t
comment_start(const char *s, size_t len, int *has_comment)
{
	size_t i, t = len;
	const char *b = trim(s, &t);

	*has_comment = 1;
	if (t > 0 && (b[0] == '#' || b[0] == ';'))
		return 0;
	for (i = 0; i < len; i++) {
		if (s[i] == ';' && (i == 0 || is_blank((unsigned char)s[i - 1])))
			return i;
	}
	*has_comment = 0;
	return len;
}

static int
parse_line(struct parser *p, const char *s, size_t len, char **cause)
{
	const char	*v;
	size_t		 vlen, indent;
	int		 has_comment;

	vlen = comment_start(s, len, &has_comment);
	v = trim(s, &vlen);
	if (vlen == 0) {
		/* A blank line inside a value is kept (empty_lines_in_values);
		 * a comment line is not. */
		if (!has_comment && p->option != NULL)
			append_line(p, "", 0);
		return 0;
	}
	for (indent = 0; indent < len && is_blank((unsigned char)s[indent]);
	    indent++)
		;
	if (p->option != NULL && indent > p->indent) {
		append_line(p, v, vlen);
		return 0;
	}
	p->indent = indent;
	if (is_header(v, vlen))
		return header_line(p, v, vlen, cause);
	if (p->section == NULL)
		return parse_fail(p, cause, "no [section] header before this "
		    "line");
	return option_line(p, v, vlen, cause);
}

/* What Ansible refuses too (a byte order mark, which configparser takes as
 * part of the first line) and what no ansible.cfg holds (a NUL byte). Bytes
 * that are not UTF-8 pass, as with Ansible (surrogateescape): a Latin-1
 * comment is harmless, and a value with one meets the checks of whatever
 * uses it. */
static int
check_bytes(struct parser *p, const char *text, size_t len, char **cause)
{
	size_t i;

	p->line = 1;
	if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)
		return parse_fail(p, cause, "starts with a byte order mark "
		    "(Ansible does not read it either)");
	for (i = 0; i < len; i++) {
		if (text[i] == '\0')
			return parse_fail(p, cause, "NUL byte");
		if (text[i] == '\n')
			p->line++;
	}
	return 0;
}

int
acfg_parse(struct acfg *cfg, const char *path, const char *text, size_t len,
    char **cause)
{
	struct parser	 p;
	const char	*s = text, *nl;
	size_t		 rest = len, n;

	memset(cfg, 0, sizeof *cfg);
	cfg->path = xstrdup(path);
	memset(&p, 0, sizeof p);
	strbuf_init(&p.value);
	p.cfg = cfg;
	p.path = path;
	if (check_bytes(&p, text, len, cause) != 0)
		goto fail;
	for (p.line = 1; rest > 0; p.line++) {
		nl = memchr(s, '\n', rest);
		n = nl != NULL ? (size_t)(nl - s) : rest;
		if (parse_line(&p, s, n, cause) != 0)
			goto fail;
		n += nl != NULL;
		s += n;
		rest -= n;
	}
	flush_option(&p);
	strbuf_release(&p.value);
	return 0;
fail:
	strbuf_release(&p.value);
	acfg_clear(cfg);
	return -1;
}

static int
read_bounded(const char *path, char **text, size_t *len, char **cause)
{
	struct stat	 st;
	ssize_t		 got;
	size_t		 have = 0;
	char		*buf;
	int		 fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return fail(cause, "%s: %s", path, strerror(errno));
	if (fstat(fd, &st) == -1 || !S_ISREG(st.st_mode)) {
		close(fd);
		return fail(cause, "%s: not a regular file", path);
	}
	buf = xmalloc(ACFG_MAX_SIZE + 1);
	while ((got = read(fd, buf + have, ACFG_MAX_SIZE + 1 - have)) > 0 &&
	    (have += (size_t)got) <= ACFG_MAX_SIZE)
		;
	close(fd);
	if (got < 0 || have > ACFG_MAX_SIZE) {
		free(buf);
		if (got < 0)
			return fail(cause, "%s: %s", path, strerror(errno));
		return fail(cause, "%s: larger than %d MiB: not an ansible.cfg",
		    path, ACFG_MAX_SIZE / (1024 * 1024));
	}
	*text = buf;
	*len = have;
	return 0;
}

int
acfg_load(struct acfg *cfg, const char *path, char **cause)
{
	const char	*ext = strrchr(path, '.');
	char		*text = NULL;
	size_t		 len = 0;
	int		 r;

	memset(cfg, 0, sizeof *cfg);
	if (strrchr(path, '/') != NULL && ext < strrchr(path, '/'))
		ext = NULL;
	if (ext == NULL || (strcmp(ext, ".cfg") != 0 && strcmp(ext, ".ini") != 0))
		return fail(cause, "%s: not a .cfg or .ini file (Ansible reads "
		    "no other kind)", path);
	if (read_bounded(path, &text, &len, cause) != 0)
		return -1;
	r = acfg_parse(cfg, path, text, len, cause);
	free(text);
	return r;
}

void
acfg_clear(struct acfg *cfg)
{
	size_t i;

	for (i = 0; i < cfg->nentries; i++) {
		free(cfg->entries[i].section);
		free(cfg->entries[i].key);
		free(cfg->entries[i].value);
	}
	free(cfg->entries);
	names_free(cfg->sections, cfg->nsections);
	free(cfg->path);
	memset(cfg, 0, sizeof *cfg);
}

const struct acfg_entry *
acfg_get(const struct acfg *cfg, const char *section, const char *key)
{
	const struct acfg_entry *e;

	if (!has_section(cfg, section))
		return NULL;
	if ((e = find_entry(cfg, section, key)) != NULL)
		return e;
	return find_entry(cfg, "DEFAULT", key);
}

static int
readable_file(const char *path)
{
	return access(path, R_OK) == 0;
}

/* $ANSIBLE_CONFIG as unfrackpath(follow=False) makes it, plus ansible.cfg
 * when it names a directory. */
static char *
env_candidate(const char *env, const char *cwd)
{
	struct stat	 st;
	char		*path, *file;

	if (acfg_to_path(env, cwd, &path, NULL) != 0)
		return NULL;
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		file = xprintf("%s/ansible.cfg", strcmp(path, "/") == 0 ? "" :
		    path);
		free(path);
		path = file;
	}
	return path;
}

/* ./ansible.cfg, unless the directory is world-writable: anyone could
 * have put it there (Ansible skips it the same way, with a warning). */
static char *
cwd_candidate(const char *cwd, char **warning)
{
	struct stat	 st;
	char		*path;

	if (cwd == NULL || stat(cwd, &st) != 0)
		return NULL;
	path = xprintf("%s/ansible.cfg", strcmp(cwd, "/") == 0 ? "" : cwd);
	if ((st.st_mode & S_IWOTH) == 0)
		return path;
	if (access(path, F_OK) == 0)
		*warning = xprintf("ignoring %s: the current directory is "
		    "world-writable (Ansible ignores it too)", path);
	free(path);
	return NULL;
}

char *
acfg_find(const struct acfg_where *w, char **warning)
{
	char	*cand[4], *found = NULL;
	size_t	 n = 0, i;

	*warning = NULL;
	if (w->env_config != NULL)
		cand[n++] = env_candidate(w->env_config, w->cwd);
	cand[n++] = cwd_candidate(w->cwd, warning);
	cand[n++] = w->home != NULL ? xprintf("%s/.ansible.cfg", w->home) :
	    NULL;
	cand[n++] = w->system != NULL ? xstrdup(w->system) : NULL;
	for (i = 0; i < n; i++) {
		if (found == NULL && cand[i] != NULL && readable_file(cand[i]))
			found = cand[i];
		else
			free(cand[i]);
	}
	/* As Ansible: no warning when $ANSIBLE_CONFIG chose the file. */
	if (found != NULL && w->env_config != NULL && found == cand[0]) {
		free(*warning);
		*warning = NULL;
	}
	return found;
}
