/* The module table and the helpers every module shares. */
#include "playbook/module.h"

#include <stdlib.h>
#include <string.h>

#include "playbook/bind.h"
#include "base/xalloc.h"

extern const struct module mod_ping;
extern const struct module mod_probe;
extern const struct module mod_tcp_buffers;
extern const struct module mod_congestion;
extern const struct module mod_sysctl;
extern const struct module mod_posix_sysctl;
extern const struct module mod_route;
extern const struct module mod_iperf3_verify;
extern const struct module mod_command;
extern const struct module mod_shell;
extern const struct module mod_rollback;
extern const struct module mod_modprobe;
extern const struct module mod_debug;
extern const struct module mod_assert;
extern const struct module mod_fail;
extern const struct module mod_set_fact;
extern const struct module mod_include_vars;
extern const struct module mod_template;
extern const struct module mod_copy;
extern const struct module mod_lineinfile;
extern const struct module mod_file;
extern const struct module mod_stat;
extern const struct module mod_blockinfile;
extern const struct module mod_systemd;
extern const struct module mod_apt;
extern const struct module mod_wait_for_connection;
extern const struct module mod_reboot;
extern const struct module mod_validate_argument_spec;

const struct module *const module_table[] = {
	&mod_ping,
	&mod_probe,
	&mod_tcp_buffers,
	&mod_congestion,
	&mod_sysctl,
	&mod_posix_sysctl,
	&mod_route,
	&mod_iperf3_verify,
	&mod_command,
	&mod_shell,
	&mod_rollback,
	&mod_modprobe,
	&mod_debug,
	&mod_assert,
	&mod_fail,
	&mod_set_fact,
	&mod_include_vars,
	&mod_template,
	&mod_copy,
	&mod_lineinfile,
	&mod_file,
	&mod_stat,
	&mod_blockinfile,
	&mod_systemd,
	&mod_apt,
	&mod_wait_for_connection,
	&mod_reboot,
	&mod_validate_argument_spec,
	NULL,
};

int
module_answers(const struct module *m, const char *name)
{
	const char *const *a;

	if (strcmp(m->name, name) == 0)
		return 1;
	for (a = m->aliases; a != NULL && *a != NULL; a++) {
		if (strcmp(*a, name) == 0)
			return 1;
	}
	return 0;
}

const struct module *
module_find(const char *name)
{
	size_t i;

	for (i = 0; module_table[i] != NULL; i++) {
		if (strcmp(module_table[i]->name, name) == 0)
			return module_table[i];
	}
	for (i = 0; module_table[i] != NULL; i++) {
		if (module_answers(module_table[i], name))
			return module_table[i];
	}
	return NULL;
}

static int
in_names(const char *name, const char *const *names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (strcmp(names[i], name) == 0)
			return 1;
	}
	return 0;
}

const struct module *
module_find_task(const char *key, const char *const *given, size_t ngiven)
{
	const struct module	*m, *unclaimed = NULL;
	size_t			 i;

	for (i = 0; (m = module_table[i]) != NULL; i++) {
		if (!module_answers(m, key))
			continue;
		if (m->claims == NULL) {
			if (unclaimed == NULL)
				unclaimed = m;
		} else if (in_names(m->claims, given, ngiven))
			return m;
	}
	return unclaimed;
}

const struct module *
module_find_gatherer(void)
{
	size_t i;

	for (i = 0; module_table[i] != NULL; i++) {
		if (module_table[i]->gathers_facts)
			return module_table[i];
	}
	return NULL;
}

const struct module_param *
module_find_param(const struct module *m, const char *name)
{
	const struct module_param *p;

	for (p = m->params; p->name != NULL; p++) {
		if (strcmp(p->name, name) == 0)
			return p;
	}
	return NULL;
}

int
module_conf_given(const struct module_param *params, const void *conf,
    size_t off)
{
	const struct module_conf	*c = conf;
	const struct module_param	*p;

	for (p = params; p->name != NULL; p++) {
		if (p->offset == off)
			return (c->given >> (p - params)) & 1;
	}
	return 0;
}

const char *
param_type_name(enum param_type type)
{
	switch (type) {
	case PARAM_STR: return "string";
	case PARAM_INT: return "int";
	case PARAM_BOOL: return "bool";
	case PARAM_FLOAT: return "float";
	case PARAM_SIZE: return "size";
	case PARAM_CHOICE: return "choice";
	case PARAM_LIST: return "list";
	case PARAM_ANY: return "any";
	case PARAM_MAP: return "mapping";
	case PARAM_PATH: return "path";
	}
	return "?";
}

const char *
result_status_name(enum result_status s)
{
	switch (s) {
	case RESULT_OK: return "ok";
	case RESULT_CHANGED: return "changed";
	case RESULT_SKIPPED: return "skipped";
	case RESULT_FAILED: return "failed";
	case RESULT_UNREACHABLE: return "unreachable";
	}
	return "?";
}

void
module_result_clear(struct module_result *res)
{
	free(res->msg);
	free(res->diff);
	free(res->delegated);
	json_decref(res->data);
	memset(res, 0, sizeof *res);
}

void
module_result_transport_failed(struct module_result *res, enum tp_status st,
    char *cause)
{
	if (st == TP_UNREACHABLE || st == TP_HOSTKEY || st == TP_AUTH)
		res->status = RESULT_UNREACHABLE;
	else
		res->status = RESULT_FAILED;
	free(res->msg);
	res->msg = cause != NULL ? cause : xstrdup(tp_strerror(st));
}

void
module_result_unparsed(struct module_result *res, char *cause,
    const struct tp_result *tr)
{
	res->status = RESULT_FAILED;
	free(res->msg);
	res->msg = xprintf("%s (exit %d%s%.200s)", cause, tr->exit_status,
	    tr->err_len > 0 ? ": " : "", tr->err != NULL ? tr->err : "");
	free(cause);
}

int
module_call(const struct module *m, struct module_ctx *ctx,
    const json_t *args, uint64_t given, struct module_result *res)
{
	int (*fn)(struct module_ctx *, const void *, struct module_result *);
	void	*conf;
	int	 r, check = module_ctx_check(ctx);

	fn = check && !m->check_safe ? m->plan : m->run;
	if (check && !m->check_safe && fn == NULL) {
		res->status = RESULT_SKIPPED;
		res->msg = xprintf("skipped in check mode: '%s' changes the "
		    "host and cannot plan", m->name);
		return 0;
	}
	if (fn == NULL) {
		res->status = RESULT_FAILED;
		res->msg = xprintf("module '%s' is not implemented yet",
		    m->name);
		return 0;
	}
	conf = bind_conf(m, args, given);
	r = fn(ctx, conf, res);
	free(conf);
	return r;
}
