/* congestion: congestion control algorithm and the live qdisc. */
#include "module.h"

static const char *const congestion_qdiscs[] = { "fq", "fq_codel", "cake",
	"pfifo_fast", "keep", NULL };

static const struct module_param congestion_params[] = {
	{ .name = "algorithm", .type = PARAM_STR, .def = "bbr",
	  .help = "tcp_congestion_control to use where the kernel has it" },
	{ .name = "qdisc", .type = PARAM_CHOICE, .def = "fq",
	  .choices = congestion_qdiscs,
	  .help = "default_qdisc and live root qdisc (only where it exists)" },
	{ .name = "load_module", .type = PARAM_BOOL, .def = "true",
	  .help = "modprobe a modular algorithm and persist it in "
		  "/etc/modules-load.d/tcptune.conf" },
	{ .name = "sysctl_file", .type = PARAM_PATH,
	  .def = "/etc/sysctl.d/90-tcptune.conf", .help = "the drop-in to manage" },
	{ .name = NULL },
};

const struct module mod_congestion = {
	.name = "congestion",
	.summary = "set the congestion control algorithm and the live qdisc",
	.params = congestion_params,
};
