/* The path matrix (lib/report/matrix*.c): reading iperf3_verify results
 * (a later result of a pair replaces the earlier one), medians and minima
 * per group pair and run, the group rule (the inventory's partition, the
 * matrix_groups list, the one-group fallback), the text, JSON and
 * Prometheus forms, and the HTML page: one cell per measured group pair
 * and phase, and every name from an inventory escaped. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/atomicfile.h"
#include "inventory/inventory.h"
#include "report/matrix-groups.h"
#include "report/matrix-html.h"
#include "report/matrix-prom.h"
#include "report/matrix.h"

/* A run's JSON as iperf3_verify writes it. */
static json_t *
run_json(double mbps, double rtt, long long retr)
{
	return json_pack("{s:f, s:f, s:f, s:I, s:{s:f, s:f, s:f}, s:i, "
	    "s:b, s:s}", "mbps", mbps, "sent_mbps", mbps, "seconds", 2.0,
	    "retransmits", (json_int_t)retr, "rtt_ms", "mean", rtt, "min",
	    rtt, "max", rtt, "streams", 1, "reverse", 0, "congestion", "bbr");
}

/* One result's data: pairs of (peer, before single up, after single up);
 * a figure < 0 leaves that phase out. */
static json_t *
result(const char *peer, double before, double after)
{
	json_t *p = json_pack("{s:s, s:s, s:s}", "peer", peer, "address",
	    "198.19.0.9", "phase", after >= 0 ? "after" : "before");

	if (before >= 0)
		json_object_set_new(p, "before", json_pack("{s:o}",
		    "single_up", run_json(before, 100, 2)));
	if (after >= 0)
		json_object_set_new(p, "after", json_pack("{s:o}",
		    "single_up", run_json(after, 110, 5)));
	return json_pack("{s:[o]}", "pairs", p);
}

static void
add(struct matrix_input *in, const char *host, const char *peer,
    double before, double after)
{
	json_t	*d = result(peer, before, after);
	char	*cause = NULL;

	if (matrix_input_add(in, host, d, &cause) != 0)
		fail_msg("%s", cause);
	json_decref(d);
}

static int
count(const char *hay, const char *needle)
{
	int n = 0;

	for (; (hay = strstr(hay, needle)) != NULL; hay++)
		n++;
	return n;
}

/* eu = a1 a2 a3, us = b1 b2: three pairs eu -> us, one eu -> eu. */
static void
sample(struct matrix_input *in, struct matrix_groups *g)
{
	matrix_input_init(in);
	add(in, "a1", "b1", 10, 90);
	add(in, "a2", "b1", 20, 80);
	add(in, "a3", "b2", 30, 95);
	add(in, "a1", "a2", 100, 200);
	matrix_groups_init(g, "inventory");
	matrix_groups_place(g, "eu", "a1");
	matrix_groups_place(g, "eu", "a2");
	matrix_groups_place(g, "eu", "a3");
	matrix_groups_place(g, "us", "b1");
	matrix_groups_place(g, "us", "b2");
}

static void
test_aggregate(void **state)
{
	struct matrix_input	 in;
	struct matrix_groups	 g;
	struct matrix		 m;
	const struct matrix_cell *c;
	const struct matrix_stat *b, *a;

	(void)state;
	sample(&in, &g);
	matrix_build(&m, &in, &g);
	assert_int_equal(m.ncells, 2);		/* eu->eu, eu->us */
	assert_int_equal(m.npairs, 4);
	assert_null(matrix_cell(&m, 1, 0));	/* us -> eu: none */
	assert_null(matrix_cell(&m, 1, 1));
	c = matrix_cell(&m, 0, 1);
	assert_non_null(c);
	assert_int_equal(c->npairs, 3);
	b = &c->run[IPERF_SINGLE_UP][MATRIX_BEFORE];
	a = &c->run[IPERF_SINGLE_UP][MATRIX_AFTER];
	assert_int_equal(b->n, 3);
	assert_float_equal(b->mbps_median, 20, 1e-9);
	assert_float_equal(b->mbps_min, 10, 1e-9);
	assert_float_equal(a->mbps_median, 90, 1e-9);
	assert_float_equal(a->mbps_min, 80, 1e-9);
	assert_float_equal(b->rtt_ms_median, 100, 1e-9);
	assert_float_equal(a->rtt_ms_median, 110, 1e-9);
	assert_int_equal(b->retransmits, 6);
	assert_int_equal(a->retransmits, 15);
	assert_int_equal(c->run[IPERF_SINGLE_DOWN][MATRIX_BEFORE].n, 0);
	/* per host: a1 has two pairs (10, 100): median 55 */
	assert_int_equal(m.nhosts, 3);
	assert_string_equal(m.hosts[0].name, "a1");
	assert_float_equal(m.hosts[0].mbps[MATRIX_BEFORE], 55, 1e-9);
	assert_float_equal(m.hosts[0].mbps[MATRIX_AFTER], 145, 1e-9);
	matrix_release(&m);
	matrix_groups_release(&g);
	matrix_input_release(&in);
}

/* A play's baseline task, then its after task: the pair counts once, with
 * the later figures; a bad result adds nothing. */
static void
test_input_replace(void **state)
{
	struct matrix_input	 in;
	json_t			*bad;
	char			*cause = NULL;

	(void)state;
	matrix_input_init(&in);
	add(&in, "a1", "b1", 10, -1);
	add(&in, "a1", "b1", 11, 90);
	assert_int_equal(in.n, 1);
	assert_true(in.pairs[0].have[MATRIX_AFTER]);
	assert_float_equal(in.pairs[0].set[MATRIX_BEFORE].run[0].mbps, 11,
	    1e-9);
	bad = json_pack("{s:[{s:s}, {s:i}]}", "pairs", "peer", "b2", "peer",
	    3);
	assert_int_equal(matrix_input_add(&in, "a1", bad, &cause), -1);
	assert_string_equal(cause, "pairs item 2 has no 'peer'");
	assert_int_equal(in.n, 1);
	free(cause);
	json_decref(bad);
	matrix_input_release(&in);
}

/* add, with the task's diagnosis of its single up: LIMIT blamed on WHO. */
static void
add_diag(struct matrix_input *in, const char *host, const char *peer,
    double before, double after, const char *limit, const char *who)
{
	json_t	*d = result(peer, before, after);
	char	*cause = NULL;

	json_object_set_new(json_array_get(json_object_get(d, "pairs"), 0),
	    "diagnosis", json_pack("{s:{s:s, s:s?}}", "single_up", "limit",
	    limit, "host", who));
	if (matrix_input_add(in, host, d, &cause) != 0)
		fail_msg("%s", cause);
	json_decref(d);
}

/* Each cell names the most frequent limit of its pairs per phase, and
 * which end's setting: the baseline's diagnosis stays when the after task
 * adds its own. */
static void
test_limits(void **state)
{
	struct matrix_input	 in;
	struct matrix_groups	 g;
	struct matrix		 m;
	const struct matrix_cell *c;
	char			*h;
	json_t			*j;
	const json_t		*b;

	(void)state;
	matrix_input_init(&in);
	add_diag(&in, "a1", "b1", 10, -1, "receive_window", "b1");
	add_diag(&in, "a2", "b1", 12, -1, "receive_window", "b1");
	add_diag(&in, "a3", "b2", 11, -1, "send_buffer", "a3");
	add_diag(&in, "a1", "b1", 10, 95, "link_rate", NULL);
	matrix_groups_init(&g, "inventory");
	matrix_groups_place(&g, "eu", "a1");
	matrix_groups_place(&g, "eu", "a2");
	matrix_groups_place(&g, "eu", "a3");
	matrix_groups_place(&g, "us", "b1");
	matrix_groups_place(&g, "us", "b2");
	matrix_build(&m, &in, &g);
	c = matrix_cell(&m, 0, 1);
	assert_non_null(c);
	assert_string_equal(c->run[IPERF_SINGLE_UP][MATRIX_BEFORE].limited_by,
	    "receive_window dst");
	assert_int_equal(c->run[IPERF_SINGLE_UP][MATRIX_BEFORE].limited_n, 2);
	assert_string_equal(c->run[IPERF_SINGLE_UP][MATRIX_AFTER].limited_by,
	    "link_rate");
	assert_int_equal(c->run[IPERF_SINGLE_UP][MATRIX_AFTER].limited_n, 1);
	j = matrix_json(&m);
	b = json_object_get(json_object_get(json_object_get(json_array_get(
	    json_object_get(j, "cells"), 0), "runs"), "single_up"), "before");
	assert_string_equal(json_string_value(json_object_get(b,
	    "limited_by")), "receive_window dst");
	assert_int_equal(json_integer_value(json_object_get(b,
	    "limited_pairs")), 2);
	json_decref(j);
	h = matrix_html(&m, "2026-12-01 10:00:00 UTC");
	assert_non_null(strstr(h, ">rwnd dst 2/3</text>"));
	assert_non_null(strstr(h, ">link 1/1</text>"));
	assert_non_null(strstr(h, "; limited by receive_window dst in 2"
	    "</title>"));
	assert_non_null(strstr(h, "<td>receive_window dst (2)</td>"));
	free(h);
	matrix_release(&m);
	matrix_groups_release(&g);
	matrix_input_release(&in);
}

/* A pair is in both ends' results; the server's mirror is not counted. */
static void
test_input_server_skipped(void **state)
{
	struct matrix_input	 in;
	json_t			*d;
	char			*cause = NULL;

	(void)state;
	matrix_input_init(&in);
	d = result("a1", 10, 90);
	json_object_set_new(json_array_get(json_object_get(d, "pairs"), 0),
	    "role", json_string("server"));
	assert_int_equal(matrix_input_add(&in, "b1", d, &cause), 0);
	assert_int_equal(in.n, 0);
	json_decref(d);
	d = result("b1", 10, 90);
	json_object_set_new(json_array_get(json_object_get(d, "pairs"), 0),
	    "role", json_string("client"));
	assert_int_equal(matrix_input_add(&in, "a1", d, &cause), 0);
	assert_int_equal(in.n, 1);
	assert_string_equal(in.pairs[0].host, "a1");
	json_decref(d);
	matrix_input_release(&in);
}

static struct inventory *
regions(void)
{
	struct inventory	*inv = inventory_new();
	char			*cause = NULL;

	if (inventory_add_source(inv, "tests/data/matrix/regions.yml",
	    &cause) != 0 || inventory_finish(inv, &cause) != 0)
		fail_msg("%s", cause);
	return inv;
}

static void
test_groups_default(void **state)
{
	struct inventory	*inv = regions();
	struct matrix_input	 in;
	struct matrix_groups	 g;

	(void)state;
	matrix_input_init(&in);
	add(&in, "gra1", "bhs1", 1, 2);
	add(&in, "gra2", "tok1", 1, 2);
	add(&in, "tok1", "gra1", 1, 2);
	/* regions (3 groups) beat ovh+gcp_tokyo and web+db (2 each) */
	assert_int_equal(matrix_groups_choose(&g, inv, NULL, &in, NULL), 0);
	assert_string_equal(g.rule, "inventory");
	assert_int_equal(g.n, 3);
	assert_string_equal(g.names[0], "ovh_gra");
	assert_string_equal(g.names[1], "ovh_bhs");
	assert_string_equal(g.names[2], "gcp_tokyo");
	assert_int_equal(matrix_groups_of(&g, "gra2"), 0);
	assert_int_equal(matrix_groups_of(&g, "tok1"), 2);
	matrix_groups_release(&g);
	matrix_input_release(&in);

	/* only gra1 and gra2: every region group holds both; nothing but
	 * the role groups splits them */
	matrix_input_init(&in);
	add(&in, "gra1", "gra2", 1, 2);
	assert_int_equal(matrix_groups_choose(&g, inv, NULL, &in, NULL), 0);
	assert_int_equal(g.n, 2);
	assert_string_equal(g.names[0], "web");
	assert_string_equal(g.names[1], "db");
	matrix_groups_release(&g);
	matrix_input_release(&in);

	/* gra1, bhs1 and gra2 with web+db crossing ovh_gra: ovh_gra and
	 * ovh_bhs partition them */
	matrix_input_init(&in);
	add(&in, "gra1", "bhs1", 1, 2);
	add(&in, "gra2", "bhs1", 1, 2);
	assert_int_equal(matrix_groups_choose(&g, inv, NULL, &in, NULL), 0);
	assert_int_equal(g.n, 2);
	assert_string_equal(g.names[0], "ovh_gra");
	assert_string_equal(g.names[1], "ovh_bhs");
	matrix_groups_release(&g);
	matrix_input_release(&in);
	inventory_free(inv);
}

/* One group holding every host: nothing partitions, one group "all". */
static void
test_groups_fallback(void **state)
{
	struct inventory	*inv = inventory_new();
	struct matrix_input	 in;
	struct matrix_groups	 g;
	char			*cause = NULL;

	(void)state;
	if (inventory_add_source(inv, "h1,h2,h3,", &cause) != 0 ||
	    inventory_finish(inv, &cause) != 0)
		fail_msg("%s", cause);
	matrix_input_init(&in);
	add(&in, "h1", "h2", 1, 2);
	add(&in, "h3", "h2", 1, 2);
	assert_int_equal(matrix_groups_choose(&g, inv, NULL, &in, NULL), 0);
	assert_string_equal(g.rule, "all");
	assert_int_equal(g.n, 1);
	assert_string_equal(g.names[0], "all");
	assert_int_equal(matrix_groups_of(&g, "h3"), 0);
	matrix_groups_release(&g);
	matrix_input_release(&in);
	inventory_free(inv);
}

static void
test_groups_listed(void **state)
{
	struct inventory	*inv = regions();
	struct matrix_input	 in;
	struct matrix_groups	 g;
	struct matrix		 m;
	json_t			*v;
	char			*cause = NULL;

	(void)state;
	matrix_input_init(&in);
	add(&in, "gra1", "bhs1", 1, 2);
	add(&in, "gra2", "tok1", 1, 2);
	/* a host goes to the first listed group it is in; tok1 is in none */
	v = json_pack("[s, s]", "web", "ovh");
	assert_int_equal(matrix_groups_choose(&g, inv, v, &in, NULL), 0);
	assert_string_equal(g.rule, "matrix_groups");
	assert_int_equal(matrix_groups_of(&g, "gra1"), 0);
	assert_int_equal(matrix_groups_of(&g, "gra2"), 1);
	assert_int_equal(matrix_groups_of(&g, "tok1"), -1);
	matrix_build(&m, &in, &g);
	assert_int_equal(m.unassigned, 1);
	assert_int_equal(m.ncells, 1);		/* web -> web (bhs1) */
	matrix_release(&m);
	matrix_groups_release(&g);
	json_decref(v);

	/* -e matrix_groups=ovh,gcp */
	v = json_string("ovh,gcp");
	assert_int_equal(matrix_groups_choose(&g, inv, v, &in, NULL), 0);
	assert_int_equal(g.n, 2);
	assert_int_equal(matrix_groups_of(&g, "tok1"), 1);
	matrix_groups_release(&g);
	json_decref(v);

	v = json_pack("[s, s]", "ovh", "gcp_paris");
	assert_int_equal(matrix_groups_choose(&g, inv, v, &in, &cause), -1);
	assert_string_equal(cause, "matrix_groups: 'gcp_paris' is not a "
	    "group of the inventory");
	free(cause);
	matrix_groups_release(&g);
	json_decref(v);
	v = json_integer(3);
	assert_int_equal(matrix_groups_choose(&g, inv, v, &in, &cause), -1);
	assert_string_equal(cause, "matrix_groups: expected a list of "
	    "inventory group names");
	free(cause);
	matrix_groups_release(&g);
	json_decref(v);
	matrix_input_release(&in);
	inventory_free(inv);
}

static void
test_text_json_prom(void **state)
{
	struct matrix_input	 in;
	struct matrix_groups	 g;
	struct matrix		 m;
	json_t			*j;
	char			*t;

	(void)state;
	sample(&in, &g);
	matrix_build(&m, &in, &g);
	t = matrix_text(&m);
	assert_non_null(strstr(t, "PATH MATRIX (before -> after): 4 pairs, "
	    "groups eu, us (the inventory groups that partition the measured "
	    "hosts)\n"));
	assert_non_null(strstr(t, "\n  eu -> us    single up        3  "
	    "20.0 -> 90.0     10.0 -> 80.0       4.5x  100.0 -> 110.0   "
	    "6 -> 15\n"));
	free(t);

	j = matrix_json(&m);
	assert_int_equal(json_array_size(json_object_get(j, "cells")), 2);
	assert_string_equal(json_string_value(json_object_get(json_array_get(
	    json_object_get(j, "cells"), 1), "dst_group")), "us");
	assert_float_equal(json_real_value(json_object_get(json_object_get(
	    json_object_get(json_object_get(json_array_get(json_object_get(j,
	    "cells"), 1), "runs"), "single_up"), "after"), "mbps_min")), 80,
	    1e-9);
	json_decref(j);

	t = matrix_prom(&m, 1732960000.5);
	assert_non_null(strstr(t, "# TYPE tcptune_path_mbit gauge\n"));
	assert_non_null(strstr(t, "\ntcptune_path_mbit{src_group=\"eu\","
	    "dst_group=\"us\",phase=\"after\",direction=\"up\","
	    "streams=\"single\"} 90.000\n"));
	assert_non_null(strstr(t, "\ntcptune_path_min_mbit{src_group=\"eu\","
	    "dst_group=\"us\",phase=\"before\",direction=\"up\","
	    "streams=\"single\"} 10.000\n"));
	assert_non_null(strstr(t, "\ntcptune_path_retransmits{src_group="
	    "\"eu\",dst_group=\"us\",phase=\"after\",direction=\"up\","
	    "streams=\"single\"} 15\n"));
	assert_non_null(strstr(t, "\ntcptune_path_pairs{src_group=\"eu\","
	    "dst_group=\"eu\"} 1\n"));
	assert_int_equal(count(t, "tcptune_path_mbit{"), 4);
	free(t);
	matrix_release(&m);
	matrix_groups_release(&g);
	matrix_input_release(&in);
}

/* Two groups, four cells of which three measured: three cells per
 * heatmap, two heatmaps, and an empty one each. */
static void
test_html_cells(void **state)
{
	struct matrix_input	 in;
	struct matrix_groups	 g;
	struct matrix		 m;
	char			*h;

	(void)state;
	sample(&in, &g);
	add(&in, "b1", "b2", 50, 60);
	matrix_build(&m, &in, &g);
	h = matrix_html(&m, "2026-12-01 10:00:00 UTC");
	assert_int_equal(count(h, "<g class=\"cell\""), 6);
	assert_int_equal(count(h, "data-phase=\"before\" data-mbps"), 3);
	assert_int_equal(count(h, "<rect class=\"empty\""), 2);
	assert_int_equal(count(h, "<g class=\"bar\""), 8);
	assert_null(strstr(h, "<script"));
	assert_null(strstr(h, "src=\"http"));
	assert_non_null(strstr(h, "default-src 'none'"));
	free(h);
	matrix_release(&m);
	matrix_groups_release(&g);
	matrix_input_release(&in);
}

/* Nothing from an inventory is trusted: tags and quotes in group and host
 * names come out as entities, in text and in attributes. */
static void
test_html_hostile(void **state)
{
	static const char grp[] = "<script>alert(1)</script>";
	static const char host[] = "h\"onmouseover='x()'&<b>";
	struct matrix_input	 in;
	struct matrix_groups	 g;
	struct matrix		 m;
	char			*h, *e;

	(void)state;
	matrix_input_init(&in);
	add(&in, host, "ok", 10, 20);
	matrix_groups_init(&g, "matrix_groups");
	matrix_groups_place(&g, grp, host);
	matrix_groups_place(&g, "x\"y", "ok");
	matrix_build(&m, &in, &g);
	h = matrix_html(&m, "<when>");
	assert_null(strstr(h, "<script"));
	assert_null(strstr(h, "<b>"));
	assert_null(strstr(h, "<when>"));
	assert_null(strstr(h, "onmouseover='"));
	assert_null(strstr(h, "x\"y"));
	assert_non_null(strstr(h, "data-src=\"&lt;script&gt;alert(1)&lt;/"
	    "script&gt;\" data-dst=\"x&quot;y\""));
	assert_non_null(strstr(h, "data-host=\"h&quot;onmouseover=&#39;x()"
	    "&#39;&amp;&lt;b&gt;\""));
	e = matrix_html_escape("a\nb<&>\"'");
	assert_string_equal(e, "a?b&lt;&amp;&gt;&quot;&#39;");
	free(e);
	free(h);
	matrix_release(&m);
	matrix_groups_release(&g);
	matrix_input_release(&in);
}

static void
test_atomic_write(void **state)
{
	char		 dir[] = "/tmp/test-matrix.XXXXXX", path[128], buf[64];
	char		*cause = NULL;
	struct stat	 st;
	FILE		*fp;
	size_t		 n;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/r.html", dir);
	assert_int_equal(file_dir_writable(path, NULL), 0);
	assert_int_equal(file_replace_atomic(path, "old", 3, 0644, NULL), 0);
	assert_int_equal(file_replace_atomic(path, "<p>new", 6, 0644, NULL),
	    0);
	assert_non_null(fp = fopen(path, "r"));
	n = fread(buf, 1, sizeof buf - 1, fp);
	buf[n] = '\0';
	fclose(fp);
	assert_string_equal(buf, "<p>new");
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0644);
	unlink(path);
	assert_int_equal(rmdir(dir), 0);	/* no temporary file left */
	assert_int_equal(file_dir_writable(path, &cause), -1);
	assert_non_null(strstr(cause, "No such file or directory"));
	free(cause);
	cause = NULL;
	assert_int_equal(file_replace_atomic(path, "x", 1, 0644, &cause), -1);
	assert_non_null(strstr(cause, "cannot create a temporary file"));
	free(cause);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_aggregate),
		cmocka_unit_test(test_input_replace),
		cmocka_unit_test(test_input_server_skipped),
		cmocka_unit_test(test_groups_default),
		cmocka_unit_test(test_groups_fallback),
		cmocka_unit_test(test_groups_listed),
		cmocka_unit_test(test_text_json_prom),
		cmocka_unit_test(test_html_cells),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_html_hostile),
		cmocka_unit_test(test_atomic_write),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
