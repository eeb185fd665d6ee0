#include "modules/tune-facts.h"

#include <stdlib.h>

#include "modules/tune.h"

enum sizing_state
facts_sysctl(const json_t *facts, const char *key, const char **value)
{
	const json_t *k = json_object_get(json_object_get(facts, "sysctl"),
	    key);

	*value = json_string_value(json_object_get(k, "value"));
	if (k == NULL)
		return SIZING_UNKNOWN;
	if (json_is_false(json_object_get(k, "present")))
		return SIZING_ABSENT;
	if (*value == NULL)
		return SIZING_UNKNOWN;
	if (json_is_false(json_object_get(k, "writable")))
		return SIZING_READONLY;
	return SIZING_PRESENT;
}

double
facts_rtt_ms(struct module_ctx *ctx, const char **to)
{
	const json_t	*rtt = json_object_get(module_ctx_facts(ctx), "rtt");
	const json_t	*v;
	const char	*peer, *key;
	double		 best = 0;

	*to = NULL;
	peer = json_string_value(json_object_get(module_ctx_vars(ctx),
	    "iperf_peer"));
	if (peer != NULL) {
		char *addr = module_ctx_traffic_address(ctx, peer);
		const json_t *e = json_object_get(rtt, addr);

		free(addr);
		if (json_is_number(json_object_get(e, "avg_ms"))) {
			json_object_foreach((json_t *)rtt, key, v) {
				if (v == e)
					*to = key;
			}
			return json_number_value(json_object_get(e,
			    "avg_ms"));
		}
	}
	/* No peer measurement: size for the farthest target measured. */
	json_object_foreach((json_t *)rtt, key, v) {
		double ms = json_number_value(json_object_get(v, "avg_ms"));

		if (ms > best) {
			best = ms;
			*to = key;
		}
	}
	return best;
}

double
var_number(const json_t *vars, const char *name)
{
	const json_t	*v = json_object_get(vars, name);
	char		*end;
	double		 d;

	if (json_is_number(v))
		return json_number_value(v);
	if (json_is_string(v)) {
		d = strtod(json_string_value(v), &end);
		if (end != json_string_value(v) && *end == '\0')
			return d;
	}
	return 0;
}

const char *
tune_file(const struct module_ctx *ctx, const char *file, int given)
{
	const char *var = json_string_value(json_object_get(
	    module_ctx_vars(ctx), "tcptune_sysctl_file"));

	/* An explicit task parameter beats the var; the var beats the
	 * module's default. */
	if (given && file != NULL)
		return file;
	if (var != NULL)
		return var;
	return file != NULL ? file : TUNE_DEFAULT_FILE;
}
