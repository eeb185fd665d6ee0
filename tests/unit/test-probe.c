/* The probe parser against real outputs of lib/remote/probe.sh (captured on the
 * project machine's root namespace and in a child network namespace; how is
 * in docs/facts.md) and hand-written ones for what this machine
 * cannot show; plus the script itself run locally by dash and bash. */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "remote/embedded.h"
#include "remote/probe.h"
#include "base/shquote.h"
#include "base/strbuf.h"

/* xalloc.h's fail() collides with cmocka's fail() macro: allocate locally. */
static char *
tprintf(const char *fmt, ...)
{
	va_list	 ap;
	char	*s;
	int	 r;

	va_start(ap, fmt);
	r = vasprintf(&s, fmt, ap);
	va_end(ap);
	assert_true(r >= 0);
	return s;
}

static char *
slurp(const char *name, size_t *len)
{
	const char	*src = getenv("TCPTUNE_SRC");
	char		*path, *buf;
	FILE		*f;
	long		 n;

	path = tprintf("%s/tests/data/probe/%s", src != NULL ? src : ".",
	    name);
	f = fopen(path, "rb");
	if (f == NULL)
		fail_msg("cannot open '%s'", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc(n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	free(path);
	*len = n;
	return buf;
}

static json_t *
parse_file(const char *name)
{
	json_t	*j;
	char	*buf, *cause = NULL;
	size_t	 len;

	buf = slurp(name, &len);
	j = probe_parse(buf, len, &cause);
	if (j == NULL)
		fail_msg("%s: %s", name, cause);
	free(buf);
	return j;
}

static json_t *
parse_str(const char *s)
{
	json_t	*j;
	char	*cause = NULL;

	j = probe_parse(s, strlen(s), &cause);
	if (j == NULL)
		fail_msg("%s", cause);
	return j;
}

/* The value at a path of object keys ("a", "b", NULL). */
static json_t *
at(json_t *j, ...)
{
	va_list		 ap;
	const char	*k;

	va_start(ap, j);
	while ((k = va_arg(ap, const char *)) != NULL) {
		if (!json_is_object(j))
			fail_msg("no object at '%s'", k);
		j = json_object_get(j, k);
		if (j == NULL)
			fail_msg("no key '%s'", k);
	}
	va_end(ap);
	return j;
}

#define S(j) json_string_value(j)
#define I(j) json_integer_value(j)

static void
assert_str(json_t *j, const char *want)
{
	if (!json_is_string(j))
		fail_msg("not a string, want '%s'", want);
	assert_string_equal(json_string_value(j), want);
}

static void
assert_real(json_t *j, double want)
{
	assert_true(json_is_real(j));
	assert_true(json_real_value(j) > want - 1e-9 &&
	    json_real_value(j) < want + 1e-9);
}

/* ---- real outputs */

static void
test_root_namespace(void **state)
{
	json_t	*j, *s, *a;

	(void)state;
	j = parse_file("root-dash.out");
	assert_str(at(j, "kernel", "release", NULL), "6.18.44-fc-v669");
	assert_str(at(j, "kernel", "machine", NULL), "x86_64");
	assert_str(at(j, "hostname", NULL), "vm");
	assert_str(at(j, "distribution", "id", NULL), "debian");
	assert_str(at(j, "distribution", "version_id", NULL), "12");
	assert_str(at(j, "distribution", "pretty_name", NULL),
	    "Debian GNU/Linux 12 (bookworm)");
	assert_str(at(j, "virtualization", "type", NULL), "kvm");
	assert_str(at(j, "virtualization", "container", NULL), "docker");
	assert_int_equal(I(at(j, "uid", NULL)), 0);

	assert_str(at(j, "kernel_config", "source", NULL), "/proc/config.gz");
	assert_str(at(j, "kernel_config", "CONFIG_TCP_CONG_BBR", NULL), "y");
	assert_str(at(j, "kernel_config", "CONFIG_NET_SCH_FQ", NULL),
	    "absent");
	assert_true(json_is_true(at(j, "modules", "tcp_bbr", "builtin",
	    NULL)));
	assert_true(json_is_true(at(j, "modules", "tcp_bbr", "available",
	    NULL)));
	assert_true(json_is_false(at(j, "modules", "sch_fq", "available",
	    NULL)));
	assert_true(json_is_false(at(j, "modules", "sch_fq", "loaded", NULL)));

	a = at(j, "congestion", "available", NULL);
	assert_int_equal(json_array_size(a), 3);
	assert_str(json_array_get(a, 0), "reno");
	assert_str(json_array_get(a, 1), "bbr");
	assert_str(json_array_get(a, 2), "cubic");
	assert_str(at(j, "congestion", "current", NULL), "bbr");
	assert_str(at(j, "default_qdisc", NULL), "pfifo_fast");

	assert_str(at(j, "default_route", "interface", NULL), "eth0");
	assert_str(at(j, "default_route", "gateway", NULL), "192.0.2.1");
	assert_int_equal(I(at(j, "default_route", "mtu", NULL)), 1400);
	assert_true(json_is_null(at(j, "default_route", "initcwnd", NULL)));
	/* virtio here: ethtool says "Speed: Unknown!", "Duplex: Unknown!". */
	assert_true(json_is_null(at(j, "default_route", "speed_mbit", NULL)));
	assert_non_null(strstr(S(at(j, "default_route", "speed_reason", NULL)),
	    "Unknown!"));
	assert_true(json_is_null(at(j, "default_route", "duplex", NULL)));
	assert_str(at(j, "default_route", "qdisc", "kind", NULL),
	    "pfifo_fast");
	assert_str(at(j, "default_route", "qdisc", "handle", NULL), "0:");
	assert_true(json_is_false(at(j, "default_route", "qdisc", "mq",
	    NULL)));
	assert_int_equal(I(at(j, "default_route", "tx_queues", NULL)), 1);
	assert_int_equal(I(at(j, "mem_total_bytes", NULL)),
	    24684084LL * 1024);

	s = at(j, "sysctl", NULL);
	assert_int_equal(json_object_size(s), 13);
	/* An output from before the probe read netdev_max_backlog: not
	 * known, which is neither present nor absent. */
	assert_true(json_is_null(at(s, "net.core.netdev_max_backlog",
	    "present", NULL)));
	assert_str(at(s, "net.ipv4.tcp_rmem", "value", NULL),
	    "4096 131072 33554432");
	assert_true(json_is_true(at(s, "net.ipv4.tcp_rmem", "writable",
	    NULL)));
	assert_str(at(s, "net.core.rmem_max", "value", NULL), "4194304");
	assert_true(json_is_true(at(s, "net.core.rmem_max", "writable",
	    NULL)));
	assert_str(at(s, "net.core.rmem_max", "mode", NULL), "0644");
	assert_str(at(s, "net.ipv4.tcp_mem", "value", NULL),
	    "287898 383867 575796");
	assert_str(at(s, "net.ipv4.tcp_notsent_lowat", "value", NULL),
	    "4294967295");
	assert_true(json_is_null(at(s, "net.core.rmem_max", "file", NULL)));

	/* Debian: 99-sysctl.conf -> ../sysctl.conf; /lib is /usr/lib. */
	a = at(j, "sysctl_files", NULL);
	assert_int_equal(json_array_size(a), 4);
	assert_str(at(json_array_get(a, 0), "link", NULL), "../sysctl.conf");
	a = at(j, "sysctl_order", NULL);
	assert_str(json_array_get(a, 0), "/usr/lib/sysctl.d/50-pid-max.conf");
	assert_str(json_array_get(a, json_array_size(a) - 1),
	    "/etc/sysctl.conf");
	assert_true(json_is_false(at(j, "tuned_active", NULL)));

	assert_str(at(j, "rtt", "127.0.0.1", "method", NULL), "ping");
	assert_real(at(j, "rtt", "127.0.0.1", "min_ms", NULL), 0.024);
	assert_real(at(j, "rtt", "127.0.0.1", "avg_ms", NULL), 0.070);
	assert_real(at(j, "rtt", "127.0.0.1", "max_ms", NULL), 0.150);
	assert_real(at(j, "rtt", "127.0.0.1", "ping_loss_pct", NULL), 0);
	json_decref(j);
}

/* A child network namespace: net.core.* buffer keys read-only (0444),
 * default_qdisc and tcp_mem absent, per-namespace TCP keys writable. */
static void
test_child_namespace(void **state)
{
	json_t	*j, *s;

	(void)state;
	j = parse_file("netns-ping.out");
	assert_true(json_is_null(at(j, "default_qdisc", NULL)));
	s = at(j, "sysctl", NULL);
	assert_true(json_is_false(at(s, "net.core.default_qdisc", "present",
	    NULL)));
	assert_true(json_is_null(at(s, "net.core.default_qdisc", "value",
	    NULL)));
	assert_true(json_is_false(at(s, "net.ipv4.tcp_mem", "present", NULL)));
	assert_true(json_is_true(at(s, "net.core.rmem_max", "present", NULL)));
	assert_true(json_is_false(at(s, "net.core.rmem_max", "writable",
	    NULL)));
	assert_str(at(s, "net.core.rmem_max", "mode", NULL), "0444");
	assert_true(json_is_false(at(s, "net.core.wmem_default", "writable",
	    NULL)));
	assert_true(json_is_true(at(s, "net.ipv4.tcp_rmem", "writable",
	    NULL)));
	assert_true(json_is_true(at(s, "net.ipv4.tcp_congestion_control",
	    "writable", NULL)));

	assert_str(at(j, "default_route", "interface", NULL), "ttl-pt0");
	assert_str(at(j, "default_route", "gateway", NULL), "198.18.0.2");
	assert_int_equal(I(at(j, "default_route", "initcwnd", NULL)), 10);
	assert_int_equal(I(at(j, "default_route", "initrwnd", NULL)), 20);
	assert_int_equal(I(at(j, "default_route", "mtu", NULL)), 1500);
	/* veth reports 10000Mb/s, Full. */
	assert_int_equal(I(at(j, "default_route", "speed_mbit", NULL)), 10000);
	assert_str(at(j, "default_route", "speed_source", NULL), "ethtool");
	assert_true(json_is_null(at(j, "default_route", "speed_reason",
	    NULL)));
	assert_str(at(j, "default_route", "duplex", NULL), "full");
	assert_str(at(j, "default_route", "qdisc", "kind", NULL), "noqueue");

	assert_str(at(j, "rtt", "198.18.0.2", "method", NULL), "ping");
	assert_real(at(j, "rtt", "198.18.0.2", "avg_ms", NULL), 0.032);
	assert_true(json_is_null(at(j, "rtt", "198.18.0.2", "reason", NULL)));
	json_decref(j);
}

/* ICMP ignored by the peer: TCP connect to port 22, accepted, refused,
 * and a silent address. Captured with bash as the shell. */
static void
test_rtt_tcp_fallback(void **state)
{
	json_t	*j, *r;

	(void)state;
	j = parse_file("netns-tcp.out");
	r = at(j, "rtt", "198.18.0.2", NULL);
	assert_str(at(r, "method", NULL), "tcp");
	assert_str(at(r, "tcp_result", NULL), "ok");
	assert_real(at(r, "min_ms", NULL), 0.033);
	assert_real(at(r, "max_ms", NULL), 0.108);
	assert_real(at(r, "avg_ms", NULL), (108 + 61 + 33) / 3000.0);
	assert_real(at(r, "ping_loss_pct", NULL), 100);
	assert_non_null(strstr(S(at(r, "ping_error", NULL)), "no reply"));

	r = at(j, "rtt", "198.18.1.3", NULL);
	assert_str(at(r, "method", NULL), "tcp");
	assert_str(at(r, "tcp_result", NULL), "refused");

	r = at(j, "rtt", "198.18.0.9", NULL);
	assert_true(json_is_null(at(r, "method", NULL)));
	assert_true(json_is_null(at(r, "avg_ms", NULL)));
	assert_non_null(strstr(S(at(r, "reason", NULL)), "timed out"));
	json_decref(j);
}

/* ---- hand-written outputs */

#define HEAD "tcptune-probe 1\n@probe\nuid=0\n"

static json_t *
parse_link(const char *link_lines)
{
	char	*s;
	json_t	*j;

	s = tprintf(HEAD "@route\nfamily=inet\n"
	    "line=default via 10.0.0.1 dev ens3 proto dhcp metric 100\n"
	    "interface=ens3\n@link ens3\nmtu=9000\n%s@end\n", link_lines);
	j = parse_str(s);
	free(s);
	return j;
}

static void
test_speed(void **state)
{
	static const struct {
		const char	*lines;
		long long	 mbit;	/* -1: null */
		const char	*source;
		const char	*reason; /* substring */
	} cases[] = {
		{ "ethtool_speed=Unknown!\nethtool_duplex=Unknown! (255)\n",
		  -1, "ethtool", "Unknown!" },
		{ "ethtool_speed=4294967295\n", -1, "ethtool", "none known" },
		{ "ethtool_speed=0Mb/s\n", -1, "ethtool", "none known" },
		{ "ethtool_speed=65535Mb/s\n", -1, "ethtool", "none known" },
		{ "ethtool_speed=25000Mb/s\nethtool_duplex=Half\n", 25000,
		  "ethtool", NULL },
		{ "ethtool_error=ethtool not installed\nsysfs_speed=-1\n", -1,
		  "sysfs", "-1" },
		{ "ethtool_error=ethtool not installed\nsysfs_speed=1000\n"
		  "sysfs_duplex=full\n", 1000, "sysfs", NULL },
		{ "ethtool_error=ethtool not installed\nsysfs_speed="
		  "4294967295\n", -1, "sysfs", "none known" },
		{ "ethtool_error=ethtool not installed\nsysfs_speed_error="
		  "cannot read /sys/class/net/ens3/speed\n", -1, NULL,
		  "ethtool not installed; cannot read" },
	};
	json_t	*j, *r;
	size_t	 i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		j = parse_link(cases[i].lines);
		r = at(j, "default_route", NULL);
		if (cases[i].mbit < 0) {
			assert_true(json_is_null(at(r, "speed_mbit", NULL)));
			assert_non_null(strstr(S(at(r, "speed_reason", NULL)),
			    cases[i].reason));
		} else {
			assert_int_equal(I(at(r, "speed_mbit", NULL)),
			    cases[i].mbit);
			assert_true(json_is_null(at(r, "speed_reason", NULL)));
		}
		if (cases[i].source != NULL)
			assert_str(at(r, "speed_source", NULL),
			    cases[i].source);
		else
			assert_true(json_is_null(at(r, "speed_source", NULL)));
		json_decref(j);
	}
	j = parse_link("ethtool_speed=25000Mb/s\nethtool_duplex=Half\n");
	assert_str(at(j, "default_route", "duplex", NULL), "half");
	assert_str(at(j, "default_route", "proto", NULL), "dhcp");
	assert_int_equal(I(at(j, "default_route", "metric", NULL)), 100);
	assert_int_equal(I(at(j, "default_route", "mtu", NULL)), 9000);
	json_decref(j);
}

static void
test_missing_tools(void **state)
{
	json_t	*j, *r;

	(void)state;
	j = parse_link("tx_queues=4\nethtool_error=ethtool not installed\n"
	    "sysfs_speed_error=cannot read /sys/class/net/ens3/speed\n"
	    "tc_error=tc not installed\n");
	r = at(j, "default_route", NULL);
	assert_true(json_is_null(at(r, "qdisc", NULL)));
	assert_str(at(r, "qdisc_reason", NULL), "tc not installed");
	assert_true(json_is_null(at(r, "speed_mbit", NULL)));
	assert_non_null(strstr(S(at(r, "speed_reason", NULL)),
	    "ethtool not installed"));
	assert_int_equal(I(at(r, "tx_queues", NULL)), 4);
	json_decref(j);

	/* No ip: the interface and gateway from /proc/net/route. */
	j = parse_str(HEAD "@route\nip_error=ip not installed\n"
	    "procnet=eth0\t00000000\t0102000A\t0003\t0\t0\t100\t00000000\t0"
	    "\t0\t0\ninterface=eth0\n@link eth0\nmtu=1500\n@end\n");
	r = at(j, "default_route", NULL);
	assert_str(at(r, "interface", NULL), "eth0");
	assert_str(at(r, "gateway", NULL), "10.0.2.1");
	assert_int_equal(I(at(r, "metric", NULL)), 100);
	assert_true(json_is_null(at(r, "initcwnd", NULL)));
	assert_str(at(r, "options_reason", NULL), "ip not installed");
	json_decref(j);

	/* No systemd-detect-virt: unknown, with a container guess. */
	j = parse_str(HEAD "@system\nvirt_error=systemd-detect-virt not "
	    "installed\ncontainer_guess=openvz\n@end\n");
	assert_str(at(j, "virtualization", "type", NULL), "unknown");
	assert_str(at(j, "virtualization", "container", NULL), "openvz");
	assert_str(at(j, "virtualization", "reason", NULL),
	    "systemd-detect-virt not installed");
	json_decref(j);
}

static void
test_no_default_route(void **state)
{
	json_t	*j;

	(void)state;
	j = parse_str(HEAD "@route\n@memory\nmem_total_kb=1024\n@end\n");
	assert_true(json_is_null(at(j, "default_route", NULL)));
	assert_str(at(j, "default_route_reason", NULL), "no default route");
	assert_int_equal(I(at(j, "mem_total_bytes", NULL)), 1024 * 1024);
	json_decref(j);
}

static void
test_no_kernel_config(void **state)
{
	json_t	*j;

	(void)state;
	j = parse_str(HEAD "@kernel_config\nerror=no /boot/config-5.10.0 or "
	    "/proc/config.gz\n@module tcp_bbr\nsysfs=0\nmodinfo=/lib/modules/"
	    "5.10.0/kernel/net/ipv4/tcp_bbr.ko\n@module sch_fq\nsysfs=1\n"
	    "modinfo_error=modinfo not installed\n@congestion\n"
	    "available=reno cubic\ncurrent=cubic\n@end\n");
	assert_true(json_is_null(at(j, "kernel_config", "source", NULL)));
	assert_str(at(j, "kernel_config", "CONFIG_TCP_CONG_BBR", NULL),
	    "unknown");
	assert_str(at(j, "kernel_config", "CONFIG_NET_SCH_FQ", NULL),
	    "unknown");
	assert_non_null(strstr(S(at(j, "kernel_config", "reason", NULL)),
	    "/proc/config.gz"));
	/* modinfo names a module file: not built in. */
	assert_true(json_is_false(at(j, "modules", "tcp_bbr", "builtin",
	    NULL)));
	assert_true(json_is_false(at(j, "modules", "tcp_bbr", "loaded",
	    NULL)));
	assert_true(json_is_true(at(j, "modules", "tcp_bbr", "loadable",
	    NULL)));
	assert_true(json_is_true(at(j, "modules", "tcp_bbr", "available",
	    NULL)));
	assert_true(json_is_true(at(j, "modules", "sch_fq", "loaded", NULL)));
	assert_true(json_is_null(at(j, "modules", "sch_fq", "loadable",
	    NULL)));
	assert_str(at(j, "modules", "sch_fq", "reason", NULL),
	    "modinfo not installed");
	json_decref(j);

	/* Config says module: modinfo decides loadability. */
	j = parse_str(HEAD "@kernel_config\nsource=/boot/config-6.1.0\n"
	    "line=CONFIG_TCP_CONG_BBR=m\nline=CONFIG_NET_SCH_FQ=m\n"
	    "@module tcp_bbr\nsysfs=1\nmodinfo=/x/tcp_bbr.ko\n@module sch_fq\n"
	    "sysfs=0\nmodinfo_error=module 'sch_fq' not found\n@end\n");
	assert_str(at(j, "kernel_config", "CONFIG_TCP_CONG_BBR", NULL), "m");
	assert_true(json_is_true(at(j, "modules", "tcp_bbr", "loaded", NULL)));
	assert_true(json_is_false(at(j, "modules", "tcp_bbr", "builtin",
	    NULL)));
	assert_true(json_is_false(at(j, "modules", "sch_fq", "available",
	    NULL)));
	json_decref(j);
}

/* systemd-sysctl, which applies the files at boot under systemd (Debian's
 * procps.service is an alias of it), never reads /etc/sysctl.conf: Debian
 * gets it applied through the 99-sysctl.conf link, at that name's place, so
 * a later name wins over it. Measured on the UML guests with
 * `systemd-sysctl --cat-config` and a restart of systemd-sysctl (e2e
 * guests-smoke); the probe put /etc/sysctl.conf last, as procps' `sysctl
 * --system` does, and named it the winner. */
#define SYSCTLD_DEBIAN \
	"@sysctl net.ipv4.tcp_notsent_lowat\npresent=1\nvalue=222222\nw=1\n" \
	"@sysctl_file /etc/sysctl.d/99-sysctl.conf\ndir=/etc/sysctl.d\n" \
	"link=../sysctl.conf\nline=net.ipv4.tcp_notsent_lowat = 111111\n" \
	"@sysctl_file /etc/sysctl.d/99-zz.conf\ndir=/etc/sysctl.d\n" \
	"line=net.ipv4.tcp_notsent_lowat = 222222\n"
#define SYSCTL_CONF \
	"@sysctl_file /etc/sysctl.conf\ndir=\n" \
	"line=net.ipv4.tcp_notsent_lowat = 111111\n"

static void
test_sysctl_systemd(void **state)
{
	json_t	*j, *s, *o;

	(void)state;
	j = parse_str(HEAD SYSCTLD_DEBIAN "@sysctl_boot\nsystemd=1\n"
	    SYSCTL_CONF "@end\n");
	s = at(j, "sysctl", "net.ipv4.tcp_notsent_lowat", NULL);
	assert_str(at(s, "file", NULL), "/etc/sysctl.d/99-zz.conf");
	assert_str(at(s, "file_value", NULL), "222222");
	assert_str(at(j, "sysctl_boot", NULL), "systemd-sysctl");
	o = at(j, "sysctl_order", NULL);
	assert_int_equal(json_array_size(o), 2);
	assert_str(json_array_get(o, 0), "/etc/sysctl.d/99-sysctl.conf");
	assert_str(json_array_get(o, 1), "/etc/sysctl.d/99-zz.conf");
	/* Not in sysctl_files, which the tuning rebuilds the model from. */
	assert_int_equal(json_array_size(at(j, "sysctl_files", NULL)), 2);
	assert_int_equal(json_array_size(at(j, "sysctl_skipped", NULL)), 1);
	assert_str(json_array_get(at(j, "sysctl_skipped", NULL), 0),
	    "/etc/sysctl.conf");
	json_decref(j);

	/* Without the link, systemd sets the key from no file at all. */
	j = parse_str(HEAD "@sysctl net.ipv4.tcp_notsent_lowat\npresent=1\n"
	    "value=4294967295\nw=1\n@sysctl_boot\nsystemd=1\n" SYSCTL_CONF
	    "@end\n");
	assert_true(json_is_null(at(j, "sysctl", "net.ipv4.tcp_notsent_lowat",
	    "file", NULL)));
	assert_int_equal(json_array_size(at(j, "sysctl_order", NULL)), 0);
	json_decref(j);

	/* Without systemd, procps' `sysctl --system` reads it last. */
	j = parse_str(HEAD SYSCTLD_DEBIAN "@sysctl_boot\nsystemd=0\n"
	    SYSCTL_CONF "@end\n");
	assert_str(at(j, "sysctl_boot", NULL), "sysctl --system");
	assert_str(at(j, "sysctl", "net.ipv4.tcp_notsent_lowat", "file", NULL),
	    "/etc/sysctl.conf");
	assert_int_equal(json_array_size(at(j, "sysctl_skipped", NULL)), 0);
	json_decref(j);
}

/* "builtin loaded loadable available state|reason" of a module. */
static char *
module_line(json_t *j, const char *name)
{
	json_t	*m = at(j, "modules", name, NULL);
	char	*v[4], *s;
	int	 i;
	static const char *const keys[] = { "builtin", "loaded", "loadable",
	    "available" };

	for (i = 0; i < 4; i++) {
		json_t *b = at(m, keys[i], NULL);

		v[i] = json_is_null(b) ? "null" : json_is_true(b) ? "true" :
		    "false";
	}
	s = tprintf("%s %s %s %s %s|%s", v[0], v[1], v[2], v[3],
	    S(at(m, "state", NULL)), json_is_null(at(m, "reason", NULL)) ?
	    "null" : S(at(m, "reason", NULL)));
	return s;
}

static void
assert_module(json_t *j, const char *name, const char *want)
{
	char	*got = module_line(j, name);

	if (strcmp(got, want) != 0)
		fail_msg("module %s: want '%s', got '%s'", name, want, got);
	free(got);
}

/* Module states as modinfo (or the modules directory) gives them where the
 * config does not tell: on the guests, a /boot/config hidden by a bind
 * mount of /dev/null read as "no fq" although sch_fq loaded (e2e
 * guests-smoke). */
static void
test_module_states(void **state)
{
	json_t	*j;

	(void)state;
	/* No config: modinfo decides. "(builtin)" is built in (it was
	 * builtin null, loaded false, available false: "this kernel has no
	 * fq"); a path whose file is gone is not loadable (modinfo reads the
	 * index only; it was loadable). */
	j = parse_str(HEAD "@kernel_config\nerror=no /boot/config-6.1 or "
	    "/proc/config.gz\n@module tcp_bbr\nsysfs=0\nmodinfo=/lib/modules/"
	    "6.1/kernel/net/ipv4/tcp_bbr.ko\nfile=1\n@module sch_fq\nsysfs=0\n"
	    "modinfo=(builtin)\n@module sch_fq_codel\nsysfs=0\nmodinfo=/lib/"
	    "modules/6.1/sch_fq_codel.ko\nfile=0\n@end\n");
	assert_str(at(j, "kernel_config", "CONFIG_NET_SCH_FQ_CODEL", NULL),
	    "unknown");
	assert_str(at(j, "kernel_config", "CONFIG_MODULES", NULL), "unknown");
	assert_module(j, "tcp_bbr", "false false true true loadable|null");
	assert_module(j, "sch_fq", "true true false true builtin|null");
	assert_module(j, "sch_fq_codel", "false false false false absent|the "
	    "module index names /lib/modules/6.1/sch_fq_codel.ko, which is not "
	    "there");
	json_decref(j);

	/* The config says m, the file is gone: not loadable either. */
	j = parse_str(HEAD "@kernel_config\nsource=/boot/config-6.1\n"
	    "line=CONFIG_MODULES=y\nline=CONFIG_NET_SCH_FQ=m\n"
	    "line=CONFIG_NET_SCH_FQ_CODEL=m\n@module sch_fq\nsysfs=0\n"
	    "modinfo=/x/sch_fq.ko\nfile=0\n@module sch_fq_codel\nsysfs=1\n"
	    "modinfo=/x/sch_fq_codel.ko\nfile=1\n@end\n");
	assert_str(at(j, "kernel_config", "CONFIG_MODULES", NULL), "y");
	assert_str(at(j, "kernel_config", "CONFIG_NET_SCH_FQ_CODEL", NULL),
	    "m");
	assert_module(j, "sch_fq", "false false false false absent|the module "
	    "index names /x/sch_fq.ko, which is not there");
	assert_module(j, "sch_fq_codel", "false true true true loaded|null");
	/* Absent from the config: no module looked for. */
	assert_module(j, "tcp_bbr", "false false false false absent|null");
	json_decref(j);

	/* No modinfo: the modules directory's lists. */
	j = parse_str(HEAD "@kernel_config\nerror=no config\n"
	    "@module tcp_bbr\nsysfs=0\nmodinfo_error=modinfo not installed\n"
	    "moddir=/lib/modules/6.1/kernel/net/ipv4/tcp_bbr.ko.xz\nfile=1\n"
	    "@module sch_fq\nsysfs=0\nmodinfo_error=modinfo not installed\n"
	    "moddir=(builtin)\n@module sch_fq_codel\nsysfs=0\n"
	    "modinfo_error=modinfo not installed\nmoddir_error=module "
	    "'sch_fq_codel' not in /lib/modules/6.1/modules.dep\n@end\n");
	assert_module(j, "tcp_bbr", "false false true true loadable|null");
	assert_module(j, "sch_fq", "true true false true builtin|null");
	assert_module(j, "sch_fq_codel", "false false false false absent|"
	    "module 'sch_fq_codel' not in /lib/modules/6.1/modules.dep");
	json_decref(j);

	/* Neither modinfo nor a modules directory: unknown. */
	j = parse_str(HEAD "@kernel_config\nerror=no config\n"
	    "@module sch_fq\nsysfs=0\nmodinfo_error=modinfo not installed\n"
	    "moddir_error=no /lib/modules/6.1/modules.dep\n@end\n");
	assert_module(j, "sch_fq", "null false null null unknown|"
	    "no /lib/modules/6.1/modules.dep");
	json_decref(j);
}

static void
test_qdisc_and_route(void **state)
{
	json_t	*j, *q, *c;

	(void)state;
	j = parse_str(HEAD "@route\nfamily=inet6\nline=default via fe80::1 "
	    "dev eth1 proto ra metric 1024 mtu lock 1400 initcwnd lock 32 "
	    "initrwnd 64 pref medium\ninterface=eth1\n@link eth1\n"
	    "qdisc=qdisc mq 0: root\n"
	    "qdisc=qdisc fq_codel 0: parent :2 limit 10240p flows 1024\n"
	    "qdisc=qdisc fq_codel 0: parent :1 limit 10240p flows 1024\n"
	    "qdisc=qdisc ingress ffff: parent ffff:fff1 ----------------\n"
	    "tx_queues=2\n@end\n");
	assert_str(at(j, "default_route", "family", NULL), "inet6");
	assert_str(at(j, "default_route", "gateway", NULL), "fe80::1");
	assert_int_equal(I(at(j, "default_route", "route_mtu", NULL)), 1400);
	assert_int_equal(I(at(j, "default_route", "initcwnd", NULL)), 32);
	assert_int_equal(I(at(j, "default_route", "initrwnd", NULL)), 64);
	q = at(j, "default_route", "qdisc", NULL);
	assert_str(at(q, "kind", NULL), "mq");
	assert_true(json_is_true(at(q, "mq", NULL)));
	assert_int_equal(json_array_size(at(q, "children", NULL)), 2);
	c = json_array_get(at(q, "children", NULL), 1);
	assert_str(at(c, "kind", NULL), "fq_codel");
	assert_str(at(c, "parent", NULL), ":1");
	json_decref(j);
}

/* An unprivileged probe: writability is what root could do. */
static void
test_unprivileged_writability(void **state)
{
	static const char *out = "tcptune-probe 1\n@probe\nuid=1000\n"
	    "@sysctl net.core.rmem_max\npresent=1\nvalue=212992\nw=0\n"
	    "@sysctl net.ipv4.tcp_rmem\npresent=1\nvalue=4096 1 2\nw=0\n"
	    "@sysctl_modes\n"
	    "ls=-r--r--r-- 1 0 0 0 Nov 30 09:47 /proc/sys/net/core/rmem_max\n"
	    "ls=-rw-r--r-- 1 0 0 0 Nov 30 09:47 /proc/sys/net/ipv4/tcp_rmem\n"
	    "@end\n";
	static const char *ro = "tcptune-probe 1\n@probe\nuid=1000\n"
	    "@sysctl net.ipv4.tcp_rmem\npresent=1\nvalue=4096 1 2\nw=0\n"
	    "@sysctl_modes\n"
	    "ls=-rw-r--r-- 1 0 0 0 Nov 30 09:47 /proc/sys/net/ipv4/tcp_rmem\n"
	    "ro_mount=/proc/sys\n@end\n";
	json_t	*j;

	(void)state;
	j = parse_str(out);
	assert_true(json_is_false(at(j, "sysctl", "net.core.rmem_max",
	    "writable", NULL)));
	assert_true(json_is_true(at(j, "sysctl", "net.ipv4.tcp_rmem",
	    "writable", NULL)));
	/* Keys the script did not report at all are unknown. */
	assert_true(json_is_null(at(j, "sysctl", "net.ipv4.tcp_wmem",
	    "present", NULL)));
	json_decref(j);
	j = parse_str(ro);
	assert_true(json_is_false(at(j, "sysctl", "net.ipv4.tcp_rmem",
	    "writable", NULL)));
	assert_true(json_is_true(at(j, "sysctl_readonly_mount", NULL)));
	json_decref(j);
}

/* sysctl.d files from the probe feed the winner of each key. */
static void
test_sysctl_files(void **state)
{
	json_t	*j, *s, *f;

	(void)state;
	j = parse_str(HEAD "@sysctl net.core.rmem_max\npresent=1\n"
	    "value=4194304\nw=1\n"
	    "@sysctl_file /etc/sysctl.d/50-net.conf\ndir=/etc/sysctl.d\n"
	    "line=net/core/rmem_max = 1000\nline=bogus\n"
	    "@sysctl_file /usr/lib/sysctl.d/50-net.conf\n"
	    "dir=/usr/lib/sysctl.d\nline=net.core.rmem_max = 5\n"
	    "@sysctl_file /usr/lib/sysctl.d/90-z.conf\ndir=/usr/lib/sysctl.d\n"
	    "line=-net.core.rmem_max=16777216\n"
	    "@sysctl_file /etc/sysctl.conf\ndir=\n@end\n");
	s = at(j, "sysctl", "net.core.rmem_max", NULL);
	assert_str(at(s, "file", NULL), "/usr/lib/sysctl.d/90-z.conf");
	assert_str(at(s, "file_value", NULL), "16777216");
	f = json_array_get(at(j, "sysctl_files", NULL), 0);
	assert_str(at(json_array_get(at(f, "entries", NULL), 0), "key", NULL),
	    "net.core.rmem_max");
	assert_int_equal(json_array_size(at(f, "errors", NULL)), 1);
	f = json_array_get(at(j, "sysctl_files", NULL), 1);
	assert_str(at(f, "masked_by", NULL), "/etc/sysctl.d/50-net.conf");
	assert_true(json_is_true(at(json_array_get(at(json_array_get(at(j,
	    "sysctl_files", NULL), 2), "entries", NULL), 0), "ignore_errors",
	    NULL)));
	assert_int_equal(json_array_size(at(j, "sysctl_order", NULL)), 3);
	assert_true(json_is_null(at(j, "sysctl", "net.ipv4.tcp_rmem", "file",
	    NULL)));
	json_decref(j);
}

static void
test_format_errors(void **state)
{
	static const struct {
		const char	*out;
		const char	*cause;
	} cases[] = {
		{ "", "not probe output" },
		{ "Welcome to host!\ntcptune-probe 1\n@end\n",
		  "not probe output" },
		{ "tcptune-probe 2\n@end\n", "format 'tcptune-probe 2'" },
		{ "tcptune-probe 1\n@system\nrelease=6.1\n", "cut short" },
		{ "tcptune-probe 1\n@system\nrelease 6.1\n@end\n",
		  "bad line 3" },
		{ "tcptune-probe 1\n@system\nRelease=6.1\n@end\n",
		  "bad line 3" },
		{ "tcptune-probe 1\n@end\nrelease=6.1\n", "after '@end'" },
	};
	char	*cause;
	size_t	 i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		cause = NULL;
		assert_null(probe_parse(cases[i].out, strlen(cases[i].out),
		    &cause));
		assert_non_null(cause);
		if (strstr(cause, cases[i].cause) == NULL)
			fail_msg("case %zu: '%s' lacks '%s'", i, cause,
			    cases[i].cause);
		free(cause);
	}
}

static void
test_escaping(void **state)
{
	json_t	*j;

	(void)state;
	/* "\\" is one backslash, "\n" a newline; '=' and tabs are plain. */
	j = parse_str(HEAD "@system\nversion=#1 a\\\\b\\nc=d\te\n"
	    "hostname=\xff\xfeweird\n@end\n");
	assert_str(at(j, "kernel", "version", NULL), "#1 a\\b\nc=d\te");
	/* Bytes that are not UTF-8 are replaced, not fatal. */
	assert_str(at(j, "hostname", NULL), "??weird");
	json_decref(j);
}

/* The drop-in shown whole: its lines joined again, the last one without
 * its newline when the file had none; absent; unreadable; not asked. */
static void
test_dropin(void **state)
{
	json_t *j;

	(void)state;
	j = parse_str(HEAD "@dropin /etc/sysctl.d/90-tcptune.conf\nexists=1\n"
	    "line=# managed\nline=\nline=a = b\\\\c\nline=x=1\n"
	    "no_newline=1\n@end\n");
	assert_str(at(j, "dropin", "path", NULL),
	    "/etc/sysctl.d/90-tcptune.conf");
	assert_true(json_is_true(at(j, "dropin", "exists", NULL)));
	assert_str(at(j, "dropin", "text", NULL), "# managed\n\na = b\\c\nx=1");
	json_decref(j);
	j = parse_str(HEAD "@dropin /x.conf\nexists=0\n@end\n");
	assert_true(json_is_false(at(j, "dropin", "exists", NULL)));
	assert_true(json_is_null(at(j, "dropin", "text", NULL)));
	json_decref(j);
	j = parse_str(HEAD "@dropin /x.conf\nerror=cannot read /x.conf\n@end\n");
	assert_str(at(j, "dropin", "error", NULL), "cannot read /x.conf");
	assert_null(json_object_get(at(j, "dropin", NULL), "exists"));
	json_decref(j);
	j = parse_str(HEAD "@end\n");
	assert_null(json_object_get(j, "dropin"));
	json_decref(j);
}

/* The targets are one value, each target one quoted word in it; the
 * values are environment assignments, the program comes on stdin. */
static void
test_command(void **state)
{
	const char *const	 targets[] = { "198.18.0.2", "a'b c", "" };
	struct strbuf		 want;
	const char		*program;
	char			*cmd;
	size_t			 len;

	(void)state;
	cmd = probe_command(targets, 3);
	strbuf_init(&want);
	strbuf_addstr(&want, "env TCPTUNE_TEST_ROOT= TARGETS=");
	shquote_add(&want, "'198.18.0.2' 'a'\\''b c' ''");
	strbuf_addstr(&want, " ONLY='' DROPIN='' LINKS='' sh -s");
	assert_string_equal(cmd, want.buf);
	strbuf_release(&want);
	free(cmd);
	cmd = probe_command(NULL, 0);
	assert_string_equal(cmd, "env TCPTUNE_TEST_ROOT= TARGETS='' ONLY='' "
	    "DROPIN='' LINKS='' sh -s");
	free(cmd);
	cmd = probe_command_dropin(NULL, 0, "/etc/sysctl.d/9 x'.conf");
	assert_string_equal(cmd, "env TCPTUNE_TEST_ROOT= TARGETS='' ONLY='' "
	    "DROPIN='/etc/sysctl.d/9 x'\\''.conf' LINKS='' sh -s");
	free(cmd);
	assert_non_null(strstr(probe_script(), "tcptune-probe 1"));
	/* stdin: the prelude, then the script; one copy for every call */
	program = probe_stdin(&len);
	assert_int_equal(len, strlen(program));
	/* One brace group: cut short, it runs nothing. */
	assert_int_equal(strncmp(program, "{\n", 2), 0);
	assert_ptr_equal(strstr(program, embedded_prelude_sh), program + 2);
	/* Embedded without comment and blank lines (cmake/embed.cmake):
	 * half the bytes every host is sent and its shell parses. */
	assert_null(strstr(program, "\n#"));
	assert_null(strstr(probe_script(), "\n\n"));
	assert_non_null(strstr(program, "\nprobe_sysctl\n"));
	assert_string_equal(program + len - 3, "\n}\n");
	assert_non_null(strstr(program, probe_script()));
	assert_ptr_equal(probe_stdin(&len), program);
}

/* Run cmd with popen, its standard output into sb (initialised here);
 * return pclose's status. */
static int
run_cmd(const char *cmd, struct strbuf *sb)
{
	FILE	*p;
	char	 buf[4096];
	size_t	 n;

	p = popen(cmd, "r");
	assert_non_null(p);
	strbuf_init(sb);
	while ((n = fread(buf, 1, sizeof buf, p)) > 0)
		strbuf_add(sb, buf, n);
	return pclose(p);
}

/* The embedded script run for real by dash and by bash on this machine
 * (read-only: it changes nothing), parsed, and checked against what this
 * process sees. */
static void
run_live(const char *shell)
{
	struct utsname	 u;
	struct strbuf	 sb;
	json_t		*j;
	FILE		*f;
	const char	*program;
	char		*probe, *cmd, *path, *cause = NULL, *dropin;
	size_t		 len;
	int		 status;
	/* A drop-in with what a hand edit leaves: blanks kept, a
	 * backslash, an empty line, no newline at the end. */
	static const char text[] = "# tcptune\n  net.core.rmem_max = 1 \n"
	    "\n-a.b=c\\d\tx\nlast=1";

	dropin = tprintf("/tmp/tcptune-probe-dropin-%d", (int)getpid());
	f = fopen(dropin, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, strlen(text), f), strlen(text));
	fclose(f);
	/* The command itself, its shell the one asked for, the program on
	 * its standard input as tcptune sends it. */
	probe = probe_command_dropin(NULL, 0, dropin);
	assert_int_equal(strcmp(probe + strlen(probe) - 6, " sh -s"), 0);
	probe[strlen(probe) - 6] = '\0';
	program = probe_stdin(&len);
	path = tprintf("/tmp/tcptune-probe-live-%d", (int)getpid());
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(program, 1, len, f), len);
	fclose(f);
	cmd = tprintf("%s %s -s <%s", probe, shell, path);
	free(probe);
	status = run_cmd(cmd, &sb);
	free(cmd);
	unlink(path);
	free(path);
	assert_int_equal(status, 0);

	j = probe_parse(sb.buf, sb.len, &cause);
	if (j == NULL)
		fail_msg("%s: %s", shell, cause);
	assert_int_equal(uname(&u), 0);
	assert_str(at(j, "kernel", "release", NULL), u.release);
	assert_str(at(j, "kernel", "machine", NULL), u.machine);
	assert_str(at(j, "hostname", NULL), u.nodename);
	assert_true(json_is_boolean(at(j, "sysctl", "net.ipv4.tcp_rmem",
	    "present", NULL)));
	assert_int_equal(json_object_size(at(j, "rtt", NULL)), 0);
	assert_str(at(j, "dropin", "path", NULL), dropin);
	assert_str(at(j, "dropin", "text", NULL), text);
	unlink(dropin);
	free(dropin);
	json_decref(j);
	strbuf_release(&sb);
}

static void
test_live_dash(void **state)
{
	(void)state;
	if (system("command -v dash >/dev/null 2>&1") != 0)
		skip();
	run_live("dash");
}

static void
test_live_bash(void **state)
{
	(void)state;
	run_live("bash");
}

/* ---- the script in a private mount namespace (root only): /boot, /proc's
 * config.gz and the tools hidden or replaced, as on the guests, without
 * touching this machine's own files. */

/* Run the embedded script with shell after prep (sh commands run as root
 * in a new mount namespace; $R is the kernel release, $T a temporary
 * directory, $TCPTUNE_TEST_ROOT is $T/root). Return the parsed facts, or
 * NULL when prep exits 77 (what it needs is not here). Skips the test when
 * not root or without unshare(1). */
static json_t *
run_in_namespace(const char *shell, const char *prep)
{
	struct strbuf	 sb;
	json_t		*j;
	FILE		*script;
	char		 dir[] = "/tmp/tcptune-probe-ns-XXXXXX", *path, *cmd;
	char		*program;
	char		*cause = NULL;
	int		 status;

	if (geteuid() != 0 || system("unshare -m true 2>/dev/null") != 0)
		skip();
	assert_non_null(mkdtemp(dir));
	path = tprintf("%s/probe.sh", dir);
	script = fopen(path, "w");
	assert_non_null(script);
	program = probe_program(PROBE_ALL, NULL);
	fputs(program, script);
	free(program);
	fclose(script);
	free(path);
	path = tprintf("%s/root", dir);
	assert_int_equal(setenv("TCPTUNE_TEST_ROOT", path, 1), 0);
	assert_int_equal(setenv("T", dir, 1), 0);
	assert_int_equal(setenv("TGP_PREP", prep, 1), 0);
	free(path);
	cmd = tprintf("unshare -m --propagation private sh -ec 'R=$(uname -r); "
	    "mkdir -p \"$TCPTUNE_TEST_ROOT/bin\"; eval \"$TGP_PREP\"; "
	    "exec %s -c \"$(cat \"$T/probe.sh\")\" tcptune-probe'", shell);
	status = run_cmd(cmd, &sb);
	free(cmd);
	unsetenv("TGP_PREP");
	unsetenv("T");
	unsetenv("TCPTUNE_TEST_ROOT");
	cmd = tprintf("rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 77) {
		strbuf_release(&sb);
		return NULL;
	}
	assert_int_equal(status, 0);
	j = probe_parse(sb.buf, sb.len, &cause);
	if (j == NULL)
		fail_msg("%s: %s", shell, cause);
	strbuf_release(&sb);
	return j;
}

/* The kernel release, for the paths the script builds from it. */
static const char *
release(void)
{
	static struct utsname	u;

	assert_int_equal(uname(&u), 0);
	return u.release;
}

/* /proc/config.gz (where this kernel has one) becomes an empty file. */
#define HIDE_CONFIG_GZ \
	"if [ -e /proc/config.gz ]; then : >\"$T/empty\"; " \
	"mount --bind \"$T/empty\" /proc/config.gz; fi; "
/* /boot becomes an empty tmpfs with an empty config-RELEASE, as a bind
 * mount of /dev/null over it makes it. */
#define EMPTY_BOOT_CONFIG \
	"mount -t tmpfs tgp /boot; : >\"/boot/config-$R\"; "

/* A file that is there but empty is no config: the probe read it as one
 * with every option absent, so a kernel whose sch_fq loads was "a kernel
 * with no fq" (found on the guests with the config hidden by a bind mount
 * of /dev/null). The module index (modinfo) decides instead. */
static void
run_no_config(const char *shell)
{
	json_t	*j;
	char	*want;
	int	 gz = access("/proc/config.gz", F_OK) == 0;

	j = run_in_namespace(shell, HIDE_CONFIG_GZ EMPTY_BOOT_CONFIG
	    ": >\"$T/sch_fq_codel.ko\"; "
	    "printf '#!/bin/sh\\ncase $3 in\\nsch_fq_codel) echo %s ;;\\n"
	    "sch_fq) echo /nonexistent/sch_fq.ko ;;\\n"
	    "tcp_bbr) echo \"(builtin)\" ;;\\n"
	    "*) exit 1 ;;\\nesac\\n' \"$T/sch_fq_codel.ko\" "
	    ">\"$TCPTUNE_TEST_ROOT/bin/modinfo\"; "
	    "chmod +x \"$TCPTUNE_TEST_ROOT/bin/modinfo\"");
	assert_true(json_is_null(at(j, "kernel_config", "source", NULL)));
	want = tprintf("%s/boot/config-%s is not a kernel config (no "
	    "CONFIG_MODULES line)", gz ? "/proc/config.gz does not decompress "
	    "to a kernel config; " : "", release());
	assert_str(at(j, "kernel_config", "reason", NULL), want);
	free(want);
	assert_str(at(j, "kernel_config", "CONFIG_NET_SCH_FQ", NULL),
	    "unknown");
	assert_module(j, "tcp_bbr", "true true false true builtin|null");
	assert_module(j, "sch_fq", "false false false false absent|the module "
	    "index names /nonexistent/sch_fq.ko, which is not there");
	assert_module(j, "sch_fq_codel", "false false true true loadable|null");
	json_decref(j);
}

static void
test_ns_no_config_dash(void **state)
{
	(void)state;
	if (system("command -v dash >/dev/null 2>&1") != 0)
		skip();
	run_no_config("dash");
}

static void
test_ns_no_config_bash(void **state)
{
	(void)state;
	run_no_config("bash");
}

/* /proc/config.gz is the running kernel's own config and comes before a
 * /boot file of the same release name (it was the other way round). */
static void
test_ns_config_gz_first(void **state)
{
	json_t	*j;
	FILE	*p;
	char	*want;
	char	 line[256] = "";

	(void)state;
	/* The /boot file says bbr is a module, with no config.gz. */
	j = run_in_namespace("sh", HIDE_CONFIG_GZ "mount -t tmpfs tgp /boot; "
	    "printf 'CONFIG_MODULES=y\\nCONFIG_TCP_CONG_BBR=m\\n' "
	    ">\"/boot/config-$R\"");
	want = tprintf("/boot/config-%s", release());
	assert_str(at(j, "kernel_config", "source", NULL), want);
	free(want);
	assert_str(at(j, "kernel_config", "CONFIG_TCP_CONG_BBR", NULL), "m");
	assert_str(at(j, "kernel_config", "CONFIG_NET_SCH_FQ", NULL), "absent");
	json_decref(j);

	/* With this kernel's config.gz (if it has one and it is a config). */
	p = popen("zcat /proc/config.gz 2>/dev/null | grep -E "
	    "'^(# )?CONFIG_MODULES[= ]' >/dev/null && zcat /proc/config.gz | "
	    "grep -E '^CONFIG_TCP_CONG_BBR=' | cut -d= -f2", "r");
	assert_non_null(p);
	if (fgets(line, sizeof line, p) == NULL)
		strcpy(line, "absent");
	line[strcspn(line, "\n")] = '\0';
	if (pclose(p) != 0)
		skip();
	j = run_in_namespace("sh", "mount -t tmpfs tgp /boot; "
	    "printf 'CONFIG_MODULES=y\\nCONFIG_TCP_CONG_BBR=m\\n' "
	    ">\"/boot/config-$R\"");
	assert_str(at(j, "kernel_config", "source", NULL), "/proc/config.gz");
	assert_str(at(j, "kernel_config", "CONFIG_TCP_CONG_BBR", NULL),
	    strcmp(line, "y") == 0 || strcmp(line, "m") == 0 ? line :
	    "absent");
	json_decref(j);
}

/* Without modinfo, the modules directory's lists (modules.builtin,
 * modules.dep) and the files decide. modinfo is hidden by a tmpfs over its
 * sbin directory holding links to everything else. */
static void
test_ns_no_modinfo(void **state)
{
	json_t	*j;
	char	*want, *got;

	(void)state;
	j = run_in_namespace("sh", HIDE_CONFIG_GZ EMPTY_BOOT_CONFIG
	    "d=$(dirname \"$(command -v modinfo)\"); "
	    "case $d in /usr/sbin|/sbin|/usr/local/sbin) ;; *) exit 77 ;; esac; "
	    "mkdir -p \"$T/real\"; mount --bind \"$d\" \"$T/real\"; "
	    "mount -t tmpfs tgp \"$d\"; "
	    "for f in \"$T\"/real/*; do [ \"${f##*/}\" = modinfo ] || "
	    "ln -s \"$f\" \"$d/\"; done; "
	    "! command -v modinfo >/dev/null || exit 77; "
	    "m=$TCPTUNE_TEST_ROOT/lib/modules/$R; "
	    "mkdir -p \"$m/kernel/net/sched\"; "
	    ": >\"$m/kernel/net/sched/sch_fq_codel.ko.xz\"; "
	    "printf 'kernel/net/sched/sch_fq_codel.ko.xz:\\n"
	    "kernel/net/sched/sch_fq.ko: kernel/x.ko\\n' >\"$m/modules.dep\"; "
	    "printf 'kernel/net/ipv4/tcp_bbr.ko\\n' >\"$m/modules.builtin\"");
	if (j == NULL)
		skip();
	assert_module(j, "tcp_bbr", "true true false true builtin|null");
	assert_module(j, "sch_fq_codel", "false false true true loadable|null");
	/* The reason names the file under the (gone) test root. */
	want = tprintf("/lib/modules/%s/kernel/net/sched/sch_fq.ko, which is "
	    "not there", release());
	got = module_line(j, "sch_fq");
	if (strncmp(got, "false false false false absent|the module index "
	    "names /tmp/tcptune-probe-ns-", 60) != 0 ||
	    strlen(got) < strlen(want) ||
	    strcmp(got + strlen(got) - strlen(want), want) != 0)
		fail_msg("sch_fq: got '%s'", got);
	free(got);
	free(want);
	json_decref(j);
}

/* Many sysctl.d files (shared/bugs/fuzz/gen-large.py's
 * probe-10000-files.out, doubled): masks and order were worked out file by
 * file against every file, for every key (10,000: 40 s, 20,000: 113 s);
 * now sorted once. Every second file is masked by a same-named one in
 * /etc/sysctl.d. */
static void
test_many_sysctl_files(void **state)
{
	struct strbuf	 sb;
	json_t		*facts, *files, *order;
	char		*cause = NULL;
	clock_t		 t0;
	double		 secs;
	int		 i;

	(void)state;
	strbuf_init(&sb);
	strbuf_addstr(&sb, "tcptune-probe 1\n");
	for (i = 0; i < 20000; i++)
		strbuf_addf(&sb, "@sysctl_file %s/%07d.conf\ndir=%s\n"
		    "line=net.core.k%d = %d\n", i % 2 ? "/usr/lib/sysctl.d" :
		    "/etc/sysctl.d", i / 2, i % 2 ? "/usr/lib/sysctl.d" :
		    "/etc/sysctl.d", i, i);
	strbuf_addstr(&sb, "@end\n");
	t0 = clock();
	facts = probe_parse(sb.buf, sb.len, &cause);
	secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
	assert_non_null(facts);
	assert_true(secs < 5);
	files = json_object_get(facts, "sysctl_files");
	assert_int_equal(json_array_size(files), 20000);
	assert_true(json_is_null(json_object_get(json_array_get(files, 0),
	    "masked_by")));
	assert_string_equal(json_string_value(json_object_get(
	    json_array_get(files, 19999), "masked_by")),
	    "/etc/sysctl.d/0009999.conf");
	order = json_object_get(facts, "sysctl_order");
	assert_int_equal(json_array_size(order), 10000);
	assert_string_equal(json_string_value(json_array_get(order, 9999)),
	    "/etc/sysctl.d/0009999.conf");
	json_decref(facts);
	strbuf_release(&sb);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_root_namespace),
		cmocka_unit_test(test_child_namespace),
		cmocka_unit_test(test_rtt_tcp_fallback),
		cmocka_unit_test(test_speed),
		cmocka_unit_test(test_missing_tools),
		cmocka_unit_test(test_no_default_route),
		cmocka_unit_test(test_no_kernel_config),
		cmocka_unit_test(test_sysctl_systemd),
		cmocka_unit_test(test_module_states),
		cmocka_unit_test(test_qdisc_and_route),
		cmocka_unit_test(test_unprivileged_writability),
		cmocka_unit_test(test_sysctl_files),
		cmocka_unit_test(test_format_errors),
		cmocka_unit_test(test_escaping),
		cmocka_unit_test(test_command),
		cmocka_unit_test(test_live_dash),
		cmocka_unit_test(test_live_bash),
		cmocka_unit_test(test_ns_no_config_dash),
		cmocka_unit_test(test_ns_no_config_bash),
		cmocka_unit_test(test_ns_config_gz_first),
		cmocka_unit_test(test_ns_no_modinfo),
		cmocka_unit_test(test_many_sysctl_files),
		cmocka_unit_test(test_dropin),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
