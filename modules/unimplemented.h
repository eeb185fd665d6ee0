/* Ansible's modules that tcptune does not implement.
 *
 * A team's role calls modules tcptune has no use for on the hosts it
 * tunes (selinux on RedHat, a firewall's), mostly under a `when` that is
 * false where tcptune runs it. Such a task loads: its parameters are not
 * checked, the loader says so in a warning naming the task, and on a host
 * where the task is not skipped it fails with the module's name, in check
 * mode too. A name Ansible does not know stays an unknown module. */
#ifndef TCPTUNE_UNIMPLEMENTED_H
#define TCPTUNE_UNIMPLEMENTED_H

#include "playbook/module.h"

/* One collection's module names, sorted (C locale), NULL-terminated. */
struct ansible_collection {
	const char		*name;		/* "ansible.posix" */
	const char *const	*modules;
};

/* ansible.builtin, ansible.posix and community.general, generated
 * (modules/ansible-modules.c); terminated by name NULL. */
extern const struct ansible_collection ansible_collections[];

#endif
