/* tcp_buffers: size tcp_rmem/tcp_wmem and rmem_max/wmem_max from the
 * bandwidth-delay product, capped by RAM (docs/sizing.md). */
#include "module.h"

static const struct module_param tcp_buffers_params[] = {
	{ .name = "rtt_ms", .type = PARAM_FLOAT, .min = 0.01, .max = 10000,
	  .help = "path RTT in ms (default: measured by probe, else var rtt_ms)" },
	{ .name = "bandwidth_mbit", .type = PARAM_FLOAT, .min = 0.1,
	  .max = 1000000,
	  .help = "path bandwidth in Mbit/s (default: var bandwidth_mbit, "
		  "else NIC speed)" },
	{ .name = "headroom", .type = PARAM_FLOAT, .def = "2", .min = 1,
	  .max = 16, .help = "multiplier on the BDP for kernel overhead" },
	{ .name = "ram_divisor", .type = PARAM_INT, .def = "64", .min = 1,
	  .max = 65536, .help = "cap each buffer at 1/N of RAM" },
	{ .name = "max_buffer", .type = PARAM_SIZE, .def = "256MiB",
	  .min = 4096, .max = 4294967295.0,
	  .help = "absolute ceiling for any buffer" },
	{ .name = "rmem_default", .type = PARAM_SIZE, .min = 4096,
	  .max = 4294967295.0, .help = "tcp_rmem middle value (default: kept)" },
	{ .name = "wmem_default", .type = PARAM_SIZE, .min = 4096,
	  .max = 4294967295.0, .help = "tcp_wmem middle value (default: kept)" },
	{ .name = "allow_decrease", .type = PARAM_BOOL, .def = "false",
	  .help = "allow lowering values the host already has higher" },
	{ .name = "sysctl_file", .type = PARAM_PATH,
	  .def = "/etc/sysctl.d/90-tcptune.conf", .help = "the drop-in to manage" },
	{ .name = NULL },
};

const struct module mod_tcp_buffers = {
	.name = "tcp_buffers",
	.summary = "size TCP buffer ceilings from bandwidth x RTT, capped by RAM",
	.params = tcp_buffers_params,
};
