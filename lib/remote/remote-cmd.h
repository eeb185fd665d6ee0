/* Remote programs: the C side of lib/remote/prelude.sh, which states the
 * calling convention. Every remote script (lib/remote/NAME.sh) is run by a
 * call that remote_call builds (or, for the probe, remote_piped_command),
 * and nothing else in tcptune writes remote shell: the script gets its
 * inputs as a header of NAME='value' assignments (each value through
 * shquote_add), then the prelude, then the script, all one program that
 * travels on the command's standard input. The command line stays short
 * and free of values: sudo logs it, ps shows it. */
#ifndef TCPTUNE_REMOTE_CMD_H
#define TCPTUNE_REMOTE_CMD_H

#include <jansson.h>

#include <stddef.h>

/* One named input of a script. Arrays of them end with a NULL name. */
struct remote_var {
	const char	*name;	/* [A-Z_][A-Z0-9_]*, as the script says */
	const char	*value;	/* NULL: the empty string */
};

/* The program text: the header assigning vars, the prelude, script. For a
 * program that another script runs (apply's probe); returns a new string. */
char	*remote_program(const char *script, const struct remote_var *vars);
/* One call of a remote script: the command line, the same for every call
 * of that script (`env TCPTUNE_TEST_ROOT= sh -c 'eval "$(cat)"'
 * tcptune-NAME`, NAME naming the process and the shell's own messages),
 * and the program to write on its standard input: the header, prelude and
 * script in one brace group, so that a program cut short runs nothing. */
struct remote_call {
	char	*command;
	char	*program;
	size_t	 program_len;
};
void	 remote_call(struct remote_call *c, const char *name,
	    const char *script, const struct remote_var *vars);
void	 remote_call_clear(struct remote_call *c);
/* The probe's variant: its program is the same for every host, so its few
 * values go on the command line as environment assignments, `env
 * TCPTUNE_TEST_ROOT= NAME='value'... sh -s` (the command), and one copy of
 * the program, the prelude then the script in one brace group
 * (remote_piped_program), serves every host's standard input. Each returns
 * a new string. */
char	*remote_piped_command(const struct remote_var *vars);
char	*remote_piped_program(const char *script);
/* Undo the prelude's escaping of a value (len bytes, need not be
 * NUL-terminated): "\\" is a backslash, "\n" a newline; any other
 * backslash stands for itself. Returns a new string. */
char	*remote_unescape(const char *s, size_t len);
/* A script's value (len bytes, escaped) into *field, unescaped: set
 * replaces what *field held (freed), add appends it to the messages
 * already there, "; " between them. */
void	 remote_value_set(char **field, const char *v, size_t len);
void	 remote_value_add(char **field, const char *v, size_t len);
/* An exit status of vl bytes at v: a script's output is not NUL-terminated
 * after its last line, so atoi could read past it. Digits with an optional
 * '-', clamped to what an exit status can be; anything else is -1. */
int	 remote_value_status(const char *v, size_t vl);
/* A count or a time in seconds of vl bytes at v (digits only, at most 18:
 * a host's output is not NUL-terminated after its last line); -1 for
 * anything else. */
long long remote_value_count(const char *v, size_t vl);

/* A task's environment (a mapping of variable names to values) as sh
 * text to put before its command: NAME='value'; export NAME; each value
 * quoted by shquote, so it reaches the command as data. "" for none; NULL
 * with *cause for a key that is no variable name. */
char	*remote_env_prefix(const json_t *env, char **cause);

/*
 * Reading a script's output: its first line is the script's header
 * ("tcptune-file 1"), then "@section" lines, "key=value" lines and a
 * file's text as "|line" lines, "@done" at the end. remote_read_init
 * checks the header (0, or -1 with *cause naming what: "the file
 * script"); each remote_read_next gives the next line that is not a
 * section's own: 1 with kind '=' (key, kl, then the value, vl bytes,
 * still escaped) or '|' (the text after the bar in val, vl), section the
 * section it is in; or kind '@' for a section's own line (section then
 * names it); 0 at the end, done set if "@done" was seen.
 */
struct remote_reader {
	const char	*p, *end;
	char		 section[16];
	int		 done;
};
struct remote_line {
	char		 kind;
	const char	*key;
	size_t		 kl;
	const char	*val;
	size_t		 vl;
};
int	 remote_read_init(struct remote_reader *r, const char *out, size_t len,
	    const char *header, const char *what, char **cause);
int	 remote_read_next(struct remote_reader *r, struct remote_line *l);
/* Whether the line's key is k. */
int	 remote_key_is(const struct remote_line *l, const char *k);

/* A section the prelude's run_shown printed: a command the script ran,
 * its status, output and messages. remote_run_field takes the section's
 * own line ('@': ran) or one of its rc, out, err lines. */
struct remote_run {
	int	 ran, rc;
	char	*out, *err;
};
void	 remote_run_field(struct remote_run *run, const struct remote_line *l);
void	 remote_run_clear(struct remote_run *run);

#endif
