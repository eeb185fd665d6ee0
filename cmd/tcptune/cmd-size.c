/* tcptune size KEY=VALUE...: the sizing policy as a calculator, with no
 * host: what tcp_buffers would plan for a given bandwidth, RTT and RAM
 * (docs/sizing.md shows the seeds' cases computed with it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "tune/dropin.h"
#include "tune/sizing.h"
#include "base/units.h"

static int
parse_number(const char *key, const char *v, double *out)
{
	char *end;

	*out = strtod(v, &end);
	if (end == v || *end != '\0' || *out <= 0)
		return cmd_error("size: '%s' needs a positive number, got '%s'",
		    key, v);
	return 0;
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

static int
cmd_size_exec(struct options *opts)
{
	struct sizing_input	 in;
	struct sizing_plan	 plan;
	struct dropin		 d;
	char			*cause = NULL, *text;
	int			 i;

	memset(&in, 0, sizeof in);
	in.st_rmem = in.st_wmem = SIZING_UNKNOWN;
	in.st_rmem_max = in.st_wmem_max = SIZING_UNKNOWN;
	for (i = 0; i < opts->nargs; i++) {
		const char	*a = opts->args[i], *eq = strchr(a, '=');
		char		 key[32];
		size_t		 kl;

		if (eq == NULL || (kl = (size_t)(eq - a)) >= sizeof key)
			return cmd_error("size: expected KEY=VALUE, got '%s'",
			    a);
		memcpy(key, a, kl);
		key[kl] = '\0';
		eq++;
		if ((strcmp(key, "bandwidth_mbit") == 0 &&
		    parse_number(key, eq, &in.bandwidth_mbit) != 0) ||
		    (strcmp(key, "rtt_ms") == 0 &&
		    parse_number(key, eq, &in.rtt_ms) != 0) ||
		    (strcmp(key, "headroom") == 0 &&
		    parse_number(key, eq, &in.headroom) != 0) ||
		    (strcmp(key, "mem") == 0 &&
		    parse_bytes(key, eq, &in.mem_total) != 0) ||
		    (strcmp(key, "max_buffer") == 0 &&
		    parse_bytes(key, eq, &in.max_buffer) != 0) ||
		    (strcmp(key, "rmem_default") == 0 &&
		    parse_bytes(key, eq, &in.rmem_default) != 0) ||
		    (strcmp(key, "wmem_default") == 0 &&
		    parse_bytes(key, eq, &in.wmem_default) != 0))
			return EXIT_COULD_NOT_RUN;
		if (strcmp(key, "ram_divisor") == 0)
			in.ram_divisor = (unsigned)strtoul(eq, NULL, 10);
		else if (strcmp(key, "tcp_rmem") == 0) {
			if (tcp_triple_parse(eq, &in.cur_rmem) != 0)
				return cmd_error("size: bad tcp_rmem '%s'", eq);
			in.st_rmem = SIZING_PRESENT;
		} else if (strcmp(key, "tcp_wmem") == 0) {
			if (tcp_triple_parse(eq, &in.cur_wmem) != 0)
				return cmd_error("size: bad tcp_wmem '%s'", eq);
			in.st_wmem = SIZING_PRESENT;
		} else if (strcmp(key, "allow_decrease") == 0)
			in.allow_decrease = strcmp(eq, "true") == 0;
		else if (strstr(" bandwidth_mbit rtt_ms headroom mem max_buffer "
		    "rmem_default wmem_default ", key) == NULL || *key == '\0')
			return cmd_error("size: unknown key '%s' (bandwidth_mbit, "
			    "rtt_ms, mem, headroom, ram_divisor, max_buffer, "
			    "rmem_default, wmem_default, tcp_rmem, tcp_wmem, "
			    "allow_decrease)", key);
	}
	if (sizing_plan_compute(&in, &plan, &cause) != 0) {
		cmd_error("size: %s", cause);
		free(cause);
		sizing_plan_clear(&plan);
		return EXIT_COULD_NOT_RUN;
	}
	if (in.st_rmem == SIZING_PRESENT)
		printf("flow cap of the current tcp_rmem maximum (%llu bytes) "
		    "at %.0f ms: %.1f Mbit/s\n",
		    (unsigned long long)in.cur_rmem.max, in.rtt_ms,
		    sizing_flow_cap_mbit(in.cur_rmem.max, in.rtt_ms));
	printf("flow cap of the plan's ceiling at %.0f ms: %.0f Mbit/s\n",
	    in.rtt_ms, sizing_flow_cap_mbit(plan.ceiling, in.rtt_ms));
	dropin_init(&d);
	sizing_plan_to_dropin(&plan, &d);
	if ((text = dropin_render(&d, "(tcptune size)", NULL, &cause)) ==
	    NULL) {
		cmd_error("%s", cause);
		free(cause);
		dropin_free(&d);
		sizing_plan_clear(&plan);
		return 1;
	}
	fputs(text, stdout);
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
