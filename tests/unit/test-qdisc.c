/* What shapes the traffic, from the probe's qdisc fact (lib/remote/qdisc.h), on
 * `tc qdisc show dev IF` output captured from a real 6.1 kernel's mq (a
 * 4-queue device in a User-mode Linux guest, tests/guests: the same mq code
 * a multiqueue virtio_net NIC gets): the kernel's own mq 0: with fq_codel
 * leaves as a cloud VM boots, the mq 1: with fq leaves that tcptune's apply
 * leaves, mixed leaves, and the single-queue and classful shapes that must
 * keep meaning their root. Each goes through the real probe parser. */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "remote/probe.h"
#include "remote/qdisc.h"
#include "base/strbuf.h"

#define FQ_CODEL "limit 10240p flows 1024 quantum 1514 target 5ms " \
	"interval 100ms memory_limit 32Mb ecn drop_batch 64"
#define FQ "limit 10000p flow_limit 100p buckets 1024 orphan_mask 1023 " \
	"quantum 3028b initial_quantum 15140b low_rate_threshold 550Kbit " \
	"refill_delay 40ms timer_slack 10us horizon 10s horizon_drop"

/* As booted: the kernel attached mq (handle 0:) and one fq_codel per
 * queue; a clsact (the guest WAN's hook) that must not count as a leaf. */
static const char booted[] =
    "qdisc mq 0: root \n"
    "qdisc fq_codel 0: parent :4 " FQ_CODEL " \n"
    "qdisc fq_codel 0: parent :3 " FQ_CODEL " \n"
    "qdisc fq_codel 0: parent :2 " FQ_CODEL " \n"
    "qdisc fq_codel 0: parent :1 " FQ_CODEL " \n"
    "qdisc clsact ffff: parent ffff:fff1 \n";

/* After tcptune's apply: mq 1: (addressable) with fq on every queue. */
static const char tuned[] =
    "qdisc mq 1: root \n"
    "qdisc fq 8001: parent 1:4 " FQ " \n"
    "qdisc fq 8003: parent 1:2 " FQ " \n"
    "qdisc fq 8002: parent 1:3 " FQ " \n"
    "qdisc fq 8004: parent 1:1 " FQ " \n";

/* An admin set one queue by hand. */
static const char mixed[] =
    "qdisc mq 1: root \n"
    "qdisc fq_codel 0: parent 1:4 " FQ_CODEL " \n"
    "qdisc fq_codel 0: parent 1:3 " FQ_CODEL " \n"
    "qdisc fq_codel 0: parent 1:1 " FQ_CODEL " \n"
    "qdisc pfifo 8005: parent 1:2 limit 32p\n";

/* The probe's output around DEV's qdisc lines, each as "qdisc=LINE". */
static json_t *
probe_qdisc(const char *lines, int txq)
{
	struct strbuf	 sb;
	const char	*p, *nl;
	char		*cause = NULL;
	json_t		*j, *q;

	strbuf_init(&sb);
	strbuf_addf(&sb, "tcptune-probe 1\n@probe\nuid=0\n@route\n"
	    "family=inet\nline=default via 10.0.0.1 dev ens4 proto dhcp\n"
	    "interface=ens4\n@link ens4\n");
	for (p = lines; *p != '\0'; p = nl + 1) {
		nl = strchr(p, '\n');
		assert_non_null(nl);
		strbuf_addf(&sb, "qdisc=%.*s\n", (int)(nl - p), p);
	}
	strbuf_addf(&sb, "tx_queues=%d\n@end\n", txq);
	j = probe_parse(sb.buf, sb.len, &cause);
	if (j == NULL)
		fail_msg("%s", cause);
	strbuf_release(&sb);
	q = json_incref(json_object_get(json_object_get(j, "default_route"),
	    "qdisc"));
	json_decref(j);
	return q;
}

static void
check(const char *lines, int txq, const char *effective, const char *text)
{
	json_t	*q = probe_qdisc(lines, txq);
	char	*d = qdisc_describe(q);

	if (effective == NULL)
		assert_null(qdisc_effective(q));
	else
		assert_string_equal(qdisc_effective(q), effective);
	assert_string_equal(d, text);
	free(d);
	json_decref(q);
}

static void
test_mq_as_booted(void **state)
{
	(void)state;
	check(booted, 4, "fq_codel", "fq_codel on 4 mq queues");
}

static void
test_mq_after_apply(void **state)
{
	(void)state;
	check(tuned, 4, "fq", "fq on 4 mq queues");
}

static void
test_mq_mixed(void **state)
{
	(void)state;
	check(mixed, 4, "mixed", "mixed on 4 mq queues (fq_codel, pfifo)");
}

/* 16 queues: tc numbers the leaves in hex (":a" .. ":10"). */
static void
test_mq_sixteen_queues(void **state)
{
	struct strbuf	sb;
	int		q;

	(void)state;
	strbuf_init(&sb);
	strbuf_addstr(&sb, "qdisc mq 0: root \n");
	for (q = 16; q >= 1; q--)
		strbuf_addf(&sb, "qdisc fq_codel 0: parent :%x " FQ_CODEL
		    " \n", q);
	check(sb.buf, 16, "fq_codel", "fq_codel on 16 mq queues");
	strbuf_release(&sb);
}

/* An mq whose leaves tc did not list: say mq, never a guess. */
static void
test_mq_without_leaves(void **state)
{
	(void)state;
	check("qdisc mq 0: root \n", 2, "mq", "mq");
}

static void
test_single_queue(void **state)
{
	(void)state;
	check("qdisc fq_codel 0: root refcnt 2 " FQ_CODEL " \n", 1,
	    "fq_codel", "fq_codel");
	check("qdisc noqueue 0: root refcnt 2 \n", 1, "noqueue", "noqueue");
}

/* A classful root's classes are not queues: the root is what is set. */
static void
test_classful_root(void **state)
{
	(void)state;
	check("qdisc htb 1: root refcnt 2 r2q 10 default 0x10\n"
	    "qdisc fq 8001: parent 1:10 " FQ "\n", 1, "htb", "htb");
}

static void
test_no_root(void **state)
{
	(void)state;
	check("qdisc clsact ffff: parent ffff:fff1 \n", 1, NULL, "?");
	assert_null(qdisc_effective(NULL));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mq_as_booted),
		cmocka_unit_test(test_mq_after_apply),
		cmocka_unit_test(test_mq_mixed),
		cmocka_unit_test(test_mq_sixteen_queues),
		cmocka_unit_test(test_mq_without_leaves),
		cmocka_unit_test(test_single_queue),
		cmocka_unit_test(test_classful_root),
		cmocka_unit_test(test_no_root),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
