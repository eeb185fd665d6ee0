/* Effective settings: the command line over ANSIBLE_* variables over the
 * ansible.cfg Ansible would read over tcptune's defaults, applied to struct
 * options once the command line is parsed (docs/ansible-cfg.md). Each
 * setting remembers where its value came from, for `tcptune config`. */
#ifndef TCPTUNE_SETTINGS_H
#define TCPTUNE_SETTINGS_H

#include <jansson.h>

#include "cmd.h"
#include "config/ansible-cfg.h"

struct setting {
	const char	*name;		/* the ansible.cfg key, or tcptune's */
	json_t		*value;		/* null when unset */
	char		*origin;	/* "command line", "env ANSIBLE_FORKS",
					 * "/p/ansible.cfg:12", "default" */
};

struct settings {
	char		*config_file;	/* the ansible.cfg read, or NULL */
	char		*warning;	/* why ./ansible.cfg was skipped */
	struct acfg	 cfg;
	char		*cwd;
	struct setting	*rows;		/* in the order `config` prints */
	size_t		 nrows;
	char		**owned;	/* strings struct options points to */
	size_t		 nowned;
};

/* Find and read ansible.cfg, resolve every setting into opts (whose zero
 * and NULL fields mean "not given on the command line"). 0, or -1 with
 * *cause naming the file:line and key, or the variable. */
int	settings_resolve(struct settings *s, struct options *opts,
	    char **cause);
void	settings_free(struct settings *s);

#endif
