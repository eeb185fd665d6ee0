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

static void
add_warning(struct facts_paths *fp, char *w)
{
	fp->warnings = xreallocarray(fp->warnings, fp->nwarnings + 1,
	    sizeof *fp->warnings);
	fp->warnings[fp->nwarnings++] = w;
}

/* Whether the probe left peer out for its limit (facts.peers_not_probed). */
static int
left_out(const json_t *facts, const char *peer)
{
	const json_t	*v;
	size_t		 i;

	json_array_foreach(json_object_get(facts, "peers_not_probed"), i, v) {
		if (json_is_string(v) && strcmp(json_string_value(v), peer) == 0)
			return 1;
	}
	return 0;
}

/* The peers the probe left out for its limit, as one warning: a fleet-wide
 * group of peers must not make a thousand. */
struct left_out {
	size_t			 n;
	const char		*first;
	struct sizing_path	 widest;	/* with rtt_var, else unset */
};

/* The path to one peer: its group's bandwidth and the RTT measured to its
 * address (added to addrs), else rtt_var, with a warning. */
static int
peer_path(struct module_ctx *ctx, const char *peer, double bandwidth_mbit,
    double rtt_var, json_t *addrs, struct left_out *lo,
    struct facts_paths *fp, char **cause)
{
	const json_t		*facts = module_ctx_facts(ctx);
	const json_t		*vars = module_ctx_vars(ctx);
	const json_t		*e;
	struct sizing_path	 p;
	const char		*why;
	char			*addr, *rtt;

	memset(&p, 0, sizeof p);
	p.to = peer;
	if (peer_group_bandwidth(json_object_get(vars, PEERS_BANDWIDTH_VAR),
	    json_object_get(vars, "groups"), peer, &p.group,
	    &p.bandwidth_mbit, cause) != 0)
		return -1;
	if (p.group == NULL)
		p.bandwidth_mbit = bandwidth_mbit;
	addr = module_ctx_traffic_address(ctx, peer);
	json_object_set_new(addrs, addr, json_true());
	e = json_object_get(json_object_get(facts, "rtt"), addr);
	if (json_is_number(json_object_get(e, "avg_ms"))) {
		p.rtt_ms = json_number_value(json_object_get(e, "avg_ms"));
		*add_path(fp) = p;
		goto out;
	}
	p.rtt_ms = rtt_var;
	p.rtt_assumed = 1;
	if (e == NULL && left_out(facts, peer)) {
		if (lo->n++ == 0)
			lo->first = peer;
		if (rtt_var > 0 && sizing_bdp(p.bandwidth_mbit, rtt_var) >
		    sizing_bdp(lo->widest.bandwidth_mbit, rtt_var))
			lo->widest = p;
		goto out;
	}
	if ((why = json_string_value(json_object_get(e, "reason"))) == NULL)
		why = e != NULL ? "no measurement" :
		    "not probed (the probe measured other targets)";
	rtt = format_tenths(rtt_var);
	add_warning(fp, rtt_var > 0 ?
	    xprintf("no RTT to peer %s (%s): %s; rtt_ms %s ms assumed for it",
	    peer, addr, why, rtt) :
	    xprintf("no RTT to peer %s (%s): %s; sized without it", peer, addr,
	    why));
	free(rtt);
	if (rtt_var > 0)
		*add_path(fp) = p;
out:
	free(addr);
	return 0;
}

int
facts_paths(struct module_ctx *ctx, double bandwidth_mbit, double rtt_var,
    struct facts_paths *fp, char **cause)
{
	const json_t	*rtt = json_object_get(module_ctx_facts(ctx), "rtt");
	const json_t	*v;
	const char	**peers = NULL, *addr;
	json_t		*addrs = json_object();
	struct left_out	 lo;
	char		*ms;
	size_t		 npeers = 0, i;
	int		 rc = -1;

	memset(fp, 0, sizeof *fp);
	memset(&lo, 0, sizeof lo);
	if (module_ctx_peers(ctx, &peers, &npeers, cause) != 0)
		goto out;
	fp->npeers = npeers;
	for (i = 0; i < npeers; i++) {
		if (peer_path(ctx, peers[i], bandwidth_mbit, rtt_var, addrs,
		    &lo, fp, cause) != 0)
			goto out;
	}
	if (lo.n > 0) {
		ms = format_tenths(rtt_var);
		add_warning(fp, xprintf("%zu peers not probed (%s and the ones "
		    "after it: the probe measures at most %d targets); %s%s%s",
		    lo.n, lo.first, PROBE_MAX_TARGETS, rtt_var > 0 ? "rtt_ms " :
		    "sized without them", rtt_var > 0 ? ms : "", rtt_var > 0 ?
		    " ms assumed for them" : ""));
		free(ms);
		if (lo.widest.to != NULL)
			*add_path(fp) = lo.widest;
	}
	/* The other targets measured (var rtt_to) are paths too, at the
	 * host's bandwidth: the probe measured them because a play asked. */
	json_object_foreach((json_t *)rtt, addr, v) {
		struct sizing_path *p;

		if (!json_is_number(json_object_get(v, "avg_ms")) ||
		    json_object_get(addrs, addr) != NULL)
			continue;
		p = add_path(fp);
		p->to = addr;
		p->rtt_ms = json_number_value(json_object_get(v, "avg_ms"));
		p->bandwidth_mbit = bandwidth_mbit;
	}
	rc = 0;
out:
	json_decref(addrs);
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
