/* The confirmation of a live change (play --confirm-timeout, docs/
 * confirm.md): the host arms its own revert before the apply changes
 * anything (lib/remote/confirm.sh), and only a NEW connection after the
 * apply cancels it. A change that cuts the host off is undone by the host
 * itself, and the task says so once tcptune reaches the host again. */
#ifndef TCPTUNE_TUNE_CONFIRM_H
#define TCPTUNE_TUNE_CONFIRM_H

#include <stddef.h>

struct module_ctx;
struct module_result;
struct apply_request;
struct apply_result;

#define CONFIRM_TIMEOUT_MIN	10	/* time for a new connection */
#define CONFIRM_TIMEOUT_MAX	3600
#define CONFIRM_TIMEOUT_DEFAULT	120	/* as netplan try's */
/* After the revert was due: time for it to run and for sshd to answer
 * again, within which tcptune keeps trying new connections. */
#define CONFIRM_MARGIN		60

/* The shortest connect timeout of a confirm attempt made before the
 * revert is due (a handshake over a slow path needs a few seconds). */
#define CONFIRM_MIN_CONNECT	5

/* The connect timeout of a confirm attempt at now_s (epoch seconds) for a
 * revert due at due: the time left until it (at least CONFIRM_MIN_CONNECT)
 * while that is below host_timeout, else host_timeout. Pure. */
int	 tune_confirm_connect_timeout(long long due, long long now_s,
	    int host_timeout);

/* The seconds an apply is confirmed within, 0 for none: given is
 * --confirm-timeout (-1 when not given: CONFIRM_TIMEOUT_DEFAULT when the
 * apply sets a live qdisc or route, live_net, none for sysctls alone).
 * Pure. */
int	 tune_confirm_seconds(int given, int live_net);
/* "HH:MM:SS" of epoch seconds, UTC, into buf (at least 9 bytes). Pure. */
void	 tune_confirm_clock(long long epoch, char *buf, size_t len);
/* The task's message when the host reverted by itself at epoch at (host
 * clock); errors: what its revert could not restore, or NULL. Pure,
 * allocated. */
char	*tune_confirm_reverted_msg(long long at, const char *errors);

/* One confirmed apply (mode APPLY_APPLY, confirm > 0): begin names its
 * revert (req->token), just before the apply is sent;
 * end takes the apply's outcome (tune_run_apply's rc, ar, res) and opens
 * a new connection that cancels the revert (or, when the apply's answer
 * was lost, has the host revert now), retried until the revert was due
 * plus CONFIRM_MARGIN. end returns 0 when ar is the apply's answer to
 * interpret (confirmed, or nothing changed live); -1 with res failed or
 * unreachable otherwise: "connection lost after the change; the host
 * restored its previous state at HH:MM:SS", or why the apply or its
 * confirmation failed. */
struct confirm_try {
	char		token[24];
	double		deadline;	/* monotonic seconds, from the end */
	long long	due;		/* epoch seconds, until the host says */
};
void	 tune_confirm_begin(struct confirm_try *t, struct module_ctx *ctx,
	    struct apply_request *req);
int	 tune_confirm_end(struct confirm_try *t, struct module_ctx *ctx,
	    const struct apply_request *req, int rc, struct apply_result *ar,
	    struct module_result *res);

#endif
