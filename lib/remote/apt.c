/* apt.sh's calls and output (see apt.h). */
#include "remote/apt.h"

#include <stdlib.h>
#include <string.h>

#include "base/shquote.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "remote/embedded.h"

/* A list as one value of sh words (the prelude's convention). */
static char *
words(const char *const *v)
{
	struct strbuf sb;

	strbuf_init(&sb);
	if (v != NULL)
		shquote_addv(&sb, v);
	return strbuf_detach(&sb, NULL);
}

void
apt_call(const struct apt_request *req, struct remote_call *call)
{
	static const char *const modes[] = { "read", "simulate", "write" };
	char	*names = words(req->names), *list = words(req->list);
	char	*valid = xprintf("%lld", req->valid);

	remote_call(call, "apt", embedded_apt_sh, (const struct remote_var[]){
		{ "MODE", modes[req->mode] },
		{ "NAMES", names },
		{ "UPDATE", req->update ? "1" : "0" },
		{ "VALID", valid },
		{ "ACTION", req->action },
		{ "LIST", list },
		{ NULL, NULL } });
	free(names);
	free(list);
	free(valid);
}

static struct remote_run *
run_of(struct apt_result *res, const char *section)
{
	if (strcmp(section, "update") == 0)
		return &res->update;
	if (strcmp(section, "action") == 0)
		return &res->action;
	if (strcmp(section, "mark") == 0)
		return &res->mark;
	return NULL;
}

static void
pkg_field(struct apt_pkg_seen *p, const struct remote_line *l)
{
	if (remote_key_is(l, "name"))
		remote_value_set(&p->name, l->val, l->vl);
	else if (remote_key_is(l, "status"))
		remote_value_set(&p->status, l->val, l->vl);
	else if (remote_key_is(l, "version"))
		remote_value_set(&p->version, l->val, l->vl);
	else if (remote_key_is(l, "candidate"))
		remote_value_set(&p->candidate, l->val, l->vl);
	else if (remote_key_is(l, "known"))
		p->known = remote_value_status(l->val, l->vl) == 1;
}

int
apt_parse(const char *out, size_t len, struct apt_result *res, char **cause)
{
	struct remote_reader	 rr;
	struct remote_line	 l;
	struct remote_run	*run;

	memset(res, 0, sizeof *res);
	res->after = -1;
	if (remote_read_init(&rr, out, len, "tcptune-apt 1", "the apt script",
	    cause) != 0)
		return -1;
	while (remote_read_next(&rr, &l)) {
		run = run_of(res, rr.section);
		if (run != NULL) {
			remote_run_field(run, &l);
			continue;
		}
		if (l.kind == '@' && strcmp(rr.section, "pkg") == 0) {
			res->pkgs = xreallocarray(res->pkgs, res->npkgs + 1,
			    sizeof *res->pkgs);
			memset(&res->pkgs[res->npkgs], 0, sizeof *res->pkgs);
			res->npkgs++;
			continue;
		}
		if (l.kind != '=')
			continue;
		if (strcmp(rr.section, "cache") == 0) {
			if (remote_key_is(&l, "mtime"))
				res->mtime = remote_value_count(l.val, l.vl);
			else if (remote_key_is(&l, "after"))
				res->after = remote_value_count(l.val, l.vl);
			else if (remote_key_is(&l, "now"))
				res->now = remote_value_count(l.val, l.vl);
		} else if (strcmp(rr.section, "pkg") == 0 && res->npkgs > 0)
			pkg_field(&res->pkgs[res->npkgs - 1], &l);
	}
	if (!rr.done) {
		apt_result_clear(res);
		return fail(cause, "the apt script's output was cut short");
	}
	res->done = 1;
	return 0;
}

void
apt_result_clear(struct apt_result *res)
{
	size_t i;

	for (i = 0; i < res->npkgs; i++) {
		free(res->pkgs[i].name);
		free(res->pkgs[i].status);
		free(res->pkgs[i].version);
		free(res->pkgs[i].candidate);
	}
	free(res->pkgs);
	remote_run_clear(&res->update);
	remote_run_clear(&res->action);
	remote_run_clear(&res->mark);
	memset(res, 0, sizeof *res);
}
