/* sizing: the worked examples from the seeds and the lab (exact figures, as
 * docs/sizing.md quotes them), every cap and the never-lower rule, the
 * "cannot be set here" cases, every branch of the BBR/fq decision, and the
 * choice of the widest path among many peers. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tune/dropin.h"
#include "tune/congestion.h"
#include "tune/sizing.h"
#include "modules/tune-facts.h"
#include "base/units.h"

#define STOCK_RMEM	{ 4096, 131072, 6291456 }
#define STOCK_WMEM	{ 4096, 16384, 4194304 }

static void
assert_contains(const char *hay, const char *needle)
{
	if (hay == NULL || strstr(hay, needle) == NULL)
		fail_msg("'%s' does not contain '%s'", hay ? hay : "(null)",
		    needle);
}

static void
assert_triple(const struct tcp_triple *t, uint64_t min, uint64_t def,
    uint64_t max)
{
	if (t->min != min || t->def != def || t->max != max)
		fail_msg("triple %llu %llu %llu, want %llu %llu %llu",
		    (unsigned long long)t->min, (unsigned long long)t->def,
		    (unsigned long long)t->max, (unsigned long long)min,
		    (unsigned long long)def, (unsigned long long)max);
}

/* A host with stock Linux buffers, everything present and writable. */
static struct sizing_input
stock_host(double mbit, double rtt, uint64_t mem)
{
	struct sizing_input in = {
		.rtt_ms = rtt, .bandwidth_mbit = mbit, .mem_total = mem,
		.st_rmem = SIZING_PRESENT, .st_wmem = SIZING_PRESENT,
		.st_rmem_max = SIZING_PRESENT, .st_wmem_max = SIZING_PRESENT,
		.cur_rmem = STOCK_RMEM, .cur_wmem = STOCK_WMEM,
		.cur_rmem_max = 212992, .cur_wmem_max = 212992,
	};

	return in;
}

static void
compute_ok(const struct sizing_input *in, struct sizing_plan *p)
{
	char	*cause = NULL;

	if (sizing_plan_compute(in, p, &cause) != 0)
		fail_msg("sizing_plan_compute failed: %s", cause);
	if (getenv("SIZING_VERBOSE") != NULL)
		printf("bdp %llu wanted %llu ram_cap %llu ceiling %llu\n"
		    "  tcp_rmem %llu %llu %llu (%s)\n"
		    "  tcp_wmem %llu %llu %llu (%s)\n"
		    "  rmem_max %llu (%s)\n  wmem_max %llu (%s)\n",
		    (unsigned long long)p->bdp_bytes,
		    (unsigned long long)p->wanted,
		    (unsigned long long)p->ram_cap,
		    (unsigned long long)p->ceiling,
		    (unsigned long long)p->rmem.min,
		    (unsigned long long)p->rmem.def,
		    (unsigned long long)p->rmem.max, p->reason_rmem,
		    (unsigned long long)p->wmem.min,
		    (unsigned long long)p->wmem.def,
		    (unsigned long long)p->wmem.max, p->reason_wmem,
		    (unsigned long long)p->rmem_max, p->reason_rmem_max,
		    (unsigned long long)p->wmem_max, p->reason_wmem_max);
}

/* ---- arithmetic */

static void
test_bdp(void **state)
{
	(void)state;
	/* Seed 000: 1 Gbit/s at ~90 ms needs "a window of about 11 MB". */
	assert_int_equal(sizing_bdp(1000, 90), 11250000);
	/* Seed 003: 500 Mbit/s at 105 ms "needs roughly 6.5 MB". */
	assert_int_equal(sizing_bdp(500, 105), 6562500);
	/* The lab's emulated path. */
	assert_int_equal(sizing_bdp(100, 105), 1312500);
	assert_int_equal(sizing_bdp(1000, 92), 11500000);
	assert_int_equal(sizing_bdp(0.5, 0.1), 6);	/* 6.25 rounds */
	assert_int_equal(sizing_bdp(0, 90), 0);
	assert_int_equal(sizing_bdp(100, -1), 0);
	assert_int_equal(sizing_bdp(NAN, 10), 0);
	assert_int_equal(sizing_bdp(1e12, 1e12), (uint64_t)1 << 63);
}

static void
test_pow2(void **state)
{
	(void)state;
	assert_int_equal(sizing_pow2_ceil(0), 1);
	assert_int_equal(sizing_pow2_ceil(1), 1);
	assert_int_equal(sizing_pow2_ceil(2), 2);
	assert_int_equal(sizing_pow2_ceil(3), 4);
	assert_int_equal(sizing_pow2_ceil(16 * MiB), 16 * MiB);
	assert_int_equal(sizing_pow2_ceil(16 * MiB + 1), 32 * MiB);
	assert_int_equal(sizing_pow2_ceil(22500000), 32 * MiB);
	assert_int_equal(sizing_pow2_ceil(13125000), 16 * MiB);
	assert_int_equal(sizing_pow2_ceil(2625000), 4 * MiB);
	assert_int_equal(sizing_pow2_ceil(UINT64_MAX), (uint64_t)1 << 63);
}

static void
test_flow_cap(void **state)
{
	(void)state;
	/* Seed 003: "208 KB over a 105 ms path tops out near 16 Mbps". */
	assert_true(fabs(sizing_flow_cap_mbit(212992, 105) - 16.228) < 0.001);
	/* The lab's planned 4 MiB and stock 6 MiB at 105 ms. */
	assert_true(fabs(sizing_flow_cap_mbit(4 * MiB, 105) - 319.566) <
	    0.001);
	assert_true(fabs(sizing_flow_cap_mbit(6 * MiB, 105) - 479.349) <
	    0.001);
	/* Seed 000: 6 MiB at 90 ms is 559 Mbit/s before kernel overhead
	 * takes its part, hence "a few hundred". */
	assert_true(fabs(sizing_flow_cap_mbit(6291456, 90) - 559.240) < 0.001);
	assert_true(sizing_flow_cap_mbit(212992, 0) == 0);
	assert_true(sizing_flow_cap_mbit(212992, -5) == 0);
}

static void
test_triple(void **state)
{
	struct tcp_triple	 t;
	char			*s;

	(void)state;
	assert_int_equal(tcp_triple_parse("4096 131072 6291456", &t), 0);
	assert_triple(&t, 4096, 131072, 6291456);
	assert_int_equal(tcp_triple_parse("  4096\t87380 \t 33554432\n",
	    &t), 0);
	assert_triple(&t, 4096, 87380, 33554432);
	assert_int_equal(tcp_triple_parse("1 2", &t), -1);
	assert_int_equal(tcp_triple_parse("1 2 3 4", &t), -1);
	assert_int_equal(tcp_triple_parse("1 2 x", &t), -1);
	assert_int_equal(tcp_triple_parse("1 2 3x", &t), -1);
	assert_int_equal(tcp_triple_parse("1 -2 3", &t), -1);
	assert_int_equal(tcp_triple_parse("", &t), -1);
	assert_int_equal(tcp_triple_parse("1 2 99999999999999999999", &t),
	    -1);
	assert_triple(&t, 4096, 87380, 33554432);	/* untouched */
	t = (struct tcp_triple){ 4096, 131072, 16777216 };
	s = tcp_triple_format(&t);
	assert_string_equal(s, "4096 131072 16777216");
	free(s);
}

/* ---- worked examples */

/* Seed 000: OVH Beauharnois, 1 Gbit/s NIC, ~90 ms to Europe, Ubuntu 24.04
 * stock buffers (6 MiB receive maximum). A dedicated server: 32 GiB. */
static void
test_seed000_gigabit_90ms(void **state)
{
	struct sizing_input	in = stock_host(1000, 90, 32 * GiB);
	struct sizing_plan	p;

	(void)state;
	compute_ok(&in, &p);
	assert_int_equal(p.bdp_bytes, 11250000);
	assert_int_equal(p.wanted, 32 * MiB);
	assert_int_equal(p.ram_cap, 512 * MiB);
	assert_int_equal(p.ceiling, 32 * MiB);
	assert_triple(&p.rmem, 4096, 131072, 33554432);
	assert_triple(&p.wmem, 4096, 16384, 33554432);
	assert_int_equal(p.rmem_max, 33554432);
	assert_int_equal(p.wmem_max, 33554432);
	assert_true(p.set_rmem && p.set_wmem && p.set_rmem_max &&
	    p.set_wmem_max);
	assert_string_equal(p.reason_rmem,
	    "BDP 1000 Mbit/s \xc3\x97 90 ms = 11.3 MB, \xc3\x97" "2 headroom "
	    "\xe2\x86\x92 32 MiB; RAM cap 1/64 of 32 GiB = 512 MiB; "
	    "min 4 KiB kept, default 128 KiB kept");
	assert_string_equal(p.reason_wmem,
	    "BDP 1000 Mbit/s \xc3\x97 90 ms = 11.3 MB, \xc3\x97" "2 headroom "
	    "\xe2\x86\x92 32 MiB; RAM cap 1/64 of 32 GiB = 512 MiB; "
	    "min 4 KiB kept, default 16 KiB kept");
	assert_string_equal(p.reason_rmem_max,
	    "at least the tcp_rmem maximum (32 MiB): setsockopt(SO_RCVBUF) "
	    "is capped by net.core.rmem_max");
	assert_string_equal(p.reason_wmem_max,
	    "at least the tcp_wmem maximum (32 MiB): setsockopt(SO_SNDBUF) "
	    "is capped by net.core.wmem_max");
	sizing_plan_clear(&p);
	assert_null(p.reason_rmem);
}

/* Seed 000 after the blog's recipe: the host already has 64 MiB
 * everywhere. Never lower: keep it and say so. */
static void
test_seed000_never_lower(void **state)
{
	struct sizing_input	in = stock_host(1000, 90, 32 * GiB);
	struct sizing_plan	p;

	(void)state;
	in.cur_rmem = (struct tcp_triple){ 4096, 131072, 67108864 };
	in.cur_wmem = (struct tcp_triple){ 4096, 65536, 67108864 };
	in.cur_rmem_max = in.cur_wmem_max = 67108864;
	compute_ok(&in, &p);
	assert_int_equal(p.ceiling, 32 * MiB);
	assert_triple(&p.rmem, 4096, 131072, 67108864);
	assert_triple(&p.wmem, 4096, 65536, 67108864);
	assert_int_equal(p.rmem_max, 67108864);
	assert_int_equal(p.wmem_max, 67108864);
	assert_string_equal(p.reason_rmem,
	    "host already has 64 MiB (higher); kept (allow_decrease is "
	    "false); planned 32 MiB from BDP 1000 Mbit/s \xc3\x97 90 ms = "
	    "11.3 MB, \xc3\x97" "2 headroom \xe2\x86\x92 32 MiB; RAM cap 1/64 "
	    "of 32 GiB = 512 MiB; min 4 KiB kept, default 128 KiB kept");
	/* rmem_max follows the kept 64 MiB, which the host has. */
	assert_string_equal(p.reason_rmem_max,
	    "at least the tcp_rmem maximum (64 MiB): setsockopt(SO_RCVBUF) "
	    "is capped by net.core.rmem_max");
	sizing_plan_clear(&p);

	/* allow_decrease: lowered, per value, and said so. */
	in.allow_decrease = 1;
	compute_ok(&in, &p);
	assert_triple(&p.rmem, 4096, 131072, 33554432);
	assert_triple(&p.wmem, 4096, 65536, 33554432);
	assert_int_equal(p.rmem_max, 33554432);
	assert_contains(p.reason_rmem,
	    "");
	assert_contains(p.reason_wmem_max,
	    "");
	sizing_plan_clear(&p);
}

/* Never lower is per value: a host with a higher receive maximum but a
 * stock send maximum keeps the one and raises the other. */
static void
test_never_lower_per_value(void **state)
{
	struct sizing_input	in = stock_host(1000, 90, 32 * GiB);
	struct sizing_plan	p;

	(void)state;
	in.cur_rmem.max = 64 * MiB;
	in.cur_rmem_max = 128 * MiB;
	compute_ok(&in, &p);
	assert_int_equal(p.rmem.max, 64 * MiB);
	assert_int_equal(p.wmem.max, 32 * MiB);
	assert_int_equal(p.rmem_max, 128 * MiB);	/* kept, higher */
	assert_int_equal(p.wmem_max, 32 * MiB);
	assert_contains(p.reason_rmem_max, "host already has 128 MiB");
	assert_contains(p.reason_rmem_max, "at least the tcp_rmem maximum "
	    "(64 MiB)");
	sizing_plan_clear(&p);

	/* Equal values: planned as they are, "the host already has it". */
	in = stock_host(1000, 90, 32 * GiB);
	in.cur_rmem.max = 32 * MiB;
	in.cur_rmem_max = 32 * MiB;
	compute_ok(&in, &p);
	assert_int_equal(p.rmem.max, 32 * MiB);
	assert_contains(p.reason_rmem, "; min");
	assert_contains(p.reason_rmem_max, "");
	sizing_plan_clear(&p);
}

/* Seed 003: a 1 GB VPS, 500 Mbit/s at 105 ms, stock 208 KiB maximums,
 * "16 MB with a 1 MB default". */
static void
test_seed003_small_vps(void **state)
{
	struct sizing_input	in = stock_host(500, 105, 1 * GiB);
	struct sizing_plan	p;

	(void)state;
	in.rmem_default = in.wmem_default = 1 * MiB;
	compute_ok(&in, &p);
	assert_int_equal(p.bdp_bytes, 6562500);
	assert_int_equal(p.wanted, 16 * MiB);	/* 13.1 MB up to 2^24 */
	assert_int_equal(p.ram_cap, 16 * MiB);	/* 1 GiB / 64 */
	assert_int_equal(p.ceiling, 16 * MiB);
	assert_triple(&p.rmem, 4096, 1048576, 16777216);
	assert_triple(&p.wmem, 4096, 1048576, 16777216);
	assert_int_equal(p.rmem_max, 16777216);
	assert_int_equal(p.wmem_max, 16777216);
	assert_string_equal(p.reason_rmem,
	    "BDP 500 Mbit/s \xc3\x97 105 ms = 6.6 MB, \xc3\x97" "2 headroom "
	    "\xe2\x86\x92 16 MiB; RAM cap 1/64 of 1 GiB = 16 MiB; "
	    "min 4 KiB kept, default 1 MiB (rmem_default)");
	sizing_plan_clear(&p);

	/* A real "1 GB" VPS reports less: MemTotal 1004 MiB. The budget is
	 * 15.7 MiB, whole MiB: 15 MiB, and the RAM cap applies. */
	in.mem_total = 1004 * MiB;
	compute_ok(&in, &p);
	assert_int_equal(p.ram_cap, 15 * MiB);
	assert_int_equal(p.ceiling, 15 * MiB);
	assert_int_equal(p.rmem.max, 15728640);
	assert_int_equal(p.rmem_max, 15728640);
	assert_contains(p.reason_rmem, "RAM cap 1/64 of 1004 MiB = 15 MiB "
	    "applied (wanted 16 MiB)");
	sizing_plan_clear(&p);
}

/* The lab's path, 100 Mbit/s at 105 ms through the WAN emulator, with this
 * machine's MemTotal (24684084 kB), on a host with stock Linux buffers:
 * never lower keeps the 6 MiB receive maximum. */
static void
test_lab_100mbit_105ms(void **state)
{
	struct sizing_input	in = stock_host(100, 105, 24684084ULL * 1024);
	struct sizing_plan	p;

	(void)state;
	compute_ok(&in, &p);
	assert_int_equal(p.bdp_bytes, 1312500);
	assert_int_equal(p.wanted, 4 * MiB);
	assert_int_equal(p.ram_cap, 376 * MiB);
	assert_int_equal(p.ceiling, 4 * MiB);
	/* Stock receive maximum 6 MiB is higher than 4 MiB: kept. */
	assert_triple(&p.rmem, 4096, 131072, 6291456);
	/* Stock send maximum is exactly 4 MiB. */
	assert_triple(&p.wmem, 4096, 16384, 4194304);
	assert_int_equal(p.rmem_max, 6291456);
	assert_int_equal(p.wmem_max, 4194304);
	assert_string_equal(p.reason_wmem,
	    "BDP 100 Mbit/s \xc3\x97 105 ms = 1.3 MB, \xc3\x97" "2 headroom "
	    "\xe2\x86\x92 4 MiB; RAM cap 1/64 of 23.5 GiB = 376 MiB; "
	    "min 4 KiB kept, default 16 KiB kept");
	assert_contains(p.reason_rmem, "host already has 6 MiB (higher); "
	    "kept (allow_decrease is false); planned 4 MiB from BDP 100");
	/* The stock 208 KiB the lab starts from caps a flow near 16 Mbit/s,
	 * the planned 4 MiB near 320. */
	assert_true(sizing_flow_cap_mbit(212992, 105) < 16.3);
	assert_true(sizing_flow_cap_mbit(p.wmem.max, 105) > 100);
	sizing_plan_clear(&p);
}

/* A lab host as tests/lab/lab.sh makes it: a child network namespace with
 * tcp_rmem/tcp_wmem maximums set to 212992 (seed 003's stock 208 KiB),
 * rmem_max/wmem_max read-only there (this machine's root values, 4 MiB). */
static void
test_lab_namespace(void **state)
{
	struct sizing_input	 in = stock_host(100, 105, 24684084ULL * 1024);
	struct sizing_plan	 p;
	struct dropin		 d;

	(void)state;
	in.cur_rmem = (struct tcp_triple){ 4096, 131072, 212992 };
	in.cur_wmem = (struct tcp_triple){ 4096, 16384, 212992 };
	in.st_rmem_max = in.st_wmem_max = SIZING_READONLY;
	in.cur_rmem_max = in.cur_wmem_max = 4194304;
	compute_ok(&in, &p);
	assert_triple(&p.rmem, 4096, 131072, 4194304);
	assert_triple(&p.wmem, 4096, 16384, 4194304);
	assert_string_equal(p.reason_rmem,
	    "BDP 100 Mbit/s \xc3\x97 105 ms = 1.3 MB, \xc3\x97" "2 headroom "
	    "\xe2\x86\x92 4 MiB; RAM cap 1/64 of 23.5 GiB = 376 MiB; "
	    "min 4 KiB kept, default 128 KiB kept");
	assert_false(p.set_rmem_max);
	assert_false(p.set_wmem_max);
	assert_string_equal(p.reason_wmem_max,
	    "cannot be set here: net.core.wmem_max is read-only here (a "
	    "network namespace or container); the host keeps 4 MiB, so "
	    "setsockopt(SO_SNDBUF) stays capped at that; autotuning uses "
	    "tcp_wmem");
	dropin_init(&d);
	sizing_plan_to_dropin(&p, &d);
	assert_int_equal(d.n, 2);
	dropin_free(&d);
	/* Before: 16.2 Mbit/s per flow at most; after: the 100 Mbit/s
	 * path is no longer limited by the window (4 MiB carries 319.6). */
	assert_true(fabs(sizing_flow_cap_mbit(212992, 105) - 16.228) < 0.001);
	assert_true(sizing_flow_cap_mbit(p.rmem.max, 105) > 300);
	sizing_plan_clear(&p);
}

/* ---- caps and floors */

static void
test_ram_cap_applied(void **state)
{
	struct sizing_input	in = stock_host(1000, 90, 1 * GiB);
	struct sizing_plan	p;

	(void)state;
	compute_ok(&in, &p);
	assert_int_equal(p.wanted, 32 * MiB);
	assert_int_equal(p.ceiling, 16 * MiB);
	assert_int_equal(p.rmem.max, 16 * MiB);
	assert_contains(p.reason_rmem,
	    "RAM cap 1/64 of 1 GiB = 16 MiB applied (wanted 32 MiB)");
	sizing_plan_clear(&p);

	/* ram_divisor 16: a quarter of the default budget's divisor. */
	in.ram_divisor = 16;
	compute_ok(&in, &p);
	assert_int_equal(p.ram_cap, 64 * MiB);
	assert_int_equal(p.ceiling, 32 * MiB);
	assert_contains(p.reason_rmem, "RAM cap 1/16 of 1 GiB = 64 MiB;");
	sizing_plan_clear(&p);

	/* A tiny machine: the budget rounds to whole pages below 1 MiB. */
	in = stock_host(1000, 90, 40 * MiB);
	in.allow_decrease = 1;
	compute_ok(&in, &p);
	assert_int_equal(p.ram_cap, 655360);		/* 640 KiB */
	assert_int_equal(p.rmem.max, 655360);
	sizing_plan_clear(&p);
}

static void
test_max_buffer_applied(void **state)
{
	struct sizing_input	in = stock_host(10000, 300, 256 * GiB);
	struct sizing_plan	p;

	(void)state;
	compute_ok(&in, &p);
	assert_int_equal(p.bdp_bytes, 375000000);
	assert_int_equal(p.wanted, 1 * GiB);
	assert_int_equal(p.ram_cap, 4 * GiB);
	assert_int_equal(p.ceiling, 256 * MiB);
	assert_int_equal(p.rmem.max, 256 * MiB);
	assert_contains(p.reason_rmem, "RAM cap 1/64 of 256 GiB = 4 GiB; "
	    "max_buffer 256 MiB applied (wanted 1 GiB)");
	sizing_plan_clear(&p);

	/* Both caps: RAM first, then max_buffer. */
	in.mem_total = 32 * GiB;
	in.max_buffer = 100 * MiB;
	compute_ok(&in, &p);
	assert_int_equal(p.ceiling, 100 * MiB);
	assert_contains(p.reason_rmem, "= 512 MiB applied (wanted 1 GiB); "
	    "max_buffer 100 MiB applied (wanted 512 MiB)");
	sizing_plan_clear(&p);
}

static void
test_headroom(void **state)
{
	struct sizing_input	in = stock_host(1000, 90, 32 * GiB);
	struct sizing_plan	p;

	(void)state;
	in.headroom = 1;
	compute_ok(&in, &p);
	assert_int_equal(p.wanted, 16 * MiB);	/* 11.25 MB up to 2^24 */
	assert_contains(p.reason_rmem, "\xc3\x97" "1 headroom");
	sizing_plan_clear(&p);
	in.headroom = 1.5;
	compute_ok(&in, &p);
	assert_int_equal(p.wanted, 32 * MiB);	/* 16.9 MB */
	assert_contains(p.reason_rmem, "\xc3\x97" "1.5 headroom");
	sizing_plan_clear(&p);
}

/* A LAN path: the ceiling would fall below the default value; it never
 * does, and without allow_decrease the host's 6 MiB stays anyway. */
static void
test_floor_at_default(void **state)
{
	struct sizing_input	in = stock_host(1000, 0.2, 32 * GiB);
	struct sizing_plan	p;

	(void)state;
	compute_ok(&in, &p);
	assert_int_equal(p.ceiling, 65536);
	assert_int_equal(p.rmem.max, 6291456);
	assert_int_equal(p.rmem_max, 6291456);
	sizing_plan_clear(&p);

	in.allow_decrease = 1;
	compute_ok(&in, &p);
	assert_triple(&p.rmem, 4096, 131072, 131072);
	assert_triple(&p.wmem, 4096, 16384, 65536);
	assert_contains(p.reason_rmem, "; raised to the default value "
	    "128 KiB");
	assert_int_equal(p.rmem_max, 131072);
	assert_int_equal(p.wmem_max, 65536);
	sizing_plan_clear(&p);
}

static void
test_default_params(void **state)
{
	struct sizing_input	in = stock_host(500, 105, 1 * GiB);
	struct sizing_plan	p;

	(void)state;
	/* Lower than the host's: kept unless allow_decrease. */
	in.rmem_default = 65536;
	compute_ok(&in, &p);
	assert_int_equal(p.rmem.def, 131072);
	assert_contains(p.reason_rmem, "default 128 KiB kept (higher than "
	    "rmem_default 64 KiB; allow_decrease is false)");
	sizing_plan_clear(&p);
	in.allow_decrease = 1;
	compute_ok(&in, &p);
	assert_int_equal(p.rmem.def, 65536);
	assert_contains(p.reason_rmem, "default 64 KiB (rmem_default)");
	sizing_plan_clear(&p);

	/* A default above the ceiling pulls the maximum up with it. */
	in = stock_host(500, 105, 1 * GiB);
	in.wmem_default = 32 * MiB;
	compute_ok(&in, &p);
	assert_triple(&p.wmem, 4096, 32 * MiB, 32 * MiB);
	assert_contains(p.reason_wmem, "raised to the default value 32 MiB");
	assert_int_equal(p.wmem_max, 32 * MiB);
	sizing_plan_clear(&p);
}

static void
test_unknown_current(void **state)
{
	struct sizing_input	in = stock_host(500, 105, 1 * GiB);
	struct sizing_plan	p;

	(void)state;
	in.st_rmem = in.st_wmem = SIZING_UNKNOWN;
	in.st_rmem_max = in.st_wmem_max = SIZING_UNKNOWN;
	/* Values that must be ignored when the state says unknown. */
	in.cur_rmem = (struct tcp_triple){ 1, 2, 999 * MiB };
	in.cur_rmem_max = 999 * MiB;
	compute_ok(&in, &p);
	assert_triple(&p.rmem, 4096, 131072, 16 * MiB);
	assert_triple(&p.wmem, 4096, 16384, 16 * MiB);
	assert_int_equal(p.rmem_max, 16 * MiB);
	assert_true(p.set_rmem && p.set_rmem_max);
	assert_contains(p.reason_rmem, "(host value unknown: the kernel's "
	    "defaults assumed)");
	assert_null(strstr(p.reason_rmem, "up from"));
	sizing_plan_clear(&p);
}

/* A child network namespace or a container: rmem_max/wmem_max read-only,
 * or a key missing altogether. */
static void
test_cannot_be_set_here(void **state)
{
	struct sizing_input	in = stock_host(100, 105, 1 * GiB);
	struct sizing_plan	p;
	struct dropin		d;

	(void)state;
	in.st_rmem_max = in.st_wmem_max = SIZING_READONLY;
	compute_ok(&in, &p);
	assert_false(p.set_rmem_max);
	assert_false(p.set_wmem_max);
	assert_int_equal(p.rmem_max, 212992);
	assert_true(p.set_rmem);
	assert_string_equal(p.reason_rmem_max,
	    "cannot be set here: net.core.rmem_max is read-only here (a "
	    "network namespace or container); the host keeps 208 KiB, so "
	    "setsockopt(SO_RCVBUF) stays capped at that; autotuning uses "
	    "tcp_rmem");
	dropin_init(&d);
	sizing_plan_to_dropin(&p, &d);
	assert_int_equal(d.n, 2);
	assert_string_equal(d.entries[0].key, "net.ipv4.tcp_rmem");
	assert_string_equal(d.entries[1].key, "net.ipv4.tcp_wmem");
	dropin_free(&d);
	sizing_plan_clear(&p);

	in = stock_host(100, 105, 1 * GiB);
	in.st_wmem = SIZING_READONLY;
	in.st_rmem_max = SIZING_ABSENT;
	compute_ok(&in, &p);
	assert_false(p.set_wmem);
	assert_triple(&p.wmem, 4096, 16384, 4194304);
	assert_contains(p.reason_wmem, "cannot be set here: "
	    "net.ipv4.tcp_wmem is read-only here");
	assert_false(p.set_rmem_max);
	assert_string_equal(p.reason_rmem_max, "cannot be set here: "
	    "net.core.rmem_max does not exist here");
	/* wmem_max still planned, from the ceiling. */
	assert_true(p.set_wmem_max);
	assert_int_equal(p.wmem_max, 4 * MiB);
	sizing_plan_clear(&p);

	in.st_rmem = SIZING_ABSENT;
	compute_ok(&in, &p);
	assert_false(p.set_rmem);
	assert_string_equal(p.reason_rmem, "cannot be set here: "
	    "net.ipv4.tcp_rmem does not exist here");
	sizing_plan_clear(&p);
}

static void
expect_fail(const struct sizing_input *in, const char *want)
{
	struct sizing_plan	 p;
	char			*cause = NULL;

	assert_int_equal(sizing_plan_compute(in, &p, &cause), -1);
	assert_non_null(cause);
	assert_string_equal(cause, want);
	free(cause);
	sizing_plan_clear(&p);
}

static void
test_failures(void **state)
{
	struct sizing_input	in;

	(void)state;
	/* A virtual NIC reports no speed and no var was set. */
	in = stock_host(0, 105, 1 * GiB);
	expect_fail(&in, "no bandwidth: set bandwidth_mbit (the NIC reports "
	    "no speed)");
	in = stock_host(-1, 105, 1 * GiB);
	expect_fail(&in, "no bandwidth: set bandwidth_mbit (the NIC reports "
	    "no speed)");
	in = stock_host(NAN, 105, 1 * GiB);
	expect_fail(&in, "no bandwidth: set bandwidth_mbit (the NIC reports "
	    "no speed)");
	in = stock_host(100, 0, 1 * GiB);
	expect_fail(&in, "no rtt: set rtt_ms (the host's peers could not be "
	    "measured)");
	in = stock_host(100, 105, 0);
	expect_fail(&in, "no memory size: MemTotal is unknown, so the "
	    "buffers cannot be capped by RAM");
	in = stock_host(100, 105, 1 * GiB);
	in.headroom = 0.5;
	expect_fail(&in, "headroom must be between 1 and 1024");
	in.headroom = 2;
	in.max_buffer = 100;
	expect_fail(&in, "max_buffer below 4096 bytes");
}

/* Same inputs, same reasons, byte for byte. */
static void
test_deterministic(void **state)
{
	struct sizing_input	in = stock_host(933.3, 92.46, 3 * GiB + 7);
	struct sizing_plan	a, b;

	(void)state;
	compute_ok(&in, &a);
	compute_ok(&in, &b);
	assert_string_equal(a.reason_rmem, b.reason_rmem);
	assert_string_equal(a.reason_wmem_max, b.reason_wmem_max);
	assert_contains(a.reason_rmem, "BDP 933.3 Mbit/s \xc3\x97 92.5 ms = "
	    "10.8 MB");
	assert_contains(a.reason_rmem, "RAM cap 1/64 of 3.0 GiB = 48 MiB;");
	sizing_plan_clear(&a);
	sizing_plan_clear(&b);
}

static void
test_plan_to_dropin(void **state)
{
	struct sizing_input	 in = stock_host(500, 105, 1 * GiB);
	struct sizing_plan	 p;
	struct dropin		 d;

	(void)state;
	compute_ok(&in, &p);
	dropin_init(&d);
	sizing_plan_to_dropin(&p, &d);
	assert_int_equal(d.n, 4);
	assert_string_equal(d.entries[0].key, "net.ipv4.tcp_rmem");
	assert_string_equal(d.entries[0].value, "4096 131072 16777216");
	assert_string_equal(d.entries[0].reason, p.reason_rmem);
	assert_string_equal(d.entries[1].key, "net.ipv4.tcp_wmem");
	assert_string_equal(d.entries[1].value, "4096 16384 16777216");
	assert_string_equal(d.entries[2].key, "net.core.rmem_max");
	assert_string_equal(d.entries[2].value, "16777216");
	assert_string_equal(d.entries[3].key, "net.core.wmem_max");
	assert_string_equal(d.entries[3].value, "16777216");
	dropin_free(&d);
	sizing_plan_clear(&p);
}

/* ---- congestion control and qdisc */

static struct cc_input
bbr_fq(enum kconfig bbr, enum kconfig fq, const char *avail)
{
	struct cc_input in = {
		.want_cc = "bbr", .want_qdisc = "fq", .kconf_cc = bbr,
		.kconf_qdisc = fq, .available_cc = avail,
		.current_cc = "cubic", .have_default_qdisc = 1,
		.cc_writable = 1, .load_module = 1,
	};

	return in;
}

static void
test_kconfig_from_string(void **state)
{
	(void)state;
	assert_int_equal(kconfig_from_string("y"), KCONFIG_BUILTIN);
	assert_int_equal(kconfig_from_string("m"), KCONFIG_MODULE);
	assert_int_equal(kconfig_from_string("absent"), KCONFIG_ABSENT);
	assert_int_equal(kconfig_from_string("n"), KCONFIG_ABSENT);
	assert_int_equal(kconfig_from_string(""), KCONFIG_ABSENT);
	assert_int_equal(kconfig_from_string("unknown"), KCONFIG_UNKNOWN);
	assert_int_equal(kconfig_from_string(NULL), KCONFIG_UNKNOWN);
}

static void
test_cc_builtin(void **state)
{
	struct cc_input	in = bbr_fq(KCONFIG_BUILTIN, KCONFIG_BUILTIN,
			    "reno cubic bbr");
	struct cc_plan	p;

	(void)state;
	cc_plan_compute(&in, &p);
	assert_string_equal(p.cc, "bbr");
	assert_null(p.cc_modprobe);
	assert_null(p.cc_persist);
	assert_false(p.cc_skipped);
	assert_string_equal(p.reason_cc, "bbr is available in this kernel "
	    "(tcp_available_congestion_control: reno cubic bbr)");
	assert_string_equal(p.qdisc, "fq");
	assert_null(p.qdisc_modprobe);
	assert_string_equal(p.reason_qdisc, "CONFIG_NET_SCH_FQ=y: fq is "
	    "built into this kernel; BBR paces through fq");
	cc_plan_clear(&p);

	/* y but not listed (the list was not read): still used. */
	in.available_cc = NULL;
	cc_plan_compute(&in, &p);
	assert_string_equal(p.cc, "bbr");
	assert_string_equal(p.reason_cc, "CONFIG_TCP_CONG_BBR=y: bbr is "
	    "built into this kernel");
	cc_plan_clear(&p);
	/* The word must match whole: "bbr2" is not "bbr". */
	in.available_cc = "reno cubic bbr2";
	in.kconf_cc = KCONFIG_ABSENT;
	cc_plan_compute(&in, &p);
	assert_null(p.cc);
	assert_true(p.cc_skipped);
	cc_plan_clear(&p);
}

static void
test_cc_module(void **state)
{
	struct cc_input	in = bbr_fq(KCONFIG_MODULE, KCONFIG_MODULE,
			    "reno cubic");
	struct cc_plan	p;
	struct dropin	d;

	(void)state;
	cc_plan_compute(&in, &p);
	assert_string_equal(p.cc, "bbr");
	assert_string_equal(p.cc_modprobe, "tcp_bbr");
	assert_string_equal(p.cc_persist, "tcp_bbr");
	assert_string_equal(p.reason_cc, "CONFIG_TCP_CONG_BBR=m: modprobe "
	    "tcp_bbr, and tcp_bbr listed in /etc/modules-load.d/tcptune.conf "
	    "so it loads at boot");
	assert_string_equal(p.qdisc, "fq");
	assert_string_equal(p.qdisc_modprobe, "sch_fq");
	assert_string_equal(p.qdisc_persist, "sch_fq");
	assert_contains(p.reason_qdisc, "CONFIG_NET_SCH_FQ=m: modprobe "
	    "sch_fq");
	dropin_init(&d);
	cc_plan_to_dropin(&p, &d);
	assert_int_equal(d.n, 2);
	assert_string_equal(d.entries[0].key, "net.core.default_qdisc");
	assert_string_equal(d.entries[0].value, "fq");
	assert_string_equal(d.entries[1].key,
	    "net.ipv4.tcp_congestion_control");
	assert_string_equal(d.entries[1].value, "bbr");
	assert_string_equal(d.entries[1].reason, p.reason_cc);
	dropin_free(&d);
	cc_plan_clear(&p);

	/* Already loaded: no modprobe now, but persisted for the boot. */
	in.available_cc = "reno cubic bbr";
	cc_plan_compute(&in, &p);
	assert_string_equal(p.cc, "bbr");
	assert_null(p.cc_modprobe);
	assert_string_equal(p.cc_persist, "tcp_bbr");
	assert_contains(p.reason_cc, "; CONFIG_TCP_CONG_BBR=m: tcp_bbr "
	    "listed in /etc/modules-load.d/tcptune.conf");
	cc_plan_clear(&p);

	/* Not loaded and load_module false: skipped. */
	in.available_cc = "reno cubic";
	in.load_module = 0;
	cc_plan_compute(&in, &p);
	assert_null(p.cc);
	assert_null(p.cc_modprobe);
	assert_true(p.cc_skipped);
	assert_string_equal(p.reason_cc, "bbr skipped: CONFIG_TCP_CONG_BBR=m "
	    "but tcp_bbr is not loaded and load_module is false");
	assert_null(p.qdisc);
	assert_true(p.qdisc_skipped);
	assert_string_equal(p.reason_qdisc, "fq skipped: CONFIG_NET_SCH_FQ=m "
	    "and load_module is false");
	cc_plan_clear(&p);
}

static void
test_cc_absent(void **state)
{
	struct cc_input	in = bbr_fq(KCONFIG_ABSENT, KCONFIG_ABSENT,
			    "reno cubic");
	struct cc_plan	p;
	struct dropin	d;

	(void)state;
	cc_plan_compute(&in, &p);
	assert_null(p.cc);
	assert_true(p.cc_skipped);
	assert_string_equal(p.reason_cc, "bbr skipped: CONFIG_TCP_CONG_BBR "
	    "is not set in this kernel (tcp_available_congestion_control: "
	    "reno cubic); congestion control left as is (cubic)");
	/* The host stays on cubic, so no pacing remark. */
	assert_string_equal(p.reason_qdisc, "fq skipped: CONFIG_NET_SCH_FQ "
	    "is not set in this kernel; default_qdisc left as is");
	dropin_init(&d);
	cc_plan_to_dropin(&p, &d);
	assert_int_equal(d.n, 0);
	dropin_free(&d);
	cc_plan_clear(&p);
}

/* This machine: BBR built in, no sch_fq. */
static void
test_cc_bbr_without_fq(void **state)
{
	struct cc_input	in = bbr_fq(KCONFIG_BUILTIN, KCONFIG_ABSENT,
			    "reno cubic bbr");
	struct cc_plan	p;

	(void)state;
	cc_plan_compute(&in, &p);
	assert_string_equal(p.cc, "bbr");
	assert_null(p.qdisc);
	assert_true(p.qdisc_skipped);
	assert_string_equal(p.reason_qdisc, "fq skipped: CONFIG_NET_SCH_FQ "
	    "is not set in this kernel; BBR paces by itself since 4.13");
	cc_plan_clear(&p);

	in.kernel_major = 6;
	in.kernel_minor = 18;
	cc_plan_compute(&in, &p);
	assert_string_equal(p.reason_qdisc, "fq skipped: CONFIG_NET_SCH_FQ "
	    "is not set in this kernel; BBR paces by itself since 4.13");
	cc_plan_clear(&p);

	/* Before 4.13 BBR needed fq to pace: say so. */
	in.kernel_major = 4;
	in.kernel_minor = 9;
	cc_plan_compute(&in, &p);
	assert_string_equal(p.reason_qdisc, "fq skipped: CONFIG_NET_SCH_FQ "
	    "is not set in this kernel; BBR paces by itself since 4.13; "
	    "warning: kernel 4.9 is older than 4.13, where BBR needs fq to "
	    "pace");
	cc_plan_clear(&p);

	/* BBR already current and not asked for: the remark still holds. */
	in.want_cc = NULL;
	in.current_cc = "bbr";
	in.kernel_major = 0;
	cc_plan_compute(&in, &p);
	assert_null(p.cc);
	assert_false(p.cc_skipped);
	assert_string_equal(p.reason_cc, "congestion control left as is "
	    "(bbr)");
	assert_contains(p.reason_qdisc, "BBR paces by itself since 4.13");
	cc_plan_clear(&p);
}

static void
test_cc_unknown_config(void **state)
{
	struct cc_input	in = bbr_fq(KCONFIG_UNKNOWN, KCONFIG_UNKNOWN,
			    "reno cubic");
	struct cc_plan	p;

	(void)state;
	cc_plan_compute(&in, &p);
	assert_string_equal(p.cc, "bbr");
	assert_string_equal(p.cc_modprobe, "tcp_bbr");
	assert_string_equal(p.reason_cc, "no kernel config to tell whether "
	    "CONFIG_TCP_CONG_BBR exists and bbr is not loaded: will try "
	    "modprobe tcp_bbr");
	assert_string_equal(p.qdisc, "fq");
	assert_string_equal(p.qdisc_modprobe, "sch_fq");
	assert_contains(p.reason_qdisc, "will try modprobe sch_fq");
	cc_plan_clear(&p);

	/* Unknown config, but listed: used, nothing to load. */
	in.available_cc = "reno cubic bbr";
	cc_plan_compute(&in, &p);
	assert_string_equal(p.cc, "bbr");
	assert_null(p.cc_modprobe);
	assert_null(p.cc_persist);
	cc_plan_clear(&p);

	in.available_cc = NULL;
	in.load_module = 0;
	cc_plan_compute(&in, &p);
	assert_null(p.cc);
	assert_true(p.cc_skipped);
	assert_contains(p.reason_cc, "load_module is false");
	assert_null(p.qdisc);
	assert_true(p.qdisc_skipped);
	assert_contains(p.reason_qdisc, "load_module is false");
	cc_plan_clear(&p);
}

/* A child network namespace / container: default_qdisc does not exist,
 * tcp_congestion_control may be read-only. */
static void
test_cc_namespace(void **state)
{
	struct cc_input	in = bbr_fq(KCONFIG_BUILTIN, KCONFIG_BUILTIN,
			    "reno bbr");
	struct cc_plan	p;

	(void)state;
	in.have_default_qdisc = 0;
	cc_plan_compute(&in, &p);
	assert_string_equal(p.cc, "bbr");
	assert_null(p.qdisc);
	assert_true(p.qdisc_skipped);
	assert_string_equal(p.reason_qdisc, "cannot be set here: "
	    "net.core.default_qdisc does not exist in this network namespace");
	cc_plan_clear(&p);

	/* Absent default_qdisc wins over a missing fq. */
	in.kconf_qdisc = KCONFIG_ABSENT;
	cc_plan_compute(&in, &p);
	assert_contains(p.reason_qdisc, "cannot be set here");
	cc_plan_clear(&p);

	in.cc_writable = 0;
	cc_plan_compute(&in, &p);
	assert_null(p.cc);
	assert_true(p.cc_skipped);
	assert_string_equal(p.reason_cc, "cannot be set here: "
	    "net.ipv4.tcp_congestion_control is read-only here");
	cc_plan_clear(&p);
}

static void
test_cc_keep_and_other_qdiscs(void **state)
{
	struct cc_input	in = bbr_fq(KCONFIG_BUILTIN, KCONFIG_ABSENT,
			    "reno cubic bbr");
	struct cc_plan	p;

	(void)state;
	in.want_qdisc = "keep";
	cc_plan_compute(&in, &p);
	assert_null(p.qdisc);
	assert_false(p.qdisc_skipped);
	assert_string_equal(p.reason_qdisc, "default_qdisc left as is");
	cc_plan_clear(&p);

	in.want_qdisc = NULL;
	in.want_cc = "";
	cc_plan_compute(&in, &p);
	assert_null(p.cc);
	assert_null(p.qdisc);
	assert_string_equal(p.reason_cc, "congestion control left as is "
	    "(cubic)");
	cc_plan_clear(&p);

	/* pfifo_fast has no option of its own: always there. */
	in.want_cc = "bbr";
	in.want_qdisc = "pfifo_fast";
	cc_plan_compute(&in, &p);
	assert_string_equal(p.qdisc, "pfifo_fast");
	assert_string_equal(p.reason_qdisc, "pfifo_fast is always built in");
	cc_plan_clear(&p);

	/* fq_codel maps to its own option, and no BBR pacing remark. */
	in.want_qdisc = "fq_codel";
	cc_plan_compute(&in, &p);
	assert_null(p.qdisc);
	assert_string_equal(p.reason_qdisc, "fq_codel skipped: "
	    "CONFIG_NET_SCH_FQ_CODEL is not set in this kernel; "
	    "default_qdisc left as is");
	cc_plan_clear(&p);

	/* Another algorithm maps to its own option and module. */
	in.want_cc = "htcp";
	in.kconf_cc = KCONFIG_MODULE;
	in.want_qdisc = "keep";
	cc_plan_compute(&in, &p);
	assert_string_equal(p.cc, "htcp");
	assert_string_equal(p.cc_modprobe, "tcp_htcp");
	assert_contains(p.reason_cc, "CONFIG_TCP_CONG_HTCP=m");
	cc_plan_clear(&p);
}

/* ---- many peers: the widest path (largest bandwidth x RTT) wins, the
 * reason names it ("BDP 1000 Mbit/s x 92.3 ms to bhs-db1 (ovh_bhs) = 11.5
 * MB"), and a peer's bandwidth comes from its most specific group in
 * bandwidth_mbit_by_group. docs/sizing.md, "Many peers". */

#define TIMES	"\xc3\x97"

/* The widest path is the largest BDP, not the longest RTT. */
static void
test_widest_is_largest_bdp(void **state)
{
	struct sizing_path p[] = {
		{ .to = "gra-web1", .group = "ovh_gra", .rtt_ms = 1.2,
		  .bandwidth_mbit = 1000 },
		/* 1000 x 92.3 = 92300: the widest */
		{ .to = "bhs-db1", .group = "ovh_bhs", .rtt_ms = 92.3,
		  .bandwidth_mbit = 1000 },
		/* farther but slower: 200 x 250 = 50000 */
		{ .to = "sgp-cache1", .group = "gcp_asia", .rtt_ms = 250,
		  .bandwidth_mbit = 200 },
	};

	(void)state;
	assert_int_equal(sizing_widest_path(p, 3), 1);
	/* At 400 Mbit/s Asia is wider: 100000 > 92300. */
	p[2].bandwidth_mbit = 400;
	assert_int_equal(sizing_widest_path(p, 3), 2);
}

/* Equal BDPs: the first given wins, so the same peers name the same path
 * on every run; unknown RTT or bandwidth never wins; none at all is -1. */
static void
test_widest_ties_and_unknowns(void **state)
{
	struct sizing_path p[] = {
		{ .to = "a", .rtt_ms = 0, .bandwidth_mbit = 1000 },
		{ .to = "b", .rtt_ms = 100, .bandwidth_mbit = 100 },
		{ .to = "c", .rtt_ms = 50, .bandwidth_mbit = 200 },
		{ .to = "d", .rtt_ms = 1000, .bandwidth_mbit = 0 },
	};

	(void)state;
	assert_int_equal(sizing_widest_path(p, 4), 1);
	assert_int_equal(sizing_widest_path(p, 1), -1);
	assert_int_equal(sizing_widest_path(p, 0), -1);
	assert_int_equal(sizing_widest_path(&p[2], 2), 0);
}

static char *
reason_for(const struct sizing_path *path)
{
	struct sizing_input	in;
	struct sizing_plan	plan;
	char			*cause = NULL, *r;

	memset(&in, 0, sizeof in);
	in.mem_total = (uint64_t)32 << 30;
	sizing_input_path(&in, path);
	assert_int_equal(sizing_plan_compute(&in, &plan, &cause), 0);
	r = strdup(plan.reason_rmem);
	/* Both triples' reasons start with the same ceiling. */
	assert_int_equal(strcspn(plan.reason_rmem, ";"),
	    strcspn(plan.reason_wmem, ";"));
	assert_memory_equal(plan.reason_rmem, plan.reason_wmem,
	    strcspn(plan.reason_rmem, ";"));
	sizing_plan_clear(&plan);
	return r;
}

/* The reason names the peer and the group whose bandwidth it took. */
static void
test_reason_names_the_path(void **state)
{
	struct sizing_path p = { .to = "bhs-db1", .group = "ovh_bhs",
	    .rtt_ms = 92.3, .bandwidth_mbit = 1000 };
	char *r;

	(void)state;
	r = reason_for(&p);
	assert_contains(r, "BDP 1000 Mbit/s " TIMES " 92.3 ms to bhs-db1 "
	    "(ovh_bhs) = 11.5 MB, " TIMES "2 headroom \xe2\x86\x92 32 MiB");
	free(r);

	/* The host's own bandwidth: no group. */
	p.group = NULL;
	r = reason_for(&p);
	assert_contains(r, "BDP 1000 Mbit/s " TIMES " 92.3 ms to bhs-db1 = "
	    "11.5 MB");
	free(r);

	/* var rtt_ms standing in for a peer the probe could not reach. */
	p.group = "ovh_bhs";
	p.rtt_assumed = 1;
	p.rtt_ms = 300;
	r = reason_for(&p);
	assert_contains(r, "BDP 1000 Mbit/s " TIMES " 300 ms to bhs-db1 "
	    "(ovh_bhs; rtt_ms, not measured) = 37.5 MB");
	free(r);
	p.group = NULL;
	r = reason_for(&p);
	assert_contains(r, " to bhs-db1 (rtt_ms, not measured) = ");
	free(r);

	/* No path named (task parameters, `tcptune size`): as before. */
	p.to = NULL;
	r = reason_for(&p);
	assert_contains(r, "BDP 1000 Mbit/s " TIMES " 300 ms = 37.5 MB");
	free(r);
}

/* The widest of many peers sets the ceiling: a far slow path against a
 * nearer fast one. */
static void
test_ceiling_from_widest(void **state)
{
	struct sizing_path p[] = {
		{ .to = "eu2", .group = "region_eu", .rtt_ms = 1.3,
		  .bandwidth_mbit = 200 },
		{ .to = "ca1", .group = "region_ca", .rtt_ms = 90.2,
		  .bandwidth_mbit = 150 },
		{ .to = "asia2", .group = "region_asia", .rtt_ms = 240.2,
		  .bandwidth_mbit = 100 },
	};
	struct sizing_input	in;
	struct sizing_plan	plan;
	char			*cause = NULL;
	int			 i;

	(void)state;
	memset(&in, 0, sizeof in);
	in.mem_total = (uint64_t)32 << 30;
	i = sizing_widest_path(p, 3);
	assert_int_equal(i, 2);
	sizing_input_path(&in, &p[i]);
	assert_int_equal(sizing_plan_compute(&in, &plan, &cause), 0);
	/* 100 x 240.2 x 125 = 3.0 MB, x2 = 6.0 MB -> 8 MiB */
	assert_int_equal(plan.bdp_bytes, 3002500);
	assert_int_equal(plan.ceiling, 8 << 20);
	assert_contains(plan.reason_rmem, "to asia2 (region_asia) = 3.0 MB");
	sizing_plan_clear(&plan);
}

static json_t *
groups(void)
{
	json_t *g = json_loads("{\"all\": [\"bhs-db1\", \"bhs-db2\", "
	    "\"gra-web1\", \"sgp1\"], \"ovh\": [\"bhs-db1\", \"bhs-db2\", "
	    "\"gra-web1\"], \"ovh_bhs\": [\"bhs-db1\", \"bhs-db2\"], "
	    "\"db\": [\"bhs-db1\"], \"gcp_asia\": [\"sgp1\"]}", 0, NULL);

	assert_non_null(g);
	return g;
}

/* The most specific group of the map holding the peer: the smallest. */
static void
test_group_bandwidth(void **state)
{
	json_t		*g = groups(), *map;
	const char	*group;
	double		 mbit;
	char		*cause = NULL;

	(void)state;
	map = json_loads("{\"ovh\": 1000, \"ovh_bhs\": \"500\", "
	    "\"gcp_asia\": 200.5}", 0, NULL);
	assert_int_equal(peer_group_bandwidth(map, g, "bhs-db2", &group,
	    &mbit, &cause), 0);
	assert_string_equal(group, "ovh_bhs");
	assert_true(mbit == 500);
	assert_int_equal(peer_group_bandwidth(map, g, "gra-web1", &group,
	    &mbit, &cause), 0);
	assert_string_equal(group, "ovh");
	assert_true(mbit == 1000);
	assert_int_equal(peer_group_bandwidth(map, g, "sgp1", &group,
	    &mbit, &cause), 0);
	assert_string_equal(group, "gcp_asia");
	assert_true(mbit == 200.5);
	/* In no group of the map: none. */
	assert_int_equal(peer_group_bandwidth(map, g, "elsewhere", &group,
	    &mbit, &cause), 0);
	assert_null(group);
	assert_true(mbit == 0);
	/* No map: none. */
	assert_int_equal(peer_group_bandwidth(NULL, g, "bhs-db1", &group,
	    &mbit, &cause), 0);
	assert_null(group);
	json_decref(map);

	/* Equal sizes: the first listed. */
	map = json_loads("{\"db\": 10, \"gcp_asia\": 20}", 0, NULL);
	json_object_set_new(g, "db2", json_pack("[s]", "bhs-db1"));
	json_object_set_new(map, "db2", json_integer(30));
	assert_int_equal(peer_group_bandwidth(map, g, "bhs-db1", &group,
	    &mbit, &cause), 0);
	assert_string_equal(group, "db");
	json_decref(map);
	json_decref(g);
}

static void
assert_map_error(const char *map_text, const char *want)
{
	json_t		*g = groups(), *map;
	const char	*group;
	double		 mbit;
	char		*cause = NULL;

	map = json_loads(map_text, JSON_DECODE_ANY, NULL);
	assert_non_null(map);
	assert_int_equal(peer_group_bandwidth(map, g, "bhs-db1", &group,
	    &mbit, &cause), -1);
	assert_string_equal(cause, want);
	free(cause);
	json_decref(map);
	json_decref(g);
}

/* A misspelt group or a bandwidth that is no number is an error naming
 * the var and the key, not a silent fallback. */
static void
test_group_bandwidth_errors(void **state)
{
	(void)state;
	assert_map_error("{\"ovh_bsh\": 1000}", "variable "
	    "'bandwidth_mbit_by_group': 'ovh_bsh' is not a group of the "
	    "inventory");
	assert_map_error("{\"ovh\": \"fast\"}", "variable "
	    "'bandwidth_mbit_by_group': 'ovh' must be a bandwidth in Mbit/s "
	    "above 0");
	assert_map_error("{\"ovh\": 0}", "variable "
	    "'bandwidth_mbit_by_group': 'ovh' must be a bandwidth in Mbit/s "
	    "above 0");
	assert_map_error("[1000]", "variable 'bandwidth_mbit_by_group': "
	    "expected a mapping of group names to Mbit/s");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bdp),
		cmocka_unit_test(test_pow2),
		cmocka_unit_test(test_flow_cap),
		cmocka_unit_test(test_triple),
		cmocka_unit_test(test_seed000_gigabit_90ms),
		cmocka_unit_test(test_seed000_never_lower),
		cmocka_unit_test(test_never_lower_per_value),
		cmocka_unit_test(test_seed003_small_vps),
		cmocka_unit_test(test_lab_100mbit_105ms),
		cmocka_unit_test(test_lab_namespace),
		cmocka_unit_test(test_ram_cap_applied),
		cmocka_unit_test(test_max_buffer_applied),
		cmocka_unit_test(test_headroom),
		cmocka_unit_test(test_floor_at_default),
		cmocka_unit_test(test_default_params),
		cmocka_unit_test(test_unknown_current),
		cmocka_unit_test(test_cannot_be_set_here),
		cmocka_unit_test(test_failures),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_plan_to_dropin),
		cmocka_unit_test(test_kconfig_from_string),
		cmocka_unit_test(test_cc_builtin),
		cmocka_unit_test(test_cc_module),
		cmocka_unit_test(test_cc_absent),
		cmocka_unit_test(test_cc_bbr_without_fq),
		cmocka_unit_test(test_cc_unknown_config),
		cmocka_unit_test(test_cc_namespace),
		cmocka_unit_test(test_cc_keep_and_other_qdiscs),
		cmocka_unit_test(test_widest_is_largest_bdp),
		cmocka_unit_test(test_widest_ties_and_unknowns),
		cmocka_unit_test(test_reason_names_the_path),
		cmocka_unit_test(test_ceiling_from_widest),
		cmocka_unit_test(test_group_bandwidth),
		cmocka_unit_test(test_group_bandwidth_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
