/* A run as JSON for machines: the events --format jsonl prints, one object
 * per line as they happen, and the pieces the --format json document shares
 * with them (docs/output.md has the schema). Pure: the caller gives the
 * time and does the printing. */
#ifndef TCPTUNE_EVENTS_H
#define TCPTUNE_EVENTS_H

#include <jansson.h>
#include <time.h>

#include "run/runner.h"

/* The "schema" of every event: raised when a field changes meaning or
 * goes away (new fields do not raise it). */
#define RUN_EVENT_SCHEMA	1

/* {"schema": 1, "event": name, "timestamp": "2026-12-01T06:03:48.123Z"}:
 * the time in UTC with milliseconds, as log shippers parse it. */
json_t	*run_event_new(const char *name, const struct timespec *when);
/* One result's fields: task, module, status, seconds, and msg, diff, data
 * and ignored when set. */
json_t	*task_result_json(const struct task_result *tr);
/* {host: {ok, changed, unreachable, failed, skipped}} for every host with
 * a result, as the recap counts them. */
json_t	*run_stats_json(const struct runner *r);

#endif
