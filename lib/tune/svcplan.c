/* systemd's main(), the part after it has looked (see svcplan.h). */
#include "tune/svcplan.h"

#include <string.h>

#include "base/xalloc.h"

static int
is(const char *a, const char *b)
{
	return a != NULL && strcmp(a, b) == 0;
}

int
svc_decide(const char *unit, const char *state, int enabled,
    const struct svc_seen *seen, struct svc_plan *plan, char **cause)
{
	const char	*as = seen->active_state;
	int		 running, found, masked;

	memset(plan, 0, sizeof *plan);
	plan->enabled = -1;
	found = seen->load_state != NULL && !is(seen->load_state,
	    "not-found");
	masked = is(seen->load_state, "masked");
	if (found && !masked && seen->load_error != NULL &&
	    *seen->load_error != '\0')
		return fail(cause, "Error loading unit file '%s': %s", unit,
		    seen->load_error);
	if (!found && (state != NULL || enabled >= 0))
		return fail(cause, "Could not find the requested service %s: "
		    "LoadState %s", unit, seen->load_state != NULL ?
		    seen->load_state : "not shown");
	if (enabled >= 0) {
		int now = seen->enabled_rc == 0;

		plan->enabled = now;
		if (now != enabled) {
			plan->changed = 1;
			plan->enable = enabled ? "enable" : "disable";
			plan->enabled = enabled;
		}
	}
	if (state != NULL) {
		running = is(as, "active") || is(as, "activating");
		plan->state = state;
		if (strcmp(state, "started") == 0) {
			if (!running)
				plan->action = "start";
		} else if (strcmp(state, "stopped") == 0) {
			if (running || is(as, "deactivating"))
				plan->action = "stop";
		} else {
			/* restarted, reloaded: a stopped unit is started */
			plan->action = !running ? "start" :
			    strcmp(state, "restarted") == 0 ? "restart" :
			    "reload";
			plan->state = "started";
		}
		if (plan->action != NULL)
			plan->changed = 1;
	}
	return 0;
}
