/* A tiny loopback HTTP/1.1 server for the HTTP tests: one request at a
 * time, "Connection: close" on every answer.
 *
 *   http-server -f PORTFILE [-n N] [-G /path=FILE]... [-s CODE[,CODE...]]
 *       [-b BODYLOG] [-H HEADERLOG] [-d MS] [-g] [-e]
 *
 * -f   listen on 127.0.0.1 on a free port and write the port to PORTFILE
 *      (written to PORTFILE.tmp then renamed, so readers never see half)
 * -n   exit after N requests (default: run until SIGTERM/SIGINT)
 * -G   answer GET /path (with any query string) with FILE's content
 *      (application/json)
 * -s   answer the first requests with these status codes, in order, and a
 *      text/plain body "error CODE"; later requests are served normally
 * -b   append each POST body and a newline to BODYLOG
 * -H   append each request line and its headers, then a blank line, to
 *      HEADERLOG
 * -d   wait MS milliseconds before each answer
 * -g   answer every GET with garbage JSON
 * -e   error bodies quote the request target ("error 404 for /path?q"), as
 *      some receivers do: the client must not repeat it in its messages
 * A POST is answered "200 ok" (text/plain, as Slack does); an unknown GET
 * path 404. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_HEADER	65536
#define MAX_ROUTES	16

struct route {
	char	*path;
	char	*file;
};

static volatile sig_atomic_t	 stop;
static struct route		 routes[MAX_ROUTES];
static int			 nroutes;
static const char		*body_log, *header_log;
static int			 codes[64], ncodes, delay_ms, garbage, echo;

static void
on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void
die(const char *what)
{
	fprintf(stderr, "http-server: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void
send_all(int fd, const char *buf, size_t len)
{
	ssize_t n;

	while (len > 0) {
		if ((n = send(fd, buf, len, MSG_NOSIGNAL)) <= 0) {
			if (n < 0 && errno == EINTR)
				continue;
			return;
		}
		buf += n;
		len -= (size_t)n;
	}
}

static void
respond(int fd, int code, const char *type, const char *body, size_t len)
{
	char head[512];
	int n;

	n = snprintf(head, sizeof head, "HTTP/1.1 %d X\r\nContent-Type: %s\r\n"
	    "Content-Length: %zu\r\nConnection: close\r\n\r\n", code, type,
	    len);
	send_all(fd, head, (size_t)n);
	send_all(fd, body, len);
}

static void
append_log(const char *path, const char *buf, size_t len, const char *end)
{
	FILE *f;

	if (path == NULL)
		return;
	if ((f = fopen(path, "a")) == NULL)
		die(path);
	fwrite(buf, 1, len, f);
	fputs(end, f);
	fclose(f);
}

static char *
read_file(const char *path, size_t *len)
{
	FILE	*f;
	char	*buf;
	long	 n;

	if ((f = fopen(path, "rb")) == NULL)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	if (buf == NULL || fread(buf, 1, (size_t)n, f) != (size_t)n) {
		fclose(f);
		free(buf);
		return NULL;
	}
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* Value of header name in the header block, or NULL (points into head). */
static const char *
header(const char *head, const char *name)
{
	const char *p = strstr(head, "\r\n");
	size_t n = strlen(name);

	while (p != NULL && p[2] != '\r' && p[2] != '\0') {
		p += 2;
		if (strncasecmp(p, name, n) == 0 && p[n] == ':') {
			p += n + 1;
			while (*p == ' ')
				p++;
			return p;
		}
		p = strstr(p, "\r\n");
	}
	return NULL;
}

static void
serve(int fd, int nth)
{
	char		*buf = malloc(MAX_HEADER + 1), *end, *body = NULL;
	char		 method[16], path[1024];
	const char	*v;
	size_t		 len = 0, hlen, clen = 0, flen;
	ssize_t		 n;
	struct timespec	 ts;
	int		 i, code = 0;

	if (buf == NULL)
		die("malloc");
	for (;;) {
		if (len == MAX_HEADER)
			goto out;
		n = recv(fd, buf + len, MAX_HEADER - len, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			goto out;
		len += (size_t)n;
		buf[len] = '\0';
		if ((end = strstr(buf, "\r\n\r\n")) != NULL)
			break;
	}
	hlen = (size_t)(end - buf) + 4;
	end[2] = '\0';		/* header block ends with one CRLF */
	append_log(header_log, buf, hlen - 2, "\n");
	if (sscanf(buf, "%15s %1023s", method, path) != 2)
		goto out;
	if ((v = header(buf, "Content-Length")) != NULL)
		clen = strtoul(v, NULL, 10);
	if ((v = header(buf, "Expect")) != NULL &&
	    strncasecmp(v, "100-continue", 12) == 0)
		send_all(fd, "HTTP/1.1 100 Continue\r\n\r\n", 25);
	if ((body = malloc(clen + 1)) == NULL)
		die("malloc");
	flen = len - hlen < clen ? len - hlen : clen;
	memcpy(body, buf + hlen, flen);
	while (flen < clen) {
		n = recv(fd, body + flen, clen - flen, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			goto out;
		flen += (size_t)n;
	}
	body[clen] = '\0';

	if (delay_ms > 0) {
		ts.tv_sec = delay_ms / 1000;
		ts.tv_nsec = (long)(delay_ms % 1000) * 1000000L;
		while (nanosleep(&ts, &ts) != 0 && !stop)
			;
	}
	if (strcmp(method, "POST") == 0)
		append_log(body_log, body, clen, "\n");
	if (nth < ncodes)
		code = codes[nth];
	if (code != 0 && code != 200) {
		char msg[1100];

		if (echo)
			snprintf(msg, sizeof msg, "error %d for %s\n", code,
			    path);
		else
			snprintf(msg, sizeof msg, "error %d\n", code);
		respond(fd, code, "text/plain", msg, strlen(msg));
	} else if (strcmp(method, "POST") == 0) {
		respond(fd, 200, "text/plain", "ok", 2);
	} else if (strcmp(method, "GET") == 0 && garbage) {
		respond(fd, 200, "application/json", "{\"all\": [", 9);
	} else if (strcmp(method, "GET") == 0) {
		/* a route matches whatever the query string */
		for (i = 0; i < nroutes; i++) {
			if (strncmp(routes[i].path, path, strcspn(path,
			    "?")) == 0 && routes[i].path[strcspn(path, "?")] ==
			    '\0')
				break;
		}
		if (i == nroutes && echo) {
			char msg[1100];

			snprintf(msg, sizeof msg, "%s not found\n", path);
			respond(fd, 404, "text/plain", msg, strlen(msg));
		} else if (i == nroutes) {
			respond(fd, 404, "text/plain", "not found\n", 10);
		} else {
			char *content = read_file(routes[i].file, &flen);

			if (content == NULL)
				respond(fd, 500, "text/plain", "cannot read\n",
				    12);
			else
				respond(fd, 200, "application/json", content,
				    flen);
			free(content);
		}
	} else
		respond(fd, 405, "text/plain", "method not allowed\n", 19);
out:
	free(body);
	free(buf);
}

int
main(int argc, char **argv)
{
	struct sockaddr_in	 sin;
	struct sigaction	 sa;
	struct timeval		 tv = { 10, 0 };
	socklen_t		 slen = sizeof sin;
	const char		*port_file = NULL;
	char			*tmp, *p, *eq;
	FILE			*f;
	int			 c, s, fd, limit = -1, served = 0, one = 1;

	while ((c = getopt(argc, argv, "f:n:G:s:b:H:d:ge")) != -1) {
		switch (c) {
		case 'f':
			port_file = optarg;
			break;
		case 'n':
			limit = atoi(optarg);
			break;
		case 'G':
			if (nroutes == MAX_ROUTES ||
			    (eq = strchr(optarg, '=')) == NULL) {
				fprintf(stderr, "http-server: bad -G\n");
				return 2;
			}
			routes[nroutes].path = strndup(optarg,
			    (size_t)(eq - optarg));
			routes[nroutes].file = eq + 1;
			nroutes++;
			break;
		case 's':
			for (p = strtok(optarg, ","); p != NULL && ncodes < 64;
			    p = strtok(NULL, ","))
				codes[ncodes++] = atoi(p);
			break;
		case 'b':
			body_log = optarg;
			break;
		case 'H':
			header_log = optarg;
			break;
		case 'd':
			delay_ms = atoi(optarg);
			break;
		case 'g':
			garbage = 1;
			break;
		case 'e':
			echo = 1;
			break;
		default:
			return 2;
		}
	}
	if (port_file == NULL) {
		fprintf(stderr, "usage: http-server -f PORTFILE [-n N] "
		    "[-G /path=FILE] [-s CODES] [-b BODYLOG] [-H HEADERLOG] "
		    "[-d MS] [-g] [-e]\n");
		return 2;
	}

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;	/* no SA_RESTART: accept() returns */
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);

	if ((s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1)
		die("socket");
	setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	sin.sin_port = 0;
	if (bind(s, (struct sockaddr *)&sin, sizeof sin) != 0)
		die("bind");
	if (listen(s, 16) != 0)
		die("listen");
	if (getsockname(s, (struct sockaddr *)&sin, &slen) != 0)
		die("getsockname");
	if (asprintf(&tmp, "%s.tmp", port_file) == -1)
		die("asprintf");
	if ((f = fopen(tmp, "w")) == NULL)
		die(tmp);
	fprintf(f, "%d\n", ntohs(sin.sin_port));
	if (fclose(f) != 0 || rename(tmp, port_file) != 0)
		die(port_file);
	free(tmp);

	while (!stop && (limit < 0 || served < limit)) {
		if ((fd = accept4(s, NULL, NULL, SOCK_CLOEXEC)) == -1) {
			if (errno == EINTR)
				continue;
			die("accept");
		}
		/* a client that stalls must not hang the test */
		setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
		serve(fd, served);
		served++;
		shutdown(fd, SHUT_WR);
		close(fd);
	}
	close(s);
	return 0;
}
