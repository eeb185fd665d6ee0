#include "output.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "playbook/playbook.h"
#include "base/util.h"
#include "base/xalloc.h"

#define C_GREEN		"\033[32m"
#define C_YELLOW	"\033[33m"
#define C_RED		"\033[31m"
#define C_CYAN		"\033[36m"
#define C_RESET		"\033[0m"

void
output_init(struct output *o, const struct options *opts)
{
	memset(o, 0, sizeof *o);
	o->opts = opts;
	o->progress = isatty(STDERR_FILENO) && opts->format == FORMAT_TEXT;
	o->start = monotonic_seconds();
	if (opts->format == FORMAT_JSON)
		o->json = json_pack("{s:[]}", "plays");
}

void
output_free(struct output *o)
{
	json_decref(o->json);
}

static const char *
color(const struct output *o, const char *c)
{
	return o->opts->color ? c : "";
}

static void
clear_progress(struct output *o)
{
	if (o->progress_shown) {
		fputs("\r\033[K", stderr);
		o->progress_shown = 0;
	}
}

static void
on_progress(void *arg, size_t done, size_t total, size_t failed)
{
	struct output *o = arg;

	if (!o->progress)
		return;
	fprintf(stderr, "\r\033[K[%zu/%zu hosts done, %zu failed, %.1fs]",
	    done, total, failed, monotonic_seconds() - o->start);
	fflush(stderr);
	o->progress_shown = 1;
}

static void
on_play_start(void *arg, const struct play *play, size_t nhosts)
{
	struct output *o = arg;

	if (o->json != NULL) {
		json_array_append_new(json_object_get(o->json, "plays"),
		    json_pack("{s:s, s:s, s:I, s:{}}", "name",
		    play->name != NULL ? play->name : "", "hosts", play->hosts,
		    "host_count", (json_int_t)nhosts, "results"));
		return;
	}
	printf("\nPLAY [%s] %s\n", play->name != NULL ? play->name :
	    play->hosts, "*********************************************");
	fflush(stdout);
}

static void
print_result(struct output *o, const struct host_state *h,
    const struct task_result *tr)
{
	const char *word, *c;

	switch (tr->status) {
	case RESULT_OK: word = "ok"; c = C_GREEN; break;
	case RESULT_CHANGED: word = "changed"; c = C_YELLOW; break;
	case RESULT_SKIPPED: word = "skipping"; c = C_CYAN; break;
	case RESULT_UNREACHABLE:
		printf("%sfatal: [%s]: UNREACHABLE! => %s%s\n",
		    color(o, C_RED), h->name, tr->msg != NULL ? tr->msg : "",
		    color(o, C_RESET));
		return;
	case RESULT_FAILED:
	default:
		if (tr->ignored) {
			printf("%sfailed (ignored): [%s] => %s%s\n",
			    color(o, C_CYAN), h->name, tr->msg != NULL ?
			    tr->msg : "", color(o, C_RESET));
			return;
		}
		printf("%sfatal: [%s]: FAILED! => %s%s\n", color(o, C_RED),
		    h->name, tr->msg != NULL ? tr->msg : "",
		    color(o, C_RESET));
		if (tr->diff != NULL && o->opts->diff)
			fputs(tr->diff, stdout);
		return;
	}
	if (tr->msg != NULL && *tr->msg != '\0' &&
	    (o->opts->verbose > 0 || tr->status != RESULT_SKIPPED))
		printf("%s%s: [%s] => %s%s\n", color(o, c), word, h->name,
		    tr->msg, color(o, C_RESET));
	else
		printf("%s%s: [%s]%s\n", color(o, c), word, h->name,
		    color(o, C_RESET));
	if (tr->diff != NULL && o->opts->diff)
		fputs(tr->diff, stdout);
}

static json_t *
result_json(const struct task_result *tr)
{
	json_t *j = json_pack("{s:s, s:s, s:s, s:f}", "task", tr->task_name,
	    "module", tr->module, "status", result_status_name(tr->status),
	    "seconds", tr->seconds);

	if (tr->msg != NULL)
		json_object_set_new(j, "msg", json_string(tr->msg));
	if (tr->diff != NULL)
		json_object_set_new(j, "diff", json_string(tr->diff));
	if (tr->data != NULL)
		json_object_set(j, "data", tr->data);
	if (tr->ignored)
		json_object_set_new(j, "ignored", json_true());
	return j;
}

/*
 * After a batch, print its results task by task, hosts in inventory order,
 * as Ansible's linear strategy would have shown them.
 */
static void
on_batch_done(void *arg, const struct play *play, size_t play_index,
    struct host_state **hosts, size_t n)
{
	struct output	*o = arg;
	const char	*printed[256];
	size_t		 nprinted = 0, i, j, k;

	(void)play;
	clear_progress(o);
	if (o->json != NULL) {
		json_t *plays = json_object_get(o->json, "plays");
		json_t *res = json_object_get(json_array_get(plays,
		    json_array_size(plays) - 1), "results");

		for (i = 0; i < n; i++) {
			json_t *list = json_array();

			for (k = 0; k < hosts[i]->nresults; k++) {
				if (hosts[i]->results[k].play == play_index)
					json_array_append_new(list,
					    result_json(&hosts[i]->results[k]));
			}
			json_object_set_new(res, hosts[i]->name, list);
		}
		return;
	}
	for (i = 0; i < n; i++) {
		if (hosts[i]->warning != NULL) {
			fprintf(stderr, "%s[WARNING]: %s: %s%s\n",
			    color(o, C_RED), hosts[i]->name, hosts[i]->warning,
			    color(o, C_RESET));
			free(hosts[i]->warning);
			hosts[i]->warning = NULL;
		}
	}
	/* Task names in first-seen order over the batch's results. */
	for (i = 0; i < n; i++) {
		for (k = 0; k < hosts[i]->nresults; k++) {
			const struct task_result *tr = &hosts[i]->results[k];

			if (tr->play != play_index)
				continue;
			for (j = 0; j < nprinted; j++) {
				if (printed[j] == tr->task_name)
					break;
			}
			if (j < nprinted ||
			    nprinted == sizeof printed / sizeof printed[0])
				continue;
			printed[nprinted++] = tr->task_name;
			printf("\nTASK [%s] %s\n", tr->task_name,
			    "*********************************************");
			for (j = 0; j < n; j++) {
				size_t m;

				for (m = 0; m < hosts[j]->nresults; m++) {
					const struct task_result *t2 =
					    &hosts[j]->results[m];

					if (t2->play == play_index &&
					    t2->task_name == tr->task_name)
						print_result(o, hosts[j], t2);
				}
			}
		}
	}
	fflush(stdout);
}

void
output_attach(struct output *o, struct run_config *cfg)
{
	cfg->progress = on_progress;
	cfg->batch_done = on_batch_done;
	cfg->play_start = on_play_start;
	cfg->cb_arg = o;
}

void
output_finish(struct output *o, const struct runner *r)
{
	size_t i;

	clear_progress(o);
	if (o->json != NULL) {
		json_t *stats = json_object();

		for (i = 0; i < r->nhosts; i++) {
			const struct host_state *h = r->hosts[i];

			if (h->nresults == 0)
				continue;
			json_object_set_new(stats, h->name, json_pack(
			    "{s:i, s:i, s:i, s:i, s:i}", "ok", h->stats.ok,
			    "changed", h->stats.changed, "unreachable",
			    h->stats.unreachable, "failed", h->stats.failed,
			    "skipped", h->stats.skipped));
		}
		json_object_set_new(o->json, "stats", stats);
		if (r->stop_reason != NULL)
			json_object_set_new(o->json, "stopped",
			    json_string(r->stop_reason));
		if (runner_interrupted)
			json_object_set_new(o->json, "interrupted",
			    json_true());
		json_dumpf(o->json, stdout, JSON_INDENT(2) | JSON_SORT_KEYS);
		fputc('\n', stdout);
		return;
	}
	if (r->stop_reason != NULL)
		printf("\n%sNO MORE HOSTS LEFT: %s%s\n", color(o, C_RED),
		    r->stop_reason, color(o, C_RESET));
	if (runner_interrupted)
		printf("\n%sINTERRUPTED: no new work was started%s\n",
		    color(o, C_RED), color(o, C_RESET));
	printf("\nPLAY RECAP %s\n",
	    "*********************************************************");
	for (i = 0; i < r->nhosts; i++) {
		const struct host_state *h = r->hosts[i];
		const char *c = C_GREEN;

		if (h->nresults == 0)
			continue;
		if (h->stats.failed || h->stats.unreachable)
			c = C_RED;
		else if (h->stats.changed)
			c = C_YELLOW;
		printf("%s%-26s%s : ok=%-4d changed=%-4d unreachable=%-4d "
		    "failed=%-4d skipped=%-4d\n", color(o, c), h->name,
		    color(o, C_RESET), h->stats.ok, h->stats.changed,
		    h->stats.unreachable, h->stats.failed, h->stats.skipped);
	}
	printf("\n(%.1fs)\n", monotonic_seconds() - o->start);
}

void
output_verify_tables(const struct runner *r)
{
	const char	*t;
	size_t		 i, j;

	for (i = 0; i < r->nhosts; i++) {
		const struct host_state *h = r->hosts[i];

		for (j = 0; j < h->nresults; j++) {
			if (h->results[j].module == NULL ||
			    strcmp(h->results[j].module, "iperf3_verify") != 0)
				continue;
			t = json_string_value(json_object_get(
			    h->results[j].data, "table"));
			if (t == NULL)
				continue;
			printf("\n%s", t);
		}
	}
}

int
run_config_from_options(struct run_config *cfg, const struct options *opts)
{
	memset(cfg, 0, sizeof *cfg);
	cfg->forks = opts->forks;
	cfg->check = opts->check;
	cfg->diff = opts->diff;
	cfg->connect_timeout = opts->timeout;
	cfg->command_timeout = opts->command_timeout;
	cfg->known_hosts = opts->known_hosts;
	cfg->ssh_config = opts->ssh_config;
	cfg->private_key = opts->private_key;
	cfg->user = opts->user;
	cfg->become = opts->become;
	cfg->default_user = opts->cfg_user;
	cfg->default_private_key = opts->cfg_private_key;
	cfg->default_become = opts->cfg_become;
	cfg->default_become_user = opts->become_user;
	cfg->limit = opts->limit;
	cfg->tags = opts->tags;
	cfg->skip_tags = opts->skip_tags;
	if (strcmp(opts->host_key_checking, "accept-new") == 0)
		cfg->hostkey_mode = TP_HOSTKEY_ACCEPT_NEW;
	else if (strcmp(opts->host_key_checking, "off") == 0)
		cfg->hostkey_mode = TP_HOSTKEY_OFF;
	else
		cfg->hostkey_mode = TP_HOSTKEY_STRICT;
	return 0;
}
