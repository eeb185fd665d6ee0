/* modprobe.sh's calls and output (see modprobe.h). */
#include "remote/modprobe.h"

#include <stdlib.h>
#include <string.h>

#include "base/shquote.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "remote/embedded.h"

/* Blank-separated words as one list value of sh words. */
static void
add_words(struct strbuf *sb, const char *s)
{
	const char	*w;
	char		*word;

	for (;;) {
		while (*s == ' ' || *s == '\t' || *s == '\n')
			s++;
		if (*s == '\0')
			break;
		w = s;
		while (*s != '\0' && *s != ' ' && *s != '\t' && *s != '\n')
			s++;
		word = xstrndup(w, (size_t)(s - w));
		if (sb->len > 0)
			strbuf_addch(sb, ' ');
		shquote_add(sb, word);
		free(word);
	}
}

void
modprobe_call(const struct modprobe_request *req, struct remote_call *call)
{
	struct strbuf	 params, writes;
	size_t		 i;

	strbuf_init(&params);
	strbuf_init(&writes);
	add_words(&params, req->params != NULL ? req->params : "");
	for (i = 0; i < req->nwrites; i++) {
		const struct modprobe_write *w = &req->writes[i];

		if (writes.len > 0)
			strbuf_addch(&writes, ' ');
		shquote_addv(&writes, (const char *const[]){ w->path, w->sum,
		    w->text, NULL });
	}
	remote_call(call, "modprobe", embedded_modprobe_sh,
	    (const struct remote_var[]){
		{ "MODE", req->write ? "write" : "read" },
		{ "NAME", req->name },
		{ "PARAMS", params.buf },
		{ "STATE", req->present ? "present" : "absent" },
		{ "ACTION", req->write && req->action != NULL ? req->action :
		    "" },
		{ "WRITES", writes.buf },
		{ NULL, NULL } });
	strbuf_release(&params);
	strbuf_release(&writes);
}

static struct modprobe_run *
run_of(struct modprobe_result *res, const char *section)
{
	if (strcmp(section, "dry") == 0)
		return &res->dry;
	if (strcmp(section, "load") == 0)
		return &res->load;
	if (strcmp(section, "unload") == 0)
		return &res->unload;
	return NULL;
}

/* The file being read ends: its text as sent, without the newline the
 * script added to a last line that had none. */
static void
file_end(struct modprobe_seen *f, struct strbuf *text, int no_newline)
{
	if (f == NULL)
		return;
	if (no_newline && text->len > 0)
		text->buf[--text->len] = '\0';
	f->text = strbuf_detach(text, NULL);
	strbuf_init(text);
}

int
modprobe_parse(const char *out, size_t len, struct modprobe_result *res,
    char **cause)
{
	const char		*p = out, *end = out + len, *nl, *eq;
	char			 section[16] = "";
	struct strbuf		 text;
	struct modprobe_seen	*f = NULL;
	struct modprobe_run	*run;
	int			 first = 1, no_newline = 0, r = -1;
	size_t			 n, kl, vl;

	memset(res, 0, sizeof *res);
	res->loaded = res->loaded_after = -1;
	strbuf_init(&text);
	for (; p < end; p = nl != NULL ? nl + 1 : end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		n = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);
		if (first) {
			if (n != 18 || memcmp(p, "tcptune-modprobe 1", 18) != 0) {
				fail(cause, "unexpected output from the modprobe "
				    "script: '%.*s'", (int)(n < 60 ? n : 60), p);
				goto out;
			}
			first = 0;
			continue;
		}
		if (n > 0 && p[0] == '|') {
			if (f == NULL) {
				fail(cause, "the modprobe script printed a "
				    "file's line outside a file");
				goto out;
			}
			strbuf_add(&text, p + 1, n - 1);
			strbuf_addch(&text, '\n');
			continue;
		}
		if (n > 0 && p[0] == '@') {
			file_end(f, &text, no_newline);
			f = NULL;
			no_newline = 0;
			if (n == 5 && memcmp(p, "@done", 5) == 0) {
				res->done = 1;
				continue;
			}
			vl = n - 1 < sizeof section - 1 ? n - 1 :
			    sizeof section - 1;
			memcpy(section, p + 1, vl);
			section[vl] = '\0';
			if (strcmp(section, "file") == 0) {
				res->files = xreallocarray(res->files,
				    res->nfiles + 1, sizeof *res->files);
				f = &res->files[res->nfiles++];
				memset(f, 0, sizeof *f);
			} else if ((run = run_of(res, section)) != NULL)
				run->ran = 1;
			continue;
		}
		if ((eq = memchr(p, '=', n)) == NULL)
			continue;
		kl = (size_t)(eq - p);
		vl = n - kl - 1;
#define IS(k) (kl == strlen(k) && memcmp(p, k, kl) == 0)
		if (f != NULL) {
			if (IS("path"))
				remote_value_set(&f->path, eq + 1, vl);
			else if (IS("sum"))
				remote_value_set(&f->sum, eq + 1, vl);
			else if (IS("no_newline"))
				no_newline = 1;
			else if (IS("error"))
				remote_value_set(&f->error, eq + 1, vl);
		} else if ((run = run_of(res, section)) != NULL) {
			if (IS("rc"))
				run->rc = remote_value_status(eq + 1, vl);
			else if (IS("out"))
				remote_value_set(&run->out, eq + 1, vl);
			else if (IS("err"))
				remote_value_set(&run->err, eq + 1, vl);
		} else if (strcmp(section, "write") == 0) {
			if (IS("status") && vl == 7 &&
			    memcmp(eq + 1, "written", 7) == 0)
				res->written++;
			else if (IS("error"))
				remote_value_add(&res->write_error, eq + 1, vl);
		} else if (IS("error"))
			remote_value_add(&res->error, eq + 1, vl);
		else if (IS("loaded")) {
			if (strcmp(section, "after") == 0)
				res->loaded_after = vl > 0 && eq[1] == '1';
			else
				res->loaded = vl > 0 && eq[1] == '1';
		} else if (IS("warn"))
			remote_value_set(&res->warn, eq + 1, vl);
#undef IS
	}
	file_end(f, &text, no_newline);
	if (!res->done) {
		fail(cause, "the modprobe script's output was cut short");
		goto out;
	}
	r = 0;
out:
	strbuf_release(&text);
	if (r != 0)
		modprobe_result_clear(res);
	return r;
}

static void
run_clear(struct modprobe_run *r)
{
	free(r->out);
	free(r->err);
}

void
modprobe_result_clear(struct modprobe_result *res)
{
	size_t i;

	free(res->error);
	run_clear(&res->dry);
	run_clear(&res->load);
	run_clear(&res->unload);
	free(res->warn);
	for (i = 0; i < res->nfiles; i++) {
		free(res->files[i].path);
		free(res->files[i].sum);
		free(res->files[i].text);
		free(res->files[i].error);
	}
	free(res->files);
	free(res->write_error);
	memset(res, 0, sizeof *res);
	res->loaded = res->loaded_after = -1;
}
