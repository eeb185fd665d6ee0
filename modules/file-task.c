/* The file modules' shared steps (see file-task.h). */
#include "modules/file-task.h"

#include <errno.h>
#include <libgen.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/strbuf.h"
#include "base/udiff.h"
#include "base/xalloc.h"
#include "modules/remote-exec.h"
#include "modules/sysctl-files.h"

int
ftask_attrs_check(const struct ftask_attrs *a, char **cause)
{
	unsigned m;

	if (a->mode != NULL && file_mode_parse(a->mode, 0, &m, cause) != 0)
		return -1;
	/* chown would read "user:group" as both */
	if ((a->owner != NULL && strchr(a->owner, ':') != NULL) ||
	    (a->group != NULL && strchr(a->group, ':') != NULL))
		return fail(cause, "owner and group are one name or id each "
		    "(no ':')");
	return 0;
}

long
ftask_mode(const struct ftask_attrs *a)
{
	unsigned	 m;
	char		*cause = NULL;

	if (a->mode == NULL || file_mode_parse(a->mode, 0, &m, &cause) != 0) {
		free(cause);
		return -1;
	}
	return (long)m;
}

int
ftask_exec(struct module_ctx *ctx, const struct file_request *req,
    struct file_result *out, struct module_result *res)
{
	struct remote_call	 call;
	struct tp_result	 tr;
	char			*cause = NULL;

	memset(out, 0, sizeof *out);
	file_call(req, &call);
	if (module_remote_exec(ctx, req->write, &call, &tr, res) != 0)
		return -1;
	if (file_parse(tr.out, tr.out_len, out, &cause) != 0) {
		module_result_unparsed(res, cause, &tr);
		tp_result_clear(&tr);
		return -1;
	}
	tp_result_clear(&tr);
	if (out->error != NULL || out->st.error != NULL) {
		res->status = RESULT_FAILED;
		res->msg = xprintf("%s: %s", req->dest, out->error != NULL ?
		    out->error : out->st.error);
		return -1;
	}
	return 0;
}

int
ftask_validate_check(const char *validate, char **cause)
{
	const char *p;

	if (validate != NULL && ((p = strstr(validate, "%s")) == NULL ||
	    strstr(p + 2, "%s") != NULL))
		return fail(cause, "validate must contain %%s once: %s",
		    validate);
	return 0;
}

const char *
ftask_kind(const struct file_stat *st)
{
	if (!st->exists)
		return "absent";
	switch (st->type) {
	case 'f': return "file";
	case 'd': return "directory";
	case 'l': return "link";
	default: return "file";
	}
}

json_t *
ftask_stat_json(const struct file_stat *st)
{
	json_t	*d = json_object();
	char	 mode[8];

	json_object_set_new(d, "path", json_string(st->path != NULL ?
	    st->path : ""));
	json_object_set_new(d, "state", json_string(ftask_kind(st)));
	if (!st->exists)
		return d;
	snprintf(mode, sizeof mode, "%04o", st->mode);
	json_object_set_new(d, "mode", json_string(mode));
	json_object_set_new(d, "uid", json_integer(st->uid));
	json_object_set_new(d, "gid", json_integer(st->gid));
	json_object_set_new(d, "owner", json_string(st->owner != NULL ?
	    st->owner : ""));
	json_object_set_new(d, "group", json_string(st->group != NULL ?
	    st->group : ""));
	json_object_set_new(d, "size", json_integer(st->size));
	return d;
}

char *
ftask_sha1(const char *s, size_t n)
{
	unsigned char	 md[EVP_MAX_MD_SIZE];
	unsigned int	 ml = 0, i;
	char		*hex;

	EVP_Digest(s, n, md, &ml, EVP_sha1(), NULL);
	hex = xmalloc(2 * ml + 1);
	for (i = 0; i < ml; i++)
		snprintf(hex + 2 * i, 3, "%02x", md[i]);
	hex[2 * ml] = '\0';
	return hex;
}

static int
id_differs(const char *want, const char *name, long long id)
{
	char	*end;
	long	 v;

	if (want == NULL || (name != NULL && strcmp(want, name) == 0))
		return 0;
	v = strtol(want, &end, 10);
	return !(*want != '\0' && *end == '\0' && v == id);
}

char *
ftask_attrs_change(const struct file_stat *st, const struct ftask_attrs *a,
    int new_file)
{
	struct strbuf	 sb;
	long		 m = ftask_mode(a);
	unsigned	 have = st->mode;

	strbuf_init(&sb);
	if (new_file && m >= 0)
		strbuf_addf(&sb, "mode %04lo", m);
	else if (m >= 0 && (unsigned)m != have)
		strbuf_addf(&sb, "mode %04o -> %04lo", have, m);
	if (!new_file && id_differs(a->owner, st->owner, st->uid))
		strbuf_addf(&sb, "%sowner %s -> %s", sb.len ? ", " : "",
		    st->owner != NULL ? st->owner : "?", a->owner);
	if (!new_file && id_differs(a->group, st->group, st->gid))
		strbuf_addf(&sb, "%sgroup %s -> %s", sb.len ? ", " : "",
		    st->group != NULL ? st->group : "?", a->group);
	if (sb.len == 0) {
		strbuf_release(&sb);
		return NULL;
	}
	return strbuf_detach(&sb, NULL);
}

/* A boot sysctl file left with text: the keys another of the host's files
 * wins at boot (modules/sysctl-files.h) go in data's "sysctl_overridden"
 * and as warnings on the task line, as a sysctl task says them; under
 * tcptune drift, what of its keys drifted goes in data's "drift". */
static void
sysctl_note(struct module_ctx *ctx, const char *dest, const char *text,
    struct module_result *res)
{
	json_t		*o = sysctl_files_overrides(module_ctx_facts(ctx), dest,
	    text), *drift;
	struct strbuf	 sb;
	char		*cause = NULL;

	strbuf_init(&sb);
	strbuf_addstr(&sb, res->msg != NULL ? res->msg : "");
	if (o != NULL) {
		sysctl_files_warn(&sb, o);
		json_object_set_new(res->data, "sysctl_overridden", o);
	}
	/* tcptune drift: the file's keys live, not only its text */
	if (module_ctx_drift(ctx) && (drift = sysctl_files_drift(ctx, dest,
	    text, &cause)) != NULL) {
		if (json_array_size(drift) > 0) {
			res->status = RESULT_CHANGED;
			strbuf_addf(&sb, "; %zu drifted item%s",
			    json_array_size(drift), json_array_size(drift) ==
			    1 ? "" : "s");
		}
		json_object_set_new(res->data, "drift", drift);
	} else if (cause != NULL) {
		strbuf_addf(&sb, "; drift of its keys not read: %s", cause);
		free(cause);
	}
	free(res->msg);
	res->msg = strbuf_detach(&sb, NULL);
}

int
ftask_put_text(struct module_ctx *ctx, const struct file_result *read,
    const struct ftask_put *put, struct module_result *res)
{
	const struct file_stat	*st = &read->st;
	struct file_request	 req;
	struct file_result	 done;
	struct strbuf		 sb;
	char			*sha1, *attrs, *d, mode[24];
	int			 text_changed, r = -1, check;
	long			 m = ftask_mode(&put->attrs);

	memset(&done, 0, sizeof done);
	check = module_ctx_check(ctx);
	sha1 = ftask_sha1(put->text, put->len);
	text_changed = !st->exists || st->type != 'f' || st->sha1 == NULL ||
	    strcmp(st->sha1, sha1) != 0;
	if (put->keep_text)
		text_changed = 0;
	attrs = put->keep_text && !st->exists ? NULL :
	    ftask_attrs_change(st, &put->attrs, !st->exists);
	if (!st->exists && !st->parent && !put->mkdirs && !put->keep_text) {
		char *dir = xstrndup(put->dest, (size_t)(strrchr(put->dest,
		    '/') - put->dest));

		res->status = RESULT_FAILED;
		res->msg = xprintf("Destination directory %s does not exist",
		    *dir ? dir : "/");
		free(dir);
		goto out;
	}
	if (!check && (text_changed || attrs != NULL)) {
		memset(&req, 0, sizeof req);
		req.write = 1;
		req.dest = put->dest;
		req.follow = put->follow;
		req.sum = file_stat_sum(st);
		req.content = text_changed ? put->text : NULL;
		if (m >= 0) {
			snprintf(mode, sizeof mode, "%04lo", m);
			req.mode = mode;
		}
		req.owner = put->attrs.owner;
		req.group = put->attrs.group;
		req.backup = text_changed && put->backup;
		req.validate = text_changed ? put->validate : NULL;
		req.mkdirs = put->mkdirs;
		if (ftask_exec(ctx, &req, &done, res) != 0)
			goto out;
		if (done.validated && done.validate_rc != 0) {
			res->status = RESULT_FAILED;
			res->msg = xprintf("failed to validate: rc:%d error:%s",
			    done.validate_rc, done.validate_err != NULL ?
			    done.validate_err : "");
			res->data = json_pack("{s:i, s:s, s:s}", "exit_status",
			    done.validate_rc, "stdout", done.validate_out ?
			    done.validate_out : "", "stderr",
			    done.validate_err ? done.validate_err : "");
			goto out;
		}
		if (done.write_error != NULL) {
			res->status = RESULT_FAILED;
			res->msg = xprintf("%s: %s", put->dest,
			    done.write_error);
			goto out;
		}
	}
	res->status = text_changed || attrs != NULL ? RESULT_CHANGED :
	    RESULT_OK;
	strbuf_init(&sb);
	if (res->status == RESULT_OK)
		strbuf_addf(&sb, "%s as wanted", put->dest);
	else
		strbuf_addf(&sb, "%s%s%s%s%s", check ? "would " : "",
		    text_changed ? (st->exists ? "write " : "create ") :
		    "set ", put->dest, attrs != NULL ? ": " : "",
		    attrs != NULL ? attrs : "");
	if (done.backup != NULL)
		strbuf_addf(&sb, " (backup %s)", done.backup);
	res->msg = strbuf_detach(&sb, NULL);
	if (module_ctx_diff(ctx) && res->status == RESULT_CHANGED) {
		strbuf_init(&sb);
		if (text_changed) {
			d = udiff(st->exists ? (put->old_text != NULL ?
			    put->old_text : "") : NULL, put->text,
			    put->dest, put->dest, 3);
			strbuf_addstr(&sb, d);
			free(d);
		}
		if (attrs != NULL)
			strbuf_addf(&sb, "%s: %s\n", put->dest, attrs);
		res->diff = strbuf_detach(&sb, NULL);
	}
	res->data = ftask_stat_json(done.after.exists > 0 ? &done.after :
	    st);
	json_object_set_new(res->data, "dest", json_string(put->dest));
	json_object_set_new(res->data, "checksum", json_string(sha1));
	if (done.after.exists <= 0 && text_changed) {
		/* not written (check mode): the size it would have */
		json_object_set_new(res->data, "size",
		    json_integer((json_int_t)put->len));
	}
	if (done.backup != NULL)
		json_object_set_new(res->data, "backup_file",
		    json_string(done.backup));
	sysctl_note(ctx, put->dest, put->text, res);
	r = 0;
out:
	free(sha1);
	free(attrs);
	file_result_clear(&done);
	return r;
}

/* A file of the controller, whole: 0, or -1 with *cause. */
static int
read_local(const char *path, char **text, size_t *len, char **cause)
{
	struct strbuf	 sb;
	char		 buf[8192];
	size_t		 n;
	FILE		*f;
	int		 r = 0;

	if ((f = fopen(path, "rb")) == NULL)
		return fail(cause, "%s: %s", path, strerror(errno));
	strbuf_init(&sb);
	while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
		strbuf_add(&sb, buf, n);
		if (sb.len > FTASK_SRC_MAX) {
			r = fail(cause, "%s: larger than %d MiB", path,
			    FTASK_SRC_MAX / (1024 * 1024));
			break;
		}
	}
	if (r == 0 && ferror(f))
		r = fail(cause, "%s: %s", path, strerror(errno));
	fclose(f);
	if (r != 0) {
		strbuf_release(&sb);
		return -1;
	}
	*text = strbuf_detach(&sb, len);
	return 0;
}

static char *
dir_of(const char *path)
{
	char	*copy = xstrdup(path), *d = xstrdup(dirname(copy));

	free(copy);
	return d;
}

int
ftask_find_src(struct module_ctx *ctx, const char *src, const char *kind,
    char **path, char **text, size_t *len, char **cause)
{
	const json_t	*rp = json_object_get(module_ctx_vars(ctx),
	    "role_path");
	const char	*pb = module_ctx_playbook_path(ctx);
	struct strbuf	 tried;
	char		*cand[6], *pbdir;
	size_t		 n = 0, i;
	int		 r = -1;

	*path = NULL;
	if (src[0] == '/') {
		if (read_local(src, text, len, cause) != 0)
			return -1;
		*path = xstrdup(src);
		return 0;
	}
	if (json_is_string(rp)) {
		const char *r0 = json_string_value(rp);

		cand[n++] = xprintf("%s/%s/%s", r0, kind, src);
		cand[n++] = xprintf("%s/%s", r0, src);
		cand[n++] = xprintf("%s/tasks/%s/%s", r0, kind, src);
		cand[n++] = xprintf("%s/tasks/%s", r0, src);
	}
	pbdir = dir_of(pb != NULL ? pb : "./x");
	cand[n++] = xprintf("%s/%s/%s", pbdir, kind, src);
	cand[n++] = xprintf("%s/%s", pbdir, src);
	free(pbdir);
	strbuf_init(&tried);
	for (i = 0; i < n; i++) {
		if (*path == NULL && access(cand[i], R_OK) == 0) {
			if (read_local(cand[i], text, len, cause) == 0) {
				/* absolute, as Ansible's result says it */
				if ((*path = realpath(cand[i], NULL)) == NULL) {
					*path = cand[i];
					cand[i] = NULL;
				}
				r = 0;
			}
			break;
		}
		strbuf_addf(&tried, "%s%s", i > 0 ? ", " : "", cand[i]);
	}
	if (*path == NULL && r != 0 && (cause == NULL || *cause == NULL))
		fail(cause, "could not find or access '%s' (searched %s)", src,
		    tried.buf);
	for (i = 0; i < n; i++)
		free(cand[i]);
	strbuf_release(&tried);
	return r;
}

int
ftask_copy_text(struct module_ctx *ctx, const struct ftask_copy_args *a,
    const char *text, size_t len, const char *base, const char *dir_msg,
    const char *src, struct module_result *res)
{
	struct file_request	 req;
	struct file_result	 rd;
	struct ftask_put	 put;
	char			*dest = xstrdup(a->dest);

	memset(&req, 0, sizeof req);
	req.dest = dest;
	req.follow = a->follow;
	req.read_text = module_ctx_diff(ctx);
	if (ftask_exec(ctx, &req, &rd, res) != 0)
		goto out;
	if (rd.st.exists && rd.st.type == 'd') {
		if (base == NULL) {
			res->status = RESULT_FAILED;
			res->msg = xstrdup(dir_msg);
			goto out;
		}
		free(dest);
		dest = xprintf("%s/%s", a->dest, base);
		req.dest = dest;
		file_result_clear(&rd);
		if (ftask_exec(ctx, &req, &rd, res) != 0)
			goto out;
	}
	if (rd.st.exists && !a->force) {
		res->status = RESULT_OK;
		res->msg = xprintf("%s exists (force: false)", dest);
		res->data = json_pack("{s:s, s:s}", "dest", dest, "msg",
		    "file already exists");
		goto out;
	}
	memset(&put, 0, sizeof put);
	put.dest = dest;
	put.follow = a->follow;
	put.text = text;
	put.len = len;
	put.attrs = (struct ftask_attrs){ a->mode, a->owner, a->group };
	put.backup = a->backup;
	put.validate = a->validate;
	put.old_text = rd.text;
	if (ftask_put_text(ctx, &rd, &put, res) == 0 && src != NULL)
		json_object_set_new(res->data, "src", json_string(src));
out:
	free(dest);
	file_result_clear(&rd);
	return 0;
}

void
ftask_failed(struct module_result *res, int rc, char *msg)
{
	res->status = RESULT_FAILED;
	res->msg = msg;
	if (rc != 0)
		res->data = json_pack("{s:i, s:s}", "rc", rc, "msg", msg);
}

int
ftask_edit_read(struct module_ctx *ctx, const char *path, int create,
    const char *missing_fmt, struct file_result *rd,
    struct module_result *res)
{
	struct file_request req;

	memset(&req, 0, sizeof req);
	req.dest = path;
	req.follow = 1;
	req.read_text = 1;
	if (ftask_exec(ctx, &req, rd, res) != 0)
		return -1;
	if (rd->st.exists && rd->st.type == 'd') {
		ftask_failed(res, 256, xprintf("Path %s is a directory !",
		    path));
		return -1;
	}
	if (!rd->st.exists && !create) {
		ftask_failed(res, 257, xprintf(missing_fmt, path));
		return -1;
	}
	if (rd->st.exists && rd->text == NULL) {
		ftask_failed(res, 0, xprintf("%s: not a regular file", path));
		return -1;
	}
	return 0;
}

int
ftask_edit_write(struct module_ctx *ctx, const struct file_result *rd,
    const struct ftask_edit *e, struct module_result *res)
{
	struct ftask_put	 put;
	struct strbuf		 sb;
	char			*ac;

	memset(&put, 0, sizeof put);
	put.dest = rd->st.path != NULL ? rd->st.path : e->path;
	put.follow = 1;
	put.text = e->text;
	put.len = e->len;
	put.attrs = e->attrs;
	put.backup = e->backup;
	put.validate = e->validate;
	put.mkdirs = 1;
	put.keep_text = !e->changed;
	put.old_text = rd->text;
	if (ftask_put_text(ctx, rd, &put, res) != 0)
		return -1;
	strbuf_init(&sb);
	strbuf_addstr(&sb, e->what);
	/* check_file_attrs, which a check of a file still to be created
	 * does not reach */
	if (rd->st.exists || (e->changed && !module_ctx_check(ctx))) {
		if ((ac = ftask_attrs_change(&rd->st, &put.attrs,
		    !rd->st.exists)) != NULL)
			strbuf_addf(&sb, "%sownership, perms or SE linux "
			    "context changed", e->changed ? " and " : "");
		free(ac);
	}
	json_object_set_new(res->data, "msg", json_stringn(sb.buf, sb.len));
	if (sb.len > 0) {
		/* the edit's words replace the write's; its warnings stay */
		struct strbuf line;

		strbuf_init(&line);
		strbuf_addf(&line, "%s: %s", e->path, sb.buf);
		sysctl_files_warn(&line, json_object_get(res->data,
		    "sysctl_overridden"));
		free(res->msg);
		res->msg = strbuf_detach(&line, NULL);
	}
	strbuf_release(&sb);
	return 0;
}

const char *
ftask_path_of(const struct ftask_path *p, char **cause)
{
	const char	*one = p->path != NULL ? p->path : p->dest != NULL ?
			    p->dest : p->name;
	int		 n = (p->path != NULL) + (p->dest != NULL) +
			    (p->name != NULL);

	if (n != 1) {
		if (cause != NULL)
			*cause = xstrdup(n == 0 ? "missing required "
			    "arguments: path" : "parameters are mutually "
			    "exclusive: path|dest|name");
		return NULL;
	}
	return one;
}
