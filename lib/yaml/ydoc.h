/* YAML documents that remember where every node came from.
 *
 * A ydoc owns every node (an arena), so aliases may share nodes and nothing
 * is freed on its own. Positions are 1-based; file names are owned by the
 * document. Scalars keep their style so that the YAML 1.1 typing Ansible
 * applies (plain `yes` is a bool, quoted "yes" is a string) can be done by
 * ynode_to_json. */
#ifndef TCPTUNE_YDOC_H
#define TCPTUNE_YDOC_H

#include <jansson.h>
#include <stddef.h>

/*
 * Limits on what one document may cost, so that hostile or broken input
 * (a dynamic inventory, a vars file from elsewhere) ends in an error with a
 * position instead of exhausting the stack, the memory or the clock. Every
 * consumer walks the tree recursively and expands aliases (ynode_to_json),
 * so the limits are on the tree as expanded, checked while it is built:
 *
 *   YDOC_MAX_INPUT        bytes of YAML in one file or buffer
 *   YDOC_MAX_DEPTH        nested sequences and mappings, aliases expanded
 *                         ("x: [[[...]]]" 257 deep is refused)
 *   YDOC_MAX_NODES        nodes of the document with every alias expanded
 *   YDOC_MAX_ALIAS_NODES  nodes that aliases add on top of those written
 *                         ("billion laughs" is refused here)
 *   YDOC_MAX_ALIAS_BYTES  scalar bytes that aliases add, for the same
 *                         attack made of long strings instead of many nodes
 *
 * A recursive alias (`x: &a [*a]`, which PyYAML builds as a cyclic list) is
 * refused: nothing downstream could walk it. Errors read
 * "FILE:LINE:COL: alias '*a' refers to itself" and the like, at the node
 * that crossed the limit.
 */
#define YDOC_MAX_INPUT		(16 * 1024 * 1024)
#define YDOC_MAX_DEPTH		256
#define YDOC_MAX_NODES		4000000
#define YDOC_MAX_ALIAS_NODES	1000000
#define YDOC_MAX_ALIAS_BYTES	(64 * 1024 * 1024)

struct ypos {
	const char	*file;
	int		 line;
	int		 col;
};

enum ynode_type { YNODE_SCALAR, YNODE_SEQ, YNODE_MAP };

struct ynode {
	enum ynode_type	 type;
	struct ypos	 pos;
	/* YNODE_SCALAR */
	char		*value;
	size_t		 len;
	int		 plain;	/* unquoted, untagged: subject to typing */
	char		*tag;	/* explicit tag such as "tag:yaml.org,2002:str" */
	/* YNODE_SEQ: items[0..n); YNODE_MAP: keys[i] -> items[i] */
	struct ynode	**keys;
	struct ynode	**items;
	size_t		 n;
	/* YNODE_MAP: YKEY_* flags of each entry (duplicate keys) */
	unsigned char	*kflags;
	/* private to ydoc.c */
	size_t		 cap;		/* allocated items (and keys) */
	size_t		 wnodes;	/* nodes with aliases expanded (0: open) */
	size_t		 wbytes;	/* scalar bytes with aliases expanded */
	unsigned	 height;	/* nested containers, aliases expanded */
};

/*
 * Duplicate keys: PyYAML keeps the last value of a key that a mapping
 * repeats (Ansible warns). Keys compare as text, as ynode_key gives them;
 * merge keys ("<<") never count as duplicates.
 */
#define YKEY_REPEATED	0x1	/* an earlier entry has the same key */
#define YKEY_SHADOWED	0x2	/* a later entry has the same key */

struct ydoc;

/* Load the first document of a file or buffer. An empty file gives a NULL
 * root. Errors read "FILE:LINE:COL: message". */
struct ydoc	*ydoc_load_file(const char *path, char **cause);
struct ydoc	*ydoc_load_buffer(const char *name, const char *buf, size_t len,
		    char **cause);
void		 ydoc_free(struct ydoc *doc);
struct ynode	*ydoc_root(const struct ydoc *doc);
const char	*ydoc_file(const struct ydoc *doc);

/* The keys that repeat an earlier key of their mapping, in file order. */
struct ynode	*const *ydoc_duplicate_keys(const struct ydoc *doc, size_t *n);

/* Value of key in a map (the last one when duplicated), or NULL. */
struct ynode	*ynode_get(const struct ynode *map, const char *key);
/* Key of a map entry as a string (maps with non-scalar keys give ""). */
const char	*ynode_key(const struct ynode *map, size_t i);
/* Entry i of a map repeats an earlier key / is overridden by a later one. */
int		 ynode_key_repeated(const struct ynode *map, size_t i);
int		 ynode_key_shadowed(const struct ynode *map, size_t i);
int		 ynode_is_null(const struct ynode *n);
const char	*ynode_type_name(const struct ynode *n);

/* "file:line:col" of a node, in a static-free allocated string. */
char		*ypos_str(const struct ypos *pos);
/* Fail with "file:line:col: <message>". */
int		 ypos_fail(char **cause, const struct ypos *pos, const char *fmt,
		    ...) __attribute__((format(printf, 3, 4)));

/* Convert with PyYAML's YAML 1.1 resolver rules, as Ansible reads YAML. */
json_t		*ynode_to_json(const struct ynode *n);
/*
 * The typed value of one plain scalar (null, bool, int, float or string),
 * by the regular expressions of PyYAML's resolver. Where PyYAML's value
 * cannot be a jansson number it stays data, never a wrapped number: an
 * integer beyond 64 bits becomes the string of its exact decimal digits
 * (what Ansible prints for it), a float that overflows or is .inf/.nan
 * keeps its text, and so does a "0x_" that PyYAML fails to convert.
 */
json_t		*yaml_scalar_to_json(const char *s, size_t len, int plain);

#endif
