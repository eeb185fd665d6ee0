#include "playbook/extravars.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/utf8.h"
#include "template/template.h"
#include "base/xalloc.h"
#include "yaml/ydoc.h"
#include "base/util.h"


/* Split "k=v k2='v 2'" like Ansible's parse_kv: words separated by
 * unquoted blanks, quotes removed, backslash escapes the next character;
 * a Jinja2 block ({{ }}, {% %}, {# #}) is kept whole, blanks and quotes
 * in it included, as split_args keeps it (x={{ a + 1 }} is one value). */
static int
parse_kv(const char *item, json_t *out, char **cause)
{
	const char	*p = item;
	struct strbuf	 word;
	char		 quote;
	char		*eq;
	int		 r = -1, inword, depth = 0;

	strbuf_init(&word);
	for (;;) {
		while (isspace((unsigned char)*p))
			p++;
		if (*p == '\0')
			break;
		strbuf_reset(&word);
		quote = 0;
		inword = 1;
		depth = 0;
		for (; *p != '\0' && inword; p++) {
			if (quote == 0 && p[0] == '{' && (p[1] == '{' ||
			    p[1] == '%' || p[1] == '#')) {
				depth++;
				strbuf_add(&word, p++, 2);
			} else if (depth > 0 && (p[0] == '}' || p[0] == '%' ||
			    p[0] == '#') && p[1] == '}') {
				depth--;
				strbuf_add(&word, p++, 2);
			} else if (depth > 0)
				strbuf_addch(&word, *p);
			else if (quote != 0) {
				if (*p == quote)
					quote = 0;
				else if (*p == '\\' && quote == '"' &&
				    p[1] != '\0')
					strbuf_addch(&word, *++p);
				else
					strbuf_addch(&word, *p);
			} else if (*p == '\'' || *p == '"')
				quote = *p;
			else if (*p == '\\' && p[1] != '\0')
				strbuf_addch(&word, *++p);
			else if (isspace((unsigned char)*p))
				inword = 0;
			else
				strbuf_addch(&word, *p);
		}
		if (quote != 0) {
			fail(cause, "extra vars '%s': unterminated quote",
			    item);
			goto out;
		}
		if (depth > 0) {
			fail(cause, "extra vars '%s': unbalanced Jinja2 block",
			    item);
			goto out;
		}
		if ((eq = strchr(word.buf, '=')) == NULL) {
			fail(cause, "extra vars '%s': expected key=value, got "
			    "'%s'", item, word.buf);
			goto out;
		}
		*eq = '\0';
		if (!str_is_identifier(word.buf)) {
			fail(cause, "extra vars '%s': invalid variable name "
			    "'%s'", item, word.buf);
			goto out;
		}
		/* jansson holds UTF-8 only: anything else would be a NULL
		 * value, a variable silently missing */
		if (!utf8_valid(eq + 1, strlen(eq + 1))) {
			fail(cause, "extra vars: value of '%s' is not UTF-8",
			    word.buf);
			goto out;
		}
		json_object_set_new(out, word.buf, json_string(eq + 1));
	}
	r = 0;
out:
	strbuf_release(&word);
	return r;
}

static json_t *
load_mapping(struct ydoc *doc, const char *what, char **cause)
{
	struct ynode	*root = ydoc_root(doc);
	json_t		*v;

	if (root == NULL)
		return json_object();
	if (root->type != YNODE_MAP) {
		fail(cause, "%s:%d:%d: extra vars %s must be a mapping, got %s",
		    root->pos.file, root->pos.line, root->pos.col, what,
		    ynode_type_name(root));
		return NULL;
	}
	v = ynode_to_json(root);
	return v;
}

json_t *
extravars_parse(char *const *items, size_t n, char **cause)
{
	json_t		*out = json_object(), *v;
	struct ydoc	*doc;
	const char	*s;
	size_t		 i;

	for (i = 0; i < n; i++) {
		s = items[i];
		while (isspace((unsigned char)*s))
			s++;
		v = NULL;
		if (*s == '@') {
			if ((doc = ydoc_load_file(s + 1, cause)) == NULL)
				goto fail;
			v = load_mapping(doc, "file", cause);
			ydoc_free(doc);
		} else if (*s == '{') {
			/* JSON is YAML, and YAML keeps the error position */
			if ((doc = ydoc_load_buffer("extra vars", s, strlen(s),
			    cause)) == NULL)
				goto fail;
			v = load_mapping(doc, "object", cause);
			ydoc_free(doc);
		} else {
			v = json_object();
			if (parse_kv(s, v, cause) != 0) {
				json_decref(v);
				goto fail;
			}
		}
		if (v == NULL)
			goto fail;
		json_object_update(out, v);
		json_decref(v);
	}
	return out;
fail:
	json_decref(out);
	return NULL;
}
