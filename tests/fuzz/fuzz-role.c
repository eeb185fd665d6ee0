/* libFuzzer harness: a role's files and a play's loops through the tree
 * loader (lib/playbook/tree.c, role.c, loop.c, walk.c). The input is cut
 * into files at lines "@@ NAME" (defaults, vars, meta, tasks, handlers,
 * other: the role's defaults/main.yml ... tasks/other.yml; text before the
 * first marker is the play's tasks), written under a private directory
 * with a playbook that uses the role by `roles:` and by import_role with
 * tasks_from, then loaded; for each task of the tree: its variables at
 * every level, its loop's items with each item's variables and label, its
 * `when`, and the walk from it, failing or not. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "playbook/loop.h"
#include "playbook/playbook.h"
#include "template/template.h"
#include "yaml/diag.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static char	 dir[64];
static const char *const names[] = { "defaults", "vars", "meta", "tasks",
	"handlers", "other", NULL };
static const char *const files[] = { "roles/r/defaults/main.yml",
	"roles/r/vars/main.yml", "roles/r/meta/main.yml",
	"roles/r/tasks/main.yml", "roles/r/handlers/main.yml",
	"roles/r/tasks/other.yml", NULL };

static void
put(const char *rel, const char *s, size_t len)
{
	char	 path[256];
	FILE	*f;

	snprintf(path, sizeof path, "%s/%s", dir, rel);
	if ((f = fopen(path, "w")) == NULL)
		abort();
	fwrite(s, 1, len, f);
	fclose(f);
}

/* The private directory goes when the fuzzer exits. */
static void
cleanup(void)
{
	static const char *const subs[] = { "roles/r/defaults",
		"roles/r/vars", "roles/r/meta", "roles/r/tasks",
		"roles/r/handlers", "roles/r", "roles", "", NULL };
	char	path[256];
	size_t	i;

	for (i = 0; files[i] != NULL; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, files[i]);
		unlink(path);
	}
	for (i = 0; subs[i] != NULL; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, subs[i]);
		rmdir(path);
	}
}

static void
setup(void)
{
	static const char *const subs[] = { "roles", "roles/r",
		"roles/r/defaults", "roles/r/vars", "roles/r/meta",
		"roles/r/tasks", "roles/r/handlers", NULL };
	char	path[256];
	size_t	i;

	snprintf(dir, sizeof dir, "/tmp/tcptune-fuzz-role.XXXXXX");
	if (mkdtemp(dir) == NULL)
		abort();
	atexit(cleanup);
	for (i = 0; subs[i] != NULL; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, subs[i]);
		mkdir(path, 0700);
	}
}

static void
walk_task(const struct play *p, size_t i, const json_t *inv)
{
	const struct task	*t = &p->tasks[i];
	json_t			*vars, *items;
	char			*cause = NULL, *label;
	size_t			 k;
	int			 failing = 0, rescued, undefined, truth;

	play_walk_next(p, i, 0, &failing, &rescued);
	failing = 0;
	play_walk_next(p, i, 1, &failing, &rescued);
	vars = playbook_task_vars(p, t, inv, NULL, NULL, NULL, "h1", NULL);
	if (t->loop.kind != LOOP_NONE &&
	    (items = loop_items(&t->loop, vars, &undefined, &cause)) != NULL) {
		for (k = 0; k < json_array_size(items) && k < 64; k++) {
			loop_set_item(&t->loop, vars, items, k);
			label = loop_label(&t->loop, vars,
			    json_array_get(items, k));
			free(label);
		}
		json_decref(items);
	}
	free(cause);
	cause = NULL;
	if (t->when != NULL)
		template_eval_bool(t->when, vars, &t->when_pos, &truth, &cause);
	free(cause);
	cause = NULL;
	/* an include's file, read as the runner would */
	if (t->kind == TASK_INCLUDE && !template_has(t->include)) {
		struct playbook *inc = playbook_load_include(p, t, t->include,
		    NULL, &cause);

		if (inc != NULL) {
			for (k = 0; k < inc->plays[0].ntasks; k++) {
				failing = 0;
				play_walk_next(&inc->plays[0], k, 1, &failing,
				    &rescued);
			}
		}
		playbook_free(inc);
		free(cause);
	}
	json_decref(vars);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static json_t		*inv;
	const char		*s = (const char *)data, *end = s + size, *at;
	const char		*next;
	int			 cur = -1;
	const char		*body[6] = { 0 };
	size_t			 blen[6] = { 0 }, i, j;
	char			 pbpath[256];
	struct playbook		*pb;
	struct diag		 d;
	char			*playtext;
	const char		*tasks = s;
	size_t			 tlen;

	if (dir[0] == '\0') {
		setup();
		inv = json_pack("{s:i, s:[i,i]}", "n", 3, "ports", 80, 443);
	}
	if (memchr(data, '\0', size) != NULL)
		return 0;
	/* "@@ NAME\n" ends the part before it and starts file NAME */
	tlen = 0;
	for (at = s; at < end; at = next) {
		const char *nl = memchr(at, '\n', (size_t)(end - at));

		next = nl != NULL ? nl + 1 : end;
		if (end - at < 3 || strncmp(at, "@@ ", 3) != 0)
			continue;
		for (i = 0; names[i] != NULL; i++) {
			size_t n = strlen(names[i]);

			if ((size_t)(next - at) >= n + 3 &&
			    strncmp(at + 3, names[i], n) == 0)
				break;
		}
		if (cur < 0 && tlen == 0)
			tlen = (size_t)(at - s);
		else if (cur >= 0)
			blen[cur] = (size_t)(at - body[cur]);
		cur = names[i] != NULL ? (int)i : -2;
		if (cur >= 0)
			body[cur] = next;
	}
	if (cur == -1)
		tlen = size;
	else if (cur >= 0)
		blen[cur] = (size_t)(end - body[cur]);
	for (j = 0; files[j] != NULL; j++) {
		char path[256];

		snprintf(path, sizeof path, "%s/%s", dir, files[j]);
		if (body[j] != NULL)
			put(files[j], body[j], blen[j]);
		else
			unlink(path);
	}
	playtext = malloc(tlen + 256);
	if (playtext == NULL)
		return 0;
	i = (size_t)snprintf(playtext, 256, "- hosts: all\n  roles: [r]\n"
	    "  tasks:\n    - import_role: {name: r, tasks_from: other}\n");
	memcpy(playtext + i, tasks, tlen);
	snprintf(pbpath, sizeof pbpath, "%s/site.yml", dir);
	diag_init(&d);
	if (playbook_load_buffer(pbpath, playtext, i + tlen, &pb, &d) == 0) {
		for (i = 0; i < pb->nplays; i++) {
			for (j = 0; j < pb->plays[i].ntasks; j++)
				walk_task(&pb->plays[i], j, inv);
		}
		playbook_free(pb);
	}
	diag_clear(&d);
	free(playtext);
	return 0;
}
