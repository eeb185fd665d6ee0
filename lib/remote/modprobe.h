/* The modprobe round trips (lib/remote/modprobe.sh): read, what a
 * community.general.modprobe task decides by; write, what it then does.
 * This file builds the calls and parses what the script prints; the
 * decisions are lib/tune/modprobeconf.c's. */
#ifndef TCPTUNE_REMOTE_MODPROBE_H
#define TCPTUNE_REMOTE_MODPROBE_H

#include <stddef.h>

#include "remote/remote-cmd.h"

/* A file to write: its path on the host, the sum read printed for it
 * ("absent": a new file) and its new text. */
struct modprobe_write {
	const char	*path;
	const char	*sum;
	const char	*text;
};

struct modprobe_request {
	int				 write;	/* else read */
	const char			*name;
	const char			*params;	/* blank-separated words */
	int				 present;	/* read: the dry run's
							 * direction */
	const char			*action;	/* write: "load",
							 * "unload" or NULL */
	const struct modprobe_write	*writes;
	size_t				 nwrites;
};

/* One command the script ran: its status, output and messages. */
struct modprobe_run {
	int	 ran;
	int	 rc;
	char	*out;
	char	*err;
};

/* A file as read: path, sum, text (allocated). */
struct modprobe_seen {
	char	*path;
	char	*sum;
	char	*text;
	char	*error;		/* could not be read, or NULL */
};

struct modprobe_result {
	int			 loaded;	/* -1: unknown (error says why) */
	char			*error;		/* @module, @check, @after */
	struct modprobe_run	 dry, load, unload;
	int			 loaded_after;	/* -1: not shown */
	char			*warn;		/* a load that left it unloaded */
	struct modprobe_seen	*files;
	size_t			 nfiles;
	char			*write_error;	/* every failed write, "; " */
	size_t			 written;	/* files replaced */
	int			 done;		/* the script reached its end */
};

void	 modprobe_call(const struct modprobe_request *req,
	    struct remote_call *call);
/* -1 with *cause when the output is not the script's or was cut short. */
int	 modprobe_parse(const char *out, size_t len,
	    struct modprobe_result *res, char **cause);
void	 modprobe_result_clear(struct modprobe_result *res);

#endif
