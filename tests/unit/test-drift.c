/* Drift causes, from a staged plan, what the check script read, and facts. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "remote/apply.h"
#include "tune/dropin.h"
#include "modules/tune.h"

#define FILE_PATH "/etc/sysctl.d/90-tcptune.conf"

static struct stage *
make_stage(void)
{
	struct stage *st = calloc(1, sizeof *st);

	st->file = strdup(FILE_PATH);
	dropin_init(&st->dropin);
	dropin_set(&st->dropin, "net.ipv4.tcp_rmem", "4096 131072 4194304",
	    "r");
	dropin_set(&st->dropin, "net.ipv4.tcp_congestion_control", "bbr",
	    "c");
	return st;
}

static const char rendered[] =
    "net.ipv4.tcp_rmem = 4096 131072 4194304\n"
    "net.ipv4.tcp_congestion_control = bbr\n";

static void
set_keys(struct apply_result *ar, const char *rmem, const char *cc)
{
	ar->nkeys = 2;
	ar->keys = calloc(2, sizeof *ar->keys);
	ar->keys[0].key = strdup("net.ipv4.tcp_rmem");
	ar->keys[0].before = strdup(rmem);
	ar->keys[1].key = strdup("net.ipv4.tcp_congestion_control");
	ar->keys[1].before = strdup(cc);
}

/* Facts with our file and optionally a later file setting tcp_rmem. */
static json_t *
facts(int override, const char *qdisc_kind, int bbr_loaded)
{
	json_t *files = json_pack("[{s:s, s:s, s:[{s:s, s:s}, {s:s, s:s}]}]",
	    "path", FILE_PATH, "dir", "/etc/sysctl.d", "entries",
	    "key", "net.ipv4.tcp_rmem", "value", "4096 131072 4194304",
	    "key", "net.ipv4.tcp_congestion_control", "value", "bbr");

	if (override)
		json_array_append_new(files, json_pack("{s:s, s:s, s:[{s:s, "
		    "s:s}]}", "path", "/etc/sysctl.d/99-zzz.conf", "dir",
		    "/etc/sysctl.d", "entries", "key", "net.ipv4.tcp_rmem",
		    "value", "4096 87380 6291456"));
	return json_pack("{s:o, s:{s:s, s:{s:s}}, s:{s:{s:b, s:b}}}",
	    "sysctl_files", files, "default_route", "interface", "eth0",
	    "qdisc", "kind", qdisc_kind, "modules", "tcp_bbr", "loaded",
	    bbr_loaded, "builtin", 0);
}

static const char *
item_field(const json_t *items, size_t i, const char *f)
{
	return json_string_value(json_object_get(json_array_get(items, i), f));
}

static void
test_in_sync(void **state)
{
	struct stage		*st = make_stage();
	struct apply_result	 ar;
	json_t			*f = facts(0, "fq_codel", 1), *items;

	(void)state;
	memset(&ar, 0, sizeof ar);
	ar.old_exists = 1;
	ar.old_text = strdup(rendered);
	set_keys(&ar, "4096 131072 4194304", "bbr");
	items = tune_drift_items(st, &ar, f);
	assert_int_equal(json_array_size(items), 0);
	json_decref(items);
	json_decref(f);
	apply_result_clear(&ar);
	stage_free(st);
}

static void
test_runtime_and_override(void **state)
{
	struct stage		*st = make_stage();
	struct apply_result	 ar;
	json_t			*f = facts(1, "fq_codel", 1), *items;

	(void)state;
	memset(&ar, 0, sizeof ar);
	ar.old_exists = 1;
	ar.old_text = strdup(rendered);
	/* rmem overridden by 99-zzz.conf; cc changed with sysctl -w */
	set_keys(&ar, "4096 131072 4194304", "cubic");
	items = tune_drift_items(st, &ar, f);
	assert_int_equal(json_array_size(items), 2);
	assert_string_equal(item_field(items, 0, "key"), "net.ipv4.tcp_rmem");
	assert_string_equal(item_field(items, 0, "cause"), "overridden");
	assert_string_equal(item_field(items, 0, "detail"),
	    "/etc/sysctl.d/99-zzz.conf");
	assert_string_equal(item_field(items, 1, "cause"),
	    "changed at runtime");
	assert_string_equal(item_field(items, 1, "expected"), "bbr");
	assert_string_equal(item_field(items, 1, "live"), "cubic");
	json_decref(items);
	json_decref(f);
	apply_result_clear(&ar);
	stage_free(st);
}

/* Edited but not reloaded: the file has another value, the kernel still
 * has the play's. That is "file edited" with the play's value expected and
 * the file's as live, never "changed at runtime" with the two swapped. */
static void
test_edited_not_reloaded(void **state)
{
	struct stage		*st = make_stage();
	struct apply_result	 ar;
	json_t			*f = facts(0, "fq_codel", 1), *items;

	(void)state;
	memset(&ar, 0, sizeof ar);
	ar.old_exists = 1;
	ar.old_text = strdup("net.ipv4.tcp_rmem = 4096 131072 1048576\n"
	    "net.ipv4.tcp_congestion_control = bbr\n");
	set_keys(&ar, "4096 131072 4194304", "bbr");
	items = tune_drift_items(st, &ar, f);
	assert_int_equal(json_array_size(items), 1);
	assert_string_equal(item_field(items, 0, "key"), "net.ipv4.tcp_rmem");
	assert_string_equal(item_field(items, 0, "cause"), "file edited");
	assert_string_equal(item_field(items, 0, "expected"),
	    "4096 131072 4194304");
	assert_string_equal(item_field(items, 0, "live"), "4096 131072 1048576");
	assert_string_equal(item_field(items, 0, "detail"), FILE_PATH);
	json_decref(items);
	json_decref(f);
	apply_result_clear(&ar);
	stage_free(st);
}

static void
test_missing_edited_qdisc_module(void **state)
{
	struct stage		*st = make_stage();
	struct apply_result	 ar;
	json_t			*f = facts(0, "fq_codel", 0), *items;

	(void)state;
	/* The file is gone and the live values are stock. */
	memset(&ar, 0, sizeof ar);
	set_keys(&ar, "4096 131072 212992", "reno");
	items = tune_drift_items(st, &ar, f);
	assert_int_equal(json_array_size(items), 3);
	assert_string_equal(item_field(items, 0, "cause"), "file missing");
	assert_string_equal(item_field(items, 1, "cause"), "file missing");
	json_decref(items);
	apply_result_clear(&ar);

	/* Someone edited our file and loaded it; the config wants fq on the
	 * interface but fq_codel runs; tcp_bbr is a module, not loaded. */
	memset(&ar, 0, sizeof ar);
	ar.old_exists = 1;
	ar.old_text = strdup("net.ipv4.tcp_rmem = 4096 131072 1048576\n"
	    "net.ipv4.tcp_congestion_control = bbr\n");
	set_keys(&ar, "4096 131072 1048576", "bbr");
	st->qdisc = strdup("fq");
	qdisc_plan_compute(f, "fq", &st->qplan);
	st->modules = strdup("tcp_bbr");
	items = tune_drift_items(st, &ar, f);
	assert_int_equal(json_array_size(items), 3);
	assert_string_equal(item_field(items, 0, "cause"), "file edited");
	assert_string_equal(item_field(items, 0, "live"), "4096 131072 1048576");
	assert_string_equal(item_field(items, 1, "key"), "qdisc");
	assert_string_equal(item_field(items, 1, "cause"),
	    "qdisc differs from the config");
	assert_string_equal(item_field(items, 1, "expected"), "fq");
	assert_string_equal(item_field(items, 1, "live"), "fq_codel");
	assert_string_equal(item_field(items, 1, "detail"), "eth0");
	assert_string_equal(item_field(items, 2, "cause"), "module not loaded");
	json_decref(items);
	json_decref(f);
	apply_result_clear(&ar);
	stage_free(st);
}

/* The route options lost at a reboot (seen on a real systemd: a unit that
 * ran before the route was there) are drift; an mq root is compared by its
 * leaves. */
static void
test_route_and_mq(void **state)
{
	struct stage		*st = make_stage();
	struct apply_result	 ar;
	json_t			*f = facts(0, "mq", 1), *items, *q;

	(void)state;
	q = json_object_get(json_object_get(f, "default_route"), "qdisc");
	json_object_set_new(q, "handle", json_string("1:"));
	json_object_set_new(q, "children", json_pack("[{s:s, s:s}, {s:s, "
	    "s:s}]", "kind", "fq_codel", "parent", "1:2", "kind", "fq",
	    "parent", "1:1"));
	json_object_set_new(json_object_get(f, "default_route"), "initrwnd",
	    json_integer(10));
	memset(&ar, 0, sizeof ar);
	ar.old_exists = 1;
	ar.old_text = strdup(rendered);
	set_keys(&ar, "4096 131072 4194304", "bbr");
	st->qdisc = strdup("fq");
	qdisc_plan_compute(f, "fq", &st->qplan);
	st->route_opts = strdup("initcwnd 20 initrwnd 20");
	st->route_changed = 1;
	items = tune_drift_items(st, &ar, f);
	assert_int_equal(json_array_size(items), 2);
	assert_string_equal(item_field(items, 0, "key"), "qdisc");
	assert_string_equal(item_field(items, 0, "live"),
	    "mixed on 2 mq queues (fq_codel, fq)");
	assert_string_equal(item_field(items, 1, "key"), "default route");
	assert_string_equal(item_field(items, 1, "cause"),
	    "route options not live");
	assert_string_equal(item_field(items, 1, "expected"),
	    "initcwnd 20 initrwnd 20");
	assert_string_equal(item_field(items, 1, "live"), "initrwnd 10");
	assert_string_equal(item_field(items, 1, "detail"), "eth0");
	json_decref(items);

	/* The route module stages options the route already has only to
	 * keep the unit: no drift then. */
	st->route_changed = 0;
	free(st->qdisc);
	st->qdisc = NULL;
	items = tune_drift_items(st, &ar, f);
	assert_int_equal(json_array_size(items), 0);
	json_decref(items);
	json_decref(f);
	apply_result_clear(&ar);
	stage_free(st);
}

/* Two NICs: the default route's eth0 has fq, the peers' eth1 was put back
 * to fq_codel by hand: one item, for eth1, the interface that drifted. */
static void
test_per_interface(void **state)
{
	struct stage		*st = make_stage();
	struct apply_result	 ar;
	json_t			*f = facts(0, "fq", 1), *items;

	(void)state;
	json_object_set_new(f, "routes", json_pack("{s:{s:s, s:s}}",
	    "198.19.0.12", "interface", "eth1", "type", "unicast"));
	json_object_set_new(f, "peers", json_pack("{s:s}", "eu1",
	    "198.19.0.12"));
	json_object_set_new(f, "interfaces", json_pack("{s:{s:{s:s}}, "
	    "s:{s:{s:s}}}", "eth0", "qdisc", "kind", "fq", "eth1", "qdisc",
	    "kind", "fq_codel"));
	memset(&ar, 0, sizeof ar);
	ar.old_exists = 1;
	ar.old_text = strdup(rendered);
	set_keys(&ar, "4096 131072 4194304", "bbr");
	qdisc_plan_compute(f, "fq", &st->qplan);
	st->qdisc = strdup("fq");
	assert_int_equal(st->qplan.n, 2);
	items = tune_drift_items(st, &ar, f);
	assert_int_equal(json_array_size(items), 1);
	assert_string_equal(item_field(items, 0, "key"), "qdisc");
	assert_string_equal(item_field(items, 0, "live"), "fq_codel");
	assert_string_equal(item_field(items, 0, "detail"), "eth1");
	json_decref(items);
	json_decref(f);
	apply_result_clear(&ar);
	stage_free(st);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_in_sync),
		cmocka_unit_test(test_runtime_and_override),
		cmocka_unit_test(test_missing_edited_qdisc_module),
		cmocka_unit_test(test_route_and_mq),
		cmocka_unit_test(test_edited_not_reloaded),
		cmocka_unit_test(test_per_interface),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
