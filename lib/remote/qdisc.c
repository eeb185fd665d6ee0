#include "remote/qdisc.h"

#include <string.h>

#include "base/strbuf.h"
#include "base/xalloc.h"

static int
is_mq(const json_t *qdisc)
{
	const char *kind = json_string_value(json_object_get(qdisc, "kind"));

	return kind != NULL && strcmp(kind, "mq") == 0;
}

/* The mq root's leaves: its children whose parent is the root's handle
 * (":1" under "0:", "1:1" under "1:"), never an ingress/clsact. */
static int
is_leaf(const json_t *child, const char *root_handle)
{
	const char	*parent = json_string_value(json_object_get(child,
	    "parent"));
	size_t		 maj;

	if (parent == NULL || root_handle == NULL)
		return 0;
	maj = strcspn(root_handle, ":");
	if (maj == 1 && root_handle[0] == '0')
		maj = 0;	/* "0:" lists its leaves as ":N" */
	return strncmp(parent, root_handle, maj) == 0 && parent[maj] == ':';
}

/* Calls fn for the kind of each leaf of an mq root; returns how many. */
static size_t
leaves(const json_t *qdisc, void (*fn)(const char *, void *), void *arg)
{
	const char	*handle = json_string_value(json_object_get(qdisc,
	    "handle"));
	const json_t	*c;
	size_t		 i, n = 0;

	json_array_foreach(json_object_get(qdisc, "children"), i, c) {
		const char *kind = json_string_value(json_object_get(c,
		    "kind"));

		if (kind == NULL || !is_leaf(c, handle))
			continue;
		n++;
		fn(kind, arg);
	}
	return n;
}

struct common {
	const char	*kind;
	int		 mixed;
};

static void
common_kind(const char *kind, void *arg)
{
	struct common *c = arg;

	if (c->kind == NULL)
		c->kind = kind;
	else if (strcmp(c->kind, kind) != 0)
		c->mixed = 1;
}

const char *
qdisc_effective(const json_t *qdisc)
{
	struct common c = { NULL, 0 };

	if (!json_is_object(qdisc))
		return NULL;
	if (!is_mq(qdisc))
		return json_string_value(json_object_get(qdisc, "kind"));
	if (leaves(qdisc, common_kind, &c) == 0)
		return "mq";
	return c.mixed ? "mixed" : c.kind;
}

/* Each distinct kind once, in the order first seen. */
static void
add_distinct(const char *kind, void *arg)
{
	struct strbuf	*sb = arg;
	const char	*p = sb->buf;
	size_t		 len = strlen(kind);

	while (p != NULL && *p != '\0') {
		if (strncmp(p, kind, len) == 0 && (p[len] == ',' ||
		    p[len] == '\0'))
			return;
		p = strchr(p, ',');
		if (p != NULL)
			p += 2;
	}
	strbuf_addf(sb, "%s%s", sb->len > 0 ? ", " : "", kind);
}

char *
qdisc_describe(const json_t *qdisc)
{
	const char	*eff = qdisc_effective(qdisc);
	struct strbuf	 kinds;
	size_t		 n;
	char		*s;

	if (eff == NULL)
		return xstrdup("?");
	if (!is_mq(qdisc) || strcmp(eff, "mq") == 0)
		return xstrdup(eff);
	strbuf_init(&kinds);
	n = leaves(qdisc, add_distinct, &kinds);
	if (strcmp(eff, "mixed") == 0)
		s = xprintf("mixed on %zu mq queues (%s)", n, kinds.buf);
	else
		s = xprintf("%s on %zu mq queue%s", eff, n, n == 1 ? "" : "s");
	strbuf_release(&kinds);
	return s;
}
