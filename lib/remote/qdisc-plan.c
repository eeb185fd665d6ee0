#include "remote/qdisc-plan.h"

#include <string.h>

#include "base/strbuf.h"
#include "base/xalloc.h"
#include "remote/qdisc.h"
#include "remote/traffic.h"

const json_t *
qdisc_plan_live(const json_t *facts, const char *dev)
{
	const json_t	*l = json_object_get(json_object_get(facts,
	    "interfaces"), dev);
	const json_t	*dr = json_object_get(facts, "default_route");
	const char	*d = json_string_value(json_object_get(dr,
	    "interface"));

	if (l != NULL)
		return json_object_get(l, "qdisc");
	/* Facts of a probe before "interfaces" (or a default route alone). */
	if (d != NULL && strcmp(d, dev) == 0)
		return json_object_get(dr, "qdisc");
	return NULL;
}

static void
add_word(struct strbuf *sb, const char *w)
{
	if (sb->len > 0)
		strbuf_addch(sb, ' ');
	strbuf_addstr(sb, w);
}

void
qdisc_plan_compute(const json_t *facts, const char *want,
    struct qdisc_plan *p)
{
	struct traffic		 t;
	struct strbuf		 devs, txqs, links;
	const json_t		*q;
	const char		*kind;
	size_t			 i;

	memset(p, 0, sizeof *p);
	traffic_find(facts, &t);
	p->want = want != NULL ? xstrdup(want) : NULL;
	p->error = t.error;
	t.error = NULL;
	p->warnings = t.warnings;
	p->nwarnings = t.nwarnings;
	t.warnings = NULL;
	t.nwarnings = 0;
	strbuf_init(&devs);
	strbuf_init(&txqs);
	strbuf_init(&links);
	for (i = 0; i < t.n; i++) {
		const struct traffic_iface	*f = &t.ifs[i];
		struct qdisc_plan_if		*pi;

		if (f->local) {
			/* Loopback shapes nothing that leaves the host. */
			p->warnings = xreallocarray(p->warnings,
			    p->nwarnings + 1, sizeof *p->warnings);
			p->warnings[p->nwarnings++] = xprintf("%s carries %s "
			    "(a local address): its qdisc is left alone",
			    f->dev, f->carries);
			continue;
		}
		p->ifs = xreallocarray(p->ifs, p->n + 1, sizeof *p->ifs);
		pi = &p->ifs[p->n++];
		memset(pi, 0, sizeof *pi);
		pi->dev = xstrdup(f->dev);
		pi->carries = xstrdup(f->carries);
		q = qdisc_plan_live(facts, f->dev);
		pi->live = qdisc_describe(q);
		if (json_is_true(json_object_get(q, "mq")))
			pi->tx_queues = (int)json_integer_value(
			    json_object_get(f->link, "tx_queues"));
		kind = qdisc_effective(q);
		pi->set = want != NULL && (kind == NULL ||
		    strcmp(kind, want) != 0);
		add_word(&links, f->dev);
		if (pi->set) {
			add_word(&devs, f->dev);
			strbuf_addf(&txqs, "%s%d", txqs.len > 0 ? " " : "",
			    pi->tx_queues);
		}
	}
	p->devs = devs.len > 0 ? strbuf_detach(&devs, NULL) : NULL;
	p->txqs = txqs.len > 0 ? strbuf_detach(&txqs, NULL) : NULL;
	p->links = links.len > 0 ? strbuf_detach(&links, NULL) : NULL;
	strbuf_release(&devs);
	strbuf_release(&txqs);
	strbuf_release(&links);
	traffic_clear(&t);
}

void
qdisc_plan_clear(struct qdisc_plan *p)
{
	size_t i;

	for (i = 0; i < p->n; i++) {
		free(p->ifs[i].dev);
		free(p->ifs[i].carries);
		free(p->ifs[i].live);
	}
	free(p->ifs);
	for (i = 0; i < p->nwarnings; i++)
		free(p->warnings[i]);
	free(p->warnings);
	free(p->want);
	free(p->error);
	free(p->devs);
	free(p->txqs);
	free(p->links);
	memset(p, 0, sizeof *p);
}
