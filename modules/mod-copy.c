/* ansible.builtin.copy: a file's text from `content` or from a `src` file
 * of the controller (a role's files/, the playbook's directory), written
 * atomically with its mode, owner and group, as the module (and its action
 * plugin) does -- with a --check and --diff that are the read's answer.
 *
 * One round trip when the file is as wanted (its sha1 and attributes
 * read), two when not (modules/file-task.c, lib/remote/file.sh): the
 * write carries the checksum read, so a file changed in between is
 * refused, not overwritten. */
#include "playbook/module.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "modules/file-task.h"

struct copy_conf {
	struct module_conf	 hdr;
	struct ftask_copy_args	 w;
	const char		*content;
	const char		*src;
};

#define AT(f)	offsetof(struct copy_conf, f)

static const struct module_param copy_params[] = {
	{ .name = "dest", .type = PARAM_PATH, .offset = AT(w.dest),
	  .required = 1, .host_line = HOSTLINE_PATH,
	  .help = "the file to write on the host" },
	{ .name = "content", .type = PARAM_STR, .offset = AT(content),
	  .help = "the file's text (instead of src)" },
	{ .name = "src", .type = PARAM_STR, .offset = AT(src),
	  .help = "a file of the controller: absolute, or looked up in the "
	  "role's files/ and beside the playbook" },
	FTASK_ATTR_PARAMS(AT(w.mode), AT(w.owner), AT(w.group)),
	FTASK_WRITE_PARAMS(AT(w.backup), AT(w.force), AT(w.follow), AT(w.validate)),
	{ .name = NULL },
};

static int
copy_validate(const void *vconf, char **cause)
{
	const struct copy_conf	*c = vconf;
	struct ftask_attrs	 a = { c->w.mode, c->w.owner, c->w.group };

	if ((c->content == NULL) == (c->src == NULL))
		return fail(cause, "one of content and src is required (not "
		    "both)");
	if (ftask_validate_check(c->w.validate, cause) != 0)
		return -1;
	return ftask_attrs_check(&a, cause);
}

/* The text to write: content, or the src file's. */
static int
copy_text(struct module_ctx *ctx, const struct copy_conf *c, char **text,
    size_t *len, char **srcpath, struct module_result *res)
{
	char *cause = NULL;

	*srcpath = NULL;
	if (c->content != NULL) {
		*text = xstrdup(c->content);
		*len = strlen(c->content);
		return 0;
	}
	if (ftask_find_src(ctx, c->src, "files", srcpath, text, len,
	    &cause) != 0) {
		res->status = RESULT_FAILED;
		res->msg = cause;
		return -1;
	}
	return 0;
}

static int
copy_task(struct module_ctx *ctx, const void *vconf,
    struct module_result *res)
{
	const struct copy_conf	*c = vconf;
	char			*text = NULL, *srcpath = NULL;
	const char		*base = NULL;
	size_t			 len = 0;

	if (copy_text(ctx, c, &text, &len, &srcpath, res) != 0)
		goto out;
	/* a directory dest gets the src's name, as the module does */
	if (c->src != NULL)
		base = strrchr(c->src, '/') != NULL ? strrchr(c->src, '/') + 1 :
		    c->src;
	ftask_copy_text(ctx, &c->w, text, len, base,
	    "can not use content with a dir as dest", srcpath, res);
out:
	free(text);
	free(srcpath);
	return 0;
}

static const char *const copy_aliases[] = { "ansible.builtin.copy",
	"ansible.legacy.copy", NULL };

const struct module mod_copy = {
	.name = "copy",
	.aliases = copy_aliases,
	.summary = "write a file from content or a controller file "
	    "(atomic; mode, owner, group, backup, validate)",
	.params = copy_params,
	.conf_size = sizeof(struct copy_conf),
	.validate = copy_validate,
	.run = copy_task,
	.plan = copy_task,
	.kv_free_form = 1,
};
