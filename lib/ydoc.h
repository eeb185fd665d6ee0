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
};

struct ydoc;

/* Load the first document of a file or buffer. An empty file gives a NULL
 * root. Errors read "FILE:LINE:COL: message". */
struct ydoc	*ydoc_load_file(const char *path, char **cause);
struct ydoc	*ydoc_load_buffer(const char *name, const char *buf, size_t len,
		    char **cause);
void		 ydoc_free(struct ydoc *doc);
struct ynode	*ydoc_root(const struct ydoc *doc);
const char	*ydoc_file(const struct ydoc *doc);

/* Value of key in a map (the last one when duplicated), or NULL. */
struct ynode	*ynode_get(const struct ynode *map, const char *key);
/* Key of a map entry as a string (maps with non-scalar keys give ""). */
const char	*ynode_key(const struct ynode *map, size_t i);
int		 ynode_is_null(const struct ynode *n);
const char	*ynode_type_name(const struct ynode *n);

/* "file:line:col" of a node, in a static-free allocated string. */
char		*ypos_str(const struct ypos *pos);
/* Fail with "file:line:col: <message>". */
int		 ypos_fail(char **cause, const struct ypos *pos, const char *fmt,
		    ...) __attribute__((format(printf, 3, 4)));

/* Convert with PyYAML's YAML 1.1 resolver rules, as Ansible reads YAML. */
json_t		*ynode_to_json(const struct ynode *n);
/* The typed value of one plain scalar (null, bool, int, float or string). */
json_t		*yaml_scalar_to_json(const char *s, size_t len, int plain);

#endif
