/* ansible.builtin.blockinfile: a block of lines between two marker lines,
 * inserted, replaced or removed as the module's main() decides (ported in
 * lib/tune/blockinfile.c, compared with the module's own code by
 * unit/test-blockinfile), written as lineinfile writes: to the link's
 * target, atomically, backup and validate first, then the attributes.
 * One round trip reads, a second (never in check mode) writes. */
#include "playbook/module.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "modules/file-task.h"
#include "tune/blockinfile.h"

struct blockinfile_conf {
	struct module_conf	 hdr;
	struct ftask_path	 p;
	const char		*state;
	const char		*marker;
	const char		*block;
	const char		*content;
	const char		*insertafter;
	const char		*insertbefore;
	int			 create;
	int			 backup;
	const char		*marker_begin;
	const char		*marker_end;
	const char		*validate;
	const char		*mode;
	const char		*owner;
	const char		*group;
};

#define AT(f)	offsetof(struct blockinfile_conf, f)

static const char *const states[] = { "present", "absent", NULL };

static const struct module_param blockinfile_params[] = {
	FTASK_PATH_PARAMS(AT(p)),
	{ .name = "state", .type = PARAM_CHOICE, .offset = AT(state),
	  .def = "present", .choices = states,
	  .help = "present: the block is there; absent: removed" },
	{ .name = "marker", .type = PARAM_STR, .offset = AT(marker),
	  .help = "the marker lines, {mark} standing for marker_begin and "
	  "marker_end (default \"# {mark} ANSIBLE MANAGED BLOCK\")" },
	{ .name = "block", .type = PARAM_STR, .offset = AT(block),
	  .help = "the lines between the markers (\"\": the block is "
	  "removed)" },
	{ .name = "content", .type = PARAM_STR, .offset = AT(content),
	  .help = "block's other name" },
	{ .name = "insertafter", .type = PARAM_STR, .offset = AT(insertafter),
	  .help = "EOF or a regular expression: a new block goes after the "
	  "last line it matches" },
	{ .name = "insertbefore", .type = PARAM_STR,
	  .offset = AT(insertbefore),
	  .help = "BOF or a regular expression: a new block goes before the "
	  "last line it matches" },
	FTASK_EDIT_PARAMS(AT(create), AT(backup), AT(validate)),
	{ .name = "marker_begin", .type = PARAM_STR,
	  .offset = AT(marker_begin), .def = "BEGIN",
	  .help = "{mark} of the first marker" },
	{ .name = "marker_end", .type = PARAM_STR, .offset = AT(marker_end),
	  .def = "END", .help = "{mark} of the last marker" },
	FTASK_ATTR_PARAMS(AT(mode), AT(owner), AT(group)),
	{ .name = NULL },
};

static int
blockinfile_validate(const void *vconf, char **cause)
{
	const struct blockinfile_conf	*c = vconf;
	struct ftask_attrs		 a = { c->mode, c->owner, c->group };

	if (ftask_path_of(&c->p, cause) == NULL)
		return -1;
	if (c->block != NULL && c->content != NULL)
		return fail(cause, "parameters are mutually exclusive: block|"
		    "content");
	if (c->insertbefore != NULL && c->insertafter != NULL)
		return fail(cause, "parameters are mutually exclusive: "
		    "insertbefore|insertafter");
	if (ftask_validate_check(c->validate, cause) != 0)
		return -1;
	return ftask_attrs_check(&a, cause);
}

static int
blockinfile_task(struct module_ctx *ctx, const void *vconf,
    struct module_result *res)
{
	const struct blockinfile_conf	*c = vconf;
	const char			*path = ftask_path_of(&c->p,
					    NULL);
	struct file_result		 rd;
	struct bif_task			 t;
	struct bif_out			 bo;
	struct ftask_edit		 e;
	char				*cause = NULL;
	int				 present;

	memset(&rd, 0, sizeof rd);
	memset(&bo, 0, sizeof bo);
	present = c->state == NULL || strcmp(c->state, "present") == 0;
	if (ftask_edit_read(ctx, path, c->create, "Path %s does not exist !",
	    &rd, res) != 0)
		goto out;
	if (!rd.st.exists && !present) {
		res->status = RESULT_OK;
		res->msg = xprintf("File %s not present", path);
		res->data = json_pack("{s:s}", "msg", res->msg);
		goto out;
	}
	memset(&t, 0, sizeof t);
	t.present = present;
	/* the default is no YAML (its '#' would start a comment) */
	t.marker = c->marker != NULL ? c->marker :
	    "# {mark} ANSIBLE MANAGED BLOCK";
	t.marker_begin = c->marker_begin;
	t.marker_end = c->marker_end;
	t.block = c->block != NULL ? c->block : c->content != NULL ?
	    c->content : "";
	t.insertafter = c->insertafter;
	t.insertbefore = c->insertbefore;
	if (bif_decide(&t, rd.text, rd.text != NULL ? strlen(rd.text) : 0,
	    &bo, &cause) != 0) {
		ftask_failed(res, 0, cause);
		goto out;
	}
	e = (struct ftask_edit){ path, bo.text, bo.len, bo.changed, bo.msg,
	    { c->mode, c->owner, c->group }, c->backup, c->validate };
	ftask_edit_write(ctx, &rd, &e, res);
out:
	bif_out_clear(&bo);
	file_result_clear(&rd);
	return 0;
}

static const char *const blockinfile_aliases[] = {
	"ansible.builtin.blockinfile", "ansible.legacy.blockinfile", NULL };

const struct module mod_blockinfile = {
	.name = "blockinfile",
	.aliases = blockinfile_aliases,
	.summary = "a block of lines between marker lines in a file "
	    "(inserted, replaced, removed)",
	.params = blockinfile_params,
	.conf_size = sizeof(struct blockinfile_conf),
	.validate = blockinfile_validate,
	.run = blockinfile_task,
	.plan = blockinfile_task,
	.kv_free_form = 1,
};
