/* Inventories shaped to blow up the group graph code: long chains of
 * children built top down and bottom up, diamonds, groups named long before
 * their sections, deeply nested INI values. Each must load (or fail with a
 * clear message) in bounded time: every case here took minutes, or crashed
 * on the stack, before the group graph was walked iteratively and once. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "inventory/inventory.h"
#include "inventory/inventory-view.h"
#include "base/strbuf.h"

/* Generous for an ASan build on a busy machine; the quadratic or
 * exponential code took from a minute to forever on these. */
#define SCALE_SECONDS	20

static clock_t t0;

static void
start(void)
{
	t0 = clock();
}

static void
within_bound(void)
{
	double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;

	if (secs >= SCALE_SECONDS)
		fail_msg("took %.1f s", secs);
}

/* The host's groups through a chain: every group of the chain. */
static void
expect_groups(struct inventory *inv, const char *host, size_t n)
{
	const char	**groups;
	size_t		  got;

	assert_int_equal(inventory_host_groups(inv, host, &groups, &got), 0);
	assert_int_equal(got, n);
	free(groups);
}

/* Nested YAML adds a child's subtree before linking it to its parent: the
 * chain grows from the bottom, and each link used to walk it all. */
static void
test_chain_bottom_up(void **state)
{
	struct inventory	*inv = inventory_new();
	struct inv_group	*child, *parent;
	char			 name[32], *cause = NULL;
	json_t			*list;
	int			 i, n = 200000;

	(void)state;
	start();
	snprintf(name, sizeof name, "g%d", n - 1);
	child = inv_add_group(inv, name);
	inv_add_host(inv, "h1", child, -1);
	for (i = n - 2; i >= 0; i--) {
		snprintf(name, sizeof name, "g%d", i);
		parent = inv_add_group(inv, name);
		assert_int_equal(inv_add_child(inv, parent, child, "x.yml:1",
		    &cause), 0);
		child = parent;
	}
	assert_int_equal(inventory_finish(inv, &cause), 0);
	assert_int_equal(inventory_group(inv, "g199999")->depth, 200000);
	expect_groups(inv, "h1", n + 1);
	list = inventory_list_json(inv, NULL, &cause);
	assert_non_null(list);
	assert_int_equal(json_object_size(list), n + 2);
	json_decref(list);
	within_bound();
	/* closing the loop still names the whole cycle */
	assert_int_equal(inv_add_child(inv, inventory_group(inv, "g199999"),
	    inventory_group(inv, "g199990"), "x.yml:9", &cause), -1);
	assert_string_equal(cause, "x.yml:9: group 'g199990' is its own "
	    "ancestor: g199990 -> g199991 -> g199992 -> g199993 -> g199994 -> "
	    "g199995 -> g199996 -> g199997 -> g199998 -> g199999 -> g199990");
	free(cause);
	inventory_free(inv);
}

/* A dynamic inventory listing the chain from the bottom group up. */
static void
test_chain_json_reversed(void **state)
{
	struct inventory	*inv = inventory_new();
	json_t			*list = json_object();
	char			 name[32], child[32], *cause = NULL;
	int			 i, n = 100000;

	(void)state;
	snprintf(name, sizeof name, "g%d", n);
	json_object_set_new(list, name, json_pack("{s:[s]}", "hosts", "h1"));
	for (i = n - 1; i >= 0; i--) {
		snprintf(name, sizeof name, "g%d", i);
		snprintf(child, sizeof child, "g%d", i + 1);
		json_object_set_new(list, name, json_pack("{s:[s]}",
		    "children", child));
	}
	start();
	assert_int_equal(inventory_add_list_json(inv, list, "script", &cause),
	    0);
	assert_int_equal(inventory_finish(inv, &cause), 0);
	expect_groups(inv, "h1", n + 2);
	within_bound();
	json_decref(list);
	inventory_free(inv);
}

/* shared/bugs/fuzz/ini-children-diamond24.ini, 60 diamonds deep: 2^60
 * paths from the top to the host, which the old search walked one by one. */
static void
test_diamonds(void **state)
{
	struct inventory	*inv = inventory_new();
	struct strbuf		 sb;
	char			*cause = NULL, *graph;
	json_t			*list;
	int			 i, n = 60;

	(void)state;
	strbuf_init(&sb);
	for (i = 0; i < n; i++)
		strbuf_addf(&sb, "[a%d:children]\nb%d\nc%d\n[b%d:children]\n"
		    "a%d\n[c%d:children]\na%d\n", i, i, i, i, i + 1, i, i + 1);
	strbuf_addf(&sb, "[a%d]\nh1\n", n);
	start();
	assert_int_equal(inv_load_ini_buffer(inv, "d.ini", sb.buf, sb.len,
	    &cause), 0);
	assert_int_equal(inventory_finish(inv, &cause), 0);
	assert_int_equal(inventory_group(inv, "a60")->depth, 2 * n + 1);
	expect_groups(inv, "h1", 3 * n + 2);
	list = inventory_list_json(inv, NULL, &cause);
	assert_non_null(list);
	json_decref(list);
	/* --graph prints a group once per path, as Ansible does: capped */
	graph = inventory_graph(inv, NULL, 0, NULL, &cause);
	assert_null(graph);
	assert_string_equal(cause, "--graph of 'all' is over 64 MiB (groups "
	    "reached by many paths are printed once per path)");
	free(cause);
	cause = NULL;
	/* a cycle through a diamond is still found, with its path */
	strbuf_reset(&sb);
	strbuf_addstr(&sb, "[a60:children]\na0\n");
	assert_int_equal(inv_load_ini_buffer(inv, "d.ini", sb.buf, sb.len,
	    &cause), -1);
	assert_non_null(strstr(cause, "d.ini:2: group 'a0' is its own "
	    "ancestor: a0 -> b0 -> a1 -> b1 -> a2"));
	within_bound();
	free(cause);
	strbuf_release(&sb);
	inventory_free(inv);
}

/* Children named long before their sections: each section used to search
 * the list of pending names, and each link the parent's children. */
static void
test_pending_children(void **state)
{
	struct inventory	*inv = inventory_new();
	struct strbuf		 sb;
	char			*cause = NULL;
	const char		**hosts;
	size_t			 n;
	int			 i;

	(void)state;
	strbuf_init(&sb);
	strbuf_addstr(&sb, "[p:children]\n");
	for (i = 0; i < 100000; i++)
		strbuf_addf(&sb, "c%d\n", i);
	for (i = 0; i < 100000; i++)
		strbuf_addf(&sb, "[c%d]\nh%d\n", i, i);
	start();
	assert_int_equal(inv_load_ini_buffer(inv, "p.ini", sb.buf, sb.len,
	    &cause), 0);
	assert_int_equal(inventory_finish(inv, &cause), 0);
	assert_int_equal(inventory_group_hosts(inv, "p", &hosts, &n), 0);
	assert_int_equal(n, 100000);
	free(hosts);
	json_decref(inventory_list_json(inv, NULL, &cause));
	within_bound();
	strbuf_release(&sb);
	inventory_free(inv);
}

/* Arrays that grew one element at a time: under ASan (the fuzzing and
 * sanitizer builds) each growth copied the whole array, so 200,000 hosts
 * in a group (a range product under the cap, a big fleet) took minutes and
 * gigabytes. */
static void
test_many_hosts(void **state)
{
	struct inventory	*inv = inventory_new();
	struct inv_group	*g = inv_add_group(inv, "g");
	const char		**hosts;
	char			 name[32], *cause = NULL;
	size_t			 n;
	int			 i;

	(void)state;
	start();
	for (i = 0; i < 200000; i++) {
		snprintf(name, sizeof name, "h%d", i);
		inv_add_host(inv, name, g, -1);
	}
	assert_int_equal(inventory_finish(inv, &cause), 0);
	assert_int_equal(inventory_group_hosts(inv, "all", &hosts, &n), 0);
	assert_int_equal(n, 200000);
	assert_string_equal(hosts[199999], "h199999");
	free(hosts);
	within_bound();
	inventory_free(inv);
}

static json_t *
literal_of(const char *text)
{
	struct inventory	*inv = inventory_new();
	char			*cause = NULL;
	json_t			*v;

	assert_int_equal(inv_load_ini_buffer(inv, "l.ini", text, strlen(text),
	    &cause), 0);
	v = json_incref(json_object_get(inventory_host(inv, "h1")->vars,
	    "x"));
	inventory_free(inv);
	return v;
}

/* Python's parser stops at 200 nested brackets and Ansible then keeps the
 * value as a string; the recursion used to go as deep as the input. */
static void
test_literal_depth(void **state)
{
	struct strbuf	 sb;
	json_t		*v;
	int		 depth, i;

	(void)state;
	for (depth = 200; depth <= 201; depth++) {
		strbuf_init(&sb);
		strbuf_addstr(&sb, "h1 x=");
		for (i = 0; i < depth; i++)
			strbuf_addch(&sb, i % 3 == 0 ? '[' : i % 3 == 1 ? '(' :
			    '{');
		for (i = depth - 1; i >= 0; i--)
			strbuf_addch(&sb, i % 3 == 0 ? ']' : i % 3 == 1 ? ')' :
			    '}');
		v = literal_of(sb.buf);
		if (depth == 200)
			assert_true(json_is_array(v));
		else {
			assert_true(json_is_string(v));
			assert_string_equal(json_string_value(v), sb.buf + 5);
		}
		json_decref(v);
		strbuf_release(&sb);
	}
	/* gen-large.py's ini-deep-literal-50000.ini */
	strbuf_init(&sb);
	strbuf_addstr(&sb, "h1 x=");
	for (i = 0; i < 50000; i++)
		strbuf_addch(&sb, '[');
	for (i = 0; i < 50000; i++)
		strbuf_addch(&sb, ']');
	v = literal_of(sb.buf);
	assert_true(json_is_string(v));
	assert_int_equal(json_string_length(v), 100000);
	json_decref(v);
	strbuf_release(&sb);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chain_bottom_up),
		cmocka_unit_test(test_chain_json_reversed),
		cmocka_unit_test(test_diamonds),
		cmocka_unit_test(test_pending_children),
		cmocka_unit_test(test_literal_depth),
		cmocka_unit_test(test_many_hosts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
