#include "playbook/bind.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/strbuf.h"
#include "base/util.h"
#include "template/template.h"
#include "base/units.h"
#include "base/xalloc.h"

/* "string 'ten'", "int 5", "list" for messages. */
static char *
describe(const json_t *v)
{
	char *text, *r;

	switch (json_typeof(v)) {
	case JSON_STRING:
		return xprintf("string '%s'", json_string_value(v));
	case JSON_INTEGER:
		return xprintf("int %lld", (long long)json_integer_value(v));
	case JSON_REAL:
		text = template_to_text(v);
		r = xprintf("float %s", text);
		free(text);
		return r;
	case JSON_TRUE:
		return xstrdup("bool true");
	case JSON_FALSE:
		return xstrdup("bool false");
	case JSON_NULL:
		return xstrdup("null");
	case JSON_ARRAY:
		return xstrdup("list");
	case JSON_OBJECT:
		return xstrdup("mapping");
	}
	return xstrdup("?");
}

static int
type_error(char **msg, const struct module_param *p, const char *expected,
    const json_t *v)
{
	char *what = describe(v);

	*msg = xprintf("expected %s for '%s', got %s", expected, p->name, what);
	free(what);
	return -1;
}

static int
parse_int_text(const char *s, json_int_t *out)
{
	char		*end;
	long long	 l;

	while (isspace((unsigned char)*s))
		s++;
	if (*s == '\0')
		return -1;
	errno = 0;
	l = strtoll(s, &end, 10);
	while (isspace((unsigned char)*end))
		end++;
	if (errno != 0 || *end != '\0')
		return -1;
	*out = l;
	return 0;
}

static int
parse_float_text(const char *s, double *out)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	if (*s == '\0')
		return -1;
	errno = 0;
	*out = strtod(s, &end);
	while (isspace((unsigned char)*end))
		end++;
	if (errno != 0 || *end != '\0' || !isfinite(*out))
		return -1;
	return 0;
}

static int
check_bounds(const struct module_param *p, double v, char **msg)
{
	char *lo, *hi, *val;

	if (!(p->min < p->max) || (v >= p->min && v <= p->max))
		return 0;
	if (p->type == PARAM_FLOAT) {
		json_t *a = json_real(p->min), *b = json_real(p->max),
		    *c = json_real(v);

		lo = template_to_text(a);
		hi = template_to_text(b);
		val = template_to_text(c);
		json_decref(a);
		json_decref(b);
		json_decref(c);
	} else {
		lo = xprintf("%.0f", p->min);
		hi = xprintf("%.0f", p->max);
		val = xprintf("%.0f", v);
	}
	*msg = xprintf("value %s for '%s' is out of range %s to %s%s", val,
	    p->name, lo, hi, p->type == PARAM_SIZE ? " bytes" : "");
	free(lo);
	free(hi);
	free(val);
	return -1;
}

/*
 * Convert one value for parameter p. text is the scalar as written in YAML
 * (NULL at run time), so that a string parameter keeps "010" as written.
 */
static int
convert(const struct module_param *p, const json_t *v, const char *text,
    json_t **out, char **msg)
{
	static const char *const yes[] = { "yes", "on", "true", "1", "y", "t",
	    NULL };
	static const char *const no[] = { "no", "off", "false", "0", "n", "f",
	    NULL };
	const char	*s = json_is_string(v) ? json_string_value(v) : NULL;
	json_int_t	 i;
	uint64_t	 u;
	double		 d;
	size_t		 k;

	*out = NULL;
	switch (p->type) {
	case PARAM_STR:
	case PARAM_PATH:
	case PARAM_CHOICE:
		if (json_is_array(v) || json_is_object(v))
			return type_error(msg, p, p->type == PARAM_PATH ?
			    "path" : "string", v);
		*out = text != NULL ? json_string(text) : json_is_string(v) ?
		    json_incref((json_t *)v) : NULL;
		if (*out == NULL) {
			char *t = template_to_text(v);

			*out = json_string(t);
			free(t);
		}
		s = json_string_value(*out);
		if (p->type == PARAM_PATH && s[0] != '/') {
			*msg = xprintf("'%s' must be an absolute path, got "
			    "'%s'", p->name, s);
			goto bad;
		}
		if (p->type == PARAM_CHOICE) {
			struct strbuf	 sb;
			const char	*sugg;

			for (k = 0; p->choices[k] != NULL; k++) {
				if (strcmp(p->choices[k], s) == 0)
					return 0;
			}
			strbuf_init(&sb);
			for (k = 0; p->choices[k] != NULL; k++)
				strbuf_addf(&sb, "%s%s", k > 0 ? ", " : "",
				    p->choices[k]);
			sugg = did_you_mean(s, (const char *const *)p->choices,
			    k);
			*msg = xprintf("invalid value '%s' for '%s': choose "
			    "from %s%s%s%s", s, p->name, sb.buf,
			    sugg != NULL ? " (did you mean '" : "",
			    sugg != NULL ? sugg : "", sugg != NULL ? "'?)" : "");
			strbuf_release(&sb);
			goto bad;
		}
		return 0;
	case PARAM_INT:
		if (json_is_integer(v))
			i = json_integer_value(v);
		else if (json_is_real(v) && json_real_value(v) ==
		    floor(json_real_value(v)) && fabs(json_real_value(v)) < 9e18)
			i = (json_int_t)json_real_value(v);
		else if (s == NULL || parse_int_text(s, &i) != 0)
			return type_error(msg, p, "int", v);
		if (check_bounds(p, (double)i, msg) != 0)
			return -1;
		*out = json_integer(i);
		return 0;
	case PARAM_FLOAT:
		if (json_is_integer(v) || json_is_real(v))
			d = json_number_value(v);
		else if (s == NULL || parse_float_text(s, &d) != 0)
			return type_error(msg, p, "float", v);
		if (check_bounds(p, d, msg) != 0)
			return -1;
		*out = json_real(d);
		return 0;
	case PARAM_BOOL:
		if (json_is_boolean(v)) {
			*out = json_incref((json_t *)v);
			return 0;
		}
		if (json_is_integer(v) && (json_integer_value(v) == 0 ||
		    json_integer_value(v) == 1)) {
			*out = json_boolean(json_integer_value(v));
			return 0;
		}
		for (k = 0; s != NULL && yes[k] != NULL; k++) {
			if (strcasecmp(s, yes[k]) == 0) {
				*out = json_true();
				return 0;
			}
			if (strcasecmp(s, no[k]) == 0) {
				*out = json_false();
				return 0;
			}
		}
		return type_error(msg, p, "bool", v);
	case PARAM_SIZE:
		if (json_is_integer(v) && json_integer_value(v) >= 0)
			i = json_integer_value(v);
		else if (json_is_real(v) && json_real_value(v) >= 0 &&
		    json_real_value(v) < 9e18)
			i = (json_int_t)json_real_value(v);
		else if (s != NULL && parse_size(s, &u, NULL) == 0 &&
		    u <= (uint64_t)INT64_MAX)
			i = (json_int_t)u;
		else
			return type_error(msg, p, "size (bytes, or a number "
			    "with K, M, G, T, KiB, MiB, GiB, TiB, KB, MB, GB or "
			    "TB)", v);
		if (check_bounds(p, (double)i, msg) != 0)
			return -1;
		*out = json_integer(i);
		return 0;
	case PARAM_LIST:
		if (!json_is_array(v))
			return type_error(msg, p, "list", v);
		*out = json_deep_copy(v);
		return 0;
	case PARAM_MAP:
		if (!json_is_object(v))
			return type_error(msg, p, "mapping", v);
		*out = json_deep_copy(v);
		return 0;
	case PARAM_ANY:
		*out = json_deep_copy(v);
		return 0;
	}
	*msg = xprintf("parameter '%s' has an unknown type", p->name);
	return -1;
bad:
	json_decref(*out);
	*out = NULL;
	return -1;
}

int
bind_param_text(const struct module_param *p, const char *text, json_t **out,
    char **msg)
{
	json_t	*v = json_string(text);
	int	 r;

	r = convert(p, v, text, out, msg);
	json_decref(v);
	return r;
}

/* Bit of p in a conf's given mask. */
static uint64_t
given_bit(const struct module *m, const struct module_param *p)
{
	return (uint64_t)1 << (p - m->params);
}

/* One typed value into its field (the C types module.h lists). A value
 * of another JSON type -- a template not rendered yet -- leaves it 0. */
static void
store(const struct module_param *p, const json_t *v, char *field)
{
	switch (p->type) {
	case PARAM_STR:
	case PARAM_PATH:
	case PARAM_CHOICE:
		*(const char **)(void *)field = json_string_value(v);
		break;
	case PARAM_INT:
		*(long long *)(void *)field = json_integer_value(v);
		break;
	case PARAM_FLOAT:
		*(double *)(void *)field = json_number_value(v);
		break;
	case PARAM_SIZE:
		*(uint64_t *)(void *)field = json_is_integer(v) ?
		    (uint64_t)json_integer_value(v) : 0;
		break;
	case PARAM_BOOL:
		*(int *)(void *)field = json_is_true(v);
		break;
	case PARAM_LIST:
		*(const json_t **)(void *)field = json_is_array(v) ? v : NULL;
		break;
	case PARAM_MAP:
		*(const json_t **)(void *)field = json_is_object(v) ? v : NULL;
		break;
	case PARAM_ANY:
		*(const json_t **)(void *)field = v;
		break;
	}
}

void *
bind_conf(const struct module *m, const json_t *args, uint64_t given)
{
	const struct module_param	*p;
	struct module_conf		*conf;
	const json_t			*v;

	conf = xcalloc(1, m->conf_size > 0 ? m->conf_size : sizeof *conf);
	conf->given = given;
	if (m->conf_size == 0)
		return conf;
	for (p = m->params; p->name != NULL; p++) {
		v = json_object_get(args, p->name);
		if (v != NULL && !json_is_null(v))
			store(p, v, (char *)conf + p->offset);
	}
	return conf;
}

/* The module's cross-field rules over its conf; 0 without a hook. */
static int
validate(const struct module *m, const json_t *args, uint64_t given,
    char **msg)
{
	void	*conf;
	int	 r;

	if (m->validate == NULL)
		return 0;
	conf = bind_conf(m, args, given);
	r = m->validate(conf, msg);
	free(conf);
	return r;
}

static size_t
param_names(const struct module *m, const char ***names)
{
	const struct module_param	*p;
	size_t				 n = 0;

	for (p = m->params; p->name != NULL; p++)
		n++;
	*names = xcalloc(n + 1, sizeof **names);
	for (n = 0, p = m->params; p->name != NULL; p++)
		(*names)[n++] = p->name;
	return n;
}

static void
unknown_param(struct diag *d, char **cause, const struct ypos *pos,
    const struct module *m, const char *key)
{
	const char	**names, *sugg;
	size_t		  n;
	char		 *msg;

	n = param_names(m, &names);
	sugg = did_you_mean(key, names, n);
	if (sugg != NULL)
		msg = xprintf("unknown parameter '%s' for module '%s' (did you "
		    "mean '%s'?)", key, m->name, sugg);
	else
		msg = xprintf("unknown parameter '%s' for module '%s'", key,
		    m->name);
	free(names);
	if (d != NULL)
		diag_add(d, pos, "%s", msg);
	else
		ypos_fail(cause, pos, "%s", msg);
	free(msg);
}

/* Fill defaults and report missing required parameters. */
static int
finish(const struct module *m, json_t *args, const struct ypos *pos,
    struct diag *d, char **cause)
{
	const struct module_param	*p;
	json_t				*def, *v;
	char				*msg = NULL;
	int				 r = 0;

	for (p = m->params; p->name != NULL; p++) {
		if (json_object_get(args, p->name) != NULL)
			continue;
		if (p->required) {
			if (d != NULL)
				diag_add(d, pos, "missing required parameter "
				    "'%s' for module '%s'", p->name, m->name);
			else if (r == 0)
				ypos_fail(cause, pos, "missing required "
				    "parameter '%s' for module '%s'", p->name,
				    m->name);
			r = -1;
			continue;
		}
		if (p->def == NULL)
			continue;
		/* A string's default is that string: as plain YAML "" would
		 * be null, and a null str param is the text "None"
		 * (modprobe's params wrote "options NAME None"). */
		def = p->type == PARAM_STR || p->type == PARAM_PATH ||
		    p->type == PARAM_CHOICE ? json_string(p->def) :
		    yaml_scalar_to_json(p->def, strlen(p->def), 1);
		if (convert(p, def, NULL, &v, &msg) != 0) {
			/* a bug in the module table, not in the playbook */
			if (d != NULL)
				diag_add(d, pos, "module '%s': bad default for "
				    "'%s': %s", m->name, p->name, msg);
			else if (r == 0)
				ypos_fail(cause, pos, "module '%s': bad default "
				    "for '%s': %s", m->name, p->name, msg);
			free(msg);
			msg = NULL;
			r = -1;
		} else
			json_object_set_new(args, p->name, v);
		json_decref(def);
	}
	return r;
}

/* The end of one word of Ansible's free form at s: blanks end it, except
 * inside quotes or {{ }}. */
static const char *
kv_word_end(const char *s)
{
	char	quote = 0;
	int	braces = 0;

	for (; *s != '\0'; s++) {
		if (quote != 0) {
			if (*s == quote)
				quote = 0;
		} else if (*s == '\'' || *s == '"')
			quote = *s;
		else if (s[0] == '{' && s[1] == '{')
			braces++, s++;
		else if (s[0] == '}' && s[1] == '}' && braces > 0)
			braces--, s++;
		else if (braces == 0 && isspace((unsigned char)*s))
			break;
	}
	return s;
}

/* Ansible's free form "k=v k2='v 2'": an object of strings (a value in
 * matching quotes unquoted), or NULL with *msg. */
static json_t *
parse_kv_form(const char *s, char **msg)
{
	json_t		*o = json_object();
	const char	*end, *eq;
	char		*word, *v;
	size_t		 n;

	for (;;) {
		while (isspace((unsigned char)*s))
			s++;
		if (*s == '\0')
			return o;
		end = kv_word_end(s);
		word = xstrndup(s, (size_t)(end - s));
		s = end;
		if ((eq = strchr(word, '=')) == NULL || eq == word) {
			*msg = xprintf("free-form parameters must be "
			    "key=value words, got '%s'", word);
			free(word);
			json_decref(o);
			return NULL;
		}
		v = (char *)eq + 1;
		n = strlen(v);
		if (n >= 2 && (v[0] == '\'' || v[0] == '"') && v[n - 1] == v[0]) {
			v[n - 1] = '\0';
			v++;
		}
		*(char *)eq = '\0';
		json_object_set_new(o, word, json_string(v));
		free(word);
	}
}

/* Check the template syntax of every string under n; 1 if any is
 * templated. */
static int
check_templates(const struct ynode *n, struct diag *d, int *bad)
{
	char	*cause = NULL;
	size_t	 i;
	int	 templated = 0;

	if (n == NULL)
		return 0;
	if (n->type == YNODE_SCALAR) {
		if (!template_has(n->value))
			return 0;
		if (template_check(n->value, &cause) != 0) {
			diag_add(d, &n->pos, "%s", cause);
			free(cause);
			*bad = 1;
		}
		return 1;
	}
	for (i = 0; i < n->n; i++)
		templated |= check_templates(n->items[i], d, bad);
	return templated;
}

/* A key the module's table does not name, into its rest parameter
 * (module.h, `rest`): 0, or -1 (an error in d) when it has none or the
 * key is no variable name. */
static int
add_rest(const struct module *m, json_t *args, const char *key,
    const json_t *v, const struct ypos *pos, struct diag *d)
{
	json_t *rest;

	if (m->rest == NULL) {
		unknown_param(d, NULL, pos, m, key);
		return -1;
	}
	/* a templated name ('{{ item.key }}': os_hardening's) is checked
	 * once rendered (task_render_args), as Ansible's set_fact renders
	 * its keys */
	if (template_has(key)) {
		char *cause = NULL;

		if (template_check(key, &cause) != 0) {
			diag_add(d, pos, "%s", cause);
			free(cause);
			return -1;
		}
	} else if (!str_is_identifier(key)) {
		diag_add(d, pos, "invalid variable name '%s' for module '%s'",
		    key, m->name);
		return -1;
	}
	if ((rest = json_object_get(args, m->rest)) == NULL) {
		rest = json_object();
		json_object_set_new(args, m->rest, rest);
	}
	json_object_set_new(rest, key, json_deep_copy(v));
	return 0;
}

/* Ansible's free form of a module's parameters, each bound as a YAML
 * scalar would be (errors at the scalar); 1 if any is templated. */
static int
bind_kv_form(const struct module *m, const struct ynode *params,
    json_t *args, uint64_t *given, struct diag *d)
{
	const struct module_param	*p;
	const char			*key;
	json_t				*kv, *v, *out;
	char				*msg = NULL;
	int				 templated = 0;

	if ((kv = parse_kv_form(params->value, &msg)) == NULL) {
		diag_add(d, &params->pos, "%s", msg);
		free(msg);
		return 0;
	}
	json_object_foreach(kv, key, v) {
		const char *text = json_string_value(v);

		if ((p = module_find_param(m, key)) == NULL) {
			if (add_rest(m, args, key, v, &params->pos, d) == 0)
				templated |= template_has(text);
			continue;
		}
		*given |= given_bit(m, p);
		if (template_has(text)) {
			templated = 1;
			json_object_set(args, p->name, v);
		} else if (convert(p, v, text, &out, &msg) != 0) {
			diag_add(d, &params->pos, "%s", msg);
			free(msg);
			msg = NULL;
		} else
			json_object_set_new(args, p->name, out);
	}
	json_decref(kv);
	return templated;
}

int
bind_task_params(const struct module *m, const struct ypos *pos,
    const struct ynode *params, json_t **args, struct diag *d)
{
	const struct module_param	*p;
	const struct ynode		*key, *val;
	json_t				*v, *out;
	char				*msg = NULL, *cause = NULL;
	size_t				 i, before = diag_count(d);
	int				 templated = 0, bad;
	uint64_t			 given = 0;

	*args = json_object();
	if (params != NULL && params->type == YNODE_SCALAR &&
	    !ynode_is_null(params)) {
		if (m->kv_free_form) {
			templated = bind_kv_form(m, params, *args, &given, d);
			goto checked;
		}
		/* the free form: `command: uptime` */
		if ((p = module_find_param(m, m->free_form != NULL ?
		    m->free_form : "cmd")) == NULL) {
			diag_add(d, &params->pos, "parameters of module '%s' "
			    "must be a mapping, got %s", m->name,
			    ynode_type_name(params));
			goto out;
		}
		templated = check_templates(params, d, &bad);
		json_object_set_new(*args, p->name,
		    json_string(params->value));
		given |= given_bit(m, p);
	} else if (params != NULL && params->type == YNODE_SEQ) {
		diag_add(d, &params->pos, "parameters of module '%s' must be a "
		    "mapping, got list", m->name);
		goto out;
	}
	for (i = 0; params != NULL && params->type == YNODE_MAP &&
	    i < params->n; i++) {
		key = params->keys[i];
		val = params->items[i];
		if (ynode_key_repeated(params, i)) {
			diag_add(d, &key->pos, "duplicate parameter '%s'",
			    ynode_key(params, i));
			continue;
		}
		if ((p = module_find_param(m, ynode_key(params, i))) == NULL) {
			v = ynode_to_json(val);
			if (add_rest(m, *args, ynode_key(params, i), v,
			    &key->pos, d) == 0) {
				bad = 0;
				templated |= check_templates(val, d, &bad);
			}
			json_decref(v);
			continue;
		}
		if (ynode_is_null(val))
			continue;	/* not given: the default applies */
		given |= given_bit(m, p);
		bad = 0;
		if (check_templates(val, d, &bad)) {
			templated = 1;
			if (bad) {
				/* given, if broken: not "missing" too */
				json_object_set_new(*args, p->name,
				    json_null());
				continue;
			}
			if (val->type == YNODE_SCALAR) {
				json_object_set_new(*args, p->name,
				    json_string(val->value));
				continue;
			}
			/* a list or mapping with templates inside: only
			 * its shape can be checked now */
		}
		v = ynode_to_json(val);
		if (convert(p, v, val->type == YNODE_SCALAR ? val->value : NULL,
		    &out, &msg) != 0) {
			diag_add(d, &val->pos, "%s", msg);
			free(msg);
			msg = NULL;
			json_object_set_new(*args, p->name, json_null());
		} else
			json_object_set_new(*args, p->name, out);
		json_decref(v);
	}
checked:
	finish(m, *args, pos, d, NULL);
	if (diag_count(d) == before && !templated &&
	    validate(m, *args, given, &cause) != 0) {
		diag_add(d, pos, "module '%s': %s", m->name, cause);
		free(cause);
	}
out:
	if (diag_count(d) != before) {
		json_decref(*args);
		*args = NULL;
		return -1;
	}
	return 0;
}

/*
 * Whether the task gave key: every key of an ad-hoc call (no YAML: the
 * command line's), else only the keys its YAML sets -- the rest of what
 * was rendered are the defaults bound at load time.
 */
static int
given_in_yaml(const struct module *m, const struct ynode *params,
    const char *key)
{
	const struct ynode	*n;
	json_t			*kv;
	char			*msg = NULL;
	int			 r;

	if (params == NULL)
		return 1;
	if (params->type == YNODE_SCALAR && m->kv_free_form &&
	    !ynode_is_null(params)) {
		kv = parse_kv_form(params->value, &msg);
		r = kv != NULL && json_object_get(kv, key) != NULL;
		json_decref(kv);
		free(msg);
		return r;
	}
	if (params->type == YNODE_SCALAR)	/* the free form */
		return !ynode_is_null(params) && strcmp(key,
		    m->free_form != NULL ? m->free_form : "cmd") == 0;
	n = params->type == YNODE_MAP ? ynode_get(params, key) : NULL;
	return n != NULL && !ynode_is_null(n);
}

int
bind_rendered_args(const struct module *m, const json_t *rendered,
    const struct ynode *params, const struct ypos *pos, json_t **args,
    uint64_t *given_out, char **cause)
{
	const struct module_param	*p;
	const struct ynode		*node;
	const struct ypos		*at;
	const char			*key;
	json_t				*v, *out;
	char				*msg = NULL;
	uint64_t			 given = 0;

	*args = NULL;
	if (!json_is_object(rendered))
		return ypos_fail(cause, pos, "parameters of module '%s' must "
		    "be a mapping", m->name);
	*args = json_object();
	json_object_foreach((json_t *)rendered, key, v) {
		node = params != NULL && params->type == YNODE_MAP ?
		    ynode_get(params, key) : NULL;
		at = node != NULL ? &node->pos : pos;
		if ((p = module_find_param(m, key)) == NULL) {
			unknown_param(NULL, cause, at, m, key);
			goto fail;
		}
		if (json_is_null(v))
			continue;
		if (convert(p, v, NULL, &out, &msg) != 0) {
			ypos_fail(cause, at, "%s", msg);
			free(msg);
			goto fail;
		}
		json_object_set_new(*args, key, out);
		if (given_in_yaml(m, params, key))
			given |= given_bit(m, p);
	}
	if (finish(m, *args, pos, NULL, cause) != 0)
		goto fail;
	if (validate(m, *args, given, &msg) != 0) {
		ypos_fail(cause, pos, "module '%s': %s", m->name, msg);
		free(msg);
		goto fail;
	}
	if (given_out != NULL)
		*given_out = given;
	return 0;
fail:
	json_decref(*args);
	*args = NULL;
	return -1;
}
