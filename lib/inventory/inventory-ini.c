/* The INI inventory format, as ansible-core 2.14's ini plugin reads it.
 *
 * Host lines are split like Python's shlex.split(comments=True) and every
 * k=v value (host lines and [g:vars] alike: Ansible's documentation says
 * :vars values stay strings, its code types them too) goes through an
 * ast.literal_eval equivalent: a=5 is an int, b=True a bool, c=yes the
 * string 'yes', d="x y" the string 'x y' (shlex removed the quotes), e=01
 * the string '01'. Errors read "file:line: message". */
#include "inventory/inventory.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inventory/hostrange.h"
#include "base/shlex.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "template/pyliteral.h"
#include "vault/vault.h"

/* ---- the INI file ---- */

struct pending {
	char	 *name;
	int	  line;
	int	  vars;		/* else children */
	char	**parents;
	size_t	  nparents;
};

struct ini {
	struct inventory	*inv;
	const char		*path;
	int			 line;
	struct pending		*pend;		/* name NULL once resolved */
	size_t			 npend;		/* used, resolved included */
	size_t			 first;		/* first unresolved */
	size_t			 nlive;		/* unresolved */
	json_t			*pindex;	/* name -> index in pend */
};

static int
ini_fail(struct ini *ini, char **cause, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int
ini_fail(struct ini *ini, char **cause, const char *fmt, ...)
{
	va_list	 ap;
	char	*msg;

	va_start(ap, fmt);
	msg = xvprintf(fmt, ap);
	va_end(ap);
	fail(cause, "%s:%d: %s", ini->path, ini->line, msg);
	free(msg);
	return -1;
}

/* Groups named before they are defined are looked up by name: an index,
 * as an inventory may name many groups before their sections. */
static struct pending *
pending_find(struct ini *ini, const char *name)
{
	json_t *j = json_object_get(ini->pindex, name);

	return j == NULL ? NULL : &ini->pend[json_integer_value(j)];
}

static void
pending_del(struct ini *ini, struct pending *pd)
{
	size_t i;

	json_object_del(ini->pindex, pd->name);
	free(pd->name);
	for (i = 0; i < pd->nparents; i++)
		free(pd->parents[i]);
	free(pd->parents);
	memset(pd, 0, sizeof *pd);
	ini->nlive--;
	while (ini->first < ini->npend && ini->pend[ini->first].name == NULL)
		ini->first++;
}

static struct pending *
pending_add(struct ini *ini, const char *name, int vars)
{
	struct pending *pd;

	ini->pend = inv_grow(ini->pend, ini->npend,
	    sizeof *ini->pend);
	pd = &ini->pend[ini->npend];
	memset(pd, 0, sizeof *pd);
	pd->name = xstrdup(name);
	pd->line = ini->line;
	pd->vars = vars;
	json_object_set_new(ini->pindex, name, json_integer(ini->npend));
	if (ini->nlive++ == 0)
		ini->first = ini->npend;
	ini->npend++;
	return pd;
}

static int
add_pending_children(struct ini *ini, const char *group, char **cause)
{
	struct pending	*pd = pending_find(ini, group), *pp;
	char		*where = xprintf("%s:%d", ini->path, ini->line);
	size_t		 i;
	int		 r = -1;

	for (i = 0; i < pd->nparents; i++) {
		if (inv_add_child(ini->inv, inv_add_group(ini->inv,
		    pd->parents[i]), inv_add_group(ini->inv, group), where,
		    cause) != 0)
			goto out;
		pp = pending_find(ini, pd->parents[i]);
		if (pp != NULL && !pp->vars &&
		    add_pending_children(ini, pd->parents[i], cause) != 0)
			goto out;
		pd = pending_find(ini, group);
	}
	pending_del(ini, pd);
	r = 0;
out:
	free(where);
	return r;
}

static int
is_wordch(int c)
{
	return isalnum(c) || c == '_' || c >= 0x80;
}

/* ^\[([^:\]\s]+)(?::(\w+))?\]\s*(?:#.*)?$ */
static int
match_section(const char *line, char **name, char **tag)
{
	const char *p = line + 1, *n0, *t0 = NULL, *t1 = NULL;

	if (line[0] != '[')
		return 0;
	n0 = p;
	while (*p != '\0' && *p != ':' && *p != ']' &&
	    !isspace((unsigned char)*p))
		p++;
	if (p == n0)
		return 0;
	*name = xstrndup(n0, (size_t)(p - n0));
	if (*p == ':') {
		t0 = ++p;
		while (is_wordch((unsigned char)*p))
			p++;
		t1 = p;
		if (t0 == t1)
			goto no;
	}
	if (*p++ != ']')
		goto no;
	while (isspace((unsigned char)*p))
		p++;
	if (*p != '\0' && *p != '#')
		goto no;
	*tag = t0 != NULL ? xstrndup(t0, (size_t)(t1 - t0)) : NULL;
	return 1;
no:
	free(*name);
	*name = NULL;
	return 0;
}

/* ^([^:\]\s]+)\s*(?:#.*)?$ */
static char *
match_group_name(const char *line)
{
	const char *p = line;

	while (*p != '\0' && *p != ':' && *p != ']' &&
	    !isspace((unsigned char)*p))
		p++;
	if (p == line)
		return NULL;
	{
		const char *q = p;

		while (isspace((unsigned char)*q))
			q++;
		if (*q != '\0' && *q != '#')
			return NULL;
	}
	return xstrndup(line, (size_t)(p - line));
}

static int
host_line(struct ini *ini, const char *group, const char *line, char **cause)
{
	char		**toks = NULL, **names = NULL, *host = NULL, *why = NULL;
	size_t		  ntoks = 0, nnames = 0, i, j;
	const char	 *err = NULL;
	json_t		 *vars = json_object();
	int		  port, parsed, r = -1;
	struct inv_group *g;

	if (shlex_split(line, 1, &toks, &ntoks, &err) != 0) {
		ini_fail(ini, cause, "error parsing host definition '%s': %s",
		    line, err);
		goto out;
	}
	if (ntoks == 0) {
		r = 0;
		goto out;
	}
	host = hostrange_parse_address(toks[0], &port, &parsed);
	if (hostrange_expand(host, &names, &nnames, &why) != 0) {
		ini_fail(ini, cause, "bad host range '%s': %s", toks[0], why);
		goto out;
	}
	if (port < 0 && toks[0][0] != '\0' &&
	    toks[0][strlen(toks[0]) - 1] == ':') {
		ini_fail(ini, cause, "invalid host pattern '%s': a trailing ':' "
		    "must be followed by a port", toks[0]);
		goto out;
	}
	for (i = 0; i < nnames; i++) {
		if (strcmp(names[i], "---") == 0) {
			ini_fail(ini, cause, "invalid host pattern '---': this "
			    "looks like a YAML file");
			goto out;
		}
	}
	for (i = 1; i < ntoks; i++) {
		char *eq = strchr(toks[i], '=');

		if (eq == NULL) {
			ini_fail(ini, cause, "expected key=value host variable "
			    "assignment, got '%s'", toks[i]);
			goto out;
		}
		*eq = '\0';
		json_object_set_new(vars, toks[i], py_literal_eval(eq + 1));
	}
	g = inv_add_group(ini->inv, group);
	for (j = 0; j < nnames; j++) {
		struct inv_host *h;

		if (names[j][0] == '\0')
			continue;
		h = inv_add_host(ini->inv, names[j], g, port);
		json_object_update(h->vars, vars);
	}
	r = 0;
out:
	json_decref(vars);
	free(host);
	free(why);
	hostrange_free(toks, ntoks);
	hostrange_free(names, nnames);
	return r;
}

static char *
strip(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

static int
parse_lines(struct ini *ini, char *buf, char **cause)
{
	char		*group = xstrdup("ungrouped"), *next, *line;
	const char	*state = "hosts";
	char		*name = NULL, *tag = NULL, *where;
	struct pending	*pd;
	int		 r = -1;

	for (line = buf; line != NULL; line = next) {
		next = strpbrk(line, "\r\n");
		if (next != NULL) {
			if (next[0] == '\r' && next[1] == '\n')
				*next++ = '\0';
			*next++ = '\0';
		}
		ini->line++;
		line = strip(line);
		if (*line == '\0' || *line == '#' || *line == ';')
			continue;
		if (match_section(line, &name, &tag)) {
			free(group);
			group = name;
			name = NULL;
			state = tag == NULL ? "hosts" :
			    strcmp(tag, "hosts") == 0 ? "hosts" :
			    strcmp(tag, "children") == 0 ? "children" :
			    strcmp(tag, "vars") == 0 ? "vars" : NULL;
			if (state == NULL) {
				ini_fail(ini, cause, "section [%s:%s] has unknown "
				    "type '%s' (expected hosts, children or "
				    "vars)", group, tag, tag);
				goto out;
			}
			free(tag);
			tag = NULL;
			if (!inv_valid_group_name(group))
				inv_warn(ini->inv, "%s:%d: invalid characters in "
				    "group name '%s' (kept as is, as Ansible "
				    "does)", ini->path, ini->line, group);
			if (inventory_group(ini->inv, group) == NULL) {
				if (strcmp(state, "vars") == 0 &&
				    pending_find(ini, group) == NULL)
					pending_add(ini, group, 1);
				inv_add_group(ini->inv, group);
			}
			pd = pending_find(ini, group);
			if (pd != NULL && strcmp(state, "vars") != 0) {
				if (!pd->vars) {
					if (add_pending_children(ini, group,
					    cause) != 0)
						goto out;
				} else
					pending_del(ini, pd);
			}
			continue;
		}
		if (line[0] == '[' && line[strlen(line) - 1] == ']') {
			ini_fail(ini, cause, "invalid section entry '%s': no "
			    "spaces or other invalid characters are allowed",
			    line);
			goto out;
		}
		if (strcmp(state, "hosts") == 0) {
			if (host_line(ini, group, line, cause) != 0)
				goto out;
		} else if (strcmp(state, "vars") == 0) {
			char *eq = strchr(line, '='), *k, *v;
			char *w;
			int rr;

			if (eq == NULL) {
				ini_fail(ini, cause, "expected key=value, got "
				    "'%s'", line);
				goto out;
			}
			*eq = '\0';
			k = strip(line);
			v = strip(eq + 1);
			w = xprintf("%s:%d", ini->path, ini->line);
			rr = inv_group_set_var(inv_add_group(ini->inv, group), k,
			    py_literal_eval(v), w, cause);
			free(w);
			if (rr != 0)
				goto out;
		} else {
			char *child = match_group_name(line);

			if (child == NULL) {
				ini_fail(ini, cause, "expected group name, got "
				    "'%s'", line);
				goto out;
			}
			if (inventory_group(ini->inv, child) == NULL) {
				if ((pd = pending_find(ini, child)) == NULL)
					pd = pending_add(ini, child, 0);
				pd->parents = inv_grow(pd->parents,
				    pd->nparents, sizeof *pd->parents);
				pd->parents[pd->nparents++] = xstrdup(group);
			} else {
				int rr;

				where = xprintf("%s:%d", ini->path, ini->line);
				rr = inv_add_child(ini->inv,
				    inv_add_group(ini->inv, group),
				    inventory_group(ini->inv, child), where,
				    cause);
				free(where);
				if (rr != 0) {
					free(child);
					goto out;
				}
			}
			free(child);
		}
	}
	if (ini->nlive != 0) {
		pd = &ini->pend[ini->first];
		if (pd->vars)
			fail(cause, "%s:%d: section [%s:vars] not valid for "
			    "undefined group '%s'", ini->path, pd->line,
			    pd->name, pd->name);
		else
			fail(cause, "%s:%d: section [%s:children] includes "
			    "undefined group '%s'", ini->path, pd->line,
			    pd->parents[pd->nparents - 1], pd->name);
		goto out;
	}
	r = 0;
out:
	while (ini->nlive != 0)
		pending_del(ini, &ini->pend[ini->first]);
	free(ini->pend);
	json_decref(ini->pindex);
	free(group);
	free(tag);
	return r;
}

int
inv_load_ini_buffer(struct inventory *inv, const char *path, const char *buf,
    size_t len, char **cause)
{
	struct ini	 ini;
	char		*copy = xstrndup(buf, len);
	int		 r;

	memset(&ini, 0, sizeof ini);
	ini.pindex = json_object();
	ini.inv = inv;
	ini.path = path;
	r = parse_lines(&ini, copy, cause);
	free(copy);
	return r;
}

int
inv_load_ini(struct inventory *inv, const char *path, char **cause)
{
	struct strbuf	 sb;
	char		 chunk[8192], *plain = NULL;
	size_t		 n, plainlen = 0;
	FILE		*fp;
	int		 r;

	if ((fp = fopen(path, "rb")) == NULL)
		return fail(cause, "%s: %s", path, strerror(errno));
	strbuf_init(&sb);
	while ((n = fread(chunk, 1, sizeof chunk, fp)) > 0)
		strbuf_add(&sb, chunk, n);
	fclose(fp);
	/* Ansible's INI plugin reads through the loader, which decrypts */
	if (!vault_is_encrypted(sb.buf, sb.len))
		r = inv_load_ini_buffer(inv, path, sb.buf, sb.len, cause);
	else if ((r = vault_decrypt(path, sb.buf, sb.len, &plain, &plainlen,
	    cause)) == 0)
		r = inv_load_ini_buffer(inv, path, plain, plainlen, cause);
	vault_plain_free(plain, plainlen);
	strbuf_release(&sb);
	return r;
}
