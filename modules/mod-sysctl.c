/* sysctl: explicit keys into our drop-in. */
#include "playbook/module.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "remote/sysctld.h"
#include "template/template.h"
#include "modules/tune-facts.h"
#include "modules/tune.h"
#include "base/xalloc.h"

struct sysctl_conf {
	struct module_conf	 hdr;
	const json_t		*values;
	const char		*sysctl_file;
};

#define AT(field)	offsetof(struct sysctl_conf, field)

static const struct module_param sysctl_params[] = {
	{ .name = "values", .type = PARAM_MAP, .offset = AT(values),
	  .required = 1, .host_line = HOSTLINE_SYSCTL_MAP,
	  .help = "mapping of sysctl key to value" },
	{ .name = "sysctl_file", .type = PARAM_PATH, .offset = AT(sysctl_file),
	  .def = "/etc/sysctl.d/90-tcptune.conf",
	  .host_line = HOSTLINE_DROPIN_PATH,
	  .help = "the drop-in to manage (or var tcptune_sysctl_file)" },
	{ .name = NULL },
};

static int
sysctl_validate(const void *vconf, char **cause)
{
	const struct sysctl_conf *conf = vconf;
	const json_t	*values = conf->values;
	const json_t	*v;
	const char	*key;

	json_object_foreach((json_t *)values, key, v) {
		if (hostline_sysctl_key(key, cause) != 0)
			return -1;
		if (json_is_object(v) || json_is_array(v))
			return fail(cause, "value of '%s' must be a scalar",
			    key);
	}
	return 0;
}

static int
sysctl_run(struct module_ctx *ctx, const void *vconf,
    struct module_result *res)
{
	const struct sysctl_conf *conf = vconf;
	const json_t	*values = conf->values;
	const json_t	*v;
	const char	*key;
	struct stage	*st;
	char		*cause = NULL;
	size_t		 n = 0;
	struct strbuf	 skipped;

	if ((st = tune_stage(ctx, tune_file(ctx, conf->sysctl_file,
	    module_conf_given(sysctl_params, conf, AT(sysctl_file))),
	    &cause)) == NULL) {
		res->status = RESULT_FAILED;
		res->msg = cause;
		return 0;
	}
	strbuf_init(&skipped);
	json_object_foreach((json_t *)values, key, v) {
		char *norm = sysctld_key_normalise(key);
		char *text = template_to_text(v);
		const char *cur;

		/* A key the probe saw as read-only or absent here is kept out
		 * of the file and said so, never silently dropped. */
		switch (facts_sysctl(module_ctx_facts(ctx), norm, &cur)) {
		case SIZING_READONLY:
			strbuf_addf(&skipped, "%s%s (read-only)",
			    skipped.len > 0 ? ", " : "", norm);
			stage_note(st, "%s: cannot be set here: read-only on "
			    "this host (network namespace or container)",
			    norm);
			break;
		case SIZING_ABSENT:
			strbuf_addf(&skipped, "%s%s (absent)",
			    skipped.len > 0 ? ", " : "", norm);
			stage_note(st, "%s: cannot be set here: the key does "
			    "not exist on this host", norm);
			break;
		default:
			dropin_set(&st->dropin, norm, text, "set explicitly "
			    "by the play");
			n++;
			break;
		}
		free(norm);
		free(text);
	}
	res->status = RESULT_OK;
	res->msg = xprintf("%zu key%s staged for %s%s%s", n, n == 1 ? "" : "s",
	    st->file, skipped.len > 0 ? "; cannot be set here: " : "",
	    skipped.len > 0 ? skipped.buf : "");
	strbuf_release(&skipped);
	return 0;
}

const struct module mod_sysctl = {
	.name = "sysctl",
	.claims = "values",
	.summary = "set explicit sysctl keys through the managed drop-in",
	.params = sysctl_params,
	.conf_size = sizeof(struct sysctl_conf),
	.validate = sysctl_validate,
	.run = sysctl_run,
	.check_safe = 1,
	.stager = &tune_stager,
};
