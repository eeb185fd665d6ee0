/* What was decrypted: inline values revealed for a play (cached by their
 * ciphertext, so a value shared by a hundred hosts costs one key
 * derivation), and every secret to redact from a run's results (vault.h). */
#include "vault/vault.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/xalloc.h"

struct known {
	char	*cipher;	/* the inline text, or NULL: only redacted */
	char	*plain;
	size_t	 len;
};

static pthread_mutex_t	 known_lock = PTHREAD_MUTEX_INITIALIZER;
static struct known	*known;
static size_t		 nknown;

json_t *
vault_inline_new(const char *text, size_t len)
{
	return json_pack("{s:s%}", "__ansible_vault", text, len);
}

const char *
vault_inline_text(const json_t *j)
{
	if (!json_is_object(j) || json_object_size(j) != 1)
		return NULL;
	return json_string_value(json_object_get(j, "__ansible_vault"));
}

/* Under known_lock. */
static void
remember_locked(const char *cipher, const char *s, size_t len)
{
	struct known	*k;
	size_t		 i;

	for (i = 0; i < nknown; i++) {
		if (known[i].len == len && memcmp(known[i].plain, s, len) == 0 &&
		    (cipher == NULL || known[i].cipher != NULL))
			return;
	}
	known = xreallocarray(known, nknown + 1, sizeof *known);
	k = &known[nknown++];
	k->cipher = cipher != NULL ? xstrdup(cipher) : NULL;
	k->plain = xmalloc(len + 1);
	memcpy(k->plain, s, len);
	k->plain[len] = '\0';
	k->len = len;
}

void
vault_remember(const char *s, size_t len)
{
	pthread_mutex_lock(&known_lock);
	remember_locked(NULL, s, len);
	pthread_mutex_unlock(&known_lock);
}

void
vault_forget_all(void)
{
	size_t i;

	pthread_mutex_lock(&known_lock);
	for (i = 0; i < nknown; i++) {
		free(known[i].cipher);
		vault_plain_free(known[i].plain, known[i].len);
	}
	free(known);
	known = NULL;
	nknown = 0;
	pthread_mutex_unlock(&known_lock);
}

/* The plaintext of one inline value as a JSON string, from the cache or
 * decrypted now; NULL with *cause. */
static json_t *
reveal_inline(const char *text, const char *name, char **cause)
{
	json_t	*j = NULL;
	char	*plain = NULL;
	size_t	 len = 0, i;

	pthread_mutex_lock(&known_lock);
	for (i = 0; i < nknown; i++) {
		if (known[i].cipher != NULL &&
		    strcmp(known[i].cipher, text) == 0) {
			j = json_stringn(known[i].plain, known[i].len);
			goto out;
		}
	}
	if (vault_decrypt(name, text, strlen(text), &plain, &len, cause) != 0)
		goto out;
	/* Ansible decodes it as UTF-8 text, as jansson insists on */
	if ((j = json_stringn(plain, len)) == NULL) {
		fail(cause, "%s: vault: decrypted value is not UTF-8 text",
		    name);
		goto out;
	}
	remember_locked(text, plain, len);
out:
	pthread_mutex_unlock(&known_lock);
	vault_plain_free(plain, len);
	return j;
}

/*
 * A tree walk that replaces some leaves: leaf() returns a new reference for
 * a value it replaces, NULL for one to keep or descend into (and NULL with
 * failed set on error). Containers are copied, shallowly, only on their
 * first changed member: they may be shared with the inventory.
 */
struct walk {
	json_t		*(*leaf)(json_t *v, struct walk *w);
	const char	 *name;
	char		**cause;
	int		  failed;
};

static json_t	*map_tree(json_t *v, struct walk *w);

/* Member i (key of an object, or index of an array) mapped into *copy. */
static int
map_member(json_t *v, const char *key, size_t i, json_t *child,
    json_t **copy, struct walk *w)
{
	json_t *nv;

	if ((nv = map_tree(child, w)) == NULL)
		return -1;
	if (nv != child && *copy == NULL)
		*copy = json_copy(v);
	if (*copy != NULL && key != NULL)
		json_object_set(*copy, key, nv);
	else if (*copy != NULL)
		json_array_set(*copy, i, nv);
	json_decref(nv);
	return 0;
}

/* v mapped: a new reference (v itself when nothing changed), or NULL. */
static json_t *
map_tree(json_t *v, struct walk *w)
{
	const char	*key;
	json_t		*nv, *child, *copy = NULL;
	size_t		 i;
	int		 r = 0;

	if ((nv = w->leaf(v, w)) != NULL || w->failed)
		return nv;
	if (json_is_object(v)) {
		json_object_foreach(v, key, child) {
			if ((r = map_member(v, key, 0, child, &copy, w)) != 0)
				break;
		}
	} else if (json_is_array(v)) {
		json_array_foreach(v, i, child) {
			if ((r = map_member(v, NULL, i, child, &copy, w)) != 0)
				break;
		}
	}
	if (r != 0) {
		json_decref(copy);
		return NULL;
	}
	return copy != NULL ? copy : json_incref(v);
}

static json_t *
reveal_leaf(json_t *v, struct walk *w)
{
	const char	*text;
	json_t		*j;

	if ((text = vault_inline_text(v)) == NULL)
		return NULL;
	if ((j = reveal_inline(text, w->name, w->cause)) == NULL)
		w->failed = 1;
	return j;
}

int
vault_reveal_vars(json_t *obj, const char *owner, char **cause)
{
	const char	*key;
	json_t		*v, *nv;
	void		*it;
	char		*name;
	int		 r = 0;
	struct walk	 w = { .leaf = reveal_leaf, .cause = cause };

	for (it = json_object_iter(obj); it != NULL && r == 0;
	    it = json_object_iter_next(obj, it)) {
		key = json_object_iter_key(it);
		v = json_object_iter_value(it);
		name = xprintf("%s: variable '%s'", owner, key);
		w.name = name;
		if ((nv = map_tree(v, &w)) == NULL)
			r = -1;
		else if (nv != v)
			json_object_iter_set_new(obj, it, nv);
		else
			json_decref(nv);
		free(name);
	}
	return r;
}

/* The longest remembered secret that s begins with, or NULL. Under
 * known_lock. */
static const struct known *
secret_at(const char *s)
{
	const struct known	*best = NULL;
	size_t			 i;

	for (i = 0; i < nknown; i++) {
		if (known[i].len < VAULT_REDACT_MIN ||
		    (best != NULL && known[i].len <= best->len))
			continue;
		if (strncmp(s, known[i].plain, known[i].len) == 0)
			best = &known[i];
	}
	return best;
}

char *
vault_redact(const char *s)
{
	const struct known	*k;
	struct strbuf		 sb;
	const char		*p;
	unsigned char		 first[256];
	size_t			 i;
	int			 any = 0, changed = 0;

	if (s == NULL)
		return NULL;
	pthread_mutex_lock(&known_lock);
	/* the first bytes of the secrets: most positions of a long output
	 * are passed over without a comparison */
	memset(first, 0, sizeof first);
	for (i = 0; i < nknown; i++) {
		if (known[i].len >= VAULT_REDACT_MIN)
			any = first[(unsigned char)known[i].plain[0]] = 1;
	}
	strbuf_init(&sb);
	for (p = s; any && *p != '\0'; ) {
		if (first[(unsigned char)*p] && (k = secret_at(p)) != NULL) {
			strbuf_addstr(&sb, VAULT_REDACTED);
			p += k->len;
			changed = 1;
		} else
			strbuf_addch(&sb, *p++);
	}
	pthread_mutex_unlock(&known_lock);
	if (!changed) {
		strbuf_release(&sb);
		return NULL;
	}
	return strbuf_detach(&sb, NULL);
}

static json_t *
redact_leaf(json_t *v, struct walk *w)
{
	char	*s;
	json_t	*j;

	(void)w;
	if (!json_is_string(v) || (s = vault_redact(json_string_value(v))) ==
	    NULL)
		return NULL;
	j = json_string(s);
	free(s);
	return j;
}

/* Whether any remembered secret is long enough to be redacted. */
static int
any_redactable(void)
{
	size_t	i;
	int	any = 0;

	pthread_mutex_lock(&known_lock);
	for (i = 0; i < nknown && !any; i++)
		any = known[i].len >= VAULT_REDACT_MIN;
	pthread_mutex_unlock(&known_lock);
	return any;
}

json_t *
vault_redact_json(json_t *j)
{
	struct walk w = { .leaf = redact_leaf };

	if (j == NULL)
		return NULL;
	/* A run without vault secrets (the usual one) keeps its results as
	 * they are: no walk of every leaf, each under the lock (a probe's
	 * facts are ~1,000 leaves per host). */
	if (!any_redactable())
		return json_incref(j);
	return map_tree(j, &w);
}
