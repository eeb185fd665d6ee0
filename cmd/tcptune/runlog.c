#include "runlog.h"

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/util.h"
#include "base/xalloc.h"
#include "report/message.h"
#include "run/events.h"
#include "vault/vault.h"

static int		 log_fd = -1;
static char		*log_user;
static double		 log_start;
static pthread_mutex_t	 log_lock = PTHREAD_MUTEX_INITIALIZER;

/* The local user's name: the password database's for our uid (LOGNAME
 * and USER can be anything), else the uid as a number. */
static char *
local_user(void)
{
	struct passwd	 pw, *found = NULL;
	char		 buf[4096];

	if (getpwuid_r(getuid(), &pw, buf, sizeof buf, &found) == 0 &&
	    found != NULL)
		return xstrdup(found->pw_name);
	return xprintf("%lu", (unsigned long)getuid());
}

int
runlog_active(void)
{
	return log_fd >= 0;
}

json_t *
runlog_event(const char *name)
{
	struct timespec now;

	clock_gettime(CLOCK_REALTIME, &now);
	return run_event_new(name, &now);
}

void
runlog_write(json_t *ev)
{
	json_t	*safe;
	char	*line;
	size_t	 len, off = 0;
	ssize_t	 n;

	if (ev == NULL)
		return;
	if (log_fd < 0) {
		json_decref(ev);
		return;
	}
	/* who ran it, on every line: a log is read a line at a time */
	json_object_set_new(ev, "pid", json_integer((json_int_t)getpid()));
	json_object_set_new(ev, "user", json_string(log_user));
	safe = vault_redact_json(ev);
	line = json_dumps(safe, JSON_COMPACT | JSON_REAL_PRECISION(6));
	json_decref(safe);
	json_decref(ev);
	if (line == NULL)
		return;
	len = strlen(line);
	line[len++] = '\n';	/* over json_dumps' NUL: one write, one line */
	pthread_mutex_lock(&log_lock);
	while (off < len && (n = write(log_fd, line + off, len - off)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		off += (size_t)n;
	}
	pthread_mutex_unlock(&log_lock);
	free(line);
}

int
runlog_open(const char *path, int argc, char *const *argv, char **cause)
{
	struct stat	 st;
	json_t		*ev;
	char		*cmdline, cwd[4096];

	log_fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC |
	    O_NOCTTY, 0600);
	if (log_fd < 0) {
		*cause = xprintf("cannot open log file '%s': %s", path,
		    strerror(errno));
		return -1;
	}
	/* An older file keeps its mode (a team may share it by group),
	 * but one any user can read would hand them every run. */
	if (fstat(log_fd, &st) != 0 || (st.st_mode & (S_IROTH | S_IWOTH))) {
		*cause = xprintf("log file '%s' is readable or writable by "
		    "every user: 'chmod o-rw' it first", path);
		close(log_fd);
		log_fd = -1;
		return -1;
	}
	log_user = local_user();
	log_start = monotonic_seconds();
	cmdline = message_command_line(argc, argv);
	ev = runlog_event("start");
	json_object_set_new(ev, "command_line", json_string(cmdline));
	if (getcwd(cwd, sizeof cwd) != NULL)
		json_object_set_new(ev, "cwd", json_string(cwd));
	json_object_set_new(ev, "version", json_string(TCPTUNE_VERSION));
	runlog_write(ev);
	free(cmdline);
	return 0;
}

void
runlog_close(int status)
{
	json_t *ev;

	if (log_fd < 0)
		return;
	ev = runlog_event("end");
	json_object_set_new(ev, "exit_status", json_integer(status));
	json_object_set_new(ev, "seconds",
	    json_real(monotonic_seconds() - log_start));
	runlog_write(ev);
	close(log_fd);
	log_fd = -1;
	free(log_user);
	log_user = NULL;
}
