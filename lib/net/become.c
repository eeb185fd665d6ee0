/* Become with a password: the sudo -S command line and the stderr scanner
 * that finds sudo's prompt and the start of the command (become.h). */
#include "net/become.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>

#include "base/shquote.h"
#include "base/xalloc.h"

void
become_words_set(struct become_words *w, const char *tag)
{
	/* Ansible's prompt, with our name: an operator reading sudo's log
	 * or a process list sees who asked. No '%': sudo expands it. */
	snprintf(w->prompt, sizeof w->prompt, "[sudo via tcptune, key=%.*s] "
	    "password: ", BECOME_TAG_LEN, tag);
	snprintf(w->marker, sizeof w->marker, "TCPTUNE-BECOME-SUCCESS-%.*s",
	    BECOME_TAG_LEN, tag);
}

int
become_words_random(struct become_words *w, char **cause)
{
	unsigned char	bytes[BECOME_TAG_LEN / 2];
	char		tag[BECOME_TAG_LEN + 1];
	size_t		i;
	ssize_t		n;

	while ((n = getrandom(bytes, sizeof bytes, 0)) == -1 && errno == EINTR)
		;
	if (n != (ssize_t)sizeof bytes)
		return fail(cause, "no random bytes for the sudo prompt: %s",
		    n == -1 ? strerror(errno) : "short read");
	for (i = 0; i < sizeof bytes; i++)
		snprintf(tag + 2 * i, 3, "%02x", bytes[i]);
	become_words_set(w, tag);
	return 0;
}

void
become_build_command(struct strbuf *sb, const char *cmd, const char *user,
    const struct become_words *w)
{
	struct strbuf inner;

	/* -n: never prompt (a prompt would hang with no tty). -S: read the
	 * password from stdin, prompting on stderr with our -p prompt. `--`
	 * so that nothing after it is read as a sudo option. */
	if (w == NULL)
		strbuf_addstr(sb, "sudo -n ");
	else {
		strbuf_addstr(sb, "sudo -S -p ");
		shquote_add(sb, w->prompt);
		strbuf_addch(sb, ' ');
	}
	if (user != NULL && strcmp(user, "root") != 0) {
		strbuf_addstr(sb, "-u ");
		shquote_add(sb, user);
		strbuf_addch(sb, ' ');
	}
	strbuf_addstr(sb, "-- sh -c ");
	if (w == NULL) {
		shquote_add(sb, cmd);
		return;
	}
	/* The marker is printed by the shell sudo started: it appears only
	 * once sudo has accepted (or did not need) the password. */
	strbuf_init(&inner);
	strbuf_addf(&inner, "echo %s >&2; %s", w->marker, cmd);
	shquote_add(sb, inner.buf);
	strbuf_release(&inner);
}

void
become_scan_init(struct become_scan *s, const struct become_words *w)
{
	memset(s, 0, sizeof *s);
	s->prompt = w->prompt;
	snprintf(s->marker_line, sizeof s->marker_line, "%s\n", w->marker);
	strbuf_init(&s->pending);
}

static char *
find_pending(const struct become_scan *s, const char *needle)
{
	return memmem(s->pending.buf + s->from, s->pending.len - s->from,
	    needle, strlen(needle));
}

/* Handle the first prompt or marker at or after s->from: a prompt is
 * counted and cut out; the marker starts the command. 0 if neither is
 * there (yet). */
static int
take_next(struct become_scan *s, struct strbuf *err)
{
	struct strbuf	*pb = &s->pending;
	char		*p, *m;
	size_t		 at, plen = strlen(s->prompt);

	p = find_pending(s, s->prompt);
	m = find_pending(s, s->marker_line);
	if (p != NULL && (m == NULL || p < m)) {
		at = (size_t)(p - pb->buf);
		memmove(p, p + plen, pb->len - at - plen + 1);
		pb->len -= plen;
		s->prompts++;
		s->from = at;
		return 1;
	}
	if (m == NULL)
		return 0;
	/* Before the marker: sudo's own words, dropped. After it: the
	 * command's. */
	at = (size_t)(m - pb->buf) + strlen(s->marker_line);
	strbuf_add(err, pb->buf + at, pb->len - at);
	strbuf_release(&s->pending);
	s->started = 1;
	return 1;
}

void
become_scan_feed(struct become_scan *s, const void *data, size_t len,
    struct strbuf *err)
{
	size_t keep;

	if (s->started) {
		strbuf_add(err, data, len);
		return;
	}
	strbuf_add(&s->pending, data, len);
	while (!s->started && take_next(s, err))
		;
	if (s->started)
		return;
	/* A prompt or marker cut short at the end may still be completed by
	 * the next piece; nothing before that can start one. */
	keep = strlen(s->marker_line);
	if (strlen(s->prompt) > keep)
		keep = strlen(s->prompt);
	keep--;
	if (s->pending.len > keep && s->pending.len - keep > s->from)
		s->from = s->pending.len - keep;
}

void
become_scan_end(struct become_scan *s, struct strbuf *err)
{
	if (!s->started)
		strbuf_add(err, s->pending.buf, s->pending.len);
	strbuf_reset(&s->pending);
	s->from = 0;
}

void
become_scan_release(struct become_scan *s)
{
	strbuf_release(&s->pending);
}
