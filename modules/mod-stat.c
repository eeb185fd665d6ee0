/* ansible.builtin.stat: what a path is, for a later `register` (its
 * `stat.exists`, `stat.isdir`, `stat.mode`, `stat.checksum` ...), in one
 * read-only round trip (lib/remote/file.sh's read), so check mode runs it
 * too, as Ansible runs stat in check mode. */
#include "playbook/module.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "modules/file-task.h"

struct stat_conf {
	struct module_conf	 hdr;
	const char		*path;
	int			 follow;
	int			 get_checksum;
	int			 get_attributes;	/* accepted, unused */
	int			 get_mime;		/* accepted, unused */
};

#define AT(f)	offsetof(struct stat_conf, f)

static const struct module_param stat_params[] = {
	{ .name = "path", .type = PARAM_PATH, .offset = AT(path),
	  .required = 1, .host_line = HOSTLINE_PATH,
	  .help = "the path on the host" },
	{ .name = "follow", .type = PARAM_BOOL, .offset = AT(follow),
	  .def = "false", .help = "a link's target is what is shown" },
	{ .name = "get_checksum", .type = PARAM_BOOL,
	  .offset = AT(get_checksum), .def = "true",
	  .help = "the sha1 of a regular file (stat.checksum)" },
	/* roles turn these off to save time (kubespray); tcptune's stat
	 * gives neither, so either way is the same */
	{ .name = "get_attributes", .type = PARAM_BOOL,
	  .offset = AT(get_attributes), .def = "true",
	  .help = "accepted; the attributes (lsattr) are not returned" },
	{ .name = "get_mime", .type = PARAM_BOOL, .offset = AT(get_mime),
	  .def = "true",
	  .help = "accepted; the mime type is not returned" },
	{ .name = NULL },
};

/* The module's stat dictionary. */
static json_t *
stat_json(const struct stat_conf *c, const struct file_stat *st)
{
	json_t	*s = json_object();
	char	 mode[8];

	json_object_set_new(s, "exists", json_boolean(st->exists));
	if (!st->exists)
		return s;
	snprintf(mode, sizeof mode, "%04o", st->mode);
	json_object_set_new(s, "path", json_string(c->path));
	json_object_set_new(s, "mode", json_string(mode));
	json_object_set_new(s, "isdir", json_boolean(st->type == 'd'));
	json_object_set_new(s, "isreg", json_boolean(st->type == 'f'));
	json_object_set_new(s, "islnk", json_boolean(st->type == 'l'));
	json_object_set_new(s, "uid", json_integer(st->uid));
	json_object_set_new(s, "gid", json_integer(st->gid));
	json_object_set_new(s, "pw_name", json_string(st->owner != NULL ?
	    st->owner : ""));
	json_object_set_new(s, "gr_name", json_string(st->group != NULL ?
	    st->group : ""));
	json_object_set_new(s, "size", json_integer(st->size));
	json_object_set_new(s, "mtime", json_integer(st->mtime));
	json_object_set_new(s, "readable", json_true());
	if (st->type == 'l' && st->target != NULL)
		json_object_set_new(s, "lnk_target", json_string(st->target));
	if (c->get_checksum && st->type == 'f' && st->sha1 != NULL)
		json_object_set_new(s, "checksum", json_string(st->sha1));
	return s;
}

static int
stat_run(struct module_ctx *ctx, const void *vconf, struct module_result *res)
{
	const struct stat_conf	*c = vconf;
	struct file_request	 req;
	struct file_result	 rd;

	memset(&req, 0, sizeof req);
	req.dest = c->path;
	req.follow = c->follow;
	if (ftask_exec(ctx, &req, &rd, res) != 0)
		goto out;
	res->status = RESULT_OK;
	res->msg = xprintf("%s: %s", c->path, !rd.st.exists ? "absent" :
	    rd.st.type == 'd' ? "directory" : rd.st.type == 'l' ? "link" :
	    rd.st.type == 'f' ? "file" : "other");
	res->data = json_pack("{s:o}", "stat", stat_json(c, &rd.st));
out:
	file_result_clear(&rd);
	return 0;
}

static const char *const stat_aliases[] = { "ansible.builtin.stat",
	"ansible.legacy.stat", NULL };

const struct module mod_stat = {
	.name = "stat",
	.aliases = stat_aliases,
	.summary = "what a path is (exists, kind, mode, owner, checksum), "
	    "for register",
	.params = stat_params,
	.conf_size = sizeof(struct stat_conf),
	.run = stat_run,
	.check_safe = 1,
	.kv_free_form = 1,
};
