/* Ansible Vault against vectors made by ansible-vault 2.14 (tests/data/
 * vault/: the *.pass files are their passwords, stripped as Ansible strips
 * them): formats 1.1 and 1.2, labels, wrong passwords, corrupted HMACs,
 * broken and hostile envelopes, the inline values of YAML, and the
 * redaction of what was decrypted. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* before cmocka.h, whose fail() macro would rename xalloc.h's fail */
#include "base/xalloc.h"
#include "vault/vault.h"
#include "yaml/ydoc.h"

#include <cmocka.h>

#define D "tests/data/vault/"

static char *
slurp(const char *path, size_t *len)
{
	FILE	*fp = fopen(path, "rb");
	char	*buf = xmalloc(1 << 16);

	assert_non_null(fp);
	*len = fread(buf, 1, (1 << 16) - 1, fp);
	buf[*len] = '\0';
	fclose(fp);
	return buf;
}

static int
reset(void **state)
{
	(void)state;
	vault_secrets_clear();
	vault_forget_all();
	return 0;
}

/* Decrypt a vector file with the keyring; the plaintext or NULL (and
 * *cause). */
static char *
decrypt_file(const char *path, size_t *len, char **cause)
{
	char	*text, *plain = NULL;
	size_t	 tlen;

	text = slurp(path, &tlen);
	*cause = NULL;
	if (vault_decrypt(path, text, tlen, &plain, len, cause) != 0)
		plain = NULL;
	free(text);
	return plain;
}

static void
add(const char *label, const char *pw)
{
	vault_secret_add(label, pw, strlen(pw));
}

static void
test_v11(void **state)
{
	char	*plain, *cause;
	size_t	 len;

	(void)state;
	add("default", "pw-one");
	plain = decrypt_file(D "v11-hunter2.vault", &len, &cause);
	assert_null(cause);
	assert_int_equal(len, 7);
	assert_string_equal(plain, "hunter2");
	vault_plain_free(plain, len);
}

static void
test_v11_multiblock(void **state)
{
	char	*plain, *cause, *want;
	size_t	 len, wlen;

	(void)state;
	add("default", "pw-one");
	plain = decrypt_file(D "v11-multiblock.vault", &len, &cause);
	want = slurp(D "v11-multiblock.plain", &wlen);
	assert_null(cause);
	assert_int_equal(len, wlen);
	assert_memory_equal(plain, want, wlen);
	vault_plain_free(plain, len);
	free(want);
}

/* 1.2: the label's password is tried first, but any that works is used,
 * in order (Ansible's DEFAULT_VAULT_ID_MATCH is false). A plaintext of
 * exactly one block ends in a whole block of padding. */
static void
test_v12_labels(void **state)
{
	char	*plain, *cause;
	size_t	 len;

	(void)state;
	add("default", "pw-one");
	add("other", "second secret");
	plain = decrypt_file(D "v12-prod-16bytes.vault", &len, &cause);
	assert_null(cause);
	assert_int_equal(len, 16);
	assert_string_equal(plain, "exactly16bytes!!");
	vault_plain_free(plain, len);
	reset(NULL);
	add("prod", "second secret");
	add("default", "pw-one");
	plain = decrypt_file(D "v12-prod-16bytes.vault", &len, &cause);
	assert_null(cause);
	assert_string_equal(plain, "exactly16bytes!!");
	vault_plain_free(plain, len);
}

static void
test_empty_plaintext(void **state)
{
	char	*plain, *cause;
	size_t	 len = 99;

	(void)state;
	add("scripted", "scripted pass");
	plain = decrypt_file(D "v12-scripted-empty.vault", &len, &cause);
	assert_null(cause);
	assert_int_equal(len, 0);
	assert_string_equal(plain, "");
	vault_plain_free(plain, len);
}

static void
test_no_password(void **state)
{
	char	*cause;
	size_t	 len;

	(void)state;
	assert_null(decrypt_file(D "v11-hunter2.vault", &len, &cause));
	assert_string_equal(cause, D "v11-hunter2.vault: vault-encrypted; "
	    "give --vault-password-file or --ask-vault-pass");
	free(cause);
}

static void
test_wrong_password(void **state)
{
	char	*cause;
	size_t	 len;

	(void)state;
	add("default", "pw-two");
	add("prod", "second secret");
	assert_null(decrypt_file(D "v11-hunter2.vault", &len, &cause));
	assert_string_equal(cause, D "v11-hunter2.vault: vault: HMAC check "
	    "failed: wrong vault password?");
	free(cause);
}

/* A changed byte of the HMAC or of the ciphertext fails the HMAC check,
 * with the right password, before anything is decrypted. */
static void
test_corrupted(void **state)
{
	struct vault_envelope	 env;
	char			*text, *plain = NULL, *cause = NULL;
	size_t			 tlen, len;

	(void)state;
	text = slurp(D "v11-hunter2.vault", &tlen);
	assert_int_equal(vault_envelope_parse(text, tlen, &env, &cause), 0);
	assert_int_equal(env.saltlen, 32);
	assert_int_equal(env.hmaclen, 32);
	assert_int_equal(env.ctlen, 16);
	assert_string_equal(env.version, "1.1");
	assert_null(env.label);
	assert_int_equal(vault_envelope_decrypt(&env, "pw-one", 6, &plain,
	    &len, &cause), 0);
	vault_plain_free(plain, len);
	env.hmac[31] ^= 1;
	assert_int_equal(vault_envelope_decrypt(&env, "pw-one", 6, &plain,
	    &len, &cause), 1);
	env.hmac[31] ^= 1;
	env.ct[0] ^= 0x80;
	assert_int_equal(vault_envelope_decrypt(&env, "pw-one", 6, &plain,
	    &len, &cause), 1);
	/* a digest of another length never matches */
	env.ct[0] ^= 0x80;
	env.hmaclen = 31;
	assert_int_equal(vault_envelope_decrypt(&env, "pw-one", 6, &plain,
	    &len, &cause), 1);
	env.hmaclen = 32;
	vault_envelope_clear(&env);
	free(text);
}

static void
expect_format_error(const char *text, const char *want)
{
	struct vault_envelope	 env;
	char			*cause = NULL;

	assert_int_equal(vault_envelope_parse(text, strlen(text), &env,
	    &cause), -1);
	assert_non_null(cause);
	assert_string_equal(cause, want);
	free(cause);
}

static void
test_broken_envelopes(void **state)
{
	char	*text, *cause = NULL, *plain;
	size_t	 tlen, len;

	(void)state;
	expect_format_error("$ANSIBLE_VAULT\n00\n", "header has no version "
	    "and cipher");
	expect_format_error("$ANSIBLE_VAULT;1.1\n00\n", "header has no "
	    "version and cipher");
	expect_format_error("$ANSIBLE_VAULT;1.1;AES\n00\n", "unknown cipher "
	    "'AES'");
	expect_format_error("$ANSIBLE_VAULT;1.1;AES256\n0\n", "body: odd "
	    "number of hex digits");
	expect_format_error("$ANSIBLE_VAULT;1.1;AES256\n0g\n", "body: not "
	    "hex");
	expect_format_error("$ANSIBLE_VAULT;1.1;AES256\n", "body is not "
	    "salt, hmac and ciphertext");
	/* hex("00\n00") has one newline only */
	expect_format_error("$ANSIBLE_VAULT;1.1;AES256\n30300a3030\n",
	    "body is not salt, hmac and ciphertext");
	/* hex("0\n00\n00"): an odd salt */
	expect_format_error("$ANSIBLE_VAULT;1.1;AES256\n300a30300a3030\n",
	    "salt: odd number of hex digits");
	expect_format_error("not a vault", "not vault-encrypted");

	/* truncated by one hex digit, then by a whole line */
	add("default", "pw-one");
	text = slurp(D "v11-hunter2.vault", &tlen);
	assert_int_equal(vault_decrypt("f", text, tlen - 2, &plain, &len,
	    &cause), -1);
	assert_string_equal(cause, "f: vault: body: odd number of hex digits");
	free(cause);
	assert_int_equal(vault_decrypt("f", text, tlen - 81, &plain, &len,
	    &cause), -1);
	assert_non_null(strstr(cause, "f: vault: "));
	free(cause);
	free(text);
}

/* Windows line ends are line ends, as in Python's splitlines. */
static void
test_crlf(void **state)
{
	char	*text, *crlf, *plain, *cause = NULL, *o;
	size_t	 tlen, len, i;

	(void)state;
	add("default", "pw-one");
	text = slurp(D "v11-hunter2.vault", &tlen);
	o = crlf = xmalloc(2 * tlen + 1);
	for (i = 0; i < tlen; i++) {
		if (text[i] == '\n')
			*o++ = '\r';
		*o++ = text[i];
	}
	assert_int_equal(vault_decrypt("f", crlf, (size_t)(o - crlf), &plain,
	    &len, &cause), 0);
	assert_string_equal(plain, "hunter2");
	vault_plain_free(plain, len);
	free(crlf);
	free(text);
}

/* Hostile headers and bodies cost time and memory in proportion to their
 * size, and fail. */
static void
test_hostile(void **state)
{
	size_t		 n = 4 * 1024 * 1024, len;
	char		*text = xmalloc(n + 1), *cause = NULL, *plain;
	clock_t		 t0 = clock();

	(void)state;
	memcpy(text, "$ANSIBLE_VAULT", 14);
	memset(text + 14, ';', n - 14);
	text[n] = '\0';
	add("default", "pw-one");
	assert_int_equal(vault_decrypt("f", text, n, &plain, &len, &cause),
	    -1);
	assert_string_equal(cause, "f: vault: unknown cipher ''");
	free(cause);
	/* a valid header and four million lines of nothing */
	memcpy(text, "$ANSIBLE_VAULT;1.1;AES256\n", 26);
	memset(text + 26, '\n', n - 26);
	assert_int_equal(vault_decrypt("f", text, n, &plain, &len, &cause),
	    -1);
	free(cause);
	/* hex of an endless salt line */
	memset(text + 26, '3', n - 26);
	assert_int_equal(vault_decrypt("f", text, n, &plain, &len, &cause),
	    -1);
	free(cause);
	assert_true((double)(clock() - t0) / CLOCKS_PER_SEC < 5.0);
	free(text);
}

static void
test_ydoc_whole_file(void **state)
{
	struct ydoc	*doc;
	char		*cause = NULL;
	json_t		*j;

	(void)state;
	assert_null(ydoc_load_file(D "vars-vaulted.yml", &cause));
	assert_string_equal(cause, D "vars-vaulted.yml: vault-encrypted; give "
	    "--vault-password-file or --ask-vault-pass");
	free(cause);
	cause = NULL;
	add("default", "pw-one");
	doc = ydoc_load_file(D "vars-vaulted.yml", &cause);
	assert_non_null(doc);
	j = ynode_to_json(ydoc_root(doc));
	assert_string_equal(json_string_value(json_object_get(j,
	    "app_secret")), "s3cr3t-file-value");
	assert_int_equal(json_integer_value(json_object_get(j, "port")), 5432);
	json_decref(j);
	ydoc_free(doc);
	/* its string values are secrets now; its numbers and keys are not */
	cause = vault_redact("app_secret=s3cr3t-file-value port=5432");
	assert_string_equal(cause, "app_secret=<vaulted> port=5432");
	free(cause);
}

/* An inline value is the object ansible-inventory prints; revealing it
 * needs the password and gives the plaintext. */
static void
test_inline(void **state)
{
	struct ydoc	*doc;
	char		*cause = NULL;
	json_t		*j, *shared, *outer;
	const char	*text;

	(void)state;
	doc = ydoc_load_file(D "vars-inline.yml", &cause);
	assert_non_null(doc);
	j = ynode_to_json(ydoc_root(doc));
	ydoc_free(doc);
	text = vault_inline_text(json_object_get(j, "db_password"));
	assert_non_null(text);
	assert_int_equal(strncmp(text, "$ANSIBLE_VAULT;1.2;AES256;prod\n6361",
	    35), 0);
	assert_int_equal(text[strlen(text) - 1], '\n');

	/* no password: the host and variable are named */
	assert_int_equal(vault_reveal_vars(j, "host 'h1'", &cause), -1);
	assert_string_equal(cause, "host 'h1': variable 'db_password': "
	    "vault-encrypted; give --vault-password-file or --ask-vault-pass");
	free(cause);

	/* nested in a container that someone else holds too */
	add("prod", "second secret");
	shared = json_pack("{s:[O]}", "list", json_object_get(j,
	    "db_password"));
	outer = json_pack("{s:O, s:s}", "nested", shared, "plain", "x");
	assert_int_equal(vault_reveal_vars(outer, "o", &cause), 0);
	assert_string_equal(json_string_value(json_array_get(json_object_get(
	    json_object_get(outer, "nested"), "list"), 0)), "inline-s3cret");
	assert_non_null(vault_inline_text(json_array_get(json_object_get(
	    shared, "list"), 0)));
	assert_int_equal(vault_reveal_vars(j, "host 'h1'", &cause), 0);
	assert_string_equal(json_string_value(json_object_get(j,
	    "db_password")), "inline-s3cret");
	json_decref(outer);
	json_decref(shared);
	json_decref(j);
}

static void
test_redact(void **state)
{
	json_t	*j, *r;
	char	*s;

	(void)state;
	assert_null(vault_redact("nothing to hide"));
	/* Nothing to redact yet (none, then only a too short one): the
	 * tree itself comes back, though it holds what becomes a secret. */
	j = json_pack("{s:[s]}", "list", "x hunter2");
	r = vault_redact_json(j);
	assert_ptr_equal(r, j);
	json_decref(r);
	vault_remember("abc", 3);	/* too short to redact */
	r = vault_redact_json(j);
	assert_ptr_equal(r, j);
	json_decref(r);
	json_decref(j);
	vault_remember("hunter2", 7);
	vault_remember("hunter2hunter2", 14);
	s = vault_redact("pw=hunter2hunter2 again hunter2 abc");
	assert_string_equal(s, "pw=<vaulted> again <vaulted> abc");
	free(s);
	j = json_pack("{s:s, s:[s, i], s:s}", "msg", "echo hunter2", "list",
	    "x hunter2", 3, "keep", "plain");
	r = vault_redact_json(j);
	assert_ptr_not_equal(r, j);
	assert_string_equal(json_string_value(json_object_get(r, "msg")),
	    "echo <vaulted>");
	assert_string_equal(json_string_value(json_array_get(json_object_get(r,
	    "list"), 0)), "x <vaulted>");
	/* the original (a registered result) is left alone */
	assert_string_equal(json_string_value(json_object_get(j, "msg")),
	    "echo hunter2");
	json_decref(r);
	json_decref(j);
	j = json_pack("{s:s}", "a", "b");
	r = vault_redact_json(j);
	assert_ptr_equal(r, j);
	json_decref(r);
	json_decref(j);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_v11, reset),
		cmocka_unit_test_setup(test_v11_multiblock, reset),
		cmocka_unit_test_setup(test_v12_labels, reset),
		cmocka_unit_test_setup(test_empty_plaintext, reset),
		cmocka_unit_test_setup(test_no_password, reset),
		cmocka_unit_test_setup(test_wrong_password, reset),
		cmocka_unit_test_setup(test_corrupted, reset),
		cmocka_unit_test_setup(test_broken_envelopes, reset),
		cmocka_unit_test_setup(test_crlf, reset),
		cmocka_unit_test_setup(test_hostile, reset),
		cmocka_unit_test_setup(test_ydoc_whole_file, reset),
		cmocka_unit_test_setup(test_inline, reset),
		cmocka_unit_test_setup(test_redact, reset),
	};

	return cmocka_run_group_tests(tests, NULL, reset);
}
