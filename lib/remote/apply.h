/* The apply round trip: one remote exec of lib/remote/apply.sh that writes the
 * managed drop-in atomically (or, in check mode, only reads it), loads it,
 * sets the live qdisc / modules / route options, reads every key back and
 * re-probes; or rolls back to the first backup; or one step of an
 * Ansible-style sysctl task (conf-read: a sysctl file and one live value;
 * conf-write: sysctl -w, the file replaced, sysctl -p, the value read
 * back). This file builds the command and parses what the script prints. */
#ifndef TCPTUNE_APPLY_H
#define TCPTUNE_APPLY_H

#include "remote/probe.h"
#include "remote/remote-cmd.h"

#include <jansson.h>
#include <stddef.h>

enum apply_mode { APPLY_CHECK, APPLY_APPLY, APPLY_ROLLBACK,
	APPLY_ROLLBACK_CHECK, APPLY_CONF_READ, APPLY_CONF_WRITE,
	APPLY_CONFIRM };

struct apply_request {
	enum apply_mode	 mode;
	const char	*file;		/* the drop-in path */
	const char	*state_dir;	/* NULL: /var/lib/tcptune */
	const char	*qdisc;		/* NULL: leave the live qdisc alone */
	const char	*dev;		/* the interfaces to set qdisc on,
					 * blank-separated */
	const char	*tx_queues;	/* each one's tx queue count, in dev's
					 * order: > 1 with an mq root */
	const char	*links;		/* the interfaces the re-probe shows
					 * beside the default route's */
	const char	*modules;	/* space separated, or NULL */
	const char	*route_opts;	/* "initcwnd 10", or NULL */
	int		 route_persist;	/* also write the oneshot unit */
	int		 to_previous;	/* rollback: to before the last apply,
					 * not to before the first */
	int		 reprobe;	/* append the probe after a change */
	/* conf-read and conf-write (file is any sysctl file there) */
	const char	*key;		/* the live value to read */
	const char	*expect_sum;	/* conf-write: conf-read's sum */
	const char	*set_kv;	/* "key=value" for sysctl -w, or NULL */
	int		 write;		/* replace file with the input */
	int		 reload;	/* sysctl -p file */
	int		 ignore_errors;	/* -e on both */
	/* The host's own revert (lib/remote/confirm.sh): with apply, armed
	 * before any change when confirm > 0 (seconds); APPLY_CONFIRM, over
	 * a new connection, cancels it (cancel set: the apply's answer was
	 * read whole) or runs it now, or reads how it ended. */
	int		 confirm;
	const char	*token;		/* [0-9a-f]: this apply's revert */
	int		 cancel;
};

/* One sysctl command of conf-write: its status and messages, and whether
 * the Ansible module would fail on them. */
struct apply_sysctl_run {
	int	 ran;
	int	 rc;
	char	*out;		/* stdout and stderr */
	int	 failed;
};

struct apply_key {
	char	*key;
	char	*want;
	char	*before;	/* the value before, NULL if unreadable */
	char	*live;		/* NULL if it could not be read */
	int	 changed;	/* the script wrote it */
	char	*error;		/* the kernel's refusal, or NULL */
};

struct apply_result {
	int		 old_exists;
	char		*old_text;	/* the file before, or NULL */
	int		 written;	/* the file was replaced */
	int		 unchanged;	/* same bytes: nothing written */
	char		*write_error;
	char		*backup;	/* set when the first backup was made */
	int		 backup_exists;	/* rollback-check: a backup is there */
	char		*backup_text;	/* rollback-check: the original file,
					 * NULL if there was none */
	struct apply_key *keys;
	size_t		 nkeys;
	char		*qdisc_live;	/* the last interface's */
	char		*qdisc_error;	/* "eth1: error", each interface's
					 * joined by "; " */
	char		*route_live;
	char		*route_error;
	char		*route_persisted;	/* the unit written, or NULL */
	char		*module_error;	/* every module's errors, joined by
					 * "; " */
	int		 undone;	/* a key was refused: the previous file
					 * and values were put back, all of
					 * them (else step_error says what
					 * could not be) */
	char		*rollback_status;	/* nothing | restored | failed */
	char		*rollback_file;		/* restored | removed */
	char		*step_error;	/* the steps that failed with no field
					 * above: reading the file, the undo,
					 * the rollback (FILE and the backup
					 * then left as they were), recording
					 * the state; each names its file and
					 * reason, joined by "; ". Set: the
					 * task failed. */
	json_t		*facts;		/* the probe after the change, or NULL */
	char		*conf_sum;	/* conf-read: the file's cksum line */
	int		 live_rc;	/* conf-*: sysctl -e -n's status, -1 if
					 * not shown */
	char		*live;		/* and what it printed */
	struct apply_sysctl_run set, reload;	/* conf-write */
	/* The @confirm section: armed | off | confirmed | reverted | none |
	 * failed, or NULL (not asked, or arming failed: confirm_error) */
	char		*confirm_status;
	long long	 confirm_due;	/* epoch seconds, host clock; 0 */
	long long	 confirm_at;	/* when the revert ran; 0 */
	char		*confirm_error;	/* every error, "; " between */
	int		 done;		/* the script reached its end */
};

/* What the probe after the apply of req reads again. */
enum probe_reread apply_reread(const struct apply_request *req);
/* The remote call (lib/remote/remote-cmd.h): the script with its inputs
 * as named values (lib/remote/prelude.sh), input (the new file for apply
 * and conf-write, else NULL) among them as INPUT. */
void	 apply_call(const struct apply_request *req, const char *input,
	    struct remote_call *call);
/* Parse the script's output. -1 with *cause when it is not ours or was
 * cut short. */
int	 apply_parse(const char *out, size_t len, struct apply_result *res,
	    char **cause);
void	 apply_result_clear(struct apply_result *res);

#endif
