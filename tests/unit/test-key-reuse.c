/* key-reuse: a key file imported once per path; the ed25519 EVP_PKEY kept
 * per seed; the X25519 key of a thread's last key generation handed back
 * for its own bytes only. Each reused key is checked against one libcrypto
 * builds itself (EVP_PKEY_new_raw_private_key_ex, which key-reuse does not
 * stand in for): same public key, a signature that verifies, the same
 * shared secret. Needs ssh-keygen. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/evp.h>
#include <openssl/rand.h>

#include "net/key-reuse.h"

/* The key libcrypto builds from these bytes, without key-reuse. */
static EVP_PKEY *
plain_key(const char *name, const unsigned char *raw)
{
	EVP_PKEY *k = EVP_PKEY_new_raw_private_key_ex(NULL, name, NULL, raw,
	    32);

	assert_non_null(k);
	return k;
}

static void
assert_same_public(EVP_PKEY *a, EVP_PKEY *b)
{
	unsigned char pa[32], pb[32];
	size_t la = sizeof pa, lb = sizeof pb;

	assert_int_equal(EVP_PKEY_get_raw_public_key(a, pa, &la), 1);
	assert_int_equal(EVP_PKEY_get_raw_public_key(b, pb, &lb), 1);
	assert_int_equal(la, lb);
	assert_memory_equal(pa, pb, la);
}

static void
test_ed25519(void **state)
{
	static const unsigned char msg[] = "session id and request";
	unsigned char seed[32], other[32], sig[64];
	size_t siglen = sizeof sig;
	struct key_reuse_stats s0, s1;
	EVP_PKEY *a, *b, *c, *plain;
	EVP_MD_CTX *md;

	(void)state;
	assert_int_equal(RAND_bytes(seed, sizeof seed), 1);
	memcpy(other, seed, sizeof other);
	other[0] ^= 1;
	key_reuse_get_stats(&s0);
	a = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, NULL, seed, 32);
	b = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, NULL, seed, 32);
	c = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, NULL, other, 32);
	key_reuse_get_stats(&s1);
	assert_non_null(a);
	assert_ptr_equal(a, b);
	assert_ptr_not_equal(a, c);
	assert_int_equal(s1.ed25519_reused - s0.ed25519_reused, 1);

	/* The kept key signs as the key libcrypto builds from the seed. */
	plain = plain_key("ED25519", seed);
	assert_same_public(b, plain);
	md = EVP_MD_CTX_new();
	assert_int_equal(EVP_DigestSignInit(md, NULL, NULL, NULL, b), 1);
	assert_int_equal(EVP_DigestSign(md, sig, &siglen, msg, sizeof msg),
	    1);
	EVP_MD_CTX_free(md);
	md = EVP_MD_CTX_new();
	assert_int_equal(EVP_DigestVerifyInit(md, NULL, NULL, NULL, plain), 1);
	assert_int_equal(EVP_DigestVerify(md, sig, siglen, msg, sizeof msg),
	    1);
	EVP_MD_CTX_free(md);
	EVP_PKEY_free(plain);
	/* Each caller frees its reference; the kept one stays usable. */
	EVP_PKEY_free(a);
	EVP_PKEY_free(b);
	EVP_PKEY_free(c);
	a = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, NULL, seed, 32);
	assert_non_null(a);
	EVP_PKEY_free(a);
}

/* A generated X25519 key and its raw scalar, as libssh's key exchange
 * reads it. */
static EVP_PKEY *
generate_x25519(unsigned char priv[32])
{
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_id(EVP_PKEY_X25519, NULL);
	EVP_PKEY *k = NULL;
	size_t len = 32;

	assert_non_null(ctx);
	assert_int_equal(EVP_PKEY_keygen_init(ctx), 1);
	assert_int_equal(EVP_PKEY_keygen(ctx, &k), 1);
	EVP_PKEY_CTX_free(ctx);
	assert_int_equal(EVP_PKEY_get_raw_private_key(k, priv, &len), 1);
	assert_int_equal(len, 32);
	return k;
}

static void
shared_secret(EVP_PKEY *mine, EVP_PKEY *peer, unsigned char out[32])
{
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new(mine, NULL);
	size_t len = 32;

	assert_non_null(ctx);
	assert_int_equal(EVP_PKEY_derive_init(ctx), 1);
	assert_int_equal(EVP_PKEY_derive_set_peer(ctx, peer), 1);
	assert_int_equal(EVP_PKEY_derive(ctx, out, &len), 1);
	assert_int_equal(len, 32);
	EVP_PKEY_CTX_free(ctx);
}

struct other_thread {
	const unsigned char	*priv;
	EVP_PKEY		*got;
};

static void *
build_elsewhere(void *arg)
{
	struct other_thread *o = arg;

	o->got = EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, NULL, o->priv,
	    32);
	return NULL;
}

static void
test_x25519(void **state)
{
	unsigned char priv[32], peer_priv[32], other[32], k1[32], k2[32];
	struct key_reuse_stats s0, s1;
	struct other_thread o;
	EVP_PKEY *gen, *again, *peer, *plain, *miss;
	pthread_t th;

	(void)state;
	gen = generate_x25519(priv);
	peer = generate_x25519(peer_priv);
	/* The stash holds the last generated key only: gen's is gone. */
	key_reuse_get_stats(&s0);
	miss = EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, NULL, priv, 32);
	key_reuse_get_stats(&s1);
	assert_non_null(miss);
	assert_ptr_not_equal(miss, gen);
	assert_int_equal(s1.x25519_reused, s0.x25519_reused);
	EVP_PKEY_free(miss);

	/* Another thread does not see this thread's stash. */
	o.priv = peer_priv;
	o.got = NULL;
	assert_int_equal(pthread_create(&th, NULL, build_elsewhere, &o), 0);
	assert_int_equal(pthread_join(th, NULL), 0);
	assert_non_null(o.got);
	assert_ptr_not_equal(o.got, peer);
	EVP_PKEY_free(o.got);

	/* Other bytes are built by libcrypto, and leave the stash as is. */
	memcpy(other, peer_priv, sizeof other);
	other[5] ^= 0x40;
	miss = EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, NULL, other, 32);
	assert_non_null(miss);
	assert_ptr_not_equal(miss, peer);
	EVP_PKEY_free(miss);

	/* The same bytes on the same thread: the generated key, once. */
	key_reuse_get_stats(&s0);
	again = EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, NULL, peer_priv,
	    32);
	key_reuse_get_stats(&s1);
	assert_ptr_equal(again, peer);
	assert_int_equal(s1.x25519_reused - s0.x25519_reused, 1);
	miss = EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, NULL, peer_priv,
	    32);
	assert_ptr_not_equal(miss, peer);
	EVP_PKEY_free(miss);

	/* It derives what libcrypto's own key of those bytes derives. */
	plain = plain_key("X25519", peer_priv);
	assert_same_public(again, plain);
	shared_secret(again, gen, k1);
	shared_secret(plain, gen, k2);
	assert_memory_equal(k1, k2, 32);
	EVP_PKEY_free(plain);
	EVP_PKEY_free(again);	/* the reference the stash handed over */
	EVP_PKEY_free(peer);	/* keygen's own */
	EVP_PKEY_free(gen);
}

static void
test_key_file(void **state)
{
	char dir[] = "/tmp/tcptune-key-reuse-XXXXXX", path[256], cmd[512];
	struct key_reuse_stats s0, s1;
	ssh_key a, b;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/id_ed25519", dir);
	snprintf(cmd, sizeof cmd, "ssh-keygen -q -t ed25519 -N '' -f %s",
	    path);
	assert_int_equal(system(cmd), 0);

	key_reuse_get_stats(&s0);
	a = key_reuse_privkey(path);
	b = key_reuse_privkey(path);
	key_reuse_get_stats(&s1);
	assert_non_null(a);
	assert_ptr_equal(a, b);
	assert_true(ssh_key_is_private(a));
	assert_int_equal(s1.files_imported - s0.files_imported, 1);
	assert_int_equal(s1.files_reused - s0.files_reused, 1);

	/* A file that cannot be imported is tried again each time. */
	snprintf(path, sizeof path, "%s/missing", dir);
	assert_null(key_reuse_privkey(path));
	assert_null(key_reuse_privkey(path));
	key_reuse_get_stats(&s0);
	assert_int_equal(s0.files_imported, s1.files_imported);

	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ed25519),
		cmocka_unit_test(test_x25519),
		cmocka_unit_test(test_key_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
