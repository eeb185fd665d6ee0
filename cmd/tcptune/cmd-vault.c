/* The vault keyring from the command line, as ansible-core 2.14's
 * CLI.setup_vault_secrets builds it (ansible/cli/__init__.py): every
 * --vault-id first, then every --vault-password-file (label "default"),
 * then --ask-vault-pass. A source is "prompt", an executable that prints
 * the password, or a file holding it. docs/vault.md. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd-common.h"
#include "prompt.h"
#include "say.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "vault/vault.h"

/* More than any password; a script printing without end is cut here. */
#define SCRIPT_MAX_OUTPUT	(64 * 1024)

/* Python's bytes.strip(chars) over s[0..*len): the new start. */
static char *
strip(char *s, size_t *len, const char *chars)
{
	while (*len > 0 && strchr(chars, s[*len - 1]) != NULL)
		(*len)--;
	while (*len > 0 && strchr(chars, *s) != NULL)
		s++, (*len)--;
	return s;
}

/* Everything fd gives, up to max bytes (more is an error). */
static int
read_all(int fd, struct strbuf *sb, size_t max)
{
	char	chunk[4096];
	ssize_t	n;

	for (;;) {
		n = read(fd, chunk, sizeof chunk);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n == 0 ? 0 : -1;
		if (sb->len + (size_t)n > max)
			return -1;
		strbuf_add(sb, chunk, (size_t)n);
	}
}

/* Ansible's script_is_client: "NAME-client" or "NAME-client.EXT". */
static int
is_client_script(const char *path)
{
	const char	*base = strrchr(path, '/'), *dot;
	size_t		 n;

	base = base != NULL ? base + 1 : path;
	dot = strrchr(base, '.');
	n = dot != NULL && dot != base ? (size_t)(dot - base) : strlen(base);
	return n >= 7 && strncmp(base + n - 7, "-client", 7) == 0;
}

static void
exec_script(const char *path, const char *label, int fd)
{
	if (dup2(fd, STDOUT_FILENO) < 0)
		_exit(127);
	/* stderr and the terminal stay: a script may prompt there */
	if (is_client_script(path))
		execl(path, path, "--vault-id", label, (char *)NULL);
	else
		execl(path, path, (char *)NULL);
	_exit(127);
}

/* Run an executable password source; its standard output, with \r and \n
 * stripped, is the password. */
static int
run_script(const char *path, const char *label, struct strbuf *out,
    char **cause)
{
	int	fd[2], status, r;
	pid_t	pid;

	if (pipe(fd) != 0)
		return fail(cause, "vault password script '%s': %s", path,
		    strerror(errno));
	if ((pid = fork()) < 0) {
		close(fd[0]);
		close(fd[1]);
		return fail(cause, "vault password script '%s': %s", path,
		    strerror(errno));
	}
	if (pid == 0) {
		close(fd[0]);
		exec_script(path, label, fd[1]);
	}
	close(fd[1]);
	r = read_all(fd[0], out, SCRIPT_MAX_OUTPUT);
	close(fd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (r != 0)
		return fail(cause, "vault password script '%s': output "
		    "unreadable or longer than %d bytes", path,
		    SCRIPT_MAX_OUTPUT);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return fail(cause, "vault password script '%s' failed (%s %d)",
		    path, WIFEXITED(status) ? "exit status" : "signal",
		    WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
	return 0;
}

static int
read_file(const char *path, struct strbuf *out, char **cause)
{
	FILE	*fp;
	int	 r;

	if ((fp = fopen(path, "rb")) == NULL)
		return fail(cause, "cannot read vault password file '%s': %s",
		    path, strerror(errno));
	r = read_all(fileno(fp), out, SCRIPT_MAX_OUTPUT);
	fclose(fp);
	if (r != 0)
		return fail(cause, "cannot read vault password file '%s': "
		    "unreadable or longer than %d bytes", path,
		    SCRIPT_MAX_OUTPUT);
	return 0;
}

/* A password from a file or, when the file is executable (any x bit, as
 * Ansible's is_executable), from what it prints. Added under label. */
static int
add_from_source(const char *label, const char *path, char **cause)
{
	struct stat	 st;
	struct strbuf	 sb;
	char		*pw;
	size_t		 len;
	int		 r, script;

	if (stat(path, &st) != 0)
		return fail(cause, "vault password file '%s' was not found",
		    path);
	script = (st.st_mode & (S_IXUSR | S_IXGRP | S_IXOTH)) != 0;
	strbuf_init(&sb);
	r = script ? run_script(path, label, &sb, cause) :
	    read_file(path, &sb, cause);
	if (r == 0) {
		len = sb.len;
		/* a file is stripped of all blanks, a script's output of
		 * line ends only (FileVaultSecret, ScriptVaultSecret) */
		pw = strip(sb.buf, &len, script ? "\r\n" : " \t\n\r\v\f");
		if (len == 0)
			r = fail(cause, "vault password %s '%s' gives an empty "
			    "password", script ? "script" : "file", path);
		else
			vault_secret_add(label, pw, len);
	}
	if (sb.buf != NULL)
		explicit_bzero(sb.buf, sb.len);
	strbuf_release(&sb);
	return r;
}

static int
add_from_prompt(const char *label, const char *prompt, char **cause)
{
	char	*pw, *s;
	size_t	 len;
	int	 r = 0;

	if ((pw = prompt_secret(prompt, "vault password", cause)) == NULL)
		return -1;
	len = strlen(pw);
	s = strip(pw, &len, " \t\n\r\v\f");
	if (len == 0)
		r = fail(cause, "empty vault password");
	else
		vault_secret_add(label, s, len);
	secret_free(pw);
	return r;
}

/* SOURCE of a --vault-id [LABEL@]SOURCE. */
static const char *
vault_id_source(const char *id)
{
	const char *at = strchr(id, '@');

	return at != NULL ? at + 1 : id;
}

static int
add_vault_id(const char *id, char **cause)
{
	const char	*source = vault_id_source(id);
	char		*label, *prompt;
	int		 r;

	/* no label, or an empty one, is Ansible's "default" */
	label = source - id > 1 ? xstrndup(id, (size_t)(source - id - 1)) :
	    xstrdup(VAULT_DEFAULT_ID);
	if (strcmp(source, "prompt") == 0) {
		prompt = xprintf("Vault password (%s): ", label);
		r = add_from_prompt(label, prompt, cause);
		free(prompt);
	} else
		r = add_from_source(label, source, cause);
	free(label);
	return r;
}

/* A source that fails is a warning while another gives a password, as in
 * Ansible; the run fails only when none does (with the last failure). A
 * prompt that fails is fatal. */
static void
keep_going(char **cause, char **last)
{
	if (*last != NULL)
		say_warning(NULL, "%s", *last);
	free(*last);
	*last = *cause;
	*cause = NULL;
}

/* Passwords and decrypted values do not outlive the process in memory
 * that the next program may get. */
static void
wipe_all(void)
{
	vault_secrets_clear();
	vault_forget_all();
}

int
cmd_vault_setup(const struct options *opts)
{
	static int	 done;
	char		*cause = NULL, *last = NULL;
	size_t		 i;

	if (done)
		return 0;
	done = 1;
	atexit(wipe_all);
	for (i = 0; i < opts->nvault_ids; i++) {
		if (add_vault_id(opts->vault_ids[i], &cause) != 0) {
			if (strcmp(vault_id_source(opts->vault_ids[i]),
			    "prompt") == 0)
				goto fatal;
			keep_going(&cause, &last);
		}
	}
	for (i = 0; i < opts->nvault_password_files; i++) {
		if (add_from_source(VAULT_DEFAULT_ID,
		    opts->vault_password_files[i], &cause) != 0)
			keep_going(&cause, &last);
	}
	if (opts->ask_vault_pass && add_from_prompt(VAULT_DEFAULT_ID,
	    "Vault password: ", &cause) != 0)
		goto fatal;
	if (last != NULL && vault_secret_count() == 0) {
		cause = last;
		goto fatal;
	}
	if (last != NULL)
		say_warning(NULL, "%s", last);
	free(last);
	return 0;
fatal:
	if (cause != last)
		free(last);
	cmd_error("%s", cause);
	free(cause);
	return EXIT_COULD_NOT_RUN;
}
