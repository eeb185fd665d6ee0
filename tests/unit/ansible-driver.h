/* A test's cases through one of Ansible's own modules: a Python driver
 * under tests/data/ (it imports the module from Debian's packages) reads
 * the cases as JSON on stdin and prints a JSON list of the module's
 * answers. For the tests that compare tcptune's rules with Ansible's code
 * (test-sysctlconf.c, test-modprobe.c); header-only, as each test is one
 * program. Include it after base/xalloc.h, which must come before cmocka.h
 * (cmocka has a fail() macro of its own). */
#ifndef TCPTUNE_TEST_ANSIBLE_DRIVER_H
#define TCPTUNE_TEST_ANSIBLE_DRIVER_H

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* The answers of driver (a path under the source tree) to cases, or NULL
 * when python3 or module (the module's file) is not installed. */
static json_t *
ansible_driver(const char *module, const char *driver, json_t *cases)
{
	const char	*src = getenv("TCPTUNE_SRC");
	char		 in[] = "/tmp/tcptune-ansible-driver-XXXXXX", *cmd;
	json_t		*out;
	json_error_t	 err;
	FILE		*p;
	int		 fd;

	if (access(module, R_OK) != 0 ||
	    system("command -v python3 >/dev/null 2>&1") != 0)
		return NULL;
	fd = mkstemp(in);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(json_dump_file(cases, in, 0), 0);
	cmd = xprintf("python3 %s/%s <%s", src != NULL ? src : ".", driver, in);
	p = popen(cmd, "r");
	assert_non_null(p);
	out = json_loadf(p, 0, &err);
	pclose(p);
	unlink(in);
	free(cmd);
	if (out == NULL)
		fail_msg("%s: %s", driver, err.text);
	return out;
}

#endif
