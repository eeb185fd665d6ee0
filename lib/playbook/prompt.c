/* A play's vars_prompt (playbook.h, struct var_prompt): the variables
 * the play asks for before it runs; cmd/ asks (cmd/tcptune/vars-prompt.c)
 * and sets the answers among the play's vars. */
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "base/xalloc.h"
#include "playbook/loader.h"
#include "playbook/playbook.h"

static const char *const prompt_keys[] = { "name", "prompt", "private",
	"default", "confirm", "unsafe", NULL };

static void
load_one(struct loader *ld, const struct ynode *n, struct play *p)
{
	struct var_prompt	*vp;
	const struct ynode	*v;
	size_t			 i;

	if (n->type != YNODE_MAP) {
		type_error(ld, n, "vars_prompt", "a mapping with 'name:'");
		return;
	}
	for (i = 0; i < n->n; i++) {
		if (!in_list(ynode_key(n, i), prompt_keys))
			diag_add(ld->d, &n->keys[i]->pos, "'%s' is not "
			    "supported on vars_prompt", ynode_key(n, i));
	}
	v = ynode_get(n, "name");
	if (v == NULL || v->type != YNODE_SCALAR || ynode_is_null(v) ||
	    !str_is_identifier(v->value) || playbook_reserved_var(v->value)) {
		diag_add(ld->d, v != NULL ? &v->pos : &n->pos, "vars_prompt "
		    "needs 'name:' with a variable name");
		return;
	}
	p->prompts = xreallocarray(p->prompts, p->nprompts + 1,
	    sizeof *p->prompts);
	vp = &p->prompts[p->nprompts++];
	memset(vp, 0, sizeof *vp);
	vp->pos = n->pos;
	vp->name = xstrdup(v->value);
	vp->private = 1;
	get_string(ld, ynode_get(n, "prompt"), "prompt", &vp->prompt);
	get_bool(ld, ynode_get(n, "private"), "private", &vp->private);
	get_bool(ld, ynode_get(n, "confirm"), "confirm", &vp->confirm);
	if ((v = ynode_get(n, "default")) != NULL && !ynode_is_null(v))
		vp->def = ynode_to_json(v);
}

void
prompts_load(struct loader *ld, const struct ynode *n, struct play *p)
{
	size_t i;

	if (n == NULL || ynode_is_null(n))
		return;
	if (n->type != YNODE_SEQ) {
		type_error(ld, n, "vars_prompt", "a list");
		return;
	}
	for (i = 0; i < n->n; i++)
		load_one(ld, n->items[i], p);
}

void
prompts_free(struct play *p)
{
	size_t i;

	for (i = 0; i < p->nprompts; i++) {
		free(p->prompts[i].name);
		free(p->prompts[i].prompt);
		json_decref(p->prompts[i].def);
	}
	free(p->prompts);
}

void
play_answer_prompt(struct play *p, const struct var_prompt *vp, json_t *v)
{
	json_object_set_new(p->vars, vp->name, v);
}
