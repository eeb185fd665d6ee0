/* The confirmation of a live change: see tune-confirm.h and
 * lib/remote/confirm.sh (the host's side). */
#include "modules/tune-confirm.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "playbook/module.h"
#include "remote/apply.h"
#include "remote/remote-cmd.h"
#include "base/xalloc.h"

int
tune_confirm_seconds(int given, int live_net)
{
	if (given >= 0)
		return given;
	/* Sysctls alone are what every play writes, and a drop-in of
	 * buffer sizes does not cut a host off the way a qdisc or a route
	 * can: a second connection per host for each of them is not worth
	 * it unless asked for (docs/confirm.md). */
	return live_net ? CONFIRM_TIMEOUT_DEFAULT : 0;
}

void
tune_confirm_clock(long long epoch, char *buf, size_t len)
{
	time_t		t = (time_t)epoch;
	struct tm	tm;

	if (epoch <= 0 || gmtime_r(&t, &tm) == NULL ||
	    strftime(buf, len, "%H:%M:%S", &tm) == 0)
		snprintf(buf, len, "?");
}

char *
tune_confirm_reverted_msg(long long at, const char *errors)
{
	char clock[16];

	tune_confirm_clock(at, clock, sizeof clock);
	if (errors != NULL)
		return xprintf("connection lost after the change; the host "
		    "reverted it at %s, but not all of it: %s", clock, errors);
	return xprintf("connection lost after the change; the host restored "
	    "its previous state at %s", clock);
}

/* Seconds on a clock that no one sets. */
static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A fresh name for this apply's revert: 16 hex digits. */
static void
new_token(char *buf, size_t len)
{
	unsigned char	b[8];
	size_t		i;
	ssize_t		n;

	while ((n = getrandom(b, sizeof b, 0)) == -1 && errno == EINTR)
		;
	/* Uniqueness, not secrecy: the time will do without entropy. */
	if (n != (ssize_t)sizeof b) {
		unsigned long long t = (unsigned long long)time(NULL) ^
		    (unsigned long long)(now() * 1e9);

		memcpy(b, &t, sizeof b);
	}
	for (i = 0; i < sizeof b && 2 * i + 2 < len; i++)
		snprintf(buf + 2 * i, 3, "%02x", b[i]);
}

static void
set_msg(struct module_result *res, enum result_status status, char *msg)
{
	free(res->msg);
	res->status = status;
	res->msg = msg;
}

/*
 * The connect timeout of a confirm attempt: until the revert is due, an
 * attempt that outlasts it cannot confirm anything (the host reverts at
 * the due time whatever arrives later), so it is bounded by the time left
 * (at least CONFIRM_MIN_CONNECT s); after it, the host's own, to learn
 * what the host did. A change that cuts new connections off stalls the
 * handshake: with the host's timeout alone (--timeout 120) the play waited
 * 207 s for a 30 s revert.
 */
int
tune_confirm_connect_timeout(long long due, long long now_s, int host_timeout)
{
	long long left = due - now_s;

	if (left <= 0 || left + 1 >= host_timeout)
		return host_timeout;
	/* one second more: the due second itself, on a host clock */
	return left + 1 < CONFIRM_MIN_CONNECT ? CONFIRM_MIN_CONNECT :
	    (int)left + 1;
}

/* One call of the confirm mode over a new connection: 0 with out filled
 * (its @confirm section), or -1 with *cause and *st (the transport's). */
static int
confirm_once(struct module_ctx *ctx, const struct apply_request *req,
    long long due, struct apply_result *out, enum tp_status *st,
    char **cause)
{
	struct remote_call	call;
	struct tp_result	tr;
	int			r = -1;

	apply_call(req, NULL, &call);
	/* Within the command timeout: the confirm waits at most 90 s for a
	 * revert that runs. */
	*st = module_ctx_exec_fresh(ctx, call.command, call.program,
	    call.program_len, 0, tune_confirm_connect_timeout(due,
	    (long long)time(NULL), module_ctx_connect_timeout(ctx)), &tr,
	    cause);
	remote_call_clear(&call);
	if (*st != TP_OK)
		goto out;
	if (apply_parse(tr.out, tr.out_len, out, cause) != 0) {
		char *c = xprintf("%s (exit %d%s%.200s)", *cause,
		    tr.exit_status, tr.err_len > 0 ? ": " : "", tr.err);

		free(*cause);
		*cause = c;
		apply_result_clear(out);
		*st = TP_FAILED;
		goto out;
	}
	r = 0;
out:
	tp_result_clear(&tr);
	return r;
}

/* After the apply: new connections until one answers or the revert was
 * due plus the margin. cancel: the apply's whole answer was read. Returns
 * 0 when the change stands (confirmed), -1 with res saying what happened
 * instead. */
static int
confirm_after(struct module_ctx *ctx, const struct apply_request *areq,
    int cancel, long long due, double deadline, struct module_result *res)
{
	struct apply_request	 req = *areq;
	struct apply_result	 cr;
	enum tp_status		 st = TP_OK;
	char			*cause = NULL, clock[16];
	int			 r = -1, tries = 0;

	req.mode = APPLY_CONFIRM;
	req.reprobe = 0;
	req.confirm = 0;
	req.cancel = cancel;
	for (;;) {
		tries++;
		free(cause);
		cause = NULL;
		if (confirm_once(ctx, &req, due, &cr, &st, &cause) == 0)
			break;
		if (now() + 2 >= deadline) {
			tune_confirm_clock(due, clock, sizeof clock);
			set_msg(res, RESULT_UNREACHABLE, xprintf("connection "
			    "lost after the change: no new connection to the "
			    "host in %d tries (%s); it was to restore its "
			    "previous state by itself at %s", tries, cause,
			    clock));
			free(cause);
			return -1;
		}
		nanosleep(&(struct timespec){ .tv_sec = 2 }, NULL);
	}
	free(cause);
	if (cr.confirm_status != NULL && strcmp(cr.confirm_status,
	    "confirmed") == 0 && cancel)
		r = 0;
	else if (cr.confirm_status != NULL && strcmp(cr.confirm_status,
	    "reverted") == 0)
		set_msg(res, RESULT_FAILED, tune_confirm_reverted_msg(
		    cr.confirm_at, cr.confirm_error));
	else if (cr.confirm_status != NULL && strcmp(cr.confirm_status,
	    "none") == 0 && !cancel)
		/* The program never armed a revert (it was cut short before
		 * it ran): the apply's own failure says it all. */
		;
	else
		set_msg(res, RESULT_FAILED, xprintf("the change was not "
		    "confirmed: %s", cr.confirm_error != NULL ?
		    cr.confirm_error : cr.confirm_status != NULL ?
		    "the host's revert of it is neither pending nor done" :
		    "no answer from the confirm step"));
	apply_result_clear(&cr);
	return r;
}

void
tune_confirm_begin(struct confirm_try *t, struct module_ctx *ctx,
    struct apply_request *req)
{
	memset(t, 0, sizeof *t);
	new_token(t->token, sizeof t->token);
	req->token = t->token;
	(void)ctx;
	t->due = (long long)time(NULL) + req->confirm;
}

int
tune_confirm_end(struct confirm_try *t, struct module_ctx *ctx,
    const struct apply_request *req, int rc, struct apply_result *ar,
    struct module_result *res)
{
	if (rc == -2)
		return -1;		/* refused: nothing was sent */
	/* The host starts its timeout again at the end of the apply. */
	t->due = (long long)time(NULL) + req->confirm;
	t->deadline = now() + req->confirm + CONFIRM_MARGIN +
	    module_ctx_connect_timeout(ctx);
	if (rc != 0) {
		/* The answer was lost: the change may have cut the host off
		 * half way; the host reverts now, or did by itself. */
		confirm_after(ctx, req, 0, t->due, t->deadline, res);
		return -1;
	}
	if (ar->confirm_error != NULL) {
		set_msg(res, RESULT_FAILED, xprintf("%s", ar->confirm_error));
		return -1;
	}
	if (ar->confirm_status == NULL || strcmp(ar->confirm_status,
	    "armed") != 0)
		return 0;	/* nothing changed live: nothing to confirm */
	if (ar->confirm_due > 0)
		t->due = ar->confirm_due;
	if (confirm_after(ctx, req, 1, t->due, t->deadline, res) != 0)
		return -1;
	free(ar->confirm_status);
	ar->confirm_status = xstrdup("confirmed");
	return 0;
}
