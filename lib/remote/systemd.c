/* systemd.sh's calls and output (see systemd.h). */
#include "remote/systemd.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "remote/embedded.h"

void
systemd_call(const struct systemd_request *req, struct remote_call *call)
{
	remote_call(call, "systemd", embedded_systemd_sh,
	    (const struct remote_var[]){
		{ "MODE", req->write ? "write" : "read" },
		{ "UNIT", req->unit },
		{ "RELOAD", req->reload ? "1" : "0" },
		{ "ENABLE", req->write ? req->enable : NULL },
		{ "ACTION", req->write ? req->action : NULL },
		{ NULL, NULL } });
}

static struct systemd_run *
run_of(struct systemd_result *res, const char *section)
{
	if (strcmp(section, "reload") == 0)
		return &res->reload;
	if (strcmp(section, "enabled") == 0)
		return &res->enabled;
	if (strcmp(section, "enable") == 0)
		return &res->enable;
	if (strcmp(section, "action") == 0)
		return &res->action;
	return NULL;
}

int
systemd_parse(const char *out, size_t len, struct systemd_result *res,
    char **cause)
{
	static const struct { const char *key; size_t off; } show[] = {
		{ "LoadState", offsetof(struct systemd_result, load_state) },
		{ "ActiveState", offsetof(struct systemd_result, active_state) },
		{ "SubState", offsetof(struct systemd_result, sub_state) },
		{ "UnitFileState", offsetof(struct systemd_result,
		    unit_file_state) },
		{ "LoadError", offsetof(struct systemd_result, load_error) },
	};
	struct remote_reader	 rr;
	struct remote_line	 l;
	struct systemd_run	*run;
	size_t			 i;

	memset(res, 0, sizeof *res);
	if (remote_read_init(&rr, out, len, "tcptune-systemd 1",
	    "the systemd script", cause) != 0)
		return -1;
	while (remote_read_next(&rr, &l)) {
		run = run_of(res, rr.section);
		if (l.kind == '@') {
			if (run != NULL)
				run->ran = 1;
		} else if (l.kind != '=')
			continue;
		else if (run != NULL) {
			if (remote_key_is(&l, "rc"))
				run->rc = remote_value_status(l.val, l.vl);
			else if (remote_key_is(&l, "out"))
				remote_value_set(&run->out, l.val, l.vl);
			else if (remote_key_is(&l, "err"))
				remote_value_set(&run->err, l.val, l.vl);
		} else if (remote_key_is(&l, "error"))
			remote_value_add(&res->error, l.val, l.vl);
		else if (strcmp(rr.section, "show") == 0) {
			for (i = 0; i < sizeof show / sizeof show[0]; i++) {
				if (remote_key_is(&l, show[i].key))
					remote_value_set((char **)(void *)
					    ((char *)res + show[i].off),
					    l.val, l.vl);
			}
		}
	}
	if (!rr.done) {
		systemd_result_clear(res);
		return fail(cause, "the systemd script's output was cut "
		    "short");
	}
	return 0;
}

static void
run_clear(struct systemd_run *r)
{
	free(r->out);
	free(r->err);
}

void
systemd_result_clear(struct systemd_result *res)
{
	free(res->load_state);
	free(res->active_state);
	free(res->sub_state);
	free(res->unit_file_state);
	free(res->load_error);
	run_clear(&res->reload);
	run_clear(&res->enabled);
	run_clear(&res->enable);
	run_clear(&res->action);
	free(res->error);
	memset(res, 0, sizeof *res);
}
