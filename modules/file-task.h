/* What the file modules share (template, copy, lineinfile, file, stat):
 * one call of lib/remote/file.sh, the attribute parameters (mode, owner,
 * group) as Ansible's file arguments, the write of a file's new text with
 * its check and diff, and the result keys a later `register` reads. */
#ifndef TCPTUNE_FILE_TASK_H
#define TCPTUNE_FILE_TASK_H

#include <jansson.h>
#include <stddef.h>

#include "playbook/module.h"
#include "remote/fileop.h"

/* The attributes a task asks for; NULL: not asked. */
struct ftask_attrs {
	const char	*mode;		/* octal */
	const char	*owner;
	const char	*group;
};

/* The parameter rows of mode, owner and group, for a conf struct with
 * those fields (each const char *) at the given offsets. */
#define FTASK_ATTR_PARAMS(mode_off, owner_off, group_off)		\
	{ .name = "mode", .type = PARAM_STR, .offset = (mode_off),	\
	  .host_line = HOSTLINE_WORD,					\
	  .help = "permissions, octal (\"0644\"; symbolic modes are "	\
	  "not supported)" },						\
	{ .name = "owner", .type = PARAM_STR, .offset = (owner_off),	\
	  .host_line = HOSTLINE_WORD,					\
	  .help = "owner, a user name or id" },				\
	{ .name = "group", .type = PARAM_STR, .offset = (group_off),	\
	  .host_line = HOSTLINE_WORD,					\
	  .help = "group, a name or id" }

/* What copy and template share: the parameters of the write, a member of
 * their conf (their table rows name its fields, FTASK_WRITE_PARAMS), and
 * the write itself. */
struct ftask_copy_args {
	const char	*dest;
	const char	*mode;
	const char	*owner;
	const char	*group;
	int		 backup;
	int		 force;
	int		 follow;
	const char	*validate;
};

/* The rows copy and template share: backup, force, follow, validate. */
#define FTASK_WRITE_PARAMS(backup_off, force_off, follow_off, validate_off) \
	{ .name = "backup", .type = PARAM_BOOL, .offset = (backup_off),	\
	  .def = "false",						\
	  .help = "keep the old file as FILE.PID.DATE@TIME~ before it is " \
	  "replaced" },							\
	{ .name = "force", .type = PARAM_BOOL, .offset = (force_off),	\
	  .def = "true",						\
	  .help = "false: leave an existing file alone" },		\
	{ .name = "follow", .type = PARAM_BOOL, .offset = (follow_off),	\
	  .def = "false",						\
	  .help = "when dest is a link, write its target (else the link " \
	  "is replaced by the file)" },					\
	{ .name = "validate", .type = PARAM_STR, .offset = (validate_off), \
	  .host_line = HOSTLINE_SHELL,					\
	  .help = "a command run on the new file before it replaces "	\
	  "dest, its %s the file's path; a failure leaves dest as it was" }

/* A validate command has exactly one "%s" (NULL: none given); 0, or -1
 * with *cause. */
int	 ftask_validate_check(const char *validate, char **cause);
/* st's kind as Ansible's file states say it: file, directory, link,
 * absent. */
const char *ftask_kind(const struct file_stat *st);

/* path and its other names, Ansible's aliases of it (lineinfile,
 * blockinfile, file): one of them is given. */
struct ftask_path {
	const char	*path;
	const char	*dest;
	const char	*name;	/* kubespray's `file: name=DIR` */
};
/* The rows of a conf's struct ftask_path at offset off. */
#define FTASK_PATH_PARAMS(off)						\
	{ .name = "path", .type = PARAM_PATH,				\
	  .offset = (off) + offsetof(struct ftask_path, path),		\
	  .host_line = HOSTLINE_PATH, .help = "the path on the host" },	\
	{ .name = "dest", .type = PARAM_PATH,				\
	  .offset = (off) + offsetof(struct ftask_path, dest),		\
	  .host_line = HOSTLINE_PATH, .help = "path's other name" },	\
	{ .name = "name", .type = PARAM_PATH,				\
	  .offset = (off) + offsetof(struct ftask_path, name),		\
	  .host_line = HOSTLINE_PATH, .help = "path's other name" }
/* The path given, or NULL with *cause (if cause) when none or more than
 * one of the names is. */
const char *ftask_path_of(const struct ftask_path *p, char **cause);

/* The rows the text edits share (lineinfile, blockinfile). */
#define FTASK_EDIT_PARAMS(create_off, backup_off, validate_off)		\
	{ .name = "create", .type = PARAM_BOOL, .offset = (create_off),	\
	  .def = "false", .help = "create a missing file" },		\
	{ .name = "backup", .type = PARAM_BOOL, .offset = (backup_off),	\
	  .def = "false",						\
	  .help = "keep the old file as FILE.PID.DATE@TIME~" },		\
	{ .name = "validate", .type = PARAM_STR, .offset = (validate_off), \
	  .host_line = HOSTLINE_SHELL,					\
	  .help = "a command run on the new file before it replaces the " \
	  "file, its %s the file's path" }

/* Check the attributes (mode octal); 0, or -1 with *cause. */
int	 ftask_attrs_check(const struct ftask_attrs *a, char **cause);
/* The mode asked for as bits, -1 when none. */
long	 ftask_mode(const struct ftask_attrs *a);

/* One call of the file script; 0, or -1 with res failed (transport,
 * output that is not the script's, a read's error). Refuses a write in
 * check mode. */
int	 ftask_exec(struct module_ctx *ctx, const struct file_request *req,
	    struct file_result *out, struct module_result *res);

/* Ansible's file keys of st: path, state (file, directory, link, absent),
 * mode ("0644"), uid, gid, owner, group, size. A new object. */
json_t	*ftask_stat_json(const struct file_stat *st);
/* sha1 of n bytes, as hex (Ansible's checksum). New string. */
char	*ftask_sha1(const char *s, size_t n);
/* "mode 0644 -> 0600, owner root -> nobody" for what a task changes of
 * st's attributes (new: a file to create), or NULL. New string. */
char	*ftask_attrs_change(const struct file_stat *st,
	    const struct ftask_attrs *a, int new_file);

/* The most bytes a src file may have. */
#define FTASK_SRC_MAX	(16 * 1024 * 1024)

/* A task's src on the controller, as Ansible looks it up: an absolute
 * path as it is; else, in a role, ROLE/KIND/SRC, ROLE/SRC,
 * ROLE/tasks/KIND/SRC, ROLE/tasks/SRC, then beside the playbook
 * PLAYBOOK_DIR/KIND/SRC and PLAYBOOK_DIR/SRC (KIND: "templates" or
 * "files"). The first found is read whole: 0 with *path and *text
 * (allocated, *len bytes), or -1 with *cause naming every path tried. */
int	 ftask_find_src(struct module_ctx *ctx, const char *src,
	    const char *kind, char **path, char **text, size_t *len,
	    char **cause);

/* A file's new text, to be written as copy's atomic_move does. */
struct ftask_put {
	const char		*dest;
	int			 follow;
	const char		*text;		/* the new text */
	size_t			 len;
	struct ftask_attrs	 attrs;
	int			 backup;
	const char		*validate;	/* NULL: none */
	int			 mkdirs;	/* create missing parents */
	/* The caller decided the text stays (lineinfile): only the
	 * attributes of an existing file may change. */
	int			 keep_text;
	/* The file's text as read, for --diff (NULL: not read; absent). */
	const char		*old_text;
};

/*
 * Decide and (outside check mode) write: the text changed when the file is
 * not a regular file with the new text's sha1 (a link without follow is
 * replaced, as copy does), the attributes when they differ. Nothing to do:
 * ok. Else changed, and in a run the second round trip writes (the read's
 * sum travels with it). Fills res (status, msg with `what` before the
 * path, diff, data: dest, checksum, Ansible's file keys, backup_file) and
 * returns 0; -1 when res failed.
 */
int	 ftask_put_text(struct module_ctx *ctx, const struct file_result *read,
	    const struct ftask_put *put, struct module_result *res);

/* A failure with the module's rc (0: none) and msg in data. Takes msg. */
void	 ftask_failed(struct module_result *res, int rc, char *msg);

/*
 * The edits of a file's text (lineinfile, blockinfile): read the file and
 * its text, through a link (0, or -1 with res failed: a directory, rc 256
 * "Path P is a directory !"; a missing file without create, rc 257, msg
 * missing_fmt with %s the path). Then ftask_edit_write puts the new text
 * as the modules write it (the link's target, missing directories made,
 * only when the edit changed it; else only the attributes) and makes the
 * modules' msg: what (the edit's), and "ownership, perms or SE linux
 * context changed" after " and " when the attributes change too, as
 * their check_file_attrs; in data "msg", and the module's message after
 * the path as the task line.
 */
int	 ftask_edit_read(struct module_ctx *ctx, const char *path, int create,
	    const char *missing_fmt, struct file_result *rd,
	    struct module_result *res);
struct ftask_edit {
	const char		*path;
	const char		*text;		/* the new text, len bytes */
	size_t			 len;
	int			 changed;	/* the edit changed the text */
	const char		*what;		/* the edit's msg */
	struct ftask_attrs	 attrs;
	int			 backup;
	const char		*validate;
};
int	 ftask_edit_write(struct module_ctx *ctx,
	    const struct file_result *rd, const struct ftask_edit *e,
	    struct module_result *res);

/*
 * Write text (len bytes) to a->dest as the copy module does: one read
 * (the text too with --diff); a dest that is a directory gets
 * DEST/BASENAME (base NULL: refused with dir_msg); force false leaves an
 * existing file alone; then ftask_put_text. src (may be NULL) is the
 * result's "src". Fills res; returns 0.
 */
int	 ftask_copy_text(struct module_ctx *ctx, const struct ftask_copy_args *a,
	    const char *text, size_t len, const char *base,
	    const char *dir_msg, const char *src, struct module_result *res);

#endif
