/* Drives lib/report/webhook.c (and the JSON comparison the HTTP tests need) for
 * tests/e2e/http-webhook.sh and http-inventory.sh.
 *
 *   webhook-driver post URL JSONFILE	webhook_post; prints "ok" or
 *					"error: CAUSE" and "elapsed_ms N";
 *					exit 0 or 1
 *   webhook-driver text JSONFILE	prints webhook_text
 *   webhook-driver json-equal A B	exit 0 if the two JSON files hold
 *					equal values, else 1 (and says why)
 *   webhook-driver freeport		prints a loopback TCP port that was
 *					free a moment ago */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "report/webhook.h"

static json_t *
load(const char *path)
{
	json_error_t	 e;
	json_t		*j;

	if ((j = json_load_file(path, 0, &e)) == NULL) {
		fprintf(stderr, "webhook-driver: %s:%d:%d: %s\n", path, e.line,
		    e.column, e.text);
		exit(2);
	}
	return j;
}

static long
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int
freeport(void)
{
	struct sockaddr_in	sin;
	socklen_t		len = sizeof sin;
	int			s;

	if ((s = socket(AF_INET, SOCK_STREAM, 0)) == -1)
		return 2;
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(s, (struct sockaddr *)&sin, sizeof sin) != 0 ||
	    getsockname(s, (struct sockaddr *)&sin, &len) != 0)
		return 2;
	printf("%d\n", ntohs(sin.sin_port));
	close(s);
	return 0;
}

int
main(int argc, char **argv)
{
	json_t	*a, *b;
	char	*cause = NULL, *text;
	long	 t0;
	int	 r;

	if (argc == 4 && strcmp(argv[1], "post") == 0) {
		a = load(argv[3]);
		t0 = now_ms();
		r = webhook_post(argv[2], a, &cause);
		if (r == 0)
			printf("ok\n");
		else
			printf("error: %s\n", cause);
		printf("elapsed_ms %ld\n", now_ms() - t0);
		free(cause);
		json_decref(a);
		return r == 0 ? 0 : 1;
	}
	if (argc == 3 && strcmp(argv[1], "text") == 0) {
		a = load(argv[2]);
		text = webhook_text(a);
		printf("%s\n", text);
		free(text);
		json_decref(a);
		return 0;
	}
	if (argc == 4 && strcmp(argv[1], "json-equal") == 0) {
		a = load(argv[2]);
		b = load(argv[3]);
		r = json_equal(a, b);
		if (!r)
			fprintf(stderr, "'%s' and '%s' differ\n", argv[2],
			    argv[3]);
		json_decref(a);
		json_decref(b);
		return r ? 0 : 1;
	}
	if (argc == 2 && strcmp(argv[1], "freeport") == 0)
		return freeport();
	fprintf(stderr, "usage: webhook-driver post URL JSONFILE | text "
	    "JSONFILE | json-equal A B | freeport\n");
	return 2;
}
