/* libFuzzer harness: Ansible Vault envelopes (lib/vault/vault.c). The input
 * is parsed as an envelope; one that parses is decrypted with a fixed
 * password (the HMAC check fails, or the padding is checked), and the
 * keyring path is taken once with the same password. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "vault/vault.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vault_envelope	 env;
	const char		*text = (const char *)data;
	char			*cause = NULL, *plain = NULL;
	size_t			 len = 0;

	if (vault_envelope_parse(text, size, &env, &cause) == 0) {
		if (vault_envelope_decrypt(&env, "pw-one", 6, &plain, &len,
		    &cause) == 0)
			vault_plain_free(plain, len);
		vault_envelope_clear(&env);
	}
	free(cause);
	cause = NULL;
	if (vault_secret_count() == 0)
		vault_secret_add("default", "pw-one", 6);
	if (vault_decrypt("fuzz", text, size, &plain, &len, &cause) == 0)
		vault_plain_free(plain, len);
	free(cause);
	return 0;
}
