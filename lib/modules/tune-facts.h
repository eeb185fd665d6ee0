/* Reading a host's probe facts the way the tuning modules need them. */
#ifndef TCPTUNE_TUNE_FACTS_H
#define TCPTUNE_TUNE_FACTS_H

#include <jansson.h>
#include <stdint.h>

#include "tune/sizing.h"

struct module_ctx;

/* State and value of one sysctl from facts.sysctl. value may be NULL. */
enum sizing_state facts_sysctl(const json_t *facts, const char *key,
		    const char **value);
/* The RTT the probe measured to the host's iperf_peer (or the largest of
 * the RTTs it measured), in ms; 0 when there is none. *to names the target
 * (borrowed) when found. */
double		facts_rtt_ms(struct module_ctx *ctx, const char **to);
/* A number var (int, float or numeric string); 0 when absent or not a
 * number. */
double		var_number(const json_t *vars, const char *name);
/* The drop-in path: the task's sysctl_file when it gave one (given), else
 * var tcptune_sysctl_file, else file, the module's default (NULL: a module
 * without the parameter). */
const char	*tune_file(const struct module_ctx *ctx, const char *file,
		    int given);

#endif
