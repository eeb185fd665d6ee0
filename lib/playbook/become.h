/* Who a task runs as: become and become_user, decided as Ansible's
 * PlayContext does (play_context.py, set_task_and_variable_override),
 * each of the two on its own, lowest first:
 *
 *   1. the command line's -b and --become-user, under them ansible.cfg's
 *      [privilege_escalation] (the play's defaults);
 *   2. the play's become / become_user;
 *   3. the task's own, else its innermost block's (or role entry's, or
 *      import's, or include's) that sets it: tree.c folds them into the
 *      task when the playbook loads;
 *   4. the host's ansible_become / ansible_become_user (the delegated
 *      host's when the task is delegated), over every keyword.
 *
 * Pure: the runner renders a templated become_user and hands the choice
 * to the transport (transport_exec_as). docs/become.md. */
#ifndef TCPTUNE_BECOME_H
#define TCPTUNE_BECOME_H

#include "yaml/ydoc.h"

struct play;
struct task;

struct become_defaults {
	int		 become;	/* -b, else ansible.cfg's: 0 or 1 */
	const char	*user;		/* --become-user / ansible.cfg's; NULL:
					 * root */
	int		 var_become;	/* ansible_become: -1 unset */
	const char	*var_user;	/* ansible_become_user: NULL unset */
};

struct become_choice {
	int			 on;
	const char		*user;	/* NULL: root; borrowed */
	const struct ypos	*user_pos; /* a keyword's (it may be a
					    * template), NULL otherwise */
};

/* Task t of play p (t may be NULL: the play's own, for a flush) with d. */
void	task_become(const struct play *p, const struct task *t,
	    const struct become_defaults *d, struct become_choice *out);

#endif
