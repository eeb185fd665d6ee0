#include "output.h"

#include <sys/ioctl.h>

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "runlog.h"
#include "say.h"
#include "playbook/playbook.h"
#include "report/message.h"
#include "run/events.h"
#include "base/strbuf.h"
#include "base/util.h"
#include "base/xalloc.h"

/* A traced command line longer than this is cut (a module may send a
 * whole script): the start says which one it is. */
#define TRACE_MAX	2000

#define C_GREEN		"\033[32m"
#define C_YELLOW	"\033[33m"
#define C_RED		"\033[31m"
#define C_CYAN		"\033[36m"
#define C_GRAY		"\033[90m"	/* Ansible's debug colour */
#define C_RESET		"\033[0m"

void
output_init(struct output *o, const struct options *opts)
{
	memset(o, 0, sizeof *o);
	o->opts = opts;
	/* -vv traces on stderr too: a progress line would cut into it. */
	o->progress = isatty(STDERR_FILENO) && opts->format == FORMAT_TEXT &&
	    opts->verbose < 2;
	o->start = monotonic_seconds();
	o->warnings = json_array();
	if (opts->format == FORMAT_JSON) {
		o->doc = xmalloc(sizeof *o->doc);
		jdoc_init(o->doc, stdout);
	}
	/* Each line out as soon as it is printed, into a pipe too: a log or
	 * a CI job sees a host's result when the host has it. */
	setvbuf(stdout, NULL, _IOLBF, 0);
}

void
output_free(struct output *o)
{
	if (o->doc != NULL) {
		jdoc_free(o->doc);
		free(o->doc);
	}
	json_decref(o->matrix);
	json_decref(o->warnings);
}

/* The document printed nothing yet: it is streamed, so a caller quiets
 * it before the run (cmd-play.c does for drift). */
void
output_quiet(struct output *o)
{
	o->quiet = 1;
}

/* The streamed document, or NULL: none, or a report prints instead. */
static struct jdoc *
doc(const struct output *o)
{
	return o->quiet ? NULL : o->doc;
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

/* The terminal's width, read at each redraw so that a resize is
 * followed; 0 when unknown. */
static int
terminal_width(void)
{
	struct winsize ws;

	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) != 0)
		return 0;
	return ws.ws_col;
}

static void
on_progress(void *arg, const struct run_progress *p)
{
	struct output	*o = arg;
	char		 line[1024];

	if (p->running == 0) {
		clear_progress(o);
		return;
	}
	run_progress_line(line, sizeof line, p, terminal_width());
	fprintf(stderr, "\r\033[K%s", line);
	fflush(stderr);
	o->progress_shown = 1;
}

/* One --format jsonl event, on a line of its own, out at once. */
static void
emit_line(json_t *ev)
{
	json_dumpf(ev, stdout, JSON_COMPACT | JSON_REAL_PRECISION(6));
	fputc('\n', stdout);
	fflush(stdout);
}

/* An event of the run: to the run log when one is open, and on standard
 * output with --format jsonl (not when a report prints instead).
 * Consumes ev. */
static void
emit(const struct output *o, json_t *ev)
{
	if (runlog_active())
		runlog_write(json_deep_copy(ev));
	if (o->opts->format == FORMAT_JSONL && !o->quiet)
		emit_line(ev);
	json_decref(ev);
}

/* Whether the text form prints this event. */
static int
text_shown(const struct output *o)
{
	return o->opts->format == FORMAT_TEXT && !o->quiet;
}


static void
play_banner(struct output *o)
{
	if (!text_shown(o))
		return;
	clear_progress(o);
	printf("\nPLAY [%s] %s\n", o->play,
	    "*********************************************");
}

/* A later serial batch: the play's banner again, in the text form only
 * (the JSON document keeps one entry per play). */
static void
on_batch_start(void *arg, const struct play *play, size_t batch_index,
    size_t nhosts)
{
	(void)play;
	(void)batch_index;
	(void)nhosts;
	play_banner(arg);
}

static void
on_play_start(void *arg, const struct play *play, size_t nhosts)
{
	struct output	*o = arg;
	json_t		*ev;

	/* an unnamed play is named by its hosts, as ansible-playbook */
	o->play = play->name != NULL && *play->name != '\0' ? play->name :
	    play->hosts;
	o->task = NULL;
	if (doc(o) != NULL)
		jdoc_play_start(doc(o), play->name != NULL ? play->name : "",
		    play->hosts, nhosts);
	ev = runlog_event("play_start");
	json_object_set_new(ev, "play", json_string(o->play));
	json_object_set_new(ev, "hosts", json_string(play->hosts));
	json_object_set_new(ev, "host_count", json_integer((json_int_t)nhosts));
	emit(o, ev);
	play_banner(o);
	if (nhosts == 0) {
		/* ansible-playbook warns on stderr and skips the play */
		say_warning(NULL, "play '%s': no hosts match '%s'", o->play,
		    play->hosts);
		if (text_shown(o))
			printf("skipping: no hosts matched\n");
	}
}

/* A task's header (text) or task_start event (jsonl), once per step;
 * nhosts 0 when not known (a result reported before its task ran). */
static void
task_header(struct output *o, const char *task, size_t nhosts,
    const char *kind)
{
	json_t *ev;

	o->task = task;
	ev = runlog_event("task_start");
	json_object_set_new(ev, "play", json_string(o->play));
	json_object_set_new(ev, "task", json_string(task));
	if (nhosts > 0)
		json_object_set_new(ev, "host_count",
		    json_integer((json_int_t)nhosts));
	emit(o, ev);
	if (!text_shown(o))
		return;
	clear_progress(o);
	printf("\n%s [%s] %s\n", kind, task,
	    "*********************************************");
}

static void
on_task_start(void *arg, const struct play *play, const char *task,
    size_t nhosts)
{
	(void)play;
	task_header(arg, task, nhosts, "TASK");
}

/* A handler's step: "RUNNING HANDLER [name]", as ansible-playbook. */
static void
on_handler_start(void *arg, const struct play *play, const char *task,
    size_t nhosts)
{
	(void)play;
	task_header(arg, task, nhosts, "RUNNING HANDLER");
}

static void
on_host_warning(void *arg, const char *host, const char *warning)
{
	struct output	*o = arg;
	json_t		*ev;

	json_array_append_new(o->warnings, json_pack("{s:s, s:s}", "host",
	    host, "msg", warning));
	if (o->opts->format == FORMAT_TEXT) {
		/* the one printer logs it too */
		clear_progress(o);
		say_warning(host, "%s", warning);
		return;
	}
	ev = runlog_event("warning");
	json_object_set_new(ev, "host", json_string(host));
	json_object_set_new(ev, "msg", json_string(warning));
	emit(o, ev);
}

/* A task's until did not hold yet: ansible-playbook's retry line. */
static void
on_host_retry(void *arg, const char *host, const char *task, int left)
{
	struct output	*o = arg;
	json_t		*ev;

	ev = runlog_event("retry");
	json_object_set_new(ev, "play", json_string(o->play));
	json_object_set_new(ev, "host", json_string(host));
	json_object_set_new(ev, "task", json_string(task));
	json_object_set_new(ev, "retries_left", json_integer(left));
	emit(o, ev);
	if (!text_shown(o))
		return;
	clear_progress(o);
	printf("%sFAILED - RETRYING: [%s]: %s (%d retries left).%s\n",
	    color(o, C_GRAY), host, task, left, color(o, C_RESET));
}

/* -vv: the transport's phases and command lines; -vvv: libssh's log.
 * From worker threads: say_trace is thread-safe. */
static void
on_trace(void *arg, const char *host, enum tp_trace_kind kind,
    const char *text)
{
	char *line;

	(void)arg;
	if (!say_tracing(kind == TP_TRACE_SSH ? 3 : 2))
		return;
	line = message_one_line(text, TRACE_MAX);
	say_trace(kind == TP_TRACE_SSH ? 3 : 2, host, "%s", line);
	free(line);
}

/* --diff output, coloured like git diff's when colour is on. */
static void
print_diff(const struct output *o, const char *diff)
{
	struct strbuf sb = STRBUF_INIT;

	if (!o->opts->color) {
		fputs(diff, stdout);
		return;
	}
	strbuf_init(&sb);
	message_color_diff(&sb, diff);
	fputs(sb.buf, stdout);
	strbuf_release(&sb);
}

/* A loop's items, one line each as Ansible prints them: "changed: [h]
 * => (item=label)". Returns how many were printed. */
static size_t
print_items(struct output *o, const char *host, const struct task_result *tr)
{
	const json_t	*results = json_object_get(tr->data, "results"), *it;
	const char	*st, *c, *shown, *to;
	size_t		 i;

	if (!json_is_array(results) || json_array_size(results) == 0)
		return 0;
	json_array_foreach(results, i, it) {
		st = json_string_value(json_object_get(it, "status"));
		if (st == NULL)
			return i;
		c = strcmp(st, "changed") == 0 ? C_YELLOW : strcmp(st, "ok") ==
		    0 ? C_GREEN : strcmp(st, "skipped") == 0 ? C_CYAN : C_RED;
		/* what a module shows of each item (debug's msg) */
		shown = json_string_value(json_object_get(it, "_display"));
		to = json_string_value(json_object_get(it, "_delegated"));
		if (strcmp(st, "failed") == 0) {
			/* Ansible's order: "failed: [h] (item=x) => why" */
			shown = json_string_value(json_object_get(it, "msg"));
			printf("%sfailed: [%s%s%s] (item=%s) => %s%s\n",
			    color(o, c), host, to != NULL ? " -> " : "",
			    to != NULL ? to : "", json_string_value(
			    json_object_get(it, "_label")), shown != NULL ?
			    shown : "", color(o, C_RESET));
			continue;
		}
		printf("%s%s: [%s%s%s] => (item=%s)%s%s%s\n", color(o, c),
		    strcmp(st, "skipped") == 0 ? "skipping" : strcmp(st,
		    "failed") == 0 ? "failed" : st, host, to != NULL ? " -> " :
		    "", to != NULL ? to : "",
		    json_string_value(json_object_get(it, "_label")),
		    shown != NULL ? " => " : "", shown != NULL ? shown : "",
		    color(o, C_RESET));
	}
	return i;
}

static void	print_status(struct output *, const char *,
		    const struct task_result *);

static void
print_result(struct output *o, const char *host, const struct task_result *tr)
{
	char *label;

	/* a loop's items say it all, a failure too (its items' "failed:"
	 * lines; no "fatal:" line for the loop, as Ansible's callback), then
	 * its diff; a censored one (no_log) ends with its own line */
	if (print_items(o, host, tr) > 0 &&
	    json_object_get(tr->data, "censored") == NULL) {
		if (tr->status == RESULT_FAILED && tr->ignored)
			printf("%s...ignoring%s\n", color(o, C_CYAN),
			    color(o, C_RESET));
		if (tr->diff != NULL && o->opts->diff)
			print_diff(o, tr->diff);
		return;
	}
	if (tr->delegated == NULL) {
		print_status(o, host, tr);
		return;
	}
	/* a delegated task: "h -> lab02(10.0.0.2)", as Ansible's host_label */
	label = xprintf("%s -> %s", host, tr->delegated);
	print_status(o, label, tr);
	free(label);
}

/* The task's line (lines: a failure, its diff) for host (its label). */
static void
print_status(struct output *o, const char *host, const struct task_result *tr)
{
	const char *word, *c;

	switch (tr->status) {
	case RESULT_OK: word = "ok"; c = C_GREEN; break;
	case RESULT_CHANGED: word = "changed"; c = C_YELLOW; break;
	case RESULT_SKIPPED: word = "skipping"; c = C_CYAN; break;
	case RESULT_UNREACHABLE:
		printf("%sfatal: [%s]: UNREACHABLE! => %s%s\n",
		    color(o, C_RED), host, tr->msg != NULL ? tr->msg : "",
		    color(o, C_RESET));
		return;
	case RESULT_FAILED:
	default:
		if (tr->ignored) {
			/* as ansible-playbook: the failure, then that it
			 * was ignored */
			printf("%sfatal: [%s]: FAILED! => %s%s\n%s...ignoring"
			    "%s\n", color(o, C_RED), host, tr->msg != NULL ?
			    tr->msg : "", color(o, C_RESET), color(o, C_CYAN),
			    color(o, C_RESET));
			return;
		}
		printf("%sfatal: [%s]: FAILED! => %s%s\n", color(o, C_RED),
		    host, tr->msg != NULL ? tr->msg : "", color(o, C_RESET));
		if (tr->diff != NULL && o->opts->diff)
			print_diff(o, tr->diff);
		return;
	}
	if (tr->msg != NULL && *tr->msg != '\0' &&
	    (o->opts->verbose > 0 || tr->status != RESULT_SKIPPED))
		printf("%s%s: [%s] => %s%s\n", color(o, c), word, host,
		    tr->msg, color(o, C_RESET));
	else
		printf("%s%s: [%s]%s\n", color(o, c), word, host,
		    color(o, C_RESET));
	if (tr->diff != NULL && o->opts->diff)
		print_diff(o, tr->diff);
}

/* A host's result the moment it has it, after its task's header. */
static void
on_host_result(void *arg, const char *host, const struct task_result *tr)
{
	struct output	*o = arg;
	json_t		*ev, *fields;

	if (o->task == NULL || strcmp(o->task, tr->task_name) != 0)
		task_header(o, tr->task_name, 0, "TASK");
	say_trace(2, host, "task '%s': %s, %.3fs", tr->task_name,
	    result_status_name(tr->status), tr->seconds);
	ev = runlog_event("host_result");
	json_object_set_new(ev, "play", json_string(o->play));
	json_object_set_new(ev, "host", json_string(host));
	json_object_set_new(ev, "kind", json_string(tr->kind ==
	    RESULT_KIND_APPLY ? "apply" : "task"));
	fields = task_result_json(tr);
	json_object_update(ev, fields);
	json_decref(fields);
	emit(o, ev);
	/* into the document's spool now: lean_results frees the data next */
	if (doc(o) != NULL)
		jdoc_result(doc(o), host, tr);
	if (!text_shown(o))
		return;
	clear_progress(o);
	print_result(o, host, tr);
}

/*
 * After a batch: --format json writes its hosts' results, in inventory
 * order, into the document. The text and jsonl output printed them as they
 * came.
 */
static void
on_batch_done(void *arg, const struct play *play, size_t play_index,
    struct host_state **hosts, size_t n)
{
	struct output	*o = arg;

	(void)play;
	(void)play_index;
	/* The next batch's tasks get their headers again, as in Ansible. */
	o->task = NULL;
	if (doc(o) != NULL)
		jdoc_batch_done(doc(o), hosts, n);
}

/* "1m30s", "45s", "1h02m" */
static void
fmt_duration(char *buf, size_t len, double secs)
{
	long s = (long)(secs + 0.5);

	if (s >= 3600)
		snprintf(buf, len, "%ldh%02ldm", s / 3600, s / 60 % 60);
	else if (s >= 60)
		snprintf(buf, len, "%ldm%02lds", s / 60, s % 60);
	else
		snprintf(buf, len, "%lds", s);
}

/* An event about the running play's task with the runner's fields. */
static void
emit_task_event(const struct output *o, const char *name, const char *task,
    const json_t *fields)
{
	json_t *ev = runlog_event(name);

	json_object_set_new(ev, "play", json_string(o->play));
	json_object_set_new(ev, "task", json_string(task));
	json_object_update(ev, (json_t *)fields);
	emit(o, ev);
}

/* A pairwise task's schedule, before its first pair: a line on stderr
 * (stdout stays the results'), or a jsonl event. */
static void
on_schedule(void *arg, const struct play *play, const char *task,
    const json_t *sch)
{
	struct output	*o = arg;
	json_int_t	 pairs, rounds, min;
	char		 d[32];

	(void)play;
	emit_task_event(o, "schedule", task, sch);
	if (o->opts->format == FORMAT_JSONL || o->quiet)
		return;
	pairs = json_integer_value(json_object_get(sch, "pairs"));
	rounds = json_integer_value(json_object_get(sch, "rounds"));
	min = json_integer_value(json_object_get(sch, "min_rounds"));
	fmt_duration(d, sizeof d, json_number_value(json_object_get(sch,
	    "seconds")));
	clear_progress(o);
	fprintf(stderr, "verify: %lld pair%s in %lld round%s (the fewest "
	    "possible: %lld), about %s\n", (long long)pairs, pairs == 1 ?
	    "" : "s", (long long)rounds, rounds == 1 ? "" : "s",
	    (long long)min, d);
}

/*
 * A round of a pairwise task ended: a jsonl (and run log) event, and a
 * line on stderr where no live progress line shows the rounds (stderr is
 * a pipe or a file, the json format, -vv): a log of a long verification
 * then still says how far it is.
 */
static void
on_round(void *arg, const struct play *play, const char *task,
    const json_t *rd)
{
	struct output	*o = arg;
	json_int_t	 done, rounds, pairs_done, pairs;
	double		 left;
	char		 took[32], rest[32];

	(void)play;
	emit_task_event(o, "round", task, rd);
	if (o->opts->format == FORMAT_JSONL || o->quiet || o->progress)
		return;
	done = json_integer_value(json_object_get(rd, "rounds_done"));
	rounds = json_integer_value(json_object_get(rd, "rounds"));
	pairs_done = json_integer_value(json_object_get(rd, "pairs_done"));
	pairs = json_integer_value(json_object_get(rd, "pairs"));
	left = json_number_value(json_object_get(rd, "seconds_left"));
	fmt_duration(took, sizeof took, json_number_value(json_object_get(rd,
	    "seconds")));
	fmt_duration(rest, sizeof rest, left);
	fprintf(stderr, "verify: round %lld/%lld done: %lld/%lld pairs, %s "
	    "elapsed%s%s%s\n", (long long)done, (long long)rounds,
	    (long long)pairs_done, (long long)pairs, took,
	    done < rounds ? ", about " : "", done < rounds ? rest : "",
	    done < rounds ? " left" : "");
}

/* Text and jsonl print a run as it goes; json only collects it. Drift's
 * report may clear the printing callbacks again. */
void
output_attach(struct output *o, struct run_config *cfg)
{
	cfg->play_start = on_play_start;
	cfg->batch_start = on_batch_start;
	cfg->batch_done = on_batch_done;
	cfg->schedule = on_schedule;
	cfg->round_done = on_round;
	cfg->task_start = on_task_start;
	cfg->handler_start = on_handler_start;
	cfg->host_warning = on_host_warning;
	cfg->host_retry = on_host_retry;
	cfg->host_result = on_host_result;
	if (o->progress)
		cfg->progress = on_progress;
	if (o->opts->verbose >= 2) {
		cfg->trace = on_trace;
		cfg->ssh_debug = o->opts->verbose >= 3;
	}
	cfg->cb_arg = o;
}

static void
finish_json(struct output *o, const struct runner *r)
{
	json_t *tail = json_object();

	json_object_set_new(tail, "stats", run_stats_json(r));
	json_object_set(tail, "warnings", o->warnings);
	if (r->stop_reason != NULL)
		json_object_set_new(tail, "stopped",
		    json_string(r->stop_reason));
	if (runner_interrupted)
		json_object_set_new(tail, "interrupted", json_true());
	if (o->matrix != NULL)
		json_object_set(tail, "matrix", o->matrix);
	jdoc_finish(o->doc, tail);
	json_decref(tail);
}

/* The recap event: the last line of jsonl, and of a run in the log. */
static void
finish_events(struct output *o, const struct runner *r)
{
	json_t *ev = runlog_event("recap");

	json_object_set_new(ev, "stats", run_stats_json(r));
	if (r->stop_reason != NULL)
		json_object_set_new(ev, "stopped",
		    json_string(r->stop_reason));
	if (runner_interrupted)
		json_object_set_new(ev, "interrupted", json_true());
	json_object_set_new(ev, "seconds",
	    json_real(monotonic_seconds() - o->start));
	emit(o, ev);
}

static int
host_name_cmp(const void *a, const void *b)
{
	const struct host_state *const *x = a, *const *y = b;

	return strcmp((*x)->name, (*y)->name);
}

void
output_finish(struct output *o, const struct runner *r)
{
	const struct host_state	**byname;
	size_t			  i;

	clear_progress(o);
	finish_events(o, r);
	if (o->quiet)
		return;
	if (o->doc != NULL) {
		finish_json(o, r);
		return;
	}
	if (o->opts->format == FORMAT_JSONL)
		return;
	if (r->stop_reason != NULL)
		printf("\n%sNO MORE HOSTS LEFT: %s%s\n", color(o, C_RED),
		    r->stop_reason, color(o, C_RESET));
	if (runner_interrupted)
		printf("\n%sINTERRUPTED: no new work was started%s\n",
		    color(o, C_RED), color(o, C_RESET));
	printf("\nPLAY RECAP %s\n",
	    "*********************************************************");
	/* sorted by name, as the default callback's sorted(processed) */
	byname = xcalloc(r->nhosts + 1, sizeof *byname);
	for (i = 0; i < r->nhosts; i++)
		byname[i] = r->hosts[i];
	qsort(byname, r->nhosts, sizeof *byname, host_name_cmp);
	for (i = 0; i < r->nhosts; i++) {
		const struct host_state *h = byname[i];
		const char *c = C_GREEN;

		if (h->nresults == 0)
			continue;
		if (h->stats.failed || h->stats.unreachable)
			c = C_RED;
		else if (h->stats.changed)
			c = C_YELLOW;
		/* Ansible's default callback's columns, in its order */
		printf("%s%-26s%s : ok=%-4d changed=%-4d unreachable=%-4d "
		    "failed=%-4d skipped=%-4d rescued=%-4d ignored=%-4d\n",
		    color(o, c), h->name, color(o, C_RESET), h->stats.ok,
		    h->stats.changed, h->stats.unreachable, h->stats.failed,
		    h->stats.skipped, h->stats.rescued, h->stats.ignored);
	}
	free(byname);
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
			/* Each pair once: the tables of the pairs this host
			 * measured as the client, when the result says. */
			t = json_string_value(json_object_get(
			    h->results[j].data, "client_table"));
			if (t == NULL)
				t = json_string_value(json_object_get(
				    h->results[j].data, "table"));
			if (t == NULL || *t == '\0')
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
	cfg->confirm_timeout = opts->confirm_timeout_given ?
	    opts->confirm_timeout : -1;
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
	cfg->verbosity = opts->verbose;
	if (strcmp(opts->host_key_checking, "accept-new") == 0)
		cfg->hostkey_mode = TP_HOSTKEY_ACCEPT_NEW;
	else if (strcmp(opts->host_key_checking, "off") == 0)
		cfg->hostkey_mode = TP_HOSTKEY_OFF;
	else
		cfg->hostkey_mode = TP_HOSTKEY_STRICT;
	return 0;
}

void
output_add_matrix(struct output *o, json_t *matrix)
{
	json_t *ev;

	if (o->doc != NULL) {
		json_decref(o->matrix);
		o->matrix = matrix;
		return;
	}
	/* to the run log too, and with --format jsonl on standard output */
	ev = runlog_event("matrix");
	json_object_set_new(ev, "matrix", matrix);
	emit(o, ev);
}
