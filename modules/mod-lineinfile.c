/* ansible.builtin.lineinfile: make sure a line is in a file (or is not),
 * with the module's regexp, search_string, insertafter, insertbefore,
 * backrefs, firstmatch and create semantics -- its present() and absent()
 * ported line for line (lib/tune/lineinfile.c, compared with the module's
 * own code by unit/test-lineinfile) -- then written as the module does
 * (to the link's target, atomically, backup and validate first), with
 * its attributes.
 *
 * One round trip reads the file's text and attributes; the decision is
 * made here; a second, only when something changes and never in check
 * mode, writes (the checksum read travelling with the text). */
#include "playbook/module.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "modules/file-task.h"
#include "tune/lineinfile.h"

struct lineinfile_conf {
	struct module_conf	 hdr;
	struct ftask_path	 p;
	const char		*state;
	const char		*regexp;
	const char		*regex;
	const char		*search_string;
	const char		*line;
	const char		*insertafter;
	const char		*insertbefore;
	int			 backrefs;
	int			 create;
	int			 backup;
	int			 firstmatch;
	const char		*validate;
	const char		*mode;
	const char		*owner;
	const char		*group;
};

#define AT(f)	offsetof(struct lineinfile_conf, f)

static const char *const states[] = { "present", "absent", NULL };

static const struct module_param lineinfile_params[] = {
	FTASK_PATH_PARAMS(AT(p)),
	{ .name = "state", .type = PARAM_CHOICE, .offset = AT(state),
	  .def = "present", .choices = states,
	  .help = "present: the line is there; absent: no line matches" },
	{ .name = "regexp", .type = PARAM_STR, .offset = AT(regexp),
	  .help = "a Python regular expression: the last line it matches is "
	  "replaced (present) or every one removed (absent)" },
	{ .name = "regex", .type = PARAM_STR, .offset = AT(regex),
	  .help = "regexp's other name" },
	{ .name = "search_string", .type = PARAM_STR,
	  .offset = AT(search_string),
	  .help = "a literal string instead of regexp" },
	{ .name = "line", .type = PARAM_STR, .offset = AT(line),
	  .help = "the line (with backrefs, a template of the match's "
	  "groups)" },
	{ .name = "insertafter", .type = PARAM_STR, .offset = AT(insertafter),
	  .help = "EOF, BOF or a regular expression: where a new line goes "
	  "(after the last match)" },
	{ .name = "insertbefore", .type = PARAM_STR,
	  .offset = AT(insertbefore),
	  .help = "BOF or a regular expression: a new line goes before the "
	  "last match" },
	{ .name = "backrefs", .type = PARAM_BOOL, .offset = AT(backrefs),
	  .def = "false",
	  .help = "expand \\1 and \\g<name> of regexp's match in line; no "
	  "match: nothing is done" },
	FTASK_EDIT_PARAMS(AT(create), AT(backup), AT(validate)),
	{ .name = "firstmatch", .type = PARAM_BOOL, .offset = AT(firstmatch),
	  .def = "false",
	  .help = "the first match of regexp/insertafter/insertbefore, not "
	  "the last" },
	FTASK_ATTR_PARAMS(AT(mode), AT(owner), AT(group)),
	{ .name = NULL },
};

static const char *
conf_path(const struct lineinfile_conf *c)
{
	return ftask_path_of(&c->p, NULL);
}

static const char *
conf_regexp(const struct lineinfile_conf *c)
{
	return c->regexp != NULL ? c->regexp : c->regex;
}

/* main()'s checks, and AnsibleModule's mutually_exclusive. */
static int
lineinfile_validate(const void *vconf, char **cause)
{
	const struct lineinfile_conf	*c = vconf;
	struct ftask_attrs		 a = { c->mode, c->owner, c->group };
	const char			*re = conf_regexp(c);

	if (ftask_path_of(&c->p, cause) == NULL)
		return -1;
	if (c->regexp != NULL && c->regex != NULL)
		return fail(cause, "parameters are mutually exclusive: regexp|"
		    "regex");
	if (c->insertbefore != NULL && c->insertafter != NULL)
		return fail(cause, "parameters are mutually exclusive: "
		    "insertbefore|insertafter");
	if (re != NULL && c->search_string != NULL)
		return fail(cause, "parameters are mutually exclusive: regexp|"
		    "search_string");
	if (c->backrefs && c->search_string != NULL)
		return fail(cause, "parameters are mutually exclusive: "
		    "backrefs|search_string");
	if (c->state == NULL || strcmp(c->state, "present") == 0) {
		if (c->backrefs && re == NULL)
			return fail(cause, "regexp is required with "
			    "backrefs=true");
		if (c->line == NULL)
			return fail(cause, "line is required with "
			    "state=present");
	} else if (re == NULL && c->search_string == NULL && c->line == NULL)
		return fail(cause, "one of line, search_string, or regexp is "
		    "required with state=absent");
	if (ftask_validate_check(c->validate, cause) != 0)
		return -1;
	return ftask_attrs_check(&a, cause);
}

static int
lineinfile_task(struct module_ctx *ctx, const void *vconf,
    struct module_result *res)
{
	const struct lineinfile_conf	*c = vconf;
	const char			*path = conf_path(c);
	struct file_result		 rd;
	struct lif_task			 t;
	struct lif_out			 lo;
	struct ftask_edit		 e;
	char				*cause = NULL, *what = NULL;
	const char			*bf;
	int				 present;

	memset(&rd, 0, sizeof rd);
	memset(&lo, 0, sizeof lo);
	present = c->state == NULL || strcmp(c->state, "present") == 0;
	if (ftask_edit_read(ctx, path, c->create || !present,
	    "Destination %s does not exist !", &rd, res) != 0)
		goto out;
	if (!rd.st.exists && !present) {
		res->status = RESULT_OK;
		res->msg = xstrdup("file not present");
		res->data = json_pack("{s:s, s:i}", "msg", "file not present",
		    "found", 0);
		goto out;
	}
	memset(&t, 0, sizeof t);
	t.present = present;
	t.regexp = conf_regexp(c);
	t.search_string = c->search_string;
	t.line = c->line;
	t.insertafter = c->insertafter;
	t.insertbefore = c->insertbefore;
	if (t.insertafter == NULL && t.insertbefore == NULL)
		t.insertafter = "EOF";
	t.backrefs = c->backrefs;
	t.firstmatch = c->firstmatch;
	if (lif_decide(&t, rd.text != NULL ? rd.text : "", rd.text != NULL ?
	    strlen(rd.text) : 0, &lo, &cause) != 0) {
		ftask_failed(res, 0, cause);
		goto out;
	}
	what = !present && lo.changed ? xprintf("%ld line(s) removed",
	    lo.found) : xstrdup(lo.msg);
	e = (struct ftask_edit){ path, lo.text, lo.len, lo.changed, what,
	    { c->mode, c->owner, c->group }, c->backup, c->validate };
	if (ftask_edit_write(ctx, &rd, &e, res) != 0)
		goto out;
	bf = json_string_value(json_object_get(res->data, "backup_file"));
	json_object_set_new(res->data, "backup", json_string(bf != NULL ?
	    bf : ""));
	if (!present)
		json_object_set_new(res->data, "found",
		    json_integer(lo.found));
out:
	free(what);
	lif_out_clear(&lo);
	file_result_clear(&rd);
	return 0;
}

static const char *const lineinfile_aliases[] = {
	"ansible.builtin.lineinfile", "ansible.legacy.lineinfile", NULL };

const struct module mod_lineinfile = {
	.name = "lineinfile",
	.aliases = lineinfile_aliases,
	.summary = "make sure a line is in a file, or is not (regexp, "
	    "insertafter/insertbefore, backrefs, create)",
	.params = lineinfile_params,
	.conf_size = sizeof(struct lineinfile_conf),
	.validate = lineinfile_validate,
	.run = lineinfile_task,
	.plan = lineinfile_task,
	.kv_free_form = 1,
};
