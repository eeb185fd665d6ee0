/* Ansible's fact names from the probe (lib/remote/ansible-facts.c,
 * probe.c): the probe's lines as a host prints them, parsed, then named
 * as ansible-core 2.14's setup module names them, for Debian, Ubuntu, a
 * Red Hat family host and one Ansible does not know; the service manager
 * from PID 1 and the init marks; the virtualization role; the CPU list,
 * the fqdn; nothing gathered, nothing named; the network facts
 * (network/linux.py), env, pkg_mgr, lsb, mounts and local. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
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

/* a's key as JSON equals text (objects in any order). */
static void
expect_json(const json_t *a, const char *key, const char *text)
{
	json_t	*want = json_loads(text, JSON_DECODE_ANY, NULL);
	char	*got;

	if (want == NULL)
		fail_msg("bad expected JSON for %s", key);
	if (!json_equal(json_object_get(a, key), want)) {
		got = json_dumps(json_object_get(a, key), JSON_SORT_KEYS |
		    JSON_ENCODE_ANY);
		fail_msg("%s: expected %s, got %s", key, text,
		    got != NULL ? got : "(none)");
	}
	json_decref(want);
}

#define LFT	"\\\\    valid_lft forever preferred_lft forever\n"

/* network/linux.py: the addresses of each interface, primary ones first
 * (a secondary, an IPv6 temporary one after), a label's own fact, a
 * pointopoint address, the bridge's and sysfs' keys, the defaults
 * completed from their interface. */
static void
test_network(void **state)
{
	json_t *a;

	(void)state;
	a = named(HEAD "@system\nhostname=h\ninterfaces=br0 eth0 lo ppp0 wg-1\n"
	    "@route\nfamily=inet\nline=default via 10.0.0.254 dev br0\n"
	    "interface=br0\nget4=8.8.8.8 via 10.0.0.254 dev br0 src 10.0.0.5 "
	    "uid 0 \\\\    cache\nget6=2404:6800:400a:800::1012 from :: via "
	    "fe80::1 dev br0 proto ra src 2001:db8::5 metric 1024 pref medium\n"
	    "@addrs\n"
	    "line=1: lo    inet 127.0.0.1/8 scope host lo" LFT
	    "line=1: lo    inet6 ::1/128 scope host " LFT
	    "line=3: br0    inet 10.0.0.5/24 brd 10.0.0.255 scope global br0"
	    LFT
	    "line=3: br0    inet 10.0.0.6/24 brd 10.0.0.255 scope global "
	    "secondary br0:1" LFT
	    "line=3: br0    inet6 2001:db8::99/64 scope global temporary "
	    "dynamic " LFT
	    "line=3: br0    inet6 2001:db8::5/64 scope global dynamic "
	    "mngtmpaddr " LFT
	    "line=4: ppp0    inet 10.64.0.1 peer 10.64.0.2/32 scope global "
	    "ppp0" LFT
	    "@netdev br0\naddress=aa:bb:cc:00:00:01\nmtu=1500\noperstate=up\n"
	    "type=1\nflags=0x1103\nbridge_bridge_id=8000.aabbcc000001\n"
	    "bridge_stp_state=0\nbridge=1\nbrif=eth0\n"
	    "@netdev eth0\naddress=aa:bb:cc:00:00:02\nmtu=1500\noperstate=up\n"
	    "type=1\nspeed=1000\nflags=0x1003\npciid=0000:00:03.0\n"
	    "module=virtio_net\n"
	    "@netdev lo\naddress=00:00:00:00:00:00\nmtu=65536\n"
	    "operstate=unknown\ntype=772\nflags=0x9\n"
	    "@netdev ppp0\nmtu=1400\noperstate=unknown\ntype=512\n"
	    "flags=0x10d1\n"
	    "@netdev wg-1\nmtu=1420\noperstate=down\ntype=65534\n"
	    "@host\n@end\n");
	expect_json(a, "interfaces",
	    "[\"br0\", \"br0_1\", \"eth0\", \"lo\", \"ppp0\", \"wg-1\"]");
	expect_json(a, "default_ipv4", "{\"interface\": \"br0\", \"address\": "
	    "\"10.0.0.5\", \"gateway\": \"10.0.0.254\", \"broadcast\": "
	    "\"10.0.0.255\", \"netmask\": \"255.255.255.0\", \"network\": "
	    "\"10.0.0.0\", \"prefix\": \"24\", \"macaddress\": "
	    "\"aa:bb:cc:00:00:01\", \"mtu\": 1500, \"type\": \"bridge\", "
	    "\"alias\": \"br0\"}");
	expect_json(a, "default_ipv6", "{\"interface\": \"br0\", \"address\": "
	    "\"2001:db8::5\", \"gateway\": \"fe80::1\", \"prefix\": \"64\", "
	    "\"scope\": \"global\", \"macaddress\": \"aa:bb:cc:00:00:01\", "
	    "\"mtu\": 1500, \"type\": \"bridge\"}");
	expect_json(a, "all_ipv4_addresses",
	    "[\"10.0.0.5\", \"10.0.0.6\", \"10.64.0.1\"]");
	expect_json(a, "all_ipv6_addresses",
	    "[\"2001:db8::5\", \"2001:db8::99\"]");
	expect_json(a, "br0", "{\"device\": \"br0\", \"macaddress\": "
	    "\"aa:bb:cc:00:00:01\", \"mtu\": 1500, \"active\": true, \"type\": "
	    "\"bridge\", \"interfaces\": [\"eth0\"], \"id\": "
	    "\"8000.aabbcc000001\", \"stp\": false, \"promisc\": true, "
	    "\"ipv4\": {\"address\": \"10.0.0.5\", \"broadcast\": \"10.0.0.255\","
	    " \"netmask\": \"255.255.255.0\", \"network\": \"10.0.0.0\", "
	    "\"prefix\": \"24\"}, \"ipv4_secondaries\": [{\"address\": "
	    "\"10.0.0.6\", \"broadcast\": \"10.0.0.255\", \"netmask\": "
	    "\"255.255.255.0\", \"network\": \"10.0.0.0\", \"prefix\": \"24\"}],"
	    " \"ipv6\": [{\"address\": \"2001:db8::5\", \"prefix\": \"64\", "
	    "\"scope\": \"global\"}, {\"address\": \"2001:db8::99\", \"prefix\":"
	    " \"64\", \"scope\": \"global\"}]}");
	expect_json(a, "br0_1", "{\"ipv4_secondaries\": [{\"address\": "
	    "\"10.0.0.6\", \"broadcast\": \"10.0.0.255\", \"netmask\": "
	    "\"255.255.255.0\", \"network\": \"10.0.0.0\", \"prefix\": "
	    "\"24\"}]}");
	expect_json(a, "eth0", "{\"device\": \"eth0\", \"macaddress\": "
	    "\"aa:bb:cc:00:00:02\", \"mtu\": 1500, \"active\": true, \"module\":"
	    " \"virtio_net\", \"type\": \"ether\", \"pciid\": \"0000:00:03.0\", "
	    "\"speed\": 1000, \"promisc\": false}");
	expect_json(a, "lo", "{\"device\": \"lo\", \"mtu\": 65536, \"active\": "
	    "true, \"type\": \"loopback\", \"promisc\": false, \"ipv4\": "
	    "{\"address\": \"127.0.0.1\", \"broadcast\": \"\", \"netmask\": "
	    "\"255.0.0.0\", \"network\": \"127.0.0.0\", \"prefix\": \"8\"}, "
	    "\"ipv6\": [{\"address\": \"::1\", \"prefix\": \"128\", \"scope\": "
	    "\"host\"}]}");
	expect_json(a, "ppp0", "{\"device\": \"ppp0\", \"mtu\": 1400, "
	    "\"active\": true, \"type\": \"ppp\", \"promisc\": false, \"ipv4\": "
	    "{\"address\": \"10.64.0.1\", \"broadcast\": \"\", \"netmask\": "
	    "\"255.255.255.255\", \"network\": \"10.64.0.1\", \"prefix\": "
	    "\"32\"}}");
	/* a fact's name has '_' for '-' (the list keeps the name) */
	expect_json(a, "wg_1", "{\"device\": \"wg-1\", \"mtu\": 1420, "
	    "\"active\": false, \"type\": \"tunnel\"}");
	json_decref(a);

	/* no ip on the host: setup's network collector gives nothing */
	a = named(HEAD "@system\nhostname=h\ninterfaces=eth0\n@route\n"
	    "ip_error=ip not installed\n@host\n@end\n");
	assert_null(json_object_get(a, "interfaces"));
	assert_null(json_object_get(a, "default_ipv4"));
	assert_null(json_object_get(a, "all_ipv4_addresses"));
	json_decref(a);
	/* no route out: both defaults {} */
	a = named(HEAD "@system\nhostname=h\ninterfaces=lo\n@route\n@host\n"
	    "@end\n");
	expect_json(a, "default_ipv4", "{}");
	expect_json(a, "default_ipv6", "{}");
	expect_json(a, "all_ipv6_addresses", "[]");
	json_decref(a);
}

/* env.py from `export -p` (dash's quoting, bash's), without what
 * tcptune's command line and prelude set; pkg_mgr.py; lsb.py; the
 * mounts. */
static void
test_host(void **state)
{
	static const char *const pkgs[][4] = {
		{ "rocky", "9.3", "/usr/bin/yum", "dnf" },
		{ "fedora", "39", "/usr/bin/yum", "yum" },
		{ "fedora", "39", "/usr/bin/dnf", "dnf" },
		{ "arch", "", "/usr/bin/pacman", "pacman" },
		{ "alpine", "3.19", "/sbin/apk", "apk" },
	};
	json_t	*a;
	char	 out[512];
	size_t	 i;

	(void)state;
	a = named(HEAD "@system\nhostname=h\nos_id=debian\nos_version_id=12\n"
	    "os_name=Debian GNU/Linux\nos_pretty_name=Debian GNU/Linux 12 "
	    "(bookworm)\nos_codename=bookworm\n"
	    "@host\nenv=export HOME='/home/u'\nenv=export LC_ALL='C'\n"
	    "env=export MSG='it'\\\\''s'\nenv=export ML='a\nenv=b'\n"
	    "env=export OLDPWD='/tmp'\nenv=export PATH='/usr/local/sbin:"
	    "/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/usr/bin'\n"
	    "env=export TARGETS=''\nenv=export EMPTY=''\nenv=export NOVAL\n"
	    "env_path=/usr/bin\nenv_lc_all=xen_US.UTF-8\nenv_oldpwd=\n"
	    "pkg=/usr/bin/yum\npkg=/usr/bin/apt-get\nlsb_release=1\n"
	    "mount=/dev/sda1 / ext4 rw,relatime 0 0\n"
	    "mount=/dev/sda1 /mnt/my\\\\040disk ext4 ro 0 0\n"
	    "mount=/dev/sda1 /srv/b ext4 rw 0 0\nbind=/srv/b\n@end\n");
	expect_json(a, "env", "{\"HOME\": \"/home/u\", \"LC_ALL\": "
	    "\"en_US.UTF-8\", \"MSG\": \"it's\", \"ML\": \"a\\nb\", \"PATH\": "
	    "\"/usr/bin\", \"EMPTY\": \"\"}");
	/* Debian's is apt whatever else is installed */
	expect(a, "pkg_mgr", "apt");
	expect_json(a, "lsb", "{\"id\": \"Debian\", \"description\": "
	    "\"Debian GNU/Linux 12 (bookworm)\", \"release\": \"12\", "
	    "\"codename\": \"bookworm\", \"major_release\": \"12\"}");
	expect_json(a, "mounts", "[{\"device\": \"/dev/sda1\", \"mount\": "
	    "\"/\", \"fstype\": \"ext4\", \"options\": \"rw,relatime\"}, "
	    "{\"device\": \"/dev/sda1\", \"mount\": \"/mnt/my disk\", "
	    "\"fstype\": \"ext4\", \"options\": \"ro\"}, {\"device\": "
	    "\"/dev/sda1\", \"mount\": \"/srv/b\", \"fstype\": \"ext4\", "
	    "\"options\": \"rw,bind\"}]");
	/* no /etc/ansible/facts.d */
	expect_json(a, "ansible_local", "{}");
	json_decref(a);

	/* bash's export -p; /etc/lsb-release without lsb_release; a Red
	 * Hat family host before and from 8 */
	a = named(HEAD "@system\nhostname=h\nos_id=centos\nos_version_id=7\n"
	    "@host\nenv=declare -x Q=\"a \\\\\"b\\\\\" \\\\$c\"\n"
	    "env=declare -x OLDPWD\nenv_path=\nenv_lc_all=\n"
	    "env_oldpwd=x/root\nenv=declare -x OLDPWD=\"/var\"\n"
	    "pkg=/usr/bin/dnf\n"
	    "lsb=DISTRIB_ID=Ubuntu\nlsb=DISTRIB_RELEASE=22.04\n"
	    "lsb=DISTRIB_CODENAME=jammy\n"
	    "lsb=DISTRIB_DESCRIPTION=\"Ubuntu 22.04.3 LTS\"\nlsb=junk\n@end\n");
	expect_json(a, "env", "{\"Q\": \"a \\\"b\\\" $c\", \"OLDPWD\": "
	    "\"/root\"}");
	expect(a, "pkg_mgr", "yum");
	expect_json(a, "lsb", "{\"id\": \"Ubuntu\", \"release\": \"22.04\", "
	    "\"codename\": \"jammy\", \"description\": \"Ubuntu 22.04.3 LTS\", "
	    "\"major_release\": \"22\"}");
	json_decref(a);
	/* neither lsb_release nor /etc/lsb-release */
	a = named(HEAD "@system\nhostname=h\nos_id=rocky\n@host\n@end\n");
	expect_json(a, "lsb", "{}");
	json_decref(a);
	/* pkg_mgr: Rocky 9 says dnf, Fedora dnf where it is there, others
	 * the last of the list */
	for (i = 0; i < sizeof pkgs / sizeof *pkgs; i++) {
		snprintf(out, sizeof out, HEAD "@system\nhostname=h\n"
		    "os_id=%s\nos_version_id=%s\n@host\npkg=%s\n@end\n",
		    pkgs[i][0], pkgs[i][1], pkgs[i][2]);
		a = named(out);
		expect(a, "pkg_mgr", pkgs[i][3]);
		json_decref(a);
	}
	/* a probe without the raw inputs (the read-back): none of them */
	a = named(HEAD "@system\nhostname=h\n@end\n");
	assert_null(json_object_get(a, "env"));
	assert_null(json_object_get(a, "pkg_mgr"));
	assert_null(json_object_get(a, "ansible_local"));
	json_decref(a);
}

/* local.py: JSON, else configparser's INI (DEFAULT, interpolation,
 * continuation, keys in lower case), else its error; a script's failure;
 * a '%' configparser refuses leaves no local facts at all. */
static void
test_local(void **state)
{
	json_t *a;

	(void)state;
	a = named(HEAD "@system\nhostname=h\n@host\n@local\ndir=1\n"
	    "@local_fact /etc/ansible/facts.d/a.fact\nline={\"x\": [1, 2]}\n"
	    "@local_fact /etc/ansible/facts.d/b.fact\nline=[DEFAULT]\n"
	    "line=base = /opt\nline=[app]\nline=Name = demo\n"
	    "line=path = %(base)s/app\nline=multi = one\nline=  two\n"
	    "line=pct = 100%%\nline=; a comment\n"
	    "@local_fact /etc/ansible/facts.d/c.fact\nline=junk\n"
	    "@local_fact /etc/ansible/facts.d/d.fact\nrc=3\nline={}\n"
	    "@local_fact /etc/ansible/facts.d/e.fact\nrc=0\nline=\"s\"\n"
	    "@local_fact /etc/ansible/facts.d/f.fact\n@end\n");
	expect_json(a, "ansible_local", "{\"a\": {\"x\": [1, 2]}, \"b\": "
	    "{\"app\": {\"name\": \"demo\", \"path\": \"/opt/app\", \"multi\": "
	    "\"one\\ntwo\", \"pct\": \"100%\", \"base\": \"/opt\"}}, \"c\": "
	    "\"error loading facts as JSON or ini - please check content: "
	    "/etc/ansible/facts.d/c.fact\", \"d\": \"Failure executing fact "
	    "script (/etc/ansible/facts.d/d.fact), rc: 3, err: \", \"e\": "
	    "\"s\", \"f\": {}}");
	json_decref(a);
	a = named(HEAD "@system\nhostname=h\n@host\n@local\ndir=1\n"
	    "@local_fact /etc/ansible/facts.d/p.fact\nline=[s]\n"
	    "line=k = 5%\n@end\n");
	assert_null(json_object_get(a, "ansible_local"));
	json_decref(a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_debian),
		cmocka_unit_test(test_others),
		cmocka_unit_test(test_cpus_fqdn),
		cmocka_unit_test(test_network),
		cmocka_unit_test(test_host),
		cmocka_unit_test(test_local),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
