/* Setup shared by the commands that read an inventory and run things. */
#ifndef TCPTUNE_CMD_COMMON_H
#define TCPTUNE_CMD_COMMON_H

#include "cmd.h"

struct inventory;
struct module;
struct runner;

/* Load every -i source (or the settings' inventory: $TCPTUNE_INVENTORY,
 * $ANSIBLE_INVENTORY, ansible.cfg; settings.c). Prints the error and
 * returns NULL on failure. */
struct inventory	*cmd_load_inventory(const struct options *opts);
/* Fill the vault keyring from --vault-id, --vault-password-file and
 * --ask-vault-pass, once, before anything is loaded (cmd-vault.c). Prints
 * and returns EXIT_COULD_NOT_RUN on failure, else 0. */
int			 cmd_vault_setup(const struct options *opts);
/* Parse -e values; prints and returns NULL on error. */
json_t			*cmd_extra_vars(const struct options *opts);
/* -K: ask for the become password once, on the terminal with echo off,
 * before the inventory is read or any host contacted (ansible-playbook
 * asks first too); one password for every host, an inventory one wins.
 * Returns 0 with *out NULL without -K or for an empty answer (sudo -n, as
 * in Ansible), 0 with *out set (the caller frees it with secret_free), or
 * -1 after printing the error. */
int			 cmd_ask_become_pass(const struct options *opts,
			    char **out);
/* Install the SIGINT handler that stops new work (runner_interrupted). */
void			 cmd_catch_interrupt(void);

/* Run one module ad hoc over the hosts matching the first argument (default
 * all), print the task lines and recap, and call report (text format only)
 * before the recap. Returns the exit status. */
int			 cmd_adhoc(struct options *opts, const struct module *m,
			    void (*report)(const struct runner *));

/* Load the playbook (args[0]) and inventory, run it, and either print the
 * usual task lines and recap (report NULL) or hand the finished run and
 * its transport warnings ([{host, msg}]) to report, whose return value is
 * the exit status. drift runs in check mode
 * and collects drift items (tcptune drift). In cmd-play.c. */
int			 cmd_run_playbook(struct options *opts, int drift,
			    int (*report)(const struct options *,
			    const struct runner *, double seconds,
			    const json_t *warnings));

#endif
