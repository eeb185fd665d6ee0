/* A role's argument spec checked as ansible-core 2.14 checks it
 * (argspec.h; module_utils/common/arg_spec.py, validation.py). */
#include "modules/argspec.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/pyrepr.h"
#include "base/strbuf.h"
#include "base/util.h"
#include "base/xalloc.h"

/* The option attributes argspec_check reads; the others are reported by
 * argspec_unchecked. description, default, version_added and the like
 * change nothing that is checked. */
static const char *const checked[] = { "type", "required", "choices",
	"description", "default", "short_description", "version_added",
	"no_log", NULL };

static int
in_words(const char *w, const char *const *words)
{
	size_t i;

	for (i = 0; words[i] != NULL; i++) {
		if (strcmp(words[i], w) == 0)
			return 1;
	}
	return 0;
}

/* Python's type() of a value, as the messages print it: a string read
 * from YAML as written is Ansible's AnsibleUnicode there. */
static const char *
py_type(const json_t *v, int literal)
{
	switch (json_typeof(v)) {
	case JSON_STRING: return literal ?
	    "<class 'ansible.parsing.yaml.objects.AnsibleUnicode'>" :
	    "<class 'str'>";
	case JSON_INTEGER: return "<class 'int'>";
	case JSON_REAL: return "<class 'float'>";
	case JSON_TRUE:
	case JSON_FALSE: return "<class 'bool'>";
	case JSON_ARRAY: return "<class 'list'>";
	case JSON_OBJECT: return "<class 'dict'>";
	default: return "<class 'NoneType'>";
	}
}

/* Python's int(s): optional blanks and sign, decimal digits, '_'
 * between digits. */
static int
py_int(const char *s, json_int_t *out)
{
	char		*digits = xstrdup(s), *d = digits, *end;
	const char	*p = s;
	long long	 v;
	int		 ok;

	while (*p == ' ' || *p == '\t' || *p == '\n')
		p++;
	for (; *p != '\0'; p++) {
		if (*p != '_')
			*d++ = *p;
	}
	*d = '\0';
	errno = 0;
	v = strtoll(digits, &end, 10);
	while (*end == ' ' || *end == '\t' || *end == '\n')
		end++;
	ok = errno == 0 && end != digits && *end == '\0' &&
	    strchr("+-0123456789", digits[0]) != NULL;
	free(digits);
	if (ok)
		*out = (json_int_t)v;
	return ok;
}

/* "k1=v1, k2=v2" (or blank separated) as check_type_dict reads it
 * without quotes, or NULL when a word has no '='. */
static json_t *
key_values(const char *s)
{
	json_t	*o = json_object();
	char	*copy = xstrdup(s), *w, *save = NULL, *eq;

	for (w = strtok_r(copy, ", ", &save); w != NULL;
	    w = strtok_r(NULL, ", ", &save)) {
		if ((eq = strchr(w, '=')) == NULL || eq == w) {
			json_decref(o);
			free(copy);
			return NULL;
		}
		*eq = '\0';
		json_object_set_new(o, w, json_string(eq + 1));
	}
	free(copy);
	if (json_object_size(o) == 0) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* v converted to type, as the check_type_* functions convert it: a new
 * value, or NULL with *why (the part after "unable to convert to T: "). */
static json_t *
convert(const json_t *v, const char *type, const char **why)
{
	json_int_t	 i;
	double		 d;
	char		*end;
	int		 b;

	if (strcmp(type, "int") == 0) {
		if (json_is_integer(v) || json_is_boolean(v))
			return json_is_integer(v) ? json_incref((json_t *)v) :
			    json_integer(json_is_true(v));
		if (json_is_string(v) && py_int(json_string_value(v), &i))
			return json_integer(i);
		*why = "cannot be converted to an int";
		return NULL;
	}
	if (strcmp(type, "float") == 0) {
		if (json_is_number(v))
			return json_real(json_number_value(v));
		if (json_is_string(v)) {
			d = strtod(json_string_value(v), &end);
			if (end != json_string_value(v) && *end == '\0')
				return json_real(d);
		}
		*why = "cannot be converted to a float";
		return NULL;
	}
	if (strcmp(type, "bool") == 0) {
		if (ansible_bool_value(v, &b))
			return json_boolean(b);
		*why = NULL;
		return NULL;
	}
	if (strcmp(type, "list") == 0) {
		if (json_is_array(v))
			return json_incref((json_t *)v);
		if (json_is_number(v)) {
			json_t	*l = json_array();
			char	*s = py_str(v);

			json_array_append_new(l, json_string(s));
			free(s);
			return l;
		}
		if (json_is_string(v)) {
			/* str.split(","): empty items kept */
			json_t		*l = json_array();
			const char	*p = json_string_value(v), *c;

			while ((c = strchr(p, ',')) != NULL) {
				json_array_append_new(l, json_stringn(p,
				    (size_t)(c - p)));
				p = c + 1;
			}
			json_array_append_new(l, json_string(p));
			return l;
		}
		*why = "cannot be converted to a list";
		return NULL;
	}
	if (strcmp(type, "dict") == 0) {
		if (json_is_object(v))
			return json_incref((json_t *)v);
		if (json_is_string(v)) {
			json_t *o = json_loads(json_string_value(v), 0, NULL);

			if (json_is_object(o))
				return o;
			json_decref(o);
			if ((o = key_values(json_string_value(v))) != NULL)
				return o;
		}
		*why = json_is_string(v) ? "dictionary requested, could not "
		    "parse JSON or key=value" : "cannot be converted to a dict";
		return NULL;
	}
	/* str, path, raw and the default: any value is taken */
	return json_incref((json_t *)v);
}

static void
add_msg(json_t *errors, struct strbuf *sb)
{
	json_array_append_new(errors, json_string(sb->buf));
	strbuf_release(sb);
}

static int
choice_of(const json_t *choices, const json_t *v)
{
	size_t	 i;
	json_t	*c;

	json_array_foreach(choices, i, c) {
		if (json_equal(c, v))
			return 1;
	}
	return 0;
}

static void
check_choices(json_t *errors, const char *name, const json_t *choices,
    const json_t *v)
{
	struct strbuf	 sb;
	size_t		 i;
	json_t		*c, *bad = json_array();
	char		*s;

	if (json_is_array(v)) {
		json_array_foreach(v, i, c) {
			if (!choice_of(choices, c))
				json_array_append(bad, c);
		}
	} else if (!choice_of(choices, v))
		json_array_append(bad, (json_t *)v);
	if (json_array_size(bad) == 0) {
		json_decref(bad);
		return;
	}
	strbuf_init(&sb);
	strbuf_addf(&sb, "value of %s must be one %sof: ", name,
	    json_is_array(v) ? "or more " : "");
	json_array_foreach(choices, i, c) {
		s = py_str(c);
		strbuf_addf(&sb, "%s%s", i > 0 ? ", " : "", s);
		free(s);
	}
	if (json_is_array(v)) {
		strbuf_addstr(&sb, ". Got no match for: ");
		json_array_foreach(bad, i, c) {
			s = py_str(c);
			strbuf_addf(&sb, "%s%s", i > 0 ? ", " : "", s);
			free(s);
		}
	} else {
		s = py_str(v);
		strbuf_addf(&sb, ", got: %s", s);
		free(s);
	}
	add_msg(errors, &sb);
	json_decref(bad);
}

static int
cmp_names(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

json_t *
argspec_check(const json_t *spec, const json_t *values,
    const json_t *literals)
{
	json_t		*errors = json_array(), *opt, *v, *conv, *typed;
	const char	*name, *type, *why, **missing;
	struct strbuf	 sb;
	size_t		 n = 0, i;
	int		 lit;

	typed = json_object();
	missing = xcalloc(json_object_size(spec) + 1, sizeof *missing);
	json_object_foreach((json_t *)spec, name, opt) {
		v = json_object_get(values, name);
		if ((v == NULL || json_is_null(v)) &&
		    json_is_true(json_object_get(opt, "required")))
			missing[n++] = name;
	}
	if (n > 0) {
		qsort(missing, n, sizeof *missing, cmp_names);
		strbuf_init(&sb);
		strbuf_addstr(&sb, "missing required arguments: ");
		for (i = 0; i < n; i++)
			strbuf_addf(&sb, "%s%s", i > 0 ? ", " : "", missing[i]);
		add_msg(errors, &sb);
	}
	free(missing);
	json_object_foreach((json_t *)spec, name, opt) {
		v = json_object_get(values, name);
		if (v == NULL || json_is_null(v))
			continue;
		type = json_string_value(json_object_get(opt, "type"));
		why = NULL;
		if ((conv = convert(v, type != NULL ? type : "str", &why)) ==
		    NULL) {
			strbuf_init(&sb);
			lit = json_is_true(json_object_get(literals, name));
			strbuf_addf(&sb, "argument '%s' is of type %s and we "
			    "were unable to convert to %s: ", name,
			    py_type(v, lit), type);
			if (why != NULL && strncmp(why, "cannot", 6) == 0)
				strbuf_addf(&sb, "%s %s", py_type(v, lit), why);
			else if (why != NULL)
				strbuf_addstr(&sb, why);
			else {
				char *s = py_str(v);

				strbuf_addf(&sb, "The value '%s' is not a valid "
				    "boolean.", s);
				free(s);
			}
			add_msg(errors, &sb);
			continue;
		}
		json_object_set_new(typed, name, conv);
	}
	json_object_foreach((json_t *)spec, name, opt) {
		const json_t *choices = json_object_get(opt, "choices");

		if (json_is_array(choices) &&
		    (v = json_object_get(typed, name)) != NULL)
			check_choices(errors, name, choices, v);
	}
	json_decref(typed);
	return errors;
}

json_t *
argspec_unchecked(const json_t *spec)
{
	json_t		*out = json_array(), *opt, *attr;
	const char	*name, *key;

	json_object_foreach((json_t *)spec, name, opt) {
		if (!json_is_object(opt))
			continue;
		json_object_foreach(opt, key, attr) {
			if (!in_words(key, checked)) {
				char *s = xprintf("%s.%s", name, key);

				json_array_append_new(out, json_string(s));
				free(s);
			}
		}
		(void)attr;
	}
	return out;
}
