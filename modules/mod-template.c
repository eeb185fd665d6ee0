/* ansible.builtin.template: a Jinja2 file of the controller (a role's
 * templates/, the playbook's directory) rendered here with the host's vars
 * (lib/template: statements, filters, trim_blocks as Ansible sets it, the
 * trailing newlines kept) plus what Ansible's template action adds
 * (ansible_managed, template_path, template_fullpath, template_destpath,
 * template_host, template_uid, template_run_date), then written as copy
 * writes its content: atomically, with mode, owner, group, backup and
 * validate, one round trip when the file is already as rendered. */
#include "playbook/module.h"

#include <pwd.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "base/xalloc.h"
#include "modules/file-task.h"
#include "template/template.h"

struct template_conf {
	struct module_conf	 hdr;
	struct ftask_copy_args	 w;
	const char		*src;
};

#define AT(f)	offsetof(struct template_conf, f)

/* Ansible 2.14's DEFAULT_MANAGED_STR. */
#define ANSIBLE_MANAGED	"Ansible managed"

static const struct module_param template_params[] = {
	{ .name = "src", .type = PARAM_STR, .offset = AT(src), .required = 1,
	  .help = "the template on the controller: absolute, or looked up "
	  "in the role's templates/ and beside the playbook" },
	{ .name = "dest", .type = PARAM_PATH, .offset = AT(w.dest),
	  .required = 1, .host_line = HOSTLINE_PATH,
	  .help = "the file to write on the host" },
	FTASK_ATTR_PARAMS(AT(w.mode), AT(w.owner), AT(w.group)),
	FTASK_WRITE_PARAMS(AT(w.backup), AT(w.force), AT(w.follow), AT(w.validate)),
	{ .name = NULL },
};

static int
template_validate(const void *vconf, char **cause)
{
	const struct template_conf	*c = vconf;
	struct ftask_attrs		 a = { c->w.mode, c->w.owner, c->w.group };

	if (ftask_validate_check(c->w.validate, cause) != 0)
		return -1;
	return ftask_attrs_check(&a, cause);
}

/* The vars a template sees: the host's, and the template action's. */
static json_t *
template_vars(struct module_ctx *ctx, const struct template_conf *c,
    const char *path)
{
	json_t		*v = json_deep_copy(module_ctx_vars(ctx));
	struct utsname	 u;
	struct passwd	*pw = getpwuid(getuid());
	char		 date[32];
	time_t		 now = time(NULL);
	struct tm	 tm;

	if (v == NULL)
		v = json_object();
	if (json_object_get(v, "ansible_managed") == NULL)
		json_object_set_new(v, "ansible_managed",
		    json_string(ANSIBLE_MANAGED));
	json_object_set_new(v, "template_path", json_string(c->src));
	json_object_set_new(v, "template_fullpath", json_string(path));
	json_object_set_new(v, "template_destpath", json_string(c->w.dest));
	json_object_set_new(v, "template_uid", json_string(pw != NULL ?
	    pw->pw_name : ""));
	json_object_set_new(v, "template_host", json_string(uname(&u) == 0 ?
	    u.nodename : ""));
	localtime_r(&now, &tm);
	strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S", &tm);
	json_object_set_new(v, "template_run_date", json_string(date));
	return v;
}

static int
template_task(struct module_ctx *ctx, const void *vconf,
    struct module_result *res)
{
	const struct template_conf	*c = vconf;
	json_t				*vars = NULL;
	const char			*base;
	char				*src = NULL, *path = NULL, *text = NULL;
	char				*cause = NULL;
	size_t				 len = 0, tlen = 0;

	if (ftask_find_src(ctx, c->src, "templates", &path, &src, &len,
	    &cause) != 0) {
		res->status = RESULT_FAILED;
		res->msg = cause;
		goto out;
	}
	vars = template_vars(ctx, c, path);
	if ((text = template_render_text(src, len, vars, c->src, &tlen,
	    &cause)) == NULL) {
		res->status = RESULT_FAILED;
		res->msg = cause;
		goto out;
	}
	base = strrchr(c->src, '/') != NULL ? strrchr(c->src, '/') + 1 :
	    c->src;
	ftask_copy_text(ctx, &c->w, text, tlen, base, NULL, path, res);
out:
	json_decref(vars);
	free(src);
	free(path);
	free(text);
	return 0;
}

static const char *const template_aliases[] = { "ansible.builtin.template",
	"ansible.legacy.template", NULL };

const struct module mod_template = {
	.name = "template",
	.aliases = template_aliases,
	.summary = "render a Jinja2 template on the controller and write it "
	    "(atomic; mode, owner, group, backup, validate)",
	.params = template_params,
	.conf_size = sizeof(struct template_conf),
	.validate = template_validate,
	.run = template_task,
	.plan = template_task,
	.kv_free_form = 1,
	.search_subdir = "templates",
};
