/* tcptune size KEY=VALUE...: the sizing policy as a calculator, with no
 * host: what tcp_buffers would plan for a given bandwidth, RTT and RAM
 * (docs/sizing.md shows the seeds' cases computed with it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "playbook/bind.h"
#include "modules/mod-tcp_buffers.h"
#include "tune/dropin.h"
#include "tune/sizing.h"
#include "base/strbuf.h"
#include "base/units.h"
#include "yaml/diag.h"

/* The --format json document's "schema": raised when a field changes
 * meaning or goes away. */
#define SIZE_SCHEMA	1

/* {"schema", "rtt_ms", "bdp_bytes", "ceiling_bytes", "flow_cap_mbit",
 * "current_flow_cap_mbit" (with tcp_rmem=), "sysctl": {KEY: VALUE},
 * "reasons": {KEY: why}, "not_planned": {KEY: why} (the keys beyond
 * buffers asked for and left out), "dropin": the file's text}. */
static void
print_json(const struct sizing_input *in, const struct sizing_plan *plan,
    const struct sizing_extra *extra, const struct dropin *d,
    const char *text)
{
	json_t	*doc, *keys = json_object(), *reasons = json_object();
	json_t	*left = json_object();
	size_t	 i;

	for (i = 0; i < extra->n; i++)
		if (extra->keys[i].value == NULL)
			json_object_set_new(left, extra->keys[i].key,
			    json_string(extra->keys[i].reason));
	for (i = 0; i < d->n; i++) {
		json_object_set_new(keys, d->entries[i].key,
		    json_string(d->entries[i].value));
		if (d->entries[i].reason != NULL)
			json_object_set_new(reasons, d->entries[i].key,
			    json_string(d->entries[i].reason));
	}
	doc = json_pack("{s:i, s:f, s:I, s:I, s:f, s:o, s:o, s:s}", "schema",
	    SIZE_SCHEMA, "rtt_ms", in->rtt_ms, "bdp_bytes",
	    (json_int_t)plan->bdp_bytes, "ceiling_bytes",
	    (json_int_t)plan->ceiling, "flow_cap_mbit",
	    sizing_flow_cap_mbit(plan->ceiling, in->rtt_ms), "sysctl", keys,
	    "reasons", reasons, "dropin", text);
	json_object_set_new(doc, "not_planned", left);
	if (in->st_rmem == SIZING_PRESENT)
		json_object_set_new(doc, "current_flow_cap_mbit", json_real(
		    sizing_flow_cap_mbit(in->cur_rmem.max, in->rtt_ms)));
	json_dumpf(doc, stdout, JSON_INDENT(2));
	fputc('\n', stdout);
	json_decref(doc);
}

static int
parse_bytes(const char *key, const char *v, uint64_t *out)
{
	char *cause = NULL;

	if (parse_size(v, out, &cause) != 0) {
		cmd_error("size: '%s': %s", key, cause);
		free(cause);
		return -1;
	}
	return 0;
}

/* A parameter of the tcp_buffers module that size takes: all but the ones
 * that become a line on a host (the drop-in's path): size has no host. */
static const struct module_param *
size_param(const char *key)
{
	const struct module_param *p;

	p = module_find_param(&mod_tcp_buffers, key);
	return p != NULL && p->host_line == HOSTLINE_NONE ? p : NULL;
}

/* The host's current tcp_rmem or tcp_wmem ("4096 131072 6291456"). */
static int
parse_triple(const char *key, const char *v, struct tcp_triple *t,
    enum sizing_state *st)
{
	if (tcp_triple_parse(v, t) != 0) {
		cmd_error("size: bad %s '%s'", key, v);
		return -1;
	}
	*st = SIZING_PRESENT;
	return 0;
}

/* What a host's facts give the module, given here as words instead: 0,
 * -1 after printing why v is bad, or 1 when key is not one of them. */
static int
host_word(const char *key, const char *v, struct sizing_input *in,
    struct sizing_extra_input *xin)
{
	/* host_words[], in this order */
	if (strcmp(key, "congestion") == 0) {
		xin->cc = v;
		return 0;
	}
	if (strcmp(key, "mem") == 0)
		return parse_bytes(key, v, &in->mem_total);
	if (strcmp(key, "tcp_rmem") == 0)
		return parse_triple(key, v, &in->cur_rmem, &in->st_rmem);
	if (strcmp(key, "tcp_wmem") == 0)
		return parse_triple(key, v, &in->cur_wmem, &in->st_wmem);
	return 1;
}

/* The facts of a host that size takes as words (host_word). */
static const char *const host_words[] = { "congestion", "mem", "tcp_rmem",
	"tcp_wmem" };

const char *const *
size_keys(size_t *n)
{
	static const char	*keys[64];
	static size_t		 nkeys;
	const struct module_param *p;
	size_t			 i;

	if (nkeys == 0) {
		for (p = mod_tcp_buffers.params; p->name != NULL &&
		    nkeys < sizeof keys / sizeof *keys - 4; p++)
			if (size_param(p->name) != NULL)
				keys[nkeys++] = p->name;
		for (i = 0; i < sizeof host_words / sizeof *host_words; i++)
			keys[nkeys++] = host_words[i];
	}
	*n = nkeys;
	return keys;
}

/* "size: unknown key 'bandwith_mbit' (did you mean 'bandwidth_mbit'?)",
 * else the list of keys (size_keys). */
static void
unknown_key(const char *key)
{
	const char	*const *keys, *best;
	struct strbuf	 list;
	size_t		 n, i;

	keys = size_keys(&n);
	if ((best = did_you_mean(key, keys, n)) != NULL) {
		cmd_error("size: unknown key '%s' (did you mean '%s'?)", key,
		    best);
		return;
	}
	strbuf_init(&list);
	for (i = 0; i < n; i++)
		strbuf_addf(&list, "%s%s", i > 0 ? ", " : "", keys[i]);
	cmd_error("size: unknown key '%s' (%s)", key, list.buf);
	strbuf_release(&list);
}

/*
 * The KEY=VALUE words into in: the module's parameters bound through its
 * table (types, bounds, defaults: 'ram_divisor=0' is refused as the module
 * refuses it), and the host's facts the module would read.
 */
static int
parse_words(struct options *opts, struct sizing_input *in,
    struct sizing_extra_input *xin)
{
	struct ypos	 pos = { "<command line>", 1, 1 };
	json_t		*words = json_object(), *args = NULL, *v;
	void		*conf;
	uint64_t	 given = 0;
	char		*cause = NULL;
	int		 i, hw, r = -1;

	for (i = 0; i < opts->nargs; i++) {
		const char			*a = opts->args[i];
		const char			*eq = strchr(a, '=');
		const struct module_param	*p;
		char				 key[32];
		size_t				 kl;

		if (eq == NULL || (kl = (size_t)(eq - a)) >= sizeof key) {
			cmd_error("size: expected KEY=VALUE, got '%s'", a);
			goto out;
		}
		memcpy(key, a, kl);
		key[kl] = '\0';
		eq++;
		if ((p = size_param(key)) != NULL) {
			if (bind_param_text(p, eq, &v, &cause) != 0) {
				cmd_error("size: %s", cause);
				goto out;
			}
			json_object_set_new(words, key, v);
		} else if ((hw = host_word(key, eq, in, xin)) != 0) {
			if (hw > 0)
				unknown_key(key);
			goto out;
		}
	}
	/* the defaults, as the module gets them */
	if (bind_rendered_args(&mod_tcp_buffers, words, NULL, &pos, &args,
	    &given, &cause) != 0) {
		cmd_error("size: %s", cause);
		goto out;
	}
	conf = bind_conf(&mod_tcp_buffers, args, given);
	tcp_buffers_input(conf, in);
	tcp_buffers_extra_input(conf, xin);
	free(conf);
	r = 0;
out:
	free(cause);
	json_decref(args);
	json_decref(words);
	return r;
}

static int
cmd_size_exec(struct options *opts)
{
	struct sizing_input	 in;
	struct sizing_extra_input xin;
	struct sizing_plan	 plan;
	struct sizing_extra	 extra;
	struct dropin		 d;
	char			*cause = NULL, *text;
	size_t			 i;

	memset(&in, 0, sizeof in);
	memset(&xin, 0, sizeof xin);
	memset(&extra, 0, sizeof extra);
	in.st_rmem = in.st_wmem = SIZING_UNKNOWN;
	in.st_rmem_max = in.st_wmem_max = SIZING_UNKNOWN;
	if (parse_words(opts, &in, &xin) != 0)
		return EXIT_COULD_NOT_RUN;
	if (sizing_plan_compute(&in, &plan, &cause) != 0) {
		cmd_error("size: %s", cause);
		free(cause);
		sizing_plan_clear(&plan);
		return EXIT_COULD_NOT_RUN;
	}
	dropin_init(&d);
	sizing_plan_to_dropin(&plan, &d);
	/* No host: no path check (mtu_probing auto plans nothing), the
	 * keys' states unknown (planned). */
	xin.bandwidth_mbit = in.bandwidth_mbit;
	sizing_extra_compute(&xin, &extra);
	sizing_extra_to_dropin(&extra, &d);
	if ((text = dropin_render(&d, "(tcptune size)", NULL, &cause)) ==
	    NULL) {
		cmd_error("%s", cause);
		free(cause);
		dropin_free(&d);
		sizing_extra_clear(&extra);
		sizing_plan_clear(&plan);
		return 1;
	}
	if (opts->format == FORMAT_JSON)
		print_json(&in, &plan, &extra, &d, text);
	else {
		if (in.st_rmem == SIZING_PRESENT)
			printf("flow cap of the current tcp_rmem maximum (%llu "
			    "bytes) at %.0f ms: %.1f Mbit/s\n",
			    (unsigned long long)in.cur_rmem.max, in.rtt_ms,
			    sizing_flow_cap_mbit(in.cur_rmem.max, in.rtt_ms));
		printf("flow cap of the plan's ceiling at %.0f ms: %.0f "
		    "Mbit/s\n", in.rtt_ms,
		    sizing_flow_cap_mbit(plan.ceiling, in.rtt_ms));
		fputs(text, stdout);
		for (i = 0; i < extra.n; i++)
			if (extra.keys[i].value == NULL)
				printf("# %s: %s\n", extra.keys[i].key,
				    extra.keys[i].reason);
	}
	sizing_extra_clear(&extra);
	free(text);
	dropin_free(&d);
	sizing_plan_clear(&plan);
	return 0;
}

const struct cmd_entry cmd_size_entry = {
	.name = "size",
	.usage = "bandwidth_mbit=N rtt_ms=N mem=SIZE [KEY=VALUE...]",
	.summary = "the sizing policy as a calculator (no host): the drop-in "
		   "it would plan",
	.min_args = 1,
	.max_args = -1,
	.exec = cmd_size_exec,
};
