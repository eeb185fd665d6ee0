/* iperf3 command lines and -J output (see iperf.h for where the figures
 * live). */
#include "remote/iperf.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/shquote.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

static const char *const kind_names[IPERF_NKINDS] = {
	"single_up", "single_down", "multi_up", "multi_down"
};
static const char *const kind_labels[IPERF_NKINDS] = {
	"single up", "single down", "multi up", "multi down"
};

const char *
iperf_kind_name(enum iperf_kind k)
{
	return (unsigned)k < IPERF_NKINDS ? kind_names[k] : "?";
}

const char *
iperf_kind_label(enum iperf_kind k)
{
	return (unsigned)k < IPERF_NKINDS ? kind_labels[k] : "?";
}

int
iperf_kind_from_name(const char *name)
{
	int k;

	for (k = 0; k < IPERF_NKINDS; k++) {
		if (strcmp(kind_names[k], name) == 0)
			return k;
	}
	return -1;
}

int
iperf_kind_reverse(enum iperf_kind k)
{
	return k == IPERF_SINGLE_DOWN || k == IPERF_MULTI_DOWN;
}

int
iperf_kind_multi(enum iperf_kind k)
{
	return k == IPERF_MULTI_UP || k == IPERF_MULTI_DOWN;
}

static void
add_int(struct strbuf *sb, long long v)
{
	char buf[32];

	snprintf(buf, sizeof buf, "%lld", v);
	shquote_add(sb, buf);
}

#define NEED_IPERF3 \
	"command -v iperf3 >/dev/null 2>&1 || " \
	"{ echo 'iperf3 is not installed' >&2; exit 127; }\n"

char *
iperf_client_command(const struct iperf_client_opts *o)
{
	struct strbuf sb;

	strbuf_init(&sb);
	strbuf_addstr(&sb, NEED_IPERF3);
	/* A client stuck on a dead path must not outlive its welcome: the
	 * SSH exec timeout alone does not kill a remote command (see
	 * transport.h). */
	strbuf_addstr(&sb, "t=\ncommand -v timeout >/dev/null 2>&1 && "
	    "t='timeout -s KILL '");
	add_int(&sb, (long long)o->duration + o->omit + 30);
	strbuf_addstr(&sb, "\nexec $t iperf3 -c ");
	shquote_add(&sb, o->address);
	strbuf_addstr(&sb, " -p ");
	add_int(&sb, o->port);
	strbuf_addstr(&sb, " -J -t ");
	add_int(&sb, o->duration);
	strbuf_addstr(&sb, " -O ");
	add_int(&sb, o->omit);
	if (o->parallel > 1) {
		strbuf_addstr(&sb, " -P ");
		add_int(&sb, o->parallel);
	}
	/* With -R the peer sends: its own figures (retransmits, RTT) come
	 * back only with --get-server-output. */
	if (o->reverse)
		strbuf_addstr(&sb, " -R --get-server-output");
	strbuf_addstr(&sb, " </dev/null\n");
	return strbuf_detach(&sb, NULL);
}

char *
iperf_server_command(int port)
{
	struct strbuf sb;

	strbuf_init(&sb);
	strbuf_addstr(&sb, NEED_IPERF3);
	strbuf_addstr(&sb, "p=");
	add_int(&sb, port);
	strbuf_addstr(&sb, "\nend=");
	add_int(&sb, (long long)port + IPERF_PORT_TRIES);
	strbuf_addstr(&sb,
	    "\nfirst=$p\nhave_ss=\n"
	    "command -v ss >/dev/null 2>&1 && have_ss=1\n"
	    "listening() {\n"
	    "\tss -ltn 2>/dev/null | awk -v p=\":$1\" 'NR > 1 &&\n"
	    "\t    substr($4, length($4) - length(p) + 1) == p { f = 1 }\n"
	    "\t    END { exit !f }'\n"
	    "}\n"
	    "while [ \"$p\" -lt \"$end\" ] && [ \"$p\" -le 65535 ]; do\n"
	    "\tif [ -z \"$have_ss\" ] || ! listening \"$p\"; then\n"
	    /* Every descriptor redirected: the SSH channel closes as soon
	     * as this script exits, while the server waits for its one
	     * client (-1). Its -J output goes to the client through
	     * --get-server-output, so nothing is kept here. */
	    "\t\tiperf3 -s -1 -J -p \"$p\" </dev/null >/dev/null 2>&1 &\n"
	    "\t\tpid=$!\n"
	    "\t\ti=0\n"
	    "\t\twhile [ \"$i\" -lt 30 ] && kill -0 \"$pid\" 2>/dev/null; do\n"
	    "\t\t\tif [ -n \"$have_ss\" ]; then\n"
	    "\t\t\t\tlistening \"$p\" && { echo \"$pid $p\"; exit 0; }\n"
	    "\t\t\telif [ \"$i\" -ge 5 ]; then\n"
	    "\t\t\t\techo \"$pid $p\"; exit 0\n"
	    "\t\t\tfi\n"
	    "\t\t\tsleep 0.1\n"
	    "\t\t\ti=$((i + 1))\n"
	    "\t\tdone\n"
	    "\t\tkill \"$pid\" 2>/dev/null\n"
	    "\tfi\n"
	    "\tp=$((p + 1))\n"
	    "done\n"
	    "echo \"no iperf3 server could listen on a port from $first to "
	    "$((p - 1))\" >&2\n"
	    "exit 1\n");
	return strbuf_detach(&sb, NULL);
}

int
iperf_server_parse(const char *out, long *pid, int *port, char **cause)
{
	long	p, q;
	char	*end;

	errno = 0;
	p = strtol(out, &end, 10);
	if (errno != 0 || end == out || *end != ' ' || p <= 1)
		goto bad;
	out = end + 1;
	q = strtol(out, &end, 10);
	if (errno != 0 || end == out || (*end != '\n' && *end != '\0') ||
	    q < 1 || q > 65535)
		goto bad;
	*pid = p;
	*port = (int)q;
	return 0;
bad:
	return fail(cause, "unexpected iperf3 server start output '%.80s'",
	    out);
}

char *
iperf_kill_command(long pid)
{
	struct strbuf	sb;
	char		buf[32];

	snprintf(buf, sizeof buf, "%ld", pid);
	strbuf_init(&sb);
	/* The pid must still be our iperf3: after a clean one-shot run the
	 * server is gone and the pid may be reused. */
	strbuf_addstr(&sb, "pid=");
	shquote_add(&sb, buf);
	strbuf_addstr(&sb, "\nif [ \"$(cat /proc/$pid/comm 2>/dev/null)\" = "
	    "iperf3 ]; then\n\tkill \"$pid\" 2>/dev/null\nfi\nexit 0\n");
	return strbuf_detach(&sb, NULL);
}

static double
num(const json_t *obj, const char *key, double def)
{
	const json_t *v = json_object_get(obj, key);

	return json_is_number(v) ? json_number_value(v) : def;
}

/* A count from iperf3's JSON: a whole number from 0 to max. 1 with *out
 * set, 0 when the key is absent (or not a number), -1 with *cause when the
 * number is no such count: a double out of range cast to an integer is
 * undefined behaviour, and a peer prints what it likes. */
static int
count(const json_t *obj, const char *where, const char *key, long long max,
    long long *out, char **cause)
{
	const json_t	*v = json_object_get(obj, key);
	double		 d;

	if (!json_is_number(v))
		return 0;
	d = json_number_value(v);
	if (!(d >= 0 && d <= (double)max && d == floor(d)))
		return fail(cause, "iperf3 output: %s.%s is %g, not a count "
		    "from 0 to %lld", where, key, d, max);
	*out = (long long)d;
	return 1;
}

/* The sender's RTT over the streams of an "end" object; 0 from iperf3
 * means "not measured here". */
static void
stream_rtts(const json_t *end, struct iperf_run *run)
{
	const json_t	*streams = json_object_get(end, "streams");
	const json_t	*s, *snd;
	double		 sum = 0, mn = -1, mx = -1, v;
	size_t		 i, n = 0;

	json_array_foreach(streams, i, s) {
		snd = json_object_get(s, "sender");
		if ((v = num(snd, "mean_rtt", 0)) <= 0)
			continue;
		sum += v;
		n++;
		if ((v = num(snd, "min_rtt", 0)) > 0 && (mn < 0 || v < mn))
			mn = v;
		if ((v = num(snd, "max_rtt", 0)) > 0 && v > mx)
			mx = v;
	}
	if (n == 0)
		return;
	run->rtt_mean_ms = sum / n / 1000.0;
	run->rtt_min_ms = mn >= 0 ? mn / 1000.0 : -1;
	run->rtt_max_ms = mx >= 0 ? mx / 1000.0 : -1;
}

static void
set_congestion(struct iperf_run *run, const json_t *end)
{
	const char *cc;

	cc = json_string_value(json_object_get(end, "sender_tcp_congestion"));
	if (cc != NULL)
		snprintf(run->congestion, sizeof run->congestion, "%s", cc);
}

int
iperf_parse(const char *text, size_t len, struct iperf_run *run,
    char **cause)
{
	json_t		*doc, *end, *srv, *srv_end, *sent, *recv, *ts;
	json_error_t	 jerr;
	const char	*err;
	long long	 c = 0;
	size_t		 streams;
	int		 rc = -1;

	memset(run, 0, sizeof *run);
	run->mbps = run->sent_mbps = run->seconds = -1;
	run->retransmits = -1;
	run->rtt_mean_ms = run->rtt_min_ms = run->rtt_max_ms = -1;
	if (len == 0)
		return fail(cause, "iperf3 printed nothing");
	if ((doc = json_loadb(text, len, 0, &jerr)) == NULL)
		return fail(cause, "iperf3 output is not JSON: %s (line %d)",
		    jerr.text, jerr.line);
	if ((err = json_string_value(json_object_get(doc, "error"))) !=
	    NULL) {
		fail(cause, "iperf3: %s", err);
		goto out;
	}
	end = json_object_get(doc, "end");
	sent = json_object_get(end, "sum_sent");
	recv = json_object_get(end, "sum_received");
	if (!json_is_object(sent) || !json_is_object(recv)) {
		fail(cause, "iperf3 output has no end.sum_sent/sum_received");
		goto out;
	}
	ts = json_object_get(json_object_get(doc, "start"), "test_start");
	if (count(ts, "start.test_start", "num_streams", IPERF_MAX_STREAMS,
	    &c, cause) < 0)
		goto out;
	run->streams = (int)c;
	if (run->streams <= 0) {
		streams = json_array_size(json_object_get(end, "streams"));
		run->streams = streams > IPERF_MAX_STREAMS ?
		    IPERF_MAX_STREAMS : (int)streams;
	}
	run->reverse = num(ts, "reverse", 0) != 0;
	run->mbps = num(recv, "bits_per_second", -1e6) / 1e6;
	run->sent_mbps = num(sent, "bits_per_second", -1e6) / 1e6;
	run->seconds = num(recv, "seconds", -1);
	if (count(sent, "end.sum_sent", "retransmits", IPERF_MAX_COUNT,
	    &run->retransmits, cause) < 0)
		goto out;

	/* With -R the server sent: its document has the sender's figures. */
	srv = json_object_get(doc, "server_output_json");
	srv_end = json_object_get(srv, "end");
	if (run->reverse && json_is_object(srv_end)) {
		const json_t *ssent = json_object_get(srv_end, "sum_sent");

		if (count(ssent, "server_output_json.end.sum_sent",
		    "retransmits", IPERF_MAX_COUNT, &run->retransmits,
		    cause) < 0)
			goto out;
		stream_rtts(srv_end, run);
		set_congestion(run, srv_end);
	} else if (!run->reverse) {
		stream_rtts(end, run);
		set_congestion(run, end);
	}
	if (run->mbps < 0) {
		fail(cause, "iperf3 output has no receiver bits_per_second");
		goto out;
	}
	rc = 0;
out:
	json_decref(doc);
	return rc;
}

json_t *
iperf_run_json(const struct iperf_run *r)
{
	json_t *j, *rtt;

	j = json_object();
	json_object_set_new(j, "mbps", json_real(r->mbps));
	if (r->sent_mbps >= 0)
		json_object_set_new(j, "sent_mbps", json_real(r->sent_mbps));
	if (r->seconds >= 0)
		json_object_set_new(j, "seconds", json_real(r->seconds));
	json_object_set_new(j, "retransmits", r->retransmits >= 0 ?
	    json_integer(r->retransmits) : json_null());
	if (r->rtt_mean_ms >= 0) {
		rtt = json_object();
		json_object_set_new(rtt, "mean", json_real(r->rtt_mean_ms));
		if (r->rtt_min_ms >= 0)
			json_object_set_new(rtt, "min",
			    json_real(r->rtt_min_ms));
		if (r->rtt_max_ms >= 0)
			json_object_set_new(rtt, "max",
			    json_real(r->rtt_max_ms));
		json_object_set_new(j, "rtt_ms", rtt);
	} else
		json_object_set_new(j, "rtt_ms", json_null());
	json_object_set_new(j, "streams", json_integer(r->streams));
	json_object_set_new(j, "reverse", json_boolean(r->reverse));
	json_object_set_new(j, "congestion", r->congestion[0] != '\0' ?
	    json_string(r->congestion) : json_null());
	return j;
}

int
iperf_run_from_json(const json_t *j, struct iperf_run *r)
{
	const json_t	*rtt = json_object_get(j, "rtt_ms");
	const json_t	*v;
	const char	*cc;
	long long	 c = 0;

	memset(r, 0, sizeof *r);
	if (!json_is_number(json_object_get(j, "mbps")))
		return -1;
	r->mbps = num(j, "mbps", -1);
	r->sent_mbps = num(j, "sent_mbps", -1);
	r->seconds = num(j, "seconds", -1);
	v = json_object_get(j, "retransmits");
	r->retransmits = json_is_integer(v) ? json_integer_value(v) : -1;
	r->rtt_mean_ms = num(rtt, "mean", -1);
	r->rtt_min_ms = num(rtt, "min", -1);
	r->rtt_max_ms = num(rtt, "max", -1);
	if (count(j, "memo", "streams", IPERF_MAX_STREAMS, &c, NULL) < 0)
		return -1;
	r->streams = (int)c;
	r->reverse = json_is_true(json_object_get(j, "reverse"));
	if ((cc = json_string_value(json_object_get(j, "congestion"))) !=
	    NULL)
		snprintf(r->congestion, sizeof r->congestion, "%s", cc);
	return 0;
}

json_t *
iperf_set_json(const struct iperf_set *s)
{
	json_t	*j = json_object();
	int	 k;

	for (k = 0; k < IPERF_NKINDS; k++) {
		if (s->have[k])
			json_object_set_new(j, kind_names[k],
			    iperf_run_json(&s->run[k]));
	}
	return j;
}

int
iperf_set_from_json(const json_t *j, struct iperf_set *s)
{
	int k;

	memset(s, 0, sizeof *s);
	if (!json_is_object(j))
		return -1;
	for (k = 0; k < IPERF_NKINDS; k++) {
		const json_t *v = json_object_get(j, kind_names[k]);

		if (v == NULL)
			continue;
		if (iperf_run_from_json(v, &s->run[k]) != 0)
			return -1;
		s->have[k] = 1;
	}
	return 0;
}
