/* Inventories: YAML and INI, variable precedence, group_vars/ directories,
 * several sources, inline lists, the dynamic --list JSON shape, connection
 * variables and the ansible-inventory output shapes. Expected values were
 * checked against ansible-inventory 2.14 (tests/e2e/ansible-compare.sh
 * repeats that comparison on the whole files). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inventory/inventory.h"
#include "template/pyliteral.h"
#include "inventory/inventory-view.h"

#define GOOD "tests/data/inventory/good/"

static struct inventory *
load(const char *a, const char *b)
{
	struct inventory	*inv = inventory_new();
	char			*cause = NULL;

	if (inventory_add_source(inv, a, &cause) != 0 ||
	    (b != NULL && inventory_add_source(inv, b, &cause) != 0) ||
	    inventory_finish(inv, &cause) != 0)
		fail_msg("%s", cause);
	return inv;
}

/* Compare a host's merged vars with a JSON text. */
static void
expect_vars(struct inventory *inv, const char *host, const char *json)
{
	json_t	*got = inventory_host_vars(inv, host), *want;
	char	*s;

	want = json_loads(json, 0, NULL);
	assert_non_null(want);
	assert_non_null(got);
	if (!json_equal(got, want)) {
		s = json_dumps(got, JSON_SORT_KEYS | JSON_COMPACT);
		fail_msg("vars of %s: got %s, want %s", host, s, json);
	}
	json_decref(got);
	json_decref(want);
}

static void
expect_group_hosts(struct inventory *inv, const char *group,
    const char *joined)
{
	const char	**hosts;
	size_t		  n, i;
	char		  buf[1024] = "";

	assert_int_equal(inventory_group_hosts(inv, group, &hosts, &n), 0);
	for (i = 0; i < n; i++) {
		strcat(buf, i ? " " : "");
		strcat(buf, hosts[i]);
	}
	free(hosts);
	assert_string_equal(buf, joined);
}

static void
test_yaml_structure(void **state)
{
	struct inventory	*inv = load(GOOD "nested.yml", NULL);
	const char		**groups;
	size_t			  n;

	(void)state;
	expect_group_hosts(inv, "leaf", "node1 node2 node3 node08 node09 "
	    "node10");
	expect_group_hosts(inv, "side", "node1 node2 alpha-a-1 alpha-a-2 "
	    "alpha-b-1 alpha-b-2 alpha-c-1 alpha-c-2");
	expect_group_hosts(inv, "zz_low", "node1 stride0 stride5 stride10");
	expect_group_hosts(inv, "ungrouped", "lonely");
	expect_group_hosts(inv, "aa_high", "node1 10.0.0.1 2001:db8::1");
	assert_int_equal(inventory_group(inv, "leaf")->depth, 3);
	assert_int_equal(inventory_group(inv, "zz_low")->priority, 5);
	expect_vars(inv, "10.0.0.1", "{\"ansible_port\": 2200, \"level\": "
	    "\"all\", \"x\": \"aa_high\"}");
	assert_int_equal(inventory_host_groups(inv, "node1", &groups, &n), 0);
	assert_int_equal(n, 7);
	assert_string_equal(groups[0], "aa_high");
	assert_string_equal(groups[1], "all");
	assert_string_equal(groups[6], "zz_low");
	free(groups);
	assert_null(inventory_host_vars(inv, "nope"));
	inventory_free(inv);
}

static void
test_precedence(void **state)
{
	struct inventory *inv = load(GOOD "nested/inventory.yml", NULL);

	(void)state;
	/* depth, then priority (zz_low 5 after aa_high 1), then name; group
	 * files after every inventory group var; host last */
	expect_vars(inv, "node1", "{\"from_file_all\": 1, \"leaf_a\": 1, "
	    "\"leaf_order\": \"z\", \"level\": \"leaf\", \"only_host\": true, "
	    "\"t\": 1, \"x\": \"hostlevel\"}");
	expect_vars(inv, "lonely", "{\"from_file_all\": 1, \"level\": "
	    "\"all\", \"x\": \"file_all\"}");
	/* group_vars/top.yml beats side's inventory x; leaf/ dir read in
	 * name order, sub/ recursed, .txt ignored */
	expect_vars(inv, "node2", "{\"from_file_all\": 1, \"leaf_a\": 1, "
	    "\"leaf_order\": \"z\", \"level\": \"leaf\", \"t\": 1, "
	    "\"x\": \"file_top\"}");
	expect_vars(inv, "stride5", "{\"from_file_all\": 1, \"level\": "
	    "\"all\", \"x\": \"file_all\"}");
	inventory_free(inv);
}

static void
test_ini_typing(void **state)
{
	struct inventory *inv = load(GOOD "ini-typing.ini", NULL);

	(void)state;
	expect_vars(inv, "h1", "{\"a\":5,\"b\":true,\"c\":\"x y\",\"d\":\"yes\","
	    "\"e\":16,\"f\":[1,2],\"g\":\"{k:1}\",\"gv_bool\":true,"
	    "\"gv_comment\":5,\"gv_int\":7,\"gv_list\":[1,\"two\"],"
	    "\"gv_quoted\":\"quoted\",\"gv_str\":\"from g2\",\"gv_yes\":\"yes\","
	    "\"h\":1.5,\"i\":null,\"j\":\"q\",\"k\":\"01\",\"l\":\"foo,bar\","
	    "\"pv\":1}");
	expect_vars(inv, "h2", "{\"m\":[1,2],\"n\":\"5\",\"o\":-3,\"p\":1000.0,"
	    "\"q\":15,\"r\":1000,\"s\":\" spaced \",\"t\":\"\"}");
	expect_vars(inv, "h3", "{\"aa\":false,\"ansible_port\":2201,"
	    "\"bb\":\"none\",\"cc\":\"TRUE\",\"dd\":\"its\",\"ee\":\"q\","
	    "\"w\":[1],\"x\":[],\"y\":{},\"z\":[]}");
	assert_int_equal(inventory_group(inv, "g1")->priority, 10);
	inventory_free(inv);
}

static void
expect_literal(const char *in, const char *json)
{
	json_t *got = py_literal_eval(in), *want;

	want = json_loads(json, JSON_DECODE_ANY, NULL);
	assert_non_null(want);
	if (!json_equal(got, want))
		fail_msg("literal %s: got %s", in, json_dumps(got,
		    JSON_ENCODE_ANY));
	json_decref(got);
	json_decref(want);
}

static void
test_python_literal(void **state)
{
	(void)state;
	expect_literal("5", "5");
	expect_literal(" -5", "-5");
	expect_literal("0x1F", "31");
	expect_literal("0b101", "5");
	expect_literal("1_000", "1000");
	expect_literal("00", "0");
	expect_literal("01", "\"01\"");
	expect_literal("1.5e2", "150.0");
	expect_literal("True", "true");
	expect_literal("none", "\"none\"");
	expect_literal("'a\\tb'", "\"a\\tb\"");
	expect_literal("r'a\\tb'", "\"a\\\\tb\"");
	expect_literal("'a' 'b'", "\"ab\"");
	expect_literal("[1, (2, 3), {'k': None}]", "[1, [2, 3], {\"k\": null}]");
	expect_literal("{1: 'x'}", "{\"1\": \"x\"}");
	expect_literal("1, 2", "[1, 2]");
	expect_literal("5 # comment", "5");
	expect_literal("foo", "\"foo\"");
	expect_literal("1+2j", "\"1+2j\"");
	expect_literal("--5", "\"--5\"");
	expect_literal("f'x'", "\"f'x'\"");
}

static void
test_multiple_sources(void **state)
{
	struct inventory *inv = load(GOOD "multi/one.yml", GOOD "multi/two.ini");

	(void)state;
	expect_group_hosts(inv, "web", "w1 w2 w3");
	expect_group_hosts(inv, "ungrouped", "");
	/* w2 was in web (YAML) and on an INI ungrouped line: not ungrouped */
	expect_vars(inv, "w2", "{\"a\": 2, \"b\": 3, \"role\": \"web-ini\"}");
	inventory_free(inv);

	inv = load(GOOD "dir", "web9,  web10:2210 ,[2001:db8::7]:22,");
	expect_group_hosts(inv, "g", "h1 h-only");
	assert_null(inventory_group(inv, "never"));	/* *.ini skipped */
	expect_vars(inv, "h-only", "{\"gvar\": \"from-dir\", \"hvar\": "
	    "\"dir-of-files\", \"hvar2\": \"no-extension\"}");
	expect_vars(inv, "h2", "{\"v\": 1, \"k\": \"v\"}");
	expect_vars(inv, "web10", "{\"ansible_port\": 2210}");
	expect_group_hosts(inv, "ungrouped", "web9 web10 2001:db8::7");
	inventory_free(inv);
}

static void
test_vars_root(void **state)
{
	struct inventory	*inv = load(GOOD "multi/one.yml", NULL);
	char			*cause = NULL;

	(void)state;
	/* a playbook directory's group_vars override the inventory's */
	assert_int_equal(inventory_add_vars_root(inv, GOOD "nested", &cause),
	    0);
	expect_vars(inv, "w1", "{\"role\": \"web\", \"from_file_all\": 1, "
	    "\"x\": \"file_all\"}");
	inventory_free(inv);
}

static void
test_dynamic_json(void **state)
{
	struct inventory	*inv = inventory_new();
	char			*cause = NULL;
	json_t			*list;

	(void)state;
	list = json_loads("{"
	    "\"web\": {\"hosts\": [\"w1\", \"w2\"], \"vars\": {\"r\": \"web\"},"
	    "  \"children\": [\"web_eu\"]},"
	    "\"web_eu\": [\"e1\"],"
	    "\"solo\": {\"v\": 1},"
	    "\"_meta\": {\"hostvars\": {\"w1\": {\"ansible_host\": "
	    "\"203.0.113.5\"}, \"ghost\": {\"x\": 1}}}}", 0, NULL);
	assert_non_null(list);
	assert_int_equal(inventory_add_list_json(inv, list, "http://inv",
	    &cause), 0);
	assert_int_equal(inventory_finish(inv, &cause), 0);
	expect_group_hosts(inv, "web", "w1 w2 e1");
	expect_vars(inv, "w1", "{\"r\": \"web\", \"ansible_host\": "
	    "\"203.0.113.5\"}");
	expect_vars(inv, "e1", "{\"r\": \"web\"}");
	expect_vars(inv, "solo", "{\"v\": 1}");	/* simplified syntax */
	assert_null(inventory_host(inv, "ghost"));
	json_decref(list);
	inventory_free(inv);

	inv = inventory_new();
	list = json_loads("{\"web\": {\"hosts\": \"w1\"}}", 0, NULL);
	assert_int_equal(inventory_add_list_json(inv, list, "script.py",
	    &cause), -1);
	assert_string_equal(cause, "script.py: group 'web': 'hosts' must be "
	    "a list");
	free(cause);
	json_decref(list);
	inventory_free(inv);
}

static void
test_conn(void **state)
{
	struct inventory	*inv = load("inventory-examples/fleet.yml", NULL);
	struct host_conn	 c;
	json_t			*extra;
	char			*cause = NULL;

	(void)state;
	assert_int_equal(inventory_host_conn(inv, "ew1-db01.example.net", NULL,
	    &c, &cause), 0);
	assert_string_equal(c.address, "198.51.100.31");
	assert_int_equal(c.port, 2222);
	assert_string_equal(c.user, "tcptune");
	assert_int_equal(c.become, 1);
	assert_null(c.key_file);
	assert_null(c.proxy_jump);
	host_conn_clear(&c);

	assert_int_equal(inventory_host_conn(inv, "bhs-web02.example.net", NULL,
	    &c, &cause), 0);
	assert_string_equal(c.address, "bhs-web02.example.net");
	assert_int_equal(c.port, 0);
	assert_string_equal(c.user, "deploy");
	assert_int_equal(c.become, -1);
	host_conn_clear(&c);

	/* extra vars beat the inventory's, as -e does in Ansible: a port
	 * given as -e's text too */
	extra = json_pack("{s:s, s:s, s:s}", "ansible_host", "192.0.2.7",
	    "ansible_port", "2200", "ansible_user", "ops");
	assert_int_equal(inventory_host_conn(inv, "ew1-db01.example.net",
	    extra, &c, &cause), 0);
	assert_string_equal(c.address, "192.0.2.7");
	assert_int_equal(c.port, 2200);
	assert_string_equal(c.user, "ops");
	assert_int_equal(c.become, 1);
	host_conn_clear(&c);
	json_decref(extra);

	assert_int_equal(inventory_host_conn(inv, "gra-backup-a.example.net", NULL,
	    &c, &cause), 0);
	assert_string_equal(c.proxy_jump, "bastion.example.net");
	host_conn_clear(&c);

	assert_int_equal(inventory_host_conn(inv, "nope", NULL, &c, &cause), -1);
	assert_string_equal(cause, "unknown host 'nope'");
	free(cause);
	inventory_free(inv);

	inv = load("a,b,", NULL);
	json_object_set_new(inventory_host(inv, "a")->vars,
	    "ansible_ssh_common_args",
	    json_string("-o StrictHostKeyChecking=no -o ProxyJump=ops@jump:2222"));
	json_object_set_new(inventory_host(inv, "b")->vars, "ansible_port",
	    json_string("ssh"));
	assert_int_equal(inventory_host_conn(inv, "a", NULL, &c, &cause), 0);
	assert_string_equal(c.proxy_jump, "ops@jump:2222");
	host_conn_clear(&c);
	cause = NULL;
	assert_int_equal(inventory_host_conn(inv, "b", NULL, &c, &cause), -1);
	assert_string_equal(cause, "host 'b': ansible_port must be a port "
	    "number, got \"ssh\"");
	free(cause);
	cause = NULL;
	/* ansible_connection: local runs here; ssh's names are ssh; another
	 * plugin is refused, naming the host and the value */
	json_object_set_new(inventory_host(inv, "a")->vars,
	    "ansible_connection", json_string("local"));
	assert_int_equal(inventory_host_conn(inv, "a", NULL, &c, &cause), 0);
	assert_int_equal(c.local, 1);
	host_conn_clear(&c);
	extra = json_pack("{s:s}", "ansible_connection", "smart");
	assert_int_equal(inventory_host_conn(inv, "a", extra, &c, &cause), 0);
	assert_int_equal(c.local, 0);
	host_conn_clear(&c);
	json_decref(extra);
	extra = json_pack("{s:s}", "ansible_connection", "docker");
	assert_int_equal(inventory_host_conn(inv, "a", extra, &c, &cause), -1);
	assert_string_equal(cause, "host 'a': ansible_connection 'docker' is "
	    "not supported (tcptune connects with ssh, or runs on the "
	    "controller with local)");
	free(cause);
	json_decref(extra);
	inventory_free(inv);
}

/* conn_password(inv, host): its become password, or NULL; fails the test
 * if inventory_host_conn fails. */
static char *
conn_password(struct inventory *inv, const char *host)
{
	struct host_conn	 c;
	char			*cause = NULL, *pw;

	if (inventory_host_conn(inv, host, NULL, &c, &cause) != 0)
		fail_msg("%s: %s", host, cause);
	pw = c.become_password != NULL ? strdup(c.become_password) : NULL;
	host_conn_clear(&c);
	return pw;
}

static void
set_var(struct inventory *inv, const char *host, const char *key, json_t *v)
{
	json_object_set_new(inventory_host(inv, host)->vars, key, v);
}

/* Ansible's sudo plugin: the last set of ansible_become_password,
 * ansible_become_pass, ansible_sudo_pass wins; errors never show the
 * value. */
static void
test_conn_become_password(void **state)
{
	static const char *const want[][2] = { { "a", "p1" }, { "b", "p2" },
	    { "c", "p3" }, { "d", "1234" } };
	struct inventory	*inv = load("a,b,c,d,e,f,", NULL);
	struct host_conn	 c;
	char			*cause = NULL, *pw;
	size_t			 i;

	(void)state;
	set_var(inv, "a", "ansible_become_password", json_string("p1"));
	set_var(inv, "b", "ansible_become_password", json_string("p1"));
	set_var(inv, "b", "ansible_become_pass", json_string("p2"));
	set_var(inv, "c", "ansible_sudo_pass", json_string("p3"));
	set_var(inv, "c", "ansible_become_pass", json_string("p2"));
	set_var(inv, "c", "ansible_become_password", json_string("p1"));
	set_var(inv, "d", "ansible_become_password", json_integer(1234));
	set_var(inv, "d", "ansible_sudo_pass", json_null());
	set_var(inv, "e", "ansible_become_password",
	    json_pack("{s:s}", "__ansible_vault", "$ANSIBLE_VAULT;1.1;AES256"));
	set_var(inv, "f", "ansible_become_pass", json_pack("[s]", "x1y2"));
	for (i = 0; i < sizeof want / sizeof want[0]; i++) {
		pw = conn_password(inv, want[i][0]);
		assert_string_equal(pw, want[i][1]);
		free(pw);
	}

	/* An inline vault value is decrypted by inventory_host_conn; with no
	 * vault password given the vault's own message names host and var. */
	assert_int_equal(inventory_host_conn(inv, "e", NULL, &c, &cause), -1);
	assert_string_equal(cause, "host 'e': variable "
	    "'ansible_become_password': vault-encrypted; give "
	    "--vault-password-file or --ask-vault-pass");
	free(cause);
	cause = NULL;
	assert_int_equal(inventory_host_conn(inv, "f", NULL, &c, &cause), -1);
	assert_string_equal(cause, "host 'f': ansible_become_pass must be a "
	    "string, got a list");
	free(cause);
	inventory_free(inv);

	inv = load("g,", NULL);
	assert_null(conn_password(inv, "g"));
	inventory_free(inv);
}

static void
test_list_output(void **state)
{
	struct inventory	*inv = load(GOOD "dynamic-shape.yml", NULL);
	char			*cause = NULL, *s, *graph;
	json_t			*j;

	(void)state;
	j = inventory_list_json(inv, NULL, &cause);
	assert_non_null(j);
	s = json_dumps(json_object_get(j, "all"), JSON_COMPACT);
	/* ungrouped first; empty groups are children but have no entry */
	assert_string_equal(s, "{\"children\":[\"ungrouped\",\"empty\","
	    "\"strsec\",\"kid\",\"ports\"]}");
	free(s);
	assert_null(json_object_get(j, "empty"));
	assert_null(json_object_get(json_object_get(json_object_get(j,
	    "_meta"), "hostvars"), "solo"));	/* no vars, no entry */
	json_decref(j);

	j = inventory_list_json(inv, "kid", &cause);
	s = json_dumps(json_object_get(j, "kid"), JSON_COMPACT);
	assert_string_equal(s, "{\"hosts\":[\"k1\",\"k2\"]}");
	free(s);
	assert_null(json_object_get(j, "ports"));
	json_decref(j);

	graph = inventory_graph(inv, "strsec", 0, NULL, &cause);
	assert_string_equal(graph, "@strsec:\n  |--@kid:\n  |  |--k1\n"
	    "  |  |--k2\n  |--only-one\n");
	free(graph);
	graph = inventory_graph(inv, "ports", 1, NULL, &cause);
	assert_string_equal(graph, "@ports:\n  |--p1\n  |  |--{ansible_port = "
	    "2201}\n  |--p2\n  |  |--{ansible_port = 22}\n");
	free(graph);
	assert_null(inventory_graph(inv, "k1", 0, NULL, &cause));
	assert_string_equal(cause, "--graph needs a group name, 'k1' is not "
	    "one");
	free(cause);
	inventory_free(inv);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_yaml_structure),
		cmocka_unit_test(test_precedence),
		cmocka_unit_test(test_ini_typing),
		cmocka_unit_test(test_python_literal),
		cmocka_unit_test(test_multiple_sources),
		cmocka_unit_test(test_vars_root),
		cmocka_unit_test(test_dynamic_json),
		cmocka_unit_test(test_conn),
		cmocka_unit_test(test_conn_become_password),
		cmocka_unit_test(test_list_output),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
