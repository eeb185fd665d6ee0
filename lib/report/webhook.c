/* Webhook notification of a drift run; see webhook.h. */
#include "report/webhook.h"

#include <stdlib.h>
#include <string.h>

#include "net/http.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

/* Slack's three control characters in message text. */
static void
add_escaped(struct strbuf *sb, const char *s)
{
	for (; *s != '\0'; s++) {
		if (*s == '&')
			strbuf_addstr(sb, "&amp;");
		else if (*s == '<')
			strbuf_addstr(sb, "&lt;");
		else if (*s == '>')
			strbuf_addstr(sb, "&gt;");
		else if (*s == '\n' || *s == '\r')
			strbuf_addch(sb, ' ');	/* one line per item */
		else
			strbuf_addch(sb, *s);
	}
}

/* A member as text: strings as they are, other values as JSON; NULL when
 * absent or null. Allocated. */
static char *
member_text(const json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	if (v == NULL || json_is_null(v))
		return NULL;
	if (json_is_string(v))
		return xstrdup(json_string_value(v));
	return json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
}

static json_int_t
count(const json_t *summary, const char *state)
{
	json_t *v = json_object_get(json_object_get(summary, "hosts"), state);

	return json_is_integer(v) ? json_integer_value(v) : 0;
}

static void
add_item(struct strbuf *sb, const json_t *item)
{
	static const char *const parts[] = { "host", "key", NULL };
	char	*s;
	size_t	 i;

	strbuf_addstr(sb, "\n- ");
	for (i = 0; parts[i] != NULL; i++) {
		if ((s = member_text(item, parts[i])) == NULL)
			continue;
		if (i > 0)
			strbuf_addch(sb, ' ');
		add_escaped(sb, s);
		free(s);
	}
	if ((s = member_text(item, "expected")) != NULL) {
		strbuf_addstr(sb, ": expected '");
		add_escaped(sb, s);
		strbuf_addch(sb, '\'');
		free(s);
	}
	if ((s = member_text(item, "live")) != NULL) {
		strbuf_addstr(sb, ", live '");
		add_escaped(sb, s);
		strbuf_addch(sb, '\'');
		free(s);
	}
	if ((s = member_text(item, "cause")) != NULL) {
		strbuf_addstr(sb, " (");
		add_escaped(sb, s);
		strbuf_addch(sb, ')');
		free(s);
	}
}

char *
webhook_text(const json_t *summary)
{
	struct strbuf	 sb;
	json_t		*items = json_object_get(summary, "items"), *item;
	char		*playbook;
	size_t		 i, n;

	strbuf_init(&sb);
	strbuf_addf(&sb, "tcptune drift: %s: %" JSON_INTEGER_FORMAT
	    " drifted, %" JSON_INTEGER_FORMAT " in sync, %" JSON_INTEGER_FORMAT
	    " unreachable, %" JSON_INTEGER_FORMAT " failed",
	    json_is_true(json_object_get(summary, "drift")) ? "DRIFT" :
	    "no drift", count(summary, "drifted"), count(summary, "in_sync"),
	    count(summary, "unreachable"), count(summary, "failed"));
	if ((playbook = member_text(summary, "playbook")) != NULL) {
		strbuf_addstr(&sb, " (playbook '");
		add_escaped(&sb, playbook);
		strbuf_addstr(&sb, "')");
		free(playbook);
	}
	n = json_is_array(items) ? json_array_size(items) : 0;
	for (i = 0; i < n && i < WEBHOOK_MAX_LINES; i++) {
		item = json_array_get(items, i);
		if (json_is_object(item))
			add_item(&sb, item);
	}
	if (n > WEBHOOK_MAX_LINES)
		strbuf_addf(&sb, "\n... and %zu more", n - WEBHOOK_MAX_LINES);
	return strbuf_detach(&sb, NULL);
}

int
webhook_post(const char *url, const json_t *payload, char **cause)
{
	struct http_opts	 opts = { 0 };
	json_t			*body;
	char			*text;
	int			 r;

	if (!json_is_object(payload))
		return fail(cause, "webhook payload must be a JSON object");
	body = json_deep_copy(payload);
	if (json_object_get(body, "text") == NULL) {
		text = webhook_text(payload);
		json_object_set_new(body, "text", json_string(text));
		free(text);
	}
	opts.timeout = WEBHOOK_TIMEOUT;
	opts.attempts = WEBHOOK_ATTEMPTS;
	r = http_post_json(url, body, &opts, NULL, cause);
	json_decref(body);
	return r;
}
