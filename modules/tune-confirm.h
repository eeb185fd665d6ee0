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
struct stage;

#define CONFIRM_TIMEOUT_MIN	10	/* the timer must outlast the apply */
#define CONFIRM_TIMEOUT_MAX	3600
#define CONFIRM_TIMEOUT_DEFAULT	120	/* as netplan try's */
/* After the revert was due: time for it to run and for sshd to answer
 * again, within which tcptune keeps trying new connections. */
#define CONFIRM_MARGIN		60

/* The seconds an apply of st is confirmed within, 0 for none: given is
 * --confirm-timeout (-1 when not given: CONFIRM_TIMEOUT_DEFAULT for a live
 * qdisc or route change, none for sysctls alone). Pure. */
int	 tune_confirm_seconds(int given, const struct stage *st);
/* "HH:MM:SS" of epoch seconds, UTC, into buf (at least 9 bytes). Pure. */
void	 tune_confirm_clock(long long epoch, char *buf, size_t len);
/* The task's message when the host reverted by itself at epoch at (host
 * clock); errors: what its revert could not restore, or NULL. Pure,
 * allocated. */
char	*tune_confirm_reverted_msg(long long at, const char *errors);

/* The apply of req (mode APPLY_APPLY, confirm > 0) with its confirmation:
 * tune_run_apply with the revert armed, then a new connection that cancels
 * it (or, when the apply's answer was lost, has the host revert now),
 * retried until the revert was due plus CONFIRM_MARGIN. 0 when ar is the
 * apply's answer to interpret (confirmed, or nothing changed live); -1
 * with res failed or unreachable otherwise: "connection lost after the
 * change; the host restored its previous state at HH:MM:SS", or why the
 * apply or its confirmation failed. */
int	 tune_confirm_apply(struct module_ctx *ctx,
	    const struct apply_request *req, const char *input,
	    struct apply_result *ar, struct module_result *res);

#endif
