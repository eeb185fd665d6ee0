/* tcptune config: each effective setting, its value and where it came from
 * (command line, an ANSIBLE_* variable, a line of ansible.cfg, or the
 * default), and which ansible.cfg was read. Resolving is settings.c's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "settings.h"

/* The --format json document's "schema": raised when a field changes
 * meaning or goes away. */
#define CONFIG_SCHEMA	1
#include "base/strbuf.h"

/* A value as one line of text: lists joined with ", ". */
static char *
value_text(const json_t *v)
{
	struct strbuf	 sb = STRBUF_INIT;
	const json_t	*item;
	size_t		 i;

	strbuf_init(&sb);
	if (json_is_null(v) || (json_is_array(v) && json_array_size(v) == 0))
		strbuf_addstr(&sb, "-");
	else if (json_is_string(v))
		strbuf_addstr(&sb, json_string_value(v));
	else if (json_is_integer(v))
		strbuf_addf(&sb, "%lld", (long long)json_integer_value(v));
	else if (json_is_boolean(v))
		strbuf_addstr(&sb, json_is_true(v) ? "true" : "false");
	else {
		json_array_foreach(v, i, item) {
			strbuf_addf(&sb, "%s%s", i > 0 ? ", " : "",
			    json_string_value(item));
		}
	}
	return strbuf_detach(&sb, NULL);
}

static void
print_text(const struct settings *s)
{
	char	*v;
	size_t	 i;

	printf("config file: %s\n", s->config_file != NULL ? s->config_file :
	    "none found");
	for (i = 0; i < s->nrows; i++) {
		v = value_text(s->rows[i].value);
		printf("%-20s %-40s %s\n", s->rows[i].name, v,
		    s->rows[i].origin);
		free(v);
	}
}

static int
print_json(const struct settings *s)
{
	json_t	*root, *rows, *row;
	size_t	 i;

	root = json_pack("{s:i}", "schema", CONFIG_SCHEMA);
	json_object_set_new(root, "config_file", s->config_file != NULL ?
	    json_string(s->config_file) : json_null());
	rows = json_object();
	for (i = 0; i < s->nrows; i++) {
		row = json_object();
		json_object_set(row, "value", s->rows[i].value);
		json_object_set_new(row, "origin",
		    json_string(s->rows[i].origin));
		json_object_set_new(rows, s->rows[i].name, row);
	}
	json_object_set_new(root, "settings", rows);
	if (json_dumpf(root, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER) != 0) {
		json_decref(root);
		return cmd_error("cannot write the settings");
	}
	putchar('\n');
	json_decref(root);
	return 0;
}

static int
cmd_config_exec(struct options *opts)
{
	if (opts->format == FORMAT_TEXT) {
		print_text(opts->settings);
		return 0;
	}
	return print_json(opts->settings);
}

const struct cmd_entry cmd_config_entry = {
	.name = "config",
	.usage = "",
	.summary = "show each setting, its value and where it came from "
	    "(ansible.cfg, ANSIBLE_*)",
	.min_args = 0,
	.max_args = 0,
	.exec = cmd_config_exec,
};
