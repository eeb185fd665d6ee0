/* Ansible's fact names from the probe's facts (ansible-facts.h), as
 * ansible-core 2.14's collectors compute them (module_utils/facts/:
 * system/distribution.py and common/sys_info.py, system/service_mgr.py,
 * hardware/linux.py, virtual/linux.py); the network facts are
 * ansible-net.c's, env, pkg_mgr, lsb, mounts and local ansible-host.c's. */
#include "remote/ansible-facts.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "remote/ansible-host.h"
#include "remote/ansible-net.h"

/* distro.id() as Ansible names the distribution (its capitalize(), and the
 * names its distribution files give the common ones). */
static const struct {
	const char *id, *name;
} dist_names[] = {
	{ "debian", "Debian" }, { "ubuntu", "Ubuntu" },
	{ "centos", "CentOS" }, { "rhel", "RedHat" }, { "fedora", "Fedora" },
	{ "rocky", "Rocky" }, { "almalinux", "AlmaLinux" },
	{ "ol", "OracleLinux" }, { "amzn", "Amazon" }, { "sles", "SLES" },
	{ "sled", "SLED" }, { "opensuse-leap", "openSUSE Leap" },
	{ "opensuse-tumbleweed", "openSUSE Tumbleweed" },
	{ "arch", "Archlinux" }, { "alpine", "Alpine" },
	{ "linuxmint", "Linux Mint" }, { "raspbian", "Debian" },
	{ "kali", "Kali" }, { "devuan", "Devuan" }, { "gentoo", "Gentoo" },
	{ "pop", "Pop!_OS" }, { "euleros", "EulerOS" },
	{ "openEuler", "openEuler" },
};

/* OS_FAMILY_MAP of distribution.py, for the names above. */
static const struct {
	const char *name, *family;
} families[] = {
	{ "RedHat", "RedHat" }, { "Fedora", "RedHat" }, { "CentOS", "RedHat" },
	{ "OracleLinux", "RedHat" }, { "Amazon", "RedHat" },
	{ "AlmaLinux", "RedHat" }, { "Rocky", "RedHat" },
	{ "EulerOS", "RedHat" }, { "openEuler", "RedHat" },
	{ "Debian", "Debian" }, { "Ubuntu", "Debian" },
	{ "Linux Mint", "Debian" }, { "Kali", "Debian" },
	{ "Devuan", "Debian" }, { "Pop!_OS", "Debian" },
	{ "SLES", "Suse" }, { "SLED", "Suse" }, { "openSUSE Leap", "Suse" },
	{ "openSUSE Tumbleweed", "Suse" }, { "Archlinux", "Archlinux" },
	{ "Gentoo", "Gentoo" }, { "Alpine", "Alpine" },
};

static const char *
str(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

static void
set_str(json_t *out, const char *key, const char *v)
{
	json_object_set_new(out, key, json_string(v != NULL ? v : "NA"));
}

/* distribution, _version, _major_version, _release, os_family. */
static void
distribution(const json_t *facts, json_t *out)
{
	const json_t	*d = json_object_get(facts, "distribution");
	const char	*id = str(d, "id"), *ver = str(d, "version_id");
	const char	*deb = str(d, "debian_version"), *name = NULL;
	const char	*family = NULL;
	char		*cap = NULL, *major;
	size_t		 i;

	for (i = 0; id != NULL && i < sizeof dist_names / sizeof *dist_names;
	    i++) {
		if (strcmp(dist_names[i].id, id) == 0)
			name = dist_names[i].name;
	}
	if (name == NULL && id != NULL && *id != '\0') {
		/* Python's str.capitalize() */
		cap = xstrdup(id);
		for (i = 0; cap[i] != '\0'; i++)
			cap[i] = (char)(i == 0 ? toupper((unsigned char)cap[i]) :
			    tolower((unsigned char)cap[i]));
		name = cap;
	}
	if (name == NULL)
		name = "OtherLinux";
	/* Debian's full version is /etc/debian_version's, when it is one
	 * (testing says "trixie/sid") */
	if (id != NULL && strcmp(id, "debian") == 0 && deb != NULL &&
	    isdigit((unsigned char)deb[0]))
		ver = deb;
	set_str(out, "distribution", name);
	set_str(out, "distribution_version", ver);
	major = ver != NULL ? xstrndup(ver, strcspn(ver, ".")) : NULL;
	set_str(out, "distribution_major_version", major);
	free(major);
	set_str(out, "distribution_release", str(d, "codename"));
	for (i = 0; i < sizeof families / sizeof *families; i++) {
		if (strcmp(families[i].name, name) == 0)
			family = families[i].family;
	}
	set_str(out, "os_family", family != NULL ? family : name);
	free(cap);
}

/* service_mgr.py: PID 1's name unless it is init or a shell, then the
 * init system's marks; "service" when nothing tells. */
static void
service_mgr(const json_t *facts, json_t *out)
{
	static const struct {
		const char *comm, *name;
	} map[] = { { "procd", "openwrt_init" }, { "runit-init", "runit" },
	    { "svscan", "svc" }, { "openrc-init", "openrc" } };
	const json_t	*init = json_object_get(facts, "init");
	const char	*comm = str(init, "pid1"), *mgr = NULL, *slash;
	size_t		 i, n;

	if (comm != NULL && (slash = strrchr(comm, '/')) != NULL)
		comm = slash + 1;
	n = comm != NULL ? strlen(comm) : 0;
	if (n > 0 && strcmp(comm, "init") != 0 && !(n >= 2 &&
	    strcmp(comm + n - 2, "sh") == 0)) {
		mgr = comm;
		for (i = 0; i < sizeof map / sizeof *map; i++) {
			if (strcmp(map[i].comm, comm) == 0)
				mgr = map[i].name;
		}
	} else if (json_is_true(json_object_get(init, "systemd")))
		mgr = "systemd";
	else if (json_is_true(json_object_get(init, "openrc")))
		mgr = "openrc";
	else if (json_is_true(json_object_get(init, "sysv")))
		mgr = "sysvinit";
	json_object_set_new(out, "service_mgr", json_string(mgr != NULL ? mgr :
	    "service"));
}

/* virtual/linux.py, from systemd-detect-virt's answer: a container is the
 * guest of its runtime, a VM the guest of its hypervisor. */
static void
virtualization(const json_t *facts, json_t *out)
{
	const json_t	*v = json_object_get(facts, "virtualization");
	const char	*c = str(v, "container"), *t = str(v, "type");
	const char	*type = "NA", *role = "NA";

	if (c != NULL && strcmp(c, "none") != 0 && strcmp(c, "unknown") != 0) {
		type = strcmp(c, "systemd-nspawn") == 0 ? "systemd-nspawn" : c;
		role = "guest";
	} else if (t != NULL && strcmp(t, "none") != 0 &&
	    strcmp(t, "unknown") != 0) {
		type = strcmp(t, "microsoft") == 0 ? "VirtualPC" : t;
		role = "guest";
	}
	json_object_set_new(out, "virtualization_type", json_string(type));
	json_object_set_new(out, "virtualization_role", json_string(role));
}

/* default_ipv4: the kernel's route out for 8.8.8.8 (its src, dev, via),
 * as network/linux.py asks for it; {} without one. */
static void
default_ipv4(const json_t *facts, json_t *out)
{
	const json_t	*r = json_object_get(facts, "default_route");
	const json_t	*g = json_object_get(r, "ipv4");
	json_t		*d = json_object();
	const char	*ifc = str(g, "interface");

	if (ifc != NULL) {
		json_object_set_new(d, "address", json_string(str(g, "source") !=
		    NULL ? str(g, "source") : ""));
		json_object_set_new(d, "interface", json_string(ifc));
		json_object_set_new(d, "alias", json_string(ifc));
		if (str(g, "gateway") != NULL)
			json_object_set_new(d, "gateway",
			    json_string(str(g, "gateway")));
		if (json_is_integer(json_object_get(r, "mtu")) &&
		    strcmp(ifc, str(r, "interface") != NULL ?
		    str(r, "interface") : "") == 0)
			json_object_set(d, "mtu", json_object_get(r, "mtu"));
	}
	json_object_set_new(out, "default_ipv4", d);
}

char *
ansible_fact_var(const char *key)
{
	return strncmp(key, "ansible_", 8) == 0 ? xstrdup(key) :
	    xprintf("ansible_%s", key);
}

json_t *
probe_ansible_facts(const json_t *facts)
{
	json_t		*out = json_object(), *v;
	const json_t	*k = json_object_get(facts, "kernel");
	const char	*host = str(facts, "hostname");
	char		*shortname;

	if (facts == NULL || !json_is_object(facts))
		return out;
	distribution(facts, out);
	set_str(out, "kernel", str(k, "release"));
	set_str(out, "kernel_version", str(k, "version"));
	set_str(out, "architecture", str(k, "machine"));
	set_str(out, "machine", str(k, "machine"));
	json_object_set_new(out, "system", json_string("Linux"));
	/* platform.node().split('.')[0] */
	shortname = host != NULL ? xstrndup(host, strcspn(host, ".")) : NULL;
	set_str(out, "hostname", shortname);
	free(shortname);
	set_str(out, "nodename", host);
	set_str(out, "fqdn", str(facts, "fqdn"));
	if (json_is_integer(v = json_object_get(facts, "mem_total_bytes")))
		json_object_set_new(out, "memtotal_mb", json_integer(
		    json_integer_value(v) / (1024 * 1024)));
	if (json_is_integer(v = json_object_get(facts, "cpus_online")))
		json_object_set(out, "processor_vcpus", v);
	if (json_object_get(facts, "setup_raw") != NULL)
		ansible_net_facts(facts, out);
	else {
		/* facts of a probe without the raw inputs */
		if (json_is_array(v = json_object_get(facts,
		    "interface_names")))
			json_object_set(out, "interfaces", v);
		default_ipv4(facts, out);
	}
	service_mgr(facts, out);
	virtualization(facts, out);
	ansible_host_facts(facts, out);
	return out;
}
