/* The apt module's decisions (see aptplan.h). */
#include "tune/aptplan.h"

#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

int
apt_installed(const char *status)
{
	return status != NULL && strlen(status) >= 2 && status[1] == 'i';
}

int
apt_cache_stale(int update, long long valid, long long mtime, long long now)
{
	/* main(): `if not mtimestamp + tdelta >= now` */
	return (update || valid > 0) && !(mtime + valid >= now);
}

static const char *
candidate(const struct apt_seen *p)
{
	if (p->candidate == NULL || p->candidate[0] == '\0' ||
	    strcmp(p->candidate, "(none)") == 0)
		return NULL;
	return p->candidate;
}

static void
add(struct apt_plan *plan, char *word)
{
	plan->list = xreallocarray(plan->list, plan->n + 2,
	    sizeof *plan->list);
	plan->list[plan->n++] = word;
	plan->list[plan->n] = NULL;
}

int
apt_decide(const char *state, const struct apt_seen *pkgs, size_t n,
    struct apt_plan *plan, char **cause)
{
	const char	*best;
	size_t		 i;
	int		 inst, absent = strcmp(state, "absent") == 0;
	int		 latest = strcmp(state, "latest") == 0;

	memset(plan, 0, sizeof *plan);
	for (i = 0; i < n; i++) {
		const struct apt_seen *p = &pkgs[i];

		inst = apt_installed(p->status);
		best = candidate(p);
		if (absent) {
			/* remove(): installed_version, any version */
			if (inst)
				add(plan, xstrdup(p->name));
			continue;
		}
		/* package_status(): a name the cache does not know fails */
		if (!p->known && !inst) {
			apt_plan_clear(plan);
			return fail(cause, "No package matching '%s' is "
			    "available", p->name);
		}
		/* version_installable: the best version, unless it is the
		 * one installed */
		if (inst && best != NULL && p->version != NULL &&
		    strcmp(best, p->version) == 0)
			best = NULL;
		if (!inst && best == NULL) {
			apt_plan_clear(plan);
			return fail(cause, "no available installation "
			    "candidate for %s", p->name);
		}
		if (best != NULL && (!inst || latest))
			add(plan, xprintf("%s=%s", p->name, best));
	}
	if (plan->n > 0)
		plan->action = absent ? "remove" : "install";
	return 0;
}

void
apt_plan_clear(struct apt_plan *plan)
{
	size_t i;

	for (i = 0; i < plan->n; i++)
		free(plan->list[i]);
	free(plan->list);
	memset(plan, 0, sizeof *plan);
}
