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

#include "base/strbuf.h"
#include "base/xalloc.h"
#include "modules/file-task.h"
#include "tune/lineinfile.h"

struct lineinfile_conf {
	struct module_conf	 hdr;
	const char		*path;
	const char		*dest;
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
	{ .name = "path", .type = PARAM_PATH, .offset = AT(path),
	  .host_line = HOSTLINE_PATH, .help = "the file to edit" },
	{ .name = "dest", .type = PARAM_PATH, .offset = AT(dest),
	  .host_line = HOSTLINE_PATH, .help = "path's other name" },
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
	{ .name = "create", .type = PARAM_BOOL, .offset = AT(create),
	  .def = "false", .help = "create a missing file" },
	{ .name = "backup", .type = PARAM_BOOL, .offset = AT(backup),
	  .def = "false",
	  .help = "keep the old file as FILE.PID.DATE@TIME~" },
	{ .name = "firstmatch", .type = PARAM_BOOL, .offset = AT(firstmatch),
	  .def = "false",
	  .help = "the first match of regexp/insertafter/insertbefore, not "
	  "the last" },
	{ .name = "validate", .type = PARAM_STR, .offset = AT(validate),
	  .host_line = HOSTLINE_SHELL,
	  .help = "a command run on the new file before it replaces the "
	  "file, its %s the file's path" },
	FTASK_ATTR_PARAMS(AT(mode), AT(owner), AT(group)),
	{ .name = NULL },
};

static const char *
conf_path(const struct lineinfile_conf *c)
{
	return c->path != NULL ? c->path : c->dest;
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

	if ((c->path == NULL) == (c->dest == NULL))
		return fail(cause, "one of path and dest is required (not "
		    "both)");
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

static void
failed(struct module_result *res, int rc, char *msg)
{
	res->status = RESULT_FAILED;
	res->msg = msg;
	if (rc != 0)
		res->data = json_pack("{s:i, s:s}", "rc", rc, "msg", msg);
}

static int
lineinfile_task(struct module_ctx *ctx, const void *vconf,
    struct module_result *res)
{
	const struct lineinfile_conf	*c = vconf;
	const char			*path = conf_path(c);
	struct file_request		 req;
	struct file_result		 rd;
	struct lif_task			 t;
	struct lif_out			 lo;
	struct ftask_put		 put;
	struct strbuf			 sb;
	char				*cause = NULL;
	int				 present;

	memset(&rd, 0, sizeof rd);
	memset(&lo, 0, sizeof lo);
	present = c->state == NULL || strcmp(c->state, "present") == 0;
	memset(&req, 0, sizeof req);
	req.dest = path;
	req.follow = 1;
	req.read_text = 1;
	if (ftask_exec(ctx, &req, &rd, res) != 0)
		goto out;
	if (rd.st.exists && rd.st.type == 'd') {
		failed(res, 256, xprintf("Path %s is a directory !", path));
		goto out;
	}
	if (!rd.st.exists && present && !c->create) {
		failed(res, 257, xprintf("Destination %s does not exist !",
		    path));
		goto out;
	}
	if (!rd.st.exists && !present) {
		res->status = RESULT_OK;
		res->msg = xstrdup("file not present");
		res->data = json_pack("{s:s, s:i}", "msg", "file not present",
		    "found", 0);
		goto out;
	}
	if (rd.st.exists && rd.text == NULL) {
		failed(res, 0, xprintf("%s: not a regular file", path));
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
		failed(res, 0, cause);
		goto out;
	}
	memset(&put, 0, sizeof put);
	put.dest = rd.st.path != NULL ? rd.st.path : path;
	put.follow = 1;
	put.text = lo.text;
	put.len = lo.len;
	put.attrs = (struct ftask_attrs){ c->mode, c->owner, c->group };
	put.backup = c->backup;
	put.validate = c->validate;
	put.mkdirs = 1;
	put.keep_text = !lo.changed;
	put.old_text = rd.text;
	if (ftask_put_text(ctx, &rd, &put, res) != 0)
		goto out;
	/* The module's msg: what it did to the text, and the attributes. */
	strbuf_init(&sb);
	if (!present && lo.changed)
		strbuf_addf(&sb, "%ld line(s) removed", lo.found);
	else
		strbuf_addstr(&sb, lo.msg);
	/* check_file_attrs, which a check of a file still to be created
	 * does not reach */
	if (rd.st.exists || (lo.changed && !module_ctx_check(ctx))) {
		char *ac = ftask_attrs_change(&rd.st, &put.attrs,
		    !rd.st.exists);

		if (ac != NULL)
			strbuf_addf(&sb, "%sownership, perms or SE linux "
			    "context changed", lo.changed ? " and " : "");
		free(ac);
	}
	json_object_set_new(res->data, "msg", json_stringn(sb.buf, sb.len));
	json_object_set_new(res->data, "backup", json_string(
	    json_string_value(json_object_get(res->data, "backup_file")) ?
	    json_string_value(json_object_get(res->data, "backup_file")) :
	    ""));
	if (!present)
		json_object_set_new(res->data, "found",
		    json_integer(lo.found));
	if (sb.len > 0) {
		char *m = xprintf("%s: %s", path, sb.buf);

		free(res->msg);
		res->msg = m;
	}
	strbuf_release(&sb);
out:
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
