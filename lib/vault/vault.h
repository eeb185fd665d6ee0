/* Ansible Vault: format 1.1 and 1.2, cipher AES256 (docs/vault.md).
 *
 * The envelope is a header line "$ANSIBLE_VAULT;1.1;AES256" (1.2 adds
 * ";LABEL") and lines of hex. The hex decodes to three lines, hex(salt),
 * hex(hmac) and hex(ciphertext). PBKDF2-HMAC-SHA256 (10000 iterations) of
 * the password and salt gives 80 bytes: the AES-256 key, the HMAC-SHA256
 * key and the CTR counter block. The HMAC of the ciphertext is checked, in
 * constant time, before anything is decrypted; the plaintext ends in PKCS#7
 * padding. Every primitive is libcrypto's.
 *
 * The keyring is the process's one list of (label, password), filled by
 * cmd/ from --vault-id, --vault-password-file and --ask-vault-pass before
 * anything is loaded, and read by every loader (ydoc, the INI reader, the
 * runner). Decrypting tries the passwords as Ansible does: those whose
 * label is the envelope's (1.2) or "default" (1.1) first, then the others
 * in the order given.
 *
 * Secrets: every plaintext the caller gets is to be wiped with
 * vault_plain_free. Values revealed for a play, and the strings of a
 * whole-file vaulted document, are remembered so that vault_redact can
 * replace them with "<vaulted>" wherever a run's results are kept. */
#ifndef TCPTUNE_VAULT_H
#define TCPTUNE_VAULT_H

#include <jansson.h>
#include <stddef.h>

#define VAULT_HEADER		"$ANSIBLE_VAULT"
#define VAULT_DEFAULT_ID	"default"
#define VAULT_REDACTED		"<vaulted>"
/* A remembered secret shorter than this is not redacted: replacing every
 * "on" or "1" in a run's output would hide everything and protect nothing. */
#define VAULT_REDACT_MIN	4

/* The envelope, parsed. */
struct vault_envelope {
	char		*version;	/* "1.1", "1.2" */
	char		*cipher;	/* "AES256" */
	char		*label;		/* 1.2's vault id, or NULL */
	unsigned char	*salt;
	size_t		 saltlen;
	unsigned char	*hmac;		/* as written: Ansible compares the */
	size_t		 hmaclen;	/* digest with whatever length it has */
	unsigned char	*ct;
	size_t		 ctlen;
};

/* Whether buf starts as vaulted text does (Ansible's is_encrypted). */
int	vault_is_encrypted(const char *buf, size_t len);

/* Parse text[0..len). Errors name no file ("not hex", "unknown cipher
 * 'X'"); the caller adds it. */
int	vault_envelope_parse(const char *text, size_t len,
	    struct vault_envelope *env, char **cause);
void	vault_envelope_clear(struct vault_envelope *env);

/* Decrypt with one password: 0 and an allocated plaintext (NUL added, not
 * counted), 1 when the HMAC does not match (a wrong password), -1 with
 * *cause on anything else. */
int	vault_envelope_decrypt(const struct vault_envelope *env,
	    const char *password, size_t pwlen, char **plain, size_t *plainlen,
	    char **cause);

/* The keyring. vault_secret_add copies the password (the caller wipes its
 * own); vault_secrets_clear wipes and forgets every one. */
void	vault_secret_add(const char *label, const char *password, size_t len);
void	vault_secrets_clear(void);
size_t	vault_secret_count(void);

/*
 * Decrypt text[0..len) with the keyring; name (a file, or "host 'h':
 * variable 'v'") begins every error:
 *   "NAME: vault-encrypted; give --vault-password-file or --ask-vault-pass"
 *   "NAME: vault: HMAC check failed: wrong vault password?"
 *   "NAME: vault: <format error>"
 * 0 and an allocated plaintext (free it with vault_plain_free), or -1.
 */
int	vault_decrypt(const char *name, const char *text, size_t len,
	    char **plain, size_t *plainlen, char **cause);
/* Wipe and free a plaintext; NULL-safe. */
void	vault_plain_free(char *plain, size_t len);

/* An inline value as Ansible prints it: {"__ansible_vault": TEXT}. */
json_t	*vault_inline_new(const char *text, size_t len);
/* TEXT of such an object, or NULL when j is not one. */
const char *vault_inline_text(const json_t *j);

/*
 * Replace every inline value in the members of obj (at any depth) with its
 * plaintext, and remember the plaintexts for vault_redact. Containers
 * shared with others are copied before they change, never changed in
 * place. Errors read "OWNER: variable 'KEY': vault-encrypted; ...".
 * Thread-safe; a text already decrypted is not decrypted again.
 */
int	vault_reveal_vars(json_t *obj, const char *owner, char **cause);

/* Remember s[0..len) as a secret to redact (when at least
 * VAULT_REDACT_MIN long). Thread-safe. */
void	vault_remember(const char *s, size_t len);
/* Forget (and wipe) every remembered secret and decrypted value. */
void	vault_forget_all(void);

/* s with every remembered secret replaced by VAULT_REDACTED: a new string,
 * or NULL when s holds none (and when s is NULL). */
char	*vault_redact(const char *s);
/* j with every string redacted: a new reference, a copy only where
 * something changed. NULL gives NULL. */
json_t	*vault_redact_json(json_t *j);

#endif
