#include "run/events.h"

#include <stdio.h>

json_t *
run_event_new(const char *name, const struct timespec *when)
{
	struct tm	tm;
	char		ts[64];
	size_t		n;

	gmtime_r(&when->tv_sec, &tm);
	n = strftime(ts, sizeof ts, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(ts + n, sizeof ts - n, ".%03ldZ", when->tv_nsec / 1000000);
	return json_pack("{s:i, s:s, s:s}", "schema", RUN_EVENT_SCHEMA,
	    "event", name, "timestamp", ts);
}

json_t *
task_result_json(const struct task_result *tr)
{
	json_t *j = json_pack("{s:s, s:s, s:s, s:f}", "task", tr->task_name,
	    "module", tr->module, "status", result_status_name(tr->status),
	    "seconds", tr->seconds);

	if (tr->msg != NULL)
		json_object_set_new(j, "msg", json_string(tr->msg));
	if (tr->diff != NULL)
		json_object_set_new(j, "diff", json_string(tr->diff));
	if (tr->data != NULL)
		json_object_set(j, "data", tr->data);
	if (tr->ignored)
		json_object_set_new(j, "ignored", json_true());
	return j;
}

json_t *
run_stats_json(const struct runner *r)
{
	json_t	*stats = json_object();
	size_t	 i;

	for (i = 0; i < r->nhosts; i++) {
		const struct host_state *h = r->hosts[i];

		if (h->nresults == 0)
			continue;
		json_object_set_new(stats, h->name, json_pack(
		    "{s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i}", "ok",
		    h->stats.ok, "changed", h->stats.changed, "unreachable",
		    h->stats.unreachable, "failed", h->stats.failed,
		    "skipped", h->stats.skipped, "rescued", h->stats.rescued,
		    "ignored", h->stats.ignored,
		    "round_trips", h->stats.round_trips,
		    "connections", h->stats.connections));
	}
	return stats;
}
