/* A playbook's vars_prompt answered before the run (vars-prompt.c). */
#ifndef TCPTUNE_VARS_PROMPT_H
#define TCPTUNE_VARS_PROMPT_H

#include <jansson.h>

#include "playbook/playbook.h"

/* Every play's prompts not given by extra_vars, asked or defaulted as
 * ansible-playbook does, the answers among the play's vars. -1 when a
 * terminal's answer could not be read (the error printed). */
int	cmd_vars_prompt(struct playbook *pb, const json_t *extra_vars);

#endif
