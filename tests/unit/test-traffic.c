/* The interfaces that carry a host's traffic (lib/remote/traffic.h) and the
 * live qdisc planned for each (lib/remote/qdisc-plan.h), from probe output
 * through the real parser: `ip -o route get` lines as a 6.1 kernel prints
 * them (a second NIC to the peers, a policy rule's table, a local address,
 * no route), a multiqueue interface's mq tree, no default route. */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "remote/probe.h"
#include "remote/qdisc-plan.h"
#include "remote/traffic.h"
#include "base/strbuf.h"

#define HEAD	"tcptune-probe 1\n@probe\nuid=0\n"
/* The controller's network on eth0 with the default route. */
#define DEFAULT	"@route\nfamily=inet\nline=default via 198.18.220.1 dev eth0 " \
	"proto static\ninterface=eth0\n"
#define ETH0_FQ_CODEL	"@link eth0\nmtu=1500\ntx_queues=1\n" \
	"qdisc=qdisc fq_codel 0: root refcnt 2 limit 10240p flows 1024\n"
#define ETH0_FQ	"@link eth0\nmtu=1500\ntx_queues=1\n" \
	"qdisc=qdisc fq 8001: root refcnt 2 limit 10000p\n"
#define ETH1_FQ_CODEL	"@link eth1\nmtu=1460\ntx_queues=1\n" \
	"qdisc=qdisc fq_codel 0: root refcnt 2 limit 10240p flows 1024\n"
/* As a multiqueue NIC boots: mq 0: with one fq_codel per queue. */
#define ETH1_MQ	"@link eth1\nmtu=1460\ntx_queues=2\n" \
	"qdisc=qdisc mq 0: root\n" \
	"qdisc=qdisc fq_codel 0: parent :2 limit 10240p flows 1024\n" \
	"qdisc=qdisc fq_codel 0: parent :1 limit 10240p flows 1024\n"
/* Two peers on the private network of eth1, one through the default. */
#define VIA_EU	"@via 198.19.220.12\nfirst=198.19.220.12 dev eth1 src " \
	"198.19.220.11 uid 0 \\ cache\nline=198.19.220.12 from 198.19.220.11 " \
	"dev eth1 uid 0 \\ cache\n" \
	"@via 198.19.220.13\nline=198.19.220.13 dev eth1 src 198.19.220.11 " \
	"uid 0 \\ cache\n" \
	"@via 203.0.113.9\nline=203.0.113.9 via 198.18.220.1 dev eth0 src " \
	"198.18.220.11 uid 0 \\ cache\n"
#define END_PEERS	"@end\n", "{\"eu1\": \"198.19.220.12\", \"eu2\": " \
	"\"198.19.220.13\", \"us1\": \"203.0.113.9\"}"

/* Parse probe output, then set facts.peers as the probe module does. */
static json_t *
facts(const char *out, const char *peers)
{
	char	*cause = NULL;
	json_t	*j = probe_parse(out, strlen(out), &cause);

	if (j == NULL)
		fail_msg("%s", cause);
	if (peers != NULL)
		json_object_set_new(j, "peers", json_loads(peers, 0, NULL));
	return j;
}

static void
test_route_get_lines(void **state)
{
	json_t	*r = json_object();

	(void)state;
	/* A rule "from 198.19.220.11 lookup 100" sends it through table
	 * 100's gateway. */
	probe_route_get_parse("198.19.5.5 from 198.19.220.11 via 198.19.220.1 "
	    "dev eth1 table 100 uid 0 \\ cache", r);
	assert_string_equal(json_string_value(json_object_get(r,
	    "interface")), "eth1");
	assert_string_equal(json_string_value(json_object_get(r, "gateway")),
	    "198.19.220.1");
	assert_string_equal(json_string_value(json_object_get(r, "table")),
	    "100");
	assert_string_equal(json_string_value(json_object_get(r, "source")),
	    "198.19.220.11");
	assert_string_equal(json_string_value(json_object_get(r, "type")),
	    "unicast");
	probe_route_get_parse("local 198.18.220.11 dev lo table local src "
	    "198.18.220.11 uid 0 \\ cache <local>", r);
	assert_string_equal(json_string_value(json_object_get(r,
	    "interface")), "lo");
	assert_string_equal(json_string_value(json_object_get(r, "type")),
	    "local");
	assert_string_equal(json_string_value(json_object_get(r, "source")),
	    "198.18.220.11");
	assert_true(json_is_null(json_object_get(r, "gateway")));
	probe_route_get_parse("2001:db8::2 via inet6 fe80::1 dev eth0 src "
	    "2001:db8::1 metric 1024 pref medium", r);
	assert_string_equal(json_string_value(json_object_get(r, "gateway")),
	    "fe80::1");
	json_decref(r);
}

/* The probe's facts: each target's route, each interface once. */
static void
test_facts(void **state)
{
	json_t		*j;
	const json_t	*r, *l;

	(void)state;
	j = facts(HEAD DEFAULT VIA_EU "@via 198.19.9.9\nerror=RTNETLINK answers: "
	    "Network is unreachable\n@via db.example\naddress=198.19.220.14\n"
	    "line=198.19.220.14 dev eth1 src 198.19.220.11 uid 0 \\ cache\n"
	    ETH0_FQ_CODEL ETH1_MQ "@end\n", NULL);
	r = json_object_get(json_object_get(j, "routes"), "198.19.220.12");
	assert_string_equal(json_string_value(json_object_get(r,
	    "interface")), "eth1");
	/* the second lookup, from the source the first picked */
	assert_string_equal(json_string_value(json_object_get(r, "line")),
	    "198.19.220.12 from 198.19.220.11 dev eth1 uid 0 \\ cache");
	r = json_object_get(json_object_get(j, "routes"), "198.19.9.9");
	assert_true(json_is_null(json_object_get(r, "interface")));
	assert_string_equal(json_string_value(json_object_get(r, "reason")),
	    "RTNETLINK answers: Network is unreachable");
	r = json_object_get(json_object_get(j, "routes"), "db.example");
	assert_string_equal(json_string_value(json_object_get(r, "address")),
	    "198.19.220.14");
	l = json_object_get(json_object_get(j, "interfaces"), "eth1");
	assert_int_equal(json_integer_value(json_object_get(l, "mtu")), 1460);
	assert_int_equal(json_integer_value(json_object_get(l, "tx_queues")),
	    2);
	assert_true(json_is_false(json_object_get(l, "default_route")));
	assert_true(json_is_true(json_object_get(json_object_get(l, "qdisc"),
	    "mq")));
	l = json_object_get(json_object_get(j, "interfaces"), "eth0");
	assert_true(json_is_true(json_object_get(l, "default_route")));
	json_decref(j);
}

/* Two NICs: fq_codel on both, peers on eth1 and one through eth0. */
static void
test_two_nics(void **state)
{
	struct qdisc_plan	 p;
	json_t			*j;

	(void)state;
	j = facts(HEAD DEFAULT VIA_EU ETH0_FQ_CODEL ETH1_FQ_CODEL END_PEERS);
	qdisc_plan_compute(j, "fq", &p);
	assert_null(p.error);
	assert_int_equal(p.n, 2);
	assert_string_equal(p.ifs[0].dev, "eth0");
	assert_string_equal(p.ifs[0].carries,
	    "the default route; traffic to us1");
	assert_string_equal(p.ifs[1].dev, "eth1");
	assert_string_equal(p.ifs[1].carries, "traffic to eu1, eu2");
	assert_string_equal(p.ifs[1].live, "fq_codel");
	assert_true(p.ifs[0].set && p.ifs[1].set);
	assert_string_equal(p.devs, "eth0 eth1");
	assert_string_equal(p.txqs, "0 0");
	assert_string_equal(p.links, "eth0 eth1");
	qdisc_plan_clear(&p);
	json_decref(j);

	/* fq on eth0 already: only eth1 is set, both are listed. */
	j = facts(HEAD DEFAULT VIA_EU ETH0_FQ ETH1_FQ_CODEL END_PEERS);
	qdisc_plan_compute(j, "fq", &p);
	assert_int_equal(p.n, 2);
	assert_false(p.ifs[0].set);
	assert_true(p.ifs[1].set);
	assert_string_equal(p.devs, "eth1");
	assert_string_equal(p.links, "eth0 eth1");
	qdisc_plan_clear(&p);
	/* Listed only (no qdisc to set: the kernel has none). */
	qdisc_plan_compute(j, NULL, &p);
	assert_int_equal(p.n, 2);
	assert_null(p.devs);
	assert_false(p.ifs[1].set);
	qdisc_plan_clear(&p);
	json_decref(j);
}

/* The multiqueue NIC: mq stays, the kind goes on each of its queues. */
static void
test_mq(void **state)
{
	struct qdisc_plan	 p;
	json_t			*j;

	(void)state;
	j = facts(HEAD DEFAULT VIA_EU ETH0_FQ ETH1_MQ END_PEERS);
	qdisc_plan_compute(j, "fq", &p);
	assert_int_equal(p.n, 2);
	assert_string_equal(p.ifs[1].live, "fq_codel on 2 mq queues");
	assert_int_equal(p.ifs[1].tx_queues, 2);
	assert_string_equal(p.devs, "eth1");
	assert_string_equal(p.txqs, "2");
	qdisc_plan_clear(&p);
	json_decref(j);
}

/* No default route (a private bridge, the peers on it): the peers' route
 * names the interface. */
static void
test_no_default_route(void **state)
{
	struct qdisc_plan	 p;
	json_t			*j;

	(void)state;
	j = facts(HEAD "@route\n@via 198.18.221.12\nline=198.18.221.12 dev "
	    "eth0 src 198.18.221.11 uid 0 \\ cache\n" ETH0_FQ_CODEL "@end\n",
	    "{\"guest02\": \"198.18.221.12\"}");
	assert_true(json_is_null(json_object_get(j, "default_route")));
	qdisc_plan_compute(j, "fq", &p);
	assert_null(p.error);
	assert_int_equal(p.n, 1);
	assert_string_equal(p.ifs[0].dev, "eth0");
	assert_string_equal(p.ifs[0].carries, "traffic to guest02");
	assert_true(p.ifs[0].set);
	qdisc_plan_clear(&p);
	json_decref(j);
}

/* Where no interface can be determined the plan says why (the task fails
 * on it); lo is left alone with a warning; a peer past the probe's limit
 * is one. */
static void
test_undetermined(void **state)
{
	struct qdisc_plan	 p;
	json_t			*j;

	(void)state;
	j = facts(HEAD "@route\n@end\n", NULL);
	qdisc_plan_compute(j, "fq", &p);
	assert_int_equal(p.n, 0);
	assert_string_equal(p.error, "no interface carries this host's "
	    "traffic: no default route and no peers (iperf_peer, iperf_peers "
	    "or rtt_to) to route");
	qdisc_plan_clear(&p);
	json_decref(j);

	j = facts(HEAD "@route\n@via 198.51.100.7\nerror=RTNETLINK answers: "
	    "Network is unreachable\n@via 198.18.221.12\nline=198.18.221.12 "
	    "dev eth0 src 198.18.221.11 uid 0 \\ cache\n" ETH0_FQ_CODEL
	    "@end\n", "{\"far\": \"198.51.100.7\", \"guest02\": "
	    "\"198.18.221.12\"}");
	qdisc_plan_compute(j, "fq", &p);
	assert_string_equal(p.error, "no route to peer far (198.51.100.7): "
	    "RTNETLINK answers: Network is unreachable");
	qdisc_plan_clear(&p);
	json_decref(j);

	j = facts(HEAD DEFAULT "@via 198.18.220.11\nline=local 198.18.220.11 "
	    "dev lo table local src 198.18.220.11 uid 0 \\ cache <local>\n"
	    ETH0_FQ_CODEL "@link lo\nmtu=65536\ntx_queues=1\n"
	    "qdisc=qdisc noqueue 0: root refcnt 2\n@end\n",
	    "{\"self\": \"198.18.220.11\"}");
	json_object_set_new(j, "peers_not_probed", json_pack("[s]", "p33"));
	qdisc_plan_compute(j, "fq", &p);
	assert_null(p.error);
	assert_int_equal(p.n, 1);
	assert_string_equal(p.ifs[0].dev, "eth0");
	assert_int_equal(p.nwarnings, 2);
	assert_string_equal(p.warnings[1], "lo carries traffic to self (a "
	    "local address): its qdisc is left alone");
	assert_string_equal(p.warnings[0], "peer p33 was not probed (past the "
	    "probe's limit of targets): the interface that carries its "
	    "traffic is not known");
	qdisc_plan_clear(&p);
	json_decref(j);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_route_get_lines),
		cmocka_unit_test(test_facts),
		cmocka_unit_test(test_two_nics),
		cmocka_unit_test(test_mq),
		cmocka_unit_test(test_no_default_route),
		cmocka_unit_test(test_undetermined),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
