/* become and become_user of a task: become.h says the order. */
#include "playbook/become.h"

#include <stddef.h>

#include "playbook/playbook.h"

void
task_become(const struct play *p, const struct task *t,
    const struct become_defaults *d, struct become_choice *out)
{
	out->on = d->become;
	out->user = d->user;
	out->user_pos = NULL;
	if (p != NULL && p->become >= 0)
		out->on = p->become;
	if (p != NULL && p->become_user != NULL) {
		out->user = p->become_user;
		out->user_pos = &p->become_user_pos;
	}
	if (t != NULL && t->become >= 0)
		out->on = t->become;
	if (t != NULL && t->become_user != NULL) {
		out->user = t->become_user;
		out->user_pos = &t->become_user_pos;
	}
	if (d->var_become >= 0)
		out->on = d->var_become;
	if (d->var_user != NULL) {
		out->user = d->var_user;
		out->user_pos = NULL;
	}
}
