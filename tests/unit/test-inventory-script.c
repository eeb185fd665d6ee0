/* inventory_run_script (lib/inventory/inventory-dynamic.c) on small /bin/sh scripts:
 * stdout and stderr captured apart, the first stderr line in the error of a
 * failing script, a signal, a program that cannot be run, and the timeout
 * killing the script's whole process group (a background child included).
 * The script's clean environment: tcptune's secrets (TCPTUNE_*) never
 * reach it, PATH and the locale do. Also inventory_source_is_script and
 * inventory_parse_list_json. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "inventory/inventory-dynamic.h"
#include "inventory/inventory.h"

static char dir[] = "/tmp/tcptune-script-XXXXXX";

static char *
script(const char *name, const char *body, int mode)
{
	char	*path;
	FILE	*f;

	assert_true(asprintf(&path, "%s/%s", dir, name) > 0);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(body, f);
	fclose(f);
	assert_int_equal(chmod(path, mode), 0);
	return path;
}

static void
test_output(void **state)
{
	char	*p, *argv[3], *out = NULL, *err = NULL, *cause = NULL;
	size_t	 len = 0;

	(void)state;
	p = script("ok.sh", "#!/bin/sh\necho \"out $1\"\necho err >&2\n",
	    0755);
	argv[0] = p;
	argv[1] = "--list";
	argv[2] = NULL;
	assert_int_equal(inventory_run_script(argv, 5, &out, &len, &err,
	    &cause), 0);
	assert_string_equal(out, "out --list\n");
	assert_int_equal(len, 11);
	assert_string_equal(err, "err\n");
	free(out);
	free(err);
	free(p);
}

static void
test_failures(void **state)
{
	char	*p, *argv[2], *cause = NULL, *want;

	(void)state;
	p = script("fail.sh", "#!/bin/sh\necho partial\nprintf 'first\\r\\n"
	    "second\\n' >&2\nexit 4\n", 0755);
	argv[0] = p;
	argv[1] = NULL;
	assert_int_equal(inventory_run_script(argv, 5, NULL, NULL, NULL,
	    &cause), -1);
	assert_true(asprintf(&want, "'%s' exited with status 4: first",
	    p) > 0);
	assert_string_equal(cause, want);
	free(want);
	free(cause);
	free(p);

	p = script("sig.sh", "#!/bin/sh\nkill -TERM $$\n", 0755);
	argv[0] = p;
	assert_int_equal(inventory_run_script(argv, 5, NULL, NULL, NULL,
	    &cause), -1);
	assert_true(asprintf(&want, "'%s' was killed by signal %d", p,
	    SIGTERM) > 0);
	assert_string_equal(cause, want);
	free(want);
	free(cause);
	free(p);

	p = script("interp.sh", "#!/nonexistent/interpreter\n", 0755);
	argv[0] = p;
	assert_int_equal(inventory_run_script(argv, 5, NULL, NULL, NULL,
	    &cause), -1);
	assert_true(asprintf(&want, "'%s' cannot be run: No such file or "
	    "directory", p) > 0);
	assert_string_equal(cause, want);
	free(want);
	free(cause);
	free(p);
}

static void
test_timeout_kills_group(void **state)
{
	char		*p, *argv[2], *cause = NULL, *pidfile, buf[32];
	struct timespec	 t0, t1;
	FILE		*f;
	long		 ms;
	pid_t		 child;

	(void)state;
	assert_true(asprintf(&pidfile, "%s/child.pid", dir) > 0);
	assert_true(asprintf(&p, "%s/slow.sh", dir) > 0);
	free(p);
	{
		char *body;

		/* a background child that keeps stdout open, then a hang */
		assert_true(asprintf(&body, "#!/bin/sh\nsleep 60 &\n"
		    "echo $! >'%s'\nsleep 60\n", pidfile) > 0);
		p = script("slow.sh", body, 0755);
		free(body);
	}
	argv[0] = p;
	argv[1] = NULL;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(inventory_run_script(argv, 1, NULL, NULL, NULL,
	    &cause), -1);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ms = (t1.tv_sec - t0.tv_sec) * 1000 +
	    (t1.tv_nsec - t0.tv_nsec) / 1000000;
	assert_true(ms >= 900 && ms < 3000);
	assert_non_null(strstr(cause, "' timed out after 1 s"));
	free(cause);

	f = fopen(pidfile, "r");
	assert_non_null(f);
	assert_non_null(fgets(buf, sizeof buf, f));
	fclose(f);
	child = (pid_t)atol(buf);
	assert_true(child > 0);
	/* killed with its group; it may linger a moment as a zombie of init */
	{
		int i, gone = 0;

		for (i = 0; i < 100 && !gone; i++) {
			char	 path[64], st[256];
			FILE	*s;

			snprintf(path, sizeof path, "/proc/%ld/stat",
			    (long)child);
			if ((s = fopen(path, "r")) == NULL) {
				gone = 1;
				break;
			}
			if (fgets(st, sizeof st, s) != NULL &&
			    strstr(st, ") Z ") != NULL)
				gone = 1;
			fclose(s);
			usleep(20000);
		}
		assert_true(gone);
	}
	unlink(pidfile);
	free(pidfile);
	free(p);
}

static void
test_env_filter(void **state)
{
	char *const	 env[] = {
		"TCPTUNE_INVENTORY_TOKEN=tok-s3cret",
		"PATH=/usr/bin:/bin",
		"TCPTUNE_WEBHOOK=https://hooks.example/services/XXsecretXX",
		"HOME=/var/lib/tcptune",
		"SSH_AUTH_SOCK=/tmp/ssh-agent.sock",
		"USER=tcptune",
		"LOGNAME=tcptune",
		"LANG=C.UTF-8",
		"LC_ALL=C",
		"LC_TIME=en_GB.UTF-8",
		"TZ=UTC",
		"TMPDIR=/tmp",
		"ANSIBLE_INVENTORY_CACHE=1",
		"AWS_SECRET_ACCESS_KEY=aws-s3cret",
		"NETBOX_TOKEN=nb-token",
		"https_proxy=http://proxy:3128",
		"NO_PROXY=.internal",
		"SSL_CERT_FILE=/etc/ssl/ca.pem",
		"TCPTUNE_CA_BUNDLE=/etc/tcptune/ca.pem",
		"TCPTUNE_INVENTORY_SCRIPT_ENV=NETBOX_TOKEN, TCPTUNE_WEBHOOK",
		"PATHX=no",
		"XPATH=no",
		"=nameless",
		"LC_",
		NULL
	};
	const char	*want[] = { "PATH=/usr/bin:/bin",
	    "HOME=/var/lib/tcptune", "USER=tcptune", "LOGNAME=tcptune",
	    "LANG=C.UTF-8", "LC_ALL=C", "LC_TIME=en_GB.UTF-8", "TZ=UTC",
	    "TMPDIR=/tmp", "ANSIBLE_INVENTORY_CACHE=1", "NETBOX_TOKEN=nb-token",
	    "https_proxy=http://proxy:3128", "NO_PROXY=.internal",
	    "SSL_CERT_FILE=/etc/ssl/ca.pem", NULL };
	char		**got;
	size_t		 i;

	(void)state;
	got = inventory_script_env(env);
	for (i = 0; want[i] != NULL; i++) {
		assert_non_null(got[i]);
		assert_string_equal(got[i], want[i]);
	}
	assert_null(got[i]);
	inventory_script_env_free(got);

	/* without the extra list, NETBOX_TOKEN goes too */
	got = inventory_script_env((char *const[]){ "NETBOX_TOKEN=x",
	    "TZ=UTC", NULL });
	assert_string_equal(got[0], "TZ=UTC");
	assert_null(got[1]);
	inventory_script_env_free(got);
}

/* A script run by inventory_run_script sees PATH, never the secrets. */
static void
test_env_of_script(void **state)
{
	char	*p, *argv[2], *out = NULL, *cause = NULL, *lines;
	size_t	 len = 0;

	(void)state;
	setenv("TCPTUNE_INVENTORY_TOKEN", "tok-s3cret", 1);
	setenv("TCPTUNE_WEBHOOK", "https://hooks.example/XXsecretXX", 1);
	setenv("PATH", "/usr/bin:/bin", 1);
	setenv("LC_ALL", "C", 1);
	p = script("env.sh", "#!/bin/sh\nexec env\n", 0755);
	argv[0] = p;
	argv[1] = NULL;
	assert_int_equal(inventory_run_script(argv, 5, &out, &len, NULL,
	    &cause), 0);
	/* one NAME=value a line; a newline first so each line starts "\n" */
	assert_true(asprintf(&lines, "\n%s", out) > 0);
	assert_non_null(strstr(lines, "\nPATH=/usr/bin:/bin\n"));
	assert_non_null(strstr(lines, "\nLC_ALL=C\n"));
	assert_null(strstr(lines, "TCPTUNE_"));
	assert_null(strstr(lines, "s3cret"));
	assert_null(strstr(lines, "XXsecretXX"));
	free(lines);
	free(out);
	free(p);
	unsetenv("TCPTUNE_INVENTORY_TOKEN");
	unsetenv("TCPTUNE_WEBHOOK");
}

static void
test_is_script(void **state)
{
	char *a, *b, *c, *d;

	(void)state;
	a = script("x.sh", "#!/bin/sh\n", 0755);
	b = script("y.yml", "all:\n  hosts: {a: }\n", 0755);
	c = script("z.sh", "#!/bin/sh\n", 0644);
	d = script("elf", "\177ELF\002\001", 0755);
	assert_true(inventory_source_is_script(a));
	assert_false(inventory_source_is_script(b));
	assert_false(inventory_source_is_script(c));
	assert_true(inventory_source_is_script(d));
	assert_false(inventory_source_is_script(dir));
	assert_false(inventory_source_is_script("/nonexistent/x"));
	free(a);
	free(b);
	free(c);
	free(d);
}

static void
test_parse(void **state)
{
	char	*cause = NULL;
	json_t	*j;

	(void)state;
	assert_null(inventory_parse_list_json("{\"a\": [", 7, "U", &cause));
	assert_non_null(strstr(cause, "U: invalid JSON at line 1 column "));
	free(cause);
	assert_null(inventory_parse_list_json("[1]", 3, "U", &cause));
	assert_string_equal(cause, "U: dynamic inventory must be a JSON "
	    "object");
	free(cause);
	assert_null(inventory_parse_list_json("", 0, "U", &cause));
	assert_string_equal(cause, "U: empty answer, expected a JSON object");
	free(cause);
	j = inventory_parse_list_json("{\"web\": [\"a\"]}", 14, "U", &cause);
	assert_non_null(j);
	json_decref(j);
}

static int
setup(void **state)
{
	(void)state;
	return mkdtemp(dir) == NULL ? -1 : 0;
}

static int
teardown(void **state)
{
	char *cmd;
	int r;

	(void)state;
	if (asprintf(&cmd, "rm -rf '%s'", dir) < 0)
		return -1;
	r = system(cmd);
	free(cmd);
	return r == 0 ? 0 : -1;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_output),
		cmocka_unit_test(test_failures),
		cmocka_unit_test(test_timeout_kills_group),
		cmocka_unit_test(test_env_filter),
		cmocka_unit_test(test_env_of_script),
		cmocka_unit_test(test_is_script),
		cmocka_unit_test(test_parse),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
