/* ansible.builtin.file: a path's kind (file, directory, link, absent,
 * touch) and its mode, owner and group, decided as the module does from
 * one read of the path (lib/remote/file.sh) and done, only when something
 * is to be done and never in check mode, by a second round trip: the
 * missing directories created from the top, each given the attributes; a
 * link made beside the path and renamed over it; a removal (a directory
 * with everything in it); a touch. */
#include "playbook/module.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/xalloc.h"
#include "modules/file-task.h"

struct file_conf {
	struct module_conf	 hdr;
	struct ftask_path	 p;
	const char		*state;
	const char		*src;
	const char		*mode;
	const char		*owner;
	const char		*group;
	int			 force;
	int			 follow;
	const char		*modification_time;
	const char		*access_time;
};

#define AT(f)	offsetof(struct file_conf, f)

static const char *const states[] = { "file", "directory", "link",
	"absent", "touch", NULL };
/* Ansible's default for every state but touch: the times are not
 * touched. "now" and a time of one's own are not supported. */
static const char *const times[] = { "preserve", NULL };

static const struct module_param file_params[] = {
	FTASK_PATH_PARAMS(AT(p)),
	{ .name = "state", .type = PARAM_CHOICE, .offset = AT(state),
	  .choices = states,
	  .help = "file (attributes of an existing file), directory (made "
	  "with its parents), link (a symbolic link to src), absent "
	  "(removed, a directory with all in it), touch (made, or its "
	  "times updated); default: the path's own kind, else file" },
	{ .name = "src", .type = PARAM_STR, .offset = AT(src),
	  .help = "state link: the link's target (relative to its "
	  "directory, or absolute)" },
	FTASK_ATTR_PARAMS(AT(mode), AT(owner), AT(group)),
	{ .name = "force", .type = PARAM_BOOL, .offset = AT(force),
	  .def = "false",
	  .help = "link: replace a file, or a link to a missing src" },
	{ .name = "follow", .type = PARAM_BOOL, .offset = AT(follow),
	  .def = "true",
	  .help = "state file: a link's target gets the attributes" },
	{ .name = "modification_time", .type = PARAM_CHOICE,
	  .offset = AT(modification_time), .choices = times,
	  .help = "preserve: the mtime is left as it is (not with state "
	  "touch)" },
	{ .name = "access_time", .type = PARAM_CHOICE,
	  .offset = AT(access_time), .choices = times,
	  .help = "preserve: the atime is left as it is (not with state "
	  "touch)" },
	{ .name = NULL },
};

static const char *
conf_path(const struct file_conf *c)
{
	return ftask_path_of(&c->p, NULL);
}

static int
file_validate(const void *vconf, char **cause)
{
	const struct file_conf	*c = vconf;
	struct ftask_attrs	 a = { c->mode, c->owner, c->group };

	if (ftask_path_of(&c->p, cause) == NULL)
		return -1;
	if (c->src != NULL && (c->state == NULL || strcmp(c->state, "link") !=
	    0))
		return fail(cause, "src option requires state to be 'link' or "
		    "'hard'");
	if ((c->modification_time != NULL || c->access_time != NULL) &&
	    c->state != NULL && strcmp(c->state, "touch") == 0)
		return fail(cause, "modification_time and access_time "
		    "'preserve' with state touch are not supported");
	return ftask_attrs_check(&a, cause);
}

static void
fail_with(struct module_result *res, const char *path, char *msg)
{
	res->status = RESULT_FAILED;
	res->msg = msg;
	res->data = json_pack("{s:s, s:s}", "path", path, "msg", msg);
}

static int
file_task(struct module_ctx *ctx, const void *vconf,
    struct module_result *res)
{
	const struct file_conf	*c = vconf;
	const char		*path = conf_path(c), *state, *action;
	struct ftask_attrs	 a = { c->mode, c->owner, c->group };
	struct file_request	 req;
	struct file_result	 rd, done;
	struct strbuf		 sb;
	char			*attrs = NULL, *cause = NULL, mode[24];
	int			 want_attrs, check = module_ctx_check(ctx);
	long			 m = ftask_mode(&a);

	memset(&rd, 0, sizeof rd);
	memset(&done, 0, sizeof done);
	memset(&req, 0, sizeof req);
	req.dest = path;
	/* follow: a link's target is the path, but for link and absent,
	 * which are about the link itself */
	state = c->state;
	req.follow = c->follow && (state == NULL || (strcmp(state, "link") !=
	    0 && strcmp(state, "absent") != 0));
	req.src = c->src;
	if (ftask_exec(ctx, &req, &rd, res) != 0)
		goto out;
	if (state == NULL)
		state = rd.st.exists ? (rd.st.type == 'd' ? "directory" :
		    rd.st.type == 'l' ? "link" : "file") : "file";
	if (file_state_decide(&rd.st, path, state, c->src, c->force, &action,
	    &want_attrs, &cause) != 0) {
		fail_with(res, path, cause);
		goto out;
	}
	if (want_attrs && rd.st.exists && (action == NULL ||
	    strcmp(action, "link") != 0))
		attrs = ftask_attrs_change(&rd.st, &a, 0);
	else if (want_attrs && action != NULL)
		attrs = ftask_attrs_change(&rd.st, &a, 1);
	res->status = action != NULL || attrs != NULL ? RESULT_CHANGED :
	    RESULT_OK;
	if (!check && res->status == RESULT_CHANGED) {
		req.write = 1;
		req.sum = file_stat_sum(&rd.st);
		req.action = action;
		if (want_attrs && m >= 0) {
			snprintf(mode, sizeof mode, "%04lo", m);
			req.mode = mode;
		}
		req.owner = want_attrs ? c->owner : NULL;
		req.group = want_attrs ? c->group : NULL;
		if (ftask_exec(ctx, &req, &done, res) != 0)
			goto out;
		if (done.write_error != NULL) {
			fail_with(res, path, xprintf("%s: %s", path,
			    done.write_error));
			goto out;
		}
	}
	strbuf_init(&sb);
	if (action != NULL)
		strbuf_addf(&sb, "%s%s: %s -> %s", check ? "would change " : "",
		    path, ftask_kind(&rd.st), strcmp(state, "touch") == 0 ?
		    "touched" : state);
	else
		strbuf_addf(&sb, "%s: %s", path, ftask_kind(&rd.st));
	if (attrs != NULL)
		strbuf_addf(&sb, "; %s", attrs);
	res->msg = strbuf_detach(&sb, NULL);
	if (module_ctx_diff(ctx) && res->status == RESULT_CHANGED)
		res->diff = xprintf("%s\n", res->msg);
	res->data = ftask_stat_json(done.after.exists > 0 ? &done.after :
	    &rd.st);
	json_object_set_new(res->data, "path", json_string(path));
	if (strcmp(state, "absent") == 0)
		json_object_set_new(res->data, "state", json_string("absent"));
	else if (done.after.exists <= 0)
		json_object_set_new(res->data, "state", json_string(
		    strcmp(state, "touch") == 0 ? "file" : state));
	if (strcmp(state, "link") == 0 && c->src != NULL) {
		json_object_set_new(res->data, "src", json_string(c->src));
		json_object_set_new(res->data, "dest", json_string(path));
	}
out:
	free(attrs);
	file_result_clear(&rd);
	file_result_clear(&done);
	return 0;
}

static const char *const file_aliases[] = { "ansible.builtin.file",
	"ansible.legacy.file", NULL };

const struct module mod_file = {
	.name = "file",
	.aliases = file_aliases,
	.summary = "a path's kind (file, directory, link, absent, touch), "
	    "mode, owner and group",
	.params = file_params,
	.conf_size = sizeof(struct file_conf),
	.validate = file_validate,
	.run = file_task,
	.plan = file_task,
	.kv_free_form = 1,
};
