/* The --format json document, streamed (output-json.h says how and why).
 * Laid out as jansson's JSON_INDENT(2) | JSON_SORT_KEYS lays out a whole
 * document, so that it reads as it did when it was printed at the end. */
#include "output-json.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run/events.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

/* A result sits at depth 5: document, plays, play, results, host list. */
#define RESULT_INDENT	"          "

#define DUMP_FLAGS	(JSON_INDENT(2) | JSON_SORT_KEYS)

void
jdoc_init(struct jdoc *d, FILE *out)
{
	memset(d, 0, sizeof *d);
	d->out = out;
}

static void
put_string(struct jdoc *d, const char *s)
{
	json_t *j = json_string(s != NULL ? s : "");
	char *text = json_dumps(j, JSON_ENCODE_ANY);

	fputs(text != NULL ? text : "\"\"", d->out);
	free(text);
	json_decref(j);
}

static void
open_doc(struct jdoc *d)
{
	if (d->opened)
		return;
	fprintf(d->out, "{\n  \"schema\": %d,\n  \"plays\": [", RUN_EVENT_SCHEMA);
	d->opened = 1;
}

static void
close_play(struct jdoc *d)
{
	if (d->nplays == 0)
		return;
	fputs(d->nhosts > 0 ? "\n      }\n    }" : "}\n    }", d->out);
	d->nhosts = 0;
}

void
jdoc_play_start(struct jdoc *d, const char *name, const char *hosts,
    size_t host_count)
{
	open_doc(d);
	close_play(d);
	fprintf(d->out, "%s\n    {\n      \"host_count\": %zu,\n      "
	    "\"hosts\": ", d->nplays > 0 ? "," : "", host_count);
	put_string(d, hosts);
	fputs(",\n      \"name\": ", d->out);
	put_string(d, name);
	fputs(",\n      \"results\": {", d->out);
	d->nplays++;
	fflush(d->out);
}

void
jdoc_result(struct jdoc *d, const char *host, const struct task_result *tr)
{
	json_t *j = task_result_json(tr);
	char *text = json_dumps(j, DUMP_FLAGS);
	const char *p;
	size_t len = 0;

	json_decref(j);
	if (text == NULL)
		return;
	/* a file, else (no writable TMPDIR) memory */
	if (d->spool == NULL && (d->spool = tmpfile()) == NULL)
		d->spool = open_memstream(&d->membuf, &d->memlen);
	if (d->spool == NULL) {
		free(text);
		return;
	}
	fseek(d->spool, d->spool_end, SEEK_SET);
	/* indented for its place, so the batch's copy is a plain copy */
	for (p = text; *p != '\0'; p++) {
		fputc(*p, d->spool);
		len++;
		if (*p == '\n') {
			fputs(RESULT_INDENT, d->spool);
			len += sizeof RESULT_INDENT - 1;
		}
	}
	free(text);
	if (d->nrecs == d->cap) {
		d->cap = d->cap != 0 ? 2 * d->cap : 256;
		d->recs = xreallocarray(d->recs, d->cap, sizeof *d->recs);
	}
	d->recs[d->nrecs].host = host;
	d->recs[d->nrecs].off = d->spool_end;
	d->recs[d->nrecs].len = len;
	d->nrecs++;
	d->spool_end += (long)len;
}

static size_t
ptr_slot(const void *p, size_t mask)
{
	uintptr_t v = (uintptr_t)p;

	v ^= v >> 17;
	v *= 0x9e3779b97f4a7c15ULL;
	return (size_t)(v >> 7) & mask;
}

static void
copy_rec(struct jdoc *d, const struct jdoc_rec *rec, struct strbuf *buf)
{
	strbuf_reset(buf);
	strbuf_grow(buf, rec->len);
	fseek(d->spool, rec->off, SEEK_SET);
	if (fread(buf->buf, 1, rec->len, d->spool) != rec->len)
		return;
	fwrite(buf->buf, 1, rec->len, d->out);
}

/* The batch index of each record's host (n for a host not in the batch:
 * none should be, and it is not written). */
static size_t *
rec_hosts(const struct jdoc *d, struct host_state **hosts, size_t n)
{
	size_t *slot, *idx, mask, s, i, k;

	/* a table from the host's name pointer to its index */
	for (mask = 15; mask < 2 * n; mask = mask * 2 + 1)
		/* nothing */;
	slot = xreallocarray(NULL, mask + 1, sizeof *slot);
	for (s = 0; s <= mask; s++)
		slot[s] = SIZE_MAX;
	for (i = 0; i < n; i++) {
		for (s = ptr_slot(hosts[i]->name, mask); slot[s] != SIZE_MAX;
		    s = (s + 1) & mask)
			/* nothing */;
		slot[s] = i;
	}
	idx = xreallocarray(NULL, d->nrecs + 1, sizeof *idx);
	for (k = 0; k < d->nrecs; k++) {
		for (s = ptr_slot(d->recs[k].host, mask); slot[s] != SIZE_MAX &&
		    hosts[slot[s]]->name != d->recs[k].host; s = (s + 1) & mask)
			/* nothing */;
		idx[k] = slot[s] == SIZE_MAX ? n : slot[s];
	}
	free(slot);
	return idx;
}

void
jdoc_batch_done(struct jdoc *d, struct host_state **hosts, size_t n)
{
	size_t *idx, *first, *count, *sorted, i, k;
	struct strbuf buf;

	if (n == 0)
		return;
	open_doc(d);
	/* A counting sort of the records by host, each host's in the order
	 * they came. */
	idx = rec_hosts(d, hosts, n);
	count = xcalloc(n + 1, sizeof *count);
	first = xcalloc(n + 2, sizeof *first);
	sorted = xreallocarray(NULL, d->nrecs + 1, sizeof *sorted);
	for (k = 0; k < d->nrecs; k++)
		count[idx[k]]++;
	for (i = 1; i <= n + 1; i++)
		first[i] = first[i - 1] + count[i - 1];
	memset(count, 0, (n + 1) * sizeof *count);
	for (k = 0; k < d->nrecs; k++)
		sorted[first[idx[k]] + count[idx[k]]++] = k;

	strbuf_init(&buf);
	for (i = 0; i < n; i++) {
		fprintf(d->out, "%s\n        ", d->nhosts > 0 ? "," : "");
		put_string(d, hosts[i]->name);
		fputs(": [", d->out);
		for (k = 0; k < count[i]; k++) {
			fprintf(d->out, "%s\n" RESULT_INDENT, k > 0 ? "," : "");
			copy_rec(d, &d->recs[sorted[first[i] + k]], &buf);
		}
		fputs(count[i] > 0 ? "\n        ]" : "]", d->out);
		d->nhosts++;
	}
	fflush(d->out);
	strbuf_release(&buf);
	free(idx);
	free(count);
	free(first);
	free(sorted);
	/* The spool holds one batch at a time: written over from 0, and
	 * emptied where it is a file. */
	d->nrecs = 0;
	d->spool_end = 0;
	if (d->spool != NULL && fileno(d->spool) >= 0 &&
	    ftruncate(fileno(d->spool), 0) != 0)
		rewind(d->spool);
}

void
jdoc_finish(struct jdoc *d, json_t *tail)
{
	char *text;
	size_t len;

	open_doc(d);
	close_play(d);
	fputs(d->nplays > 0 ? "\n  ]" : "]", d->out);
	text = json_object_size(tail) > 0 ? json_dumps(tail, DUMP_FLAGS) :
	    NULL;
	/* tail's keys, without its braces: "{\n  KEY...\n}" */
	if (text != NULL && (len = strlen(text)) > 3) {
		fputc(',', d->out);
		fwrite(text + 1, 1, len - 2, d->out);
		fputs("}\n", d->out);
	} else
		fputs("\n}\n", d->out);
	free(text);
	fflush(d->out);
	d->finished = 1;
}

void
jdoc_free(struct jdoc *d)
{
	json_t *none;

	if (d->opened && !d->finished) {
		none = json_object();
		jdoc_finish(d, none);
		json_decref(none);
	}
	if (d->spool != NULL)
		fclose(d->spool);
	free(d->membuf);
	free(d->recs);
	memset(d, 0, sizeof *d);
}
