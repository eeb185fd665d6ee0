/* Dynamic inventories over HTTP(S) and from executable scripts; see
 * inventory-dynamic.h. Both end in inventory_add_list_json. */
#include "inventory/inventory-dynamic.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "net/http.h"
#include "inventory/inventory.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

#define SCRIPT_MAX_OUTPUT	(64 * 1024 * 1024)

json_t *
inventory_parse_list_json(const char *buf, size_t len, const char *origin,
    char **cause)
{
	json_error_t	 e;
	json_t		*j;

	if (len == 0) {
		fail(cause, "%s: empty answer, expected a JSON object", origin);
		return NULL;
	}
	if ((j = json_loadb(buf, len, 0, &e)) == NULL) {
		fail(cause, "%s: invalid JSON at line %d column %d: %s", origin,
		    e.line, e.column, e.text);
		return NULL;
	}
	if (!json_is_object(j)) {
		json_decref(j);
		fail(cause, "%s: dynamic inventory must be a JSON object",
		    origin);
		return NULL;
	}
	return j;
}

int
inventory_add_url(struct inventory *inv, const char *url, char **cause)
{
	struct http_opts	 opts = { 0 };
	struct http_response	 resp = { 0 };
	const char		*token;
	char			*warning = NULL, *shown = NULL;
	json_t			*j = NULL;
	int			 r = -1;

	if (http_url_check(url, &warning, cause) != 0)
		goto out;
	if (warning != NULL)
		inv_warn(inv, "inventory %s", warning);
	token = getenv(INVENTORY_TOKEN_ENV);
	opts.bearer_token = (token != NULL && *token != '\0') ? token : NULL;
	opts.attempts = 3;
	if (http_get(url, &opts, &resp, cause) != 0)
		goto out;
	shown = http_url_redact(url);
	if ((j = inventory_parse_list_json(resp.body, resp.len, shown,
	    cause)) == NULL)
		goto out;
	r = inventory_add_list_json(inv, j, shown, cause);
out:
	json_decref(j);
	http_response_clear(&resp);
	free(shown);
	free(warning);
	return r;
}

/* ---- scripts ---- */

int
inventory_source_is_script(const char *path)
{
	struct stat	st;
	char		magic[4];
	ssize_t		n;
	int		fd;

	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) ||
	    access(path, X_OK) != 0)
		return 0;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return 0;
	n = read(fd, magic, sizeof magic);
	close(fd);
	if (n >= 2 && magic[0] == '#' && magic[1] == '!')
		return 1;
	return n == 4 && memcmp(magic, "\177ELF", 4) == 0;
}

/* Kept for every script: see inventory_script_env in the header. */
static const char *const script_env_names[] = { "PATH", "HOME", "USER",
    "LOGNAME", "LANG", "LANGUAGE", "TZ", "TMPDIR", "http_proxy",
    "https_proxy", "no_proxy", "all_proxy", "HTTP_PROXY", "HTTPS_PROXY",
    "NO_PROXY", "ALL_PROXY", "SSL_CERT_FILE", "SSL_CERT_DIR", NULL };
static const char *const script_env_prefixes[] = { "LC_", "ANSIBLE_",
    NULL };

/* name (n bytes) is a word of list, words separated by spaces or commas. */
static int
listed(const char *list, const char *name, size_t n)
{
	const char	*p;
	size_t		 len;

	if (list == NULL)
		return 0;
	for (p = list; *p != '\0'; p += len) {
		p += strspn(p, " \t,");
		len = strcspn(p, " \t,");
		if (len == n && strncmp(p, name, n) == 0)
			return 1;
	}
	return 0;
}

static int
script_env_keeps(const char *name, size_t n, const char *extra)
{
	size_t i;

	if (n == 0 || (n >= 8 && strncmp(name, "TCPTUNE_", 8) == 0))
		return 0;
	for (i = 0; script_env_names[i] != NULL; i++) {
		if (strlen(script_env_names[i]) == n &&
		    strncmp(name, script_env_names[i], n) == 0)
			return 1;
	}
	for (i = 0; script_env_prefixes[i] != NULL; i++) {
		if (strncmp(name, script_env_prefixes[i],
		    strlen(script_env_prefixes[i])) == 0)
			return 1;
	}
	return listed(extra, name, n);
}

char **
inventory_script_env(char *const env[])
{
	const char	*extra = NULL, *eq;
	char		**out;
	size_t		 n = 0, i, len = strlen(INVENTORY_SCRIPT_ENV_EXTRA);

	for (i = 0; env[i] != NULL; i++) {
		if (strncmp(env[i], INVENTORY_SCRIPT_ENV_EXTRA, len) == 0 &&
		    env[i][len] == '=')
			extra = env[i] + len + 1;
	}
	out = xcalloc(i + 1, sizeof *out);
	for (i = 0; env[i] != NULL; i++) {
		if ((eq = strchr(env[i], '=')) != NULL &&
		    script_env_keeps(env[i], (size_t)(eq - env[i]), extra))
			out[n++] = xstrdup(env[i]);
	}
	out[n] = NULL;
	return out;
}

void
inventory_script_env_free(char **env)
{
	size_t i;

	if (env == NULL)
		return;
	for (i = 0; env[i] != NULL; i++)
		free(env[i]);
	free(env);
}

static long
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The first line of s, at most 300 bytes (allocated). */
static char *
first_line(const char *s)
{
	size_t n = strcspn(s, "\r\n");

	return xstrndup(s, n > 300 ? 300 : n);
}

static void
close_fd(int *fd)
{
	if (*fd != -1)
		close(*fd);
	*fd = -1;
}

int
inventory_run_script(char *const argv[], int timeout, char **out,
    size_t *outlen, char **err, char **cause)
{
	struct strbuf	 bufs[2];
	int		 opipe[2] = { -1, -1 }, epipe[2] = { -1, -1 };
	int		 xpipe[2] = { -1, -1 }, devnull = -1;
	int		 status = 0, xerr, done = 0, timed_out = 0, r = -1;
	long		 deadline;
	pid_t		 pid = -1, w;
	char		*line, **envp;
	ssize_t		 n;

	/* built before the fork: the child may only make signal-safe calls */
	envp = inventory_script_env(environ);
	strbuf_init(&bufs[0]);
	strbuf_init(&bufs[1]);
	if (out != NULL)
		*out = NULL;
	if (err != NULL)
		*err = NULL;
	if ((devnull = open("/dev/null", O_RDONLY | O_CLOEXEC)) == -1 ||
	    pipe2(opipe, O_CLOEXEC) != 0 || pipe2(epipe, O_CLOEXEC) != 0 ||
	    pipe2(xpipe, O_CLOEXEC) != 0) {
		fail(cause, "'%s' cannot be run: %s", argv[0],
		    strerror(errno));
		goto out;
	}
	if ((pid = fork()) == -1) {
		fail(cause, "'%s' cannot be run: %s", argv[0],
		    strerror(errno));
		goto out;
	}
	if (pid == 0) {
		/* only async-signal-safe calls until exec */
		setpgid(0, 0);
		signal(SIGPIPE, SIG_DFL);
		if (dup2(devnull, 0) == -1 || dup2(opipe[1], 1) == -1 ||
		    dup2(epipe[1], 2) == -1)
			goto child_fail;
		execve(argv[0], argv, envp);
child_fail:
		xerr = errno;
		if (write(xpipe[1], &xerr, sizeof xerr) < 0)
			_exit(127);
		_exit(127);
	}
	/* also from here, so the kill below never misses the group */
	setpgid(pid, pid);
	close_fd(&opipe[1]);
	close_fd(&epipe[1]);
	close_fd(&xpipe[1]);
	close_fd(&devnull);

	/* the exec-error pipe closes on a successful exec */
	if (read(xpipe[0], &xerr, sizeof xerr) == (ssize_t)sizeof xerr) {
		waitpid(pid, NULL, 0);
		pid = -1;
		fail(cause, "'%s' cannot be run: %s", argv[0], strerror(xerr));
		goto out;
	}

	deadline = now_ms() + (long)timeout * 1000;
	while (opipe[0] != -1 || epipe[0] != -1) {
		struct pollfd	pfd[2];
		long		left = deadline - now_ms();
		int		i, rc;

		if (left <= 0) {
			timed_out = 1;
			break;
		}
		pfd[0].fd = opipe[0];
		pfd[0].events = POLLIN;
		pfd[1].fd = epipe[0];
		pfd[1].events = POLLIN;
		if ((rc = poll(pfd, 2, (int)left)) == -1) {
			if (errno == EINTR)
				continue;
			fail(cause, "'%s': poll: %s", argv[0], strerror(errno));
			goto out;
		}
		for (i = 0; i < 2; i++) {
			int *fd = i == 0 ? &opipe[0] : &epipe[0];
			char chunk[65536];

			if (*fd == -1 || pfd[i].revents == 0)
				continue;
			n = read(*fd, chunk, sizeof chunk);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0) {
				close_fd(fd);
				continue;
			}
			if (bufs[i].len + (size_t)n > SCRIPT_MAX_OUTPUT) {
				fail(cause, "'%s': output larger than %d MiB",
				    argv[0], SCRIPT_MAX_OUTPUT / (1024 * 1024));
				goto out;
			}
			strbuf_add(&bufs[i], chunk, (size_t)n);
		}
	}
	/* both pipes closed: wait for the exit, still within the deadline */
	while (!timed_out) {
		if ((w = waitpid(pid, &status, WNOHANG)) == pid) {
			done = 1;
			break;
		}
		if (w == -1 && errno != EINTR) {
			fail(cause, "'%s': waitpid: %s", argv[0],
			    strerror(errno));
			goto out;
		}
		if (now_ms() >= deadline)
			timed_out = 1;
		else
			usleep(10000);
	}
	if (timed_out) {
		fail(cause, "'%s' timed out after %d s", argv[0], timeout);
		goto out;
	}
	if (WIFSIGNALED(status)) {
		fail(cause, "'%s' was killed by signal %d", argv[0],
		    WTERMSIG(status));
	} else if (WEXITSTATUS(status) != 0) {
		line = first_line(bufs[1].buf);
		if (*line != '\0')
			fail(cause, "'%s' exited with status %d: %s", argv[0],
			    WEXITSTATUS(status), line);
		else
			fail(cause, "'%s' exited with status %d", argv[0],
			    WEXITSTATUS(status));
		free(line);
	} else
		r = 0;
	if (out != NULL)
		*out = strbuf_detach(&bufs[0], outlen);
	if (err != NULL)
		*err = strbuf_detach(&bufs[1], NULL);
out:
	if (pid > 0 && !done) {
		/* the whole group: a script's children die with it */
		kill(-pid, SIGKILL);
		kill(pid, SIGKILL);
		while (waitpid(pid, NULL, 0) == -1 && errno == EINTR)
			;
	}
	close_fd(&opipe[0]);
	close_fd(&opipe[1]);
	close_fd(&epipe[0]);
	close_fd(&epipe[1]);
	close_fd(&xpipe[0]);
	close_fd(&xpipe[1]);
	close_fd(&devnull);
	strbuf_release(&bufs[0]);
	strbuf_release(&bufs[1]);
	inventory_script_env_free(envp);
	return r;
}

/* Run `path ARG [NAME]` and parse its JSON object. */
static json_t *
script_json(const char *path, const char *arg, const char *name,
    char **cause)
{
	char	*argv[4], *out = NULL, *origin;
	size_t	 len = 0;
	json_t	*j = NULL;
	char	*rcause = NULL;

	argv[0] = (char *)path;
	argv[1] = (char *)arg;
	argv[2] = (char *)name;
	argv[3] = NULL;
	if (name != NULL)
		origin = xprintf("%s %s %s", path, arg, name);
	else
		origin = xprintf("%s %s", path, arg);
	if (inventory_run_script(argv, INVENTORY_SCRIPT_TIMEOUT, &out, &len,
	    NULL, &rcause) != 0) {
		fail(cause, "inventory script %s", rcause);
		goto out;
	}
	j = inventory_parse_list_json(out, len, origin, cause);
out:
	free(rcause);
	free(out);
	free(origin);
	return j;
}

static void
note_host(json_t *hosts, const json_t *v)
{
	if (json_is_string(v))
		json_object_set_new(hosts, json_string_value(v), json_true());
}

/* Every host named in a --list document, the way list_group reads it. */
static json_t *
list_hosts(const json_t *list)
{
	json_t		*hosts = json_object(), *data, *a, *v;
	const char	*name;
	size_t		 i;

	json_object_foreach((json_t *)list, name, data) {
		if (strcmp(name, "_meta") == 0)
			continue;
		if (json_is_array(data)) {
			json_array_foreach(data, i, v)
				note_host(hosts, v);
		} else if (json_is_object(data)) {
			a = json_object_get(data, "hosts");
			if (json_is_array(a)) {
				json_array_foreach(a, i, v)
					note_host(hosts, v);
			} else if (a == NULL &&
			    json_object_get(data, "vars") == NULL &&
			    json_object_get(data, "children") == NULL)
				json_object_set_new(hosts, name, json_true());
		}
	}
	return hosts;
}

int
inventory_add_script(struct inventory *inv, const char *path, char **cause)
{
	json_t		*list, *hosts = NULL, *hostvars, *hv, *v;
	const char	*name;
	int		 r = -1;

	if ((list = script_json(path, "--list", NULL, cause)) == NULL)
		return -1;
	if (json_object_get(list, "_meta") == NULL) {
		/* old-style script: ask for each host's variables */
		hosts = list_hosts(list);
		hostvars = json_object();
		json_object_set_new(list, "_meta",
		    json_pack("{s:o}", "hostvars", hostvars));
		json_object_foreach(hosts, name, v) {
			if ((hv = script_json(path, "--host", name,
			    cause)) == NULL)
				goto out;
			json_object_set_new(hostvars, name, hv);
		}
	}
	r = inventory_add_list_json(inv, list, path, cause);
out:
	json_decref(hosts);
	json_decref(list);
	return r;
}
