/* Ansible's fact names from the probe (lib/remote/ansible-facts.c,
 * probe.c): the probe's lines as a host prints them, parsed, then named
 * as ansible-core 2.14's setup module names them, for Debian, Ubuntu, a
 * Red Hat family host and one Ansible does not know; the service manager
 * from PID 1 and the init marks; the virtualization role; the CPU list,
 * the fqdn; nothing gathered, nothing named. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "remote/ansible-facts.h"
#include "remote/probe.h"

#define HEAD	"tcptune-probe 1\n@probe\nuid=0\n"

/* The Ansible names of the facts a probe output gives. */
static json_t *
named(const char *out)
{
	json_t	*facts, *a;
	char	*cause = NULL;

	if ((facts = probe_parse(out, strlen(out), &cause)) == NULL)
		fail_msg("%s", cause);
	a = probe_ansible_facts(facts);
	json_decref(facts);
	return a;
}

static void
expect(const json_t *a, const char *key, const char *value)
{
	const char *v = json_string_value(json_object_get(a, key));

	if (v == NULL || strcmp(v, value) != 0)
		fail_msg("%s: expected '%s', got '%s'", key, value,
		    v != NULL ? v : "(none)");
}

static void
test_debian(void **state)
{
	json_t *a, *d;

	(void)state;
	a = named(HEAD "@system\nrelease=6.1.0-18-amd64\nversion=#1 SMP\n"
	    "machine=x86_64\nhostname=web1\nos_id=debian\nos_version_id=12\n"
	    "os_codename=bookworm\ndebian_version=12.11\ncpus_online=0-3,6\n"
	    "interfaces=eth0 lo\npid1=systemd\ninit_systemd=1\n"
	    "hosts_entry=10.0.0.1        web1.example.com web1\n"
	    "virt=none\ncontainer=none\n"
	    "@route\nfamily=inet\nline=default via 10.0.0.254 dev eth0\n"
	    "interface=eth0\nget4=8.8.8.8 via 10.0.0.254 dev eth0 src 10.0.0.1 "
	    "uid 0 \\n    cache\n"
	    "@memory\nmem_total_kb=2048000\n@end\n");
	expect(a, "distribution", "Debian");
	expect(a, "distribution_version", "12.11");
	expect(a, "distribution_major_version", "12");
	expect(a, "distribution_release", "bookworm");
	expect(a, "os_family", "Debian");
	expect(a, "kernel", "6.1.0-18-amd64");
	expect(a, "architecture", "x86_64");
	expect(a, "machine", "x86_64");
	expect(a, "hostname", "web1");
	expect(a, "fqdn", "web1.example.com");
	expect(a, "service_mgr", "systemd");
	expect(a, "virtualization_type", "NA");
	expect(a, "virtualization_role", "NA");
	expect(a, "system", "Linux");
	assert_int_equal(json_integer_value(json_object_get(a, "memtotal_mb")),
	    2000);
	assert_int_equal(json_integer_value(json_object_get(a,
	    "processor_vcpus")), 5);
	assert_int_equal(json_array_size(json_object_get(a, "interfaces")), 2);
	d = json_object_get(a, "default_ipv4");
	expect(d, "address", "10.0.0.1");
	expect(d, "interface", "eth0");
	expect(d, "gateway", "10.0.0.254");
	json_decref(a);
}

static void
test_others(void **state)
{
	json_t *a;

	(void)state;
	/* Ubuntu: VERSION_ID, UBUNTU_CODENAME; sysvinit; a KVM guest */
	a = named(HEAD "@system\nhostname=db.example.org\nos_id=ubuntu\n"
	    "os_version_id=22.04\nos_ubuntu_codename=jammy\npid1=init\n"
	    "init_sysv=1\nvirt=kvm\ncontainer=none\n@end\n");
	expect(a, "distribution", "Ubuntu");
	expect(a, "distribution_version", "22.04");
	expect(a, "distribution_major_version", "22");
	expect(a, "distribution_release", "jammy");
	expect(a, "os_family", "Debian");
	expect(a, "service_mgr", "sysvinit");
	expect(a, "virtualization_type", "kvm");
	expect(a, "virtualization_role", "guest");
	/* platform.node().split('.')[0]; no hosts entry: the name itself */
	expect(a, "hostname", "db");
	expect(a, "nodename", "db.example.org");
	expect(a, "fqdn", "db.example.org");
	assert_int_equal(json_object_size(json_object_get(a, "default_ipv4")),
	    0);
	json_decref(a);
	/* Rocky in an LXC container, a shell as PID 1 under systemd's marks */
	a = named(HEAD "@system\nos_id=rocky\nos_version_id=9.3\npid1=bash\n"
	    "init_systemd=1\nvirt=none\ncontainer=lxc\n@end\n");
	expect(a, "distribution", "Rocky");
	expect(a, "distribution_major_version", "9");
	expect(a, "distribution_release", "NA");
	expect(a, "os_family", "RedHat");
	expect(a, "service_mgr", "systemd");
	expect(a, "virtualization_type", "lxc");
	expect(a, "virtualization_role", "guest");
	json_decref(a);
	/* one Ansible has no name for: capitalised, its own family; Debian
	 * testing's debian_version is no version */
	a = named(HEAD "@system\nos_id=fooOS\npid1=runit-init\n@end\n");
	expect(a, "distribution", "Fooos");
	expect(a, "os_family", "Fooos");
	expect(a, "distribution_version", "NA");
	expect(a, "service_mgr", "runit");
	json_decref(a);
	a = named(HEAD "@system\nos_id=debian\ndebian_version=trixie/sid\n"
	    "@end\n");
	expect(a, "distribution_version", "NA");
	expect(a, "service_mgr", "service");
	json_decref(a);
	/* nothing gathered */
	a = probe_ansible_facts(NULL);
	assert_int_equal(json_object_size(a), 0);
	json_decref(a);
}

static void
test_cpus_fqdn(void **state)
{
	char *s;

	(void)state;
	assert_int_equal(probe_cpu_count("0"), 1);
	assert_int_equal(probe_cpu_count("0-1"), 2);
	assert_int_equal(probe_cpu_count("0-3,6,8-9"), 7);
	assert_int_equal(probe_cpu_count(""), -1);
	assert_int_equal(probe_cpu_count("x"), -1);
	assert_int_equal(probe_cpu_count("3-1"), -1);
	assert_int_equal(probe_cpu_count("0,"), -1);
	assert_null(probe_fqdn(NULL, "1.2.3.4 a.b"));
	s = probe_fqdn("h", "10.0.0.1 h h.lan");
	assert_string_equal(s, "h.lan");
	free(s);
	s = probe_fqdn("h", "");
	assert_string_equal(s, "h");
	free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_debian),
		cmocka_unit_test(test_others),
		cmocka_unit_test(test_cpus_fqdn),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
