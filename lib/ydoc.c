#include "ydoc.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "strbuf.h"
#include "xalloc.h"

struct anchor {
	char		*name;
	struct ynode	*node;
};

struct ydoc {
	char		 *file;
	struct ynode	 *root;
	struct ynode	**nodes;	/* arena: every node, for ydoc_free */
	size_t		  nnodes;
	struct anchor	 *anchors;
	size_t		  nanchors;
};

static struct ynode *
node_new(struct ydoc *doc, enum ynode_type type, const yaml_mark_t *mark)
{
	struct ynode *n = xcalloc(1, sizeof *n);

	n->type = type;
	n->pos.file = doc->file;
	n->pos.line = (int)mark->line + 1;
	n->pos.col = (int)mark->column + 1;
	doc->nodes = xreallocarray(doc->nodes, doc->nnodes + 1,
	    sizeof *doc->nodes);
	doc->nodes[doc->nnodes++] = n;
	return n;
}

static void
node_append(struct ynode *parent, struct ynode *key, struct ynode *item)
{
	parent->items = xreallocarray(parent->items, parent->n + 1,
	    sizeof *parent->items);
	if (parent->type == YNODE_MAP) {
		parent->keys = xreallocarray(parent->keys, parent->n + 1,
		    sizeof *parent->keys);
		parent->keys[parent->n] = key;
	}
	parent->items[parent->n++] = item;
}

static void
anchor_add(struct ydoc *doc, const yaml_char_t *name, struct ynode *node)
{
	if (name == NULL)
		return;
	doc->anchors = xreallocarray(doc->anchors, doc->nanchors + 1,
	    sizeof *doc->anchors);
	doc->anchors[doc->nanchors].name = xstrdup((const char *)name);
	doc->anchors[doc->nanchors].node = node;
	doc->nanchors++;
}

static struct ynode *
anchor_find(struct ydoc *doc, const yaml_char_t *name)
{
	size_t i;

	for (i = doc->nanchors; i > 0; i--) {
		if (strcmp(doc->anchors[i - 1].name, (const char *)name) == 0)
			return doc->anchors[i - 1].node;
	}
	return NULL;
}

static int
parser_fail(struct ydoc *doc, yaml_parser_t *p, char **cause)
{
	const yaml_mark_t *m = &p->problem_mark;

	if (p->context != NULL)
		return fail(cause, "%s:%zu:%zu: %s %s", doc->file,
		    m->line + 1, m->column + 1, p->problem, p->context);
	return fail(cause, "%s:%zu:%zu: %s", doc->file, m->line + 1,
	    m->column + 1, p->problem != NULL ? p->problem : "invalid YAML");
}

/*
 * Build the node tree with an explicit stack. Each stack entry is an open
 * sequence or mapping; for a mapping, pending_key holds a key waiting for
 * its value.
 */
struct frame {
	struct ynode	*node;
	struct ynode	*pending_key;
};

static int
parse_events(struct ydoc *doc, yaml_parser_t *p, char **cause)
{
	yaml_event_t	 ev;
	struct frame	*stack = NULL;
	size_t		 depth = 0;
	int		 done = 0, r = -1;

	while (!done) {
		struct ynode *n = NULL;

		if (!yaml_parser_parse(p, &ev)) {
			parser_fail(doc, p, cause);
			goto out;
		}
		switch (ev.type) {
		case YAML_SCALAR_EVENT:
			n = node_new(doc, YNODE_SCALAR, &ev.start_mark);
			n->value = xstrndup((const char *)ev.data.scalar.value,
			    ev.data.scalar.length);
			n->len = ev.data.scalar.length;
			n->plain = ev.data.scalar.plain_implicit &&
			    ev.data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
			if (ev.data.scalar.tag != NULL)
				n->tag = xstrdup((const char *)ev.data.scalar.tag);
			anchor_add(doc, ev.data.scalar.anchor, n);
			break;
		case YAML_ALIAS_EVENT:
			n = anchor_find(doc, ev.data.alias.anchor);
			if (n == NULL) {
				fail(cause, "%s:%zu:%zu: unknown alias '%s'",
				    doc->file, ev.start_mark.line + 1,
				    ev.start_mark.column + 1,
				    (const char *)ev.data.alias.anchor);
				yaml_event_delete(&ev);
				goto out;
			}
			break;
		case YAML_SEQUENCE_START_EVENT:
		case YAML_MAPPING_START_EVENT:
			n = node_new(doc, ev.type == YAML_SEQUENCE_START_EVENT ?
			    YNODE_SEQ : YNODE_MAP, &ev.start_mark);
			anchor_add(doc, ev.type == YAML_SEQUENCE_START_EVENT ?
			    ev.data.sequence_start.anchor :
			    ev.data.mapping_start.anchor, n);
			break;
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT:
			n = stack[--depth].node;
			break;
		case YAML_DOCUMENT_END_EVENT:
			done = 1;
			break;
		case YAML_STREAM_END_EVENT:
			done = 1;
			break;
		default:
			break;
		}
		if (n != NULL) {
			int opened = (ev.type == YAML_SEQUENCE_START_EVENT ||
			    ev.type == YAML_MAPPING_START_EVENT);

			/* A closed container is attached when it opened. */
			if (ev.type != YAML_SEQUENCE_END_EVENT &&
			    ev.type != YAML_MAPPING_END_EVENT) {
				if (depth == 0)
					doc->root = n;
				else {
					struct frame *f = &stack[depth - 1];

					if (f->node->type == YNODE_SEQ)
						node_append(f->node, NULL, n);
					else if (f->pending_key == NULL)
						f->pending_key = n;
					else {
						node_append(f->node,
						    f->pending_key, n);
						f->pending_key = NULL;
					}
				}
			}
			if (opened) {
				stack = xreallocarray(stack, depth + 1,
				    sizeof *stack);
				stack[depth].node = n;
				stack[depth].pending_key = NULL;
				depth++;
			}
		}
		yaml_event_delete(&ev);
	}
	r = 0;
out:
	free(stack);
	return r;
}

static struct ydoc *
load(const char *name, FILE *fp, const char *buf, size_t len, char **cause)
{
	yaml_parser_t	 parser;
	struct ydoc	*doc = xcalloc(1, sizeof *doc);

	doc->file = xstrdup(name);
	yaml_parser_initialize(&parser);
	if (fp != NULL)
		yaml_parser_set_input_file(&parser, fp);
	else
		yaml_parser_set_input_string(&parser,
		    (const unsigned char *)buf, len);
	if (parse_events(doc, &parser, cause) != 0) {
		yaml_parser_delete(&parser);
		ydoc_free(doc);
		return NULL;
	}
	yaml_parser_delete(&parser);
	return doc;
}

struct ydoc *
ydoc_load_file(const char *path, char **cause)
{
	FILE		*fp;
	struct ydoc	*doc;

	if ((fp = fopen(path, "rb")) == NULL) {
		fail(cause, "%s: %s", path, strerror(errno));
		return NULL;
	}
	doc = load(path, fp, NULL, 0, cause);
	fclose(fp);
	return doc;
}

struct ydoc *
ydoc_load_buffer(const char *name, const char *buf, size_t len, char **cause)
{
	return load(name, NULL, buf, len, cause);
}

void
ydoc_free(struct ydoc *doc)
{
	size_t i;

	if (doc == NULL)
		return;
	for (i = 0; i < doc->nnodes; i++) {
		free(doc->nodes[i]->value);
		free(doc->nodes[i]->tag);
		free(doc->nodes[i]->keys);
		free(doc->nodes[i]->items);
		free(doc->nodes[i]);
	}
	for (i = 0; i < doc->nanchors; i++)
		free(doc->anchors[i].name);
	free(doc->anchors);
	free(doc->nodes);
	free(doc->file);
	free(doc);
}

struct ynode *
ydoc_root(const struct ydoc *doc)
{
	return doc->root;
}

const char *
ydoc_file(const struct ydoc *doc)
{
	return doc->file;
}

const char *
ynode_key(const struct ynode *map, size_t i)
{
	const struct ynode *k = map->keys[i];

	return k->type == YNODE_SCALAR ? k->value : "";
}

struct ynode *
ynode_get(const struct ynode *map, const char *key)
{
	size_t i;

	if (map == NULL || map->type != YNODE_MAP)
		return NULL;
	for (i = map->n; i > 0; i--) {
		if (strcmp(ynode_key(map, i - 1), key) == 0)
			return map->items[i - 1];
	}
	return NULL;
}

int
ynode_is_null(const struct ynode *n)
{
	json_t	*j;
	int	 r;

	if (n == NULL)
		return 1;
	if (n->type != YNODE_SCALAR || !n->plain)
		return 0;
	j = yaml_scalar_to_json(n->value, n->len, 1);
	r = json_is_null(j);
	json_decref(j);
	return r;
}

const char *
ynode_type_name(const struct ynode *n)
{
	json_t		*j;
	const char	*name;

	if (n == NULL)
		return "null";
	if (n->type == YNODE_SEQ)
		return "list";
	if (n->type == YNODE_MAP)
		return "mapping";
	j = yaml_scalar_to_json(n->value, n->len, n->plain && n->tag == NULL);
	switch (json_typeof(j)) {
	case JSON_NULL: name = "null"; break;
	case JSON_TRUE:
	case JSON_FALSE: name = "bool"; break;
	case JSON_INTEGER: name = "int"; break;
	case JSON_REAL: name = "float"; break;
	default: name = "string"; break;
	}
	json_decref(j);
	return name;
}

char *
ypos_str(const struct ypos *pos)
{
	return xprintf("%s:%d:%d", pos->file, pos->line, pos->col);
}

int
ypos_fail(char **cause, const struct ypos *pos, const char *fmt, ...)
{
	va_list	 ap;
	char	*msg;

	if (cause == NULL)
		return -1;
	va_start(ap, fmt);
	msg = xvprintf(fmt, ap);
	va_end(ap);
	*cause = xprintf("%s:%d:%d: %s", pos->file, pos->line, pos->col, msg);
	free(msg);
	return -1;
}

/*
 * PyYAML's implicit resolvers (YAML 1.1), which is what Ansible applies to
 * plain scalars. Underscores are allowed inside numbers; sexagesimal
 * (base 60) ints and floats are honoured because PyYAML honours them.
 */
static int
match_words(const char *s, const char *const *words)
{
	for (; *words != NULL; words++) {
		if (strcmp(s, *words) == 0)
			return 1;
	}
	return 0;
}

static int
strip_underscores(const char *s, char *out, size_t outsz)
{
	size_t o = 0;

	for (; *s != '\0'; s++) {
		if (*s == '_')
			continue;
		if (o + 1 >= outsz)
			return -1;
		out[o++] = *s;
	}
	out[o] = '\0';
	return 0;
}

static int
all_chars(const char *s, const char *set)
{
	if (*s == '\0')
		return 0;
	for (; *s != '\0'; s++) {
		if (strchr(set, *s) == NULL)
			return 0;
	}
	return 1;
}

static json_t *
resolve_int(const char *s)
{
	char		 digits[128];
	const char	*p = s;
	int		 neg = 0;
	long long	 v;
	char		*end;

	if (*p == '+' || *p == '-')
		neg = (*p++ == '-');
	if (*p == '\0')
		return NULL;
	if (strncmp(p, "0b", 2) == 0 && all_chars(p + 2, "01_")) {
		if (strip_underscores(p + 2, digits, sizeof digits) != 0)
			return NULL;
		v = strtoll(digits, &end, 2);
	} else if (strncmp(p, "0x", 2) == 0 &&
	    all_chars(p + 2, "0123456789abcdefABCDEF_")) {
		if (strip_underscores(p + 2, digits, sizeof digits) != 0)
			return NULL;
		v = strtoll(digits, &end, 16);
	} else if (p[0] == '0' && p[1] != '\0' && all_chars(p + 1, "01234567_")) {
		if (strip_underscores(p + 1, digits, sizeof digits) != 0)
			return NULL;
		v = strtoll(digits, &end, 8);
	} else if (strcmp(p, "0") == 0) {
		v = 0;
	} else if (p[0] >= '1' && p[0] <= '9' && all_chars(p, "0123456789_")) {
		if (strip_underscores(p, digits, sizeof digits) != 0)
			return NULL;
		errno = 0;
		v = strtoll(digits, &end, 10);
		if (errno == ERANGE)
			return NULL;
	} else if (p[0] >= '1' && p[0] <= '9' && strchr(p, ':') != NULL &&
	    all_chars(p, "0123456789_:")) {
		/* sexagesimal: 190:20:30 */
		const char *q = p;

		v = 0;
		while (*q != '\0') {
			long long part = 0;

			while (*q != '\0' && *q != ':') {
				if (*q != '_')
					part = part * 10 + (*q - '0');
				q++;
			}
			v = v * 60 + part;
			if (*q == ':')
				q++;
		}
	} else
		return NULL;
	return json_integer(neg ? -v : v);
}

static json_t *
resolve_float(const char *s)
{
	char		 buf[128];
	const char	*p = s;
	int		 neg = 0, seen_dot = 0, seen_digit = 0;
	const char	*q;

	if (*p == '+' || *p == '-')
		neg = (*p++ == '-');
	if (strcmp(p, ".inf") == 0 || strcmp(p, ".Inf") == 0 ||
	    strcmp(p, ".INF") == 0)
		return json_real(neg ? -INFINITY : INFINITY);
	if (s[0] != '+' && s[0] != '-' && (strcmp(s, ".nan") == 0 ||
	    strcmp(s, ".NaN") == 0 || strcmp(s, ".NAN") == 0))
		return json_real(NAN);
	/* [0-9][0-9_]*\.[0-9_]*([eE][-+][0-9]+)? or \.[0-9_]+(...)? */
	for (q = p; *q != '\0'; q++) {
		if (isdigit((unsigned char)*q))
			seen_digit = 1;
		else if (*q == '_')
			;
		else if (*q == '.' && !seen_dot)
			seen_dot = 1;
		else
			break;
	}
	if (!seen_dot || (p[0] == '.' && !seen_digit) || p[0] == '_')
		return NULL;
	if (*q == 'e' || *q == 'E') {
		if (q[1] != '+' && q[1] != '-')
			return NULL;
		if (!all_chars(q + 2, "0123456789"))
			return NULL;
	} else if (*q != '\0')
		return NULL;
	if (strip_underscores(p, buf, sizeof buf) != 0)
		return NULL;
	return json_real(neg ? -strtod(buf, NULL) : strtod(buf, NULL));
}

json_t *
yaml_scalar_to_json(const char *s, size_t len, int plain)
{
	static const char *const nulls[] = { "", "~", "null", "Null", "NULL",
	    NULL };
	static const char *const trues[] = { "yes", "Yes", "YES", "true",
	    "True", "TRUE", "on", "On", "ON", NULL };
	static const char *const falses[] = { "no", "No", "NO", "false",
	    "False", "FALSE", "off", "Off", "OFF", NULL };
	json_t *j;

	if (!plain || strlen(s) != len)
		return json_stringn(s, len);
	if (match_words(s, nulls))
		return json_null();
	if (match_words(s, trues))
		return json_true();
	if (match_words(s, falses))
		return json_false();
	if ((j = resolve_int(s)) != NULL)
		return j;
	if ((j = resolve_float(s)) != NULL)
		return j;
	return json_stringn(s, len);
}

static int
tag_is(const struct ynode *n, const char *suffix)
{
	size_t tl, sl = strlen(suffix);

	if (n->tag == NULL)
		return 0;
	tl = strlen(n->tag);
	return tl >= sl && strcmp(n->tag + tl - sl, suffix) == 0;
}

json_t *
ynode_to_json(const struct ynode *n)
{
	json_t	*j;
	size_t	 i;

	if (n == NULL)
		return json_null();
	switch (n->type) {
	case YNODE_SCALAR:
		if (tag_is(n, ":str") || tag_is(n, "!unsafe") ||
		    tag_is(n, "!vault"))
			return json_stringn(n->value, n->len);
		if (n->tag != NULL && !n->plain)
			return yaml_scalar_to_json(n->value, n->len, 1);
		return yaml_scalar_to_json(n->value, n->len, n->plain);
	case YNODE_SEQ:
		j = json_array();
		for (i = 0; i < n->n; i++)
			json_array_append_new(j, ynode_to_json(n->items[i]));
		return j;
	case YNODE_MAP:
		j = json_object();
		for (i = 0; i < n->n; i++) {
			if (strcmp(ynode_key(n, i), "<<") == 0) {
				/* merge key: earlier explicit keys win */
				json_t *m = ynode_to_json(n->items[i]);

				if (json_is_object(m))
					json_object_update_missing(j, m);
				json_decref(m);
				continue;
			}
			json_object_set_new(j, ynode_key(n, i),
			    ynode_to_json(n->items[i]));
		}
		return j;
	}
	return json_null();
}
