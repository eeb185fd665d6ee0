/* probe: gather the host's facts in one round trip (lib/probe.sh). */
#include "module.h"

static const struct module_param probe_params[] = {
	{ .name = "rtt_to", .type = PARAM_LIST,
	  .help = "addresses to measure RTT to (default: the host's iperf_peer "
		  "and rtt_to vars)" },
	{ .name = NULL },
};

const struct module mod_probe = {
	.name = "probe",
	.summary = "gather kernel, qdisc, sysctl, sysctl.d, RAM and RTT facts",
	.params = probe_params,
	.check_safe = 1,
};
