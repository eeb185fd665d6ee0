/* file.sh's calls and output, and the attribute rules (see fileop.h). */
#include "remote/fileop.h"

#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/xalloc.h"
#include "remote/embedded.h"

void
file_call(const struct file_request *req, struct remote_call *call)
{
	remote_call(call, "file", embedded_file_sh,
	    (const struct remote_var[]){
		{ "MODE", req->write ? "write" : "read" },
		{ "DEST", req->dest },
		{ "FOLLOW", req->follow ? "1" : "0" },
		{ "TEXT", req->write ? req->content : req->read_text ? "1" :
		    "0" },
		{ "CONTENT", req->write && req->content != NULL ? "1" : "0" },
		{ "SUM", req->sum },
		{ "FMODE", req->mode },
		{ "OWNER", req->owner },
		{ "GROUP", req->group },
		{ "BACKUP", req->backup ? "1" : "0" },
		{ "VALIDATE", req->validate },
		{ "MKDIRS", req->mkdirs ? "1" : "0" },
		{ "ACTION", req->action },
		{ "SRC", req->src },
		{ NULL, NULL } });
}

static void
stat_clear(struct file_stat *st)
{
	free(st->path);
	free(st->owner);
	free(st->group);
	free(st->target);
	free(st->sum);
	free(st->sha1);
	free(st->error);
	memset(st, 0, sizeof *st);
}

static long long
number(const char *v, size_t vl)
{
	return remote_value_count(v, vl);
}

/* One key of @stat or @after. */
static void
stat_key(struct file_stat *st, const char *k, size_t kl, const char *v,
    size_t vl)
{
	char	*octal;

#define IS(s) (kl == strlen(s) && memcmp(k, s, kl) == 0)
	if (IS("path"))
		remote_value_set(&st->path, v, vl);
	else if (IS("exists"))
		st->exists = vl == 1 && v[0] == '1';
	else if (IS("parent"))
		st->parent = vl == 1 && v[0] == '1';
	else if (IS("src_exists"))
		st->src_exists = vl == 1 && v[0] == '1';
	else if (IS("type"))
		st->type = vl > 0 && strchr("fdlo", v[0]) != NULL ? v[0] : 'o';
	else if (IS("mode")) {
		octal = xstrndup(v, vl);
		st->mode = (unsigned)strtoul(octal, NULL, 8) & 07777;
		free(octal);
	} else if (IS("uid"))
		st->uid = number(v, vl);
	else if (IS("gid"))
		st->gid = number(v, vl);
	else if (IS("size"))
		st->size = number(v, vl);
	else if (IS("mtime"))
		st->mtime = number(v, vl);
	else if (IS("owner"))
		remote_value_set(&st->owner, v, vl);
	else if (IS("group"))
		remote_value_set(&st->group, v, vl);
	else if (IS("target"))
		remote_value_set(&st->target, v, vl);
	else if (IS("sum"))
		remote_value_set(&st->sum, v, vl);
	else if (IS("sha1"))
		remote_value_set(&st->sha1, v, vl);
	else if (IS("error"))
		remote_value_add(&st->error, v, vl);
#undef IS
}

int
file_parse(const char *out, size_t len, struct file_result *res,
    char **cause)
{
	struct remote_reader	 rr;
	struct remote_line	 l;
	struct strbuf		 text;
	const char		*sec;
	int			 text_shown = 0, no_newline = 0;

	memset(res, 0, sizeof *res);
	res->after.exists = -1;
	if (remote_read_init(&rr, out, len, "tcptune-file 1",
	    "the file script", cause) != 0)
		return -1;
	strbuf_init(&text);
	while (remote_read_next(&rr, &l)) {
		sec = rr.section;
		if (l.kind == '@') {
			text_shown |= strcmp(sec, "text") == 0;
			if (strcmp(sec, "validate") == 0)
				res->validated = 1;
			if (strcmp(sec, "after") == 0)
				res->after.exists = 0;
		} else if (l.kind == '|') {
			if (strcmp(sec, "text") != 0) {
				strbuf_release(&text);
				file_result_clear(res);
				return fail(cause, "the file script printed a "
				    "line outside a file's text");
			}
			strbuf_add(&text, l.val, l.vl);
			strbuf_addch(&text, '\n');
		} else if (strcmp(sec, "stat") == 0)
			stat_key(&res->st, l.key, l.kl, l.val, l.vl);
		else if (strcmp(sec, "after") == 0)
			stat_key(&res->after, l.key, l.kl, l.val, l.vl);
		else if (strcmp(sec, "text") == 0) {
			if (remote_key_is(&l, "no_newline"))
				no_newline = 1;
			else if (remote_key_is(&l, "error"))
				remote_value_add(&res->error, l.val, l.vl);
		} else if (strcmp(sec, "validate") == 0) {
			if (remote_key_is(&l, "rc"))
				res->validate_rc = remote_value_status(l.val,
				    l.vl);
			else if (remote_key_is(&l, "out"))
				remote_value_set(&res->validate_out, l.val,
				    l.vl);
			else if (remote_key_is(&l, "err"))
				remote_value_set(&res->validate_err, l.val,
				    l.vl);
		} else if (strcmp(sec, "write") == 0) {
			if (remote_key_is(&l, "status"))
				res->written++;
			else if (remote_key_is(&l, "backup"))
				remote_value_set(&res->backup, l.val, l.vl);
			else if (remote_key_is(&l, "error"))
				remote_value_add(&res->write_error, l.val,
				    l.vl);
		} else if (remote_key_is(&l, "error"))
			remote_value_add(&res->error, l.val, l.vl);
	}
	if (!rr.done) {
		strbuf_release(&text);
		file_result_clear(res);
		return fail(cause, "the file script's output was cut short");
	}
	if (text_shown) {
		if (no_newline && text.len > 0)
			text.buf[--text.len] = '\0';
		res->text = strbuf_detach(&text, NULL);
	}
	strbuf_release(&text);
	return 0;
}

void
file_result_clear(struct file_result *res)
{
	stat_clear(&res->st);
	stat_clear(&res->after);
	free(res->text);
	free(res->error);
	free(res->write_error);
	free(res->backup);
	free(res->validate_out);
	free(res->validate_err);
	memset(res, 0, sizeof *res);
	res->after.exists = -1;
}

const char *
file_stat_sum(const struct file_stat *st)
{
	if (!st->exists)
		return "absent";
	switch (st->type) {
	case 'f': return st->sum != NULL ? st->sum : "unreadable";
	case 'd': return "directory";
	case 'l': return "link";
	default: return "other";
	}
}

/* A symbolic mode whose every class u, g and o is set with '=' (k3s'
 * "u=rw,g=,o="): its bits, which do not depend on the file's own; 0, or
 * -1 with *cause for any other symbolic mode. */
static int
symbolic_mode(const char *s, unsigned *mode, char **cause)
{
	static const unsigned shift[] = { 6, 3, 0 };	/* u g o */
	const char	*p = s;
	unsigned	 m = 0, who, set = 0, bits;
	int		 k;

	while (*p != '\0') {
		for (who = 0; strchr("ugoa", *p) != NULL && *p != '\0'; p++)
			who |= *p == 'a' ? 7 : *p == 'u' ? 1 : *p == 'g' ? 2 : 4;
		if (who == 0 || *p != '=')
			goto refuse;
		for (bits = 0, p++; *p != '\0' && *p != ','; p++) {
			if (*p == 'r' || *p == 'w' || *p == 'x')
				bits |= *p == 'r' ? 4 : *p == 'w' ? 2 : 1;
			else
				goto refuse;
		}
		for (k = 0; k < 3; k++) {
			if (who & (1u << k)) {
				m = (m & ~(7u << shift[k])) |
				    (bits << shift[k]);
				set |= 1u << k;
			}
		}
		if (*p == ',')
			p++;
	}
	if (set != 7)
		goto refuse;
	*mode = m;
	return 0;
refuse:
	return fail(cause, "mode '%.32s' is not an octal number, nor a "
	    "symbolic mode that sets each of u, g and o with '=' and r, w, x "
	    "(the others need the file's own mode)", s);
}

int
file_mode_parse(const char *s, int is_int, unsigned *mode, char **cause)
{
	char		*end;
	unsigned long	 v;
	size_t		 i;

	if (s == NULL || *s == '\0')
		return fail(cause, "mode is empty");
	/* Python's int(mode, 8) takes the 0o prefix too */
	if (!is_int && s[0] == '0' && (s[1] == 'o' || s[1] == 'O') &&
	    s[2] != '\0')
		s += 2;
	if (!is_int && strchr("ugoa", s[0]) != NULL)
		return symbolic_mode(s, mode, cause);
	for (i = 0; s[i] != '\0'; i++) {
		if (s[i] < '0' || s[i] > '9')
			return fail(cause, "mode '%.32s' is not an octal "
			    "number", s);
	}
	v = strtoul(s, &end, is_int ? 10 : 8);
	if (*end != '\0' || v > 07777)
		return fail(cause, "mode '%.32s' is not a mode (at most "
		    "07777)", s);
	*mode = (unsigned)v;
	return 0;
}

static int
id_is(const char *want, const char *name, long long id)
{
	char	*end;
	long	 v;

	if (want == NULL)
		return 1;
	if (name != NULL && strcmp(want, name) == 0)
		return 1;
	v = strtol(want, &end, 10);
	return *want != '\0' && *end == '\0' && v == id;
}

int
file_attrs_differ(const struct file_stat *st, const char *owner,
    const char *group, long mode)
{
	if (!id_is(owner, st->owner, st->uid) ||
	    !id_is(group, st->group, st->gid))
		return 1;
	return mode >= 0 && (unsigned)mode != st->mode;
}

static const char *
kind(const struct file_stat *st)
{
	if (!st->exists)
		return "absent";
	switch (st->type) {
	case 'd': return "directory";
	case 'l': return "link";
	default: return "file";
	}
}

int
file_state_decide(const struct file_stat *st, const char *path,
    const char *state, const char *src, int force, const char **action,
    int *attrs, char **cause)
{
	const char *prev = kind(st);

	*action = NULL;
	*attrs = 0;
	if (strcmp(state, "absent") == 0) {
		if (st->exists)
			*action = "rm";
		return 0;
	}
	*attrs = 1;
	if (strcmp(state, "file") == 0) {
		if (strcmp(prev, "file") != 0)
			return fail(cause, "file (%s) is %s, cannot continue",
			    path, prev);
		return 0;
	}
	if (strcmp(state, "directory") == 0) {
		if (!st->exists)
			*action = "mkdir";
		else if (st->type != 'd')
			return fail(cause, "%s already exists as a %s", path,
			    prev);
		return 0;
	}
	if (strcmp(state, "touch") == 0) {
		*action = "touch";
		return 0;
	}
	/* link, as execute_symlink */
	if (!force && src != NULL && !st->src_exists)
		return fail(cause, "src file does not exist, use \"force=yes\" "
		    "if you really want to create the link: %s", src);
	if (st->exists && st->type == 'd')
		return fail(cause, "refusing to convert from directory to "
		    "symlink for %s", path);
	if (st->exists && st->type != 'l' && !force)
		return fail(cause, "refusing to convert from %s to symlink for "
		    "%s", prev, path);
	if (src == NULL) {
		if (st->type != 'l')
			return fail(cause, "src is required for creating new "
			    "symlinks");
		return 0;
	}
	if (st->type != 'l' || st->target == NULL ||
	    strcmp(st->target, src) != 0)
		*action = "link";
	return 0;
}
