/* command.sh's line and what it says (see command.h). */
#include "remote/command.h"

#include <stdlib.h>
#include <string.h>

#include "base/shquote.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "remote/embedded.h"

#define GUARD_HEADER	"tcptune-command 1\n"

static int
given(const char *s)
{
	return s != NULL && s[0] != '\0';
}

int
command_guard_wanted(const struct command_guard *g)
{
	return given(g->chdir) || given(g->creates) || given(g->removes);
}

static void
assign(struct strbuf *sb, const char *name, const char *value)
{
	strbuf_addstr(sb, name);
	strbuf_addch(sb, '=');
	shquote_add(sb, value != NULL ? value : "");
	strbuf_addch(sb, '\n');
}

char *
command_guarded_line(const struct command_guard *g, const char *body)
{
	struct strbuf sb;

	strbuf_init(&sb);
	assign(&sb, "TCPTUNE_CHDIR", g->chdir);
	assign(&sb, "TCPTUNE_CREATES", g->creates);
	assign(&sb, "TCPTUNE_REMOVES", g->removes);
	strbuf_addstr(&sb, embedded_command_sh);
	strbuf_addstr(&sb, body);
	return strbuf_detach(&sb, NULL);
}

static int
name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '_';
}

/* Quote the n bytes at s as one word (nothing for none). */
static void
quote_part(struct strbuf *sb, const char *s, size_t n)
{
	char *part;

	if (n == 0)
		return;
	part = xstrndup(s, n);
	shquote_add(sb, part);
	free(part);
}

void
command_word_add(struct strbuf *sb, const char *w)
{
	const char	*p = w, *lit, *name;
	size_t		 nl, ul;
	int		 braced;

	/* ~ or ~user up to the first slash: left unquoted, sh's tilde
	 * expansion is expanduser's */
	if (*p == '~') {
		ul = strcspn(p + 1, "/");
		if (strspn(p + 1, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQR"
		    "STUVWXYZ0123456789._-") >= ul) {
			/* and its slash unquoted: a quoted one would make
			 * the rest of the word the tilde-prefix */
			if (p[ul + 1] == '/')
				ul++;
			strbuf_add(sb, p, ul + 1);
			p += ul + 1;
		}
	}
	if (*p == '\0' && p != w)
		return;
	if (*p == '\0') {
		shquote_add(sb, "");
		return;
	}
	lit = p;
	while (*p != '\0') {
		if (*p != '$') {
			p++;
			continue;
		}
		braced = p[1] == '{';
		name = p + 1 + braced;
		for (nl = 0; name_char(name[nl]); nl++)
			;
		/* a name sh reads as a variable; Python looks up others in
		 * os.environ too (${a-b}, $1), where none is: kept */
		if (nl == 0 || (name[0] >= '0' && name[0] <= '9') ||
		    (braced && name[nl] != '}')) {
			p++;
			continue;
		}
		quote_part(sb, lit, (size_t)(p - lit));
		strbuf_addf(sb, braced ? "\"${%.*s-\\${%.*s\\}}\"" :
		    "\"${%.*s-\\$%.*s}\"", (int)nl, name, (int)nl, name);
		p = name + nl + braced;
		lit = p;
	}
	quote_part(sb, lit, (size_t)(p - lit));
}

/* The line at *p (up to end) is exactly want, its newline included. */
static int
take(const char **p, const char *end, const char *want)
{
	size_t n = strlen(want);

	if ((size_t)(end - *p) < n || memcmp(*p, want, n) != 0)
		return 0;
	*p += n;
	return 1;
}

int
command_guard_parse(const char *out, size_t len, enum command_said *said,
    int *err_no, size_t *body_off, char **cause)
{
	const char	*p = out != NULL ? out : "", *end = p + len, *nl;
	char		 num[8];
	size_t		 n;

	*err_no = 0;
	*body_off = 0;
	if (!take(&p, end, GUARD_HEADER))
		return fail(cause, "the command's guard did not answer (is "
		    "the remote shell POSIX sh?)");
	if (take(&p, end, "@run\n")) {
		*said = COMMAND_RAN;
		*body_off = (size_t)(p - out);
		return 0;
	}
	if (take(&p, end, "@skip\nwhy=creates\n@done\n"))
		*said = COMMAND_SKIP_CREATES;
	else if (take(&p, end, "@skip\nwhy=removes\n@done\n"))
		*said = COMMAND_SKIP_REMOVES;
	else if (take(&p, end, "@chdir\nerrno=") &&
	    (nl = memchr(p, '\n', (size_t)(end - p))) != NULL &&
	    (n = (size_t)(nl - p)) > 0 && n < sizeof num &&
	    strspn(p, "0123456789") >= n) {
		memcpy(num, p, n);
		num[n] = '\0';
		p = nl + 1;
		if (!take(&p, end, "@done\n"))
			return fail(cause, "the command's guard was cut short");
		*said = COMMAND_CHDIR_FAILED;
		*err_no = atoi(num);
	} else
		return fail(cause, "the command's guard was cut short");
	*body_off = (size_t)(p - out);
	return 0;
}
