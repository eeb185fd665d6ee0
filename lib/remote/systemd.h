/* The systemd round trips (lib/remote/systemd.sh): read, what a
 * systemd/service task decides by; write, what it then runs. This file
 * builds the calls and parses what the script prints; the decision is
 * lib/tune/svcplan.c's. */
#ifndef TCPTUNE_REMOTE_SYSTEMD_H
#define TCPTUNE_REMOTE_SYSTEMD_H

#include <stddef.h>

#include "remote/remote-cmd.h"

struct systemd_request {
	int		 write;		/* else read */
	const char	*unit;
	int		 reload;	/* read: daemon-reload first */
	const char	*enable;	/* write: enable, disable or NULL */
	const char	*action;	/* write: start ... or NULL */
};

/* One command the script ran. */
struct systemd_run {
	int	 ran;
	int	 rc;
	char	*out;
	char	*err;
};

struct systemd_result {
	char			*load_state, *active_state, *sub_state;
	char			*unit_file_state, *load_error;
	struct systemd_run	 reload, enabled, enable, action;
	char			*error;
	int			 done;
};

void	 systemd_call(const struct systemd_request *req,
	    struct remote_call *call);
/* -1 with *cause when the output is not the script's or was cut short. */
int	 systemd_parse(const char *out, size_t len,
	    struct systemd_result *res, char **cause);
void	 systemd_result_clear(struct systemd_result *res);

#endif
