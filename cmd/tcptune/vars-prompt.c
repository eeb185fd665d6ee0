/* A playbook's vars_prompt, as ansible-playbook 2.14 asks: a variable -e
 * gives is not asked for; on a terminal the prompt ("Who [default]: "),
 * without echo unless private is false, twice with confirm; an empty
 * answer is the default. With no terminal on the standard input, Ansible
 * warns once ("Not prompting as we are not in interactive mode") and the
 * variable is its default, or null. A private answer is a secret: the
 * run's results and logs have it redacted, as a vaulted value. */
#include "vars-prompt.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "base/xalloc.h"
#include "prompt.h"
#include "say.h"
#include "template/value.h"
#include "vault/vault.h"

/* One answer from the terminal (allocated), NULL with *cause. */
static char *
ask(const struct var_prompt *vp, char **cause)
{
	char	*def = vp->def != NULL ? template_to_text(vp->def) : NULL;
	char	*text, *line, *again;

	text = def != NULL ? xprintf("%s [%s]: ", vp->prompt != NULL ?
	    vp->prompt : vp->name, def) : xprintf("%s: ", vp->prompt != NULL ?
	    vp->prompt : vp->name);
	free(def);
	for (;;) {
		if ((line = prompt_line(text, !vp->private, vp->name,
		    cause)) == NULL || !vp->confirm)
			break;
		again = prompt_line("confirm ", 0, vp->name, cause);
		if (again == NULL) {
			secret_free(line);
			line = NULL;
			break;
		}
		if (strcmp(line, again) == 0) {
			secret_free(again);
			break;
		}
		secret_free(again);
		secret_free(line);
		fprintf(stderr, "***** VALUES ENTERED DO NOT MATCH ****\n");
	}
	free(text);
	return line;
}

/* The answer is always text, as Display.do_var_prompt's to_text(result)
 * makes it: a default 5 is "5", no answer and no default "None" (checked
 * with ansible-playbook: `is none` is false). */
static json_t *
answer_text(const json_t *def)
{
	char	*t;
	json_t	*v;

	if (def == NULL)
		return json_string("None");
	t = template_to_text(def);
	v = json_string(t);
	free(t);
	return v;
}

int
cmd_vars_prompt(struct playbook *pb, const json_t *extra_vars)
{
	const struct var_prompt	*vp;
	struct play		*p;
	char			*line, *cause = NULL;
	size_t			 i, j;
	int			 interactive = isatty(STDIN_FILENO), warned = 0;

	for (i = 0; i < pb->nplays; i++) {
		p = &pb->plays[i];
		for (j = 0; j < p->nprompts; j++) {
			vp = &p->prompts[j];
			if (json_object_get(extra_vars, vp->name) != NULL)
				continue;
			if (!interactive) {
				if (!warned++)
					say_warning(NULL, "Not prompting as we "
					    "are not in interactive mode");
				play_answer_prompt(p, vp, answer_text(vp->def));
				continue;
			}
			if ((line = ask(vp, &cause)) == NULL) {
				say_error("vars_prompt '%s': %s", vp->name,
				    cause);
				free(cause);
				return -1;
			}
			if (vp->private && *line != '\0')
				vault_remember(line, strlen(line));
			play_answer_prompt(p, vp, *line == '\0' && vp->def !=
			    NULL ? answer_text(vp->def) : json_string(line));
			secret_free(line);
		}
	}
	return 0;
}
