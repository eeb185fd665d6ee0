/* iperf3_verify: paired iperf3 runs, before/after table and a gate. */
#include "module.h"

static const char *const verify_on_regression[] = { "fail", "rollback",
	"warn", NULL };
static const char *const verify_phase[] = { "auto", "before", "after",
	NULL };

static const struct module_param iperf3_verify_params[] = {
	{ .name = "peer", .type = PARAM_STR,
	  .help = "peer host (default: the host's iperf_peer var)" },
	{ .name = "pairs", .type = PARAM_LIST,
	  .help = "explicit list of {host, peer} pairs" },
	{ .name = "duration", .type = PARAM_INT, .def = "10", .min = 1,
	  .max = 600, .help = "seconds per iperf3 run (-t)" },
	{ .name = "omit", .type = PARAM_INT, .def = "2", .min = 0, .max = 60,
	  .help = "seconds of slow start to omit (-O)" },
	{ .name = "parallel", .type = PARAM_INT, .def = "4", .min = 1,
	  .max = 128, .help = "streams for the multi-stream run (-P)" },
	{ .name = "port", .type = PARAM_INT, .def = "5201", .min = 1,
	  .max = 65535, .help = "first port to try on the peer" },
	{ .name = "reverse", .type = PARAM_BOOL, .def = "true",
	  .help = "also measure the reverse direction (-R)" },
	{ .name = "min_gain", .type = PARAM_FLOAT, .min = 0, .max = 1000,
	  .help = "fail unless after/before is at least this ratio" },
	{ .name = "max_regression", .type = PARAM_FLOAT, .def = "0.1",
	  .min = 0, .max = 1, .help = "largest tolerated fractional drop" },
	{ .name = "on_regression", .type = PARAM_CHOICE, .def = "fail",
	  .choices = verify_on_regression,
	  .help = "what to do when the gate fails" },
	{ .name = "phase", .type = PARAM_CHOICE, .def = "auto",
	  .choices = verify_phase,
	  .help = "before (baseline), after, or auto (both around the play)" },
	{ .name = NULL },
};

const struct module mod_iperf3_verify = {
	.name = "iperf3_verify",
	.summary = "measure with paired iperf3 runs and gate on the result",
	.params = iperf3_verify_params,
};
