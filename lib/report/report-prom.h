/* Drift results as a node_exporter textfile-collector file (Prometheus text
 * exposition format 0.0.4), written atomically so the collector never reads
 * half a file.
 *
 * Metrics (every family has HELP and TYPE lines, all gauges):
 *   tcptune_drift_items{host}		drifted items of a checked host
 *					(absent for unreachable/failed hosts)
 *   tcptune_drift_item{host,key,cause}	1 per drifted item (a repeated
 *					host+key+cause is written and counted once)
 *   tcptune_host_reachable{host}	1, or 0 when SSH could not reach it
 *   tcptune_host_in_sync{host}		1 when checked and nothing drifted
 *   tcptune_hosts{state}		host count per state: in_sync,
 *					drifted, unreachable, failed
 *   tcptune_last_run_timestamp_seconds	end of the run, Unix time
 *   tcptune_last_run_duration_seconds	how long the run took
 * Label values escape \ " and newline as the format requires. */
#ifndef TCPTUNE_REPORT_PROM_H
#define TCPTUNE_REPORT_PROM_H

#include <stddef.h>

enum prom_host_state {
	PROM_HOST_IN_SYNC = 0,
	PROM_HOST_DRIFTED,
	PROM_HOST_UNREACHABLE,
	PROM_HOST_FAILED,	/* reached, but the check did not complete */
};

struct prom_host {
	const char		*name;
	enum prom_host_state	 state;
};

/* One drifted item. cause should be a short category ("value",
 * "overridden", "qdisc" ...), not a message with values in it: every
 * distinct label set is a new Prometheus series. */
struct prom_item {
	const char	*host;
	const char	*key;
	const char	*cause;
};

struct prom_metrics {
	const struct prom_host	*hosts;		/* output keeps this order */
	size_t			 nhosts;
	const struct prom_item	*items;		/* and this one */
	size_t			 nitems;
	double			 timestamp;	/* seconds since the epoch */
	double			 duration;	/* seconds */
};

/* The file's text (allocated). Items whose host is not in hosts are still
 * written as tcptune_drift_item but not counted. */
char	*prom_render(const struct prom_metrics *m);
/* Render and replace path atomically: a temporary ".NAME.XXXXXX" in the
 * same directory (not matching *.prom, so the collector skips it), mode
 * 0644, fsync, rename over path, fsync of the directory. -1 and *cause
 * naming the file on failure; the temporary file is then removed. */
int	prom_write(const char *path, const struct prom_metrics *m,
	    char **cause);
/* A label value with \ as \\, " as \" and newline as \n (allocated). */
char	*prom_escape_label(const char *s);

#endif
