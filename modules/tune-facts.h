/* Reading a host's probe facts the way the tuning modules need them. */
#ifndef TCPTUNE_TUNE_FACTS_H
#define TCPTUNE_TUNE_FACTS_H

#include <jansson.h>
#include <stdint.h>

#include "tune/sizing.h"

struct module_ctx;

/* State and value of one sysctl from facts.sysctl. value may be NULL. */
enum sizing_state facts_sysctl(const json_t *facts, const char *key,
		    const char **value);
/* The most RTT targets one probe measures (var rtt_to's first, then the
 * peers in order): each is a ping (and maybe a bash) running in parallel
 * on the host. The peers past it are listed in facts.peers_not_probed. */
#define PROBE_MAX_TARGETS	32

/* The var that sets the bandwidth of the paths to a group's hosts:
 * {group: Mbit/s, ...}. */
#define PEERS_BANDWIDTH_VAR	"bandwidth_mbit_by_group"

/* The paths a host's buffers must fill (docs/sizing.md, "Many peers"). */
struct facts_paths {
	struct sizing_path	*paths;		/* names borrowed from the
						 * runner, vars and facts */
	size_t			 n;
	char			**warnings;	/* a peer without an RTT */
	size_t			 nwarnings;
	size_t			 npeers;	/* of the host's peers */
};

/* One path per peer of the host (module_ctx_peers), with the RTT the
 * probe measured to its traffic address and the bandwidth of its group
 * (PEERS_BANDWIDTH_VAR), else bandwidth_mbit; then one per other target
 * the probe measured (var rtt_to), at bandwidth_mbit. A peer without an
 * RTT gets rtt_var (var rtt_ms) when that is > 0, and a warning either
 * way. Returns 0, or -1 with *cause when the peers or the map are wrong
 * (a name that is no host or group, a bandwidth that is no number). Clear
 * fp afterwards in both cases. */
int		facts_paths(struct module_ctx *ctx, double bandwidth_mbit,
		    double rtt_var, struct facts_paths *fp, char **cause);
void		facts_paths_clear(struct facts_paths *fp);
/* The bandwidth map's value for peer: its most specific group of the
 * map, the one with the fewest hosts in groups (the `groups` var; the
 * first listed of equals). 0 with *group NULL and *mbit 0 when none of its
 * groups is in the map (or map is NULL); -1 with *cause when map is not an
 * object, names a group groups lacks, or gives a value that is not a
 * number > 0. Pure. */
int		peer_group_bandwidth(const json_t *map, const json_t *groups,
		    const char *peer, const char **group, double *mbit,
		    char **cause);
/* A number var (int, float or numeric string); 0 when absent or not a
 * number. */
double		var_number(const json_t *vars, const char *name);
/* The drop-in path: the task's sysctl_file when it gave one (given), else
 * var tcptune_sysctl_file, else file, the module's default (NULL: a module
 * without the parameter). */
const char	*tune_file(const struct module_ctx *ctx, const char *file,
		    int given);

#endif
