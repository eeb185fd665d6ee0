/* Drift notifications: POST a JSON summary to a webhook (Slack incoming
 * webhooks, Mattermost, Teams workflows, Alertmanager-style receivers or
 * anything that takes JSON).
 *
 * The summary the drift command builds:
 *   {"drift": true|false,
 *    "hosts": {"in_sync": N, "drifted": N, "unreachable": N, "failed": N},
 *    "items": [{"host": "...", "key": "...", "expected": "...",
 *               "live": "...", "cause": "..."}, ...],
 *    "playbook": "..."}
 * webhook_post sends it with a "text" member added (unless it has one),
 * which is what Slack-compatible receivers display. */
#ifndef TCPTUNE_WEBHOOK_H
#define TCPTUNE_WEBHOOK_H

#include <jansson.h>

#define WEBHOOK_TIMEOUT		10	/* seconds, whole request */
#define WEBHOOK_ATTEMPTS	3	/* waits of 1 s and 2 s between */
#define WEBHOOK_MAX_LINES	20	/* items listed in "text" */

/* One-paragraph Slack mrkdwn text for a summary (allocated): a headline
 * with the counts, then one line per drifted item (at most
 * WEBHOOK_MAX_LINES, then "... and N more"). &, < and > are escaped as
 * Slack requires; missing members read as 0 / empty. */
char	*webhook_text(const json_t *summary);

/* POST payload (plus "text" from webhook_text when it has none) as
 * application/json; timeout WEBHOOK_TIMEOUT, WEBHOOK_ATTEMPTS tries on
 * connection errors, 5xx and 429; TLS verified (http.h). 0 on a 2xx
 * answer, else -1 and *cause ("POST https://hooks.slack.com/…: HTTP 500
 * (3 attempts)"): a webhook URL's path is its secret, so the message shows
 * only the server (http_url_redact). A failed notification must not
 * change the drift verdict. */
int	webhook_post(const char *url, const json_t *payload, char **cause);

#endif
