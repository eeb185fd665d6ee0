/* wanem configuration parser. See wanem-conf.h for the format. */
#include "wanem-conf.h"

#include <arpa/inet.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/xalloc.h"

#define WAN_MAX_WORDS	16
/* Longest accepted one-way delay: beyond this is a typo, not a WAN. */
#define WAN_MAX_DELAY_NS	(10ULL * 1000 * 1000 * 1000)
/* Queue used when a rate is given with no delay and no queue= option. */
#define WAN_DEFAULT_QUEUE	(100 * 1500)
/* Smallest queue: one full-size packet must fit or nothing ever passes. */
#define WAN_MIN_QUEUE		1500

/* Parse a non-negative decimal number followed by a unit suffix; *unit is
 * left pointing at the suffix. */
static int
parse_number(const char *s, double *v, const char **unit)
{
	char	*end;

	if (*s == '\0' || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	*v = strtod(s, &end);
	if (errno != 0 || end == s || !isfinite(*v) || *v < 0)
		return -1;
	*unit = end;
	return 0;
}

static int
parse_delay(const char *s, uint64_t *ns, char **cause)
{
	const char	*unit;
	double		 v, mult;

	if (parse_number(s, &v, &unit) != 0)
		return fail(cause, "bad delay '%s'", s);
	if (*unit == '\0' || strcasecmp(unit, "ms") == 0)
		mult = 1e6;
	else if (strcasecmp(unit, "us") == 0)
		mult = 1e3;
	else if (strcasecmp(unit, "s") == 0)
		mult = 1e9;
	else
		return fail(cause, "bad delay unit in '%s' (use us, ms or s)", s);
	v *= mult;
	if (v > (double)WAN_MAX_DELAY_NS)
		return fail(cause, "delay '%s' is over 10 s", s);
	*ns = (uint64_t)llround(v);
	return 0;
}

static int
parse_rate(const char *s, uint64_t *bps, char **cause)
{
	static const struct {
		const char	*name;
		double		 mult;
	} units[] = {
		{ "", 1e6 }, { "bit", 1 }, { "kbit", 1e3 }, { "mbit", 1e6 },
		{ "gbit", 1e9 }, { "bit/s", 1 }, { "kbit/s", 1e3 },
		{ "mbit/s", 1e6 }, { "gbit/s", 1e9 },
	};
	const char	*unit;
	double		 v;
	size_t		 i;

	if (strcasecmp(s, "none") == 0 || strcasecmp(s, "unlimited") == 0) {
		*bps = 0;
		return 0;
	}
	if (parse_number(s, &v, &unit) != 0)
		return fail(cause, "bad rate '%s'", s);
	for (i = 0; i < sizeof units / sizeof units[0]; i++) {
		if (strcasecmp(unit, units[i].name) == 0)
			break;
	}
	if (i == sizeof units / sizeof units[0])
		return fail(cause, "bad rate unit in '%s' (use kbit, mbit or "
		    "gbit)", s);
	v *= units[i].mult;
	if (v > 1e12)
		return fail(cause, "rate '%s' is over 1000 gbit", s);
	if (v != 0 && v < 8000)
		return fail(cause, "rate '%s' is under 8 kbit", s);
	*bps = (uint64_t)llround(v);
	return 0;
}

/* queue=bdp sets *bdp; queue=none sets 0; otherwise bytes, k/m in KiB/MiB. */
static int
parse_queue(const char *s, uint64_t *bytes, int *bdp, char **cause)
{
	const char	*unit;
	double		 v;

	*bdp = 0;
	if (strcasecmp(s, "bdp") == 0) {
		*bdp = 1;
		return 0;
	}
	if (strcasecmp(s, "none") == 0 || strcasecmp(s, "unlimited") == 0) {
		*bytes = 0;
		return 0;
	}
	if (parse_number(s, &v, &unit) != 0)
		return fail(cause, "bad queue '%s'", s);
	if (*unit == '\0' || strcasecmp(unit, "b") == 0)
		;
	else if (strcasecmp(unit, "k") == 0 || strcasecmp(unit, "kb") == 0)
		v *= 1024;
	else if (strcasecmp(unit, "m") == 0 || strcasecmp(unit, "mb") == 0)
		v *= 1024 * 1024;
	else
		return fail(cause, "bad queue unit in '%s' (use bytes, k, m or "
		    "bdp)", s);
	if (v > 1024.0 * 1024 * 1024)
		return fail(cause, "queue '%s' is over 1 GiB", s);
	*bytes = (uint64_t)llround(v);
	if (*bytes < WAN_MIN_QUEUE)
		return fail(cause, "queue '%s' is under %d bytes", s,
		    WAN_MIN_QUEUE);
	return 0;
}

static int
parse_loss(const char *s, double *p, char **cause)
{
	const char	*unit;
	double		 v;

	if (parse_number(s, &v, &unit) != 0)
		return fail(cause, "bad loss '%s'", s);
	if (strcmp(unit, "%") == 0)
		v /= 100;
	else if (*unit != '\0')
		return fail(cause, "bad loss '%s' (use 0.01 or 1%%)", s);
	if (v > 1)
		return fail(cause, "loss '%s' is over 1", s);
	*p = v;
	return 0;
}

/* mtu=BYTES: 576 (the least an IPv4 host must take) to 65535. */
static int
parse_mtu(const char *s, uint32_t *mtu, char **cause)
{
	const char	*unit;
	double		 v;

	if (parse_number(s, &v, &unit) != 0 || *unit != '\0' ||
	    v != (double)(uint32_t)v)
		return fail(cause, "bad mtu '%s' (bytes)", s);
	if (v < 576 || v > 65535)
		return fail(cause, "mtu '%s' is outside 576 to 65535", s);
	*mtu = (uint32_t)v;
	return 0;
}

int
wan_conf_parse_opts(struct wan_pipe_conf *pc, char **words, size_t nwords,
    char **cause)
{
	const char	*value;
	size_t		 i, klen;
	int		 bdp = 0, queue_set = 0, r;

	pc->delay_ns = 0;
	pc->rate_bps = 0;
	pc->queue_bytes = 0;
	pc->loss = 0;
	pc->mtu = 0;
	for (i = 0; i < nwords; i++) {
		value = strchr(words[i], '=');
		if (value == NULL)
			return fail(cause, "expected KEY=VALUE, not '%s'",
			    words[i]);
		klen = value - words[i];
		value++;
		if (klen == 5 && strncmp(words[i], "delay", 5) == 0)
			r = parse_delay(value, &pc->delay_ns, cause);
		else if (klen == 4 && strncmp(words[i], "rate", 4) == 0)
			r = parse_rate(value, &pc->rate_bps, cause);
		else if (klen == 5 && strncmp(words[i], "queue", 5) == 0) {
			r = parse_queue(value, &pc->queue_bytes, &bdp, cause);
			queue_set = 1;
		} else if (klen == 4 && strncmp(words[i], "loss", 4) == 0)
			r = parse_loss(value, &pc->loss, cause);
		else if (klen == 3 && strncmp(words[i], "mtu", 3) == 0)
			r = parse_mtu(value, &pc->mtu, cause);
		else
			return fail(cause, "unknown option '%.*s' (expected "
			    "delay, rate, queue, loss or mtu)", (int)klen,
			    words[i]);
		if (r != 0)
			return -1;
	}

	/*
	 * The queue only holds packets waiting for serialisation, so it means
	 * nothing without a rate. One BDP of the round trip (both directions
	 * having this delay) is what a well-sized bottleneck router holds.
	 */
	if (pc->rate_bps == 0) {
		if (queue_set && (bdp || pc->queue_bytes != 0))
			return fail(cause, "queue needs a rate");
		return 0;
	}
	if (bdp || !queue_set) {
		if (pc->delay_ns == 0) {
			if (bdp)
				return fail(cause, "queue=bdp needs a delay");
			pc->queue_bytes = WAN_DEFAULT_QUEUE;
			return 0;
		}
		pc->queue_bytes = (uint64_t)llround((double)pc->rate_bps / 8 *
		    2 * (double)pc->delay_ns / 1e9);
		if (pc->queue_bytes < WAN_MIN_QUEUE)
			pc->queue_bytes = WAN_MIN_QUEUE;
	}
	return 0;
}

static ssize_t
find_host(const struct wan_conf *conf, const char *name)
{
	size_t	i;

	for (i = 0; i < conf->nhosts; i++) {
		if (strcmp(conf->hosts[i].name, name) == 0)
			return (ssize_t)i;
	}
	return -1;
}

static int
add_host(struct wan_conf *conf, char **w, size_t nw, int line, char **cause)
{
	struct wan_host	*h;
	struct in_addr	 a;
	size_t		 i;

	if (nw != 4)
		return fail(cause, "expected 'host NAME NETNS ADDRESS'");
	if (inet_pton(AF_INET, w[3], &a) != 1)
		return fail(cause, "bad IPv4 address '%s'", w[3]);
	/* Lab traffic stays in the benchmarking range, 198.18.0.0/15. */
	if ((ntohl(a.s_addr) & 0xfffe0000U) != 0xc6120000U)
		return fail(cause, "address '%s' is outside 198.18.0.0/15",
		    w[3]);
	if (strchr(w[2], '/') != NULL || strcmp(w[2], ".") == 0 ||
	    strcmp(w[2], "..") == 0)
		return fail(cause, "bad namespace name '%s'", w[2]);
	for (i = 0; i < conf->nhosts; i++) {
		h = &conf->hosts[i];
		if (strcmp(h->name, w[1]) == 0)
			return fail(cause, "host '%s' already defined at "
			    "line %d", w[1], h->line);
		if (strcmp(h->netns, w[2]) == 0)
			return fail(cause, "namespace '%s' already used at "
			    "line %d", w[2], h->line);
		if (h->addr.s_addr == a.s_addr)
			return fail(cause, "address '%s' already used at "
			    "line %d", w[3], h->line);
	}
	if (conf->pipes != NULL)
		return fail(cause, "host '%s' defined after a link or pipe",
		    w[1]);
	conf->hosts = xreallocarray(conf->hosts, conf->nhosts + 1,
	    sizeof *conf->hosts);
	h = &conf->hosts[conf->nhosts++];
	h->name = xstrdup(w[1]);
	h->netns = xstrdup(w[2]);
	h->addr = a;
	h->line = line;
	return 0;
}

static int
add_pipe(struct wan_conf *conf, size_t src, size_t dst,
    const struct wan_pipe_conf *pc, char **cause)
{
	struct wan_pipe_conf	*slot;

	slot = &conf->pipes[src * conf->nhosts + dst];
	if (slot->line != 0)
		return fail(cause, "pipe '%s' -> '%s' already defined at "
		    "line %d", conf->hosts[src].name, conf->hosts[dst].name,
		    slot->line);
	*slot = *pc;
	return 0;
}

static int
parse_line(struct wan_conf *conf, char **w, size_t nw, int line, char **cause)
{
	struct wan_pipe_conf	 pc;
	ssize_t			 a, b;
	int			 is_link;

	if (strcmp(w[0], "host") == 0)
		return add_host(conf, w, nw, line, cause);

	if (strcmp(w[0], "default") == 0) {
		if (conf->dflt.line != 0)
			return fail(cause, "default already defined at line "
			    "%d", conf->dflt.line);
		if (wan_conf_parse_opts(&conf->dflt, w + 1, nw - 1,
		    cause) != 0)
			return -1;
		conf->dflt.line = line;
		return 0;
	}

	is_link = strcmp(w[0], "link") == 0;
	if (!is_link && strcmp(w[0], "pipe") != 0)
		return fail(cause, "unknown statement '%s' (expected host, "
		    "link, pipe or default)", w[0]);
	if (nw < 3)
		return fail(cause, "expected '%s A B [options]'", w[0]);
	if ((a = find_host(conf, w[1])) == -1)
		return fail(cause, "unknown host '%s'", w[1]);
	if ((b = find_host(conf, w[2])) == -1)
		return fail(cause, "unknown host '%s'", w[2]);
	if (a == b)
		return fail(cause, "%s from '%s' to itself", w[0], w[1]);
	if (wan_conf_parse_opts(&pc, w + 3, nw - 3, cause) != 0)
		return -1;
	pc.line = line;
	if (conf->pipes == NULL)
		conf->pipes = xcalloc(conf->nhosts * conf->nhosts,
		    sizeof *conf->pipes);
	if (add_pipe(conf, a, b, &pc, cause) != 0)
		return -1;
	if (is_link && add_pipe(conf, b, a, &pc, cause) != 0)
		return -1;
	return 0;
}

int
wan_conf_load(struct wan_conf *conf, const char *path, char **cause)
{
	FILE	*f;
	char	*buf = NULL, *p, *w[WAN_MAX_WORDS + 1], *why = NULL;
	size_t	 bufsz = 0, nw;
	int	 line = 0, r = -1;

	memset(conf, 0, sizeof *conf);
	conf->path = xstrdup(path);
	if ((f = fopen(path, "r")) == NULL)
		return fail(cause, "%s: %s", path, strerror(errno));
	while (getline(&buf, &bufsz, f) != -1) {
		line++;
		if ((p = strchr(buf, '#')) != NULL)
			*p = '\0';
		nw = 0;
		for (p = strtok(buf, " \t\r\n"); p != NULL;
		    p = strtok(NULL, " \t\r\n")) {
			if (nw == WAN_MAX_WORDS) {
				fail(cause, "%s:%d: too many words", path,
				    line);
				goto out;
			}
			w[nw++] = p;
		}
		if (nw == 0)
			continue;
		if (parse_line(conf, w, nw, line, &why) != 0) {
			fail(cause, "%s:%d: %s", path, line, why);
			goto out;
		}
	}
	if (ferror(f)) {
		fail(cause, "%s: %s", path, strerror(errno));
		goto out;
	}
	if (conf->nhosts < 2) {
		fail(cause, "%s: needs at least two hosts", path);
		goto out;
	}
	if (conf->pipes == NULL)
		conf->pipes = xcalloc(conf->nhosts * conf->nhosts,
		    sizeof *conf->pipes);
	r = 0;
out:
	free(why);
	free(buf);
	fclose(f);
	return r;
}

const struct wan_pipe_conf *
wan_conf_pipe(const struct wan_conf *conf, size_t src, size_t dst)
{
	const struct wan_pipe_conf	*pc;

	if (src == dst || conf->pipes == NULL)
		return NULL;
	pc = &conf->pipes[src * conf->nhosts + dst];
	if (pc->line != 0)
		return pc;
	if (conf->dflt.line != 0)
		return &conf->dflt;
	return NULL;
}

void
wan_conf_free(struct wan_conf *conf)
{
	size_t	i;

	for (i = 0; i < conf->nhosts; i++) {
		free(conf->hosts[i].name);
		free(conf->hosts[i].netns);
	}
	free(conf->hosts);
	free(conf->pipes);
	free(conf->path);
	memset(conf, 0, sizeof *conf);
}
