/* Ansible's local facts (ansible-host.h) as ansible-core 2.14's
 * system/local.py reads /etc/ansible/facts.d/NAME.fact: JSON, else an INI
 * file as Python's configparser.ConfigParser reads it, or an executable's
 * output. */
#include "remote/ansible-host.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/xalloc.h"

/* configparser's BasicInterpolation of v in section sec (its options and
 * the defaults'): "%%" is '%', "%(name)s" the option's value; -1 for
 * anything else after '%' (InterpolationSyntaxError) or a loop. */
static int
interpolate(const char *v, const json_t *sec, const json_t *defs, int depth,
    struct strbuf *sb)
{
	const char	*e, *ref;
	char		*name, *p;

	if (depth > 10)
		return -1;
	for (; *v != '\0'; v++) {
		if (*v != '%') {
			strbuf_addch(sb, *v);
			continue;
		}
		if (v[1] == '%') {
			strbuf_addch(sb, '%');
			v++;
			continue;
		}
		if (v[1] != '(' || (e = strstr(v, ")s")) == NULL)
			return -1;
		name = xstrndup(v + 2, (size_t)(e - v - 2));
		for (p = name; *p != '\0'; p++)
			*p = (char)tolower((unsigned char)*p);
		ref = json_string_value(json_object_get(sec, name));
		if (ref == NULL)
			ref = json_string_value(json_object_get(defs, name));
		free(name);
		if (ref == NULL || interpolate(ref, sec, defs, depth + 1,
		    sb) != 0)
			return -1;
		v = e + 1;
	}
	return 0;
}

/* Trailing newlines off each value (a value's empty continuation). */
static void
rstrip_values(json_t *sec)
{
	const char	*k;
	json_t		*v;
	char		*s;
	size_t		 n;

	json_object_foreach(sec, k, v) {
		s = xstrdup(json_string_value(v));
		n = strlen(s);
		while (n > 0 && s[n - 1] == '\n')
			s[--n] = '\0';
		json_object_set_new(sec, k, json_string(s));
		free(s);
	}
}

/* RawConfigParser._read: sections (in order) and the DEFAULT options of
 * text; -1 for what makes it raise (a line before any section, one with
 * neither '=' nor ':', a section or option twice). */
static int
ini_read(const char *text, json_t *sects, json_t *defs)
{
	json_t		*cur = NULL, *seen = json_object();
	char		*line, *s, *e, *opt = NULL, *key;
	const char	*p = text, *old;
	size_t		 len, indent = 0, ind;
	int		 rc = 0;

	for (; *p != '\0' && rc == 0; p += len + (p[len] != '\0')) {
		len = strcspn(p, "\n");
		line = xstrndup(p, len);
		for (ind = 0; isspace((unsigned char)line[ind]); ind++)
			;
		s = line + ind;
		for (e = s + strlen(s); e > s && isspace((unsigned char)e[-1]);)
			*--e = '\0';
		if (*s == '#' || *s == ';' || *s == '\0') {
			free(line);
			continue;
		}
		if (cur != NULL && opt != NULL && ind > indent) {
			old = json_string_value(json_object_get(cur, opt));
			key = xprintf("%s\n%s", old != NULL ? old : "", s);
			json_object_set_new(cur, opt, json_string(key));
			free(key);
		} else if (*s == '[' && (e = strrchr(s, ']')) != NULL &&
		    e > s + 1) {
			key = xstrndup(s + 1, (size_t)(e - s - 1));
			free(opt);
			opt = NULL;
			if (json_object_get(seen, key) != NULL)
				rc = -1;
			else if (strcmp(key, "DEFAULT") == 0)
				cur = defs;
			else {
				cur = json_object();
				json_object_set_new(sects, key, cur);
			}
			if (cur != defs)
				json_object_set_new(seen, key, json_object());
			free(key);
		} else if (cur == NULL || (e = s + strcspn(s, "=:")) == s ||
		    *e == '\0')
			rc = -1;
		else {
			key = xstrndup(s, (size_t)(e - s));
			for (len = strlen(key); len > 0 &&
			    isspace((unsigned char)key[len - 1]);)
				key[--len] = '\0';
			for (s = key; *s != '\0'; s++)
				*s = (char)tolower((unsigned char)*s);
			for (e++; isspace((unsigned char)*e); e++)
				;
			if (json_object_get(cur, key) != NULL)
				rc = -1;
			json_object_set_new(cur, key, json_string(e));
			free(opt);
			opt = key;
			indent = ind;
		}
		len = strcspn(p, "\n");
		free(line);
	}
	free(opt);
	json_decref(seen);
	return rc;
}

/* fact = {section: {option: value}} as local.py builds it from the
 * parser, or NULL where the parser raises. */
static json_t *
ini_fact(const char *text, int *interp_error)
{
	json_t		*sects = json_object(), *defs = json_object(), *fact;
	json_t		*sec, *o, *v;
	const char	*name, *k;
	struct strbuf	 sb;

	*interp_error = 0;
	if (ini_read(text, sects, defs) != 0) {
		json_decref(sects);
		json_decref(defs);
		return NULL;
	}
	rstrip_values(defs);
	fact = json_object();
	json_object_foreach(sects, name, sec) {
		rstrip_values(sec);
		o = json_object();
		json_object_update(o, sec);
		json_object_update_missing(o, defs);
		json_object_foreach(o, k, v) {
			strbuf_init(&sb);
			strbuf_addstr(&sb, "");
			if (interpolate(json_string_value(v), sec, defs, 0,
			    &sb) != 0)
				*interp_error = 1;
			json_object_set_new(o, k, json_string(sb.buf));
			strbuf_release(&sb);
		}
		json_object_set_new(fact, name, o);
	}
	json_decref(sects);
	json_decref(defs);
	return fact;
}

void
ansible_local_facts(const json_t *raw, json_t *out)
{
	const json_t	*files = json_object_get(raw, "local"), *f;
	json_t		*local = json_object(), *fact;
	const char	*path, *base, *dot;
	char		*name, *text, *msg;
	size_t		 i;
	int		 bad;

	json_array_foreach(files, i, f) {
		path = json_string_value(json_object_get(f, "path"));
		base = strrchr(path, '/') != NULL ? strrchr(path, '/') + 1 :
		    path;
		/* basename(fn).replace('.fact', '') */
		name = xstrdup(base);
		while ((dot = strstr(name, ".fact")) != NULL)
			memmove(name + (dot - name), dot + 5, strlen(dot + 5) + 1);
		if (json_integer_value(json_object_get(f, "rc")) != 0) {
			/* setup adds the script's stderr, which the probe
			 * does not keep */
			msg = xprintf("Failure executing fact script (%s), rc: "
			    "%lld, err: ", path, (long long)json_integer_value(
			    json_object_get(f, "rc")));
			json_object_set_new(local, name, json_string(msg));
			free(msg);
			free(name);
			continue;
		}
		text = ansible_join_lines(json_object_get(f, "lines"));
		if ((fact = json_loads(text, JSON_DECODE_ANY, NULL)) == NULL) {
			fact = ini_fact(text, &bad);
			if (fact != NULL && bad) {
				/* raised past local.py's handlers: setup
				 * reports no local facts at all */
				json_decref(fact);
				json_decref(local);
				free(text);
				free(name);
				return;
			}
			if (fact == NULL) {
				msg = xprintf("error loading facts as JSON or "
				    "ini - please check content: %s", path);
				fact = json_string(msg);
				free(msg);
			}
		}
		json_object_set_new(local, name, fact);
		free(text);
		free(name);
	}
	/* ansible_facts.ansible_local, as Ansible's namespace_facts keeps it */
	json_object_set_new(out, "ansible_local", local);
}
