/* systemd.sh's calls and output (see systemd.h). */
#include "remote/systemd.h"

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
	const char		*p = out, *end = out + len, *nl, *eq;
	char			 section[16] = "";
	struct systemd_run	*run;
	int			 first = 1, r = -1;
	size_t			 n, kl, vl;

	memset(res, 0, sizeof *res);
	for (; p < end; p = nl != NULL ? nl + 1 : end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		n = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);
		if (first) {
			if (n != 17 || memcmp(p, "tcptune-systemd 1", 17) != 0) {
				fail(cause, "unexpected output from the systemd "
				    "script: '%.*s'", (int)(n < 60 ? n : 60), p);
				goto out;
			}
			first = 0;
			continue;
		}
		if (n > 0 && p[0] == '@') {
			if (n == 5 && memcmp(p, "@done", 5) == 0) {
				res->done = 1;
				continue;
			}
			vl = n - 1 < sizeof section - 1 ? n - 1 :
			    sizeof section - 1;
			memcpy(section, p + 1, vl);
			section[vl] = '\0';
			if ((run = run_of(res, section)) != NULL)
				run->ran = 1;
			continue;
		}
		if ((eq = memchr(p, '=', n)) == NULL)
			continue;
		kl = (size_t)(eq - p);
		vl = n - kl - 1;
#define IS(k) (kl == strlen(k) && memcmp(p, k, kl) == 0)
		if ((run = run_of(res, section)) != NULL) {
			if (IS("rc"))
				run->rc = remote_value_status(eq + 1, vl);
			else if (IS("out"))
				remote_value_set(&run->out, eq + 1, vl);
			else if (IS("err"))
				remote_value_set(&run->err, eq + 1, vl);
		} else if (IS("error"))
			remote_value_add(&res->error, eq + 1, vl);
		else if (strcmp(section, "show") == 0) {
			if (IS("LoadState"))
				remote_value_set(&res->load_state, eq + 1, vl);
			else if (IS("ActiveState"))
				remote_value_set(&res->active_state, eq + 1,
				    vl);
			else if (IS("SubState"))
				remote_value_set(&res->sub_state, eq + 1, vl);
			else if (IS("UnitFileState"))
				remote_value_set(&res->unit_file_state, eq + 1,
				    vl);
			else if (IS("LoadError"))
				remote_value_set(&res->load_error, eq + 1, vl);
		}
#undef IS
	}
	if (!res->done) {
		fail(cause, "the systemd script's output was cut short");
		goto out;
	}
	r = 0;
out:
	if (r != 0)
		systemd_result_clear(res);
	return r;
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
