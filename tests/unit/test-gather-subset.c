/* gather_subset: the collectors each spec selects, as ansible-core 2.14's
 * get_collector_names (module_utils/facts/collector.py) decides (the
 * cases e2e/lang-compat compares with setup's are marked), and which
 * ansible_* names gather_subset_apply leaves. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "playbook/gather-subset.h"

#define MIN	(GATHER_DISTRIBUTION | GATHER_PLATFORM | GATHER_SERVICE_MGR | \
		 GATHER_OTHER | GATHER_ENV | GATHER_LOCAL | GATHER_LSB | \
		 GATHER_PKG_MGR)

static unsigned
mask_of(const char *json)
{
	json_t		*v = json != NULL ? json_loads(json, 0, NULL) : NULL;
	unsigned	 m = 0xdead;
	char		*cause = NULL;

	if (gather_subset_mask(v, &m, &cause) != 0)
		fail_msg("%s: %s", json, cause);
	json_decref(v);
	return m;
}

static void
test_masks(void **state)
{
	(void)state;
	assert_int_equal(mask_of(NULL), GATHER_ALL);
	assert_int_equal(mask_of("[\"all\"]"), GATHER_ALL);
	assert_int_equal(mask_of("[\"!all\"]"), MIN);		/* compared */
	assert_int_equal(mask_of("[\"min\"]"), MIN);		/* compared */
	assert_int_equal(mask_of("[\"!all\", \"network\"]"),	/* compared */
	    MIN | GATHER_NETWORK);
	assert_int_equal(mask_of("[\"!all\", \"!min\"]"), 0);	/* compared */
	/* an id names its collector: only min plus the hardware */
	assert_int_equal(mask_of("[\"hardware\"]"), MIN | GATHER_HARDWARE);
	assert_int_equal(mask_of("[\"!all\", \"virtualization_type\"]"),
	    MIN | GATHER_VIRTUAL);
	/* '!hardware' excludes its ids: the rest of all */
	assert_int_equal(mask_of("[\"all\", \"!hardware\"]"),
	    GATHER_ALL & ~GATHER_HARDWARE);
	/* '!kernel' names no collector: the platform stays */
	assert_int_equal(mask_of("[\"!all\", \"!kernel\"]"), MIN);
	/* excluding an unknown name is ignored */
	assert_int_equal(mask_of("[\"!nope\"]"), MIN);
	/* env, lsb, pkg_mgr and local are minimal collectors of their own */
	assert_int_equal(mask_of("[\"!all\", \"!min\", \"lsb\"]"), GATHER_LSB);
	assert_int_equal(mask_of("[\"all\", \"!env\", \"!local\"]"),
	    GATHER_ALL & ~(GATHER_ENV | GATHER_LOCAL));
}

static void
test_unknown(void **state)
{
	json_t		*v = json_loads("[\"!all\", \"netwrk\"]", 0, NULL);
	unsigned	 m;
	char		*cause = NULL;

	(void)state;
	assert_int_equal(gather_subset_mask(v, &m, &cause), -1);
	assert_non_null(strstr(cause, "unknown subset 'netwrk'"));
	free(cause);
	json_decref(v);
}

static void
test_apply(void **state)
{
	json_t *vars = json_pack("{s:{s:s, s:i, s:o, s:s, s:{}, s:{}, s:{},"
	    " s:{}, s:s}, s:s}",
	    "ansible_facts", "distribution", "Debian", "memtotal_mb", 512,
	    "interfaces", json_pack("[s, s]", "eth0", "br-1"),
	    "virtualization_role", "guest", "eth0", "br_1", "lsb",
	    "ansible_local", "pkg_mgr", "apt", "ansible_virtualization_role",
	    "over");
	json_t *facts = json_object_get(vars, "ansible_facts");

	(void)state;
	/* the prefixed names share the facts' values, as playbook.c sets */
	json_object_set(vars, "ansible_distribution",
	    json_object_get(facts, "distribution"));
	json_object_set(vars, "ansible_memtotal_mb",
	    json_object_get(facts, "memtotal_mb"));
	json_object_set(vars, "ansible_local",
	    json_object_get(facts, "ansible_local"));
	json_object_set(vars, "ansible_eth0", json_object_get(facts, "eth0"));
	gather_subset_apply(vars, (MIN | GATHER_NETWORK) & ~GATHER_LOCAL, NULL);
	assert_non_null(json_object_get(facts, "distribution"));
	/* an interface's own fact is the network's ('-' as '_') */
	assert_non_null(json_object_get(facts, "eth0"));
	assert_non_null(json_object_get(vars, "ansible_eth0"));
	assert_non_null(json_object_get(facts, "br_1"));
	assert_non_null(json_object_get(facts, "lsb"));
	assert_non_null(json_object_get(facts, "pkg_mgr"));
	/* ansible_local is its name in ansible_facts too */
	assert_null(json_object_get(facts, "ansible_local"));
	assert_null(json_object_get(vars, "ansible_local"));
	assert_non_null(json_object_get(vars, "ansible_distribution"));
	assert_null(json_object_get(facts, "memtotal_mb"));
	assert_null(json_object_get(vars, "ansible_memtotal_mb"));
	assert_non_null(json_object_get(facts, "interfaces"));
	/* a level above the facts set ansible_virtualization_role: kept */
	assert_null(json_object_get(facts, "virtualization_role"));
	assert_string_equal(json_string_value(json_object_get(vars,
	    "ansible_virtualization_role")), "over");
	assert_true(json_is_true(json_object_get(facts, "module_setup")));
	assert_string_equal(json_string_value(json_array_get(
	    json_object_get(facts, "gather_subset"), 0)), "all");
	json_decref(vars);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_masks),
		cmocka_unit_test(test_unknown),
		cmocka_unit_test(test_apply),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
