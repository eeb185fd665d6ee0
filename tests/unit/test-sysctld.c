/* The sysctl.d precedence model: masking, lexical order across directories,
 * /etc/sysctl.conf last, key forms, comments, globs. */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "remote/sysctld.h"

/* Add a file with the given lines (NULL-terminated). */
static struct sysctld_file *
add(struct sysctld_set *set, const char *dir, const char *name, ...)
{
	struct sysctld_file	*f;
	va_list			 ap;
	const char		*line;
	char			 path[256], *cause = NULL;

	if (dir != NULL)
		snprintf(path, sizeof path, "%s/%s", dir, name);
	else
		snprintf(path, sizeof path, "%s", name);
	f = sysctld_add_file(set, path, dir);
	va_start(ap, name);
	while ((line = va_arg(ap, const char *)) != NULL)
		assert_int_equal(sysctld_add_line(f, line, &cause), 0);
	va_end(ap);
	return f;
}

static void
expect_winner(const struct sysctld_set *set, const char *key,
    const char *file, const char *value)
{
	const char	*wf = NULL, *wv = NULL;

	if (file == NULL) {
		assert_int_equal(sysctld_winner(set, key, &wf, &wv), 0);
		return;
	}
	assert_int_equal(sysctld_winner(set, key, &wf, &wv), 1);
	assert_string_equal(wf, file);
	assert_string_equal(wv, value);
}

static void
test_normalise(void **state)
{
	static const struct {
		const char	*in;
		const char	*out;
	} cases[] = {
		{ "net.ipv4.tcp_rmem", "net.ipv4.tcp_rmem" },
		{ "net/ipv4/tcp_rmem", "net.ipv4.tcp_rmem" },
		{ "  net/core/rmem_max\t", "net.core.rmem_max" },
		/* A VLAN interface eth0.1: the path form keeps the dot in
		 * the name, which the dotted form writes as '/'. */
		{ "net/ipv4/conf/eth0.1/rp_filter",
		  "net.ipv4.conf.eth0/1.rp_filter" },
		{ "net.ipv4.conf.eth0/1.rp_filter",
		  "net.ipv4.conf.eth0/1.rp_filter" },
		{ "-net/ipv4/tcp_rmem", "-net.ipv4.tcp_rmem" },
		{ "kernel", "kernel" },
	};
	char	*s;
	size_t	 i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		s = sysctld_key_normalise(cases[i].in);
		assert_string_equal(s, cases[i].out);
		free(s);
	}
}

static void
test_lines(void **state)
{
	struct sysctld_set	 set;
	struct sysctld_file	*f;
	char			*cause = NULL;

	(void)state;
	sysctld_init(&set);
	f = sysctld_add_file(&set, "/etc/sysctl.d/10-a.conf", "/etc/sysctl.d");
	assert_int_equal(sysctld_add_line(f, "# net.core.rmem_max = 1", &cause),
	    0);
	assert_int_equal(sysctld_add_line(f, "  ; net.core.rmem_max = 2",
	    &cause), 0);
	assert_int_equal(sysctld_add_line(f, "   ", &cause), 0);
	assert_int_equal(f->n, 0);
	assert_int_equal(sysctld_add_line(f,
	    "  net/ipv4/tcp_rmem =  4096\t87380 16777216  ", &cause), 0);
	assert_int_equal(sysctld_add_line(f, "-net.core.default_qdisc=fq",
	    &cause), 0);
	assert_int_equal(sysctld_add_line(f, "kernel.x =", &cause), 0);
	assert_int_equal(f->n, 3);
	assert_string_equal(f->entries[0].key, "net.ipv4.tcp_rmem");
	assert_string_equal(f->entries[0].value, "4096\t87380 16777216");
	assert_int_equal(f->entries[0].ignore_errors, 0);
	assert_string_equal(f->entries[1].key, "net.core.default_qdisc");
	assert_string_equal(f->entries[1].value, "fq");
	assert_int_equal(f->entries[1].ignore_errors, 1);
	assert_string_equal(f->entries[2].value, "");

	assert_int_equal(sysctld_add_line(f, "net.core.rmem_max 1", &cause),
	    -1);
	assert_non_null(strstr(cause, "without '='"));
	free(cause);
	assert_int_equal(sysctld_add_line(f, " = 1", &cause), -1);
	free(cause);
	assert_int_equal(f->n, 3);
	sysctld_free(&set);
}

/* The matrix: one key set in files across every directory. */
static void
test_precedence(void **state)
{
	struct sysctld_set		 set;
	const struct sysctld_file	**order;
	size_t				  n;

	(void)state;
	sysctld_init(&set);
	/* Added in an arbitrary order: precedence must not depend on it. */
	add(&set, "/usr/lib/sysctl.d", "50-default.conf",
	    "net.core.rmem_max = 100", "net.ipv4.tcp_wmem = 1 2 3", NULL);
	add(&set, "/etc/sysctl.d", "50-default.conf",
	    "net.core.rmem_max = 200", NULL);		/* masks /usr/lib */
	add(&set, "/lib/sysctl.d", "50-default.conf",
	    "net.core.rmem_max = 999", NULL);		/* masked too */
	add(&set, "/usr/lib/sysctl.d", "99-vendor.conf",
	    "net.core.wmem_max = 300", "net/core/rmem_default = 7", NULL);
	add(&set, "/run/sysctl.d", "60-run.conf",
	    "net.core.wmem_max = 250", "net.ipv4.tcp_mem = 1 1 1", NULL);
	add(&set, "/usr/local/lib/sysctl.d", "70-local.conf",
	    "; net.core.wmem_max = 1", "# net.core.rmem_max = 1",
	    "net.ipv4.tcp_mem = 2 2 2", NULL);
	add(&set, "/etc/sysctl.d", "10-early.conf",
	    "net.ipv4.tcp_slow_start_after_idle = 0",
	    "net.ipv4.tcp_congestion_control = bbr", NULL);
	add(&set, NULL, "/etc/sysctl.conf",
	    "net.ipv4.tcp_congestion_control = cubic", NULL);
	add(&set, "/etc/sysctl.d", "99-last.conf",
	    "net.ipv4.tcp_slow_start_after_idle = 1",
	    "net.ipv4.tcp_slow_start_after_idle = 0", NULL);

	/* Masking: the /etc file of a name hides /usr/lib's and /lib's. */
	assert_ptr_equal(sysctld_masked_by(&set, set.files[0]), set.files[1]);
	assert_ptr_equal(sysctld_masked_by(&set, set.files[2]), set.files[1]);
	assert_null(sysctld_masked_by(&set, set.files[1]));
	assert_null(sysctld_masked_by(&set, set.files[7]));
	/* All at once (what the probe uses): the same answers. */
	{
		const struct sysctld_file	**by;
		size_t				  i;

		by = calloc(set.n, sizeof *by);
		sysctld_masks(&set, by);
		for (i = 0; i < set.n; i++)
			assert_ptr_equal(by[i],
			    sysctld_masked_by(&set, set.files[i]));
		free(by);
	}
	expect_winner(&set, "net.core.rmem_max",
	    "/etc/sysctl.d/50-default.conf", "200");
	/* The masked file's other keys are gone with it. */
	expect_winner(&set, "net.ipv4.tcp_wmem", NULL, NULL);

	/* Lexical order of file names across directories: /usr/lib's 99
	 * beats /run's 60 for wmem_max. */
	expect_winner(&set, "net.core.wmem_max",
	    "/usr/lib/sysctl.d/99-vendor.conf", "300");
	expect_winner(&set, "net.ipv4.tcp_mem",
	    "/usr/local/lib/sysctl.d/70-local.conf", "2 2 2");
	/* Slash keys in a file match dotted queries and back. */
	expect_winner(&set, "net.core.rmem_default",
	    "/usr/lib/sysctl.d/99-vendor.conf", "7");
	expect_winner(&set, "net/core/rmem_default",
	    "/usr/lib/sysctl.d/99-vendor.conf", "7");
	/* /etc/sysctl.conf after every drop-in, even 99-last.conf. */
	expect_winner(&set, "net.ipv4.tcp_congestion_control",
	    "/etc/sysctl.conf", "cubic");
	/* Within a file, the later line wins. */
	expect_winner(&set, "net.ipv4.tcp_slow_start_after_idle",
	    "/etc/sysctl.d/99-last.conf", "0");
	expect_winner(&set, "net.core.default_qdisc", NULL, NULL);

	order = sysctld_order(&set, &n);
	assert_int_equal(n, 7);
	assert_string_equal(order[0]->path, "/etc/sysctl.d/10-early.conf");
	assert_string_equal(order[1]->path, "/etc/sysctl.d/50-default.conf");
	assert_string_equal(order[2]->path, "/run/sysctl.d/60-run.conf");
	assert_string_equal(order[3]->path,
	    "/usr/local/lib/sysctl.d/70-local.conf");
	assert_string_equal(order[4]->path, "/etc/sysctl.d/99-last.conf");
	assert_string_equal(order[5]->path,
	    "/usr/lib/sysctl.d/99-vendor.conf");
	assert_string_equal(order[6]->path, "/etc/sysctl.conf");
	free(order);
	sysctld_free(&set);
}

/* Debian's /etc/sysctl.d/99-sysctl.conf -> ../sysctl.conf and a mask by a
 * symlink to /dev/null (which the probe reads as an empty file). */
static void
test_debian_and_null_mask(void **state)
{
	struct sysctld_set	set;

	(void)state;
	sysctld_init(&set);
	add(&set, "/usr/lib/sysctl.d", "50-bbr.conf",
	    "net.ipv4.tcp_congestion_control = bbr", NULL);
	add(&set, "/etc/sysctl.d", "50-bbr.conf", NULL);	/* -> /dev/null */
	add(&set, "/etc/sysctl.d", "99-sysctl.conf",
	    "net.core.rmem_max = 1000", NULL);
	add(&set, "/usr/lib/sysctl.d", "99-zz.conf",
	    "net.core.rmem_max = 2000", NULL);
	add(&set, NULL, "/etc/sysctl.conf", "net.core.rmem_max = 1000", NULL);
	expect_winner(&set, "net.ipv4.tcp_congestion_control", NULL, NULL);
	expect_winner(&set, "net.core.rmem_max", "/etc/sysctl.conf", "1000");
	sysctld_free(&set);
}

/* Globs apply to matching keys, within one level, and lose to an explicit
 * assignment even one that comes earlier. */
static void
test_globs(void **state)
{
	struct sysctld_set		 set;
	const struct sysctld_entry	*e;
	const struct sysctld_file	*f;

	(void)state;
	sysctld_init(&set);
	add(&set, "/etc/sysctl.d", "10-explicit.conf",
	    "net.ipv4.conf.eth0.rp_filter = 1", NULL);
	add(&set, "/etc/sysctl.d", "90-glob.conf",
	    "net.ipv4.conf.*.rp_filter = 2", "-net.ipv4.tcp_*mem = 9", NULL);
	expect_winner(&set, "net.ipv4.conf.eth0.rp_filter",
	    "/etc/sysctl.d/10-explicit.conf", "1");
	expect_winner(&set, "net.ipv4.conf.eth1.rp_filter",
	    "/etc/sysctl.d/90-glob.conf", "2");
	expect_winner(&set, "net.ipv4.tcp_rmem", "/etc/sysctl.d/90-glob.conf",
	    "9");
	/* '*' does not cross a level. */
	expect_winner(&set, "net.ipv4.conf.eth1.x.rp_filter", NULL, NULL);
	e = sysctld_winner_entry(&set, "net.ipv4.tcp_wmem", &f);
	assert_non_null(e);
	assert_int_equal(e->ignore_errors, 1);
	assert_int_equal(e->glob, 1);
	assert_string_equal(sysctld_file_name(f), "90-glob.conf");
	sysctld_free(&set);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_normalise),
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_precedence),
		cmocka_unit_test(test_debian_and_null_mask),
		cmocka_unit_test(test_globs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
