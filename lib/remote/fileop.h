/* The file round trips (lib/remote/file.sh) of template, copy, lineinfile,
 * file and stat: read, what such a task decides by (the path's kind,
 * attributes, checksums and text); write, what it then does (new text
 * replaced atomically, a directory, a link, a touch or a removal, then the
 * attributes). This file builds the calls, parses what the script prints,
 * and holds the pure rules the modules share: the mode, owner and group a
 * task asks for against what is there. */
#ifndef TCPTUNE_REMOTE_FILEOP_H
#define TCPTUNE_REMOTE_FILEOP_H

#include <stddef.h>

#include "remote/remote-cmd.h"

/* What the script showed of a path (@stat, @after). */
struct file_stat {
	char		*path;		/* the file read: DEST or its target */
	int		 exists;
	int		 parent;	/* its directory exists */
	int		 src_exists;	/* SRC given and it exists */
	char		 type;		/* 'f' file, 'd' directory, 'l' link,
					 * 'o' other, 0 absent */
	unsigned	 mode;		/* permission bits, set-id and sticky */
	long long	 uid, gid, size, mtime;
	char		*owner, *group;
	char		*target;	/* a link's */
	char		*sum;		/* cksum of a regular file, else NULL */
	char		*sha1;
	char		*error;
};

struct file_result {
	struct file_stat	 st;
	char			*text;		/* @text, NULL: not shown */
	struct file_stat	 after;		/* @after; exists -1: not shown */
	char			*error;		/* @check, and a read's */
	char			*write_error;	/* every failed step, "; " */
	int			 written;	/* steps done */
	char			*backup;	/* the backup's path */
	int			 validated;	/* @validate shown */
	int			 validate_rc;
	char			*validate_out, *validate_err;
	int			 done;
};

struct file_request {
	int		 write;		/* else read */
	const char	*dest;
	int		 follow;
	int		 read_text;	/* read: show a regular file's text */
	/* write: */
	const char	*content;	/* the new text, NULL: keep it */
	const char	*sum;		/* read's sum, or the kind ("absent") */
	const char	*mode;		/* octal digits, or NULL */
	const char	*owner, *group;
	int		 backup;
	const char	*validate;	/* with one "%s", or NULL */
	int		 mkdirs;
	const char	*action;	/* mkdir | rm | link | touch, or NULL */
	const char	*src;		/* link's target */
};

void	 file_call(const struct file_request *req, struct remote_call *call);
/* -1 with *cause when the output is not the script's or was cut short. */
int	 file_parse(const char *out, size_t len, struct file_result *res,
	    char **cause);
void	 file_result_clear(struct file_result *res);

/* The sum write compares with: a regular file's cksum, else its kind
 * ("absent", "directory", "link", "other"), as the script's file_sum. */
const char *file_stat_sum(const struct file_stat *st);

/*
 * A task's mode as Ansible's file arguments take it: an octal string
 * ("0644", "644", "1777"), or a number that YAML gave as an integer (taken
 * as the bits themselves, as Python's int mode: 0644 in YAML 1.1 is 420).
 * Symbolic modes ("u=rw,g=r") are refused. 0 with *mode, or -1 with
 * *cause.
 */
int	 file_mode_parse(const char *s, int is_int, unsigned *mode,
	    char **cause);
/* Whether st's owner is owner (a name, or digits: an id), its group group
 * (NULL: not asked); the same with mode (-1: not asked). */
int	 file_attrs_differ(const struct file_stat *st, const char *owner,
	    const char *group, long mode);

/* The file module's decision (execute_* of modules/file.py) for state
 * (file, directory, link, absent, touch) on st, the path as read: the
 * action of file.sh to run (NULL: none) and whether the task's attributes
 * apply; 0, or -1 with *cause the module's failure ("file (/x) is absent,
 * cannot continue"). src and force are the link's. */
int	 file_state_decide(const struct file_stat *st, const char *path,
	    const char *state, const char *src, int force, const char **action,
	    int *attrs, char **cause);

#endif
