/* community.general.modprobe, the pure part: how that module reads
 * /etc/modules-load.d and /etc/modprobe.d, decides "changed" and edits
 * those files (plugins/modules/modprobe.py, community.general 6.x as
 * Debian's ansible 7 ships it), so that a task copied from a role leaves
 * the same files. The host's part (reading, modprobe, the writes) is
 * lib/remote/modprobe.sh.
 *
 * Its rules, which tcptune follows:
 * - A module is loaded when /proc/modules has a line starting with its name
 *   ('-' as '_') and a space, or modules.builtin a line ending in
 *   "/NAME.ko".
 * - A file of modules-load.d loads it persistently when a line matches
 *   `^ *NAME *(?:[#;].*)?\n?\Z`; a file of modprobe.d sets a parameter with
 *   a line matching `^options NAME (\w+=\S+) *(?:[#;].*)?\n?\Z` (one
 *   parameter a line). Every regular file of the two directories counts,
 *   whatever its name.
 * - persistent present, when the module is not loaded persistently or the
 *   set of parameters in modprobe.d is not the set of the task's words:
 *   modules-load.d/NAME.conf becomes "NAME\n" (when not persistent), and
 *   (when the parameters differ) every matching options line of modprobe.d
 *   is commented out with '#' and modprobe.d/NAME.conf becomes one
 *   "options NAME P" line per word of params ("\n" for none).
 * - persistent absent, when either is there: the matching lines are
 *   commented out.
 * Where tcptune differs on purpose (docs/modules.md): a file it comments a
 * line of keeps its other lines as they were (the module writes
 * '\n'.join(lines) of lines that keep their newline, doubling every line
 * break of the file); check mode writes nothing (the module's persistent
 * step writes in check mode too); a file is read as bytes ("\r\n" is not a
 * line break of its own, as Python's text mode makes it). */
#ifndef TCPTUNE_MODPROBECONF_H
#define TCPTUNE_MODPROBECONF_H

#include <stddef.h>

#define MODPROBE_LOAD_DIR	"/etc/modules-load.d"
#define MODPROBE_OPTIONS_DIR	"/etc/modprobe.d"

enum modprobe_persist {
	MODPROBE_PERSIST_DISABLED = 0,
	MODPROBE_PERSIST_PRESENT,
	MODPROBE_PERSIST_ABSENT,
};

struct modprobe_task {
	const char		*name;
	const char		*params;	/* "" for none */
	int			 present;	/* state present, else absent */
	enum modprobe_persist	 persistent;
};

/* A regular file of one of the two directories, as read on the host. */
struct modprobe_file {
	const char	*path;
	const char	*text;
};

/* One file the task writes: its path, what it held (NULL: absent) and
 * its new text. */
struct modprobe_edit {
	char		*path;
	const char	*old;
	char		*text;
};

struct modprobe_plan {
	int			 load;		/* modprobe NAME PARAMS */
	int			 unload;	/* modprobe -r NAME */
	int			 persist_changed;	/* the files' part of
							 * "changed" */
	struct modprobe_edit	*edits;		/* only files whose bytes
						 * change */
	size_t			 nedits;
};

/* Whether line (len bytes, its newline included or not) loads name, as
 * re_find_module matches. */
int	 modprobe_line_loads(const char *line, size_t len, const char *name);
/* Whether line sets a parameter of name, as re_get_params_and_values
 * matches; *param and *plen are its "key=value". */
int	 modprobe_line_param(const char *line, size_t len, const char *name,
	    const char **param, size_t *plen);
/* A name as a kernel module's: [A-Za-z0-9_-]+ (the module puts it in a
 * regular expression unquoted; any other byte would mean something else
 * there). */
int	 modprobe_name_ok(const char *name);
/* Plan the task. loaded: as the host said; load_files and opt_files: the
 * regular files of MODPROBE_LOAD_DIR and MODPROBE_OPTIONS_DIR. */
void	 modprobe_plan(const struct modprobe_task *task, int loaded,
	    const struct modprobe_file *load_files, size_t nload,
	    const struct modprobe_file *opt_files, size_t nopt,
	    struct modprobe_plan *plan);
void	 modprobe_plan_free(struct modprobe_plan *plan);

#endif
