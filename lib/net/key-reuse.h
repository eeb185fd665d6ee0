/* Keys a run builds once instead of once per session (issue 25: the
 * controller's CPU per host).
 *
 * key_reuse_privkey: the private key file (ansible_ssh_private_key_file)
 * imported once per run and path, shared read-only by every session that
 * authenticates with it. libssh 0.10's ssh_userauth_publickey only reads
 * the key (the public blob and the signature), and OpenSSL 3 lets threads
 * sign with one EVP_PKEY at once (openssl-threads(7): objects not modified
 * may be shared), so sessions on other threads may use it concurrently.
 * A key that cannot be imported is not remembered: each session tries
 * again and reports its own error, as before.
 *
 * key-reuse.c also stands in for two libcrypto calls that libssh 0.10
 * makes for every session, each deriving a public key from a private one
 * (a scalar multiplication) that is already known:
 * - signing with an ed25519 user key, libssh builds an EVP_PKEY from the
 *   key's raw bytes for each signature: the same key's EVP_PKEY is kept
 *   and handed out again (reference counted);
 * - the curve25519 key exchange generates an X25519 key, reads its raw
 *   private key, then builds a new EVP_PKEY from those bytes for the
 *   shared secret: the generated key is handed back instead (per thread,
 *   the bytes compared).
 * Both return a key equal to what libcrypto would have built; anything
 * else goes to libcrypto unchanged (dlsym RTLD_NEXT). */
#ifndef TCPTUNE_NET_KEY_REUSE_H
#define TCPTUNE_NET_KEY_REUSE_H

#include <libssh/libssh.h>

/* The key of the file at path, owned by the cache (do not free), or NULL
 * when it cannot be imported. Thread-safe. */
ssh_key key_reuse_privkey(const char *path);

/* How often each reuse answered: for tests and traces. */
struct key_reuse_stats {
	unsigned long	files_imported;	/* key files read */
	unsigned long	files_reused;	/* sessions served a kept key */
	unsigned long	ed25519_reused;	/* signatures without a new EVP_PKEY */
	unsigned long	x25519_reused;	/* key exchanges without one */
};
void key_reuse_get_stats(struct key_reuse_stats *out);

#endif
