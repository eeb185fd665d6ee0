/* TCP_INFO samples (lib/remote/tcpinfo.c) and the diagnosis of a flow
 * (modules/verify-diag.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "modules/verify-diag.h"
#include "modules/verify-table.h"
#include "remote/tcpinfo.h"

/* A sender's samples as iperf3.sh prints them: iperf3's control
 * connection, then the data connection, as ss -tinmH printed them in the
 * lab (lab01 sending to a stock lab02 over 104 ms). */
static const char sender_rwnd[] =
    "@samples 27\n"
    "@sysctl net.ipv4.tcp_rmem=4096 131072 4194304\n"
    "@sysctl net.ipv4.tcp_wmem=4096 16384 4194304\n"
    "@sysctl net.ipv4.tcp_congestion_control=reno\n"
    "@dropin net.ipv4.tcp_wmem=4096 16384 4194304\n"
    "0      0      198.19.0.1:40052 198.19.0.2:5201\n"
    "\t skmem:(r0,rb131072,t0,tb46080,f0,w0,o0,bl0,d0) ts sack reno "
    "wscale:7,7 rto:312 rtt:107.6/1.2 ato:40 mss:1448 pmtu:1500 "
    "rcvmss:536 advmss:1448 cwnd:10 bytes_sent:186 bytes_acked:187 "
    "bytes_received:4 segs_out:7 segs_in:7 data_segs_out:3 "
    "send 1.1Mbps lastsnd:7212 pacing_rate 2.2Mbps delivery_rate "
    "100Kbps delivered:4 app_limited busy:460ms rcv_space:14480 "
    "rcv_ssthresh:64088 minrtt:104.2 snd_wnd:64256\n"
    "0      0      198.19.0.1:40054 198.19.0.2:5201\n"
    "\t skmem:(r0,rb131072,t0,tb1152000,f0,w0,o0,bl0,d0) ts sack reno "
    "wscale:7,7 rto:312 rtt:104.444/0.3 mss:1448 pmtu:1500 rcvmss:536 "
    "advmss:1448 cwnd:250 ssthresh:200 bytes_sent:7853952 "
    "bytes_acked:7853952 segs_out:5426 segs_in:2711 data_segs_out:5424 "
    "send 27.7Mbps lastsnd:4 pacing_rate 33.3Mbps delivery_rate 9.9Mbps "
    "delivered:5424 busy:7020ms rwnd_limited:6436ms(91.7%) "
    "retrans:0/0 rcv_space:14480 rcv_ssthresh:64088 minrtt:104.2 "
    "snd_wnd:131712\n";

static const char receiver_stock[] =
    "@samples 25\n"
    "@sysctl net.ipv4.tcp_rmem=4096 131072 212992\n"
    "0      0      198.19.0.2:5201 198.19.0.1:40054\n"
    "\t skmem:(r0,rb212992,t0,tb46080,f0,w0,o0,bl0,d0) ts sack reno "
    "wscale:7,7 mss:1448 cwnd:10 bytes_received:7853952 "
    "rcv_space:134608 rcv_ssthresh:134608 snd_wnd:64256\n";

static void
test_parse(void **state)
{
	json_t			*j = tcpinfo_parse(sender_rwnd), *s;
	struct tcpinfo_flow	 f;

	(void)state;
	assert_non_null(j);
	assert_int_equal(json_integer_value(json_object_get(j, "samples")), 27);
	assert_string_equal(json_string_value(json_object_get(json_object_get(
	    j, "sysctl"), "net.ipv4.tcp_congestion_control")), "reno");
	assert_string_equal(json_string_value(json_object_get(json_object_get(
	    j, "dropin"), "net.ipv4.tcp_wmem")), "4096 16384 4194304");
	assert_int_equal(json_array_size(json_object_get(j, "sockets")), 2);
	s = json_array_get(json_object_get(j, "sockets"), 1);
	assert_string_equal(json_string_value(json_object_get(s, "local")),
	    "198.19.0.1:40054");
	assert_string_equal(json_string_value(json_object_get(s, "cc")),
	    "reno");
	assert_int_equal(json_integer_value(json_object_get(s, "cwnd")), 250);
	assert_int_equal(json_integer_value(json_object_get(s, "tb")),
	    1152000);
	assert_int_equal(json_integer_value(json_object_get(s,
	    "rwnd_limited_ms")), 6436);
	assert_int_equal(json_integer_value(json_object_get(s, "busy_ms")),
	    7020);
	assert_int_equal(json_integer_value(json_object_get(s, "snd_wnd")),
	    131712);
	assert_float_equal(json_real_value(json_object_get(s, "rtt_ms")),
	    104.444, 1e-9);
	assert_float_equal(json_real_value(json_object_get(s,
	    "delivery_bps")), 9.9e6, 1);
	assert_int_equal(json_integer_value(json_object_get(s, "retrans")), 0);
	assert_true(json_is_true(json_object_get(json_array_get(
	    json_object_get(j, "sockets"), 0), "app_limited")));

	/* The flow is the data socket: the control connection moved a
	 * thousandth of its bytes. */
	assert_int_equal(tcpinfo_flow(j, 1, &f), 0);
	assert_int_equal(f.sockets, 1);
	assert_int_equal(f.busy_ms, 7020);
	assert_int_equal(f.sndbuf_limited_ms, 0);	/* not printed: 0 */
	assert_int_equal(f.cwnd, 250);
	assert_string_equal(f.cc, "reno");
	/* As a receiver: only the control connection's 4 bytes. */
	assert_int_equal(tcpinfo_flow(j, 0, &f), 0);
	assert_int_equal(f.bytes, 4);
	json_decref(j);

	assert_null(tcpinfo_parse(NULL));
	assert_null(tcpinfo_parse(""));
	assert_null(tcpinfo_parse("garbage\n\tcwnd:10\n"));
	/* No socket found: a document, no flow. */
	j = tcpinfo_parse("@samples 0\n");
	assert_non_null(j);
	assert_int_equal(tcpinfo_flow(j, 1, &f), -1);
	json_decref(j);
}

/* A sender sample with the chrono times, windows and counts given. */
struct sender_case {
	const char	*why;
	long long	 busy, rwnd, sndbuf, cwnd, snd_wnd, tb, retrans, segs;
	double		 mbps, path;
	const char	*want;
};

static const struct sender_case cases[] = {
	{ "the kernel's sndbuf_limited", 7000, 0, 5000, 500, 2600000, 65536,
	  0, 5000, 19, 100, "send_buffer" },
	/* The kernel counted 4%, but cwnd and the peer's window were open
	 * and the buffer held what flew: (b) as the lab measured it. */
	{ "windows open, a small buffer", 12564, 216, 500, 492, 2620032, 65536,
	  0, 20000, 19.2, 100, "send_buffer" },
	{ "windows open, a large buffer, busy", 12564, 216, 500, 492, 2620032,
	  4194304, 0, 20000, 19.2, 100, "unknown" },
	{ "windows open, idle most of the run", 2000, 0, 0, 492, 2620032,
	  4194304, 0, 20000, 19.2, 100, "application" },
	{ "cwnd-limited with loss", 7000, 0, 0, 13, 2600000, 600000, 12, 1289,
	  1.1, 100, "congestion" },
	/* The path's payload rate: 96.5 of 100 Mbit/s at MSS 1448. */
	{ "90% of the payload rate", 7000, 600, 0, 900, 2600000, 4194304, 0,
	  90000, 87.0, 100, "link_rate" },
	{ "under 90% of it", 7000, 600, 0, 900, 2600000, 4194304, 0, 90000,
	  86.0, 100, "unknown" },
	{ "no known rate", 7000, 600, 0, 900, 2600000, 4194304, 0, 90000,
	  96.0, 0, "unknown" },
	{ NULL, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, NULL },
};

static json_t *
sender(const struct sender_case *c)
{
	return json_pack("{s:i, s:{s:s, s:s}, s:{}, s:[{s:s, s:s, s:s, s:I, "
	    "s:I, s:I, s:I, s:i, s:I, s:I, s:I, s:I, s:I, s:f}]}",
	    "samples", 20, "sysctl", "net.ipv4.tcp_wmem", "4096 16384 65536",
	    "net.ipv4.tcp_congestion_control", "reno", "dropin", "sockets",
	    "local", "a:1", "peer", "b:2", "cc", "reno", "bytes_acked",
	    (json_int_t)10000000, "busy_ms", (json_int_t)c->busy,
	    "rwnd_limited_ms", (json_int_t)c->rwnd, "sndbuf_limited_ms",
	    (json_int_t)c->sndbuf, "mss", 1448, "cwnd", (json_int_t)c->cwnd,
	    "snd_wnd", (json_int_t)c->snd_wnd, "tb", (json_int_t)c->tb,
	    "retrans", (json_int_t)c->retrans, "data_segs_out",
	    (json_int_t)c->segs, "rtt_ms", 104.0);
}

static const char *
limit_of(double mbps, json_t *s, json_t *r, double path)
{
	static char		 buf[64];
	struct iperf_run	 run;
	struct verify_diag_in	 in = { "lab01", "lab02", &run, s, r, path };
	json_t			*d;

	memset(&run, 0, sizeof run);
	run.mbps = mbps;
	run.sent_mbps = mbps;
	run.seconds = 10;
	run.retransmits = -1;
	run.mss = 1448;
	d = verify_diagnose(&in);
	strncpy(buf, json_string_value(json_object_get(d, "limit")),
	    sizeof buf - 1);
	json_decref(d);
	return buf;
}

static void
test_diagnose(void **state)
{
	json_t			*s, *r = tcpinfo_parse(receiver_stock), *d;
	struct iperf_run	 run;
	struct verify_diag_in	 in = { "lab01", "lab02", &run, NULL, r, 100 };
	const struct sender_case *c;

	(void)state;
	/* (a) the lab's receiver-limited flow, named in full. */
	s = tcpinfo_parse(sender_rwnd);
	memset(&run, 0, sizeof run);
	run.mbps = 9.3;
	run.seconds = 10;
	run.retransmits = 0;
	in.sender_info = s;
	d = verify_diagnose(&in);
	assert_string_equal(json_string_value(json_object_get(d, "limit")),
	    "receive_window");
	assert_string_equal(json_string_value(json_object_get(d, "host")),
	    "lab02");
	assert_string_equal(json_string_value(json_object_get(d, "key")),
	    "net.ipv4.tcp_rmem");
	assert_string_equal(json_string_value(json_object_get(d, "value")),
	    "4096 131072 212992");
	assert_true(json_is_null(json_object_get(d, "dropin")));
	assert_string_equal(json_string_value(json_object_get(d, "module")),
	    "tcp_buffers");
	assert_non_null(strstr(json_string_value(json_object_get(d, "detail")),
	    "lab01 waited on lab02's receive window 92% of its busy time "
	    "(advertised window 131712 bytes, receive buffer 212992)"));
	assert_int_equal(json_integer_value(json_object_get(json_object_get(d,
	    "evidence"), "rwnd_limited_ms")), 6436);
	json_decref(d);
	json_decref(s);

	for (c = cases; c->why != NULL; c++) {
		s = sender(c);
		if (strcmp(limit_of(c->mbps, s, r, c->path), c->want) != 0)
			fail_msg("%s: %s, want %s", c->why, limit_of(c->mbps,
			    s, r, c->path), c->want);
		json_decref(s);
	}
	/* No samples: unknown, saying why. */
	assert_string_equal(limit_of(9, NULL, r, 100), "unknown");
	s = json_pack("{s:i, s:[]}", "samples", 0, "sockets");
	assert_string_equal(limit_of(9, s, r, 100), "unknown");
	json_decref(s);
	json_decref(r);
}

/* A paced (bbr) sender over 400 ms that seldom ran into the stock
 * receiver's window, as the 6.1 guests measured it: 36.2 Mbit/s, cwnd
 * open, rwnd_limited 19%. */
static json_t *
paced_sender(long long snd_wnd)
{
	return json_pack("{s:i, s:{}, s:{}, s:[{s:s, s:s, s:s, s:I, s:I, "
	    "s:I, s:I, s:i, s:I, s:I, s:I, s:I, s:I, s:f}]}", "samples", 20,
	    "sysctl", "dropin", "sockets", "local", "a:1", "peer", "b:2", "cc",
	    "bbr", "bytes_acked", (json_int_t)30000000, "busy_ms",
	    (json_int_t)12000, "rwnd_limited_ms", (json_int_t)2232,
	    "sndbuf_limited_ms", (json_int_t)0, "mss", 1448, "cwnd",
	    (json_int_t)2500, "snd_wnd", (json_int_t)snd_wnd, "tb",
	    (json_int_t)7340032, "retrans", (json_int_t)0, "data_segs_out",
	    (json_int_t)25000, "rtt_ms", 400.7);
}

/* The receiver of it: its buffer RB of a tcp_rmem ceiling of 3861216,
 * advertising at most 1930608. */
static json_t *
paced_receiver(long long rb)
{
	return json_pack("{s:i, s:{s:s}, s:{}, s:[{s:s, s:s, s:I, s:I, "
	    "s:I}]}", "samples", 20, "sysctl", "net.ipv4.tcp_rmem",
	    "4096 131072 3861216", "dropin", "sockets", "local", "b:2", "peer",
	    "a:1", "bytes_received", (json_int_t)30000000, "rb",
	    (json_int_t)rb, "rcv_ssthresh", (json_int_t)1930608);
}

/* The limit of the paced flow at MBPS, the sender's snd_wnd and the
 * receiver's buffer given. */
static const char *
paced_limit(double mbps, long long snd_wnd, long long rb)
{
	json_t		*s = paced_sender(snd_wnd), *r = paced_receiver(rb);
	const char	*limit = limit_of(mbps, s, r, 100);

	json_decref(s);
	json_decref(r);
	return limit;
}

static void
test_diagnose_paced(void **state)
{
	(void)state;
	/* At its ceiling, the window full: receive_window. */
	assert_string_equal(paced_limit(36.2, -1, 3861216), "receive_window");
	/* The receiver's buffer could still grow: not the window. */
	assert_string_equal(paced_limit(36.2, -1, 2000000), "unknown");
	/* Half the window in flight: it was not full. */
	assert_string_equal(paced_limit(18.0, -1, 3861216), "unknown");
	/* The sender saw a smaller advertised window than the flight: the
	 * samples are not of one flow, no verdict from them. */
	assert_string_equal(paced_limit(36.2, 600000, 3861216), "unknown");
}

static void
test_cell(void **state)
{
	char	 buf[64];
	json_t	*d = json_pack("{s:s, s:s}", "limit", "send_buffer", "host",
	    "lab02");

	(void)state;
	assert_string_equal(verify_diag_cell(d, buf, sizeof buf),
	    "send_buffer lab02");
	json_object_set_new(d, "host", json_null());
	json_object_set_new(d, "limit", json_string("link_rate"));
	assert_string_equal(verify_diag_cell(d, buf, sizeof buf), "link_rate");
	assert_string_equal(verify_diag_cell(NULL, buf, sizeof buf), "-");
	json_decref(d);
	assert_float_equal(goodput_share(1448), 1448.0 / 1500, 1e-12);
}

/* The seeds' reading of one and many streams, one direction. */
static void
test_reading(void **state)
{
	struct iperf_set	 set;
	json_t			*diag, *r;

	(void)state;
	memset(&set, 0, sizeof set);
	set.have[IPERF_SINGLE_UP] = set.have[IPERF_MULTI_UP] = 1;
	set.run[IPERF_SINGLE_UP].mbps = 9.6;
	set.run[IPERF_SINGLE_UP].mss = 1448;
	set.run[IPERF_MULTI_UP].mbps = 94;
	set.run[IPERF_MULTI_UP].streams = 16;
	diag = json_pack("{s:{s:s, s:s, s:s}, s:{s:s, s:n}}", "single_up",
	    "limit", "receive_window", "host", "lab02", "key",
	    "net.ipv4.tcp_rmem", "multi_up", "limit", "link_rate", "host");

	r = verify_reading(&set, diag, 1, 100, -1);
	assert_string_equal(json_string_value(json_object_get(r, "verdict")),
	    "per_flow_limit");
	assert_string_equal(json_string_value(json_object_get(r, "text")),
	    "per-flow limit: TCP settings: 16 streams reach the path (94.0 "
	    "Mbit/s) and one does not (9.6 of 96.5); the single stream's "
	    "limit is receive_window: lab02's net.ipv4.tcp_rmem");
	json_decref(r);
	/* No direction measured both ways: nothing to read. */
	assert_null(verify_reading(&set, diag, 0, 100, -1));

	/* Neither reaches, the streams each held by a window: still TCP. */
	set.run[IPERF_MULTI_UP].mbps = 38;
	json_object_set_new(json_object_get(diag, "multi_up"), "limit",
	    json_string("receive_window"));
	r = verify_reading(&set, diag, 1, 100, -1);
	assert_string_equal(json_string_value(json_object_get(r, "verdict")),
	    "per_flow_limit");
	assert_non_null(strstr(json_string_value(json_object_get(r, "text")),
	    "16 streams were each held by a window (38.0 Mbit/s)"));
	json_decref(r);
	/* ... and by cwnd: the path or the NIC, with its speed. */
	json_object_set_new(json_object_get(diag, "multi_up"), "limit",
	    json_string("congestion"));
	r = verify_reading(&set, diag, 1, 100, 1000);
	assert_string_equal(json_string_value(json_object_get(r, "verdict")),
	    "path_or_nic");
	assert_non_null(strstr(json_string_value(json_object_get(r, "text")),
	    "the path or the NIC, not TCP settings: 16 streams got 38.0 and "
	    "one 9.6 of the path's 96.5 Mbit/s of payload; the NIC reports "
	    "1000 Mbit/s"));
	assert_float_equal(json_real_value(json_object_get(r, "nic_mbit")),
	    1000, 0);
	json_decref(r);
	/* One stream fills it; no known rate. */
	set.run[IPERF_SINGLE_UP].mbps = 90;
	r = verify_reading(&set, diag, 1, 100, -1);
	assert_string_equal(json_string_value(json_object_get(r, "verdict")),
	    "single_reaches");
	json_decref(r);
	r = verify_reading(&set, diag, 1, 0, -1);
	assert_string_equal(json_string_value(json_object_get(r, "verdict")),
	    "unknown");
	json_decref(r);
	json_decref(diag);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_diagnose),
		cmocka_unit_test(test_diagnose_paced),
		cmocka_unit_test(test_cell),
		cmocka_unit_test(test_reading),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
