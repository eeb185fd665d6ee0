/* TCP_INFO samples from ss -tinmH (lib/remote/iperf3.sh), read. */
#include "remote/tcpinfo.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

/* The integer fields kept, as ss names them. */
static const char *const int_fields[] = { "cwnd", "ssthresh", "mss", "pmtu",
	"snd_wnd", "rcv_space", "rcv_ssthresh", "bytes_acked",
	"bytes_received", "bytes_retrans", "data_segs_out", "lost", NULL };
/* Bare words that are not the congestion control's name. */
static const char *const not_cc[] = { "ts", "sack", "ecn", "ecnseen",
	"fastopen", "app_limited", "send", "pacing_rate", "delivery_rate",
	"orphaned", NULL };

static int
in_list(const char *const *list, const char *s)
{
	for (; *list != NULL; list++)
		if (strcmp(*list, s) == 0)
			return 1;
	return 0;
}

/* A whole number >= 0 at s, with *end after it; -1 if none. */
static long long
whole(const char *s, char **end)
{
	long long v;

	if (!isdigit((unsigned char)*s)) {
		*end = (char *)s;
		return -1;
	}
	v = strtoll(s, end, 10);
	return v < 0 ? -1 : v;
}

/* "52428800000bps", "1.2Mbps": bit/s, or -1. */
static double
rate(const char *s)
{
	char	*end;
	double	 v = strtod(s, &end);

	if (end == s || !isfinite(v) || v < 0)
		return -1;
	switch (*end) {
	case 'K': v *= 1e3; end++; break;
	case 'M': v *= 1e6; end++; break;
	case 'G': v *= 1e9; end++; break;
	default: break;
	}
	return strcmp(end, "bps") == 0 ? v : -1;
}

static void
set_int(json_t *o, const char *key, long long v)
{
	if (v >= 0)
		json_object_set_new(o, key, json_integer(v));
}

/* skmem:(r0,rb131072,t0,tb87040,...): rb and tb. */
static void
skmem(json_t *o, const char *v)
{
	const char	*p;
	char		*end;

	if ((p = strstr(v, ",rb")) != NULL)
		set_int(o, "rb", whole(p + 3, &end));
	if ((p = strstr(v, ",tb")) != NULL)
		set_int(o, "tb", whole(p + 3, &end));
}

/* One "key:value" token. */
static void
field(json_t *o, const char *key, const char *v)
{
	char	*end;
	double	 d;

	if (strcmp(key, "skmem") == 0) {
		skmem(o, v);
	} else if (strcmp(key, "rtt") == 0 || strcmp(key, "minrtt") == 0) {
		d = strtod(v, &end);
		if (end != v && isfinite(d) && d >= 0)
			json_object_set_new(o, strcmp(key, "rtt") == 0 ?
			    "rtt_ms" : "minrtt_ms", json_real(d));
	} else if (strcmp(key, "retrans") == 0) {
		/* current/total */
		if ((v = strchr(v, '/')) != NULL)
			set_int(o, "retrans", whole(v + 1, &end));
	} else if (strcmp(key, "busy") == 0 ||
	    strcmp(key, "rwnd_limited") == 0 ||
	    strcmp(key, "sndbuf_limited") == 0) {
		long long ms = whole(v, &end);

		if (ms >= 0 && strncmp(end, "ms", 2) == 0) {
			char *k = xprintf("%s_ms", key);

			set_int(o, k, ms);
			free(k);
		}
	} else if (in_list(int_fields, key)) {
		long long n = whole(v, &end);

		if (*end == '\0')
			set_int(o, key, n);
	}
}

static void
info_line(json_t *o, char *line)
{
	char	*tok, *save = NULL, *colon;
	double	 r;
	int	 want_rate = 0;
	const char *rate_key = NULL;

	for (tok = strtok_r(line, " \t", &save); tok != NULL;
	    tok = strtok_r(NULL, " \t", &save)) {
		if (want_rate) {
			if ((r = rate(tok)) >= 0 && rate_key != NULL)
				json_object_set_new(o, rate_key,
				    json_real(r));
			want_rate = 0;
			continue;
		}
		if (strcmp(tok, "delivery_rate") == 0 ||
		    strcmp(tok, "pacing_rate") == 0) {
			want_rate = 1;
			rate_key = strcmp(tok, "delivery_rate") == 0 ?
			    "delivery_bps" : "pacing_bps";
			continue;
		}
		if (strcmp(tok, "send") == 0) {
			want_rate = 1;
			rate_key = NULL;
			continue;
		}
		if (strcmp(tok, "app_limited") == 0) {
			json_object_set_new(o, "app_limited", json_true());
			continue;
		}
		if ((colon = strchr(tok, ':')) != NULL) {
			*colon = '\0';
			field(o, tok, colon + 1);
			continue;
		}
		if (json_object_get(o, "cc") == NULL && !in_list(not_cc, tok) &&
		    strlen(tok) < 16 && strspn(tok,
		    "abcdefghijklmnopqrstuvwxyz0123456789_") == strlen(tok))
			json_object_set_new(o, "cc", json_string(tok));
	}
}

/* "Recv-Q Send-Q LOCAL PEER": a new socket. */
static json_t *
address_line(char *line)
{
	char	*tok[5], *save = NULL;
	int	 n = 0;

	for (tok[n] = strtok_r(line, " \t", &save); tok[n] != NULL && n < 4;
	    tok[n] = strtok_r(NULL, " \t", &save))
		n++;
	if (n != 4)
		return NULL;
	return json_pack("{s:s, s:s}", "local", tok[2], "peer", tok[3]);
}

/* "@sysctl KEY=VALUE" into obj[KEY]. */
static void
key_value(json_t *obj, const char *kv)
{
	const char *eq = strchr(kv, '=');

	char *k;

	if (eq == NULL || eq == kv)
		return;
	k = xstrndup(kv, (size_t)(eq - kv));
	json_object_set_new(obj, k, json_string(eq + 1));
	free(k);
}

json_t *
tcpinfo_parse(const char *text)
{
	json_t	*j = NULL, *socks, *sock = NULL;
	char	*copy, *line, *save = NULL, *end;
	long long n;

	if (text == NULL)
		return NULL;
	copy = xstrdup(text);
	socks = json_array();
	for (line = strtok_r(copy, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "@samples ", 9) == 0) {
			n = whole(line + 9, &end);
			if (j == NULL && n >= 0)
				j = json_pack("{s:I, s:{}, s:{}}", "samples",
				    (json_int_t)n, "sysctl", "dropin");
		} else if (j == NULL) {
			continue;
		} else if (strncmp(line, "@sysctl ", 8) == 0) {
			key_value(json_object_get(j, "sysctl"), line + 8);
		} else if (strncmp(line, "@dropin ", 8) == 0) {
			key_value(json_object_get(j, "dropin"), line + 8);
		} else if (line[0] == '\t') {
			if (sock != NULL)
				info_line(sock, line);
		} else if ((sock = address_line(line)) != NULL) {
			json_array_append_new(socks, sock);
		}
	}
	free(copy);
	if (j == NULL) {
		json_decref(socks);
		return NULL;
	}
	json_object_set_new(j, "sockets", socks);
	return j;
}

static long long
get(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_integer(v) ? (long long)json_integer_value(v) : -1;
}

static void
sum(long long *to, long long v)
{
	if (v < 0)
		return;
	*to = *to < 0 ? v : *to + v;
}

static void
most(long long *to, long long v)
{
	if (v > *to)
		*to = v;
}

int
tcpinfo_flow(const json_t *end, int sender, struct tcpinfo_flow *f)
{
	const char	*by = sender ? "bytes_acked" : "bytes_received";
	const json_t	*socks = json_object_get(end, "sockets"), *s;
	const char	*cc;
	long long	 top = 0, b;
	double		 rtt = 0;
	size_t		 i;
	int		 nrtt = 0;

	memset(f, 0, sizeof *f);
	f->busy_ms = f->rwnd_limited_ms = f->sndbuf_limited_ms = -1;
	f->retrans = f->data_segs_out = -1;
	f->cwnd = f->mss = f->snd_wnd = f->rcv_space = f->rb = f->tb = -1;
	f->rcv_ssthresh = -1;
	f->rtt_ms = -1;
	json_array_foreach(socks, i, s)
		most(&top, get(s, by));
	if (top <= 0)
		return -1;
	json_array_foreach(socks, i, s) {
		if ((b = get(s, by)) < top / 10)
			continue;
		f->sockets++;
		f->bytes += b;
		sum(&f->busy_ms, get(s, "busy_ms"));
		sum(&f->rwnd_limited_ms, get(s, "rwnd_limited_ms"));
		sum(&f->sndbuf_limited_ms, get(s, "sndbuf_limited_ms"));
		sum(&f->retrans, get(s, "retrans"));
		sum(&f->data_segs_out, get(s, "data_segs_out"));
		most(&f->cwnd, get(s, "cwnd"));
		most(&f->mss, get(s, "mss"));
		most(&f->snd_wnd, get(s, "snd_wnd"));
		most(&f->rcv_space, get(s, "rcv_space"));
		most(&f->rcv_ssthresh, get(s, "rcv_ssthresh"));
		most(&f->rb, get(s, "rb"));
		most(&f->tb, get(s, "tb"));
		if (json_is_number(json_object_get(s, "rtt_ms"))) {
			rtt += json_number_value(json_object_get(s, "rtt_ms"));
			nrtt++;
		}
		if (f->cc[0] == '\0' && (cc = json_string_value(
		    json_object_get(s, "cc"))) != NULL)
			snprintf(f->cc, sizeof f->cc, "%s", cc);
	}
	if (nrtt > 0)
		f->rtt_ms = rtt / nrtt;
	/* With a busy time, a limit the kernel did not print was 0 ms. */
	if (f->busy_ms >= 0) {
		if (f->rwnd_limited_ms < 0)
			f->rwnd_limited_ms = 0;
		if (f->sndbuf_limited_ms < 0)
			f->sndbuf_limited_ms = 0;
	}
	if (f->retrans < 0 && f->data_segs_out >= 0)
		f->retrans = 0;
	return 0;
}
