/* The path checks (lib/remote/iperf3.sh's path action), read. */
#include "remote/pathcheck.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/xalloc.h"

/* A whole number >= 0 of the word at s (up to a blank or the end), or -1. */
static long long
word_count(const char *s)
{
	char		*end;
	long long	 v;

	if (!isdigit((unsigned char)*s))
		return -1;
	v = strtoll(s, &end, 10);
	if (v < 0 || (*end != '\0' && *end != ' '))
		return -1;
	return v;
}

/* The word after the n-th blank of line (0: the first word), copied. */
static char *
word(const char *line, int n)
{
	const char *p = line, *e;

	while (n-- > 0) {
		if ((p = strchr(p, ' ')) == NULL)
			return NULL;
		p++;
	}
	e = p + strcspn(p, " ");
	return e > p ? xstrndup(p, (size_t)(e - p)) : NULL;
}

static long long
word_num(const char *line, int n)
{
	char		*w = word(line, n);
	long long	 v = w != NULL ? word_count(w) : -1;

	free(w);
	return v;
}

static void
set_count(json_t *o, const char *key, long long v)
{
	if (v >= 0)
		json_object_set_new(o, key, json_integer(v));
}

/* One "@pmtu SIZE RESULT" line into probes. */
static void
pmtu_line(json_t *probes, const char *line)
{
	long long	 size = word_num(line, 1);
	char		*r = word(line, 2);
	json_t		*p;

	if (size > 0 && r != NULL && (strcmp(r, "ok") == 0 ||
	    strcmp(r, "lost") == 0 || strncmp(r, "local=", 6) == 0)) {
		p = json_pack("{s:I, s:s}", "size", (json_int_t)size, "result",
		    strncmp(r, "local=", 6) == 0 ? "local" : r);
		if (strncmp(r, "local=", 6) == 0)
			set_count(p, "local_mtu", word_count(r + 6));
		json_array_append_new(probes, p);
	}
	free(r);
}

json_t *
pathcheck_parse(const char *text)
{
	json_t		*o, *probes;
	const char	*p, *nl;
	char		*line, *dev, *src;
	long long	 a, b;

	if (text == NULL)
		return NULL;
	o = json_object();
	probes = json_array();
	for (p = text; *p != '\0'; p = *nl != '\0' ? nl + 1 : nl) {
		nl = p + strcspn(p, "\n");
		line = xstrndup(p, (size_t)(nl - p));
		if (strncmp(line, "@route ", 7) == 0) {
			dev = word(line, 1);
			src = word(line, 2);
			if (dev != NULL)
				json_object_set_new(o, "interface",
				    json_string(dev));
			if (src != NULL && strcmp(src, "-") != 0)
				json_object_set_new(o, "source",
				    json_string(src));
			free(dev);
			free(src);
		} else if (strncmp(line, "@mtu ", 5) == 0)
			set_count(o, "mtu", word_num(line, 1));
		else if (strncmp(line, "@drops ", 7) == 0) {
			set_count(o, "rx_dropped", word_num(line, 1));
			set_count(o, "tx_dropped", word_num(line, 2));
		} else if (strncmp(line, "@ping ", 6) == 0) {
			a = word_num(line, 1);
			b = word_num(line, 2);
			if (a > 0 && b >= 0 && b <= a)
				json_object_set_new(o, "pings", json_pack(
				    "{s:I, s:I}", "sent", (json_int_t)a,
				    "received", (json_int_t)b));
		} else if (strncmp(line, "@pmtu ", 6) == 0)
			pmtu_line(probes, line);
		free(line);
	}
	if (json_array_size(probes) > 0)
		json_object_set(o, "pmtu", probes);
	json_decref(probes);
	return o;
}

static json_t *
verdict(const char *state, long long mtu, char *detail)
{
	json_t *v = json_pack("{s:s, s:o, s:s}", "state", state, "path_mtu",
	    mtu > 0 ? json_integer(mtu) : json_null(), "detail", detail);

	free(detail);
	return v;
}

static long long
num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_integer(v) ? (long long)json_integer_value(v) : -1;
}

json_t *
pathcheck_mtu(const json_t *check)
{
	const json_t	*probes = json_object_get(check, "pmtu"), *first, *it;
	const char	*r;
	long long	 size, ifmtu = num(check, "mtu");
	size_t		 i;

	if (check == NULL)
		return verdict("unknown", -1, xstrdup("not checked"));
	if (ifmtu < 0)
		return verdict("unknown", -1, xstrdup("the route's interface "
		    "and its MTU are unknown"));
	if ((first = json_array_get(probes, 0)) == NULL) {
		const json_t *pings = json_object_get(check, "pings");

		return verdict("unknown", -1, xstrdup(pings != NULL &&
		    num(pings, "received") == 0 ? "no ping was answered: "
		    "ICMP does not pass, the MTU cannot be told" :
		    "not checked (no ping)"));
	}
	r = json_string_value(json_object_get(first, "result"));
	size = num(first, "size");
	if (strcmp(r, "ok") == 0)
		return verdict("ok", size, xprintf("%lld-byte packets with DF "
		    "pass (the interface's MTU)", size));
	if (strcmp(r, "local") == 0)
		return verdict("frag_needed", num(first, "local_mtu"), xprintf(
		    "this host knows the path's MTU is %lld, below the "
		    "interface's %lld (an ICMP \"fragmentation needed\" came "
		    "back): not a blackhole", num(first, "local_mtu"), ifmtu));
	json_array_foreach(probes, i, it) {
		r = json_string_value(json_object_get(it, "result"));
		if (i > 0 && strcmp(r, "ok") == 0)
			return verdict("blackhole", num(it, "size"), xprintf(
			    "%lld-byte packets with DF get no answer, %lld-byte "
			    "ones do: an MTU blackhole (a hop's smaller MTU, its "
			    "ICMP \"fragmentation needed\" lost); "
			    "net.ipv4.tcp_mtu_probing=1 lets TCP find the MTU",
			    size, num(it, "size")));
	}
	return verdict("unknown", -1, xprintf("no packet with DF got an answer "
	    "at %lld bytes or at the smaller sizes tried, while pings did",
	    size));
}

/* after - before of one counter, or -1 unknown (a counter that went back:
 * the interface was recreated). */
static long long
delta(const json_t *before, const json_t *after, const char *key)
{
	long long b = num(before, key), a = num(after, key);

	return b >= 0 && a >= b ? a - b : -1;
}

static void
add_drops(json_t *drops, const char *host, const json_t *before,
    const json_t *after)
{
	const char	*dev = json_string_value(json_object_get(before,
	    "interface"));
	const char	*dev2 = json_string_value(json_object_get(after,
	    "interface"));
	json_t		*d;

	if (host == NULL || dev == NULL || dev2 == NULL || strcmp(dev,
	    dev2) != 0)
		return;
	d = json_pack("{s:s}", "interface", dev);
	json_object_set_new(d, "rx_dropped", delta(before, after,
	    "rx_dropped") >= 0 ? json_integer(delta(before, after,
	    "rx_dropped")) : json_null());
	json_object_set_new(d, "tx_dropped", delta(before, after,
	    "tx_dropped") >= 0 ? json_integer(delta(before, after,
	    "tx_dropped")) : json_null());
	json_object_set_new(drops, host, d);
}

/* A new reference to v, else dflt (stolen). */
static json_t *
copy_or(const json_t *v, json_t *dflt)
{
	if (v == NULL)
		return dflt;
	json_decref(dflt);
	return json_deep_copy(v);
}

json_t *
pathcheck_summary(const json_t *client_before, const json_t *client_after,
    const char *client, const json_t *server_before,
    const json_t *server_after, const char *server)
{
	const json_t	*pings = json_object_get(client_before, "pings");
	json_t		*path = json_object(), *drops = json_object();
	long long	 sent = num(pings, "sent"), got = num(pings, "received");

	json_object_set_new(path, "interface", copy_or(json_object_get(
	    client_before, "interface"), json_null()));
	json_object_set_new(path, "interface_mtu", num(client_before,
	    "mtu") > 0 ? json_integer(num(client_before, "mtu")) :
	    json_null());
	json_object_set_new(path, "loss", sent > 0 ? json_pack("{s:I, s:I, "
	    "s:f}", "sent", (json_int_t)sent, "received", (json_int_t)got,
	    "rate", (double)(sent - got) / (double)sent) : json_null());
	json_object_set_new(path, "mtu", pathcheck_mtu(client_before));
	json_object_set_new(path, "pmtu_probes", copy_or(json_object_get(
	    client_before, "pmtu"), json_array()));
	add_drops(drops, client, client_before, client_after);
	add_drops(drops, server, server_before, server_after);
	json_object_set_new(path, "drops", drops);
	return path;
}

static void
add_count(struct strbuf *sb, const char *what, const json_t *v)
{
	if (json_is_integer(v))
		strbuf_addf(sb, " %s %lld", what,
		    (long long)json_integer_value(v));
	else
		strbuf_addf(sb, " %s ?", what);
}

char *
pathcheck_text(const json_t *path)
{
	const json_t	*loss = json_object_get(path, "loss");
	const json_t	*mtu = json_object_get(path, "mtu");
	const json_t	*drops = json_object_get(path, "drops"), *d;
	const char	*host, *state;
	struct strbuf	 sb;
	int		 first = 1;

	strbuf_init(&sb);
	if (json_is_object(loss))
		strbuf_addf(&sb, "loss %lld/%lld (%.1f%%)", num(loss, "sent") -
		    num(loss, "received"), num(loss, "sent"), 100 *
		    json_number_value(json_object_get(loss, "rate")));
	else
		strbuf_addstr(&sb, "loss not checked");
	state = json_string_value(json_object_get(mtu, "state"));
	if (state == NULL || strcmp(state, "unknown") == 0)
		strbuf_addstr(&sb, "; MTU unknown");
	else if (strcmp(state, "ok") == 0)
		strbuf_addf(&sb, "; MTU %lld ok", num(mtu, "path_mtu"));
	else if (strcmp(state, "blackhole") == 0)
		strbuf_addf(&sb, "; MTU BLACKHOLE: %lld lost, %lld passes",
		    num(path, "interface_mtu"), num(mtu, "path_mtu"));
	else
		strbuf_addf(&sb, "; MTU %lld (fragmentation needed came back)",
		    num(mtu, "path_mtu"));
	json_object_foreach((json_t *)drops, host, d) {
		strbuf_addf(&sb, "%s %s %s", first ? "; drops during the runs:" :
		    ",", host, json_string_value(json_object_get(d,
		    "interface")));
		add_count(&sb, "rx", json_object_get(d, "rx_dropped"));
		add_count(&sb, "tx", json_object_get(d, "tx_dropped"));
		first = 0;
	}
	return strbuf_detach(&sb, NULL);
}

char *
pathcheck_blackholes(const json_t *by_peer)
{
	const char	*peer, *state;
	const json_t	*path, *mtu;
	struct strbuf	 sb;

	strbuf_init(&sb);
	json_object_foreach((json_t *)by_peer, peer, path) {
		mtu = json_object_get(path, "mtu");
		state = json_string_value(json_object_get(mtu, "state"));
		if (state == NULL || strcmp(state, "blackhole") != 0)
			continue;
		strbuf_addf(&sb, "%sto %s: %lld lost, %lld passes", sb.len > 0 ?
		    "; " : "", peer, num(path, "interface_mtu"), num(mtu,
		    "path_mtu"));
	}
	if (sb.len == 0) {
		strbuf_release(&sb);
		return NULL;
	}
	return strbuf_detach(&sb, NULL);
}
