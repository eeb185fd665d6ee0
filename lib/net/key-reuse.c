/* Keys built once per run: see key-reuse.h for what and why. */
#include "net/key-reuse.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include "base/xalloc.h"

/* --- the private key files ------------------------------------------- */

struct kept_file {
	char			*path;
	ssh_key			 key;
	struct kept_file	*next;
};

/* Kept, like the ed25519 keys below, to the end of the process: sessions
 * may use them until then, and freeing them from a destructor could run
 * after libcrypto's own cleanup (its atexit handler). They stay reachable,
 * so LeakSanitizer does not count them. */
static pthread_mutex_t	 files_lock = PTHREAD_MUTEX_INITIALIZER;
static struct kept_file	*files;

static atomic_ulong	 n_imported, n_file_reused, n_ed_reused, n_x_reused;

ssh_key
key_reuse_privkey(const char *path)
{
	struct kept_file *f;
	ssh_key key = NULL;

	pthread_mutex_lock(&files_lock);
	for (f = files; f != NULL; f = f->next) {
		if (strcmp(f->path, path) == 0) {
			key = f->key;
			atomic_fetch_add(&n_file_reused, 1);
			goto out;
		}
	}
	/* Imported under the lock: one import per file even when the first
	 * sessions of a run start together. */
	if (ssh_pki_import_privkey_file(path, NULL, NULL, NULL, &key) !=
	    SSH_OK) {
		key = NULL;
		goto out;
	}
	atomic_fetch_add(&n_imported, 1);
	f = xcalloc(1, sizeof *f);
	f->path = xstrdup(path);
	f->key = key;
	f->next = files;
	files = f;
out:
	pthread_mutex_unlock(&files_lock);
	return key;
}

void
key_reuse_get_stats(struct key_reuse_stats *out)
{
	out->files_imported = atomic_load(&n_imported);
	out->files_reused = atomic_load(&n_file_reused);
	out->ed25519_reused = atomic_load(&n_ed_reused);
	out->x25519_reused = atomic_load(&n_x_reused);
}

/* --- libcrypto's two calls ------------------------------------------- */

#define RAW_LEN	32	/* ed25519 seed, X25519 scalar */
#define ED_KEEP	8	/* distinct ed25519 user keys kept in one run */

typedef EVP_PKEY *(*new_raw_fn)(int, ENGINE *, const unsigned char *,
    size_t);
typedef int (*get_raw_fn)(const EVP_PKEY *, unsigned char *, size_t *);

static new_raw_fn	real_new_raw;
static get_raw_fn	real_get_raw;
static pthread_once_t	real_once = PTHREAD_ONCE_INIT;

/* The X25519 key a thread generated last, with its scalar. */
struct x_stash {
	EVP_PKEY	*key;
	unsigned char	 priv[RAW_LEN];
};
static pthread_key_t	stash_key;

static struct {
	unsigned char	 seed[RAW_LEN];
	EVP_PKEY	*key;
} ed_kept[ED_KEEP];
static size_t		ed_n;
static pthread_mutex_t	ed_lock = PTHREAD_MUTEX_INITIALIZER;

static void
stash_clear(struct x_stash *st)
{
	EVP_PKEY_free(st->key);
	st->key = NULL;
	OPENSSL_cleanse(st->priv, sizeof st->priv);
}

static void
stash_free(void *p)
{
	stash_clear(p);
	free(p);
}

static void
find_real(void)
{
	/* The next definitions after this program's: libcrypto's. */
	real_new_raw = (new_raw_fn)dlsym(RTLD_NEXT,
	    "EVP_PKEY_new_raw_private_key");
	real_get_raw = (get_raw_fn)dlsym(RTLD_NEXT,
	    "EVP_PKEY_get_raw_private_key");
	pthread_key_create(&stash_key, stash_free);
}

static struct x_stash *
stash(void)
{
	struct x_stash *st = pthread_getspecific(stash_key);

	if (st == NULL) {
		st = xcalloc(1, sizeof *st);
		pthread_setspecific(stash_key, st);
	}
	return st;
}

int
EVP_PKEY_get_raw_private_key(const EVP_PKEY *pkey, unsigned char *priv,
    size_t *len)
{
	struct x_stash *st;
	int r;

	pthread_once(&real_once, find_real);
	r = real_get_raw(pkey, priv, len);
	if (r != 1 || priv == NULL || *len != RAW_LEN ||
	    EVP_PKEY_get_id(pkey) != EVP_PKEY_X25519)
		return r;
	st = stash();
	stash_clear(st);
	if (EVP_PKEY_up_ref((EVP_PKEY *)pkey) == 1) {
		st->key = (EVP_PKEY *)pkey;
		memcpy(st->priv, priv, RAW_LEN);
	}
	return r;
}

/* The kept ed25519 key of seed, a new reference, or NULL. */
static EVP_PKEY *
ed_find(const unsigned char *seed)
{
	EVP_PKEY *k = NULL;
	size_t i;

	pthread_mutex_lock(&ed_lock);
	for (i = 0; i < ed_n; i++) {
		if (CRYPTO_memcmp(ed_kept[i].seed, seed, RAW_LEN) == 0 &&
		    EVP_PKEY_up_ref(ed_kept[i].key) == 1) {
			k = ed_kept[i].key;
			break;
		}
	}
	pthread_mutex_unlock(&ed_lock);
	return k;
}

static void
ed_keep(const unsigned char *seed, EVP_PKEY *k)
{
	size_t i;

	pthread_mutex_lock(&ed_lock);
	for (i = 0; i < ed_n; i++)
		if (CRYPTO_memcmp(ed_kept[i].seed, seed, RAW_LEN) == 0)
			goto out;
	if (ed_n < ED_KEEP && EVP_PKEY_up_ref(k) == 1) {
		memcpy(ed_kept[ed_n].seed, seed, RAW_LEN);
		ed_kept[ed_n++].key = k;
	}
out:
	pthread_mutex_unlock(&ed_lock);
}

EVP_PKEY *
EVP_PKEY_new_raw_private_key(int type, ENGINE *e, const unsigned char *priv,
    size_t len)
{
	struct x_stash *st;
	EVP_PKEY *k;

	pthread_once(&real_once, find_real);
	if (e != NULL || priv == NULL || len != RAW_LEN)
		return real_new_raw(type, e, priv, len);
	if (type == EVP_PKEY_X25519) {
		st = pthread_getspecific(stash_key);
		if (st != NULL && st->key != NULL &&
		    CRYPTO_memcmp(st->priv, priv, RAW_LEN) == 0) {
			/* The stash's reference goes to the caller. */
			k = st->key;
			st->key = NULL;
			stash_clear(st);
			atomic_fetch_add(&n_x_reused, 1);
			return k;
		}
	} else if (type == EVP_PKEY_ED25519) {
		if ((k = ed_find(priv)) != NULL) {
			atomic_fetch_add(&n_ed_reused, 1);
			return k;
		}
		if ((k = real_new_raw(type, e, priv, len)) != NULL)
			ed_keep(priv, k);
		return k;
	}
	return real_new_raw(type, e, priv, len);
}
