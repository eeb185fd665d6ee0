#include "playbook/serial.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/xalloc.h"

static int
parse_item(const json_t *v, struct serial_item *it, char **cause)
{
	const char	*s, *p;
	char		*end;
	long		 l;

	memset(it, 0, sizeof *it);
	if (json_is_integer(v)) {
		if (json_integer_value(v) < 0)
			return fail(cause, "serial must not be negative, got "
			    "%lld", (long long)json_integer_value(v));
		it->value = (long)json_integer_value(v);
		return 0;
	}
	if (!json_is_string(v))
		goto bad;
	s = json_string_value(v);
	for (p = s; isspace((unsigned char)*p); p++)
		;
	if (!isdigit((unsigned char)*p))
		goto bad;
	errno = 0;
	l = strtol(p, &end, 10);
	if (errno != 0)
		goto bad;
	if (*end == '%') {
		it->percent = 1;
		end++;
	}
	while (isspace((unsigned char)*end))
		end++;
	if (*end != '\0')
		goto bad;
	if (it->percent && l > 100)
		return fail(cause, "serial percentage must be 0%% to 100%%, "
		    "got '%s'", s);
	it->value = l;
	return 0;
bad:
	if (json_is_string(v))
		return fail(cause, "serial must be an int, a percentage like "
		    "'25%%' or a list of those, got '%s'", json_string_value(v));
	return fail(cause, "serial must be an int, a percentage like '25%%' or "
	    "a list of those, got %s", json_is_real(v) ? "float" :
	    json_is_boolean(v) ? "bool" : json_is_object(v) ? "mapping" :
	    json_is_array(v) ? "list" : "null");
}

int
serial_parse(const json_t *v, struct serial_spec *out, char **cause)
{
	size_t	i;
	json_t	*item;

	memset(out, 0, sizeof *out);
	if (json_is_null(v))
		return 0;
	if (!json_is_array(v)) {
		out->items = xcalloc(1, sizeof *out->items);
		out->n = 1;
		if (parse_item(v, &out->items[0], cause) != 0) {
			serial_free(out);
			return -1;
		}
		return 0;
	}
	if (json_array_size(v) == 0)
		return fail(cause, "serial list must not be empty");
	out->items = xcalloc(json_array_size(v), sizeof *out->items);
	out->n = json_array_size(v);
	json_array_foreach(v, i, item) {
		if (json_is_array(item) || json_is_object(item)) {
			serial_free(out);
			return fail(cause, "serial list items must be ints or "
			    "percentages, got %s", json_is_array(item) ?
			    "list" : "mapping");
		}
		if (parse_item(item, &out->items[i], cause) != 0) {
			serial_free(out);
			return -1;
		}
	}
	return 0;
}

void
serial_free(struct serial_spec *s)
{
	if (s == NULL)
		return;
	free(s->items);
	s->items = NULL;
	s->n = 0;
}

/* Ansible's pct_to_int(): int(pct / 100.0 * total) or 1. */
static size_t
item_size(const struct serial_item *it, size_t total)
{
	size_t n;

	if (!it->percent)
		return (size_t)it->value;
	n = (size_t)(((double)it->value / 100.0) * (double)total);
	return n == 0 ? 1 : n;
}

size_t
serial_batch_size(const struct serial_spec *s, size_t batch_index,
    size_t total_hosts)
{
	size_t left = total_hosts, i, size;

	if (s == NULL || s->n == 0)
		return batch_index == 0 ? total_hosts : 0;
	for (i = 0; left > 0; i++) {
		size = item_size(&s->items[i < s->n ? i : s->n - 1],
		    total_hosts);
		/* 0 takes every host that is left, in this batch. */
		if (size == 0 || size > left)
			size = left;
		if (i == batch_index)
			return size;
		left -= size;
	}
	return 0;
}

char *
serial_str(const struct serial_spec *s)
{
	struct strbuf	sb;
	size_t		i;

	strbuf_init(&sb);
	if (s == NULL || s->n == 0)
		strbuf_addstr(&sb, "all");
	for (i = 0; s != NULL && i < s->n; i++) {
		strbuf_addf(&sb, "%s%ld%s", i > 0 ? ", " : "",
		    s->items[i].value, s->items[i].percent ? "%" : "");
	}
	return strbuf_detach(&sb, NULL);
}
