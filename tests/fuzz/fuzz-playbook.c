/* libFuzzer harness: a playbook through lib/playbook/playbook.c (load, check, bind
 * every task's parameters to its module's table), then what a play does
 * per host: play vars over a small inventory, each task's `when` and its
 * arguments rendered and bound again (lib/playbook/bind.c). vars_files are read
 * relative to the current directory, as a playbook named fuzz.yml would. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <jansson.h>

#include "yaml/diag.h"
#include "playbook/playbook.h"
#include "template/template.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void
run_play(const struct play *p, const json_t *inv, const json_t *groups)
{
	const struct task	*t;
	json_t			*vars, *args;
	char			*cause;
	size_t			 i;
	int			 truth;

	vars = playbook_host_vars(p, inv, NULL, NULL, NULL, "h1", groups);
	for (i = 0; i < p->ntasks; i++) {
		t = &p->tasks[i];
		cause = NULL;
		if (t->when != NULL)
			template_eval_bool(t->when, vars, &t->when_pos, &truth,
			    &cause);
		free(cause);
		cause = NULL;
		if ((args = task_render_args(t, vars, NULL, &cause)) != NULL)
			json_decref(args);
		free(cause);
	}
	json_decref(vars);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static json_t		*inv, *groups;
	struct playbook		*pb;
	struct diag		 d;
	size_t			 i;

	if (inv == NULL) {
		inv = json_pack("{s:i, s:s, s:[i,i]}", "rtt_ms", 50, "peer",
		    "h2", "ports", 80, 443);
		groups = json_pack("{s:[s,s], s:[s]}", "all", "h1", "h2",
		    "web", "h1");
	}
	diag_init(&d);
	if (playbook_load_buffer("fuzz.yml", (const char *)data, size, &pb,
	    &d) == 0) {
		for (i = 0; i < pb->nplays; i++)
			run_play(&pb->plays[i], inv, groups);
		playbook_free(pb);
	}
	diag_clear(&d);
	return 0;
}
