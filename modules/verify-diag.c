/* The diagnosis of one measured flow: which end and which limit held it. */
#include "modules/verify-diag.h"

#include <stdio.h>
#include <string.h>

#include "base/strbuf.h"
#include "modules/verify-table.h"
#include "remote/tcpinfo.h"
#include "tune/sizing.h"

/* The key of each limit and the module of tcptune that sets it. */
struct limit_key {
	const char	*limit;
	const char	*key;
	const char	*module;
	int		 sender;	/* the sender's key (else receiver's) */
};

static const struct limit_key limit_keys[] = {
	{ "receive_window", "net.ipv4.tcp_rmem", "tcp_buffers", 0 },
	{ "send_buffer", "net.ipv4.tcp_wmem", "tcp_buffers", 1 },
	{ "congestion", "net.ipv4.tcp_congestion_control", "congestion", 1 },
	{ NULL, NULL, NULL, 0 },
};

static double
share(long long part, long long whole)
{
	return whole > 0 && part >= 0 ? (double)part / (double)whole : 0;
}

static void
evidence_int(json_t *e, const char *key, long long v)
{
	if (v >= 0)
		json_object_set_new(e, key, json_integer(v));
}

/* The third figure of a host's net.ipv4.tcp_rmem in its samples' sysctls
 * (the most its receive buffer autotunes to), or -1. */
static long long
rmem_max(const json_t *info)
{
	const char		*v = json_string_value(json_object_get(
	    json_object_get(info, "sysctl"), "net.ipv4.tcp_rmem"));
	struct tcp_triple	 t;

	if (v == NULL || tcp_triple_parse(v, &t) != 0)
		return -1;
	return (long long)t.max;
}

/* The figures behind the verdict, from both ends. */
static json_t *
evidence(const struct verify_diag_in *in, const struct tcpinfo_flow *s,
    int have_s, const struct tcpinfo_flow *r, int have_r, double loss)
{
	json_t *e = json_object();

	json_object_set_new(e, "mbps", json_real(in->run->mbps));
	if (in->path_mbit > 0)
		json_object_set_new(e, "path_mbit", json_real(in->path_mbit));
	if (loss >= 0)
		json_object_set_new(e, "loss_rate", json_real(loss));
	json_object_set_new(e, "sender_samples", json_integer(json_integer_value(
	    json_object_get(in->sender_info, "samples"))));
	json_object_set_new(e, "receiver_samples", json_integer(
	    json_integer_value(json_object_get(in->receiver_info, "samples"))));
	if (have_s) {
		evidence_int(e, "busy_ms", s->busy_ms);
		evidence_int(e, "rwnd_limited_ms", s->rwnd_limited_ms);
		evidence_int(e, "sndbuf_limited_ms", s->sndbuf_limited_ms);
		evidence_int(e, "cwnd", s->cwnd);
		evidence_int(e, "mss", s->mss);
		evidence_int(e, "snd_wnd", s->snd_wnd);
		evidence_int(e, "sender_sndbuf", s->tb);
		evidence_int(e, "retrans", s->retrans);
		evidence_int(e, "data_segs_out", s->data_segs_out);
		if (s->rtt_ms >= 0)
			json_object_set_new(e, "rtt_ms", json_real(s->rtt_ms));
		if (s->cc[0] != '\0')
			json_object_set_new(e, "cc", json_string(s->cc));
		json_object_set_new(e, "sockets", json_integer(s->sockets));
	}
	if (have_r) {
		evidence_int(e, "receiver_rcv_space", r->rcv_space);
		evidence_int(e, "receiver_rcvbuf", r->rb);
		evidence_int(e, "receiver_rcv_ssthresh", r->rcv_ssthresh);
		evidence_int(e, "receiver_rmem_max", rmem_max(in->receiver_info));
	}
	return e;
}

/* The host, key, live value, module and drop-in value of a limit. */
static void
name_setting(json_t *d, const struct verify_diag_in *in, const char *limit)
{
	const struct limit_key	*k;
	const json_t		*info;
	const char		*host;

	for (k = limit_keys; k->limit != NULL; k++)
		if (strcmp(k->limit, limit) == 0)
			break;
	if (k->limit == NULL) {
		json_object_set_new(d, "host", json_null());
		json_object_set_new(d, "key", json_null());
		return;
	}
	host = k->sender ? in->sender : in->receiver;
	info = k->sender ? in->sender_info : in->receiver_info;
	json_object_set_new(d, "host", json_string(host));
	json_object_set_new(d, "key", json_string(k->key));
	json_object_set(d, "value", json_object_get(json_object_get(info,
	    "sysctl"), k->key) != NULL ? json_object_get(json_object_get(info,
	    "sysctl"), k->key) : json_null());
	json_object_set_new(d, "module", json_string(k->module));
	json_object_set(d, "dropin", json_object_get(json_object_get(info,
	    "dropin"), k->key) != NULL ? json_object_get(json_object_get(info,
	    "dropin"), k->key) : json_null());
}

/* "; tcp_buffers sets it: lab02's drop-in has 4096 131072 16777216" or
 * "; tcp_buffers sets it, lab02's drop-in does not yet". */
static void
add_plan(struct strbuf *sb, const json_t *d)
{
	const char *host = json_string_value(json_object_get(d, "host"));
	const char *key = json_string_value(json_object_get(d, "key"));
	const char *value = json_string_value(json_object_get(d, "value"));
	const char *dropin = json_string_value(json_object_get(d, "dropin"));

	if (host == NULL || key == NULL)
		return;
	strbuf_addf(sb, "; %s's %s is %s", host, key, value != NULL ? value :
	    "unknown");
	if (dropin != NULL)
		strbuf_addf(sb, ", tcptune's drop-in there sets %s (module %s)",
		    dropin, json_string_value(json_object_get(d, "module")));
	else
		strbuf_addf(sb, ", which tcptune's drop-in there does not set "
		    "(module %s sets it)", json_string_value(json_object_get(d,
		    "module")));
}

double
goodput_share(long long mss)
{
	double m = mss > 0 ? (double)mss : VERIFY_DEFAULT_MSS;

	return m / (m + DIAG_HEADERS);
}

/* A paced sender (bbr) sends at the rate it measured and rarely runs into
 * the peer's window, so the kernel's rwnd_limited stays small even when
 * the window is what holds the flow: on 6.1 guests, a stock receiver's
 * 1.93 MB window over 400 ms gave 36.2 Mbit/s (1.81 MB in flight), cwnd
 * open, rwnd_limited 19%. The window held it when each stream kept most of
 * the receiver's largest window in flight (but not more than it, or the
 * samples are not of one flow), its cwnd was open, and the receiver's
 * buffer had grown to its tcp_rmem ceiling: it could not advertise more.
 * Sets *window to that window. */
static int
receiver_window_full(const struct verify_diag_in *in,
    const struct tcpinfo_flow *s, const struct tcpinfo_flow *r, int have_r,
    double flight, long long *window)
{
	long long	 w = -1, ceiling = rmem_max(in->receiver_info);
	double		 per;

	if (!have_r || flight <= 0 || s->cwnd <= 0 || s->mss <= 0 ||
	    r->rb <= 0 || ceiling <= 0 ||
	    (double)r->rb < DIAG_BUFFER_CEILING * (double)ceiling)
		return 0;
	if (r->rcv_ssthresh > 0)
		w = r->rcv_ssthresh;
	if (s->snd_wnd > 0 && (w < 0 || s->snd_wnd < w))
		w = s->snd_wnd;
	if (w <= 0)
		return 0;
	per = flight / (s->sockets > 0 ? s->sockets : 1);
	*window = w;
	return per >= DIAG_WINDOW_FULL * (double)w &&
	    per <= DIAG_WINDOW_SLACK * (double)w &&
	    (double)s->cwnd * (double)s->mss >= DIAG_WINDOW_SLACK * per;
}

json_t *
verify_diagnose(const struct verify_diag_in *in)
{
	struct tcpinfo_flow	 s, r;
	struct strbuf		 why;
	const char		*limit;
	double			 loss = -1, rwnd, sndbuf, busy, flight = -1;
	double			 payload;
	int			 have_s, have_r, window_open = 0;
	long long		 window = -1;
	json_t			*d;

	strbuf_init(&why);
	have_s = tcpinfo_flow(in->sender_info, 1, &s) == 0;
	have_r = tcpinfo_flow(in->receiver_info, 0, &r) == 0;
	if (have_s && s.retrans >= 0 && s.data_segs_out > 0)
		loss = share(s.retrans, s.data_segs_out);
	else
		loss = verify_retransmit_rate(in->run);
	rwnd = have_s ? share(s.rwnd_limited_ms, s.busy_ms) : 0;
	sndbuf = have_s ? share(s.sndbuf_limited_ms, s.busy_ms) : 0;
	busy = have_s && in->run->seconds > 0 ? share(s.busy_ms,
	    (long long)(in->run->seconds * 1000)) : 0;
	/* What the flow kept in flight: rate x RTT. Neither cwnd nor the
	 * peer's window held it when both were well above that. */
	if (have_s && s.rtt_ms > 0 && in->run->mbps > 0) {
		flight = in->run->mbps * 1e6 / 8 * s.rtt_ms / 1000;
		window_open = s.cwnd > 0 && s.mss > 0 &&
		    (double)s.cwnd * (double)s.mss >= DIAG_WINDOW_SLACK *
		    flight && (s.snd_wnd < 0 || (double)s.snd_wnd >=
		    DIAG_WINDOW_SLACK * flight);
	}

	payload = in->path_mbit * goodput_share(have_s ? s.mss : -1);
	if (in->path_mbit > 0 && in->run->mbps >= DIAG_LINK_SHARE * payload) {
		limit = "link_rate";
		strbuf_addf(&why, "%.1f Mbit/s is %.0f%% of the %.1f Mbit/s of "
		    "payload the path's %g Mbit/s carries: the path is full, "
		    "nothing to fix", in->run->mbps, 100 * in->run->mbps /
		    payload, payload, in->path_mbit);
	} else if (in->sender_info == NULL) {
		limit = "unknown";
		strbuf_addf(&why, "no TCP_INFO from the sender %s (no ss "
		    "there?)", in->sender);
	} else if (!have_s) {
		limit = "unknown";
		strbuf_addf(&why, "no sample of the sender %s found the "
		    "test's socket", in->sender);
	} else if (s.busy_ms < 0) {
		limit = "unknown";
		strbuf_addf(&why, "the sender %s's kernel reports no busy, "
		    "rwnd_limited or sndbuf_limited time (before 4.10)",
		    in->sender);
	} else if (rwnd >= DIAG_LIMIT_SHARE && rwnd >= sndbuf) {
		limit = "receive_window";
		strbuf_addf(&why, "%s waited on %s's receive window %.0f%% of "
		    "its busy time (advertised window %lld bytes", in->sender,
		    in->receiver, 100 * rwnd, s.snd_wnd);
		if (have_r && r.rb >= 0)
			strbuf_addf(&why, ", receive buffer %lld", r.rb);
		strbuf_addch(&why, ')');
	} else if (sndbuf >= DIAG_LIMIT_SHARE) {
		limit = "send_buffer";
		strbuf_addf(&why, "%s waited on its own send buffer %.0f%% of "
		    "its busy time (send buffer %lld bytes)", in->sender,
		    100 * sndbuf, s.tb);
	} else if (receiver_window_full(in, &s, &r, have_r, flight, &window)) {
		limit = "receive_window";
		strbuf_addf(&why, "%s kept %.0f bytes in flight with a cwnd of "
		    "%lld bytes open, and %s's window was full: at most %lld "
		    "bytes advertised, its receive buffer at its ceiling (%lld "
		    "bytes; the kernel counted rwnd_limited %.0f%% of the busy "
		    "time: a paced sender seldom reaches the window)",
		    in->sender, flight, s.cwnd * s.mss, in->receiver, window,
		    r.rb, 100 * rwnd);
	} else if (window_open && s.tb > 0 && (double)s.tb <= 2 * flight) {
		limit = "send_buffer";
		strbuf_addf(&why, "%s kept %.0f bytes in flight with a cwnd of "
		    "%lld bytes and the receiver's window of %lld open: its "
		    "send buffer of %lld bytes held it (the kernel counted "
		    "sndbuf_limited %.0f%% of its busy time)", in->sender,
		    flight, s.cwnd * s.mss, s.snd_wnd, s.tb, 100 * sndbuf);
	} else if (loss >= DIAG_LOSS) {
		limit = "congestion";
		strbuf_addf(&why, "the congestion window held %s %.0f%% of "
		    "its busy time, with loss: %.2f%% of segments "
		    "retransmitted (%s)", in->sender, 100 * (1 - rwnd - sndbuf),
		    100 * loss, s.cc[0] != '\0' ? s.cc : "?");
	} else if (busy < DIAG_BUSY_SHARE) {
		limit = "application";
		strbuf_addf(&why, "%s had data to send only %.0f%% of the "
		    "run: neither window nor cwnd was the limit", in->sender,
		    100 * busy);
	} else {
		limit = "unknown";
		if (in->path_mbit > 0)
			strbuf_addf(&why, "cwnd-limited without loss at %.1f "
			    "Mbit/s, below %.0f%% of the path's %.1f Mbit/s "
			    "of payload", in->run->mbps, 100 * DIAG_LINK_SHARE,
			    payload);
		else
			strbuf_addf(&why, "cwnd-limited without loss, and the "
			    "path's rate is not known (set bandwidth_mbit)");
	}
	d = json_pack("{s:s}", "limit", limit);
	name_setting(d, in, limit);
	add_plan(&why, d);
	json_object_set_new(d, "detail", json_string(why.buf));
	json_object_set_new(d, "evidence", evidence(in, &s, have_s, &r,
	    have_r, loss));
	strbuf_release(&why);
	return d;
}

/* "receive_window: lab02's net.ipv4.tcp_rmem" of a diagnosis. */
static void
add_setting(struct strbuf *sb, const json_t *d)
{
	const char *host = json_string_value(json_object_get(d, "host"));
	const char *key = json_string_value(json_object_get(d, "key"));

	strbuf_addstr(sb, json_string_value(json_object_get(d, "limit")) !=
	    NULL ? json_string_value(json_object_get(d, "limit")) : "unknown");
	if (host != NULL && key != NULL)
		strbuf_addf(sb, ": %s's %s", host, key);
}

static int
window_limit(const json_t *d)
{
	const char *l = json_string_value(json_object_get(d, "limit"));

	return l != NULL && (strcmp(l, "receive_window") == 0 ||
	    strcmp(l, "send_buffer") == 0);
}

json_t *
verify_reading(const struct iperf_set *set, const json_t *diagnosis, int up,
    double path_mbit, double nic_mbit)
{
	enum iperf_kind	 ks = up ? IPERF_SINGLE_UP : IPERF_SINGLE_DOWN;
	enum iperf_kind	 km = up ? IPERF_MULTI_UP : IPERF_MULTI_DOWN;
	const json_t	*ds = json_object_get(diagnosis, iperf_kind_name(ks));
	const json_t	*dm = json_object_get(diagnosis, iperf_kind_name(km));
	const char	*verdict;
	struct strbuf	 sb;
	double		 single, multi, payload;
	int		 sr, mr;
	json_t		*j;

	if (!set->have[ks] || !set->have[km])
		return NULL;
	single = set->run[ks].mbps;
	multi = set->run[km].mbps;
	payload = path_mbit * goodput_share(set->run[ks].mss);
	strbuf_init(&sb);
	sr = path_mbit > 0 && single >= DIAG_LINK_SHARE * payload;
	mr = path_mbit > 0 && multi >= DIAG_MANY_SHARE * payload;
	if (path_mbit <= 0) {
		verdict = "unknown";
		strbuf_addf(&sb, "single %.1f, %d streams %.1f Mbit/s; the "
		    "path's rate is not known (set bandwidth_mbit)", single,
		    set->run[km].streams, multi);
	} else if (sr) {
		verdict = "single_reaches";
		strbuf_addf(&sb, "one stream reaches the path: %.1f of %.1f "
		    "Mbit/s of payload", single, payload);
	} else if (mr || window_limit(dm)) {
		verdict = "per_flow_limit";
		strbuf_addf(&sb, "per-flow limit: TCP settings: %d streams "
		    "%s (%.1f Mbit/s) and one does not (%.1f of %.1f); the "
		    "single stream's limit is ", set->run[km].streams, mr ?
		    "reach the path" : "were each held by a window", multi,
		    single, payload);
		add_setting(&sb, ds);
	} else {
		verdict = "path_or_nic";
		strbuf_addf(&sb, "the path or the NIC, not TCP settings: %d "
		    "streams got %.1f and one %.1f of the path's %.1f Mbit/s "
		    "of payload; ", set->run[km].streams, multi, single,
		    payload);
		if (nic_mbit > 0)
			strbuf_addf(&sb, "the NIC reports %g Mbit/s", nic_mbit);
		else
			strbuf_addstr(&sb, "the NIC reports no speed");
	}
	j = json_pack("{s:s, s:s, s:f, s:f, s:f, s:f}", "verdict", verdict,
	    "text", sb.buf, "single_mbps", single, "multi_mbps", multi,
	    "path_mbit", path_mbit, "payload_mbit", payload);
	json_object_set_new(j, "nic_mbit", nic_mbit > 0 ? json_real(nic_mbit) :
	    json_null());
	strbuf_release(&sb);
	return j;
}
