/* libFuzzer harness: the output of the modprobe script (modprobe_parse in
 * lib/remote/modprobe.c), which the host being changed prints, and the
 * files it shows through community.general.modprobe's rules
 * (modprobe_plan, lib/tune/modprobeconf.c): every task shape over them. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "remote/modprobe.h"
#include "tune/modprobeconf.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void
plan_all(const struct modprobe_result *res)
{
	static const char *const params[] = { "", "a=1 b=2" };
	struct modprobe_file	*load, *opt;
	struct modprobe_plan	 p;
	struct modprobe_task	 t;
	size_t			 i, nl = 0, no = 0;
	int			 k;

	load = calloc(res->nfiles + 1, sizeof *load);
	opt = calloc(res->nfiles + 1, sizeof *opt);
	if (load == NULL || opt == NULL)
		goto out;
	for (i = 0; i < res->nfiles; i++) {
		const struct modprobe_seen *f = &res->files[i];

		if (f->path == NULL || f->text == NULL)
			continue;
		if (strncmp(f->path, MODPROBE_LOAD_DIR "/",
		    strlen(MODPROBE_LOAD_DIR "/")) == 0)
			load[nl++] = (struct modprobe_file){ f->path, f->text };
		else
			opt[no++] = (struct modprobe_file){ f->path, f->text };
	}
	for (k = 0; k < 12; k++) {
		t.name = k % 2 ? "tcp_bbr" : "snd-hda";
		t.params = params[(k / 2) % 2];
		t.present = (k / 4) % 2;
		t.persistent = (enum modprobe_persist)(k % 3);
		modprobe_plan(&t, res->loaded == 1, load, nl, opt, no, &p);
		modprobe_plan_free(&p);
	}
out:
	free(load);
	free(opt);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct modprobe_result	 res;
	char			*cause = NULL, *text;

	/* Exactly size bytes, no NUL after them: the parser must stay inside
	 * what the transport gave it. */
	if ((text = malloc(size > 0 ? size : 1)) == NULL)
		return 0;
	memcpy(text, data, size);
	if (modprobe_parse(text, size, &res, &cause) == 0) {
		plan_all(&res);
		modprobe_result_clear(&res);
	}
	free(cause);
	free(text);
	return 0;
}
