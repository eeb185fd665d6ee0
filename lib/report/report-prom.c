/* node_exporter textfile output of a drift run; see report-prom.h. */
#include "report/report-prom.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/atomicfile.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

char *
prom_escape_label(const char *s)
{
	struct strbuf sb;

	strbuf_init(&sb);
	for (; *s != '\0'; s++) {
		if (*s == '\\')
			strbuf_addstr(&sb, "\\\\");
		else if (*s == '"')
			strbuf_addstr(&sb, "\\\"");
		else if (*s == '\n')
			strbuf_addstr(&sb, "\\n");
		else
			strbuf_addch(&sb, *s);
	}
	return strbuf_detach(&sb, NULL);
}

static void
family(struct strbuf *sb, const char *name, const char *help)
{
	strbuf_addf(sb, "# HELP %s %s\n# TYPE %s gauge\n", name, help, name);
}

static void
host_sample(struct strbuf *sb, const char *metric, const char *host,
    size_t value)
{
	char *h = prom_escape_label(host);

	strbuf_addf(sb, "%s{host=\"%s\"} %zu\n", metric, h, value);
	free(h);
}

static int
same(const char *a, const char *b)
{
	return strcmp(a != NULL ? a : "", b != NULL ? b : "") == 0;
}

/* Whether item i repeats an earlier host+key+cause: it is then neither
 * written nor counted, as a repeated series would make the collector drop
 * the whole file. */
static int
repeated(const struct prom_metrics *m, size_t i)
{
	size_t j;

	for (j = 0; j < i; j++) {
		if (same(m->items[j].host, m->items[i].host) &&
		    same(m->items[j].key, m->items[i].key) &&
		    same(m->items[j].cause, m->items[i].cause))
			return 1;
	}
	return 0;
}

static size_t
host_items(const struct prom_metrics *m, const char *host)
{
	size_t i, n = 0;

	for (i = 0; i < m->nitems; i++) {
		if (m->items[i].host != NULL &&
		    strcmp(m->items[i].host, host) == 0 && !repeated(m, i))
			n++;
	}
	return n;
}

static int
checked(enum prom_host_state st)
{
	return st == PROM_HOST_IN_SYNC || st == PROM_HOST_DRIFTED;
}

char *
prom_render(const struct prom_metrics *m)
{
	static const char *const states[] = { "in_sync", "drifted",
	    "unreachable", "failed" };
	struct strbuf	 sb;
	size_t		 i, count[4] = { 0, 0, 0, 0 };
	char		*h, *k, *c;

	strbuf_init(&sb);

	family(&sb, "tcptune_drift_items", "Drifted items (sysctl keys, "
	    "files, qdiscs) of a host at the last check; absent when the "
	    "host could not be checked.");
	for (i = 0; i < m->nhosts; i++) {
		if (checked(m->hosts[i].state))
			host_sample(&sb, "tcptune_drift_items",
			    m->hosts[i].name, host_items(m, m->hosts[i].name));
	}

	family(&sb, "tcptune_drift_item", "1 for each drifted item of the "
	    "last check, by host, key and cause.");
	for (i = 0; i < m->nitems; i++) {
		if (repeated(m, i))
			continue;
		h = prom_escape_label(m->items[i].host != NULL ?
		    m->items[i].host : "");
		k = prom_escape_label(m->items[i].key != NULL ?
		    m->items[i].key : "");
		c = prom_escape_label(m->items[i].cause != NULL ?
		    m->items[i].cause : "");
		strbuf_addf(&sb, "tcptune_drift_item{host=\"%s\",key=\"%s\","
		    "cause=\"%s\"} 1\n", h, k, c);
		free(h);
		free(k);
		free(c);
	}

	family(&sb, "tcptune_host_reachable", "1 if tcptune reached the host "
	    "over SSH at the last check, else 0.");
	for (i = 0; i < m->nhosts; i++) {
		host_sample(&sb, "tcptune_host_reachable", m->hosts[i].name,
		    m->hosts[i].state != PROM_HOST_UNREACHABLE);
	}

	family(&sb, "tcptune_host_in_sync", "1 if the host was checked and "
	    "nothing drifted, else 0.");
	for (i = 0; i < m->nhosts; i++) {
		host_sample(&sb, "tcptune_host_in_sync", m->hosts[i].name,
		    m->hosts[i].state == PROM_HOST_IN_SYNC);
		if ((unsigned)m->hosts[i].state < 4)
			count[m->hosts[i].state]++;
	}

	family(&sb, "tcptune_hosts", "Hosts of the last check by state.");
	for (i = 0; i < 4; i++)
		strbuf_addf(&sb, "tcptune_hosts{state=\"%s\"} %zu\n",
		    states[i], count[i]);

	family(&sb, "tcptune_last_run_timestamp_seconds", "When the last "
	    "drift check finished, in seconds since the epoch.");
	strbuf_addf(&sb, "tcptune_last_run_timestamp_seconds %.3f\n",
	    m->timestamp);
	family(&sb, "tcptune_last_run_duration_seconds", "How long the last "
	    "drift check took, in seconds.");
	strbuf_addf(&sb, "tcptune_last_run_duration_seconds %.3f\n",
	    m->duration);

	return strbuf_detach(&sb, NULL);
}

int
prom_write(const char *path, const struct prom_metrics *m, char **cause)
{
	char	*text = prom_render(m);
	int	 r;

	r = file_replace_atomic(path, text, strlen(text), 0644, cause);
	free(text);
	return r;
}
