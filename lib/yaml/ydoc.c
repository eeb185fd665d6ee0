#include "yaml/ydoc.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "base/strbuf.h"
#include "base/utf8.h"
#include "base/xalloc.h"
#include "vault/vault.h"

struct ydoc {
	char		 *file;
	struct ynode	 *root;
	struct ynode	**nodes;	/* arena: every node, for ydoc_free */
	size_t		  nnodes;
	json_t		 *anchors;	/* name -> index in nodes */
	struct ynode	**dups;		/* keys that repeat an earlier key */
	size_t		  ndups;
	int		  vaulted;	/* decrypted: wipe on free */
};

/* Totals of the document as expanded so far, checked against the limits. */
struct budget {
	size_t		nodes;
	size_t		bytes;
	size_t		alias_nodes;
	size_t		alias_bytes;
};

/* Grow an array of *cap elements so that it holds want. */
static void *
grow(void *ptr, size_t *cap, size_t want, size_t size)
{
	if (want <= *cap)
		return ptr;
	*cap = *cap < 8 ? 8 : *cap * 2;
	if (*cap < want)
		*cap = want;
	return xreallocarray(ptr, *cap, size);
}

static struct ynode *
node_new(struct ydoc *doc, size_t *nodecap, enum ynode_type type,
    const yaml_mark_t *mark)
{
	struct ynode *n = xcalloc(1, sizeof *n);

	n->type = type;
	n->pos.file = doc->file;
	n->pos.line = (int)mark->line + 1;
	n->pos.col = (int)mark->column + 1;
	doc->nodes = grow(doc->nodes, nodecap, doc->nnodes + 1,
	    sizeof *doc->nodes);
	doc->nodes[doc->nnodes++] = n;
	return n;
}

static void
node_append(struct ynode *parent, struct ynode *key, struct ynode *item)
{
	if (parent->n == parent->cap) {
		parent->cap = parent->cap < 4 ? 4 : parent->cap * 2;
		parent->items = xreallocarray(parent->items, parent->cap,
		    sizeof *parent->items);
		if (parent->type == YNODE_MAP) {
			parent->keys = xreallocarray(parent->keys, parent->cap,
			    sizeof *parent->keys);
			parent->kflags = xreallocarray(parent->kflags,
			    parent->cap, sizeof *parent->kflags);
		}
	}
	if (parent->type == YNODE_MAP) {
		parent->keys[parent->n] = key;
		parent->kflags[parent->n] = 0;
	}
	parent->items[parent->n++] = item;
}

/* Name the node just made (the last of the arena). A hash: a file may
 * have a million anchors and as many aliases. */
static void
anchor_add(struct ydoc *doc, const yaml_char_t *name)
{
	if (name == NULL)
		return;
	if (doc->anchors == NULL)
		doc->anchors = json_object();
	json_object_set_new_nocheck(doc->anchors, (const char *)name,
	    json_integer((json_int_t)doc->nnodes - 1));
}

static struct ynode *
anchor_find(struct ydoc *doc, const yaml_char_t *name)
{
	json_t *j = json_object_get(doc->anchors, (const char *)name);

	return j != NULL ? doc->nodes[json_integer_value(j)] : NULL;
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

static int
mark_fail(struct ydoc *doc, const yaml_mark_t *m, char **cause,
    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static int
mark_fail(struct ydoc *doc, const yaml_mark_t *m, char **cause,
    const char *fmt, ...)
{
	struct ypos	pos;
	va_list		ap;
	char		*msg;
	int		r;

	pos.file = doc->file;
	pos.line = (int)m->line + 1;
	pos.col = (int)m->column + 1;
	va_start(ap, fmt);
	msg = xvprintf(fmt, ap);
	va_end(ap);
	r = ypos_fail(cause, &pos, "%s", msg);
	free(msg);
	return r;
}

/*
 * Build the node tree with an explicit stack. Each stack entry is an open
 * sequence or mapping; for a mapping, pending_key holds a key waiting for
 * its value, and index maps key text to the entry that has it, once the
 * mapping is large enough for a linear search to cost.
 */
struct frame {
	struct ynode	*node;
	struct ynode	*pending_key;
	size_t		 nodes0;	/* budget before the container */
	size_t		 bytes0;
	json_t		*index;
};

#define INDEX_FROM	8

/* The entry of map with the same scalar key as entry i, before it. */
static size_t
key_find(struct frame *f, size_t i)
{
	struct ynode	*map = f->node;
	json_t		*j;
	size_t		 k;

	if (map->n > INDEX_FROM && f->index == NULL) {
		f->index = json_object();
		for (k = 0; k + 1 < map->n; k++) {
			if (map->keys[k]->type == YNODE_SCALAR)
				json_object_set_new_nocheck(f->index,
				    map->keys[k]->value, json_integer(k));
		}
	}
	if (f->index != NULL) {
		j = json_object_get(f->index, map->keys[i]->value);
		k = j != NULL ? (size_t)json_integer_value(j) : i;
		json_object_set_new_nocheck(f->index, map->keys[i]->value,
		    json_integer(i));
		return k;
	}
	for (k = i; k > 0; k--) {
		if (map->keys[k - 1]->type == YNODE_SCALAR &&
		    strcmp(map->keys[k - 1]->value, map->keys[i]->value) == 0)
			return k - 1;
	}
	return i;
}

/* Flag the entry just added to a map when its key repeats another. */
static void
key_check(struct ydoc *doc, struct frame *f)
{
	struct ynode	*map = f->node;
	size_t		 i = map->n - 1, k;

	if (map->keys[i]->type != YNODE_SCALAR ||
	    strcmp(map->keys[i]->value, "<<") == 0)
		return;
	if ((k = key_find(f, i)) == i)
		return;
	map->kflags[k] |= YKEY_SHADOWED;
	map->kflags[i] |= YKEY_REPEATED;
	doc->dups = xreallocarray(doc->dups, doc->ndups + 1,
	    sizeof *doc->dups);
	doc->dups[doc->ndups++] = map->keys[i];
}

/* A child of parent is (now) height levels deep. */
static void
raise_height(struct ynode *parent, const struct ynode *child)
{
	if (child->height + 1 > parent->height)
		parent->height = child->height + 1;
}

/* Attach n (new, or an alias) to the innermost open container. */
static void
attach(struct ydoc *doc, struct frame *stack, size_t depth, struct ynode *n)
{
	struct frame *f;

	if (depth == 0) {
		doc->root = n;
		return;
	}
	f = &stack[depth - 1];
	raise_height(f->node, n);
	if (f->node->type == YNODE_SEQ)
		node_append(f->node, NULL, n);
	else if (f->pending_key == NULL)
		f->pending_key = n;
	else {
		node_append(f->node, f->pending_key, n);
		f->pending_key = NULL;
		key_check(doc, f);
	}
}

/* Count a node written in the file. */
static int
count_node(struct ydoc *doc, struct budget *b, const yaml_mark_t *m,
    size_t len, char **cause)
{
	if (++b->nodes > YDOC_MAX_NODES)
		return mark_fail(doc, m, cause, "document has more than %d "
		    "nodes", YDOC_MAX_NODES);
	b->bytes += len;
	return 0;
}

/* Resolve an alias and count the copy of its target that it stands for. */
static struct ynode *
alias(struct ydoc *doc, struct budget *b, size_t depth, const yaml_event_t *ev,
    char **cause)
{
	const char	*name = (const char *)ev->data.alias.anchor;
	const yaml_mark_t *m = &ev->start_mark;
	struct ynode	*n;

	if ((n = anchor_find(doc, ev->data.alias.anchor)) == NULL) {
		mark_fail(doc, m, cause, "unknown alias '%s'", name);
		return NULL;
	}
	if (n->wnodes == 0) {
		/* still open: the alias is inside what it names */
		mark_fail(doc, m, cause, "alias '*%s' refers to itself", name);
		return NULL;
	}
	if (depth + n->height > YDOC_MAX_DEPTH) {
		mark_fail(doc, m, cause, "alias '*%s' nests deeper than %d "
		    "levels", name, YDOC_MAX_DEPTH);
		return NULL;
	}
	b->alias_nodes += n->wnodes;
	b->alias_bytes += n->wbytes;
	b->nodes += n->wnodes;
	b->bytes += n->wbytes;
	if (b->alias_nodes > YDOC_MAX_ALIAS_NODES || b->nodes > YDOC_MAX_NODES) {
		mark_fail(doc, m, cause, "aliases expand to more than %d nodes",
		    b->alias_nodes > YDOC_MAX_ALIAS_NODES ?
		    YDOC_MAX_ALIAS_NODES : YDOC_MAX_NODES);
		return NULL;
	}
	if (b->alias_bytes > YDOC_MAX_ALIAS_BYTES) {
		mark_fail(doc, m, cause, "aliases expand to more than %d MiB "
		    "of text", YDOC_MAX_ALIAS_BYTES / (1024 * 1024));
		return NULL;
	}
	return n;
}

static struct ynode *
scalar(struct ydoc *doc, size_t *nodecap, const yaml_event_t *ev)
{
	struct ynode *n;

	n = node_new(doc, nodecap, YNODE_SCALAR, &ev->start_mark);
	n->value = xstrndup((const char *)ev->data.scalar.value,
	    ev->data.scalar.length);
	n->len = ev->data.scalar.length;
	n->plain = ev->data.scalar.plain_implicit &&
	    ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
	if (ev->data.scalar.tag != NULL)
		n->tag = xstrdup((const char *)ev->data.scalar.tag);
	n->wnodes = 1;
	n->wbytes = n->len;
	anchor_add(doc, ev->data.scalar.anchor);
	return n;
}

/* A scalar that no JSON string can hold is refused here, where its
 * position is known, so that no caller of yaml_scalar_to_json (which
 * would return NULL for it) ever sees one: a NUL byte (a "\0" escape:
 * every C string past this layer would end there, so the value checked
 * and the value used could differ) or text that is not UTF-8 (libyaml refuses
 * most of it itself; this holds whatever it lets through). */
static int
check_scalar(struct ydoc *doc, const yaml_event_t *ev, char **cause)
{
	const char	*v = (const char *)ev->data.scalar.value;
	size_t		 len = ev->data.scalar.length;

	if (memchr(v, '\0', len) != NULL)
		return mark_fail(doc, &ev->start_mark, cause, "a scalar with "
		    "a NUL character (\"\\0\") is not supported");
	if (!utf8_valid(v, len))
		return mark_fail(doc, &ev->start_mark, cause, "a scalar that "
		    "is not valid UTF-8 is not supported");
	return 0;
}

static int
parse_events(struct ydoc *doc, yaml_parser_t *p, char **cause)
{
	yaml_event_t	 ev;
	struct frame	*stack = NULL, *f;
	struct budget	 b;
	size_t		 depth = 0, stackcap = 0, nodecap = 0;
	int		 done = 0, r = -1, opened;
	struct ynode	*n;

	memset(&b, 0, sizeof b);
	while (!done) {
		if (!yaml_parser_parse(p, &ev)) {
			parser_fail(doc, p, cause);
			goto out;
		}
		n = NULL;
		opened = 0;
		switch (ev.type) {
		case YAML_SCALAR_EVENT:
			if (count_node(doc, &b, &ev.start_mark,
			    ev.data.scalar.length, cause) != 0 ||
			    check_scalar(doc, &ev, cause) != 0)
				goto fail;
			n = scalar(doc, &nodecap, &ev);
			break;
		case YAML_ALIAS_EVENT:
			if ((n = alias(doc, &b, depth, &ev, cause)) == NULL)
				goto fail;
			break;
		case YAML_SEQUENCE_START_EVENT:
		case YAML_MAPPING_START_EVENT:
			if (depth >= YDOC_MAX_DEPTH) {
				mark_fail(doc, &ev.start_mark, cause, "nesting "
				    "deeper than %d levels", YDOC_MAX_DEPTH);
				goto fail;
			}
			stack = grow(stack, &stackcap, depth + 1, sizeof *stack);
			f = &stack[depth];
			memset(f, 0, sizeof *f);
			f->nodes0 = b.nodes;
			f->bytes0 = b.bytes;
			if (count_node(doc, &b, &ev.start_mark, 0, cause) != 0)
				goto fail;
			n = node_new(doc, &nodecap,
			    ev.type == YAML_SEQUENCE_START_EVENT ?
			    YNODE_SEQ : YNODE_MAP, &ev.start_mark);
			anchor_add(doc, ev.type == YAML_SEQUENCE_START_EVENT ?
			    ev.data.sequence_start.anchor :
			    ev.data.mapping_start.anchor);
			n->height = 1;
			f->node = n;
			opened = 1;
			break;
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT:
			/* attached when it opened; now its weight is known */
			f = &stack[--depth];
			f->node->wnodes = b.nodes - f->nodes0;
			f->node->wbytes = b.bytes - f->bytes0;
			json_decref(f->index);
			if (depth > 0)
				raise_height(stack[depth - 1].node, f->node);
			break;
		case YAML_DOCUMENT_END_EVENT:
		case YAML_STREAM_END_EVENT:
			done = 1;
			break;
		default:
			break;
		}
		if (n != NULL) {
			attach(doc, stack, depth, n);
			if (opened)
				depth++;
		}
		yaml_event_delete(&ev);
	}
	r = 0;
	goto out;
fail:
	yaml_event_delete(&ev);
out:
	while (depth > 0)
		json_decref(stack[--depth].index);
	free(stack);
	return r;
}

/* Where byte off of buf is, for an error about the input itself. */
static void
buffer_mark(const char *buf, size_t off, yaml_mark_t *m)
{
	const char *nl, *p = buf, *end = buf + off;

	memset(m, 0, sizeof *m);
	while ((nl = memchr(p, '\n', (size_t)(end - p))) != NULL) {
		m->line++;
		p = nl + 1;
	}
	m->column = (size_t)(end - p);
}

static struct ydoc *
parse(const char *name, const char *buf, size_t len, char **cause)
{
	yaml_parser_t	 parser;
	yaml_mark_t	 m;
	struct ydoc	*doc = xcalloc(1, sizeof *doc);

	doc->file = xstrdup(name);
	if (len > YDOC_MAX_INPUT) {
		buffer_mark(buf, YDOC_MAX_INPUT, &m);
		mark_fail(doc, &m, cause, "input larger than %d MiB",
		    YDOC_MAX_INPUT / (1024 * 1024));
		ydoc_free(doc);
		return NULL;
	}
	yaml_parser_initialize(&parser);
	yaml_parser_set_input_string(&parser, (const unsigned char *)buf, len);
	if (parse_events(doc, &parser, cause) != 0) {
		yaml_parser_delete(&parser);
		ydoc_free(doc);
		return NULL;
	}
	yaml_parser_delete(&parser);
	return doc;
}

/* The values (not the keys: variable names) of a decrypted document are
 * secrets to keep out of a run's output. */
static void
remember_values(const struct ynode *n)
{
	size_t i;

	if (n == NULL)
		return;
	if (n->type == YNODE_SCALAR) {
		if (strcmp(ynode_type_name(n), "string") == 0)
			vault_remember(n->value, n->len);
		return;
	}
	for (i = 0; i < n->n; i++)
		remember_values(n->items[i]);
}

/* A whole-file vaulted document is decrypted first, as Ansible's loader
 * does for every file it reads (vars files, inventories, playbooks). */
static struct ydoc *
load(const char *name, const char *buf, size_t len, char **cause)
{
	struct ydoc	*doc;
	char		*plain;
	size_t		 plainlen;

	if (!vault_is_encrypted(buf, len))
		return parse(name, buf, len, cause);
	if (vault_decrypt(name, buf, len, &plain, &plainlen, cause) != 0)
		return NULL;
	if ((doc = parse(name, plain, plainlen, cause)) != NULL) {
		doc->vaulted = 1;
		remember_values(doc->root);
	}
	vault_plain_free(plain, plainlen);
	return doc;
}

struct ydoc *
ydoc_load_file(const char *path, char **cause)
{
	FILE		*fp;
	struct ydoc	*doc = NULL;
	char		*buf;
	size_t		 len;

	if ((fp = fopen(path, "rb")) == NULL) {
		fail(cause, "%s: %s", path, strerror(errno));
		return NULL;
	}
	/* one byte past the limit is enough to know it is too large */
	buf = xmalloc(YDOC_MAX_INPUT + 1);
	len = fread(buf, 1, YDOC_MAX_INPUT + 1, fp);
	if (ferror(fp))
		fail(cause, "%s: %s", path, strerror(errno));
	else
		doc = load(path, buf, len, cause);
	free(buf);
	fclose(fp);
	return doc;
}

struct ydoc *
ydoc_load_buffer(const char *name, const char *buf, size_t len, char **cause)
{
	return load(name, buf, len, cause);
}

void
ydoc_free(struct ydoc *doc)
{
	size_t i;

	if (doc == NULL)
		return;
	for (i = 0; i < doc->nnodes; i++) {
		if (doc->vaulted && doc->nodes[i]->value != NULL)
			explicit_bzero(doc->nodes[i]->value,
			    doc->nodes[i]->len);
		free(doc->nodes[i]->value);
		free(doc->nodes[i]->tag);
		free(doc->nodes[i]->keys);
		free(doc->nodes[i]->kflags);
		free(doc->nodes[i]->items);
		free(doc->nodes[i]);
	}
	json_decref(doc->anchors);
	free(doc->dups);
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

struct ynode *const *
ydoc_duplicate_keys(const struct ydoc *doc, size_t *n)
{
	*n = doc->ndups;
	return doc->dups;
}

int
ynode_key_repeated(const struct ynode *map, size_t i)
{
	return (map->kflags[i] & YKEY_REPEATED) != 0;
}

int
ynode_key_shadowed(const struct ynode *map, size_t i)
{
	return (map->kflags[i] & YKEY_SHADOWED) != 0;
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

/*
 * An unsigned integer of any size, for values that leave 64 bits: base 1e9
 * limbs, least significant first. Python's int is exact, so Ansible shows
 * the exact digits of 0x1ffffffffffffffffff; so do we (as a string).
 */
struct bignum {
	uint32_t	*limb;
	size_t		 n;
};

#define LIMB_BASE	1000000000u

static void
big_mul_add(struct bignum *b, unsigned mul, unsigned add)
{
	uint64_t	carry = add;
	size_t		i;

	for (i = 0; i < b->n; i++) {
		carry += (uint64_t)b->limb[i] * mul;
		b->limb[i] = (uint32_t)(carry % LIMB_BASE);
		carry /= LIMB_BASE;
	}
	while (carry != 0) {
		b->limb = xreallocarray(b->limb, b->n + 1, sizeof *b->limb);
		b->limb[b->n++] = (uint32_t)(carry % LIMB_BASE);
		carry /= LIMB_BASE;
	}
}

static char *
big_text(const struct bignum *b, int neg)
{
	struct strbuf	sb;
	size_t		i;

	strbuf_init(&sb);
	if (neg)
		strbuf_addch(&sb, '-');
	strbuf_addf(&sb, "%u", b->n > 0 ? b->limb[b->n - 1] : 0);
	for (i = b->n > 0 ? b->n - 1 : 0; i > 0; i--)
		strbuf_addf(&sb, "%09u", b->limb[i - 1]);
	return strbuf_detach(&sb, NULL);
}

/* An integer as it accumulates: 64 bits while it fits, then a bignum. */
struct acc {
	uint64_t	v;
	struct bignum	big;
	int		is_big;
};

/* Move a 64-bit value into the bignum, to go on from there. */
static void
acc_promote(struct acc *a)
{
	a->is_big = 1;
	do {
		a->big.limb = xreallocarray(a->big.limb, a->big.n + 1,
		    sizeof *a->big.limb);
		a->big.limb[a->big.n++] = (uint32_t)(a->v % LIMB_BASE);
		a->v /= LIMB_BASE;
	} while (a->v != 0);
}

static void
acc_mul_add(struct acc *a, unsigned mul, unsigned add)
{
	uint64_t v;

	if (!a->is_big && !__builtin_mul_overflow(a->v, mul, &v) &&
	    !__builtin_add_overflow(v, add, &v)) {
		a->v = v;
		return;
	}
	if (!a->is_big)
		acc_promote(a);
	big_mul_add(&a->big, mul, add);
}

static json_t *
acc_json(struct acc *a, int neg)
{
	json_t	*j;
	char	*s;

	if (!a->is_big) {
		if (!neg && a->v <= (uint64_t)INT64_MAX)
			return json_integer((json_int_t)a->v);
		if (neg && a->v <= (uint64_t)INT64_MAX + 1)
			return json_integer(a->v == (uint64_t)INT64_MAX + 1 ?
			    INT64_MIN : -(json_int_t)a->v);
		acc_promote(a);
	}
	s = big_text(&a->big, neg);
	j = json_string(s);
	free(s);
	free(a->big.limb);
	return j;
}

static int
digit_value(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return 99;
}

/* Digits of base (and underscores) from p; the end of them. */
static const char *
scan_digits(const char *p, unsigned base, size_t *ndigits)
{
	*ndigits = 0;
	for (; *p == '_' || (unsigned)digit_value(*p) < base; p++) {
		if (*p != '_')
			(*ndigits)++;
	}
	return p;
}

static void
acc_digits(struct acc *a, const char *p, const char *end, unsigned base)
{
	for (; p < end; p++) {
		if (*p != '_')
			acc_mul_add(a, base, (unsigned)digit_value(*p));
	}
}

/* One ":[0-5]?[0-9]" part after the colon at p[-1]; its end, or NULL. */
static const char *
sexagesimal_part(const char *p, unsigned *value)
{
	if (!isdigit((unsigned char)p[0]))
		return NULL;
	if (!isdigit((unsigned char)p[1])) {
		*value = (unsigned)(p[0] - '0');
		return p + 1;
	}
	if (p[0] > '5')
		return NULL;
	*value = (unsigned)((p[0] - '0') * 10 + p[1] - '0');
	return p + 2;
}

/* Scalars longer than this are not numbers to us: Python refuses to
 * convert more than 4300 digits, so Ansible fails on them anyway. */
#define NUMBER_MAX	4300

/*
 * PyYAML's int: [-+]?0b[0-1_]+ | [-+]?0[0-7_]+ | [-+]?(0|[1-9][0-9_]*) |
 * [-+]?0x[0-9a-fA-F_]+ | [-+]?[1-9][0-9_]*(:[0-5]?[0-9])+
 */
static json_t *
resolve_int(const char *s)
{
	struct acc	 a;
	const char	*p = s, *end;
	unsigned	 base, part;
	size_t		 nd;
	int		 neg = 0;

	memset(&a, 0, sizeof a);
	if (*p == '+' || *p == '-')
		neg = (*p++ == '-');
	if (p[0] == '0' && (p[1] == 'b' || p[1] == 'x')) {
		base = p[1] == 'b' ? 2 : 16;
		end = scan_digits(p + 2, base, &nd);
		/* "0x_" matches, then fails in int(): keep it as text */
		if (end == p + 2 || *end != '\0' || nd == 0)
			return NULL;
		acc_digits(&a, p + 2, end, base);
		return acc_json(&a, neg);
	}
	if (p[0] == '0') {
		end = scan_digits(p + 1, 8, &nd);
		if (*end != '\0')
			return NULL;
		acc_digits(&a, p + 1, end, 8);
		return acc_json(&a, neg);
	}
	if (p[0] < '1' || p[0] > '9')
		return NULL;
	end = scan_digits(p, 10, &nd);
	acc_digits(&a, p, end, 10);
	if (*end == ':') {
		/* sexagesimal: every part after the first is 0 to 59 */
		while (*end == ':') {
			if ((end = sexagesimal_part(end + 1, &part)) == NULL)
				break;
			acc_mul_add(&a, 60, part);
		}
		if (end == NULL || *end != '\0') {
			free(a.big.limb);
			return NULL;
		}
	} else if (*end != '\0') {
		free(a.big.limb);
		return NULL;
	}
	return acc_json(&a, neg);
}

/* Python's float() of a decimal text with underscores (PyYAML drops them). */
static double
decimal_value(const char *p, const char *end)
{
	char	*buf = xmalloc((size_t)(end - p) + 1), *o = buf;
	double	 d;

	for (; p < end; p++) {
		if (*p != '_')
			*o++ = *p;
	}
	*o = '\0';
	d = strtod(buf, NULL);
	free(buf);
	return d;
}

/* 60^k rounded once, as Python converts its exact int 60^k to a float
 * (repeated multiplication would round at every step). */
static double
power60(size_t k)
{
	struct acc	a;
	char		*text;
	double		 d;

	memset(&a, 0, sizeof a);
	a.v = 1;
	while (k-- > 0)
		acc_mul_add(&a, 60, 0);
	if (!a.is_big)
		return (double)a.v;
	text = big_text(&a.big, 0);
	d = strtod(text, NULL);
	free(text);
	free(a.big.limb);
	return d;
}

/* [0-9_]* then an optional [eE][-+][0-9]+; the end, or NULL. */
static const char *
fraction_end(const char *p, int exponent)
{
	size_t nd;

	p = scan_digits(p, 10, &nd);
	if (exponent && (*p == 'e' || *p == 'E')) {
		if ((p[1] != '+' && p[1] != '-') ||
		    !isdigit((unsigned char)p[2]))
			return NULL;
		for (p += 2; isdigit((unsigned char)*p); p++)
			;
	}
	return p;
}

/*
 * PyYAML's float: [-+]?[0-9][0-9_]*\.[0-9_]*([eE][-+][0-9]+)? |
 * \.[0-9][0-9_]*([eE][-+][0-9]+)? | [-+]?[0-9][0-9_]*(:[0-5]?[0-9])+\.[0-9_]*
 * | [-+]?\.(inf|Inf|INF) | \.(nan|NaN|NAN). Infinities and NaN, which
 * jansson cannot hold, are left to be strings.
 */
static json_t *
resolve_float(const char *s)
{
	const char	*p = s, *end, *colon;
	double		*parts, v = 0, base = 1;
	size_t		 nparts = 0, nd, i;
	unsigned	 part;
	int		 neg = 0;

	if (*p == '+' || *p == '-')
		neg = (*p++ == '-');
	if (p[0] == '.') {
		/* ".5" takes no sign in PyYAML's pattern */
		if (p != s || !isdigit((unsigned char)p[1]) ||
		    (end = fraction_end(p + 1, 1)) == NULL || *end != '\0')
			return NULL;
		v = decimal_value(p, end);
	} else {
		if (!isdigit((unsigned char)p[0]))
			return NULL;
		end = scan_digits(p, 10, &nd);
		if (*end == '.') {
			if ((end = fraction_end(end + 1, 1)) == NULL ||
			    *end != '\0')
				return NULL;
			v = decimal_value(p, end);
		} else if (*end == ':') {
			/* at most one part per two characters */
			parts = xreallocarray(NULL, strlen(p) / 2 + 1,
			    sizeof *parts);
			parts[nparts++] = decimal_value(p, end);
			while (*end == ':') {
				colon = end;
				if ((end = sexagesimal_part(end + 1, &part)) ==
				    NULL)
					break;
				if (*end == '.') {
					/* the last part carries the fraction */
					end = fraction_end(end + 1, 0);
					parts[nparts++] = decimal_value(colon + 1,
					    end);
					break;
				}
				parts[nparts++] = part;
			}
			if (end == NULL || *end != '\0' ||
			    strchr(s, '.') == NULL) {
				free(parts);
				return NULL;
			}
			/* summed as PyYAML does, least significant first */
			for (i = nparts; i > 0; i--) {
				if (!isfinite(base)) {
					/* OverflowError in PyYAML */
					free(parts);
					return NULL;
				}
				v += parts[i - 1] * base;
				base = power60(nparts - i + 1);
			}
			free(parts);
		} else
			return NULL;
	}
	if (!isfinite(v))
		return NULL;
	return json_real(neg ? -v : v);
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
	if (len > NUMBER_MAX)
		return json_stringn(s, len);
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

/* The value of a merge key over j: a mapping, or a list of mappings of
 * which the earlier win. */
static void
merge_into(json_t *j, const struct ynode *value)
{
	json_t	*m, *first = json_object();
	size_t	 i;

	if (value->type == YNODE_MAP) {
		m = ynode_to_json(value);
		json_object_update(j, m);
		json_decref(m);
	} else if (value->type == YNODE_SEQ) {
		for (i = 0; i < value->n; i++) {
			m = ynode_to_json(value->items[i]);
			if (json_is_object(m))
				json_object_update_missing(first, m);
			json_decref(m);
		}
		json_object_update(j, first);
	}
	json_decref(first);
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
		/* what ansible-inventory prints for an inline value; the
		 * runner reveals it (vault_reveal_vars) */
		if (tag_is(n, "!vault") || tag_is(n, "!vault-encrypted"))
			return vault_inline_new(n->value, n->len);
		if (tag_is(n, ":str") || tag_is(n, "!unsafe"))
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
		/* PyYAML's flatten_mapping: the merged keys first, a later
		 * merge key over an earlier one; the written keys over both */
		j = json_object();
		for (i = 0; i < n->n; i++) {
			if (strcmp(ynode_key(n, i), "<<") == 0)
				merge_into(j, n->items[i]);
		}
		for (i = 0; i < n->n; i++) {
			if (strcmp(ynode_key(n, i), "<<") != 0)
				json_object_set_new(j, ynode_key(n, i),
				    ynode_to_json(n->items[i]));
		}
		return j;
	}
	return json_null();
}
