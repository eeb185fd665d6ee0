/* tcptune drift PLAYBOOK: compare, read-only, what the play would make with
 * each host as it is; report every drifted item with its cause. For
 * schedules: exit 0 in sync, 8 drift found, OR 2/4 for failed/unreachable
 * hosts, 1 could not run; JSON (--format json), a Prometheus textfile
 * (--prometheus FILE) and a webhook (--webhook URL). docs/drift.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd-common.h"
#include "say.h"
#include "net/http.h"
#include "report/report-prom.h"
#include "run/runner.h"
#include "report/webhook.h"
#include "base/xalloc.h"
#include "vault/vault.h"

/* The --format json document's "schema" (docs/output.md): raised when a
 * field changes meaning or goes away. */
#define DRIFT_SCHEMA	1

/* Drift items of one host: the "drift" arrays of its results (tcptune's
 * apply, and a file module's boot sysctl file: docs/modules.md). */
static json_t *
host_items(const struct host_state *h)
{
	json_t	*items = json_array();
	size_t	 i;

	for (i = 0; i < h->nresults; i++) {
		const json_t *d = json_object_get(h->results[i].data, "drift");

		if (json_is_array(d))
			json_array_extend(items, (json_t *)d);
	}
	return items;
}

static const char *
host_error(const struct host_state *h)
{
	size_t i;

	for (i = 0; i < h->nresults; i++) {
		if (h->results[i].status == RESULT_FAILED ||
		    h->results[i].status == RESULT_UNREACHABLE)
			return h->results[i].msg != NULL ? h->results[i].msg :
			    "failed";
	}
	return NULL;
}

static const char *
host_status(const struct host_state *h, size_t nitems)
{
	if (h->stats.unreachable > 0)
		return "unreachable";
	if (h->stats.failed > 0)
		return "failed";
	return nitems > 0 ? "drifted" : "in_sync";
}

/* The document --format json prints and the webhook summarises:
 * {"schema": 1, "version": 1 (the same number, its older name),
 * "playbook", "warnings": [{"host", "msg"}], "drift", "hosts": {NAME: {"status", "items",
 * "error"}}, "summary": {"in_sync", "drifted", "unreachable", "failed"},
 * "items": [{"host", "key", "expected", "live", "cause", "detail"}]}. */
static json_t *
drift_document(const struct options *opts, const struct runner *r,
    double seconds, const json_t *warnings)
{
	json_t	*hosts = json_object(), *all = json_array();
	json_t	*summary = json_pack("{s:i, s:i, s:i, s:i}", "in_sync", 0,
	    "drifted", 0, "unreachable", 0, "failed", 0);
	size_t	 i, j;

	for (i = 0; i < r->nhosts; i++) {
		const struct host_state *h = r->hosts[i];
		json_t		*items, *entry, *it;
		const char	*status, *err;

		if (h->nresults == 0)
			continue;
		items = host_items(h);
		status = host_status(h, json_array_size(items));
		err = host_error(h);
		entry = json_pack("{s:s, s:O}", "status", status, "items",
		    items);
		if (err != NULL && strcmp(status, "drifted") != 0 &&
		    strcmp(status, "in_sync") != 0)
			json_object_set_new(entry, "error", json_string(err));
		json_object_set_new(hosts, h->name, entry);
		json_object_set_new(summary, status, json_integer(
		    json_integer_value(json_object_get(summary, status)) + 1));
		json_array_foreach(items, j, it) {
			json_t *c = json_deep_copy(it);

			json_object_set_new(c, "host", json_string(h->name));
			json_array_append_new(all, c);
		}
		json_decref(items);
	}
	return json_pack("{s:i, s:i, s:s, s:O, s:b, s:f, s:o, s:o, s:o}",
	    "schema", DRIFT_SCHEMA, "version", DRIFT_SCHEMA,
	    "playbook", opts->args[0], "warnings", (json_t *)warnings, "drift", json_array_size(all) > 0,
	    "duration_seconds", seconds, "hosts", hosts, "summary", summary,
	    "items", all);
}

static void
print_text(const json_t *doc)
{
	const json_t	*hosts = json_object_get(doc, "hosts");
	const json_t	*h, *it, *s = json_object_get(doc, "summary");
	const char	*name;
	size_t		 i;

	json_object_foreach((json_t *)hosts, name, h) {
		const char *st = json_string_value(json_object_get(h,
		    "status"));

		if (strcmp(st, "unreachable") == 0 || strcmp(st, "failed") ==
		    0)
			printf("%s: %s: %s\n", name, st, json_string_value(
			    json_object_get(h, "error")) ?: "");
		json_array_foreach(json_object_get(h, "items"), i, it) {
			const char *detail = json_string_value(
			    json_object_get(it, "detail"));

			printf("%s: %s: expected '%s', live '%s' (%s%s%s)\n",
			    name, json_string_value(json_object_get(it, "key")),
			    json_string_value(json_object_get(it, "expected")) ?:
			    "?", json_string_value(json_object_get(it,
			    "live")) ?: "?", json_string_value(
			    json_object_get(it, "cause")), detail != NULL ?
			    ": " : "", detail != NULL ? detail : "");
		}
	}
	printf("drift: %lld in sync, %lld drifted, %lld unreachable, %lld "
	    "failed (%zu item%s)\n",
	    (long long)json_integer_value(json_object_get(s, "in_sync")),
	    (long long)json_integer_value(json_object_get(s, "drifted")),
	    (long long)json_integer_value(json_object_get(s, "unreachable")),
	    (long long)json_integer_value(json_object_get(s, "failed")),
	    json_array_size(json_object_get(doc, "items")),
	    json_array_size(json_object_get(doc, "items")) == 1 ? "" : "s");
}

/* A short category for the Prometheus label: every distinct label set is a
 * series, so no values go in it. */
static const char *
prom_cause(const char *cause)
{
	if (strcmp(cause, "changed at runtime") == 0)
		return "runtime";
	if (strcmp(cause, "overridden") == 0)
		return "overridden";
	if (strcmp(cause, "file edited") == 0)
		return "edited";
	if (strcmp(cause, "file missing") == 0)
		return "missing";
	if (strcmp(cause, "module not loaded") == 0)
		return "module";
	if (strcmp(cause, "route options not live") == 0)
		return "route";
	return "qdisc";
}

static int
write_prometheus(const char *path, const json_t *doc, char **cause)
{
	const json_t		*hosts = json_object_get(doc, "hosts");
	const json_t		*items = json_object_get(doc, "items");
	const json_t		*h, *it;
	struct prom_host	*ph;
	struct prom_item	*pi;
	struct prom_metrics	 m;
	const char		*name;
	size_t			 n = 0, i;
	int			 rc;

	ph = xcalloc(json_object_size(hosts) + 1, sizeof *ph);
	pi = xcalloc(json_array_size(items) + 1, sizeof *pi);
	json_object_foreach((json_t *)hosts, name, h) {
		const char *st = json_string_value(json_object_get(h,
		    "status"));

		ph[n].name = name;
		ph[n].state = strcmp(st, "in_sync") == 0 ? PROM_HOST_IN_SYNC :
		    strcmp(st, "drifted") == 0 ? PROM_HOST_DRIFTED :
		    strcmp(st, "unreachable") == 0 ? PROM_HOST_UNREACHABLE :
		    PROM_HOST_FAILED;
		n++;
	}
	json_array_foreach(items, i, it) {
		pi[i].host = json_string_value(json_object_get(it, "host"));
		pi[i].key = json_string_value(json_object_get(it, "key"));
		pi[i].cause = prom_cause(json_string_value(json_object_get(it,
		    "cause")));
	}
	memset(&m, 0, sizeof m);
	m.hosts = ph;
	m.nhosts = n;
	m.items = pi;
	m.nitems = json_array_size(items);
	m.timestamp = (double)time(NULL);
	m.duration = json_real_value(json_object_get(doc,
	    "duration_seconds"));
	rc = prom_write(path, &m, cause);
	free(ph);
	free(pi);
	return rc;
}

static int
drift_report(const struct options *opts, const struct runner *r,
    double seconds, const json_t *warnings)
{
	json_t	*doc = drift_document(opts, r, seconds, warnings);
	char	*cause = NULL;
	int	 rc = runner_exit_status(r);

	if (json_is_true(json_object_get(doc, "drift")))
		rc |= EXIT_CHANGES;
	if (opts->format == FORMAT_JSON) {
		json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_SORT_KEYS);
		fputc('\n', stdout);
	} else
		print_text(doc);
	if (opts->prometheus != NULL && write_prometheus(opts->prometheus,
	    doc, &cause) != 0) {
		cmd_error("%s", cause);
		free(cause);
		cause = NULL;
		rc |= EXIT_HOST_FAILED;
	}
	/* A failed webhook is reported; it does not change the verdict. */
	if (opts->webhook != NULL && webhook_post(opts->webhook, doc,
	    &cause) != 0) {
		cmd_error("webhook not delivered: %s", cause);
		free(cause);
	}
	json_decref(doc);
	return rc;
}

static int
cmd_drift_exec(struct options *opts)
{
	char	*warning = NULL, *cause = NULL;

	/* A Slack webhook URL is a secret: it may come from the environment
	 * instead of the command line (where ps shows it). Empty means none. */
	if (opts->webhook == NULL)
		opts->webhook = getenv("TCPTUNE_WEBHOOK");
	if (opts->webhook != NULL && *opts->webhook == '\0')
		opts->webhook = NULL;
	if (opts->webhook != NULL) {
		/* its path is its token: redacted wherever it might show */
		vault_remember(opts->webhook, strlen(opts->webhook));
		if (http_url_check(opts->webhook, &warning, &cause) != 0) {
			cmd_error("--webhook: %s", cause);
			free(cause);
			return EXIT_COULD_NOT_RUN;
		}
		if (warning != NULL) {
			say_warning(NULL, "--webhook: %s", warning);
			free(warning);
		}
	}
	opts->check = 1;
	return cmd_run_playbook(opts, 1, drift_report);
}

const struct cmd_entry cmd_drift_entry = {
	.name = "drift",
	.usage = "PLAYBOOK [--prometheus FILE] [--webhook URL]",
	.summary = "compare hosts with what the playbook would make (read-only)",
	.accepts = OPT_REPORT | OPT_TAGS | OPT_LOOK,
	.min_args = 1,
	.max_args = 1,
	.exec = cmd_drift_exec,
};
