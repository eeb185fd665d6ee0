/* The facts Ansible's setup module gives that roles read
 * (ansible_distribution, ansible_os_family, ansible_default_ipv4, ...),
 * made from tcptune's own probe (probe.h), which runs no Python on the
 * host. docs/facts.md ("Ansible's names") says which and where a value
 * may differ from setup's. */
#ifndef TCPTUNE_ANSIBLE_FACTS_H
#define TCPTUNE_ANSIBLE_FACTS_H

#include <jansson.h>

/* The names without their ansible_ prefix, as `ansible_facts` holds
 * them: a new object (empty for NULL facts). Pure. */
json_t	*probe_ansible_facts(const json_t *facts);

/* The variable of fact key of probe_ansible_facts: ansible_KEY, but the
 * local facts are ansible_local both there and in ansible_facts (Ansible's
 * namespace_facts keeps that prefix). Allocated. */
char	*ansible_fact_var(const char *key);

#endif
