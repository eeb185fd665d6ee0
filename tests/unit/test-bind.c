/* Binding: every parameter type, defaults, each kind of error with its
 * exact position, templated values left for run time, run-time binding of
 * rendered values, and the real module tables. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "playbook/bind.h"
#include "yaml/diag.h"
#include "modules/mod-tcp_buffers.h"
#include "playbook/module.h"
#include "yaml/ydoc.h"

static const char *const modes[] = { "fast", "slow", "auto", NULL };

struct t_conf {
	struct module_conf	 hdr;
	const char		*s, *req, *mode, *path, *empty, *word;
	long long		 i, free_int;
	int			 b;
	double			 f;
	uint64_t		 size;
	const json_t		*l, *m;
};

#define AT(field)	offsetof(struct t_conf, field)

static const struct module_param t_params[] = {
	{ .name = "s", .type = PARAM_STR, .offset = AT(s), .def = "dflt" },
	{ .name = "req", .type = PARAM_STR, .offset = AT(req), .required = 1 },
	{ .name = "i", .type = PARAM_INT, .offset = AT(i), .def = "10",
	  .min = 1, .max = 600 },
	{ .name = "free_int", .type = PARAM_INT, .offset = AT(free_int) },
	{ .name = "b", .type = PARAM_BOOL, .offset = AT(b), .def = "true" },
	{ .name = "f", .type = PARAM_FLOAT, .offset = AT(f), .def = "0.1",
	  .min = 0, .max = 1 },
	{ .name = "size", .type = PARAM_SIZE, .offset = AT(size),
	  .def = "256MiB", .min = 4096, .max = 4294967295.0 },
	{ .name = "mode", .type = PARAM_CHOICE, .offset = AT(mode),
	  .def = "auto", .choices = modes },
	{ .name = "l", .type = PARAM_LIST, .offset = AT(l) },
	{ .name = "m", .type = PARAM_MAP, .offset = AT(m) },
	{ .name = "path", .type = PARAM_PATH, .offset = AT(path),
	  .def = "/etc/x.conf" },
	/* a string's default is its text, never read as YAML: "" is not
	 * null (which would be the text "None"), "no" not false */
	{ .name = "empty", .type = PARAM_STR, .offset = AT(empty), .def = "" },
	{ .name = "word", .type = PARAM_STR, .offset = AT(word), .def = "no" },
	{ .name = NULL },
};

/* cross-field rule: 'free_int' may not exceed 'i' */
static int
t_validate(const void *vconf, char **cause)
{
	const struct t_conf *conf = vconf;

	if (module_conf_given(t_params, conf, AT(free_int)) &&
	    conf->free_int > conf->i) {
		/* cmocka's fail() macro hides xalloc's */
		*cause = strdup("'free_int' must not exceed 'i'");
		return -1;
	}
	return 0;
}

static const struct module t_mod = {
	.name = "t",
	.summary = "test module",
	.params = t_params,
	.conf_size = sizeof(struct t_conf),
	.validate = t_validate,
};

struct bound {
	struct ydoc	*doc;
	json_t		*args;
	struct diag	 d;
	int		 r;
};

/* Bind the value of the first key of the YAML text against m. */
static void
bind_yaml(struct bound *b, const struct module *m, const char *yaml)
{
	char		*cause = NULL;
	struct ynode	*root;

	memset(b, 0, sizeof *b);
	b->doc = ydoc_load_buffer("playbooks/x.yml", yaml, strlen(yaml),
	    &cause);
	if (b->doc == NULL)
		fail_msg("%s", cause);
	root = ydoc_root(b->doc);
	assert_non_null(root);
	assert_int_equal(root->type, YNODE_MAP);
	b->r = bind_task_params(m, &root->keys[0]->pos, root->items[0],
	    &b->args, &b->d);
}

static void
bound_free(struct bound *b)
{
	json_decref(b->args);
	diag_clear(&b->d);
	ydoc_free(b->doc);
}

static void
assert_args(const json_t *args, const char *want)
{
	char *got = json_dumps(args, JSON_COMPACT | JSON_SORT_KEYS);

	if (strcmp(got, want) != 0)
		fail_msg("args\n  %s\nwant\n  %s", got, want);
	free(got);
}

static void
assert_diags(const struct diag *d, const char *const *want, size_t n)
{
	size_t i;

	for (i = 0; i < diag_count(d) && i < n; i++) {
		if (strcmp(diag_get(d, i), want[i]) != 0)
			fail_msg("error %zu:\n  %s\nwant\n  %s", i,
			    diag_get(d, i), want[i]);
	}
	if (diag_count(d) != n) {
		for (i = 0; i < diag_count(d); i++)
			print_error("got: %s\n", diag_get(d, i));
		fail_msg("%zu errors, want %zu", diag_count(d), n);
	}
}

static void
test_every_type_and_defaults(void **state)
{
	struct bound b;

	(void)state;
	bind_yaml(&b, &t_mod,
	    "t:\n"
	    "  req: 010\n"
	    "  i: \"42\"\n"
	    "  b: yes\n"
	    "  f: 0.25\n"
	    "  size: 16M\n"
	    "  mode: fast\n"
	    "  l: [a, 1]\n"
	    "  m: {k: v}\n"
	    "  path: /etc/sysctl.d/90-x.conf\n");
	assert_int_equal(b.r, 0);
	assert_int_equal(diag_count(&b.d), 0);
	/* req keeps the text as written; the rest typed; defaults filled */
	assert_args(b.args, "{\"b\":true,\"empty\":\"\",\"f\":0.25,\"i\":42,"
	    "\"l\":[\"a\",1],\"m\":{\"k\":\"v\"},\"mode\":\"fast\","
	    "\"path\":\"/etc/sysctl.d/90-x.conf\",\"req\":\"010\","
	    "\"s\":\"dflt\",\"size\":16777216,\"word\":\"no\"}");
	bound_free(&b);

	bind_yaml(&b, &t_mod, "t: {req: x}\n");
	assert_int_equal(b.r, 0);
	assert_args(b.args, "{\"b\":true,\"empty\":\"\",\"f\":0.10000000000000001,"
	    "\"i\":10,\"mode\":\"auto\",\"path\":\"/etc/x.conf\","
	    "\"req\":\"x\",\"s\":\"dflt\",\"size\":268435456,"
	    "\"word\":\"no\"}");
	bound_free(&b);
}

static void
test_sizes(void **state)
{
	static const struct {
		const char	*text;
		json_int_t	 bytes;
	} cases[] = {
		{ "4096", 4096 }, { "16M", 16777216 }, { "16MiB", 16777216 },
		{ "16MB", 16000000 }, { "1G", 1073741824 },
		{ "1GiB", 1073741824 }, { "1GB", 1000000000 },
		{ "64K", 65536 }, { "64KB", 64000 }, { "1.5M", 1572864 },
		{ "\"32 MiB\"", 33554432 },
	};
	struct bound	b;
	char		yaml[128];
	size_t		i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		snprintf(yaml, sizeof yaml, "t: {req: x, size: %s}\n",
		    cases[i].text);
		bind_yaml(&b, &t_mod, yaml);
		if (b.r != 0)
			fail_msg("%s: %s", cases[i].text, diag_get(&b.d, 0));
		assert_int_equal(json_integer_value(json_object_get(b.args,
		    "size")), cases[i].bytes);
		bound_free(&b);
	}
}

static void
test_bools(void **state)
{
	static const char *const yes[] = { "yes", "true", "on", "True",
	    "\"yes\"", "1", "\"y\"", NULL };
	static const char *const no[] = { "no", "false", "off", "NO", "0",
	    "\"false\"", "\"n\"", NULL };
	struct bound	b;
	char		yaml[128];
	size_t		i;

	(void)state;
	for (i = 0; yes[i] != NULL; i++) {
		snprintf(yaml, sizeof yaml, "t: {req: x, b: %s}\n", yes[i]);
		bind_yaml(&b, &t_mod, yaml);
		assert_int_equal(b.r, 0);
		assert_true(json_is_true(json_object_get(b.args, "b")));
		bound_free(&b);
	}
	for (i = 0; no[i] != NULL; i++) {
		snprintf(yaml, sizeof yaml, "t: {req: x, b: %s}\n", no[i]);
		bind_yaml(&b, &t_mod, yaml);
		assert_int_equal(b.r, 0);
		assert_true(json_is_false(json_object_get(b.args, "b")));
		bound_free(&b);
	}
}

static void
test_all_errors_at_once(void **state)
{
	static const char *const want[] = {
		"playbooks/x.yml:2:3: unknown parameter 'sise' for module 't' "
		    "(did you mean 'size'?)",
		"playbooks/x.yml:3:6: expected int for 'i', got string 'ten'",
		"playbooks/x.yml:4:6: expected bool for 'b', got string "
		    "'maybe'",
		"playbooks/x.yml:5:6: value 1.5 for 'f' is out of range 0.0 to "
		    "1.0",
		"playbooks/x.yml:6:9: expected size (bytes, or a number with K, "
		    "M, G, T, KiB, MiB, GiB, TiB, KB, MB, GB or TB) for 'size', "
		    "got string '16Q'",
		"playbooks/x.yml:7:9: invalid value 'fsat' for 'mode': choose "
		    "from fast, slow, auto (did you mean 'fast'?)",
		"playbooks/x.yml:8:6: expected list for 'l', got string 'a'",
		"playbooks/x.yml:9:6: expected mapping for 'm', got list",
		"playbooks/x.yml:10:9: 'path' must be an absolute path, got "
		    "'etc/x.conf'",
		"playbooks/x.yml:12:3: duplicate parameter 'i'",
		"playbooks/x.yml:13:3: unknown parameter 'zzzzz' for module "
		    "'t'",
		"playbooks/x.yml:1:1: missing required parameter 'req' for "
		    "module 't'",
	};
	struct bound b;

	(void)state;
	bind_yaml(&b, &t_mod,
	    "t:\n"
	    "  sise: 1\n"
	    "  i: ten\n"
	    "  b: maybe\n"
	    "  f: 1.5\n"
	    "  size: 16Q\n"
	    "  mode: fsat\n"
	    "  l: a\n"
	    "  m: [1]\n"
	    "  path: etc/x.conf\n"
	    "  free_int: 5\n"
	    "  i: 3\n"
	    "  zzzzz: 1\n");
	assert_int_equal(b.r, -1);
	assert_null(b.args);
	/* free_int has no bounds (min == max): no error for it */
	assert_diags(&b.d, want, sizeof want / sizeof want[0]);
	bound_free(&b);
}

static void
test_int_bounds_and_types(void **state)
{
	static const struct {
		const char *yaml, *want;
	} cases[] = {
		{ "t: {req: x, i: 700}\n", "playbooks/x.yml:1:16: value 700 for "
		    "'i' is out of range 1 to 600" },
		{ "t: {req: x, i: 0}\n", "playbooks/x.yml:1:16: value 0 for 'i' "
		    "is out of range 1 to 600" },
		{ "t: {req: x, i: 1.5}\n", "playbooks/x.yml:1:16: expected int "
		    "for 'i', got float 1.5" },
		{ "t: {req: x, i: true}\n", "playbooks/x.yml:1:16: expected int "
		    "for 'i', got bool true" },
		{ "t: {req: x, i: [1]}\n", "playbooks/x.yml:1:16: expected int "
		    "for 'i', got list" },
		{ "t: {req: x, f: abc}\n", "playbooks/x.yml:1:16: expected float "
		    "for 'f', got string 'abc'" },
		{ "t: {req: x, size: 1K}\n", "playbooks/x.yml:1:19: value 1024 "
		    "for 'size' is out of range 4096 to 4294967295 bytes" },
		{ "t: {req: x, size: -5}\n", "playbooks/x.yml:1:19: expected "
		    "size (bytes, or a number with K, M, G, T, KiB, MiB, GiB, "
		    "TiB, KB, MB, GB or TB) for 'size', got int -5" },
		{ "t: {req: [x]}\n", "playbooks/x.yml:1:10: expected string for "
		    "'req', got list" },
		{ "t: {req: x, free_int: 11}\n", "playbooks/x.yml:1:1: module "
		    "'t': 'free_int' must not exceed 'i'" },
		{ "t: [req]\n", "playbooks/x.yml:1:4: parameters of module 't' "
		    "must be a mapping, got list" },
		{ "t: req\n", "playbooks/x.yml:1:4: parameters of module 't' "
		    "must be a mapping, got string" },
		{ "t: {req: '{{ x'}\n", "playbooks/x.yml:1:10: invalid template "
		    "'{{ x': missing '}}'" },
	};
	struct bound	b;
	size_t		i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		bind_yaml(&b, &t_mod, cases[i].yaml);
		assert_int_equal(b.r, -1);
		assert_diags(&b.d, &cases[i].want, 1);
		bound_free(&b);
	}
}

static void
test_templated_values(void **state)
{
	uint64_t		 given = 0;
	struct bound	 b;
	json_t		*rendered, *args;
	char		*cause = NULL;
	struct ynode	*root;

	(void)state;
	/* "{{ }}" values cannot be checked until run time */
	bind_yaml(&b, &t_mod,
	    "t:\n"
	    "  req: x\n"
	    "  i: \"{{ duration }}\"\n"
	    "  size: \"{{ buf }}\"\n"
	    "  m: {a: \"{{ v }}\"}\n"
	    "  free_int: 99\n");
	assert_int_equal(b.r, 0);
	assert_string_equal(json_string_value(json_object_get(b.args, "i")),
	    "{{ duration }}");

	/* at run time: rendered "ten" for an int is an error at the value */
	root = ydoc_root(b.doc);
	rendered = json_deep_copy(b.args);
	json_object_set_new(rendered, "i", json_string("ten"));
	json_object_set_new(rendered, "size", json_integer(65536));
	assert_int_equal(bind_rendered_args(&t_mod, rendered, root->items[0],
	    &root->keys[0]->pos, &args, &given, &cause), -1);
	assert_null(args);
	assert_string_equal(cause, "playbooks/x.yml:3:6: expected int for "
	    "'i', got string 'ten'");
	free(cause);
	cause = NULL;

	/* a native int renders fine; validate runs now (free_int > i) */
	json_object_set_new(rendered, "i", json_integer(20));
	assert_int_equal(bind_rendered_args(&t_mod, rendered, root->items[0],
	    &root->keys[0]->pos, &args, &given, &cause), -1);
	assert_string_equal(cause, "playbooks/x.yml:1:1: module 't': "
	    "'free_int' must not exceed 'i'");
	free(cause);
	cause = NULL;

	/* strings convert; null means "not given": the default applies */
	json_object_set_new(rendered, "i", json_string("120"));
	json_object_set_new(rendered, "size", json_string("64MiB"));
	json_object_set_new(rendered, "mode", json_null());
	assert_int_equal(bind_rendered_args(&t_mod, rendered, root->items[0],
	    &root->keys[0]->pos, &args, &given, &cause), 0);
	assert_int_equal(json_integer_value(json_object_get(args, "i")), 120);
	assert_int_equal(json_integer_value(json_object_get(args, "size")),
	    67108864);
	assert_string_equal(json_string_value(json_object_get(args, "mode")),
	    "auto");
	json_decref(args);

	/* an unknown key at run time (cannot come from a loaded task, but
	 * the check holds) */
	json_object_set_new(rendered, "bogus", json_true());
	assert_int_equal(bind_rendered_args(&t_mod, rendered, NULL,
	    &root->keys[0]->pos, &args, &given, &cause), -1);
	assert_string_equal(cause, "playbooks/x.yml:1:1: unknown parameter "
	    "'bogus' for module 't'");
	free(cause);
	json_decref(rendered);
	bound_free(&b);
}

static void
test_real_modules(void **state)
{
	struct bound	 b;
	const struct module *m;
	size_t		 i;
	static const char *const sysctl_want[] = {
		"playbooks/x.yml:3:3: unknown parameter 'sysctl_fil' for module "
		    "'sysctl' (did you mean 'sysctl_file'?)",
	};
	static const char *const verify_want[] = {
		"playbooks/x.yml:2:13: expected int for 'duration', got string "
		    "'ten'",
		"playbooks/x.yml:3:18: invalid value 'revert' for "
		    "'on_regression': choose from fail, rollback, warn",
	};
	static const char *const missing_want[] = {
		"playbooks/x.yml:1:1: missing required parameter 'values' for "
		    "module 'sysctl'",
	};

	(void)state;
	bind_yaml(&b, module_find("sysctl"),
	    "sysctl:\n"
	    "  values: {net.ipv4.tcp_congestion_control: bbr}\n"
	    "  sysctl_fil: /etc/sysctl.d/x.conf\n");
	assert_diags(&b.d, sysctl_want, 1);
	bound_free(&b);

	bind_yaml(&b, module_find("sysctl"), "sysctl:\n");
	assert_diags(&b.d, missing_want, 1);
	bound_free(&b);

	bind_yaml(&b, module_find("iperf3_verify"),
	    "iperf3_verify:\n"
	    "  duration: ten\n"
	    "  on_regression: revert\n");
	assert_diags(&b.d, verify_want, 2);
	bound_free(&b);

	/* the free form of command */
	bind_yaml(&b, module_find("command"), "command: uptime\n");
	assert_int_equal(b.r, 0);
	assert_args(b.args, "{\"cmd\":\"uptime\",\"expect_rc\":0,"
	    "\"safe\":false,\"stdin_add_newline\":true,"
	    "\"strip_empty_ends\":true}");
	bound_free(&b);

	/* every module binds with no parameters unless it requires some, and
	 * every default in every table converts */
	for (i = 0; module_table[i] != NULL; i++) {
		const struct module_param *p;
		int required = 0;

		m = module_table[i];
		for (p = m->params; p->name != NULL; p++)
			required |= p->required;
		bind_yaml(&b, m, "x:\n");
		/* A module with a validate hook may reject no parameters;
		 * its defaults are then checked by the other cases. */
		if (m->validate != NULL && b.r != 0) {
			bound_free(&b);
			continue;
		}
		if (!required && b.r != 0)
			fail_msg("%s: %s", m->name, diag_get(&b.d, 0));
		for (p = m->params; p->name != NULL; p++) {
			if (!required && p->def != NULL &&
			    json_object_get(b.args, p->name) == NULL)
				fail_msg("%s: default of '%s' not filled",
				    m->name, p->name);
		}
		bound_free(&b);
	}
}

/* Bound at run time into the module's struct: typed fields, defaults, and
 * the given mask says which values the task's YAML set. */
static void
test_conf_binding(void **state)
{
	uint64_t		 given = 0;
	struct bound	 b;
	struct ynode	*root;
	struct t_conf	*conf;
	json_t		*rendered, *args;
	char		*cause = NULL;

	(void)state;
	bind_yaml(&b, &t_mod,
	    "t:\n"
	    "  req: x\n"
	    "  i: 42\n"
	    "  size: 16M\n"
	    "  l: [a]\n"
	    "  mode: \"{{ m }}\"\n");
	assert_int_equal(b.r, 0);
	root = ydoc_root(b.doc);
	rendered = json_deep_copy(b.args);
	/* a template that renders to null: not given, the default applies */
	json_object_set_new(rendered, "mode", json_null());
	assert_int_equal(bind_rendered_args(&t_mod, rendered, root->items[0],
	    &root->keys[0]->pos, &args, &given, &cause), 0);
	conf = bind_conf(&t_mod, args, given);
	assert_string_equal(conf->req, "x");
	assert_int_equal(conf->i, 42);
	assert_int_equal(conf->size, 16777216);
	assert_int_equal(json_array_size(conf->l), 1);
	assert_string_equal(conf->s, "dflt");
	assert_true(conf->b);
	assert_true(conf->f == 0.1);
	assert_string_equal(conf->mode, "auto");
	assert_string_equal(conf->path, "/etc/x.conf");
	assert_null(conf->m);
	assert_int_equal(conf->free_int, 0);
	assert_true(module_conf_given(t_params, conf, AT(req)));
	assert_true(module_conf_given(t_params, conf, AT(i)));
	assert_true(module_conf_given(t_params, conf, AT(size)));
	assert_true(module_conf_given(t_params, conf, AT(l)));
	assert_false(module_conf_given(t_params, conf, AT(s)));
	assert_false(module_conf_given(t_params, conf, AT(b)));
	assert_false(module_conf_given(t_params, conf, AT(mode)));
	assert_false(module_conf_given(t_params, conf, AT(path)));
	assert_false(module_conf_given(t_params, conf, AT(free_int)));
	free(conf);
	json_decref(args);

	/* ad hoc (no YAML): every value passed was given */
	json_object_clear(rendered);
	json_object_set_new(rendered, "req", json_string("y"));
	json_object_set_new(rendered, "s", json_string("dflt"));
	assert_int_equal(bind_rendered_args(&t_mod, rendered, NULL,
	    &root->keys[0]->pos, &args, &given, &cause), 0);
	conf = bind_conf(&t_mod, args, given);
	assert_true(module_conf_given(t_params, conf, AT(s)));
	assert_false(module_conf_given(t_params, conf, AT(i)));
	assert_int_equal(conf->i, 10);
	free(conf);
	json_decref(args);
	json_decref(rendered);
	bound_free(&b);
}

/* tcp_buffers's sysctl_file written as the default is still given (it
 * beats var tcptune_sysctl_file); left out, it is the default, not given. */
static void
test_sysctl_file_given(void **state)
{
	uint64_t		 given = 0;
	static const struct {
		const char	*yaml;
		int		 given;
	} cases[] = {
		{ "tcp_buffers: {sysctl_file: /etc/sysctl.d/90-tcptune.conf}\n",
		  1 },
		{ "tcp_buffers: {}\n", 0 },
		{ "tcp_buffers:\n", 0 },
	};
	const struct module		*m = module_find("tcp_buffers");
	struct tcp_buffers_conf		*conf;
	struct bound			 b;
	struct ynode			*root;
	json_t				*args;
	char				*cause = NULL;
	size_t				 i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		bind_yaml(&b, m, cases[i].yaml);
		assert_int_equal(b.r, 0);
		root = ydoc_root(b.doc);
		assert_int_equal(bind_rendered_args(m, b.args, root->items[0],
		    &root->keys[0]->pos, &args, &given, &cause), 0);
		conf = bind_conf(m, args, given);
		assert_string_equal(conf->sysctl_file,
		    "/etc/sysctl.d/90-tcptune.conf");
		assert_int_equal(module_conf_given(m->params, conf,
		    offsetof(struct tcp_buffers_conf, sysctl_file)),
		    cases[i].given);
		assert_int_equal(conf->ram_divisor, 64);
		free(conf);
		json_decref(args);
		bound_free(&b);
	}
}

/* `tcptune size` binds its KEY=VALUE words through tcp_buffers's table:
 * a word and the same value in a playbook are refused with the same
 * message, or accepted as the same value. */
static void
test_words_bind_as_yaml(void **state)
{
	static const struct {
		const char *param, *text, *msg;
	} refused[] = {
		{ "ram_divisor", "0", "value 0 for 'ram_divisor' is out of "
		    "range 1 to 65536" },
		{ "ram_divisor", "abc", "expected int for 'ram_divisor', got "
		    "string 'abc'" },
		{ "headroom", "0.5", "value 0.5 for 'headroom' is out of range "
		    "1.0 to 16.0" },
		{ "max_buffer", "1K", "value 1024 for 'max_buffer' is out of "
		    "range 4096 to 4294967295 bytes" },
		{ "allow_decrease", "maybe", "expected bool for "
		    "'allow_decrease', got string 'maybe'" },
	};
	static const struct {
		const char *param, *text, *json;
	} accepted[] = {
		{ "allow_decrease", "yes", "true" },
		{ "allow_decrease", "off", "false" },
		{ "ram_divisor", "62", "62" },
		{ "max_buffer", "16MiB", "16777216" },
		{ "rtt_ms", "90", "90.0" },
	};
	const struct module	*m = module_find("tcp_buffers");
	struct bound		 b;
	json_t			*v;
	char			 yaml[128], *msg = NULL, *got;
	size_t			 i;

	(void)state;
	for (i = 0; i < sizeof refused / sizeof refused[0]; i++) {
		assert_int_equal(bind_param_text(module_find_param(m,
		    refused[i].param), refused[i].text, &v, &msg), -1);
		assert_string_equal(msg, refused[i].msg);
		free(msg);
		snprintf(yaml, sizeof yaml, "tcp_buffers: {%s: %s}\n",
		    refused[i].param, refused[i].text);
		bind_yaml(&b, m, yaml);
		assert_int_equal(b.r, -1);
		assert_int_equal(diag_count(&b.d), 1);
		got = strstr(diag_get(&b.d, 0), ": ");
		assert_non_null(got);
		assert_string_equal(got + 2, refused[i].msg);
		bound_free(&b);
	}
	for (i = 0; i < sizeof accepted / sizeof accepted[0]; i++) {
		assert_int_equal(bind_param_text(module_find_param(m,
		    accepted[i].param), accepted[i].text, &v, &msg), 0);
		got = json_dumps(v, JSON_ENCODE_ANY);
		assert_string_equal(got, accepted[i].json);
		free(got);
		json_decref(v);
		snprintf(yaml, sizeof yaml, "tcp_buffers: {%s: %s}\n",
		    accepted[i].param, accepted[i].text);
		bind_yaml(&b, m, yaml);
		assert_int_equal(b.r, 0);
		got = json_dumps(json_object_get(b.args, accepted[i].param),
		    JSON_ENCODE_ANY);
		assert_string_equal(got, accepted[i].json);
		free(got);
		bound_free(&b);
	}
}

/* Every table binds into its module's struct: a field per row, inside the
 * struct and after its given mask, no two rows on one field, and few
 * enough rows for the mask. */
static void
test_module_confs(void **state)
{
	const struct module_param	*p, *q;
	const struct module		*m;
	size_t				 i, n;

	(void)state;
	for (i = 0; module_table[i] != NULL; i++) {
		m = module_table[i];
		for (n = 0, p = m->params; p->name != NULL; p++, n++) {
			if (p->offset < sizeof(struct module_conf) ||
			    p->offset >= m->conf_size)
				fail_msg("%s: '%s' is bound outside its conf",
				    m->name, p->name);
			for (q = m->params; q != p; q++) {
				if (q->offset == p->offset)
					fail_msg("%s: '%s' and '%s' share a "
					    "field", m->name, q->name, p->name);
			}
		}
		assert_true(n < 64);
	}
}

static void
test_did_you_mean(void **state)
{
	static const char *const words[] = { "hosts", "vars", "tasks",
	    "serial", NULL };

	(void)state;
	assert_int_equal(edit_distance("kitten", "sitting"), 3);
	assert_int_equal(edit_distance("", "abc"), 3);
	assert_int_equal(edit_distance("abc", "abc"), 0);
	assert_string_equal(did_you_mean("hostz", words, 4), "hosts");
	assert_string_equal(did_you_mean("taks", words, 4), "tasks");
	assert_string_equal(did_you_mean("seriel", words, 4), "serial");
	assert_null(did_you_mean("completely", words, 4));
	assert_null(did_you_mean("xy", words, 4));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_type_and_defaults),
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_bools),
		cmocka_unit_test(test_all_errors_at_once),
		cmocka_unit_test(test_int_bounds_and_types),
		cmocka_unit_test(test_templated_values),
		cmocka_unit_test(test_real_modules),
		cmocka_unit_test(test_conf_binding),
		cmocka_unit_test(test_sysctl_file_given),
		cmocka_unit_test(test_words_bind_as_yaml),
		cmocka_unit_test(test_module_confs),
		cmocka_unit_test(test_did_you_mean),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
