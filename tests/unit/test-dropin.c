/* dropin: the exact bytes of the managed file, its round trip through the
 * parser, other people's sysctl.d files (the seeds' recipes), and value
 * comparison as sysctl prints values. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "tune/dropin.h"
#include "tune/sizing.h"

static void
sample(struct dropin *d)
{
	dropin_init(d);
	dropin_set(d, "net.ipv4.tcp_rmem", "4096 131072 33554432",
	    "BDP 1000 Mbit/s \xc3\x97 92 ms = 11.5 MB, \xc3\x97" "2 headroom "
	    "\xe2\x86\x92 32 MiB; RAM cap 1/64 of 32 GiB = 512 MiB");
	dropin_set(d, "net.core.rmem_max", "33554432",
	    "at least the tcp_rmem maximum (32 MiB)");
	dropin_set(d, "net.ipv4.tcp_congestion_control", "bbr", NULL);
}

static const char sample_text[] =
    "# Managed by tcptune \xe2\x80\x94 do not edit; changes are overwritten.\n"
    "# Playbook: playbooks/wan-tuning.yml\n"
    "# Apply: sysctl -p /etc/sysctl.d/90-tcptune.conf   Roll back: tcptune "
    "rollback\n"
    "\n"
    "# BDP 1000 Mbit/s \xc3\x97 92 ms = 11.5 MB, \xc3\x97" "2 headroom "
    "\xe2\x86\x92 32 MiB; RAM cap 1/64 of 32 GiB = 512 MiB\n"
    "net.ipv4.tcp_rmem = 4096 131072 33554432\n"
    "\n"
    "# at least the tcp_rmem maximum (32 MiB)\n"
    "net.core.rmem_max = 33554432\n"
    "\n"
    "net.ipv4.tcp_congestion_control = bbr\n";

static void
test_set_get(void **state)
{
	struct dropin	d;

	(void)state;
	sample(&d);
	assert_int_equal(d.n, 3);
	assert_string_equal(dropin_get(&d, "net.core.rmem_max"), "33554432");
	/* Any key form finds it. */
	assert_string_equal(dropin_get(&d, "net/core/rmem_max"), "33554432");
	assert_string_equal(dropin_get(&d, " net.core.rmem_max "),
	    "33554432");
	assert_null(dropin_get(&d, "net.core.wmem_max"));
	assert_null(dropin_find(&d, "net.core"));

	/* Replacing keeps the place and takes the new reason. */
	dropin_set(&d, "net/ipv4/tcp_rmem", "4096 131072 67108864", "kept");
	assert_int_equal(d.n, 3);
	assert_string_equal(d.entries[0].key, "net.ipv4.tcp_rmem");
	assert_string_equal(d.entries[0].value, "4096 131072 67108864");
	assert_string_equal(d.entries[0].reason, "kept");
	dropin_set(&d, "net.core.wmem_max", "1", NULL);
	assert_int_equal(d.n, 4);
	assert_string_equal(d.entries[3].key, "net.core.wmem_max");
	assert_null(d.entries[3].reason);

	assert_int_equal(dropin_remove(&d, "net.core.rmem_max"), 1);
	assert_int_equal(dropin_remove(&d, "net.core.rmem_max"), 0);
	assert_int_equal(d.n, 3);
	assert_string_equal(d.entries[1].key,
	    "net.ipv4.tcp_congestion_control");
	assert_string_equal(d.entries[2].key, "net.core.wmem_max");
	dropin_free(&d);
	assert_int_equal(d.n, 0);
	dropin_free(&d);	/* twice is fine */
}

static void
test_render_exact(void **state)
{
	struct dropin	 d;
	char		*a, *b;

	(void)state;
	sample(&d);
	a = dropin_render(&d, "playbooks/wan-tuning.yml", NULL, NULL);
	assert_string_equal(a, sample_text);
	/* Same inputs, same bytes. */
	b = dropin_render(&d, "playbooks/wan-tuning.yml",
	    "/etc/sysctl.d/90-tcptune.conf", NULL);
	assert_string_equal(a, b);
	free(a);
	free(b);

	a = dropin_render(&d, NULL, "/etc/sysctl.d/95-wan.conf", NULL);
	assert_non_null(strstr(a, "# Apply: sysctl -p "
	    "/etc/sysctl.d/95-wan.conf   Roll back: tcptune "
	    "rollback\n\n"));
	assert_null(strstr(a, "Playbook"));
	free(a);
	dropin_free(&d);

	/* An empty drop-in is the header alone. */
	dropin_init(&d);
	a = dropin_render(&d, "p.yml", NULL, NULL);
	assert_string_equal(a,
	    "# Managed by tcptune \xe2\x80\x94 do not edit; changes are "
	    "overwritten.\n# Playbook: p.yml\n# Apply: sysctl -p "
	    "/etc/sysctl.d/90-tcptune.conf   Roll back: tcptune "
	    "rollback\n");
	free(a);
}

static void
test_render_multiline_reason(void **state)
{
	struct dropin	 d;
	char		*a;

	(void)state;
	dropin_init(&d);
	dropin_set(&d, "a.b", "1", "first\n\nthird\n");
	a = dropin_render(&d, NULL, NULL, NULL);
	assert_non_null(strstr(a, "\n\n# first\n#\n# third\na.b = 1\n"));
	free(a);
	dropin_free(&d);
}

static void
test_round_trip(void **state)
{
	struct dropin	 d, back;
	char		*text, *again, *cause = NULL;
	size_t		 i;

	(void)state;
	sample(&d);
	dropin_set(&d, "x.y", "a\tb", "line one\nline two");
	text = dropin_render(&d, "playbooks/wan-tuning.yml", NULL, NULL);
	assert_int_equal(dropin_parse(text, &back, &cause), 0);
	assert_null(cause);
	assert_int_equal(back.n, d.n);
	for (i = 0; i < d.n; i++) {
		assert_string_equal(back.entries[i].key, d.entries[i].key);
		assert_string_equal(back.entries[i].value,
		    d.entries[i].value);
		if (d.entries[i].reason == NULL)
			assert_null(back.entries[i].reason);
		else
			assert_string_equal(back.entries[i].reason,
			    d.entries[i].reason);
	}
	assert_true(dropin_same_values(&d, &back));
	again = dropin_render(&back, "playbooks/wan-tuning.yml", NULL, NULL);
	assert_string_equal(again, text);
	free(again);
	free(text);
	dropin_free(&back);
	dropin_free(&d);
}

/* Drift: somebody edited our file by hand. */
static void
test_detect_edit(void **state)
{
	struct dropin	 d, back;
	char		*text, *p, *cause = NULL;

	(void)state;
	sample(&d);
	text = dropin_render(&d, NULL, NULL, NULL);
	p = strstr(text, "33554432\n\n#");
	assert_non_null(p);
	memcpy(p, "16777216", 8);	/* tcp_rmem max edited */
	assert_int_equal(dropin_parse(text, &back, &cause), 0);
	assert_false(dropin_same_values(&d, &back));
	assert_string_equal(dropin_get(&back, "net.ipv4.tcp_rmem"),
	    "4096 131072 16777216");
	dropin_free(&back);
	free(text);

	/* Only whitespace changed: the same values. */
	text = strdup("net.ipv4.tcp_rmem=4096\t131072   33554432\n"
	    "net.core.rmem_max =33554432  \n"
	    "net.ipv4.tcp_congestion_control= bbr");
	assert_int_equal(dropin_parse(text, &back, &cause), 0);
	assert_true(dropin_same_values(&d, &back));
	dropin_free(&back);
	/* A key added by hand is a difference too. */
	free(text);
	text = strdup("net.ipv4.tcp_rmem=4096 131072 33554432\n"
	    "net.core.rmem_max=33554432\nnet.core.wmem_max=1\n"
	    "net.ipv4.tcp_congestion_control=bbr\n");
	assert_int_equal(dropin_parse(text, &back, &cause), 0);
	assert_false(dropin_same_values(&d, &back));
	dropin_free(&back);
	free(text);
	dropin_free(&d);
}

/* Seed 000's two files and seed 002's, as their authors wrote them. */
static void
test_parse_others(void **state)
{
	struct dropin	 d;
	char		*cause = NULL;

	(void)state;
	assert_int_equal(dropin_parse("net.core.rmem_max=67108864\n"
	    "net.core.wmem_max=67108864\n"
	    "net.ipv4.tcp_rmem=4096 131072 67108864\n"
	    "net.ipv4.tcp_wmem=4096 65536 67108864\n", &d, &cause), 0);
	assert_int_equal(d.n, 4);
	assert_string_equal(dropin_get(&d, "net.ipv4.tcp_wmem"),
	    "4096 65536 67108864");
	assert_null(d.entries[0].reason);
	dropin_free(&d);

	assert_int_equal(dropin_parse(
	    "# /etc/sysctl.d/10-custom-kernel-bbr.conf\n"
	    "\n"
	    "; pacing\n"
	    "   net.core.default_qdisc=fq   \r\n"
	    "\t\n"
	    "-net/ipv4/tcp_congestion_control\t=\tbbr\n"
	    "# trailing note, no key after it\n", &d, &cause), 0);
	assert_int_equal(d.n, 2);
	assert_string_equal(d.entries[0].key, "net.core.default_qdisc");
	assert_string_equal(d.entries[0].value, "fq");
	assert_string_equal(d.entries[0].reason, "pacing");
	assert_false(d.entries[0].ignore_errors);
	assert_string_equal(d.entries[1].key,
	    "net.ipv4.tcp_congestion_control");
	assert_string_equal(d.entries[1].value, "bbr");
	assert_true(d.entries[1].ignore_errors);
	assert_null(d.entries[1].reason);
	dropin_free(&d);

	/* A later line for the same key wins, in the first one's place. */
	assert_int_equal(dropin_parse("a.b = 1\nc.d = 2\na.b = 3\n"
	    "e.f =\n", &d, &cause), 0);
	assert_int_equal(d.n, 3);
	assert_string_equal(d.entries[0].key, "a.b");
	assert_string_equal(d.entries[0].value, "3");
	assert_string_equal(d.entries[2].value, "");
	dropin_free(&d);

	/* Empty and comment-only files. */
	assert_int_equal(dropin_parse("", &d, &cause), 0);
	assert_int_equal(d.n, 0);
	dropin_free(&d);
	assert_int_equal(dropin_parse("# nothing\n\n", &d, &cause), 0);
	assert_int_equal(d.n, 0);
	dropin_free(&d);
}

static void
test_parse_errors(void **state)
{
	struct dropin	 d;
	char		*cause = NULL;

	(void)state;
	assert_int_equal(dropin_parse("a.b = 1\n\nnet.core.rmem_max 1\n",
	    &d, &cause), -1);
	assert_string_equal(cause, "line 3: no '=' in 'net.core.rmem_max 1'");
	free(cause);
	cause = NULL;
	dropin_free(&d);
	assert_int_equal(dropin_parse(" = 5", &d, &cause), -1);
	assert_string_equal(cause, "line 1: no key in '= 5'");
	free(cause);
	cause = NULL;
	dropin_free(&d);
	assert_int_equal(dropin_parse("x=1\n- = 5\n", &d, &cause), -1);
	assert_string_equal(cause, "line 2: no key in '- = 5'");
	free(cause);
	dropin_free(&d);
}

static void
test_value_equal(void **state)
{
	char	*s;

	(void)state;
	assert_true(sysctl_value_equal("4096 131072 6291456",
	    "4096\t131072\t6291456"));
	assert_true(sysctl_value_equal("  4096  131072 6291456\n",
	    "4096 131072 6291456"));
	assert_true(sysctl_value_equal("bbr", "bbr"));
	assert_true(sysctl_value_equal("", "   "));
	assert_false(sysctl_value_equal("4096 131072 6291456",
	    "4096 131072 6291457"));
	assert_false(sysctl_value_equal("40 96", "4096"));
	assert_false(sysctl_value_equal("bbr", "BBR"));
	s = sysctl_value_normalise("\t a \t\t b  c \n");
	assert_string_equal(s, "a b c");
	free(s);
}

/* A whole plan through the drop-in: the sizing reasons become comments. */
static void
test_plan_rendered(void **state)
{
	struct sizing_input in = {
		.rtt_ms = 105, .bandwidth_mbit = 500, .mem_total = 1 << 30,
		.st_rmem = SIZING_PRESENT, .st_wmem = SIZING_PRESENT,
		.st_rmem_max = SIZING_PRESENT, .st_wmem_max = SIZING_PRESENT,
		.cur_rmem = { 4096, 131072, 6291456 },
		.cur_wmem = { 4096, 16384, 4194304 },
		.cur_rmem_max = 212992, .cur_wmem_max = 212992,
	};
	struct sizing_plan	 p;
	struct dropin		 d;
	char			*text, *cause = NULL;

	(void)state;
	assert_int_equal(sizing_plan_compute(&in, &p, &cause), 0);
	dropin_init(&d);
	sizing_plan_to_dropin(&p, &d);
	text = dropin_render(&d, "playbooks/wan-tuning.yml", NULL, NULL);
	assert_non_null(strstr(text, "\n\n# BDP 500 Mbit/s \xc3\x97 105 ms = "
	    "6.6 MB, \xc3\x97" "2 headroom \xe2\x86\x92 16 MiB; RAM cap 1/64 "
	    "of 1 GiB = 16 MiB; min 4 KiB kept, default "
	    "128 KiB kept\nnet.ipv4.tcp_rmem = 4096 131072 16777216\n"));
	assert_non_null(strstr(text, "\nnet.core.wmem_max = 16777216\n"));
	free(text);
	dropin_free(&d);
	sizing_plan_clear(&p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_set_get),
		cmocka_unit_test(test_render_exact),
		cmocka_unit_test(test_render_multiline_reason),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_detect_edit),
		cmocka_unit_test(test_parse_others),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_value_equal),
		cmocka_unit_test(test_plan_rendered),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
