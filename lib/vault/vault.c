/* Ansible Vault's envelope and cipher, and the keyring (vault.h). Checked
 * against ansible-core 2.14's ansible/parsing/vault/__init__.py: the
 * parsing follows _parse_vaulttext_envelope and _parse_vaulttext, the
 * order of passwords decrypt_and_get_vault_id. */
#include "vault/vault.h"

#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "base/strbuf.h"
#include "base/xalloc.h"

#define KDF_ITERATIONS	10000
#define KEY_LEN		32	/* AES-256 key, and the HMAC key */
#define IV_LEN		16	/* AES's block: the CTR counter block */
#define BLOCK_LEN	16

struct secret {
	char	*label;
	char	*password;
	size_t	 len;
};

/* Filled once by cmd/ before any thread starts; read-only afterwards. */
static struct secret	*keyring;
static size_t		 nkeyring;

int
vault_is_encrypted(const char *buf, size_t len)
{
	size_t hl = sizeof VAULT_HEADER - 1;

	return len >= hl && memcmp(buf, VAULT_HEADER, hl) == 0;
}

/* The next line of [*p, end) as Python's bytes.splitlines cuts it (\n, \r
 * or \r\n end a line); 0 at the end. */
static int
next_line(const char **p, const char *end, const char **line, size_t *len)
{
	const char *s = *p, *e;

	if (s >= end)
		return 0;
	for (e = s; e < end && *e != '\n' && *e != '\r'; e++)
		;
	*line = s;
	*len = (size_t)(e - s);
	if (e < end && *e == '\r' && e + 1 < end && e[1] == '\n')
		e++;
	*p = e < end ? e + 1 : end;
	return 1;
}

/* Python's unhexlify: an even number of hex digits, nothing else. */
static int
unhex(const char *s, size_t len, unsigned char **out, size_t *outlen,
    const char *what, char **cause)
{
	unsigned char	*b;
	size_t		 i;
	int		 hi, lo;

	if (len % 2 != 0)
		return fail(cause, "%s: odd number of hex digits", what);
	b = xmalloc(len / 2 + 1);
	for (i = 0; i < len; i += 2) {
		if ((hi = OPENSSL_hexchar2int((unsigned char)s[i])) < 0 ||
		    (lo = OPENSSL_hexchar2int((unsigned char)s[i + 1])) < 0) {
			free(b);
			return fail(cause, "%s: not hex", what);
		}
		b[i / 2] = (unsigned char)(hi << 4 | lo);
	}
	*out = b;
	*outlen = len / 2;
	return 0;
}

/* Field i of the header's ';'-separated fields, blanks stripped. */
static char *
header_field(const char *h, size_t hlen, int i)
{
	const char	*s = h, *e, *end = h + hlen;
	size_t		 n;

	for (; i > 0; i--) {
		if ((s = memchr(s, ';', (size_t)(end - s))) == NULL)
			return NULL;
		s++;
	}
	e = memchr(s, ';', (size_t)(end - s));
	n = (size_t)((e != NULL ? e : end) - s);
	while (n > 0 && strchr(" \t\v\f", *s) != NULL)
		s++, n--;
	while (n > 0 && strchr(" \t\v\f", s[n - 1]) != NULL)
		n--;
	return xstrndup(s, n);
}

static int
parse_header(const char *h, size_t hlen, struct vault_envelope *env,
    char **cause)
{
	if ((env->version = header_field(h, hlen, 1)) == NULL ||
	    (env->cipher = header_field(h, hlen, 2)) == NULL)
		return fail(cause, "header has no version and cipher");
	/* a fourth field is the vault id, whatever the version says */
	env->label = header_field(h, hlen, 3);
	if (strcmp(env->cipher, "AES256") != 0)
		return fail(cause, "unknown cipher '%.32s'", env->cipher);
	return 0;
}

/* The decoded body: hex(salt) "\n" hex(hmac) "\n" hex(ciphertext). */
static int
parse_body(const unsigned char *b, size_t len, struct vault_envelope *env,
    char **cause)
{
	const unsigned char	*nl1, *nl2, *end = b + len;

	if ((nl1 = memchr(b, '\n', len)) == NULL ||
	    (nl2 = memchr(nl1 + 1, '\n', (size_t)(end - nl1 - 1))) == NULL)
		return fail(cause, "body is not salt, hmac and ciphertext");
	if (unhex((const char *)b, (size_t)(nl1 - b), &env->salt,
	    &env->saltlen, "salt", cause) != 0 ||
	    unhex((const char *)nl1 + 1, (size_t)(nl2 - nl1 - 1), &env->hmac,
	    &env->hmaclen, "hmac", cause) != 0 ||
	    unhex((const char *)nl2 + 1, (size_t)(end - nl2 - 1), &env->ct,
	    &env->ctlen, "ciphertext", cause) != 0)
		return -1;
	return 0;
}

int
vault_envelope_parse(const char *text, size_t len, struct vault_envelope *env,
    char **cause)
{
	const char	*p = text, *end = text + len, *line;
	size_t		 llen, blen = 0;
	struct strbuf	 hex;
	unsigned char	*body = NULL;
	int		 r = -1;

	memset(env, 0, sizeof *env);
	strbuf_init(&hex);
	if (!vault_is_encrypted(text, len) ||
	    !next_line(&p, end, &line, &llen)) {
		fail(cause, "not vault-encrypted");
		goto out;
	}
	if (parse_header(line, llen, env, cause) != 0)
		goto out;
	while (next_line(&p, end, &line, &llen))
		strbuf_add(&hex, line, llen);
	if (unhex(hex.buf, hex.len, &body, &blen, "body", cause) != 0 ||
	    parse_body(body, blen, env, cause) != 0)
		goto out;
	r = 0;
out:
	if (r != 0)
		vault_envelope_clear(env);
	free(body);
	strbuf_release(&hex);
	return r;
}

void
vault_envelope_clear(struct vault_envelope *env)
{
	free(env->version);
	free(env->cipher);
	free(env->label);
	free(env->salt);
	free(env->hmac);
	free(env->ct);
	memset(env, 0, sizeof *env);
}

/* PKCS#7 as Python's cryptography unpads: whole blocks, 1 to 16 bytes of
 * padding, all of them equal. The length without it, or -1. */
static long
unpadded_len(const unsigned char *p, size_t len)
{
	unsigned char	pad;
	size_t		i;

	if (len == 0 || len % BLOCK_LEN != 0)
		return -1;
	pad = p[len - 1];
	if (pad == 0 || pad > BLOCK_LEN)
		return -1;
	for (i = len - pad; i < len; i++) {
		if (p[i] != pad)
			return -1;
	}
	return (long)(len - pad);
}

static int
ctr_decrypt(const unsigned char *key, const unsigned char *iv,
    const unsigned char *in, size_t len, unsigned char *out)
{
	EVP_CIPHER_CTX	*ctx;
	int		 n = 0, fin = 0, ok;

	if (len > INT32_MAX || (ctx = EVP_CIPHER_CTX_new()) == NULL)
		return -1;
	ok = EVP_DecryptInit_ex(ctx, EVP_aes_256_ctr(), NULL, key, iv) == 1 &&
	    EVP_DecryptUpdate(ctx, out, &n, in, (int)len) == 1 &&
	    EVP_DecryptFinal_ex(ctx, out + n, &fin) == 1;
	EVP_CIPHER_CTX_free(ctx);
	return ok && (size_t)(n + fin) == len ? 0 : -1;
}

/* Whether the HMAC-SHA256 of the ciphertext under key is the envelope's,
 * compared in constant time. */
static int
hmac_matches(const struct vault_envelope *env, const unsigned char *key)
{
	unsigned char	md[EVP_MAX_MD_SIZE];
	unsigned int	mdlen = 0;

	if (HMAC(EVP_sha256(), key, KEY_LEN, env->ct, env->ctlen, md,
	    &mdlen) == NULL)
		return 0;
	return mdlen == env->hmaclen &&
	    CRYPTO_memcmp(md, env->hmac, mdlen) == 0;
}

int
vault_envelope_decrypt(const struct vault_envelope *env, const char *password,
    size_t pwlen, char **plain, size_t *plainlen, char **cause)
{
	unsigned char	 key[2 * KEY_LEN + IV_LEN], *out = NULL;
	long		 n;
	int		 r = -1;

	if (pwlen > INT32_MAX || env->saltlen > INT32_MAX ||
	    PKCS5_PBKDF2_HMAC(password, (int)pwlen, env->salt,
	    (int)env->saltlen, KDF_ITERATIONS, EVP_sha256(), sizeof key,
	    key) != 1) {
		fail(cause, "key derivation failed");
		goto out;
	}
	if (!hmac_matches(env, key + KEY_LEN)) {
		r = 1;
		goto out;
	}
	out = xmalloc(env->ctlen + 1);
	if (ctr_decrypt(key, key + 2 * KEY_LEN, env->ct, env->ctlen,
	    out) != 0) {
		fail(cause, "AES-256-CTR failed");
		goto out;
	}
	if ((n = unpadded_len(out, env->ctlen)) < 0) {
		fail(cause, "bad padding after a good HMAC");
		goto out;
	}
	out[n] = '\0';
	*plain = (char *)out;
	*plainlen = (size_t)n;
	out = NULL;
	r = 0;
out:
	explicit_bzero(key, sizeof key);
	if (out != NULL)
		vault_plain_free((char *)out, env->ctlen);
	return r;
}

/*
 * jansson's strings hold revealed values and the strings of vaulted files;
 * its free wipes every block it frees, so that they do not outlive their
 * use in freed memory. Installed once a password exists, before anything
 * is decrypted (jansson's allocators may not change while it has memory
 * of its own allocator: this one frees malloc's blocks as free does).
 */
static void
wiping_free(void *p)
{
	if (p == NULL)
		return;
	explicit_bzero(p, malloc_usable_size(p));
	free(p);
}

static void
wipe_jansson_frees(void)
{
	static int done;

	if (!done)
		json_set_alloc_funcs(malloc, wiping_free);
	done = 1;
}

void
vault_secret_add(const char *label, const char *password, size_t len)
{
	struct secret *s;

	wipe_jansson_frees();
	keyring = xreallocarray(keyring, nkeyring + 1, sizeof *keyring);
	s = &keyring[nkeyring++];
	s->label = xstrdup(label != NULL ? label : VAULT_DEFAULT_ID);
	s->password = xmalloc(len + 1);
	memcpy(s->password, password, len);
	s->password[len] = '\0';
	s->len = len;
}

void
vault_secrets_clear(void)
{
	size_t i;

	for (i = 0; i < nkeyring; i++) {
		free(keyring[i].label);
		vault_plain_free(keyring[i].password, keyring[i].len);
	}
	free(keyring);
	keyring = NULL;
	nkeyring = 0;
}

size_t
vault_secret_count(void)
{
	return nkeyring;
}

/* Try the keyring's passwords whose label is (pass 0) or is not (pass 1)
 * the envelope's: 0 decrypted, 1 none matched, -1 error. */
static int
try_keyring(const struct vault_envelope *env, char **plain, size_t *plainlen,
    char **cause)
{
	const char	*want = env->label != NULL ? env->label :
			    VAULT_DEFAULT_ID;
	size_t		 i;
	int		 pass, r, same;

	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < nkeyring; i++) {
			same = strcmp(keyring[i].label, want) == 0;
			if (same != (pass == 0))
				continue;
			r = vault_envelope_decrypt(env, keyring[i].password,
			    keyring[i].len, plain, plainlen, cause);
			if (r != 1)
				return r;
		}
	}
	return 1;
}

int
vault_decrypt(const char *name, const char *text, size_t len, char **plain,
    size_t *plainlen, char **cause)
{
	struct vault_envelope	 env;
	char			*why = NULL;
	int			 r;

	if (nkeyring == 0)
		return fail(cause, "%s: vault-encrypted; give "
		    "--vault-password-file or --ask-vault-pass", name);
	if (vault_envelope_parse(text, len, &env, &why) != 0) {
		fail(cause, "%s: vault: %s", name, why);
		free(why);
		return -1;
	}
	r = try_keyring(&env, plain, plainlen, &why);
	vault_envelope_clear(&env);
	if (r == 1)
		return fail(cause, "%s: vault: HMAC check failed: wrong vault "
		    "password?", name);
	if (r != 0) {
		fail(cause, "%s: vault: %s", name, why);
		free(why);
		return -1;
	}
	return 0;
}

void
vault_plain_free(char *plain, size_t len)
{
	if (plain == NULL)
		return;
	explicit_bzero(plain, len);
	free(plain);
}
