/* validate_argument_spec: a role's meta/argument_specs checked before its
 * tasks, as Ansible's action of that name (nothing runs on the host). The
 * loader puts one before a role's tasks when the role has a spec for its
 * entry point (playbook/role-argspec.c), named as Ansible names it; what
 * is checked is modules/argspec.h's. */
#include "playbook/module.h"

#include <stddef.h>
#include <stdlib.h>

#include "base/strbuf.h"
#include "base/xalloc.h"
#include "modules/actions.h"
#include "modules/argspec.h"
#include "template/template.h"

struct vas_conf {
	struct module_conf	 hdr;
	const json_t		*argument_spec;
	const json_t		*provided_arguments;
	const json_t		*validate_args_context;
};
#define AT(f)	offsetof(struct vas_conf, f)

static const struct module_param vas_params[] = {
	{ .name = "argument_spec", .type = PARAM_MAP,
	  .offset = AT(argument_spec), .required = 1,
	  .help = "option name -> type, required, choices, ..." },
	{ .name = "provided_arguments", .type = PARAM_MAP,
	  .offset = AT(provided_arguments),
	  .help = "the values given (a role's params); the others are the "
	  "variables of the options' names" },
	{ .name = "validate_args_context", .type = PARAM_ANY,
	  .offset = AT(validate_args_context),
	  .help = "what is validated, returned as it is" },
	{ .name = NULL },
};

/* A string as written in YAML (no template in it) is Ansible's
 * AnsibleUnicode; a rendered one its str. */
static void
mark_literal(json_t *literals, const char *name, const json_t *raw)
{
	json_object_set_new(literals, name, json_boolean(json_is_string(raw) &&
	    !template_has(json_string_value(raw))));
}

static int
vas_run(struct module_ctx *ctx, const void *vconf, struct module_result *res)
{
	const struct vas_conf	*conf = vconf;
	const json_t		*vars = module_ctx_vars(ctx), *v;
	json_t			*values = json_object(), *errors, *out, *r, *e;
	json_t			*literals = json_object();
	const char		*name;
	char			*cause = NULL;
	struct strbuf		 sb;
	size_t			 i;

	/* the variables named as options, rendered (get_args_from_task_vars),
	 * then the values given over them */
	json_object_foreach((json_t *)conf->argument_spec, name, v) {
		if ((v = json_object_get(vars, name)) == NULL)
			continue;
		mark_literal(literals, name, v);
		if ((r = template_render(v, vars, NULL, &cause)) == NULL) {
			free(cause);
			cause = NULL;
			continue;
		}
		json_object_set_new(values, name, r);
	}
	if (conf->provided_arguments != NULL) {
		json_object_update(values, (json_t *)conf->provided_arguments);
		/* a role's params: the role entry's YAML (templated ones,
		 * Ansible's str, are rare there) */
		json_object_foreach((json_t *)conf->provided_arguments, name,
		    v)
			mark_literal(literals, name, v);
	}
	errors = argspec_check(conf->argument_spec, values, literals);
	json_decref(values);
	json_decref(literals);
	out = json_pack("{s:b, s:O}", "changed", 0, "validate_args_context",
	    conf->validate_args_context != NULL ?
	    conf->validate_args_context : json_object());
	if (json_array_size(errors) > 0) {
		strbuf_init(&sb);
		strbuf_addstr(&sb, "Validation of arguments failed:");
		json_array_foreach(errors, i, e)
			strbuf_addf(&sb, "\n%s", json_string_value(e));
		json_object_set_new(out, "msg", json_string(sb.buf));
		strbuf_release(&sb);
		json_object_set(out, "argument_errors", errors);
		json_object_set(out, "argument_spec_data",
		    (json_t *)conf->argument_spec);
		res->status = RESULT_FAILED;
		res->msg = action_show(out, 0);
	} else {
		json_object_set_new(out, "msg",
		    json_string("The arg spec validation passed"));
		res->status = RESULT_OK;
		/* what of the spec went unchecked is said, never silent */
		e = argspec_unchecked(conf->argument_spec);
		if (json_array_size(e) > 0) {
			strbuf_init(&sb);
			strbuf_addstr(&sb, "warning: not checked by tcptune:");
			json_array_foreach(e, i, r)
				strbuf_addf(&sb, " %s", json_string_value(r));
			res->msg = strbuf_detach(&sb, NULL);
			json_object_set(out, "unchecked", e);
		}
		json_decref(e);
	}
	json_decref(errors);
	res->data = out;
	return 0;
}

static const char *const vas_aliases[] = {
	"ansible.builtin.validate_argument_spec",
	"ansible.legacy.validate_argument_spec", NULL };

const struct module mod_validate_argument_spec = {
	.name = "validate_argument_spec",
	.aliases = vas_aliases,
	.summary = "check values against an argument spec (a role's; no "
	    "host work)",
	.params = vas_params,
	.conf_size = sizeof(struct vas_conf),
	.run = vas_run,
	.check_safe = 1,
};
