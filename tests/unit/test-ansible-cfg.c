/* ansible.cfg as Ansible 2.14 reads it (lib/config/ansible-cfg.c): the
 * configparser dialect, malformed files named by line, hostile input
 * (NULs, huge lines, oversized files), value types, and which file wins. */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Before cmocka.h: its fail() macro would rewrite xalloc's prototype. */
#include "config/ansible-cfg.h"
#include "base/util.h"
#include "base/xalloc.h"

#include <cmocka.h>

static void
parse_ok(struct acfg *cfg, const char *text)
{
	char *cause = NULL;

	if (acfg_parse(cfg, "t.cfg", text, strlen(text), &cause) != 0)
		fail_msg("acfg_parse: %s", cause);
}

static const char *
get(const struct acfg *cfg, const char *section, const char *key)
{
	const struct acfg_entry *e = acfg_get(cfg, section, key);

	return e != NULL ? e->value : NULL;
}

/* The error for text, which must fail. */
static char *
parse_err(const char *text, size_t len)
{
	struct acfg	 cfg;
	char		*cause = NULL;

	if (acfg_parse(&cfg, "t.cfg", text, len, &cause) == 0)
		fail_msg("parsed, but should not have: %s", text);
	assert_non_null(cause);
	return cause;
}

static void
expect_err(const char *text, const char *want)
{
	char *cause = parse_err(text, strlen(text));

	assert_string_equal(cause, want);
	free(cause);
}

static void
test_dialect(void **state)
{
	struct acfg cfg;

	(void)state;
	parse_ok(&cfg,
	    "# a comment\n"
	    "; another\n"
	    "[defaults]\n"
	    "Inventory = hosts.yml\n"
	    "forks: 7\n"
	    "timeout = 5 ; inline comment\n"
	    "remote_user = a;b\n"
	    "private_key_file = k # not a comment\n"
	    "vault_identity_list = a = b: c\n"
	    "log_path=\n"
	    "  # a comment line inside is no continuation\n"
	    "\r\n"
	    "[Defaults]\n"
	    "forks = 99\r\n"
	    "[ssh_connection] trailing text\n"
	    "ssh_args = -F x\n");
	assert_string_equal(get(&cfg, "defaults", "inventory"), "hosts.yml");
	assert_string_equal(get(&cfg, "defaults", "forks"), "7");
	assert_string_equal(get(&cfg, "defaults", "timeout"), "5");
	assert_string_equal(get(&cfg, "defaults", "remote_user"), "a;b");
	assert_string_equal(get(&cfg, "defaults", "private_key_file"),
	    "k # not a comment");
	assert_string_equal(get(&cfg, "defaults", "vault_identity_list"),
	    "a = b: c");
	assert_string_equal(get(&cfg, "defaults", "log_path"), "");
	/* Section names are case-sensitive, keys are not. */
	assert_string_equal(get(&cfg, "Defaults", "forks"), "99");
	assert_string_equal(get(&cfg, "ssh_connection", "ssh_args"), "-F x");
	assert_int_equal(acfg_get(&cfg, "defaults", "forks")->line, 5);
	assert_null(get(&cfg, "privilege_escalation", "become"));
	acfg_clear(&cfg);
}

/* Indented lines continue a value; blank lines inside are kept, trailing
 * ones dropped; a comment line neither ends nor extends it. */
static void
test_continuation(void **state)
{
	struct acfg cfg;

	(void)state;
	parse_ok(&cfg,
	    "[defaults]\n"
	    "inventory = a,\n"
	    "    b,\n"
	    "\n"
	    "  # skipped\n"
	    "    c\n"
	    "\n"
	    "\n"
	    "forks = 3\n"
	    "  [not_a_section]\n");
	assert_string_equal(get(&cfg, "defaults", "inventory"),
	    "a,\nb,\n\nc");
	assert_string_equal(get(&cfg, "defaults", "forks"),
	    "3\n[not_a_section]");
	acfg_clear(&cfg);
}

/* [DEFAULT]'s keys are seen from a section that exists, only. */
static void
test_default_section(void **state)
{
	struct acfg cfg;

	(void)state;
	parse_ok(&cfg, "[DEFAULT]\nforks = 4\n[defaults]\ntimeout = 2\n"
	    "[DEFAULT]\nbecome = yes\n");
	assert_string_equal(get(&cfg, "defaults", "forks"), "4");
	assert_string_equal(get(&cfg, "defaults", "become"), "yes");
	assert_null(get(&cfg, "privilege_escalation", "become"));
	acfg_clear(&cfg);
}

static void
test_malformed(void **state)
{
	(void)state;
	expect_err("forks = 3\n", "t.cfg:1: no [section] header before this "
	    "line");
	expect_err("# c\n[defaults]\nforks = 3\njust words\n",
	    "t.cfg:4: not a [section], a 'key = value' line or a comment");
	expect_err("[defaults]\n= 3\n", "t.cfg:2: no key before '='");
	expect_err("[defaults]\nforks = 3\n\n[other]\n[defaults]\n",
	    "t.cfg:5: duplicate section [defaults]");
	expect_err("[defaults]\nforks = 3\nx = 1\nFORKS: 4\n",
	    "t.cfg:4: duplicate key 'forks' in [defaults]");
	expect_err("[]\n", "t.cfg:1: no [section] header before this line");
	expect_err("[defaults]\nfo\x1b[2Jo = 1\n", "t.cfg:2: control "
	    "character in a key or section name");
	expect_err("[de\tfaults]\n", "t.cfg:1: control character in a key "
	    "or section name");
	expect_err("\xef\xbb\xbf[defaults]\n", "t.cfg:1: starts with a byte "
	    "order mark (Ansible does not read it either)");
}

/* "[defaults]" then 5000 lines of fmt (with %zu): refused with want. */
static void
expect_many(const char *fmt, const char *want)
{
	char	*text, *line;
	size_t	 i, len = 0;

	text = xmalloc(5000 * 32);
	len = (size_t)sprintf(text, "[defaults]\n");
	for (i = 0; i < 5000; i++) {
		line = xprintf(fmt, i);
		memcpy(text + len, line, strlen(line) + 1);
		len += strlen(line);
		free(line);
	}
	line = parse_err(text, len);
	assert_string_equal(line, want);
	free(line);
	free(text);
}

static void
test_hostile(void **state)
{
	static const char nul[] = "[defaults]\n\nforks = 3\0\n";
	struct acfg	 cfg;
	char		*cause, *big, path[] = "/tmp/test-acfg-XXXXXX.cfg";
	size_t		 n = 1024 * 1024;
	int		 fd;

	(void)state;
	cause = parse_err(nul, sizeof nul - 1);
	assert_string_equal(cause, "t.cfg:3: NUL byte");
	free(cause);

	/* A 1 MiB value parses, whole. */
	big = xmalloc(n + 32);
	memcpy(big, "[defaults]\nremote_user = ", 25);
	memset(big + 25, 'u', n);
	strcpy(big + 25 + n, "\n");
	parse_ok(&cfg, big);
	assert_int_equal(strlen(get(&cfg, "defaults", "remote_user")), n);
	acfg_clear(&cfg);
	/* Not UTF-8 passes, as in Ansible: a Latin-1 comment is common. */
	parse_ok(&cfg, "[defaults]\n# caf\xe9\nforks = 3\n");
	assert_string_equal(get(&cfg, "defaults", "forks"), "3");
	acfg_clear(&cfg);

	/* 350k continuation lines: linear, not quadratic. */
	big[0] = '\0';
	strcpy(big, "[defaults]\nk = v\n");
	for (size_t i = strlen(big); i + 3 < n; i += 3)
		memcpy(big + i, " x\n", 4);
	parse_ok(&cfg, big);
	assert_true(strlen(get(&cfg, "defaults", "k")) > 600000);
	acfg_clear(&cfg);

	/* Keys and sections are bounded: lookups stay cheap. */
	expect_many("k%zu = 1\n", "t.cfg:4097: more than 4096 keys and "
	    "sections: not an ansible.cfg");
	expect_many("[s%zu]\n", "t.cfg:4097: more than 4096 keys and "
	    "sections: not an ansible.cfg");

	/* A file over the bound is refused before it is parsed. */
	fd = mkstemps(path, 4);
	assert_true(fd >= 0);
	for (size_t i = 0; i <= ACFG_MAX_SIZE / n; i++)
		assert_int_equal(write(fd, big, n), (ssize_t)n);
	close(fd);
	assert_int_equal(acfg_load(&cfg, path, &cause), -1);
	assert_non_null(strstr(cause, "larger than 4 MiB"));
	free(cause);
	unlink(path);
	free(big);

	/* Only .cfg and .ini, as Ansible. */
	assert_int_equal(acfg_load(&cfg, "/etc/passwd", &cause), -1);
	assert_string_equal(cause, "/etc/passwd: not a .cfg or .ini file "
	    "(Ansible reads no other kind)");
	free(cause);
}

static void
test_bool_int(void **state)
{
	static const char *const yes[] = { "yes", "Y", "on", "1", "TRUE",
	    "t", " True ", NULL };
	static const char *const no[] = { "no", "n", "OFF", "0", "false", "F",
	    NULL };
	char		*cause = NULL;
	int		 b;
	long long	 v;
	size_t		 i;

	(void)state;
	for (i = 0; yes[i] != NULL; i++) {
		assert_int_equal(acfg_to_bool(yes[i], &b, NULL), 0);
		assert_int_equal(b, 1);
	}
	for (i = 0; no[i] != NULL; i++) {
		assert_int_equal(acfg_to_bool(no[i], &b, NULL), 0);
		assert_int_equal(b, 0);
	}
	assert_int_equal(acfg_to_bool("Flase", &b, &cause), -1);
	assert_string_equal(cause, "expected a boolean (yes/no, true/false, "
	    "on/off, 1/0)");
	free(cause);
	assert_int_equal(acfg_to_bool("", &b, NULL), -1);

	assert_int_equal(acfg_to_int(" 12 ", 1, 100, &v, NULL), 0);
	assert_int_equal(v, 12);
	assert_int_equal(acfg_to_int("+3", 1, 100, &v, NULL), 0);
	assert_int_equal(v, 3);
	assert_int_equal(acfg_to_int("5 # five", 1, 100, &v, NULL), -1);
	assert_int_equal(acfg_to_int("", 1, 100, &v, NULL), -1);
	assert_int_equal(acfg_to_int("  ", 1, 100, &v, NULL), -1);
	assert_int_equal(acfg_to_int("0", 1, 100, &v, &cause), -1);
	assert_string_equal(cause, "expected an integer 1..100");
	free(cause);
	assert_int_equal(acfg_to_int("99999999999999999999", 1, 100, &v,
	    NULL), -1);
}

static void
expect_path(const char *value, const char *base, const char *want)
{
	char *out = NULL, *cause = NULL;

	if (acfg_to_path(value, base, &out, &cause) != 0)
		fail_msg("acfg_to_path(%s): %s", value, cause);
	assert_string_equal(out, want);
	free(out);
}

static void
test_string_path(void **state)
{
	char	*out = NULL, *cause = NULL, *cwd;

	(void)state;
	assert_int_equal(acfg_to_string("\"root\"", &out, NULL), 0);
	assert_string_equal(out, "root");
	free(out);
	assert_int_equal(acfg_to_string("'a\\'", &out, NULL), 0);
	assert_string_equal(out, "'a\\'");
	free(out);
	assert_int_equal(acfg_to_string("\"a'", &out, NULL), 0);
	assert_string_equal(out, "\"a'");
	free(out);
	assert_int_equal(acfg_to_string("two\nlines", &out, &cause), -1);
	free(cause);

	setenv("HOME", "/home/op", 1);
	setenv("ACFG_TEST_DIR", "/srv/x", 1);
	unsetenv("ACFG_TEST_UNSET");
	expect_path("~/.ssh/id", "/b", "/home/op/.ssh/id");
	expect_path("~", "/b", "/home/op");
	expect_path("keys/../id", "/b/c", "/b/c/id");
	expect_path("./a//b/.", "/b", "/b/a/b");
	expect_path("/abs/../../x", "/b", "/x");
	expect_path("$ACFG_TEST_DIR/k", "/b", "/srv/x/k");
	expect_path("${ACFG_TEST_DIR}k", "/b", "/srv/xk");
	expect_path("$ACFG_TEST_UNSET/k", "/b", "/b/$ACFG_TEST_UNSET/k");
	cwd = getcwd(NULL, 0);
	out = xprintf("%s/inv", cwd);
	expect_path("{{CWD}}/inv", "/b", out);
	free(out);
	free(cwd);
}

static void
expect_list(char **items, size_t n, const char *const *want)
{
	size_t i;

	for (i = 0; want[i] != NULL; i++) {
		assert_true(i < n);
		assert_string_equal(items[i], want[i]);
	}
	assert_int_equal(n, i);
	names_free(items, n);
}

static void
test_lists_words(void **state)
{
	static const char *const l1[] = { "a", "b c", "d", NULL };
	static const char *const l2[] = { "/cfg/hosts", "/cfg/more/dir",
	    "/etc/x", NULL };
	static const char *const w1[] = { "-C", "-o", "ControlMaster=auto",
	    "-F", "my config", "-oUserKnownHostsFile=/k h", "a\"b", NULL };
	char	**items = NULL, *cause = NULL;
	size_t	  n = 0;

	(void)state;
	assert_int_equal(acfg_to_list(" a , 'b c',,\"d\" ,", &items, &n,
	    NULL), 0);
	expect_list(items, n, l1);
	assert_int_equal(acfg_to_pathlist("hosts,\n  more/dir, /etc/x",
	    "/cfg", &items, &n, NULL), 0);
	expect_list(items, n, l2);
	assert_int_equal(acfg_split_words("-C -o ControlMaster=auto "
	    "-F 'my config'  -o\"UserKnownHostsFile=/k h\" a\\\"b", &items, &n,
	    NULL), 0);
	expect_list(items, n, w1);
	assert_int_equal(acfg_split_words("-o 'open", &items, &n, &cause),
	    -1);
	assert_string_equal(cause, "no closing quotation");
	free(cause);
}

static char *
make_dir(const char *base, const char *name, mode_t mode, int with_cfg)
{
	char	*dir = xprintf("%s/%s", base, name), *f;
	FILE	*fp;

	assert_int_equal(mkdir(dir, 0755), 0);
	assert_int_equal(chmod(dir, mode), 0);
	if (with_cfg) {
		f = xprintf("%s/%s", dir, strcmp(name, "home") == 0 ?
		    ".ansible.cfg" : "ansible.cfg");
		assert_non_null(fp = fopen(f, "w"));
		fputs("[defaults]\n", fp);
		fclose(fp);
		free(f);
	}
	return dir;
}

static void
expect_found(const struct acfg_where *w, const char *want,
    const char *want_warning)
{
	char *warning = NULL, *found = acfg_find(w, &warning);

	if (want == NULL)
		assert_null(found);
	else
		assert_string_equal(found, want);
	if (want_warning == NULL)
		assert_null(warning);
	else
		assert_non_null(strstr(warning, want_warning));
	free(found);
	free(warning);
}

/* $ANSIBLE_CONFIG, then ./ansible.cfg (not in a world-writable directory),
 * then ~/.ansible.cfg, then the system file; the first that exists wins. */
static void
test_find(void **state)
{
	char			 base[] = "/tmp/test-acfg-find-XXXXXX";
	char			*env, *cwd, *open_dir, *home, *empty, *want;
	struct acfg_where	 w;

	(void)state;
	assert_non_null(mkdtemp(base));
	env = make_dir(base, "env", 0755, 1);
	cwd = make_dir(base, "cwd", 0755, 1);
	open_dir = make_dir(base, "open", 0777, 1);
	home = make_dir(base, "home", 0755, 1);
	empty = make_dir(base, "empty", 0755, 0);

	w.env_config = env;		/* a directory: its ansible.cfg */
	w.cwd = cwd;
	w.home = home;
	w.system = "/nonexistent/ansible.cfg";
	want = xprintf("%s/ansible.cfg", env);
	expect_found(&w, want, NULL);
	free(want);
	w.env_config = "/nonexistent/x.cfg";	/* missing: the next wins */
	want = xprintf("%s/ansible.cfg", cwd);
	expect_found(&w, want, NULL);
	free(want);
	w.env_config = NULL;
	w.cwd = open_dir;		/* skipped, with a warning */
	want = xprintf("%s/.ansible.cfg", home);
	expect_found(&w, want, "world-writable");
	w.home = empty;
	expect_found(&w, NULL, "world-writable");
	w.cwd = empty;
	w.system = want;		/* any readable file will do */
	expect_found(&w, want, NULL);
	/* ANSIBLE_CONFIG chose the file: no warning about ./ansible.cfg. */
	w.cwd = open_dir;
	w.env_config = want;
	expect_found(&w, want, NULL);
	free(want);

	want = xprintf("rm -rf '%s'", base);
	assert_int_equal(system(want), 0);
	free(want);
	free(env);
	free(cwd);
	free(open_dir);
	free(home);
	free(empty);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dialect),
		cmocka_unit_test(test_continuation),
		cmocka_unit_test(test_default_section),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_bool_int),
		cmocka_unit_test(test_string_path),
		cmocka_unit_test(test_lists_words),
		cmocka_unit_test(test_find),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
