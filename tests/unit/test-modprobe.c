/* modprobe: community.general.modprobe's decisions and file edits
 * (lib/tune/modprobeconf.c) against the module's own code, and the
 * script's output as lib/remote/modprobe.c reads it. The line rules are a
 * table of the module's two regular expressions; where python3 and
 * community.general are installed, a few hundred random tasks and files are
 * also run through the module's main() (tests/data/modprobe/
 * ansible-modprobe.py) and must give the same "changed" and the same files,
 * byte for byte -- except where tcptune differs on purpose: a file the
 * module comments a line of comes out with every line break doubled there
 * (its '\n'.join of lines that keep their newline), and here as it was but
 * for the '#'. */
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "remote/modprobe.h"
#include "tune/modprobeconf.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "ansible-driver.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct lcase {
	const char	*line;
	int		 loads;		/* re_find_module matches */
	const char	*param;		/* re_get_params' group, NULL: none */
};

/* Each checked with Python's re against the module's expressions
 * (name "tcp_bbr"):
 * `^ *NAME *(?:[#;].*)?\n?\Z` and `^options NAME (\w+=\S+)
 * *(?:[#;].*)?\n?\Z`. */
static const struct lcase lines[] = {
	{ "tcp_bbr\n", 1, NULL },
	{ "tcp_bbr", 1, NULL },
	{ "   tcp_bbr   \n", 1, NULL },
	{ "tcp_bbr # loaded at boot\n", 1, NULL },
	{ "tcp_bbr;x\n", 1, NULL },
	{ "\ttcp_bbr\n", 0, NULL },
	{ "tcp_bbr\t\n", 0, NULL },
	{ "tcp_bbrx\n", 0, NULL },
	{ "#tcp_bbr\n", 0, NULL },
	{ "tcp_bbr x\n", 0, NULL },
	{ "options tcp_bbr a=1\n", 0, "a=1" },
	{ "options tcp_bbr a=1", 0, "a=1" },
	{ "options tcp_bbr a=1   # why\n", 0, "a=1" },
	{ "options tcp_bbr a=1#c\n", 0, "a=1#c" },
	{ "options tcp_bbr a=1#c d\n", 0, "a=1" },
	{ "options tcp_bbr a=1;c d;e\n", 0, "a=1" },
	{ "options tcp_bbr a=1;c;d\n", 0, "a=1;c;d" },
	{ "options tcp_bbr a=x,y,z\n", 0, "a=x,y,z" },
	{ "options tcp_bbr a=1 b=2\n", 0, NULL },
	{ "options tcp_bbr  a=1\n", 0, NULL },
	{ "options  tcp_bbr a=1\n", 0, NULL },
	{ " options tcp_bbr a=1\n", 0, NULL },
	{ "options tcp_bbr a-b=1\n", 0, NULL },
	{ "options tcp_bbr =1\n", 0, NULL },
	{ "options tcp_bbr a=\n", 0, NULL },
	{ "options tcp_bbr a=1\t\n", 0, NULL },
	{ "options tcp_bbrx a=1\n", 0, NULL },
};

static void
test_lines(void **state)
{
	const char	*v;
	size_t		 i, vl;
	int		 got;

	(void)state;
	for (i = 0; i < sizeof lines / sizeof lines[0]; i++) {
		const struct lcase *c = &lines[i];

		if (modprobe_line_loads(c->line, strlen(c->line), "tcp_bbr") !=
		    c->loads)
			fail_msg("'%s': loads should be %d", c->line, c->loads);
		got = modprobe_line_param(c->line, strlen(c->line), "tcp_bbr",
		    &v, &vl);
		if (got != (c->param != NULL) || (got && (vl !=
		    strlen(c->param) || memcmp(v, c->param, vl) != 0)))
			fail_msg("'%s': param should be %s, got %.*s", c->line,
			    c->param != NULL ? c->param : "none", got ? (int)vl :
			    4, got ? v : "none");
	}
	assert_true(modprobe_name_ok("tcp_bbr"));
	assert_true(modprobe_name_ok("snd-hda-intel"));
	assert_false(modprobe_name_ok("a.b"));
	assert_false(modprobe_name_ok("a+"));
	assert_false(modprobe_name_ok(""));
	assert_false(modprobe_name_ok(NULL));
}

/* The files after a plan: the texts given with the plan's edits made. */
static const char *
after(const struct modprobe_plan *p, const struct modprobe_file *files,
    size_t n, const char *path)
{
	size_t i;

	for (i = 0; i < p->nedits; i++) {
		if (strcmp(p->edits[i].path, path) == 0)
			return p->edits[i].text;
	}
	for (i = 0; i < n; i++) {
		if (strcmp(files[i].path, path) == 0)
			return files[i].text;
	}
	return NULL;
}

static void
test_plan(void **state)
{
	struct modprobe_task	 t = { "tcp_bbr", "a=1 b=2", 1,
		MODPROBE_PERSIST_PRESENT };
	struct modprobe_file	 load[] = {
		{ "/etc/modules-load.d/modules.conf", "# /etc/modules\nsch_fq\n" },
	};
	struct modprobe_file	 opt[] = {
		{ "/etc/modprobe.d/old.conf", "options tcp_bbr a=1\nblacklist x\n" },
	};
	struct modprobe_plan	 p;

	(void)state;
	/* Not loaded, not persistent, another file sets a=1 only. */
	modprobe_plan(&t, 0, load, 1, opt, 1, &p);
	assert_true(p.load);
	assert_false(p.unload);
	assert_true(p.persist_changed);
	assert_int_equal(p.nedits, 3);
	assert_string_equal(after(&p, load, 1,
	    "/etc/modules-load.d/tcp_bbr.conf"), "tcp_bbr\n");
	assert_string_equal(after(&p, opt, 1, "/etc/modprobe.d/old.conf"),
	    "#options tcp_bbr a=1\nblacklist x\n");
	assert_string_equal(after(&p, opt, 1, "/etc/modprobe.d/tcp_bbr.conf"),
	    "options tcp_bbr a=1\noptions tcp_bbr b=2\n");
	modprobe_plan_free(&p);

	/* Loaded, and the files as the task wants them: nothing to do,
	 * whichever files hold the lines and in whatever order. */
	{
		struct modprobe_file l2[] = {
			{ "/etc/modules-load.d/x.conf", "  tcp_bbr # ours\n" },
		};
		struct modprobe_file o2[] = {
			{ "/etc/modprobe.d/a.conf", "options tcp_bbr b=2\n" },
			{ "/etc/modprobe.d/b.conf", "options tcp_bbr a=1 ;\n" },
		};

		modprobe_plan(&t, 1, l2, 1, o2, 2, &p);
		assert_false(p.load);
		assert_false(p.persist_changed);
		assert_int_equal(p.nedits, 0);
		modprobe_plan_free(&p);

		/* absent: unload, and every such line commented out. */
		t.present = 0;
		t.persistent = MODPROBE_PERSIST_ABSENT;
		modprobe_plan(&t, 1, l2, 1, o2, 2, &p);
		assert_true(p.unload);
		assert_true(p.persist_changed);
		assert_int_equal(p.nedits, 3);
		assert_string_equal(after(&p, l2, 1,
		    "/etc/modules-load.d/x.conf"), "#  tcp_bbr # ours\n");
		assert_string_equal(after(&p, o2, 2, "/etc/modprobe.d/b.conf"),
		    "#options tcp_bbr a=1 ;\n");
		modprobe_plan_free(&p);
	}

	/* persistent disabled leaves the files alone. */
	t.present = 1;
	t.persistent = MODPROBE_PERSIST_DISABLED;
	modprobe_plan(&t, 1, load, 1, opt, 1, &p);
	assert_false(p.load);
	assert_false(p.persist_changed);
	assert_int_equal(p.nedits, 0);
	modprobe_plan_free(&p);

	/* No params wanted, one in a file: commented, and NAME.conf of
	 * modprobe.d becomes "\n", as the module writes it. */
	t.params = "";
	t.persistent = MODPROBE_PERSIST_PRESENT;
	modprobe_plan(&t, 1, load, 1, opt, 1, &p);
	assert_string_equal(after(&p, opt, 1, "/etc/modprobe.d/tcp_bbr.conf"),
	    "\n");
	modprobe_plan_free(&p);
}

static void
test_parse(void **state)
{
	const char	 out[] = "tcptune-modprobe 1\n@module\nloaded=0\n"
	    "@dry\nrc=1\nout=\nerr=modprobe: FATAL: Module x not found\n"
	    "@file\npath=/etc/modules-load.d/a.conf\nsum=1 2\n|a\n|b\\\\c\n"
	    "@file\npath=/etc/modprobe.d/b.conf\nsum=3 4\nno_newline=1\n|x\n"
	    "@done\n";
	struct modprobe_result	 r;
	char			*cause = NULL;

	(void)state;
	assert_int_equal(modprobe_parse(out, strlen(out), &r, &cause), 0);
	assert_int_equal(r.loaded, 0);
	assert_true(r.dry.ran);
	assert_int_equal(r.dry.rc, 1);
	assert_string_equal(r.dry.err, "modprobe: FATAL: Module x not found");
	assert_int_equal(r.nfiles, 2);
	assert_string_equal(r.files[0].path, "/etc/modules-load.d/a.conf");
	assert_string_equal(r.files[0].sum, "1 2");
	/* "|" lines are the file's bytes, not escaped. */
	assert_string_equal(r.files[0].text, "a\nb\\\\c\n");
	assert_string_equal(r.files[1].text, "x");
	assert_true(r.done);
	modprobe_result_clear(&r);

	/* Cut short, or not the script: refused. */
	assert_int_equal(modprobe_parse(out, strlen(out) - 6, &r, &cause), -1);
	assert_non_null(strstr(cause, "cut short"));
	free(cause);
	cause = NULL;
	assert_int_equal(modprobe_parse("hello\n", 6, &r, &cause), -1);
	assert_non_null(strstr(cause, "unexpected output"));
	free(cause);
}

/* ---- random cases against the module's own code */

#define NRANDOM	400

static const char *const pool[] = {
	"tcp_bbr\n", "  tcp_bbr  # c\n", "tcp_bbrx\n", "#tcp_bbr\n",
	"sch_fq\n", "\ttcp_bbr\n", "tcp_bbr", "\n", "# a comment\n",
	"options tcp_bbr a=1\n", "options tcp_bbr b=2\n",
	"options tcp_bbr a=1 b=2\n", "options tcp_bbr  a=1\n",
	"options tcp_bbr a=1#x y\n", "options tcp_bbr b=2 ;c\n",
	"options tcp_bbr a=2\n", "options sch_fq a=1\n", "options tcp_bbr a=1",
	"blacklist tcp_bbr\n", "options tcp-bbr a=1\n",
};
static const char *const params_pool[] = { "", "a=1", "a=1 b=2",
	"b=2  a=1", "a=2", "a=1 a=1" };
static const char *const file_names[] = { "tcp_bbr.conf", "other.conf",
	".hidden" };
static const char *const persists[] = { "disabled", "present", "absent" };

static char *
random_text(void)
{
	struct strbuf	sb;
	int		n = rand() % 4, i;

	strbuf_init(&sb);
	for (i = 0; i < n; i++) {
		const char *l = pool[rand() % (sizeof pool / sizeof pool[0])];

		/* A line without its newline only last. */
		strbuf_addstr(&sb, l);
		if (l[strlen(l) - 1] != '\n')
			break;
	}
	return strbuf_detach(&sb, NULL);
}

static json_t *
random_files(void)
{
	json_t	*o = json_object();
	size_t	 i;
	char	*t;

	for (i = 0; i < sizeof file_names / sizeof file_names[0]; i++) {
		if (rand() % 2 == 0)
			continue;
		t = random_text();
		json_object_set_new(o, file_names[i], json_string(t));
		free(t);
	}
	return o;
}

static json_t *
ansible_answers(json_t *cases)
{
	return ansible_driver("/usr/lib/python3/dist-packages/"
	    "ansible_collections/community/general/plugins/modules/"
	    "modprobe.py", "tests/data/modprobe/ansible-modprobe.py", cases);
}

/* text with every line break doubled, as the module's '\n'.join of
 * readlines() writes it. */
static char *
doubled(const char *text)
{
	struct strbuf	 sb;
	const char	*p = text, *nl;

	strbuf_init(&sb);
	while (*p != '\0') {
		nl = strchr(p, '\n');
		if (sb.len > 0)
			strbuf_addch(&sb, '\n');
		if (nl == NULL) {
			strbuf_addstr(&sb, p);
			break;
		}
		strbuf_add(&sb, p, (size_t)(nl - p) + 1);
		p = nl + 1;
	}
	return strbuf_detach(&sb, NULL);
}

/* The case's files of one directory as modprobe_files. */
static struct modprobe_file *
case_files(const json_t *o, const char *dir, size_t *n)
{
	struct modprobe_file	*f = xcalloc(json_object_size(o) + 1,
	    sizeof *f);
	const char		*k;
	json_t			*v;

	*n = 0;
	json_object_foreach((json_t *)o, k, v) {
		f[*n].path = xprintf("%s/%s", dir, k);
		f[(*n)++].text = json_string_value(v);
	}
	return f;
}

/* Every file of the module's answer (ans: {name: text}) must be ours
 * after the plan, byte for byte or (a file we comment a line of) with its
 * line breaks doubled; and we may make no file it does not. */
static int
compare_dir(size_t i, const json_t *ans, const struct modprobe_plan *p,
    const struct modprobe_file *f, size_t n, const char *dir,
    int *doubled_files)
{
	const char	*k, *ours, *old;
	json_t		*v;
	char		*path, *d;
	size_t		 j;
	int		 ok = 1;

	json_object_foreach((json_t *)ans, k, v) {
		path = xprintf("%s/%s", dir, k);
		ours = after(p, f, n, path);
		old = after(&(struct modprobe_plan){ 0 }, f, n, path);
		if (ours == NULL) {
			print_message("case %zu: %s: the module writes it, we "
			    "do not\n", i, path);
			ok = 0;
		} else if (strcmp(ours, json_string_value(v)) != 0) {
			d = doubled(ours);
			if (old != NULL && strcmp(old, ours) != 0 &&
			    strcmp(d, json_string_value(v)) == 0)
				(*doubled_files)++;
			else {
				print_message("case %zu: %s: module '%s', ours "
				    "'%s'\n", i, path, json_string_value(v),
				    ours);
				ok = 0;
			}
			free(d);
		}
		free(path);
	}
	for (j = 0; j < p->nedits; j++) {
		if (strncmp(p->edits[j].path, dir, strlen(dir)) == 0 &&
		    p->edits[j].old == NULL &&
		    json_object_get(ans, strrchr(p->edits[j].path, '/') + 1) ==
		    NULL) {
			print_message("case %zu: we write %s, the module does "
			    "not\n", i, p->edits[j].path);
			ok = 0;
		}
	}
	return ok;
}

static void
test_random_against_ansible(void **state)
{
	static const char *const names[] = { "tcp_bbr", "tcp-bbr", "sch_fq" };
	json_t			*cases = json_array(), *answers, *c, *a;
	struct modprobe_task	 t;
	struct modprobe_plan	 p;
	struct modprobe_file	*lf, *of;
	size_t			 i, j, nl, no, bad = 0;
	int			 doubled_files = 0, loaded, changed;

	(void)state;
	srand(23);
	for (i = 0; i < NRANDOM; i++)
		json_array_append_new(cases, json_pack("{s:s, s:s, s:s, s:s, "
		    "s:b, s:o, s:o}", "name", names[rand() % 3], "params",
		    params_pool[rand() % (sizeof params_pool /
		    sizeof params_pool[0])], "state", rand() % 2 ? "present" :
		    "absent", "persistent", persists[rand() % 3], "loaded",
		    rand() % 2, "load", random_files(), "opt", random_files()));
	if ((answers = ansible_answers(cases)) == NULL) {
		json_decref(cases);
		print_message("python3 or community.general missing: random "
		    "cases not compared\n");
		skip();
	}
	assert_int_equal(json_array_size(answers), NRANDOM);
	for (i = 0; i < NRANDOM; i++) {
		c = json_array_get(cases, i);
		a = json_array_get(answers, i);
		t.name = json_string_value(json_object_get(c, "name"));
		t.params = json_string_value(json_object_get(c, "params"));
		t.present = strcmp(json_string_value(json_object_get(c,
		    "state")), "present") == 0;
		t.persistent = strcmp(json_string_value(json_object_get(c,
		    "persistent")), "present") == 0 ? MODPROBE_PERSIST_PRESENT :
		    strcmp(json_string_value(json_object_get(c, "persistent")),
		    "absent") == 0 ? MODPROBE_PERSIST_ABSENT :
		    MODPROBE_PERSIST_DISABLED;
		loaded = json_is_true(json_object_get(c, "loaded"));
		lf = case_files(json_object_get(c, "load"), MODPROBE_LOAD_DIR,
		    &nl);
		of = case_files(json_object_get(c, "opt"), MODPROBE_OPTIONS_DIR,
		    &no);
		modprobe_plan(&t, loaded, lf, nl, of, no, &p);
		/* In check mode, as the module ran: a load or unload it would
		 * make counts. */
		changed = p.load || p.unload || p.persist_changed;
		if (changed != json_is_true(json_object_get(a, "changed"))) {
			print_message("case %zu: changed %d, the module's %d\n",
			    i, changed, !changed);
			bad++;
		}
		if (!compare_dir(i, json_object_get(a, "load"), &p, lf, nl,
		    MODPROBE_LOAD_DIR, &doubled_files) ||
		    !compare_dir(i, json_object_get(a, "opt"), &p, of, no,
		    MODPROBE_OPTIONS_DIR, &doubled_files))
			bad++;
		modprobe_plan_free(&p);
		for (j = 0; j < nl; j++)
			free((char *)lf[j].path);
		for (j = 0; j < no; j++)
			free((char *)of[j].path);
		free(lf);
		free(of);
	}
	print_message("%d random cases, %d files the module writes with "
	    "doubled line breaks\n", NRANDOM, doubled_files);
	json_decref(answers);
	json_decref(cases);
	assert_int_equal(bad, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_plan),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_random_against_ansible),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
