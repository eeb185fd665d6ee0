#include "playbook/loop.h"

#include <stdlib.h>
#include <string.h>

#include "base/pyrepr.h"
#include "base/strbuf.h"
#include "base/util.h"
#include "base/xalloc.h"
#include "template/template.h"

/* The loop keywords, each with the lookup's shape of its items. */
static const struct {
	const char	*key;
	enum loop_kind	 kind;
} loop_keys[] = {
	{ "loop", LOOP_LIST },
	{ "with_list", LOOP_LIST },
	{ "with_items", LOOP_ITEMS },
	{ "with_dict", LOOP_DICT },
	{ "with_indexed_items", LOOP_INDEXED },
	{ "with_together", LOOP_TOGETHER },
	{ "with_nested", LOOP_NESTED },
	{ "with_cartesian", LOOP_NESTED },
	{ "with_sequence", LOOP_SEQUENCE },
	{ "with_subelements", LOOP_SUBELEMENTS },
	{ "with_fileglob", LOOP_FILEGLOB },
	{ "with_first_found", LOOP_FIRST_FOUND },
	{ NULL, LOOP_NONE },
};

static const char *const control_keys[] = { "loop_var", "index_var",
	"label", "extended", "pause", NULL };

static enum loop_kind
kind_of(const char *key)
{
	size_t i;

	for (i = 0; loop_keys[i].key != NULL; i++) {
		if (strcmp(loop_keys[i].key, key) == 0)
			return loop_keys[i].kind;
	}
	return LOOP_NONE;
}

int
loop_is_keyword(const char *key)
{
	return kind_of(key) != LOOP_NONE || strcmp(key, "loop_control") == 0;
}

const char *
loop_keyword(const struct ynode *task, size_t *index)
{
	size_t i;

	for (i = 0; task->type == YNODE_MAP && i < task->n; i++) {
		if (kind_of(ynode_key(task, i)) != LOOP_NONE) {
			*index = i;
			return ynode_key(task, i);
		}
	}
	return NULL;
}

static void
control_string(const struct ynode *ctl, const char *key, char **out,
    int identifier, struct diag *d)
{
	const struct ynode *v = ynode_get(ctl, key);

	if (v == NULL || ynode_is_null(v))
		return;
	if (v->type != YNODE_SCALAR) {
		diag_add(d, &v->pos, "'loop_control.%s' must be a string", key);
		return;
	}
	if (identifier && !str_is_identifier(v->value)) {
		diag_add(d, &v->pos, "invalid variable name '%s' for "
		    "loop_control.%s", v->value, key);
		return;
	}
	if (!identifier && template_has(v->value)) {
		char *cause = NULL;

		if (template_check(v->value, &cause) != 0) {
			diag_add(d, &v->pos, "%s", cause);
			free(cause);
			return;
		}
	}
	free(*out);
	*out = xstrdup(v->value);
}

void
loop_load(struct task_loop *l, const struct ynode *n, struct diag *d)
{
	const struct ynode	*v, *ctl;
	const char		*key, *seen = NULL;
	size_t			 i;
	json_t			*j;

	l->loop_var = xstrdup("item");
	for (i = 0; i < n->n; i++) {
		key = ynode_key(n, i);
		if (kind_of(key) == LOOP_NONE)
			continue;
		if (seen != NULL) {
			diag_add(d, &n->keys[i]->pos, "task has more than one "
			    "loop: '%s' and '%s'", seen, key);
			continue;
		}
		seen = key;
		v = n->items[i];
		l->kind = kind_of(key);
		l->pos = v->pos;
		if (v->type == YNODE_MAP && l->kind != LOOP_DICT) {
			diag_add(d, &v->pos, "'%s' must be a list or a "
			    "template, got a mapping", key);
			continue;
		}
		l->value = ynode_to_json(v);
	}
	if ((ctl = ynode_get(n, "loop_control")) == NULL || ynode_is_null(ctl))
		return;
	if (seen == NULL)
		diag_add(d, &ctl->pos, "'loop_control' without a loop");
	if (ctl->type != YNODE_MAP) {
		diag_add(d, &ctl->pos, "'loop_control' must be a mapping");
		return;
	}
	for (i = 0; i < ctl->n; i++) {
		const char *sugg;

		key = ynode_key(ctl, i);
		for (size_t k = 0; control_keys[k] != NULL; k++) {
			if (strcmp(control_keys[k], key) == 0)
				goto known;
		}
		sugg = did_you_mean(key, control_keys, 5);
		if (sugg != NULL)
			diag_add(d, &ctl->keys[i]->pos, "unknown loop_control "
			    "key '%s' (did you mean '%s'?)", key, sugg);
		else
			diag_add(d, &ctl->keys[i]->pos, "unknown loop_control "
			    "key '%s'", key);
known:		;
	}
	control_string(ctl, "loop_var", &l->loop_var, 1, d);
	control_string(ctl, "index_var", &l->index_var, 1, d);
	control_string(ctl, "label", &l->label, 0, d);
	if ((v = ynode_get(ctl, "extended")) != NULL) {
		j = ynode_to_json(v);
		if (!json_is_boolean(j))
			diag_add(d, &v->pos, "'loop_control.extended' must be "
			    "a bool");
		l->extended = json_is_true(j);
		json_decref(j);
	}
	if ((v = ynode_get(ctl, "pause")) != NULL && !ynode_is_null(v))
		diag_add(d, &v->pos, "'loop_control.pause' is not supported");
}

void
loop_clear(struct task_loop *l)
{
	json_decref(l->value);
	free(l->loop_var);
	free(l->index_var);
	free(l->label);
	memset(l, 0, sizeof *l);
}

#define SEQ_MAX	1000000000LL

/* with_sequence's "start=1 end=5 stride=1 format=%d" or "count=3". */
static json_t *
sequence(const char *spec, char **cause)
{
	long long	 start = 1, end = 0, stride = 1, count = -1, v, i;
	char		 fmtbuf[64] = "%d", conv[32], *copy, *w, *save = NULL;
	char		*eq, *num;
	size_t		 wide;
	json_t		*out;
	int		 have_end = 0;

	copy = xstrdup(spec);
	for (w = strtok_r(copy, " ,", &save); w != NULL;
	    w = strtok_r(NULL, " ,", &save)) {
		if ((eq = strchr(w, '=')) == NULL) {
			fail(cause, "with_sequence: '%s' is not key=value", w);
			goto bad;
		}
		*eq++ = '\0';
		if (strcmp(w, "format") == 0) {
			snprintf(fmtbuf, sizeof fmtbuf, "%s", eq);
			continue;
		}
		/* bounded, so that no sum or product below overflows */
		v = strtoll(eq, &num, 0);
		if (*eq == '\0' || *num != '\0' || v > SEQ_MAX ||
		    v < -SEQ_MAX) {
			fail(cause, "with_sequence: '%s' is not a number from "
			    "%lld to %lld", eq, -SEQ_MAX, SEQ_MAX);
			goto bad;
		}
		if (strcmp(w, "start") == 0)
			start = v;
		else if (strcmp(w, "end") == 0) {
			end = v;
			have_end = 1;
		} else if (strcmp(w, "stride") == 0)
			stride = v;
		else if (strcmp(w, "count") == 0)
			count = v;
		else {
			fail(cause, "with_sequence: unknown key '%s'", w);
			goto bad;
		}
	}
	free(copy);
	if (count >= 0) {
		end = start + (count - 1) * stride;
		have_end = 1;
	}
	if (!have_end || stride == 0)
		return fail(cause, "with_sequence needs end or count and a "
		    "stride other than 0"), NULL;
	/* one %d, %x or %o conversion only: the format is the author's */
	if ((num = strchr(fmtbuf, '%')) == NULL)
		return fail(cause, "with_sequence: format '%s' has no %%d",
		    fmtbuf), NULL;
	wide = strspn(num + 1, "0123456789");
	if (strchr("dxXo", num[1 + wide]) == NULL || num[1 + wide] == '\0' ||
	    strchr(num + 2 + wide, '%') != NULL)
		return fail(cause, "with_sequence: format '%s' must have one "
		    "%%d, %%x or %%o", fmtbuf), NULL;
	snprintf(conv, sizeof conv, "%%%.*sll%c", (int)wide, num + 1,
	    num[1 + wide]);
	out = json_array();
	for (i = start; stride > 0 ? i <= end : i >= end; i += stride) {
		struct strbuf sb;

		strbuf_init(&sb);
		strbuf_addf(&sb, "%.*s", (int)(num - fmtbuf), fmtbuf);
		strbuf_addf(&sb, conv, i);
		strbuf_addstr(&sb, num + 2 + wide);
		json_array_append_new(out, json_string(sb.buf));
		strbuf_release(&sb);
		if (json_array_size(out) >= 100000)
			break;
	}
	return out;
bad:
	free(copy);
	return NULL;
}

static json_t *
nested(const json_t *lists, size_t at)
{
	json_t	*out = json_array(), *rest, *e, *r, *combo;
	size_t	 i, j;

	if (at == json_array_size(lists)) {
		json_array_append_new(out, json_array());
		return out;
	}
	rest = nested(lists, at + 1);
	json_array_foreach(json_array_get(lists, at), i, e) {
		json_array_foreach(rest, j, r) {
			combo = json_array();
			json_array_append(combo, e);
			json_array_extend(combo, r);
			json_array_append_new(out, combo);
		}
	}
	json_decref(rest);
	return out;
}

json_t *
loop_shape(enum loop_kind kind, const json_t *value, char **cause)
{
	json_t		*out, *e, *row;
	const char	*key;
	size_t		 i, j, longest = 0;

	switch (kind) {
	case LOOP_SEQUENCE:
		if (!json_is_string(value))
			return fail(cause, "with_sequence must be a string "
			    "like 'start=1 end=3'"), NULL;
		return sequence(json_string_value(value), cause);
	case LOOP_SUBELEMENTS:
		return loop_subelements(value, cause);
	case LOOP_DICT:
		if (!json_is_object(value))
			return fail(cause, "with_dict expects a dict"), NULL;
		out = json_array();
		json_object_foreach((json_t *)value, key, e)
			json_array_append_new(out, json_pack("{s:s, s:O}",
			    "key", key, "value", e));
		return out;
	default:
		break;
	}
	if (kind == LOOP_LIST) {
		if (!json_is_array(value))
			return fail(cause, "invalid data passed to 'loop', it "
			    "requires a list"), NULL;
		return json_deep_copy(value);
	}
	/* the lookups take a single value as a list of one */
	if (!json_is_array(value)) {
		out = json_array();
		json_array_append(out, (json_t *)value);
		value = out;
	} else
		out = json_incref((json_t *)value);
	value = out;
	out = json_array();
	switch (kind) {
	case LOOP_ITEMS:
		json_array_foreach(value, i, e) {
			if (json_is_array(e))
				json_array_extend(out, e);
			else
				json_array_append(out, e);
		}
		break;
	case LOOP_INDEXED:
		json_array_foreach(value, i, e)
			json_array_append_new(out, json_pack("[I, O]",
			    (json_int_t)i, e));
		break;
	case LOOP_TOGETHER:
		json_array_foreach(value, i, e) {
			if (!json_is_array(e)) {
				json_decref(out);
				json_decref((json_t *)value);
				return fail(cause, "with_together expects a "
				    "list of lists"), NULL;
			}
			if (json_array_size(e) > longest)
				longest = json_array_size(e);
		}
		for (j = 0; j < longest; j++) {
			row = json_array();
			json_array_foreach(value, i, e) {
				json_t *x = json_array_get(e, j);

				json_array_append_new(row, x != NULL ?
				    json_incref(x) : json_null());
			}
			json_array_append_new(out, row);
		}
		break;
	case LOOP_NESTED:
		json_array_foreach(value, i, e) {
			if (!json_is_array(e)) {
				json_decref(out);
				json_decref((json_t *)value);
				return fail(cause, "with_nested expects a list "
				    "of lists"), NULL;
			}
		}
		json_decref(out);
		out = json_array_size(value) > 0 ? nested(value, 0) :
		    json_array();
		break;
	default:
		break;
	}
	json_decref((json_t *)value);
	return out;
}

json_t *
loop_items(const struct task_loop *l, const json_t *vars, int *undefined,
    char **cause)
{
	json_t	*rendered, *items;
	char	*why = NULL;

	*undefined = 0;
	/* its names rendered one by one: an undefined one is passed over */
	if (l->kind == LOOP_FIRST_FOUND && !json_is_string(l->value))
		return loop_first_found(l->value, vars, l->subdir, &l->pos,
		    cause);
	if ((rendered = template_render(l->value, vars, &l->pos, cause)) ==
	    NULL) {
		/* template.c words every undefined name so */
		*undefined = *cause != NULL &&
		    strstr(*cause, "undefined") != NULL;
		return NULL;
	}
	if (l->kind == LOOP_FILEGLOB) {
		/* the files are found where the task's vars say */
		if (!json_is_array(rendered)) {
			json_t *one = json_array();

			json_array_append_new(one, rendered);
			rendered = one;
		}
		items = loop_fileglob(rendered, vars, &why);
	} else if (l->kind == LOOP_FIRST_FOUND) {
		items = loop_first_found(rendered, vars, l->subdir, &l->pos,
		    cause);
		json_decref(rendered);
		return items;
	} else
		items = loop_shape(l->kind, rendered, &why);
	json_decref(rendered);
	if (items == NULL) {
		ypos_fail(cause, &l->pos, "%s", why);
		free(why);
	}
	return items;
}

void
loop_set_item(const struct task_loop *l, json_t *vars, const json_t *items,
    size_t i)
{
	size_t	 n = json_array_size(items);
	json_t	*info;

	json_object_set(vars, l->loop_var, json_array_get(items, i));
	/* rendered with the loop's list: data from here on (template.h) */
	template_mark_unsafe(vars, l->loop_var);
	if (l->index_var != NULL)
		json_object_set_new(vars, l->index_var,
		    json_integer((json_int_t)i));
	if (!l->extended)
		return;
	info = json_pack("{s:O, s:I, s:I, s:I, s:I, s:b, s:b, s:I}",
	    "allitems", items, "index", (json_int_t)i + 1,
	    "index0", (json_int_t)i, "revindex", (json_int_t)(n - i),
	    "revindex0", (json_int_t)(n - i - 1), "first", i == 0,
	    "last", i + 1 == n, "length", (json_int_t)n);
	if (i > 0)
		json_object_set(info, "previtem", json_array_get(items, i - 1));
	if (i + 1 < n)
		json_object_set(info, "nextitem", json_array_get(items, i + 1));
	json_object_set_new(vars, "ansible_loop", info);
}

char *
loop_label(const struct task_loop *l, const json_t *vars,
    const json_t *item)
{
	json_t		*r = NULL;
	char		*cause = NULL, *label;

	if (l->label != NULL) {
		r = template_render_string(l->label, vars, NULL, &cause);
		free(cause);
		if (r != NULL)
			item = r;
	}
	/* "(item=%s)": Python's str() of it */
	label = py_str(item);
	json_decref(r);
	return label;
}
