/* A module's remote call (see remote-exec.h). */
#include "modules/remote-exec.h"

#include <string.h>

#include "base/xalloc.h"

int
module_remote_exec(struct module_ctx *ctx, int writes,
    struct remote_call *call, struct tp_result *tr, struct module_result *res)
{
	enum tp_status	 st;
	char		*cause = NULL;

	memset(tr, 0, sizeof *tr);
	/* The last line of defence for check mode, as modprobe's. */
	if (writes && module_ctx_check(ctx)) {
		remote_call_clear(call);
		res->status = RESULT_FAILED;
		res->msg = xstrdup("refused: a change was asked for in check "
		    "mode (a bug; nothing was sent)");
		return -1;
	}
	st = module_ctx_exec(ctx, call->command, call->program,
	    call->program_len, 0, tr, &cause);
	remote_call_clear(call);
	if (st != TP_OK) {
		module_result_transport_failed(res, st, cause);
		tp_result_clear(tr);
		return -1;
	}
	return 0;
}
