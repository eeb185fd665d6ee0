/* gather_subset (gather-subset.h): get_collector_names over the fact ids
 * of ansible-core 2.14's Linux collectors, each id mapped to the
 * collector it names. */
#include "playbook/gather-subset.h"

#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "remote/ansible-facts.h"

/* Every id setup accepts on Linux (build_fact_id_to_collector_map: the
 * collectors' names and the fact ids they declare), its collector's bit
 * and whether it is in setup's minimal_gather_subset. */
static const struct subset_id {
	const char	*id;
	unsigned	 bit;
	int		 minimal;
} ids[] = {
	{ "all_ipv4_addresses", GATHER_NETWORK, 0 },
	{ "all_ipv6_addresses", GATHER_NETWORK, 0 },
	{ "apparmor", GATHER_OTHER, 1 },
	{ "architecture", GATHER_PLATFORM, 0 },
	{ "caps", GATHER_OTHER, 1 },
	{ "chroot", GATHER_OTHER, 0 },
	{ "cmdline", GATHER_OTHER, 1 },
	{ "date_time", GATHER_OTHER, 1 },
	{ "default_ipv4", GATHER_NETWORK, 0 },
	{ "default_ipv6", GATHER_NETWORK, 0 },
	{ "devices", GATHER_HARDWARE, 0 },
	{ "distribution", GATHER_DISTRIBUTION, 1 },
	{ "distribution_major_version", GATHER_DISTRIBUTION, 0 },
	{ "distribution_release", GATHER_DISTRIBUTION, 0 },
	{ "distribution_version", GATHER_DISTRIBUTION, 0 },
	{ "dns", GATHER_OTHER, 1 },
	{ "effective_group_ids", GATHER_OTHER, 0 },
	{ "effective_user_id", GATHER_OTHER, 0 },
	{ "env", GATHER_ENV, 1 },
	{ "facter", GATHER_OTHER, 0 },
	{ "fibre_channel_wwn", GATHER_OTHER, 0 },
	{ "fips", GATHER_OTHER, 1 },
	{ "hardware", GATHER_HARDWARE, 0 },
	{ "interfaces", GATHER_NETWORK, 0 },
	{ "is_chroot", GATHER_OTHER, 0 },
	{ "iscsi", GATHER_OTHER, 0 },
	{ "kernel", GATHER_PLATFORM, 0 },
	{ "kernel_version", GATHER_PLATFORM, 0 },
	{ "loadavg", GATHER_OTHER, 0 },
	{ "local", GATHER_LOCAL, 1 },
	{ "lsb", GATHER_LSB, 1 },
	{ "machine", GATHER_PLATFORM, 0 },
	{ "machine_id", GATHER_PLATFORM, 0 },
	{ "mounts", GATHER_HARDWARE, 0 },
	{ "network", GATHER_NETWORK, 0 },
	{ "nvme", GATHER_OTHER, 0 },
	{ "ohai", GATHER_OTHER, 0 },
	{ "os_family", GATHER_DISTRIBUTION, 0 },
	{ "pkg_mgr", GATHER_PKG_MGR, 1 },
	{ "platform", GATHER_PLATFORM, 1 },
	{ "processor", GATHER_HARDWARE, 0 },
	{ "processor_cores", GATHER_HARDWARE, 0 },
	{ "processor_count", GATHER_HARDWARE, 0 },
	{ "python", GATHER_OTHER, 1 },
	{ "python_version", GATHER_PLATFORM, 0 },
	{ "real_user_id", GATHER_OTHER, 0 },
	{ "selinux", GATHER_OTHER, 1 },
	{ "service_mgr", GATHER_SERVICE_MGR, 1 },
	{ "ssh_host_key_dsa_public", GATHER_OTHER, 0 },
	{ "ssh_host_key_ecdsa_public", GATHER_OTHER, 0 },
	{ "ssh_host_key_ed25519_public", GATHER_OTHER, 0 },
	{ "ssh_host_key_rsa_public", GATHER_OTHER, 0 },
	{ "ssh_host_pub_keys", GATHER_OTHER, 0 },
	{ "ssh_pub_keys", GATHER_OTHER, 1 },
	{ "system", GATHER_PLATFORM, 0 },
	{ "system_capabilities", GATHER_OTHER, 0 },
	{ "system_capabilities_enforced", GATHER_OTHER, 0 },
	{ "user", GATHER_OTHER, 1 },
	{ "user_dir", GATHER_OTHER, 0 },
	{ "user_gecos", GATHER_OTHER, 0 },
	{ "user_gid", GATHER_OTHER, 0 },
	{ "user_id", GATHER_OTHER, 0 },
	{ "user_shell", GATHER_OTHER, 0 },
	{ "user_uid", GATHER_OTHER, 0 },
	{ "virtual", GATHER_VIRTUAL, 0 },
	{ "virtualization_role", GATHER_VIRTUAL, 0 },
	{ "virtualization_tech_guest", GATHER_VIRTUAL, 0 },
	{ "virtualization_tech_host", GATHER_VIRTUAL, 0 },
	{ "virtualization_type", GATHER_VIRTUAL, 0 },
};
#define NIDS	(sizeof ids / sizeof ids[0])

/* The collector of each fact tcptune's probe gives an Ansible name
 * (remote/ansible-facts.c); the ones not ids are the platform's. */
static const struct {
	const char	*fact;
	unsigned	 bit;
} facts_of[] = {
	{ "hostname", GATHER_PLATFORM }, { "nodename", GATHER_PLATFORM },
	{ "fqdn", GATHER_PLATFORM }, { "domain", GATHER_PLATFORM },
	{ "memtotal_mb", GATHER_HARDWARE },
	{ "processor_vcpus", GATHER_HARDWARE },
	{ "ansible_local", GATHER_LOCAL },
};

static long
find_id(const char *id)
{
	size_t i;

	for (i = 0; i < NIDS; i++) {
		if (strcmp(ids[i].id, id) == 0)
			return (long)i;
	}
	return -1;
}

/* A collector of the facts tcptune gives, whose fact ids are its aliases
 * (the others' aliases name facts tcptune does not give). */
static int
is_collector(const char *name)
{
	static const char *const names[] = { "distribution", "platform",
	    "hardware", "virtual", "network", "env", "local", "lsb",
	    "pkg_mgr", NULL };
	size_t i;

	for (i = 0; names[i] != NULL; i++) {
		if (strcmp(names[i], name) == 0)
			return 1;
	}
	return 0;
}

/* One subset: in, or (with '!') out of the sets. */
static int
one_subset(const char *s, char *add, char *excl, char *explicit_,
    char **cause)
{
	size_t	i;
	long	k;
	int	not = s[0] == '!';

	if (strcmp(s, "min") == 0 || strcmp(s, "!min") == 0) {
		for (i = 0; i < NIDS; i++) {
			if (ids[i].minimal)
				(not ? excl : add)[i] = 1;
		}
		return 0;
	}
	if (strcmp(s, "all") == 0 || strcmp(s, "!all") == 0) {
		for (i = 0; i < NIDS; i++) {
			if (!not)
				add[i] = 1;
			else if (!ids[i].minimal)
				excl[i] = 1;
		}
		return 0;
	}
	k = find_id(s + not);
	if (not) {
		/* '!hardware' excludes its collector's fact ids too (setup's
		 * aliases_map); an unknown name is ignored, as setup does */
		for (i = 0; k >= 0 && is_collector(s + 1) && i < NIDS; i++) {
			if (ids[i].bit == ids[k].bit)
				excl[i] = 1;
		}
		if (k >= 0)
			excl[k] = 1;
		return 0;
	}
	if (k < 0) {
		*cause = xprintf("unknown subset '%s' (setup's: all, min, "
		    "hardware, network, virtual, a collector or a fact name, "
		    "each may be '!'ed)", s);
		return -1;
	}
	add[k] = explicit_[k] = 1;
	return 0;
}

int
gather_subset_mask(const json_t *subsets, unsigned *mask, char **cause)
{
	char		 add[NIDS], excl[NIDS], explicit_[NIDS];
	const json_t	*v;
	size_t		 i, any = 0;

	memset(add, 0, sizeof add);
	memset(excl, 0, sizeof excl);
	memset(explicit_, 0, sizeof explicit_);
	*mask = 0;
	/* the minimal subset always comes first */
	(void)one_subset("min", add, excl, explicit_, cause);
	if (subsets == NULL || json_array_size(subsets) == 0)
		(void)one_subset("all", add, excl, explicit_, cause);
	json_array_foreach(subsets, i, v) {
		if (!json_is_string(v)) {
			*cause = xstrdup("a subset must be a string");
			return -1;
		}
		if (one_subset(json_string_value(v), add, excl, explicit_,
		    cause) != 0)
			return -1;
	}
	for (i = 0; i < NIDS; i++)
		any |= (size_t)add[i];
	for (i = 0; i < NIDS; i++) {
		/* nothing added at all: everything (the collector.py rule) */
		if ((any ? add[i] : 1) && (!excl[i] || explicit_[i]))
			*mask |= ids[i].bit;
	}
	return 0;
}

/* fact is an interface's own fact: one of interfaces ('-' and ':' as
 * '_'). */
static int
is_interface(const char *fact, const json_t *interfaces)
{
	const json_t	*v;
	const char	*n, *f;
	size_t		 i;

	json_array_foreach(interfaces, i, v) {
		n = json_string_value(v);
		for (f = fact; n != NULL && *n != '\0' && *f != '\0'; n++, f++) {
			if (*n != *f && !(*f == '_' && (*n == '-' || *n == ':')))
				break;
		}
		if (n != NULL && *n == '\0' && *f == '\0')
			return 1;
	}
	return 0;
}

static unsigned
fact_bit(const char *fact, const json_t *interfaces)
{
	size_t	i;
	long	k;

	if (is_interface(fact, interfaces))
		return GATHER_NETWORK;
	for (i = 0; i < sizeof facts_of / sizeof facts_of[0]; i++) {
		if (strcmp(facts_of[i].fact, fact) == 0)
			return facts_of[i].bit;
	}
	k = find_id(fact);
	/* a fact this file does not know: all collectors needed */
	return k >= 0 && ids[k].bit != GATHER_OTHER ? ids[k].bit : GATHER_ALL;
}

void
gather_subset_apply(json_t *vars, unsigned mask, const json_t *subsets)
{
	json_t		*facts = json_object_get(vars, "ansible_facts"), *f, *ifs;
	const char	*key;
	void		*tmp;
	unsigned	 bit;
	char		*name;

	if (!json_is_object(facts) || json_object_size(facts) == 0)
		return;
	/* kept: the loop may take the list out */
	ifs = json_incref(json_object_get(facts, "interfaces"));
	json_object_foreach_safe(facts, tmp, key, f) {
		bit = fact_bit(key, ifs);
		if ((mask & bit) == bit)
			continue;
		name = ansible_fact_var(key);
		/* the same value, not one a higher level set */
		if (json_object_get(vars, name) == f)
			json_object_del(vars, name);
		free(name);
		json_object_del(facts, key);
	}
	json_decref(ifs);
	f = subsets != NULL ? json_deep_copy(subsets) :
	    json_pack("[s]", "all");
	json_object_set(facts, "gather_subset", f);
	if (json_object_get(vars, "ansible_gather_subset") == NULL)
		json_object_set(vars, "ansible_gather_subset", f);
	json_decref(f);
	json_object_set_new(facts, "module_setup", json_true());
	if (json_object_get(vars, "ansible_module_setup") == NULL)
		json_object_set_new(vars, "ansible_module_setup", json_true());
}
