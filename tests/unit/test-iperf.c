/* iperf3 -J parsing (real outputs captured in the lab over the WAN
 * emulator, 52 ms each way, 100 Mbit/s: tests/data/iperf/), command lines,
 * the before/after table and the gate. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Before cmocka.h: its fail() macro would rewrite xalloc's prototype. */
#include "remote/iperf.h"
#include "modules/verify-table.h"
#include "base/xalloc.h"

#include <cmocka.h>

static char *
slurp(const char *name, size_t *len)
{
	const char	*src = getenv("TCPTUNE_SRC");
	char		*path, *buf;
	FILE		*f;
	long		 n;

	path = xprintf("%s/tests/data/iperf/%s", src != NULL ? src : ".",
	    name);
	f = fopen(path, "rb");
	if (f == NULL)
		fail_msg("cannot open %s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = xmalloc(n + 1);
	assert_int_equal(fread(buf, 1, n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	free(path);
	*len = n;
	return buf;
}

static void
parse_file(const char *name, struct iperf_run *r)
{
	size_t	 len;
	char	*text = slurp(name, &len), *cause = NULL;

	if (iperf_parse(text, len, r, &cause) != 0)
		fail_msg("%s: %s", name, cause);
	free(text);
}

static void
test_single_up(void **state)
{
	struct iperf_run r;

	(void)state;
	parse_file("single-up.json", &r);
	assert_float_equal(r.mbps, 96.3213, 0.001);
	assert_float_equal(r.sent_mbps, 94.3712, 0.001);
	assert_int_equal(r.retransmits, 1698);
	assert_float_equal(r.rtt_mean_ms, 116.893, 0.0005);
	assert_float_equal(r.rtt_min_ms, 104.969, 0.0005);
	assert_float_equal(r.rtt_max_ms, 151.489, 0.0005);
	assert_string_equal(r.congestion, "bbr");
	assert_int_equal(r.streams, 1);
	assert_false(r.reverse);
	assert_true(r.seconds > 2.9 && r.seconds < 3.2);
}

/* -R: the server sent; its figures come from server_output_json (the
 * client's own streams carry RTT 0). */
static void
test_single_down(void **state)
{
	struct iperf_run r;

	(void)state;
	parse_file("single-down.json", &r);
	assert_true(r.reverse);
	assert_float_equal(r.mbps, 96.2460, 0.001);
	assert_int_equal(r.retransmits, 1687);
	assert_float_equal(r.rtt_mean_ms, 124.639, 0.0005);
	assert_float_equal(r.rtt_min_ms, 104.829, 0.0005);
	assert_float_equal(r.rtt_max_ms, 142.972, 0.0005);
	assert_string_equal(r.congestion, "bbr");
}

/* -R with a server not run with -J: only server_output_text; the client's
 * sum_sent still carries the sender's retransmits, RTT is unknown. */
static void
test_down_text_server(void **state)
{
	struct iperf_run r;

	(void)state;
	parse_file("single-down-textserver.json", &r);
	assert_true(r.reverse);
	assert_float_equal(r.mbps, 96.2535, 0.001);
	assert_int_equal(r.retransmits, 1698);
	assert_true(r.rtt_mean_ms < 0);
	assert_string_equal(r.congestion, "");
}

static void
test_multi(void **state)
{
	struct iperf_run r;

	(void)state;
	parse_file("multi-up.json", &r);
	assert_int_equal(r.streams, 2);
	assert_float_equal(r.mbps, 96.5317, 0.001);
	assert_int_equal(r.retransmits, 1751);
	/* mean of the means, smallest min, largest max */
	assert_float_equal(r.rtt_mean_ms, (139.428 + 138.741) / 2, 0.0005);
	assert_float_equal(r.rtt_min_ms, 110.053, 0.0005);
	assert_float_equal(r.rtt_max_ms, 198.702, 0.0005);

	parse_file("multi-down.json", &r);
	assert_int_equal(r.streams, 2);
	assert_true(r.reverse);
	assert_int_equal(r.retransmits, 2105);
	assert_float_equal(r.rtt_mean_ms, (180.508 + 180.572) / 2, 0.0005);
	assert_float_equal(r.rtt_min_ms, 122.610, 0.0005);
	assert_float_equal(r.rtt_max_ms, 209.032, 0.0005);
}

static void
test_errors(void **state)
{
	struct iperf_run	 r;
	size_t			 len;
	char			*text, *cause = NULL;

	(void)state;
	text = slurp("refused.json", &len);
	assert_int_equal(iperf_parse(text, len, &r, &cause), -1);
	assert_string_equal(cause, "iperf3: unable to connect to server: "
	    "Connection refused");
	free(cause);
	free(text);

	cause = NULL;
	assert_int_equal(iperf_parse("", 0, &r, &cause), -1);
	assert_string_equal(cause, "iperf3 printed nothing");
	free(cause);

	cause = NULL;
	assert_int_equal(iperf_parse("iperf3: error", 13, &r, &cause), -1);
	assert_non_null(strstr(cause, "not JSON"));
	free(cause);

	cause = NULL;
	assert_int_equal(iperf_parse("{\"end\": {}}", 11, &r, &cause), -1);
	assert_non_null(strstr(cause, "sum_sent"));
	free(cause);
}

static void
test_set_json_round_trip(void **state)
{
	struct iperf_set	 s, t;
	json_t			*j;

	(void)state;
	memset(&s, 0, sizeof s);
	parse_file("single-up.json", &s.run[IPERF_SINGLE_UP]);
	s.have[IPERF_SINGLE_UP] = 1;
	parse_file("multi-down.json", &s.run[IPERF_MULTI_DOWN]);
	s.have[IPERF_MULTI_DOWN] = 1;
	j = iperf_set_json(&s);
	assert_non_null(json_object_get(j, "single_up"));
	assert_null(json_object_get(j, "single_down"));
	assert_int_equal(json_integer_value(json_object_get(json_object_get(j,
	    "multi_down"), "retransmits")), 2105);
	assert_int_equal(iperf_set_from_json(j, &t), 0);
	json_decref(j);
	assert_true(t.have[IPERF_SINGLE_UP] && t.have[IPERF_MULTI_DOWN]);
	assert_false(t.have[IPERF_SINGLE_DOWN] || t.have[IPERF_MULTI_UP]);
	assert_float_equal(t.run[IPERF_SINGLE_UP].mbps,
	    s.run[IPERF_SINGLE_UP].mbps, 1e-9);
	assert_float_equal(t.run[IPERF_MULTI_DOWN].rtt_max_ms, 209.032, 1e-9);
	assert_string_equal(t.run[IPERF_MULTI_DOWN].congestion, "bbr");
	assert_true(t.run[IPERF_MULTI_DOWN].reverse);
	assert_int_equal(iperf_set_from_json(json_null(), &t), -1);
}

/* Stock (reno, 212992-byte buffers) before, tuned (bbr, 32 MiB) after. */
static void
load_before_after(struct iperf_set *b, struct iperf_set *a)
{
	memset(b, 0, sizeof *b);
	memset(a, 0, sizeof *a);
	parse_file("stock-single-up.json", &b->run[IPERF_SINGLE_UP]);
	parse_file("stock-single-down.json", &b->run[IPERF_SINGLE_DOWN]);
	parse_file("single-up.json", &a->run[IPERF_SINGLE_UP]);
	parse_file("single-down.json", &a->run[IPERF_SINGLE_DOWN]);
	b->have[IPERF_SINGLE_UP] = b->have[IPERF_SINGLE_DOWN] = 1;
	a->have[IPERF_SINGLE_UP] = a->have[IPERF_SINGLE_DOWN] = 1;
}

static void
test_gate(void **state)
{
	struct iperf_set	b, a;
	struct verify_gate	g = { .min_gain = 5, .gain_kind = IPERF_SINGLE_UP,
	    .max_regression = 0.1 };
	char			*why;

	(void)state;
	load_before_after(&b, &a);
	assert_float_equal(verify_ratio(&b, &a, IPERF_SINGLE_UP),
	    96.3213 / 9.9542, 0.01);
	assert_true(verify_ratio(&b, &a, IPERF_MULTI_UP) < 0);

	assert_int_equal(verify_gate_check(&b, &a, &g, &why), 1);
	assert_non_null(strstr(why, "single up gained 9.7x"));
	free(why);

	/* A gain below min_gain fails. */
	g.min_gain = 20;
	assert_int_equal(verify_gate_check(&b, &a, &g, &why), 0);
	assert_non_null(strstr(why, "less than min_gain 20x"));
	free(why);

	/* Swapped: every run lost ~90%, more than the 10% allowed. */
	g.min_gain = 0;
	assert_int_equal(verify_gate_check(&a, &b, &g, &why), 0);
	assert_non_null(strstr(why, "single up 96.3 -> 10.0 Mbit/s (-90%, "
	    "more than the 10% allowed)"));
	assert_non_null(strstr(why, "; single down 96.2 -> 9.9 Mbit/s"));
	free(why);

	/* Exactly at the floor passes; just under fails. */
	a = b;
	a.run[IPERF_SINGLE_UP].mbps = b.run[IPERF_SINGLE_UP].mbps * 0.9;
	assert_int_equal(verify_gate_check(&b, &a, &g, &why), 1);
	free(why);
	a.run[IPERF_SINGLE_UP].mbps = b.run[IPERF_SINGLE_UP].mbps * 0.89;
	assert_int_equal(verify_gate_check(&b, &a, &g, &why), 0);
	free(why);

	/* min_gain on a run that was not measured cannot pass. */
	g.min_gain = 2;
	g.gain_kind = IPERF_MULTI_UP;
	g.max_regression = -1;
	assert_int_equal(verify_gate_check(&b, &b, &g, &why), 0);
	assert_non_null(strstr(why, "multi up was not measured"));
	free(why);

	/* A zero baseline is an infinite gain, not a division by zero. */
	g.gain_kind = IPERF_SINGLE_UP;
	a = b;
	b.run[IPERF_SINGLE_UP].mbps = 0;
	assert_int_equal(verify_gate_check(&b, &a, &g, &why), 1);
	assert_non_null(strstr(why, "gained inf"));
	free(why);
}

/* Each end's view of one pair that ran one direction (reverse: false):
 * the client's single up is its server's single down, and min_gain on
 * single_up judges that flow at both ends; with both directions run, each
 * end judges its own up. */
static void
test_gate_each_end(void **state)
{
	struct iperf_set	b, a, cb, ca, sb, sa;
	struct verify_gate	g = { .min_gain = 3, .gain_kind = IPERF_SINGLE_UP,
	    .max_regression = -1 };
	char			*why;

	(void)state;
	load_before_after(&b, &a);
	cb = b;
	ca = a;
	cb.have[IPERF_SINGLE_DOWN] = ca.have[IPERF_SINGLE_DOWN] = 0;
	sb = cb;
	sa = ca;
	iperf_set_mirror(&sb);
	iperf_set_mirror(&sa);
	assert_false(sb.have[IPERF_SINGLE_UP]);
	assert_true(sb.have[IPERF_SINGLE_DOWN]);
	assert_float_equal(sa.run[IPERF_SINGLE_DOWN].mbps,
	    ca.run[IPERF_SINGLE_UP].mbps, 0);
	assert_int_equal(verify_gain_kind(&cb, &ca, IPERF_SINGLE_UP),
	    IPERF_SINGLE_UP);
	assert_int_equal(verify_gain_kind(&sb, &sa, IPERF_SINGLE_UP),
	    IPERF_SINGLE_DOWN);

	/* The client: its own up. */
	assert_int_equal(verify_gate_check(&cb, &ca, &g, &why), 1);
	assert_string_equal(why, "single up gained 9.7x (min_gain 3x)");
	free(why);
	/* The server: the same flow, its down (was: "single up was not
	 * measured before and after", a failed gate). */
	assert_int_equal(verify_gate_check(&sb, &sa, &g, &why), 1);
	assert_string_equal(why, "single down gained 9.7x (min_gain 3x; the "
	    "pair ran one direction, single down at this end, no single up)");
	free(why);

	/* Too small a gain fails at both ends, each naming its run. */
	g.min_gain = 20;
	assert_int_equal(verify_gate_check(&cb, &ca, &g, &why), 0);
	assert_non_null(strstr(why, "single up gained 9.7x"));
	free(why);
	assert_int_equal(verify_gate_check(&sb, &sa, &g, &why), 0);
	assert_non_null(strstr(why, "single down gained 9.7x (10.0 -> 96.3 "
	    "Mbit/s), less than min_gain 20x; the pair ran one direction"));
	free(why);

	/* Both directions run: the server judges its own up, the reverse
	 * run (stock 9.9 -> 96.2 in the fixtures), not the client's. */
	g.min_gain = 3;
	sb = b;
	sa = a;
	iperf_set_mirror(&sb);
	iperf_set_mirror(&sa);
	assert_int_equal(verify_gain_kind(&sb, &sa, IPERF_SINGLE_UP),
	    IPERF_SINGLE_UP);
	assert_int_equal(verify_gate_check(&sb, &sa, &g, &why), 1);
	assert_string_equal(why, "single up gained 9.7x (min_gain 3x)");
	free(why);
	iperf_set_mirror(&sa);
	assert_memory_equal(&sa, &a, sizeof a);

	/* A run neither end measured (multi with parallel 1) still fails. */
	g.gain_kind = IPERF_MULTI_UP;
	assert_int_equal(verify_gate_check(&cb, &ca, &g, &why), 0);
	assert_non_null(strstr(why, "multi up was not measured"));
	free(why);
}

/* max_rtt_increase's syntax, checked when the task is bound. */
static void
test_rtt_limit_parse(void **state)
{
	enum verify_rtt_kind	 k;
	double			 v;
	char			*cause = NULL;

	(void)state;
	assert_int_equal(verify_rtt_limit_parse("50", &k, &v, &cause), 0);
	assert_int_equal(k, VERIFY_RTT_MS);
	assert_float_equal(v, 50, 1e-9);
	assert_int_equal(verify_rtt_limit_parse("12.5 ms", &k, &v, &cause),
	    0);
	assert_int_equal(k, VERIFY_RTT_MS);
	assert_float_equal(v, 12.5, 1e-9);
	assert_int_equal(verify_rtt_limit_parse("50ms", &k, &v, &cause), 0);
	assert_int_equal(verify_rtt_limit_parse("1.5x", &k, &v, &cause), 0);
	assert_int_equal(k, VERIFY_RTT_RATIO);
	assert_float_equal(v, 1.5, 1e-9);
	assert_int_equal(verify_rtt_limit_parse("0.5x", &k, &v, &cause), -1);
	assert_string_equal(cause, "max_rtt_increase: a ratio must be at "
	    "least 1x, got '0.5x'");
	free(cause);
	assert_int_equal(verify_rtt_limit_parse("50s", &k, &v, &cause), -1);
	assert_string_equal(cause, "max_rtt_increase: expected milliseconds "
	    "(50, '50ms') or a ratio ('1.5x'), got '50s'");
	free(cause);
	assert_int_equal(verify_rtt_limit_parse("fast", &k, &v, &cause), -1);
	free(cause);
	assert_int_equal(verify_rtt_limit_parse("-3", &k, &v, &cause), -1);
	free(cause);
	assert_int_equal(verify_rtt_limit_parse("", &k, &v, &cause), -1);
	free(cause);
}

/* The latency guard: loaded RTT 105.1 -> 116.9 ms (single up) and 106.0
 * -> 124.6 ms (single down) in the lab's stock -> tuned documents, 1698
 * and 1687 retransmits after. */
static void
test_gate_latency(void **state)
{
	struct iperf_set	 b, a;
	struct verify_gate	 g = { .max_regression = 0.1 };
	struct iperf_run	 r;
	double			 up;
	char			*why;

	(void)state;
	load_before_after(&b, &a);

	g.rtt_kind = VERIFY_RTT_MS;
	g.rtt_value = 50;
	assert_int_equal(verify_gate_check(&b, &a, &g, &why), 1);
	assert_non_null(strstr(why, "loaded RTT at most +18.7 ms "
	    "(max_rtt_increase 50 ms)"));
	free(why);
	g.rtt_value = 15;
	assert_int_equal(verify_gate_check(&b, &a, &g, &why), 0);
	assert_string_equal(why, "single down loaded RTT 106.0 -> 124.6 ms "
	    "(+18.7 ms, more than max_rtt_increase 15 ms)");
	free(why);
	g.rtt_kind = VERIFY_RTT_RATIO;
	g.rtt_value = 1.1;
	assert_int_equal(verify_gate_check(&b, &a, &g, &why), 0);
	assert_non_null(strstr(why, "single up loaded RTT 105.1 -> 116.9 ms "
	    "(1.11x, more than max_rtt_increase 1.1x); single down"));
	free(why);
	g.rtt_value = 1.5;
	assert_int_equal(verify_gate_check(&b, &a, &g, &why), 1);
	assert_non_null(strstr(why, "loaded RTT at most 1.18x"));
	free(why);
	/* An RTT the gate cannot compare fails the guard. */
	b.run[IPERF_SINGLE_UP].rtt_mean_ms = -1;
	b.run[IPERF_SINGLE_DOWN].rtt_mean_ms = -1;
	assert_int_equal(verify_gate_check(&b, &a, &g, &why), 0);
	assert_non_null(strstr(why, "max_rtt_increase 1.5x cannot be "
	    "checked"));
	free(why);
	load_before_after(&b, &a);
	g.rtt_kind = VERIFY_RTT_NONE;

	/* The retransmit rate: retransmits over segments of the MSS. */
	up = verify_retransmit_rate(&a.run[IPERF_SINGLE_UP]);
	assert_int_equal(a.run[IPERF_SINGLE_UP].mss, 1448);
	assert_float_equal(up, 1698 / (a.run[IPERF_SINGLE_UP].sent_mbps *
	    1e6 / 8 * a.run[IPERF_SINGLE_UP].seconds / 1448), 1e-9);
	/* 1698 of about 24,400 segments: 6.9% */
	assert_true(up > 0.06 && up < 0.08);
	assert_float_equal(verify_retransmit_rate(&b.run[IPERF_SINGLE_UP]), 0,
	    1e-12);
	memset(&r, 0, sizeof r);
	r.retransmits = 100;
	r.sent_mbps = 8;
	r.seconds = 1;
	r.mss = -1;			/* 1 MB over the default MSS */
	assert_float_equal(verify_retransmit_rate(&r), 100 / (1e6 / 1448.0),
	    1e-9);
	r.retransmits = -1;
	assert_true(verify_retransmit_rate(&r) < 0);

	g.retr_guard = 1;
	g.max_retr_rate = 0.1;
	assert_int_equal(verify_gate_check(&b, &a, &g, &why), 1);
	assert_non_null(strstr(why, "retransmits at most "));
	assert_non_null(strstr(why, "% of segments (max_retransmit_rate "
	    "10%)"));
	free(why);
	g.max_retr_rate = 0.001;
	assert_int_equal(verify_gate_check(&b, &a, &g, &why), 0);
	assert_non_null(strstr(why, "single up retransmitted "));
	assert_non_null(strstr(why, "% of its segments (1698), more than "
	    "max_retransmit_rate 0.1%; single down retransmitted"));
	free(why);
	/* No figures: the guard cannot pass. */
	a.run[IPERF_SINGLE_UP].retransmits = -1;
	a.run[IPERF_SINGLE_DOWN].retransmits = -1;
	assert_int_equal(verify_gate_check(&b, &a, &g, &why), 0);
	assert_non_null(strstr(why, "max_retransmit_rate 0.1% cannot be "
	    "checked"));
	free(why);
}

static void
test_table(void **state)
{
	struct iperf_set	 b, a;
	struct verify_head	 h = { "lab01", "lab02", "198.19.0.2", 10, 2,
	    4 };
	char			*t, *s;
	json_t			*d;

	(void)state;
	load_before_after(&b, &a);
	d = json_pack("{s:{s:s, s:s}, s:{s:s, s:n}}", "single_up", "limit",
	    "receive_window", "host", "lab02", "single_down", "limit",
	    "link_rate", "host");
	t = verify_table(&h, &b, &a, d, "gate passed: x");
	assert_non_null(strstr(t, "lab01 -> lab02 (198.19.0.2): iperf3 -t 10 "
	    "-O 2, multi = -P 4"));
	assert_non_null(strstr(t, "Mbit/s before"));
	assert_non_null(strstr(t, "  cc             limited by (after)\n"));
	assert_non_null(strstr(t, "  single up             10.0      96.3"
	    "     9.7x  0 -> 1698        105.1 -> 116.9   reno -> bbr    "
	    "receive_window lab02\n"));
	assert_non_null(strstr(t, "  single down            9.9      96.2"
	    "     9.7x  0 -> 1687        106.0 -> 124.6   reno -> bbr    "
	    "link_rate\n"));
	assert_null(strstr(t, "multi"  " up "));
	assert_non_null(strstr(t, "  gate passed: x\n"));
	free(t);

	t = verify_table(&h, &b, NULL, NULL, NULL);
	assert_non_null(strstr(t, "  single up        10.0            0  "
	    "104.5/105.1/105.3       reno   -\n"));
	assert_null(strstr(t, "ratio"));
	free(t);
	json_decref(d);

	s = verify_summary(&b, &a);
	assert_string_equal(s, "single up 10.0 -> 96.3 Mbit/s (9.7x), "
	    "single down 9.9 -> 96.2 Mbit/s (9.7x)");
	free(s);
	s = verify_summary(&b, NULL);
	assert_string_equal(s, "single up 10.0 Mbit/s, single down 9.9 "
	    "Mbit/s");
	free(s);
}

/* Syntax of a generated remote command, checked by a real sh -n. */
static void
assert_sh_syntax(const char *cmd)
{
	FILE *p = popen("sh -n", "w");

	assert_non_null(p);
	fputs(cmd, p);
	assert_int_equal(pclose(p), 0);
}

/* How every remote command starts: sh, the test hook cleared. */
#define HOOK_CLEARED "env TCPTUNE_TEST_ROOT= sh"

/* An executable root/bin/name that runs the sh text (%s in it: root). */
static void
stub(const char *root, const char *name, const char *text)
{
	char	*path = xprintf("%s/bin/%s", root, name);
	FILE	*f = fopen(path, "w");

	assert_non_null(f);
	fputs("#!/bin/sh\n", f);
	fprintf(f, text, root);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(chmod(path, 0755), 0);
	free(path);
}

/* Stubs for the commands' tools, in root/bin (the scripts' test hook puts
 * it first in PATH): timeout and a client iperf3 print their arguments one
 * per [], a server iperf3 marks its port as listening (root/listen-PORT)
 * and waits (as a process named iperf3); ss lists port 5201 as taken and
 * each marked port. */
static void
stubs(const char *root)
{
	char *bin = xprintf("%s/bin", root);

	assert_int_equal(mkdir(bin, 0755), 0);
	free(bin);
	stub(root, "timeout", "printf '[%%s]' timeout \"$@\"\n");
	stub(root, "iperf3", "[ \"$1\" = -s ] || "
	    "{ printf '[%%s]' iperf3 \"$@\"; exit 0; }\n"
	    ": >\"%s/listen-$5\"\n"
	    "trap 'kill $!; exit 0' TERM\nsleep 30 &\nwait\n");
	stub(root, "ss", "echo header\n"
	    "echo 'LISTEN 0 5 0.0.0.0:5201 0.0.0.0:*'\n"
	    "for f in %s/listen-*; do\n"
	    "\t[ -e \"$f\" ] &&\n"
	    "\t    echo \"LISTEN 0 5 0.0.0.0:${f##*-} 0.0.0.0:*\"\n"
	    "done\nexit 0\n");
}

/* Run cmd, a remote command, with the test hook at root; its standard
 * output is returned (a new string), its exit status in *status. */
static char *
run_remote(const char *root, const struct remote_call *c, int *status)
{
	char	*line, *prog, buf[4096];
	size_t	 n, len = 0;
	char	*out = xstrdup("");
	FILE	*p;

	/* The one command line every call of iperf3.sh runs, the program
	 * on its standard input (a file here). */
	assert_string_equal(c->command, HOOK_CLEARED
	    " -c 'eval \"$(cat)\"' tcptune-iperf3");
	prog = xprintf("%s/program", root);
	p = fopen(prog, "w");
	assert_non_null(p);
	assert_int_equal(fwrite(c->program, 1, c->program_len, p),
	    c->program_len);
	assert_int_equal(fclose(p), 0);
	line = xprintf("TCPTUNE_TEST_ROOT='%s' sh%s <'%s'", root,
	    c->command + strlen(HOOK_CLEARED), prog);
	p = popen(line, "r");
	assert_non_null(p);
	while ((n = fread(buf, 1, sizeof buf, p)) > 0) {
		out = xrealloc(out, len + n + 1);
		memcpy(out + len, buf, n);
		len += n;
		out[len] = '\0';
	}
	*status = pclose(p);
	free(line);
	free(prog);
	return out;
}

/* The commands run for real against stubs: what iperf3 is given, the
 * port the server takes, and its end. */
static void
test_commands(void **state)
{
	struct iperf_client_opts	 o = { "198.19.0.2", 5203, 10, 2, 1, 0, 0, NULL };
	char				 root[] = "/tmp/tcptune-iperf-XXXXXX";
	struct remote_call		 c;
	char				*out, *cause = NULL, *s;
	long				 pid;
	int				 port, status, i;

	(void)state;
	assert_non_null(mkdtemp(root));
	stubs(root);

	iperf_client_call(&o, &c);
	assert_sh_syntax(c.program);
	out = run_remote(root, &c, &status);
	assert_int_equal(status, 0);
	assert_string_equal(out, "[timeout][-s][KILL][42][iperf3][-c]"
	    "[198.19.0.2][-p][5203][-J][-t][10][-O][2]");
	free(out);
	remote_call_clear(&c);

	o.parallel = 4;
	o.reverse = 1;
	o.address = "x'; reboot; '";
	iperf_client_call(&o, &c);
	assert_sh_syntax(c.program);
	out = run_remote(root, &c, &status);
	assert_string_equal(out, "[timeout][-s][KILL][42][iperf3][-c]"
	    "[x'; reboot; '][-p][5203][-J][-t][10][-O][2][-P][4][-R]"
	    "[--get-server-output]");
	free(out);
	remote_call_clear(&c);

	/* 5201 is taken (ss): the server listens on 5202. */
	iperf_server_call(5201, 0, NULL, &c);
	assert_sh_syntax(c.program);
	out = run_remote(root, &c, &status);
	assert_int_equal(status, 0);
	assert_int_equal(iperf_server_parse(out, &pid, &port, NULL, &cause), 0);
	assert_int_equal(port, 5202);
	free(out);
	remote_call_clear(&c);

	iperf_kill_call(pid, NULL, &c);
	assert_sh_syntax(c.program);
	out = run_remote(root, &c, &status);
	assert_int_equal(status, 0);
	assert_string_equal(out, "");
	free(out);
	remote_call_clear(&c);
	/* The server is gone (reaped by whoever adopted it). */
	s = xprintf("/proc/%ld/comm", pid);
	for (i = 0; i < 100 && access(s, F_OK) == 0; i++)
		usleep(20000);
	assert_int_not_equal(access(s, F_OK), 0);
	free(s);
	s = xprintf("rm -rf '%s'", root);
	assert_int_equal(system(s), 0);
	free(s);

	assert_int_equal(iperf_server_parse("4242 5203\n", &pid, &port,
	    NULL, &cause), 0);
	assert_int_equal(pid, 4242);
	assert_int_equal(port, 5203);
	assert_int_equal(iperf_server_parse("4242 70000\n", &pid, &port,
	    NULL, &cause), -1);
	free(cause);
	cause = NULL;
	assert_int_equal(iperf_server_parse("", &pid, &port, NULL, &cause), -1);
	assert_non_null(strstr(cause, "unexpected iperf3 server start"));
	free(cause);
}

static void
test_kinds(void **state)
{
	int k;

	(void)state;
	for (k = 0; k < IPERF_NKINDS; k++)
		assert_int_equal(iperf_kind_from_name(iperf_kind_name(k)), k);
	assert_int_equal(iperf_kind_from_name("sideways"), -1);
	assert_true(iperf_kind_reverse(IPERF_MULTI_DOWN));
	assert_false(iperf_kind_reverse(IPERF_MULTI_UP));
	assert_true(iperf_kind_multi(IPERF_MULTI_UP));
	assert_false(iperf_kind_multi(IPERF_SINGLE_DOWN));
	assert_string_equal(iperf_kind_label(IPERF_SINGLE_DOWN),
	    "single down");
}

static void
expect_refused(const char *text, const char *msg)
{
	struct iperf_run	 r;
	char			*cause = NULL;

	assert_int_equal(iperf_parse(text, strlen(text), &r, &cause), -1);
	assert_string_equal(cause, msg);
	free(cause);
}

/* A peer's JSON with numbers no integer holds: refused with the field named
 * (casting them was undefined behaviour), in-range ones still taken. */
static void
test_absurd_numbers(void **state)
{
	struct iperf_run	 r;
	char			*cause = NULL;
	const char		*text;

	(void)state;
	/* shared/bugs/fuzz/iperf-retransmits-1e98.json */
	expect_refused("{\"start\": {\"test_start\": {\"num_streams\": 1, "
	    "\"reverse\": 0}}, \"end\": {\"sum_sent\": {\"bits_per_second\": "
	    "1e9, \"retransmits\": 1e98}, \"sum_received\": "
	    "{\"bits_per_second\": 1e9, \"seconds\": 10}}}",
	    "iperf3 output: end.sum_sent.retransmits is 1e+98, not a count "
	    "from 0 to 9007199254740992");
	expect_refused("{\"start\": {\"test_start\": {\"num_streams\": "
	    "1e30}}, \"end\": {\"sum_sent\": {\"retransmits\": 3}, "
	    "\"sum_received\": {\"bits_per_second\": 1e9}}}",
	    "iperf3 output: start.test_start.num_streams is 1e+30, not a "
	    "count from 0 to 128");
	expect_refused("{\"end\": {\"sum_sent\": {\"retransmits\": -1}, "
	    "\"sum_received\": {\"bits_per_second\": 1e9}}}",
	    "iperf3 output: end.sum_sent.retransmits is -1, not a count from "
	    "0 to 9007199254740992");
	expect_refused("{\"start\": {\"test_start\": {\"num_streams\": 4, "
	    "\"reverse\": 1}}, \"end\": {\"sum_sent\": {\"retransmits\": "
	    "12}, \"sum_received\": {\"bits_per_second\": 1e9}}, "
	    "\"server_output_json\": {\"end\": {\"sum_sent\": "
	    "{\"retransmits\": 2.5}}}}",
	    "iperf3 output: server_output_json.end.sum_sent.retransmits is "
	    "2.5, not a count from 0 to 9007199254740992");

	text = "{\"start\": {\"test_start\": {\"num_streams\": 4}}, "
	    "\"end\": {\"sum_sent\": {\"retransmits\": 9007199254740992}, "
	    "\"sum_received\": {\"bits_per_second\": 1e9}}}";
	assert_int_equal(iperf_parse(text, strlen(text), &r, &cause), 0);
	assert_int_equal(r.streams, 4);
	assert_true(r.retransmits == 9007199254740992LL);
}

static void
test_memo_absurd_streams(void **state)
{
	struct iperf_run	 r;
	json_t			*j;

	(void)state;
	j = json_pack("{s:f,s:f}", "mbps", 1.0, "streams", 1e300);
	assert_int_equal(iperf_run_from_json(j, &r), -1);
	json_decref(j);
	j = json_pack("{s:f,s:i}", "mbps", 1.0, "streams", 8);
	assert_int_equal(iperf_run_from_json(j, &r), 0);
	assert_int_equal(r.streams, 8);
	json_decref(j);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_single_up),
		cmocka_unit_test(test_single_down),
		cmocka_unit_test(test_down_text_server),
		cmocka_unit_test(test_multi),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_set_json_round_trip),
		cmocka_unit_test(test_gate),
		cmocka_unit_test(test_gate_each_end),
		cmocka_unit_test(test_rtt_limit_parse),
		cmocka_unit_test(test_gate_latency),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_commands),
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_absurd_numbers),
		cmocka_unit_test(test_memo_absurd_streams),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
