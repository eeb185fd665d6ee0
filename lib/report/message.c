#include "report/message.h"

#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

#define C_BOLD		"\033[1m"
#define C_RED		"\033[31m"
#define C_GREEN		"\033[32m"
#define C_CYAN		"\033[36m"
#define C_RESET		"\033[0m"

#define REDACTED	"<redacted>"

char *
message_warning(const char *host, const char *text)
{
	if (strncmp(text, "WARNING: ", 9) == 0)
		text += 9;
	if (host != NULL)
		return xprintf("[WARNING]: %s: %s", host, text);
	return xprintf("[WARNING]: %s", text);
}

char *
message_error(const char *text)
{
	return xprintf("tcptune: error: %s", text);
}

char *
message_usage(const char *cmd, const char *usage, const char *text)
{
	return xprintf("tcptune: error: %s\nusage: tcptune %s%s%s\n"
	    "see 'tcptune %s --help'\n", text, cmd, *usage != '\0' ? " " : "",
	    usage, cmd);
}

int
message_color_wanted(const char *when, int is_tty, const char *no_color)
{
	if (when != NULL && strcmp(when, "always") == 0)
		return 1;
	if (when != NULL && strcmp(when, "never") == 0)
		return 0;
	return is_tty && (no_color == NULL || *no_color == '\0');
}

static const char *
diff_line_color(const char *line, size_t len)
{
	if ((len >= 3 && (strncmp(line, "---", 3) == 0 ||
	    strncmp(line, "+++", 3) == 0)) ||
	    (len >= 5 && strncmp(line, "diff ", 5) == 0))
		return C_BOLD;
	if (len >= 2 && strncmp(line, "@@", 2) == 0)
		return C_CYAN;
	if (len >= 1 && line[0] == '-')
		return C_RED;
	if (len >= 1 && line[0] == '+')
		return C_GREEN;
	return NULL;
}

void
message_color_diff(struct strbuf *out, const char *diff)
{
	const char	*line = diff, *nl, *c;
	size_t		 len;

	while (*line != '\0') {
		nl = strchr(line, '\n');
		len = nl != NULL ? (size_t)(nl - line) : strlen(line);
		if ((c = diff_line_color(line, len)) != NULL) {
			/* the colour ends before the newline, as git's does,
			 * so a pager's line never carries it over */
			strbuf_addstr(out, c);
			strbuf_add(out, line, len);
			strbuf_addstr(out, C_RESET);
		} else
			strbuf_add(out, line, len);
		if (nl == NULL)
			break;
		strbuf_addch(out, '\n');
		line = nl + 1;
	}
}

char *
message_one_line(const char *text, size_t max)
{
	struct strbuf	sb = STRBUF_INIT;
	size_t		i, len = strlen(text);
	unsigned char	c;

	strbuf_init(&sb);
	for (i = 0; i < len && sb.len < max; i++) {
		c = (unsigned char)text[i];
		if (c == '\n')
			strbuf_addstr(&sb, "\\n");
		else if (c == '\t')
			strbuf_addstr(&sb, "\\t");
		else if (c < 0x20 || c == 0x7f)
			strbuf_addf(&sb, "\\x%02x", c);
		else
			strbuf_addch(&sb, c);
	}
	if (i < len)
		strbuf_addf(&sb, " ... (%zu more bytes)", len - i);
	return strbuf_detach(&sb, NULL);
}

/* "scheme://user:password@host/..." with the user:password part hidden;
 * NULL when word holds none. */
static char *
hide_userinfo(const char *word)
{
	const char *scheme = strstr(word, "://"), *at, *end;

	if (scheme == NULL)
		return NULL;
	end = scheme + 3 + strcspn(scheme + 3, "/?#");
	at = memchr(scheme + 3, '@', (size_t)(end - (scheme + 3)));
	if (at == NULL)
		return NULL;
	return xprintf("%.*s" REDACTED "%s", (int)(scheme + 3 - word), word,
	    at);
}

/* The options whose whole value may be a secret: a webhook URL carries
 * its token, and -e may set a password. */
static int
secret_option(const char *arg, size_t *name_len)
{
	static const char *const names[] = { "--webhook", "--extra-vars",
	    "-e", NULL };
	size_t i, n;

	for (i = 0; names[i] != NULL; i++) {
		n = strlen(names[i]);
		if (strncmp(arg, names[i], n) == 0 &&
		    (arg[n] == '\0' || arg[n] == '=' ||
		    (n == 2 && arg[n] != '-'))) {
			*name_len = n;
			return 1;
		}
	}
	return 0;
}

char *
message_command_line(int argc, char *const *argv)
{
	struct strbuf	 sb = STRBUF_INIT;
	char		*hidden;
	size_t		 n;
	int		 i, next_secret = 0;

	strbuf_init(&sb);
	for (i = 0; i < argc; i++) {
		if (i > 0)
			strbuf_addch(&sb, ' ');
		if (next_secret) {
			strbuf_addstr(&sb, REDACTED);
			next_secret = 0;
		} else if (i > 0 && secret_option(argv[i], &n)) {
			strbuf_add(&sb, argv[i], n);
			if (argv[i][n] == '\0')
				next_secret = 1;
			else
				strbuf_addstr(&sb, argv[i][n] == '=' ?
				    "=" REDACTED : REDACTED);
		} else if ((hidden = hide_userinfo(argv[i])) != NULL) {
			strbuf_addstr(&sb, hidden);
			free(hidden);
		} else
			strbuf_addstr(&sb, argv[i]);
	}
	return strbuf_detach(&sb, NULL);
}
