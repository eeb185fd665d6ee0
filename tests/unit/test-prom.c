/* report-prom: the exact textfile for a drift run (HELP/TYPE lines, label
 * escaping of \ " and newline, unreachable and failed hosts, a repeated
 * item written once), and prom_write's atomic replacement in a temporary
 * directory (content, mode 0644, no temporary file left behind, errors). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/report-prom.h"

static const struct prom_host hosts[] = {
	{ "web1", PROM_HOST_DRIFTED },
	{ "web2", PROM_HOST_IN_SYNC },
	{ "db1", PROM_HOST_UNREACHABLE },
	{ "db2", PROM_HOST_FAILED },
};

static const struct prom_item items[] = {
	{ "web1", "net.ipv4.tcp_rmem", "overridden" },
	{ "web1", "qdisc", "value" },
	{ "web1", "net.ipv4.tcp_rmem", "overridden" },	/* repeated */
};

static const struct prom_metrics metrics = {
	hosts, 4, items, 3, 1732960000.25, 12.5
};

static const char expected[] =
"# HELP tcptune_drift_items Drifted items (sysctl keys, files, qdiscs) of a host at the last check; absent when the host could not be checked.\n"
"# TYPE tcptune_drift_items gauge\n"
"tcptune_drift_items{host=\"web1\"} 2\n"
"tcptune_drift_items{host=\"web2\"} 0\n"
"# HELP tcptune_drift_item 1 for each drifted item of the last check, by host, key and cause.\n"
"# TYPE tcptune_drift_item gauge\n"
"tcptune_drift_item{host=\"web1\",key=\"net.ipv4.tcp_rmem\",cause=\"overridden\"} 1\n"
"tcptune_drift_item{host=\"web1\",key=\"qdisc\",cause=\"value\"} 1\n"
"# HELP tcptune_host_reachable 1 if tcptune reached the host over SSH at the last check, else 0.\n"
"# TYPE tcptune_host_reachable gauge\n"
"tcptune_host_reachable{host=\"web1\"} 1\n"
"tcptune_host_reachable{host=\"web2\"} 1\n"
"tcptune_host_reachable{host=\"db1\"} 0\n"
"tcptune_host_reachable{host=\"db2\"} 1\n"
"# HELP tcptune_host_in_sync 1 if the host was checked and nothing drifted, else 0.\n"
"# TYPE tcptune_host_in_sync gauge\n"
"tcptune_host_in_sync{host=\"web1\"} 0\n"
"tcptune_host_in_sync{host=\"web2\"} 1\n"
"tcptune_host_in_sync{host=\"db1\"} 0\n"
"tcptune_host_in_sync{host=\"db2\"} 0\n"
"# HELP tcptune_hosts Hosts of the last check by state.\n"
"# TYPE tcptune_hosts gauge\n"
"tcptune_hosts{state=\"in_sync\"} 1\n"
"tcptune_hosts{state=\"drifted\"} 1\n"
"tcptune_hosts{state=\"unreachable\"} 1\n"
"tcptune_hosts{state=\"failed\"} 1\n"
"# HELP tcptune_last_run_timestamp_seconds When the last drift check finished, in seconds since the epoch.\n"
"# TYPE tcptune_last_run_timestamp_seconds gauge\n"
"tcptune_last_run_timestamp_seconds 1732960000.250\n"
"# HELP tcptune_last_run_duration_seconds How long the last drift check took, in seconds.\n"
"# TYPE tcptune_last_run_duration_seconds gauge\n"
"tcptune_last_run_duration_seconds 12.500\n";

static void
test_render_exact(void **state)
{
	char *s;

	(void)state;
	s = prom_render(&metrics);
	/* the repeated item is one series and counts once */
	assert_string_equal(s, expected);
	free(s);
}

static void
test_escape(void **state)
{
	char *s;

	(void)state;
	s = prom_escape_label("a\\b\"c\nd");
	assert_string_equal(s, "a\\\\b\\\"c\\nd");
	free(s);
	s = prom_escape_label("");
	assert_string_equal(s, "");
	free(s);
	s = prom_escape_label("plain-host.example:22");
	assert_string_equal(s, "plain-host.example:22");
	free(s);
}

static void
test_render_escapes_labels(void **state)
{
	static const struct prom_host h[] = {
		{ "we\"ird\\host", PROM_HOST_DRIFTED },
	};
	static const struct prom_item it[] = {
		{ "we\"ird\\host", "key\nwith newline", "file \"z.conf\"" },
	};
	struct prom_metrics m = { h, 1, it, 1, 0, 0 };
	char *s;

	(void)state;
	s = prom_render(&m);
	assert_non_null(strstr(s,
	    "tcptune_drift_items{host=\"we\\\"ird\\\\host\"} 1\n"));
	assert_non_null(strstr(s, "tcptune_drift_item{host=\"we\\\"ird\\\\host\","
	    "key=\"key\\nwith newline\",cause=\"file \\\"z.conf\\\"\"} 1\n"));
	/* no raw newline inside any sample line */
	assert_null(strstr(s, "key\nwith"));
	free(s);
}

static void
test_render_empty(void **state)
{
	struct prom_metrics m = { NULL, 0, NULL, 0, 5, 0.001 };
	char *s;

	(void)state;
	s = prom_render(&m);
	/* every family keeps its HELP and TYPE even without samples */
	assert_non_null(strstr(s, "# TYPE tcptune_drift_items gauge\n"
	    "# HELP tcptune_drift_item "));
	assert_non_null(strstr(s, "tcptune_hosts{state=\"in_sync\"} 0\n"));
	assert_non_null(strstr(s,
	    "tcptune_last_run_timestamp_seconds 5.000\n"));
	assert_non_null(strstr(s,
	    "tcptune_last_run_duration_seconds 0.001\n"));
	free(s);
}

static char *
slurp(const char *path)
{
	FILE	*f = fopen(path, "r");
	char	*buf;
	long	 n;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static int
count_entries(const char *dir)
{
	DIR		*d = opendir(dir);
	struct dirent	*de;
	int		 n = 0;

	assert_non_null(d);
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") != 0 &&
		    strcmp(de->d_name, "..") != 0)
			n++;
	}
	closedir(d);
	return n;
}

static void
test_write_atomic(void **state)
{
	char		 dir[] = "/tmp/tcptune-prom-XXXXXX", *path, *text;
	char		*cause = NULL, *bad;
	struct stat	 st;
	FILE		*f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(asprintf(&path, "%s/tcptune.prom", dir) > 0, 1);

	/* an old file is replaced whole */
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("old content that is much longer than nothing\n", f);
	fclose(f);
	umask(077);	/* the file must be readable by the collector anyway */
	assert_int_equal(prom_write(path, &metrics, &cause), 0);
	umask(022);
	text = slurp(path);
	assert_string_equal(text, expected);
	free(text);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0644);
	assert_int_equal(count_entries(dir), 1);	/* no temporary left */

	/* a directory that does not exist: an error naming it */
	assert_int_equal(asprintf(&bad, "%s/missing/tcptune.prom", dir) > 0,
	    1);
	assert_int_equal(prom_write(bad, &metrics, &cause), -1);
	assert_non_null(cause);
	assert_non_null(strstr(cause, "cannot create a temporary file in"));
	assert_non_null(strstr(cause, "/missing'"));
	free(cause);
	cause = NULL;

	/* rename onto a directory fails: the temporary file is removed */
	free(bad);
	assert_int_equal(asprintf(&bad, "%s/sub", dir) > 0, 1);
	assert_int_equal(mkdir(bad, 0755), 0);
	assert_int_equal(prom_write(bad, &metrics, &cause), -1);
	assert_non_null(strstr(cause, "cannot rename"));
	free(cause);
	assert_int_equal(count_entries(dir), 2);	/* tcptune.prom, sub */
	assert_int_equal(count_entries(bad), 0);
	rmdir(bad);
	free(bad);

	unlink(path);
	free(path);
	assert_int_equal(rmdir(dir), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_render_exact),
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_render_escapes_labels),
		cmocka_unit_test(test_render_empty),
		cmocka_unit_test(test_write_atomic),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
