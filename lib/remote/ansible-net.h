/* Ansible's network facts from the probe's raw inputs (setup_raw, see
 * probe.c): interfaces, each interface's own fact (eth0, with ':' as
 * '_'), default_ipv4, default_ipv6, all_ipv4_addresses,
 * all_ipv6_addresses, as ansible-core 2.14's network/linux.py computes
 * them. docs/facts.md says where a value may differ from setup's. */
#ifndef TCPTUNE_ANSIBLE_NET_H
#define TCPTUNE_ANSIBLE_NET_H

#include <jansson.h>

/* Add them to out (names without ansible_), from facts (probe_parse's);
 * nothing when the host has no ip, as setup's collector. Pure. */
void	ansible_net_facts(const json_t *facts, json_t *out);

#endif
