/* Remote programs and commands (see remote-cmd.h and lib/remote/prelude.sh
 * for the convention). */
#include "remote/remote-cmd.h"

#include <stdlib.h>
#include <string.h>

#include "remote/embedded.h"
#include "base/shquote.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "template/value.h"

/* The command every call runs: read standard input to its end, then run
 * it. Already quoted for sh; a constant, so sudo's log and ps show the
 * same short line for every call of a script. */
#define REMOTE_CALL_EVAL "'eval \"$(cat)\"'"

/* A name the header can assign without it meaning anything else to sh. A
 * bad one is a bug in the caller, never input from a host or a user. */
static int
var_name_ok(const char *name)
{
	size_t i;

	if (name[0] == '\0' || strchr("0123456789", name[0]) != NULL)
		return 0;
	for (i = 0; name[i] != '\0'; i++) {
		if (strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_", name[i]) ==
		    NULL)
			return 0;
	}
	return 1;
}

/* NAME='value' for each of vars, each followed by sep: the program's
 * header (sep a newline) or the piped command's environment (a space). */
static void
add_assignments(struct strbuf *sb, const struct remote_var *vars, char sep)
{
	size_t i;

	for (i = 0; vars[i].name != NULL; i++) {
		if (!var_name_ok(vars[i].name))
			abort();
		strbuf_addstr(sb, vars[i].name);
		strbuf_addch(sb, '=');
		shquote_add(sb, vars[i].value != NULL ? vars[i].value : "");
		strbuf_addch(sb, sep);
	}
}

/* The header assigning vars (none: NULL), the prelude, the script; with
 * braced, all in one brace group: if the input ends early (a cut
 * connection), the group never closes, sh reports a syntax error and runs
 * nothing of it, where a bare program would run its first half. *len (if
 * not NULL) its length. */
static char *
program_text(const char *script, const struct remote_var *vars, int braced,
    size_t *len)
{
	struct strbuf	sb;

	strbuf_init(&sb);
	if (braced)
		strbuf_addstr(&sb, "{\n");
	if (vars != NULL)
		add_assignments(&sb, vars, '\n');
	strbuf_addstr(&sb, embedded_prelude_sh);
	strbuf_addstr(&sb, script);
	if (braced)
		strbuf_addstr(&sb, "\n}\n");
	return strbuf_detach(&sb, len);
}

char *
remote_program(const char *script, const struct remote_var *vars)
{
	return program_text(script, vars, 0, NULL);
}

void
remote_call(struct remote_call *c, const char *name, const char *script,
    const struct remote_var *vars)
{
	if (name[strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789-")] !=
	    '\0')
		abort();
	/* The scripts' test hook must never come from the host's
	 * environment: it would point their writes elsewhere. The shell
	 * reads the whole program before it runs any of it, and is named
	 * tcptune-NAME (in ps, and in its own error messages). */
	c->command = xprintf("env TCPTUNE_TEST_ROOT= sh -c %s tcptune-%s",
	    REMOTE_CALL_EVAL, name);
	c->program = program_text(script, vars, 1, &c->program_len);
}

void
remote_call_clear(struct remote_call *c)
{
	free(c->command);
	free(c->program);
	memset(c, 0, sizeof *c);
}

char *
remote_piped_command(const struct remote_var *vars)
{
	struct strbuf	sb;

	strbuf_init(&sb);
	strbuf_addstr(&sb, "env TCPTUNE_TEST_ROOT= ");
	add_assignments(&sb, vars, ' ');
	strbuf_addstr(&sb, "sh -s");
	return strbuf_detach(&sb, NULL);
}

char *
remote_piped_program(const char *script)
{
	return program_text(script, NULL, 1, NULL);
}

char *
remote_unescape(const char *s, size_t len)
{
	char	*out, *p;
	size_t	 i;

	out = p = xmalloc(len + 1);
	for (i = 0; i < len; i++) {
		if (s[i] == '\\' && i + 1 < len &&
		    (s[i + 1] == '\\' || s[i + 1] == 'n')) {
			*p++ = s[i + 1] == 'n' ? '\n' : '\\';
			i++;
		} else
			*p++ = s[i];
	}
	*p = '\0';
	return out;
}

void
remote_value_set(char **field, const char *v, size_t len)
{
	free(*field);
	*field = remote_unescape(v, len);
}

void
remote_value_add(char **field, const char *v, size_t len)
{
	char *m = remote_unescape(v, len), *joined;

	if (*field == NULL) {
		*field = m;
		return;
	}
	joined = xprintf("%s; %s", *field, m);
	free(*field);
	free(m);
	*field = joined;
}

int
remote_value_status(const char *v, size_t vl)
{
	size_t	i = 0;
	int	neg = 0, n = 0;

	if (vl > 0 && v[0] == '-') {
		neg = 1;
		i = 1;
	}
	if (i == vl)
		return -1;
	for (; i < vl; i++) {
		if (v[i] < '0' || v[i] > '9')
			return -1;
		if (n < 1000)
			n = n * 10 + (v[i] - '0');
	}
	return neg ? -n : n;
}

long long
remote_value_count(const char *v, size_t vl)
{
	long long	n = 0;
	size_t		i;

	if (vl == 0 || vl > 18)
		return -1;
	for (i = 0; i < vl; i++) {
		if (v[i] < '0' || v[i] > '9')
			return -1;
		n = n * 10 + (v[i] - '0');
	}
	return n;
}

char *
remote_env_prefix(const json_t *env, char **cause)
{
	struct strbuf	 sb;
	const char	*key;
	json_t		*v;
	char		*text;

	strbuf_init(&sb);
	json_object_foreach((json_t *)env, key, v) {
		if (!var_name_ok(key)) {
			*cause = xprintf("environment: '%s' is not a variable "
			    "name", key);
			strbuf_release(&sb);
			return NULL;
		}
		text = json_is_string(v) ? xstrdup(json_string_value(v)) :
		    template_to_text(v);
		strbuf_addf(&sb, "%s=", key);
		shquote_add(&sb, text);
		strbuf_addf(&sb, "; export %s; ", key);
		free(text);
	}
	return strbuf_detach(&sb, NULL);
}

int
remote_read_init(struct remote_reader *r, const char *out, size_t len,
    const char *header, const char *what, char **cause)
{
	const char	*nl;
	size_t		 n;

	memset(r, 0, sizeof *r);
	r->p = out;
	r->end = out + len;
	nl = memchr(out, '\n', len);
	n = nl != NULL ? (size_t)(nl - out) : len;
	if (n != strlen(header) || memcmp(out, header, n) != 0)
		return fail(cause, "unexpected output from %s: '%.*s'", what,
		    (int)(n < 60 ? n : 60), out);
	r->p = nl != NULL ? nl + 1 : r->end;
	return 0;
}

int
remote_read_next(struct remote_reader *r, struct remote_line *l)
{
	const char	*nl, *eq, *line;
	size_t		 n, vl;

	while (r->p < r->end) {
		line = r->p;
		nl = memchr(line, '\n', (size_t)(r->end - line));
		n = nl != NULL ? (size_t)(nl - line) : (size_t)(r->end - line);
		r->p = nl != NULL ? nl + 1 : r->end;
		if (n > 0 && line[0] == '|') {
			*l = (struct remote_line){ '|', NULL, 0, line + 1,
			    n - 1 };
			return 1;
		}
		if (n > 0 && line[0] == '@') {
			if (n == 5 && memcmp(line, "@done", 5) == 0) {
				r->done = 1;
				continue;
			}
			vl = n - 1 < sizeof r->section - 1 ? n - 1 :
			    sizeof r->section - 1;
			memcpy(r->section, line + 1, vl);
			r->section[vl] = '\0';
			*l = (struct remote_line){ '@', NULL, 0, NULL, 0 };
			return 1;
		}
		if ((eq = memchr(line, '=', n)) == NULL)
			continue;
		*l = (struct remote_line){ '=', line, (size_t)(eq - line),
		    eq + 1, n - (size_t)(eq - line) - 1 };
		return 1;
	}
	return 0;
}

int
remote_key_is(const struct remote_line *l, const char *k)
{
	return l->kind == '=' && l->kl == strlen(k) &&
	    memcmp(l->key, k, l->kl) == 0;
}

void
remote_run_field(struct remote_run *run, const struct remote_line *l)
{
	if (l->kind == '@')
		run->ran = 1;
	else if (l->kind != '=')
		return;
	else if (remote_key_is(l, "rc"))
		run->rc = remote_value_status(l->val, l->vl);
	else if (remote_key_is(l, "out"))
		remote_value_set(&run->out, l->val, l->vl);
	else if (remote_key_is(l, "err"))
		remote_value_set(&run->err, l->val, l->vl);
}

void
remote_run_clear(struct remote_run *run)
{
	free(run->out);
	free(run->err);
	memset(run, 0, sizeof *run);
}
