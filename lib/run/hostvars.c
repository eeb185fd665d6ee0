/*
 * hostvars[h] as Ansible's HostVars gives it (vars/hostvars.py: the
 * variable manager's vars of h without a play): h's inventory variables,
 * its gathered facts (ansible_facts and the ansible_* names, as its play's
 * gather_subset left them), what it registered and set (set_fact,
 * include_vars), the extra vars and its magic variables. So a role reads
 * a peer's address as k3s-ansible and kubespray do:
 * `hostvars[groups.server[0]].ansible_default_ipv4.address`.
 *
 * Made when a template reads it (template_set_lazy_mapping), not kept per
 * host: a fleet's facts would make memory grow with the fleet, and most
 * runs never read them. What a host registered is read from a snapshot
 * the main thread takes before each step while no worker runs
 * (runner_hostvars_refresh), so that another host's worker never reads
 * an object the host's own worker is changing; as in Ansible's linear
 * strategy, a peer's result of the running task is not seen before the
 * next one.
 */
#include "run/runner.h"
#include "run/runner-int.h"

#include <stdlib.h>

#include "template/template.h"

#include "playbook/gather-subset.h"
#include "remote/ansible-facts.h"

/* The host named name, or NULL (not in the inventory). */
static struct host_state *
host_named(struct runner *r, const char *name)
{
	json_t *i = json_object_get(r->host_index, name);

	return json_is_integer(i) ? r->hosts[json_integer_value(i)] : NULL;
}

static json_t *
hostvars_get(void *arg, const char *name)
{
	struct runner		*r = arg;
	struct host_state	*h = host_named(r, name);
	json_t			*v, *facts, *ansible, *fact;
	const char		*key;

	if (h == NULL)
		return NULL;
	v = json_copy(json_object_get(r->hostvars, name));
	if (v == NULL)
		v = json_object();
	if ((facts = runner_host_facts(h)) != NULL) {
		ansible = probe_ansible_facts(facts);
		json_object_foreach(ansible, key, fact) {
			char *var = ansible_fact_var(key);

			json_object_set(v, var, fact);
			free(var);
		}
		json_object_set_new(v, "ansible_facts", ansible);
		if (h->gathered)
			gather_subset_apply(v, h->gather_mask,
			    h->gather_subset);
		json_decref(facts);
	}
	json_object_update(v, h->hostvars_level);
	if (r->cfg->extra_vars != NULL)
		json_object_update(v, r->cfg->extra_vars);
	json_object_set_new(v, "inventory_hostname", json_string(h->name));
	runner_magic_apply(r, h, v);
	return v;
}

void
runner_hostvars_init(struct runner *r)
{
	size_t i;

	r->host_index = json_object();
	for (i = 0; i < r->nhosts; i++)
		json_object_set_new(r->host_index, r->hosts[i]->name,
		    json_integer((json_int_t)i));
	template_set_lazy_mapping(r->hostvars, hostvars_get, r);
}

void
runner_hostvars_free(struct runner *r)
{
	template_set_lazy_mapping(NULL, NULL, r);	/* if still ours */
	json_decref(r->host_index);
	r->host_index = NULL;
}

void
runner_hostvars_refresh(struct host_state *const *hosts, size_t n)
{
	struct host_state	*h;
	size_t			 i;

	/* Shallow copies, every step: a run_once task's set_fact reaches
	 * hosts that recorded nothing of their own. */
	for (i = 0; i < n; i++) {
		h = hosts[i];
		json_decref(h->hostvars_level);
		h->hostvars_level = json_copy(h->included);
		json_object_update(h->hostvars_level, h->registered);
	}
}
