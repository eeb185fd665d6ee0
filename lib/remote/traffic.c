#include "remote/traffic.h"

#include <stdarg.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/xalloc.h"

const struct traffic_iface *
traffic_get(const struct traffic *t, const char *dev)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		if (strcmp(t->ifs[i].dev, dev) == 0)
			return &t->ifs[i];
	}
	return NULL;
}

static struct traffic_iface *
iface(struct traffic *t, const json_t *facts, const char *dev)
{
	struct traffic_iface *f;

	if ((f = (struct traffic_iface *)traffic_get(t, dev)) != NULL)
		return f;
	t->ifs = xreallocarray(t->ifs, t->n + 1, sizeof *t->ifs);
	f = &t->ifs[t->n++];
	memset(f, 0, sizeof *f);
	f->dev = xstrdup(dev);
	f->link = json_object_get(json_object_get(facts, "interfaces"), dev);
	f->local = strcmp(dev, "lo") == 0;
	return f;
}

/* Add "to NAME" to what f carries: "traffic to a, b" grows by ", c". */
static void
carries(struct traffic_iface *f, const char *what, const char *name)
{
	char *s;

	if (f->carries == NULL)
		s = xprintf("%s%s", what, name);
	else if (*what == '\0')
		s = xprintf("%s, %s", f->carries, name);
	else
		s = xprintf("%s; %s%s", f->carries, what, name);
	free(f->carries);
	f->carries = s;
}

static void
warn(struct traffic *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
warn(struct traffic *t, const char *fmt, ...)
{
	va_list ap;

	t->warnings = xreallocarray(t->warnings, t->nwarnings + 1,
	    sizeof *t->warnings);
	va_start(ap, fmt);
	t->warnings[t->nwarnings++] = xvprintf(fmt, ap);
	va_end(ap);
}

static void
add_error(struct strbuf *sb, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
add_error(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	if (sb->len > 0)
		strbuf_addstr(sb, "; ");
	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

/* "peer eu1 (198.18.1.5)", or the address of a target of no peer. */
static char *
target_label(const json_t *peers, const char *target)
{
	const char	*n;
	const json_t	*v;

	json_object_foreach((json_t *)peers, n, v) {
		if (json_is_string(v) && strcmp(json_string_value(v),
		    target) == 0)
			return xprintf("peer %s (%s)", n, target);
	}
	return xstrdup(target);
}

/* What f carries grows by the peers of target: every peer whose address
 * it is (two names of one host route alike), else the address. */
static void
carries_target(struct traffic_iface *f, const json_t *peers,
    const char *target)
{
	const char	*n;
	const json_t	*v;
	int		 any = 0;

	json_object_foreach((json_t *)peers, n, v) {
		if (!json_is_string(v) || strcmp(json_string_value(v),
		    target) != 0)
			continue;
		carries(f, f->ntargets++ == 0 ? "traffic to " : "", n);
		any = 1;
	}
	if (!any)
		carries(f, f->ntargets++ == 0 ? "traffic to " : "", target);
}

void
traffic_find(const json_t *facts, struct traffic *t)
{
	const json_t		*dr = json_object_get(facts, "default_route");
	const json_t		*routes = json_object_get(facts, "routes");
	const json_t		*peers = json_object_get(facts, "peers");
	const json_t		*r, *v;
	const char		*target, *dev, *type;
	struct traffic_iface	*f;
	struct strbuf		 errors;
	size_t			 i;
	char			*label;

	memset(t, 0, sizeof *t);
	strbuf_init(&errors);
	if ((dev = json_string_value(json_object_get(dr, "interface"))) !=
	    NULL)
		carries(iface(t, facts, dev), "the default route", "");
	json_object_foreach((json_t *)routes, target, r) {
		dev = json_string_value(json_object_get(r, "interface"));
		if (dev == NULL) {
			label = target_label(peers, target);
			add_error(&errors, "no route to %s: %s", label,
			    json_string_value(json_object_get(r, "reason")) ?:
			    "ip route get names no interface");
			free(label);
			continue;
		}
		f = iface(t, facts, dev);
		carries_target(f, peers, target);
		type = json_string_value(json_object_get(r, "type"));
		if (type != NULL && strcmp(type, "local") == 0)
			f->local = 1;
	}
	json_array_foreach(json_object_get(facts, "peers_not_probed"), i, v)
		warn(t, "peer %s was not probed (past the probe's limit of "
		    "targets): the interface that carries its traffic is not "
		    "known", json_string_value(v) ?: "?");
	if (errors.len == 0 && t->n == 0)
		add_error(&errors, "no interface carries this host's traffic: "
		    "%s and no peers (iperf_peer, iperf_peers or rtt_to) to "
		    "route", json_string_value(json_object_get(facts,
		    "default_route_reason")) ?: "no default route");
	t->error = errors.len > 0 ? strbuf_detach(&errors, NULL) : NULL;
	strbuf_release(&errors);
}

void
traffic_clear(struct traffic *t)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		free(t->ifs[i].dev);
		free(t->ifs[i].carries);
	}
	free(t->ifs);
	for (i = 0; i < t->nwarnings; i++)
		free(t->warnings[i]);
	free(t->warnings);
	free(t->error);
	memset(t, 0, sizeof *t);
}
