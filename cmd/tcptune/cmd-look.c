/* Looking before running, for play, plan and drift: --start-at-task, and
 * --list-hosts / --list-tasks, which print what a run would do and on
 * which hosts in ansible-playbook 2.14's layout (or as JSON) and contact
 * nothing. The tasks listed are the ones the run takes (playbook/select.h),
 * tcptune's implicit steps included. docs/playbooks.md, "Looking before
 * running". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd-look.h"
#include "say.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "inventory/inventory-view.h"
#include "inventory/pattern.h"
#include "playbook/playbook.h"
#include "template/value.h"
#include "playbook/select.h"

/* Bumped when a key of the --format json document changes meaning. */
#define LOOK_SCHEMA	1

struct look {
	const struct options	*opts;
	const struct playbook	*pb;
	const struct inventory	*inv;
};

static int
in_tags(const char *tag, const char **tags, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (strcmp(tags[i], tag) == 0)
			return 1;
	}
	return 0;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* A play's own tags once each, in the order written (Ansible prints a
 * Python set, whose order is arbitrary). */
static size_t
play_tags(const struct play *p, const char ***out)
{
	size_t i, n = 0;

	*out = xcalloc(p->ntags + 1, sizeof **out);
	for (i = 0; i < p->ntags; i++) {
		if (!in_tags(p->tags[i], *out, n))
			(*out)[n++] = p->tags[i];
	}
	return n;
}

/* A task's tags with its play's, sorted, once each, as Ansible lists them. */
static size_t
task_tags(const struct play *p, const struct task *t, const char ***out)
{
	size_t i, n = 0;

	*out = xcalloc(p->ntags + t->ntags + 1, sizeof **out);
	for (i = 0; i < p->ntags + t->ntags; i++) {
		const char *tag = i < p->ntags ? p->tags[i] :
		    t->tags[i - p->ntags];

		if (!in_tags(tag, *out, n))
			(*out)[n++] = tag;
	}
	qsort(*out, n, sizeof **out, cmp_str);
	return n;
}

static char *
join(const char **words, size_t n, const char *sep)
{
	struct strbuf	sb;
	size_t		i;

	strbuf_init(&sb);
	for (i = 0; i < n; i++)
		strbuf_addf(&sb, "%s%s", i > 0 ? sep : "", words[i]);
	return strbuf_detach(&sb, NULL);
}

static json_t *
json_strings(const char **words, size_t n)
{
	json_t	*a = json_array();
	size_t	 i;

	for (i = 0; i < n; i++)
		json_array_append_new(a, json_string(words[i]));
	return a;
}

/* Ansible's Play.get_name(): the name, else the host patterns. */
static const char *
play_name(const struct play *p)
{
	return p->name != NULL && *p->name != '\0' ? p->name :
	    p->hosts != NULL ? p->hosts : "";
}

/* The hosts play i would run on, in the run's order. A pattern that
 * matches nothing is a warning here (a run stops at that play). */
static int
play_hosts(const struct look *lk, size_t i, char ***names, size_t *n)
{
	const struct play	*p = &lk->pb->plays[i];
	char			*cause = NULL;

	if (inventory_select_limit(lk->inv, p->hosts, lk->opts->limit, names,
	    n, &cause) != 0) {
		cmd_error("play #%zu: %s", i + 1, cause);
		free(cause);
		return -1;
	}
	if (*n == 0)
		say_warning(NULL, "play #%zu: no hosts match "
		    "'%s'%s%s%s; a run stops at this play", i + 1, p->hosts,
		    lk->opts->limit != NULL ? " with --limit '" : "",
		    lk->opts->limit != NULL ? lk->opts->limit : "",
		    lk->opts->limit != NULL ? "'" : "");
	return 0;
}

/* The sizes of the serial batches the runner makes of n hosts (the same
 * loop as run_one_play). */
static size_t
batch_sizes(const struct play *p, size_t n, size_t **out)
{
	size_t off, size, k = 0;

	*out = NULL;
	for (off = 0; off < n; off += size) {
		size = serial_batch_size(&p->serial, k, n);
		if (size == 0 || size > n - off)
			size = n - off;
		*out = xreallocarray(*out, k + 1, sizeof **out);
		(*out)[k++] = size;
	}
	return k;
}

static void
text_header(const struct look *lk, size_t i)
{
	const struct play	*p = &lk->pb->plays[i];
	const char		**tags;
	size_t			  n = play_tags(p, &tags);
	char			 *s = join(tags, n, ",");

	printf("\n  play #%zu (%s): %s\tTAGS: [%s]\n", i + 1,
	    p->hosts != NULL ? p->hosts : "", play_name(p), s);
	free(s);
	free(tags);
}

static void
text_hosts(const struct look *lk, size_t i, char **names, size_t n)
{
	const char	**patterns;
	size_t		  np = playbook_play_patterns(lk->pb, i, &patterns);
	size_t		 *sizes, nb, j;
	struct strbuf	  sb;

	strbuf_init(&sb);
	for (j = 0; j < np; j++) {
		strbuf_addstr(&sb, j > 0 ? ", " : "");
		template_repr_string(&sb, patterns[j], strlen(patterns[j]));
	}
	printf("    pattern: [%s]\n    hosts (%zu):\n", sb.buf, n);
	for (j = 0; j < n; j++)
		printf("      %s\n", names[j]);
	/* tcptune's own line: Ansible does not show the batches. */
	if (lk->pb->plays[i].serial.n > 0 && n > 0) {
		nb = batch_sizes(&lk->pb->plays[i], n, &sizes);
		printf("    serial batches (%zu):", nb);
		for (j = 0; j < nb; j++)
			printf("%s %zu", j > 0 ? "," : "", sizes[j]);
		printf("\n");
		free(sizes);
	}
	strbuf_release(&sb);
	free(patterns);
}

static void
text_tasks(const struct look *lk, size_t i)
{
	const struct play	*p = &lk->pb->plays[i];
	struct play_step	*steps;
	const char		**tags;
	size_t			  n, j, nt;
	char			 *s;

	n = play_steps(p, lk->opts->tags, lk->opts->skip_tags, &steps);
	printf("    tasks:\n");
	for (j = 0; j < n; j++) {
		if (steps[j].kind != PLAY_STEP_TASK) {
			printf("      %s\t(implicit: %s)\n", steps[j].name,
			    steps[j].module);
			continue;
		}
		nt = task_tags(p, steps[j].task, &tags);
		s = join(tags, nt, ", ");
		printf("      %s\tTAGS: [%s]\n", steps[j].name, s);
		free(s);
		free(tags);
	}
	free(steps);
}

static int
look_text(const struct look *lk)
{
	char	**names = NULL;
	size_t	  i, n = 0;

	printf("\nplaybook: %s\n", lk->pb->path);
	for (i = 0; i < lk->pb->nplays; i++) {
		text_header(lk, i);
		if (lk->opts->list_hosts) {
			if (play_hosts(lk, i, &names, &n) != 0)
				return EXIT_COULD_NOT_RUN;
			text_hosts(lk, i, names, n);
			pattern_hosts_free(names, n);
		}
		if (lk->opts->list_tasks)
			text_tasks(lk, i);
	}
	return 0;
}

static json_t *
json_hosts(const struct play *p, char **names, size_t n)
{
	json_t	*batches = json_array();
	size_t	*sizes, nb, j, off = 0;

	nb = batch_sizes(p, n, &sizes);
	for (j = 0; j < nb; j++) {
		json_array_append_new(batches,
		    json_strings((const char **)names + off, sizes[j]));
		off += sizes[j];
	}
	free(sizes);
	return batches;
}

static json_t *
json_step(const struct play *p, const struct play_step *st)
{
	const char	**tags;
	size_t		  nt;
	json_t		 *j = json_pack("{s:s, s:s, s:b}", "name", st->name,
	    "module", st->module, "implicit", st->kind != PLAY_STEP_TASK);

	if (st->kind != PLAY_STEP_TASK)
		return j;
	nt = task_tags(p, st->task, &tags);
	json_object_set_new(j, "tags", json_strings(tags, nt));
	free(tags);
	json_object_set_new(j, "when", st->task->when != NULL ?
	    json_string(st->task->when) : json_null());
	json_object_set_new(j, "line", json_integer(st->task->pos.line));
	return j;
}

static json_t *
json_tasks(const struct look *lk, const struct play *p)
{
	struct play_step	*steps;
	json_t			*a = json_array();
	size_t			 n, j;

	n = play_steps(p, lk->opts->tags, lk->opts->skip_tags, &steps);
	for (j = 0; j < n; j++)
		json_array_append_new(a, json_step(p, &steps[j]));
	free(steps);
	return a;
}

static json_t *
json_play(const struct look *lk, size_t i)
{
	const struct play	*p = &lk->pb->plays[i];
	const char		**words;
	size_t			  n;
	json_t			 *j;

	j = json_pack("{s:I, s:s}", "play", (json_int_t)(i + 1), "name",
	    play_name(p));
	n = playbook_play_patterns(lk->pb, i, &words);
	json_object_set_new(j, "pattern", json_strings(words, n));
	free(words);
	n = play_tags(p, &words);
	json_object_set_new(j, "tags", json_strings(words, n));
	free(words);
	json_object_set_new(j, "gather_facts", json_boolean(p->gather_facts));
	return j;
}

static int
look_json(const struct look *lk)
{
	const struct options	*o = lk->opts;
	json_t			*doc, *plays = json_array(), *pj;
	char			**names = NULL;
	size_t			  i, n = 0;

	doc = json_pack("{s:i, s:s, s:s?, s:s?, s:s?, s:s?, s:o}", "schema",
	    LOOK_SCHEMA, "playbook", lk->pb->path, "limit", o->limit, "tags",
	    o->tags, "skip_tags", o->skip_tags, "start_at_task",
	    o->start_at_task, "plays", plays);
	for (i = 0; i < lk->pb->nplays; i++) {
		pj = json_play(lk, i);
		json_array_append_new(plays, pj);
		if (o->list_hosts) {
			if (play_hosts(lk, i, &names, &n) != 0) {
				json_decref(doc);
				return EXIT_COULD_NOT_RUN;
			}
			json_object_set_new(pj, "hosts",
			    json_strings((const char **)names, n));
			json_object_set_new(pj, "batches",
			    json_hosts(&lk->pb->plays[i], names, n));
			pattern_hosts_free(names, n);
		}
		if (o->list_tasks)
			json_object_set_new(pj, "tasks",
			    json_tasks(lk, &lk->pb->plays[i]));
	}
	json_dumpf(doc, stdout, JSON_INDENT(2));
	fputc('\n', stdout);
	json_decref(doc);
	return 0;
}

/* As ansible-playbook: a --limit that leaves no host of the inventory at
 * all is an error, not a listing of empty plays. */
static int
limit_selects_hosts(const struct look *lk)
{
	char	**names = NULL, *cause = NULL;
	size_t	  n = 0;

	if (lk->opts->limit == NULL)
		return 0;
	if (inventory_select_limit(lk->inv, "all", lk->opts->limit, &names,
	    &n, &cause) != 0) {
		cmd_error("--limit: %s", cause);
		free(cause);
		return -1;
	}
	pattern_hosts_free(names, n);
	if (n == 0) {
		cmd_error("no host of the inventory matches --limit '%s'",
		    lk->opts->limit);
		return -1;
	}
	return 0;
}

int
cmd_look(const struct options *opts, struct playbook *pb,
    const struct inventory *inv, int *rc)
{
	struct look	 lk = { opts, pb, inv };
	char		*cause = NULL;

	if (playbook_start_at(pb, opts->start_at_task, opts->tags,
	    opts->skip_tags, &cause) != 0) {
		*rc = cmd_error("--start-at-task: %s; nothing was run", cause);
		free(cause);
		return 1;
	}
	if (!opts->list_hosts && !opts->list_tasks)
		return 0;
	if (limit_selects_hosts(&lk) != 0) {
		*rc = EXIT_COULD_NOT_RUN;
		return 1;
	}
	*rc = opts->format == FORMAT_JSON ? look_json(&lk) : look_text(&lk);
	fflush(stdout);
	return 1;
}
