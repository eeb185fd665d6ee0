/* Ansible's network facts (ansible-net.h) as ansible-core 2.14's
 * network/linux.py computes them (LinuxNetwork.populate), from the
 * probe's raw inputs (probe.c's setup_raw): `ip -o addr show` in place of
 * its `ip addr show primary dev IF` and `ip addr show secondary dev IF`
 * per interface, the sysfs files it reads, its two route gets. */
#include "remote/ansible-net.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "remote/probe.h"

/* Ansible 2.14's IPv6 route get address (probe.sh's V6Q). */
#define V6Q	"2404:6800:400a:800::1012"

static const char *
str(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

/* The state populate() keeps while it reads each interface. */
struct net {
	json_t		*ifs;		/* name -> facts, in insertion order */
	json_t		*all4, *all6;
	json_t		*d4, *d6;	/* default_ipv4, default_ipv6 */
	const char	*mac;		/* the last macaddress read (a Python
					 * variable that outlives its loop) */
};

/* get_default_interfaces: the route get line for address q ("" or NULL:
 * none) into d, when it starts with q. */
static void
route_get(const char *line, const char *q, json_t *d)
{
	char	**w;
	size_t	  n, i;

	w = probe_words(line, &n);
	for (i = 0; n > 0 && strcmp(w[0], q) == 0 && i + 1 < n; i++) {
		if (strcmp(w[i], "dev") == 0)
			json_object_set_new(d, "interface", json_string(w[i + 1]));
		else if (strcmp(w[i], "src") == 0)
			json_object_set_new(d, "address", json_string(w[i + 1]));
		else if (strcmp(w[i], "via") == 0 && strcmp(w[i + 1], q) != 0)
			json_object_set_new(d, "gateway", json_string(w[i + 1]));
	}
	probe_words_free(w);
}

/* INTERFACE_TYPE of linux.py. */
static const char *
if_type(const char *t)
{
	static const char *const map[][2] = { { "1", "ether" },
	    { "32", "infiniband" }, { "512", "ppp" }, { "772", "loopback" },
	    { "65534", "tunnel" } };
	size_t i;

	for (i = 0; i < sizeof map / sizeof *map; i++) {
		if (strcmp(map[i][0], t) == 0)
			return map[i][1];
	}
	return "unknown";
}

/* The first word of s ("" for none), as Python's s.split()[0] would be
 * (which fails where this gives ""). */
static json_t *
first_word(const char *s)
{
	char	**w = probe_words(s, NULL);
	json_t	 *j = json_string(w[0] != NULL ? w[0] : "");

	probe_words_free(w);
	return j;
}

static json_t *
word_list(const char *s)
{
	char	**w = probe_words(s, NULL);
	json_t	 *a = json_array();
	size_t	  i;

	for (i = 0; w[i] != NULL; i++)
		json_array_append_new(a, json_string(w[i]));
	probe_words_free(w);
	return a;
}

/* The sysfs part of get_interfaces_info for one device (nd: its @netdev
 * keys). */
static json_t *
sysfs_facts(struct net *st, const char *dev, const json_t *nd)
{
	json_t		*o = json_object();
	const char	*v;

	json_object_set_new(o, "device", json_string(dev));
	if ((v = str(nd, "address")) != NULL) {
		st->mac = v;
		if (*v != '\0' && strcmp(v, "00:00:00:00:00:00") != 0)
			json_object_set_new(o, "macaddress", json_string(v));
	}
	if ((v = str(nd, "mtu")) != NULL)
		json_object_set_new(o, "mtu", json_integer(atoll(v)));
	if ((v = str(nd, "operstate")) != NULL)
		json_object_set_new(o, "active", json_boolean(strcmp(v,
		    "down") != 0));
	if ((v = str(nd, "module")) != NULL)
		json_object_set_new(o, "module", json_string(v));
	if ((v = str(nd, "type")) != NULL)
		json_object_set_new(o, "type", json_string(if_type(v)));
	if (str(nd, "bridge") != NULL) {
		json_object_set_new(o, "type", json_string("bridge"));
		json_object_set(o, "interfaces", json_object_get(nd, "brif"));
		if ((v = str(nd, "bridge_bridge_id")) != NULL)
			json_object_set_new(o, "id", json_string(v));
		if ((v = str(nd, "bridge_stp_state")) != NULL)
			json_object_set_new(o, "stp", json_boolean(strcmp(v,
			    "1") == 0));
	}
	if (str(nd, "bonding") != NULL) {
		json_object_set_new(o, "type", json_string("bonding"));
		v = str(nd, "bonding_slaves");
		json_object_set_new(o, "slaves", word_list(v != NULL ? v : ""));
		json_object_set_new(o, "mode", first_word(str(nd,
		    "bonding_mode")));
		json_object_set_new(o, "miimon", first_word(str(nd,
		    "bonding_miimon")));
		json_object_set_new(o, "lacp_rate", first_word(str(nd,
		    "bonding_lacp_rate")));
		if ((v = str(nd, "bonding_primary")) != NULL && *v != '\0') {
			json_object_set_new(o, "primary", json_string(v));
			if ((v = str(nd, "bonding_all_slaves_active")) != NULL)
				json_object_set_new(o, "all_slaves_active",
				    json_boolean(strcmp(v, "1") == 0));
		}
	}
	if ((v = str(nd, "bonding_slave_perm_hwaddr")) != NULL)
		json_object_set_new(o, "perm_macaddress", json_string(v));
	if ((v = str(nd, "pciid")) != NULL)
		json_object_set_new(o, "pciid", json_string(v));
	if ((v = str(nd, "speed")) != NULL)
		json_object_set_new(o, "speed", json_integer(atoll(v)));
	if ((v = str(nd, "flags")) != NULL)
		json_object_set_new(o, "promisc", json_boolean(
		    (strtoul(v, NULL, 16) & 0x100) != 0));
	return o;
}

/* A dotted quad to a number (0 with *ok 0 for anything else). */
static uint32_t
ipv4_bin(const char *s, int *ok)
{
	unsigned	a, b, c, d;
	char		end;

	*ok = sscanf(s, "%u.%u.%u.%u%c", &a, &b, &c, &d, &end) == 4 &&
	    a < 256 && b < 256 && c < 256 && d < 256;
	return *ok ? (uint32_t)a << 24 | b << 16 | c << 8 | d : 0;
}

static json_t *
ipv4_text(uint32_t v)
{
	char buf[16];

	snprintf(buf, sizeof buf, "%u.%u.%u.%u", v >> 24, v >> 16 & 255,
	    v >> 8 & 255, v & 255);
	return json_string(buf);
}

/* One inet line's dict: address, broadcast, netmask, network, prefix. */
static json_t *
inet_dict(char **w, size_t n)
{
	char		*addr, *slash, *len;
	const char	*brd = "";
	uint32_t	 a, mask;
	int		 ok, plen;
	json_t		*d;

	addr = xstrdup(w[1]);
	if ((slash = strchr(addr, '/')) != NULL) {
		*slash = '\0';
		len = slash + 1;
		if (n > 3 && strcmp(w[2], "brd") == 0)
			brd = w[3];
	} else
		len = "32";	/* pointopoint: no prefix */
	plen = atoi(len);
	a = ipv4_bin(addr, &ok);
	mask = plen <= 0 ? 0 : plen >= 32 ? 0xffffffffu :
	    0xffffffffu << (32 - plen);
	d = json_pack("{s:s, s:s, s:o, s:o, s:s}", "address", addr,
	    "broadcast", brd, "netmask", ipv4_text(mask), "network",
	    ipv4_text(a & mask), "prefix", len);
	free(addr);
	return d;
}

static void
list_add(json_t *o, const char *key, json_t *v)
{
	json_t *a = json_object_get(o, key);

	if (a == NULL) {
		a = json_array();
		json_object_set_new(o, key, a);
	}
	if (v != NULL)
		json_array_append_new(a, v);
}

/* What the default route's address takes from its interface. */
static void
default_update(struct net *st, json_t *d, const char *dev)
{
	const json_t	*o = json_object_get(st->ifs, dev);
	const char	*t = str(o, "type");

	json_object_set_new(d, "macaddress", st->mac != NULL ?
	    json_string(st->mac) : json_null());
	if (json_object_get(o, "mtu") != NULL)
		json_object_set(d, "mtu", json_object_get(o, "mtu"));
	json_object_set_new(d, "type", json_string(t != NULL ? t :
	    "unknown"));
}

/* parse_ip_output for one `ip addr show` line of dev (its words from
 * "inet"/"inet6" on). */
static void
parse_ip_line(struct net *st, const char *dev, char **w, size_t n,
    int secondary)
{
	json_t		*o, *d, *dv = json_object_get(st->ifs, dev);
	const char	*iface, *addr, *prefix, *scope;
	char		*a6;

	if (strcmp(w[0], "inet") == 0 && n >= 2) {
		iface = w[n - 1];
		d = inet_dict(w, n);
		if (strcmp(iface, dev) != 0)
			json_object_set_new(st->ifs, iface, json_object());
		o = json_object_get(st->ifs, iface);
		if (!secondary && json_object_get(o, "ipv4") == NULL)
			json_object_set(o, "ipv4", d);
		else
			list_add(o, "ipv4_secondaries", json_copy(d));
		if (secondary) {
			list_add(dv, "ipv4_secondaries", NULL);
			if (strcmp(dev, iface) != 0)
				list_add(dv, "ipv4_secondaries", json_copy(d));
		}
		addr = str(d, "address");
		if (str(st->d4, "address") != NULL &&
		    strcmp(str(st->d4, "address"), addr) == 0) {
			json_object_update(st->d4, d);
			default_update(st, st->d4, dev);
			json_object_set_new(st->d4, "alias", json_string(iface));
		}
		if (strncmp(addr, "127.", 4) != 0)
			json_array_append_new(st->all4, json_string(addr));
		json_decref(d);
	} else if (strcmp(w[0], "inet6") == 0 && n >= 4) {
		if (strcmp(w[2], "peer") == 0 && n >= 6) {
			a6 = xstrdup(w[1]);
			prefix = strchr(w[3], '/') != NULL ?
			    strchr(w[3], '/') + 1 : "";
			scope = w[5];
		} else {
			a6 = xstrndup(w[1], strcspn(w[1], "/"));
			prefix = strchr(w[1], '/') != NULL ?
			    strchr(w[1], '/') + 1 : "";
			scope = w[3];
		}
		list_add(dv, "ipv6", json_pack("{s:s, s:s, s:s}", "address", a6,
		    "prefix", prefix, "scope", scope));
		if (str(st->d6, "address") != NULL &&
		    strcmp(str(st->d6, "address"), a6) == 0) {
			json_object_set_new(st->d6, "prefix", json_string(prefix));
			json_object_set_new(st->d6, "scope", json_string(scope));
			default_update(st, st->d6, dev);
		}
		if (strcmp(a6, "::1") != 0)
			json_array_append_new(st->all6, json_string(a6));
		free(a6);
	}
}

/* The address lines of dev: the primary ones (`ip addr show primary`),
 * or the secondary and IPv6 temporary ones (IFA_F_SECONDARY, which
 * `ip addr show secondary` selects). An -o line: "2: eth0    inet
 * ADDR/24 ... LABEL\    valid_lft ...". */
static void
device_addrs(struct net *st, const char *dev, const json_t *addrs,
    int secondary)
{
	const json_t	*l;
	size_t		 i, n, k;
	char		*line, **w;
	int		 sec;

	json_array_foreach(addrs, i, l) {
		line = xstrndup(json_string_value(l),
		    strcspn(json_string_value(l), "\\"));
		w = probe_words(line, &n);
		if (n >= 4 && strcmp(w[1], dev) == 0) {
			for (sec = 0, k = 2; k < n; k++)
				sec |= strcmp(w[k], "secondary") == 0 ||
				    strcmp(w[k], "temporary") == 0;
			if (sec == secondary)
				parse_ip_line(st, dev, w + 2, n - 2, secondary);
		}
		probe_words_free(w);
		free(line);
	}
}

/* name with ':' as '_' (labels such as eth0:1: the interfaces list),
 * and '-' too (fact names: the facts' namespace, br-1 is br_1) */
static char *
iface_key(const char *name, int fact)
{
	char *k = xstrdup(name), *p;

	for (p = k; *p != '\0'; p++) {
		if (*p == ':' || (fact && *p == '-'))
			*p = '_';
	}
	return k;
}

void
ansible_net_facts(const json_t *facts, json_t *out)
{
	const json_t	*raw = json_object_get(facts, "setup_raw");
	const json_t	*names = json_object_get(facts, "interface_names");
	const json_t	*addrs = json_object_get(raw, "addrs"), *v;
	struct net	 st;
	json_t		*list, *o;
	const char	*key, *dev;
	char		*k;
	size_t		 i;

	/* without ip, setup's network collector gives nothing */
	if (!json_is_true(json_object_get(raw, "ip")))
		return;
	memset(&st, 0, sizeof st);
	st.ifs = json_object();
	st.all4 = json_array();
	st.all6 = json_array();
	st.d4 = json_object();
	st.d6 = json_object();
	if (str(raw, "get4") != NULL)
		route_get(str(raw, "get4"), "8.8.8.8", st.d4);
	if (str(raw, "get6") != NULL)
		route_get(str(raw, "get6"), V6Q, st.d6);
	json_array_foreach(names, i, v) {
		dev = json_string_value(v);
		json_object_set_new(st.ifs, dev, sysfs_facts(&st, dev,
		    json_object_get(json_object_get(raw, "netdevs"), dev)));
		device_addrs(&st, dev, addrs, 0);
		device_addrs(&st, dev, addrs, 1);
	}
	list = json_array();
	json_object_foreach(st.ifs, key, o) {
		k = iface_key(key, 0);
		json_array_append_new(list, json_string(k));
		free(k);
		k = iface_key(key, 1);
		json_object_set(out, k, o);
		free(k);
	}
	json_object_set_new(out, "interfaces", list);
	json_object_set_new(out, "default_ipv4", st.d4);
	json_object_set_new(out, "default_ipv6", st.d6);
	json_object_set_new(out, "all_ipv4_addresses", st.all4);
	json_object_set_new(out, "all_ipv6_addresses", st.all6);
	json_decref(st.ifs);
}
