/* Ansible's facts about the host beside its network (ansible-net.h):
 * env, pkg_mgr, lsb, mounts (ansible-host.c) and local (ansible-local.c),
 * from the probe's raw inputs (setup_raw, see probe.c), as ansible-core
 * 2.14's collectors compute them. docs/facts.md says where a value may
 * differ from setup's. */
#ifndef TCPTUNE_ANSIBLE_HOST_H
#define TCPTUNE_ANSIBLE_HOST_H

#include <jansson.h>

/* Add env, pkg_mgr, lsb, mounts and local to out (names without
 * ansible_), from facts (probe_parse's; nothing without setup_raw, as
 * after a read-back); out already holds the distribution facts pkg_mgr
 * reads. Pure. */
void	ansible_host_facts(const json_t *facts, json_t *out);

/* local (local.py): raw's local facts ({} without /etc/ansible/facts.d);
 * left out where setup's collector fails (a bad '%' in an INI file).
 * Pure. */
void	ansible_local_facts(const json_t *raw, json_t *out);

/* The strings of lines joined by newlines: allocated. */
char	*ansible_join_lines(const json_t *lines);

#endif
