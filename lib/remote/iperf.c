/* iperf3 command lines (lib/remote/iperf3.sh) and -J output (see iperf.h
 * for where the figures live). */
#include "remote/iperf.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "remote/embedded.h"
#include "remote/remote-cmd.h"
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

enum iperf_kind
iperf_kind_mirror(enum iperf_kind k)
{
	static const enum iperf_kind other[IPERF_NKINDS] = {
		IPERF_SINGLE_DOWN, IPERF_SINGLE_UP, IPERF_MULTI_DOWN,
		IPERF_MULTI_UP };

	return other[k];
}

void
iperf_set_mirror(struct iperf_set *s)
{
	struct iperf_set	t = *s;
	int			k;

	for (k = 0; k < IPERF_NKINDS; k++) {
		s->have[k] = t.have[iperf_kind_mirror(k)];
		s->run[k] = t.run[iperf_kind_mirror(k)];
	}
}

/* The inputs of lib/remote/iperf3.sh as text; those an action does not
 * use stay empty (every input is always given, see the prelude). */
struct iperf3_inputs {
	const char	*action;
	const char	*address;
	const char	*reverse;
	const char	*sample;
	const char	*dropin;
	const char	*info;
	char		 pings[32];
	char		 port[32];
	char		 tries[32];
	char		 duration[32];
	char		 omit[32];
	char		 parallel[32];
	char		 limit[32];
	char		 pid[32];
};

static void
iperf3_call(const struct iperf3_inputs *in, struct remote_call *call)
{
	remote_call(call, "iperf3", embedded_iperf3_sh,
	    (const struct remote_var[]){
		{ "ACTION", in->action },
		{ "PORT", in->port },
		{ "TRIES", in->tries },
		{ "ADDRESS", in->address },
		{ "DURATION", in->duration },
		{ "OMIT", in->omit },
		{ "PARALLEL", in->parallel },
		{ "REVERSE", in->reverse },
		{ "LIMIT", in->limit },
		{ "PID", in->pid },
		{ "SAMPLE", in->sample },
		{ "DROPIN", in->dropin },
		{ "INFO", in->info },
		{ "PINGS", in->pings },
		{ NULL, NULL } });
}

#define NUM(field, v) snprintf((field), sizeof (field), "%lld", (long long)(v))

void
iperf_client_call(const struct iperf_client_opts *o, struct remote_call *call)
{
	struct iperf3_inputs in = { .action = "client" };

	in.address = o->address;
	in.reverse = o->reverse ? "1" : "";
	in.sample = o->sample ? "1" : "";
	in.dropin = o->dropin;
	NUM(in.port, o->port);
	NUM(in.duration, o->duration);
	NUM(in.omit, o->omit);
	NUM(in.parallel, o->parallel);
	NUM(in.limit, (long long)o->duration + o->omit + 30);
	iperf3_call(&in, call);
}

void
iperf_server_call(int port, int sample, const char *dropin,
    struct remote_call *call)
{
	struct iperf3_inputs in = { .action = "server" };

	in.sample = sample ? "1" : "";
	in.dropin = dropin;
	NUM(in.port, port);
	NUM(in.tries, IPERF_PORT_TRIES);
	iperf3_call(&in, call);
}

int
iperf_server_parse(const char *out, long *pid, int *port, char **info,
    char **cause)
{
	const char	*f;
	long		 p, q;
	char		*end;

	if (info != NULL)
		*info = NULL;
	errno = 0;
	p = strtol(out, &end, 10);
	if (errno != 0 || end == out || *end != ' ' || p <= 1)
		goto bad;
	out = end + 1;
	q = strtol(out, &end, 10);
	if (errno != 0 || end == out || q < 1 || q > 65535)
		goto bad;
	if (*end == ' ') {
		/* The sampler's file: a path iperf3.sh's stop checks again. */
		f = end + 1;
		end = (char *)f + strcspn(f, " \n");
		if (*f != '/' || end == f || (*end != '\n' && *end != '\0'))
			goto bad;
		if (info != NULL)
			*info = xstrndup(f, (size_t)(end - f));
	} else if (*end != '\n' && *end != '\0')
		goto bad;
	*pid = p;
	*port = (int)q;
	return 0;
bad:
	return fail(cause, "unexpected iperf3 server start output '%.80s'",
	    out);
}

void
iperf_path_call(const char *address, int pings, struct remote_call *call)
{
	struct iperf3_inputs in = { .action = "path" };

	in.address = address;
	NUM(in.pings, pings);
	iperf3_call(&in, call);
}

void
iperf_kill_call(long pid, const char *info, struct remote_call *call)
{
	struct iperf3_inputs in = { .action = "stop" };

	in.info = info;
	NUM(in.pid, pid);
	iperf3_call(&in, call);
}

size_t
iperf_client_split(const char *out, size_t len, const char **info)
{
	static const char mark[] = "\n@tcp_info\n";
	const char	*p = out, *end = out + len;

	*info = NULL;
	/* The last mark: iperf3's document holds no such line, but a peer
	 * could print one. */
	while (p < end && (p = memmem(p, (size_t)(end - p), mark,
	    sizeof mark - 1)) != NULL) {
		*info = p + sizeof mark - 1;
		len = (size_t)(p - out) + 1;
		p += sizeof mark - 1;
	}
	return len;
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

/* start.tcp_mss_default of a document when it is a plausible MSS, else
 * def. */
static int
mss_of(const json_t *doc, int def)
{
	double v = num(json_object_get(doc, "start"), "tcp_mss_default", -1);

	return v > 0 && v < 65536 ? (int)v : def;
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
	run->mss = -1;
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
	run->mss = mss_of(doc, -1);
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
		run->mss = mss_of(srv, run->mss);
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
	json_object_set_new(j, "mss", r->mss > 0 ? json_integer(r->mss) :
	    json_null());
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
	v = json_object_get(j, "mss");
	r->mss = json_is_integer(v) && json_integer_value(v) > 0 &&
	    json_integer_value(v) < 65536 ? (int)json_integer_value(v) : -1;
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
