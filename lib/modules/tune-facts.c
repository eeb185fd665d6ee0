#include "modules/tune-facts.h"

#include <stdlib.h>
#include <string.h>

#include "base/units.h"
#include "base/xalloc.h"

#include "modules/tune.h"

enum sizing_state
facts_sysctl(const json_t *facts, const char *key, const char **value)
{
	const json_t *k = json_object_get(json_object_get(facts, "sysctl"),
	    key);

	*value = json_string_value(json_object_get(k, "value"));
	if (k == NULL)
		return SIZING_UNKNOWN;
	if (json_is_false(json_object_get(k, "present")))
		return SIZING_ABSENT;
	if (*value == NULL)
		return SIZING_UNKNOWN;
	if (json_is_false(json_object_get(k, "writable")))
		return SIZING_READONLY;
	return SIZING_PRESENT;
}

int
peer_group_bandwidth(const json_t *map, const json_t *groups,
    const char *peer, const char **group, double *mbit, char **cause)
{
	const json_t	*v, *members, *m;
	const char	*g;
	size_t		 i, size, best = 0;
	double		 d;

	*group = NULL;
	*mbit = 0;
	if (map == NULL || json_is_null(map))
		return 0;
	if (!json_is_object(map))
		return fail(cause, "variable '%s': expected a mapping of group "
		    "names to Mbit/s", PEERS_BANDWIDTH_VAR);
	json_object_foreach((json_t *)map, g, v) {
		if ((members = json_object_get(groups, g)) == NULL)
			return fail(cause, "variable '%s': '%s' is not a "
			    "group of the inventory", PEERS_BANDWIDTH_VAR, g);
		if ((d = var_number(map, g)) <= 0)
			return fail(cause, "variable '%s': '%s' must be a "
			    "bandwidth in Mbit/s above 0", PEERS_BANDWIDTH_VAR,
			    g);
		size = json_array_size(members);
		json_array_foreach(members, i, m) {
			if (json_is_string(m) &&
			    strcmp(json_string_value(m), peer) == 0)
				break;
		}
		/* A child group has no more hosts than its parent: the
		 * smallest group holding the peer is the most specific. */
		if (i < size && (*group == NULL || size < best)) {
			*group = g;
			*mbit = d;
			best = size;
		}
	}
	return 0;
}

void
facts_paths_clear(struct facts_paths *fp)
{
	size_t i;

	free(fp->paths);
	for (i = 0; i < fp->nwarnings; i++)
		free(fp->warnings[i]);
	free(fp->warnings);
	memset(fp, 0, sizeof *fp);
}

static struct sizing_path *
add_path(struct facts_paths *fp)
{
	fp->paths = xreallocarray(fp->paths, fp->n + 1, sizeof *fp->paths);
	memset(&fp->paths[fp->n], 0, sizeof *fp->paths);
	return &fp->paths[fp->n++];
}

/* Why the probe has no RTT to peer at addr (e: its rtt entry, or NULL). */
static char *
no_rtt_reason(const json_t *facts, const json_t *e, const char *peer)
{
	const json_t	*left = json_object_get(facts, "peers_not_probed");
	const json_t	*v;
	const char	*why;
	size_t		 i;

	if (e != NULL) {
		why = json_string_value(json_object_get(e, "reason"));
		return xstrdup(why != NULL ? why : "no measurement");
	}
	json_array_foreach(left, i, v) {
		if (json_is_string(v) && strcmp(json_string_value(v), peer) == 0)
			return xprintf("not probed (the probe measures at most "
			    "%d targets)", PROBE_MAX_TARGETS);
	}
	return xstrdup("not probed (the probe measured other targets)");
}

/* The path to one peer: its group's bandwidth, the measured RTT, else
 * rtt_var with a warning, else only the warning. */
static int
peer_path(struct module_ctx *ctx, const char *peer, double bandwidth_mbit,
    double rtt_var, struct facts_paths *fp, char **cause)
{
	const json_t		*facts = module_ctx_facts(ctx);
	const json_t		*vars = module_ctx_vars(ctx);
	const json_t		*e;
	struct sizing_path	 p;
	char			*addr, *why, *rtt;

	memset(&p, 0, sizeof p);
	p.to = peer;
	p.bandwidth_mbit = bandwidth_mbit;
	if (peer_group_bandwidth(json_object_get(vars, PEERS_BANDWIDTH_VAR),
	    json_object_get(vars, "groups"), peer, &p.group,
	    &p.bandwidth_mbit, cause) != 0)
		return -1;
	if (p.group == NULL)
		p.bandwidth_mbit = bandwidth_mbit;
	addr = module_ctx_traffic_address(ctx, peer);
	e = json_object_get(json_object_get(facts, "rtt"), addr);
	if (json_is_number(json_object_get(e, "avg_ms")))
		p.rtt_ms = json_number_value(json_object_get(e, "avg_ms"));
	else {
		why = no_rtt_reason(facts, e, peer);
		rtt = format_tenths(rtt_var);
		fp->warnings = xreallocarray(fp->warnings, fp->nwarnings + 1,
		    sizeof *fp->warnings);
		fp->warnings[fp->nwarnings++] = rtt_var > 0 ?
		    xprintf("no RTT to peer %s (%s): %s; rtt_ms %s ms assumed "
		    "for it", peer, addr, why, rtt) :
		    xprintf("no RTT to peer %s (%s): %s; sized without it",
		    peer, addr, why);
		free(rtt);
		free(why);
		p.rtt_ms = rtt_var;
		p.rtt_assumed = 1;
	}
	free(addr);
	if (p.rtt_ms > 0)
		*add_path(fp) = p;
	return 0;
}

/* Whether addr is the traffic address of one of peers. */
static int
is_peer_address(struct module_ctx *ctx, const char **peers, size_t n,
    const char *addr)
{
	size_t	i;
	int	found = 0;

	for (i = 0; i < n && !found; i++) {
		char *a = module_ctx_traffic_address(ctx, peers[i]);

		found = strcmp(a, addr) == 0;
		free(a);
	}
	return found;
}

int
facts_paths(struct module_ctx *ctx, double bandwidth_mbit, double rtt_var,
    struct facts_paths *fp, char **cause)
{
	const json_t	*rtt = json_object_get(module_ctx_facts(ctx), "rtt");
	const json_t	*v;
	const char	**peers = NULL, *addr;
	size_t		 npeers = 0, i;
	int		 rc = -1;

	memset(fp, 0, sizeof *fp);
	if (module_ctx_peers(ctx, &peers, &npeers, cause) != 0)
		return -1;
	fp->npeers = npeers;
	for (i = 0; i < npeers; i++) {
		if (peer_path(ctx, peers[i], bandwidth_mbit, rtt_var, fp,
		    cause) != 0)
			goto out;
	}
	/* The other targets measured (var rtt_to) are paths too, at the
	 * host's bandwidth: the probe measured them because a play asked. */
	json_object_foreach((json_t *)rtt, addr, v) {
		struct sizing_path *p;

		if (!json_is_number(json_object_get(v, "avg_ms")) ||
		    is_peer_address(ctx, peers, npeers, addr))
			continue;
		p = add_path(fp);
		p->to = addr;
		p->rtt_ms = json_number_value(json_object_get(v, "avg_ms"));
		p->bandwidth_mbit = bandwidth_mbit;
	}
	rc = 0;
out:
	free(peers);
	return rc;
}

double
var_number(const json_t *vars, const char *name)
{
	const json_t	*v = json_object_get(vars, name);
	char		*end;
	double		 d;

	if (json_is_number(v))
		return json_number_value(v);
	if (json_is_string(v)) {
		d = strtod(json_string_value(v), &end);
		if (end != json_string_value(v) && *end == '\0')
			return d;
	}
	return 0;
}

const char *
tune_file(const struct module_ctx *ctx, const char *file, int given)
{
	const char *var = json_string_value(json_object_get(
	    module_ctx_vars(ctx), "tcptune_sysctl_file"));

	/* An explicit task parameter beats the var; the var beats the
	 * module's default. */
	if (given && file != NULL)
		return file;
	if (var != NULL)
		return var;
	return file != NULL ? file : TUNE_DEFAULT_FILE;
}
