/* Reading a secret from the terminal with echo off. */
#include "prompt.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "base/xalloc.h"

/* Read one line (without the newline) into buf; -1 on end of input, an
 * error, or a line that does not fit. Reads a byte at a time so nothing
 * after the newline is taken from the terminal. */
static int
read_line(int fd, char *buf, size_t size)
{
	size_t	n = 0;
	char	c;
	ssize_t	r;

	for (;;) {
		r = read(fd, &c, 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		if (c == '\n' || c == '\r')
			break;
		if (n + 1 >= size)
			return -1;
		buf[n++] = c;
	}
	buf[n] = '\0';
	return 0;
}

char *
prompt_secret(const char *prompt, const char *what, char **cause)
{
	return prompt_line(prompt, 0, what, cause);
}

char *
prompt_line(const char *prompt, int echo, const char *what, char **cause)
{
	struct termios	 saved, quiet;
	char		 buf[PROMPT_MAX_SECRET + 1];
	char		*secret = NULL;
	int		 fd, echo_off = 0, ok;

	if ((fd = open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY)) == -1) {
		fail(cause, "cannot ask for the %s: no terminal (%s)", what,
		    strerror(errno));
		return NULL;
	}
	if (!echo && tcgetattr(fd, &saved) == 0) {
		quiet = saved;
		quiet.c_lflag &= ~(tcflag_t)(ECHO | ECHONL);
		quiet.c_lflag |= ICANON;
		echo_off = tcsetattr(fd, TCSAFLUSH, &quiet) == 0;
	}
	(void)!write(fd, prompt, strlen(prompt));
	ok = read_line(fd, buf, sizeof buf) == 0;
	if (echo_off)
		(void)tcsetattr(fd, TCSAFLUSH, &saved);
	if (!echo)
		(void)!write(fd, "\n", 1);
	close(fd);
	if (ok)
		secret = xstrdup(buf);
	else
		fail(cause, "no %s read from the terminal (end of input, or "
		    "longer than %d bytes)", what, PROMPT_MAX_SECRET);
	explicit_bzero(buf, sizeof buf);
	return secret;
}

void
secret_free(char *secret)
{
	if (secret == NULL)
		return;
	explicit_bzero(secret, strlen(secret));
	free(secret);
}
