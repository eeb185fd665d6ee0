/* The local connection (net/local.h): fork, exec /bin/sh -c, one poll
 * loop over its stdin, stdout and stderr, bounded by the timeout. */
#include "net/local.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/strbuf.h"
#include "base/xalloc.h"

#define LOCAL_DEFAULT_TIMEOUT	300

static long long
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void
close_pair(int p[2])
{
	if (p[0] >= 0)
		close(p[0]);
	if (p[1] >= 0)
		close(p[1]);
	p[0] = p[1] = -1;
}

/* The child: the pipes on 0, 1, 2, every other descriptor closed (the
 * run's SSH sockets are not the command's), then the shell. */
static void
child(const char *line, int in[2], int out[2], int err[2])
{
	if (dup2(in[0], 0) < 0 || dup2(out[1], 1) < 0 || dup2(err[1], 2) < 0)
		_exit(127);
	close_range(3, ~0U, 0);
	signal(SIGPIPE, SIG_DFL);
	execl("/bin/sh", "sh", "-c", line, (char *)NULL);
	_exit(127);
}

/* Feed in, read out and err until both are closed or the deadline. */
static int
pump(int fin, int fout, int ferr, const void *in, size_t in_len,
    long long deadline, struct strbuf *out, struct strbuf *err)
{
	struct pollfd	 p[3];
	char		 buf[16384];
	size_t		 sent = 0;
	ssize_t		 n;
	int		 i, left;

	if (in_len == 0) {
		close(fin);
		fin = -1;
	}
	while (fout >= 0 || ferr >= 0) {
		if ((left = (int)(deadline - now_ms())) <= 0) {
			if (fin >= 0)
				close(fin);
			if (fout >= 0)
				close(fout);
			if (ferr >= 0)
				close(ferr);
			return -1;
		}
		p[0].fd = fin;
		p[0].events = POLLOUT;
		p[1].fd = fout;
		p[1].events = POLLIN;
		p[2].fd = ferr;
		p[2].events = POLLIN;
		if (poll(p, 3, left) < 0 && errno != EINTR)
			break;
		if (fin >= 0 && p[0].revents != 0) {
			n = write(fin, (const char *)in + sent, in_len - sent);
			if (n > 0)
				sent += (size_t)n;
			if (n < 0 || sent == in_len) {
				close(fin);
				fin = -1;
			}
		}
		for (i = 1; i < 3; i++) {
			if (p[i].fd < 0 || p[i].revents == 0)
				continue;
			n = read(p[i].fd, buf, sizeof buf);
			if (n > 0) {
				strbuf_add(i == 1 ? out : err, buf, (size_t)n);
				continue;
			}
			if (n < 0 && errno == EINTR)
				continue;
			close(p[i].fd);
			if (i == 1)
				fout = -1;
			else
				ferr = -1;
		}
	}
	if (fin >= 0)
		close(fin);
	return 0;
}

enum tp_status
local_exec(const struct tp_become *as, const char *cmd, const void *in,
    size_t in_len, int timeout, struct tp_result *res, char **cause)
{
	struct strbuf	 line, out, err;
	int		 pin[2] = { -1, -1 }, pout[2] = { -1, -1 };
	int		 perr[2] = { -1, -1 }, status = 0, timed_out;
	enum tp_status	 st = TP_FAILED;
	pid_t		 pid;

	memset(res, 0, sizeof *res);
	res->exit_status = -1;
	strbuf_init(&line);
	strbuf_init(&out);
	strbuf_init(&err);
	transport_build_command(&line, cmd, as != NULL && as->on,
	    as != NULL ? as->user : NULL);
	if (pipe2(pin, O_CLOEXEC) != 0 || pipe2(pout, O_CLOEXEC) != 0 ||
	    pipe2(perr, O_CLOEXEC) != 0) {
		*cause = xprintf("cannot run a command on localhost: %s",
		    strerror(errno));
		goto out;
	}
	if ((pid = fork()) < 0) {
		*cause = xprintf("cannot run a command on localhost: %s",
		    strerror(errno));
		goto out;
	}
	if (pid == 0)
		child(line.buf, pin, pout, perr);
	close(pin[0]);
	close(pout[1]);
	close(perr[1]);
	pin[0] = pout[1] = perr[1] = -1;
	timed_out = pump(pin[1], pout[0], perr[0], in, in_len, now_ms() +
	    (long long)(timeout > 0 ? timeout : LOCAL_DEFAULT_TIMEOUT) * 1000,
	    &out, &err) != 0;
	pin[1] = pout[0] = perr[0] = -1;	/* pump closed them */
	if (timed_out)
		kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (timed_out) {
		*cause = xprintf("command on localhost timed out after %d s",
		    timeout > 0 ? timeout : LOCAL_DEFAULT_TIMEOUT);
		st = TP_TIMEOUT;
		goto out;
	}
	res->exit_status = WIFEXITED(status) ? WEXITSTATUS(status) :
	    128 + WTERMSIG(status);
	st = TP_OK;
	if (as != NULL && as->on)
		st = transport_check_become(res->exit_status, err.buf,
		    "the local user", "localhost", cause);
out:
	close_pair(pin);
	close_pair(pout);
	close_pair(perr);
	res->out = strbuf_detach(&out, &res->out_len);
	res->err = strbuf_detach(&err, &res->err_len);
	strbuf_release(&line);
	return st;
}
