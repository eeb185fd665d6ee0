/* Secrets typed at the terminal: --ask-vault-pass, --ask-become-pass and
 * --vault-id LABEL@prompt, and a play's vars_prompt. */
#ifndef TCPTUNE_PROMPT_H
#define TCPTUNE_PROMPT_H

#include <stddef.h>

/* Write prompt ("Vault password: ") to the controlling terminal and read
 * one line from it with echo off, as ssh and sudo do: never from stdin,
 * which may be a pipe that holds other data. Returns the line without its
 * newline (allocated; the caller wipes it with secret_free), or NULL with
 * *cause set, naming what ("vault password"), when there is no terminal,
 * on end of input, or when the line is longer than PROMPT_MAX_SECRET. */
#define PROMPT_MAX_SECRET	4096
char	*prompt_secret(const char *prompt, const char *what, char **cause);

/* The same with the typed text shown when echo is set (vars_prompt's
 * private: false). */
char	*prompt_line(const char *prompt, int echo, const char *what,
	    char **cause);

/* Zero a secret's bytes, then free it; NULL-safe. */
void	 secret_free(char *secret);

#endif
