/* The apt round trips (lib/remote/apt.sh): read, what a package/apt task
 * decides by; simulate (check mode) and write, the one apt-get command it
 * then runs. This file builds the calls and parses what the script
 * prints; the decision is lib/tune/aptplan.c's. */
#ifndef TCPTUNE_REMOTE_APT_H
#define TCPTUNE_REMOTE_APT_H

#include <stddef.h>

#include "remote/remote-cmd.h"

enum apt_mode { APT_READ, APT_SIMULATE, APT_WRITE };

struct apt_request {
	enum apt_mode		 mode;
	const char *const	*names;		/* NULL-terminated */
	int			 update;	/* read: apt-get update ... */
	long long		 valid;		/* ... when older than this */
	const char		*action;	/* install | remove */
	const char *const	*list;		/* NULL-terminated */
};

struct apt_pkg_seen {
	char	*name, *status, *version, *candidate;
	int	 known;		/* apt-cache knows it */
};

struct apt_result {
	long long		 mtime, after, now;	/* after: -1 if no update */
	struct apt_pkg_seen	*pkgs;
	size_t			 npkgs;
	struct remote_run	 update, action, mark;
	int			 done;
};

void	 apt_call(const struct apt_request *req, struct remote_call *call);
/* -1 with *cause when the output is not the script's or was cut short. */
int	 apt_parse(const char *out, size_t len, struct apt_result *res,
	    char **cause);
void	 apt_result_clear(struct apt_result *res);

#endif
