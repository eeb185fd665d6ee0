/* known_hosts parsed once, indexed by key, checked with OpenSSH's verdicts
 * (knownhosts.h says which and why). */
#include "net/knownhosts.h"

#include <ctype.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "base/xalloc.h"

#define KH_SHA1_LEN	20
#define KH_NONE		((size_t)-1)

enum kh_marker {
	MARK_NONE = 0,
	MARK_CA,
	MARK_REVOKED,
};

struct kh_entry {
	unsigned int	 line;
	enum kh_marker	 marker;
	const char	*hosts;		/* the host field as written */
	const char	*type;		/* the key type as written */
	size_t		 typelen;
	const char	*key64;		/* its base64 blob as written */
	size_t		 key64len;
	size_t		 next;		/* next entry of the same key bucket */
};

/* The fields point into text, the file's copy with NULs written after each
 * field: one allocation for the lines, not several per line, since a
 * fleet's file is parsed on the way to its first host. */
struct kh_file {
	char		*path;
	char		*text;
	struct kh_entry	*e;
	size_t		 n;
	size_t		*bucket;	/* first entry per key hash, KH_NONE */
	size_t		 nbucket;	/* a power of two */
};

/* The key types OpenSSH's sshkey_read knows (and their certificates): a
 * line naming another is skipped, as OpenSSH skips it. */
static const char *const key_types[] = {
	"ssh-ed25519", "ssh-rsa", "ssh-dss", "ecdsa-sha2-nistp256",
	"ecdsa-sha2-nistp384", "ecdsa-sha2-nistp521",
	"sk-ssh-ed25519@openssh.com", "sk-ecdsa-sha2-nistp256@openssh.com",
	"ssh-ed25519-cert-v01@openssh.com", "ssh-rsa-cert-v01@openssh.com",
	"ssh-dss-cert-v01@openssh.com",
	"ecdsa-sha2-nistp256-cert-v01@openssh.com",
	"ecdsa-sha2-nistp384-cert-v01@openssh.com",
	"ecdsa-sha2-nistp521-cert-v01@openssh.com",
	"sk-ssh-ed25519-cert-v01@openssh.com",
	"sk-ecdsa-sha2-nistp256-cert-v01@openssh.com",
	NULL,
};

/* The value of each base64 digit, -1 for anything else. */
static signed char	 b64_table[256];
static pthread_once_t	 b64_once = PTHREAD_ONCE_INIT;

static void
b64_init(void)
{
	static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "abcdefghijklmnopqrstuvwxyz0123456789+/";
	int i;

	memset(b64_table, -1, sizeof b64_table);
	for (i = 0; i < 64; i++)
		b64_table[(unsigned char)digits[i]] = (signed char)i;
}

/* Strict, as OpenSSH's b64_pton: padding only at the end and the bits it
 * leaves over zero, so that exactly the text base64 writes decodes (and
 * two texts are the same bytes only when they are the same text). */
ssize_t
kh_b64_decode(const char *s, size_t len, unsigned char *out, size_t outsz)
{
	size_t i, o = 0, pad = 0, nout;
	int v, k;
	uint32_t acc;

	pthread_once(&b64_once, b64_init);
	if (len == 0 || len % 4 != 0)
		return -1;
	if (s[len - 1] == '=')
		pad = s[len - 2] == '=' ? 2 : 1;
	for (i = 0; i < len; i += 4) {
		acc = 0;
		for (k = 0; k < 4; k++) {
			if (i + k >= len - pad)
				v = 0;
			else if ((v = b64_table[(unsigned char)s[i + k]]) < 0)
				return -1;
			acc = acc << 6 | (uint32_t)v;
		}
		nout = i + 4 == len ? 3 - pad : 3;
		if ((nout < 3 && (acc & ((1u << (8 * (3 - nout))) - 1)) != 0) ||
		    o + nout > outsz)
			return -1;
		for (k = 0; k < (int)nout; k++)
			out[o++] = (unsigned char)(acc >> (16 - 8 * k));
	}
	return (ssize_t)o;
}

/* Does hostport match the hashed name |1|SALT|HASH? Decoded here, not when
 * the file is parsed: a fleet's file is parsed on the way to its first host,
 * and only the candidates for a key need it. A salt or hash that is not
 * exactly base64 of 20 bytes never matches (OpenSSH compares the text it
 * writes for the name). */
static int
hashed_match(const char *field, const char *hostport)
{
	unsigned char salt[KH_SHA1_LEN], hash[KH_SHA1_LEN], md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;
	const char *s = field + 3, *bar;

	if (strncmp(field, "|1|", 3) != 0 || (bar = strchr(s, '|')) == NULL ||
	    kh_b64_decode(s, (size_t)(bar - s), salt, sizeof salt) !=
	    KH_SHA1_LEN ||
	    kh_b64_decode(bar + 1, strlen(bar + 1), hash, sizeof hash) !=
	    KH_SHA1_LEN)
		return 0;
	if (HMAC(EVP_sha1(), salt, KH_SHA1_LEN,
	    (const unsigned char *)hostport, strlen(hostport), md,
	    &mdlen) == NULL || mdlen != KH_SHA1_LEN)
		return 0;
	return memcmp(md, hash, KH_SHA1_LEN) == 0;
}

/* The type a key blob names (its first SSH string), or length 0. */
static const char *
blob_type(const unsigned char *blob, size_t len, size_t *tlen)
{
	uint32_t n;

	*tlen = 0;
	if (len < 4)
		return NULL;
	n = (uint32_t)blob[0] << 24 | (uint32_t)blob[1] << 16 |
	    (uint32_t)blob[2] << 8 | blob[3];
	if (n == 0 || n > len - 4)
		return NULL;
	*tlen = n;
	return (const char *)blob + 4;
}

static int
known_type(const char *type, size_t len)
{
	const char *const *t;

	for (t = key_types; *t != NULL; t++)
		if (strlen(*t) == len && memcmp(*t, type, len) == 0)
			return 1;
	return 0;
}

static uint64_t
key_hash(const char *key64, size_t len)
{
	uint64_t h = 14695981039346656037ULL;

	while (len-- > 0)
		h = (h ^ (unsigned char)*key64++) * 1099511628211ULL;
	return h;
}

/* The marker of a line (OpenSSH's check_markers, including its quirk of
 * ending a marker at the line's first space, else its first tab), moving
 * *cp past it; -1 for an unknown one or two of them. */
static int
parse_marker(const char **cp)
{
	const char *p = *cp, *end;
	int m = MARK_NONE;
	size_t len;

	while (*p == '@') {
		if (m != MARK_NONE)
			return -1;
		if ((end = strchr(p, ' ')) == NULL &&
		    (end = strchr(p, '\t')) == NULL)
			return -1;
		len = (size_t)(end - p);
		if (len == 15 && memcmp(p, "@cert-authority", len) == 0)
			m = MARK_CA;
		else if (len == 8 && memcmp(p, "@revoked", len) == 0)
			m = MARK_REVOKED;
		else
			return -1;
		for (p = end; *p == ' ' || *p == '\t'; p++)
			/* nothing */;
	}
	*cp = p;
	return m;
}

/* One line (NUL-terminated, written on) into e, as hostkeys_foreach_file
 * reads it; 0, or -1 for a line OpenSSH skips. Whether the key decodes is
 * asked only of the entries that could decide (key_valid). */
static int
parse_line(char *line, struct kh_entry *e)
{
	char *p = line;
	size_t len;
	int m;

	for (; *p == ' ' || *p == '\t'; p++)
		/* nothing */;
	if (*p == '\0' || *p == '#')
		return -1;
	if ((m = parse_marker((const char **)&p)) < 0)
		return -1;
	e->marker = (enum kh_marker)m;
	e->hosts = p;
	p += strcspn(p, " \t");
	if (*p != '\0')
		*p++ = '\0';
	for (; *p == ' ' || *p == '\t'; p++)
		/* nothing */;
	/* the key type, then its base64 blob */
	len = strcspn(p, " \t");
	if (*p == '\0' || *p == '#' || !known_type(p, len))
		return -1;
	e->type = p;
	e->typelen = len;
	for (p += len; *p == ' ' || *p == '\t'; p++)
		/* nothing */;
	if ((e->key64len = strcspn(p, " \t")) == 0)
		return -1;
	e->key64 = p;
	return 0;
}

/* Does the entry's key read as OpenSSH's sshkey_read would: base64 of a
 * blob naming the line's type? */
static int
key_valid(const struct kh_entry *e)
{
	unsigned char small[2048], *blob = small;
	const char *btype;
	size_t cap = e->key64len / 4 * 3, tlen;
	ssize_t n;
	int ok;

	if (cap > sizeof small)
		blob = xmalloc(cap);
	n = kh_b64_decode(e->key64, e->key64len, blob, cap);
	btype = n > 0 ? blob_type(blob, (size_t)n, &tlen) : NULL;
	ok = btype != NULL && tlen == e->typelen &&
	    memcmp(btype, e->type, tlen) == 0;
	if (blob != small)
		free(blob);
	return ok;
}

static void
index_entries(struct kh_file *f)
{
	size_t i, b, *tail;

	for (f->nbucket = 16; f->nbucket < 2 * f->n; f->nbucket *= 2)
		/* nothing */;
	f->bucket = xreallocarray(NULL, f->nbucket, sizeof *f->bucket);
	tail = xreallocarray(NULL, f->nbucket, sizeof *tail);
	for (b = 0; b < f->nbucket; b++)
		f->bucket[b] = tail[b] = KH_NONE;
	/* Chained in file order: the first entry that decides is the first
	 * line, as in OpenSSH. */
	for (i = 0; i < f->n; i++) {
		b = key_hash(f->e[i].key64, f->e[i].key64len) &
		    (f->nbucket - 1);
		f->e[i].next = KH_NONE;
		if (tail[b] == KH_NONE)
			f->bucket[b] = i;
		else
			f->e[tail[b]].next = i;
		tail[b] = i;
	}
	free(tail);
}

struct kh_file *
kh_parse(const char *path, const char *text, size_t len)
{
	struct kh_file *f = xcalloc(1, sizeof *f);
	size_t cap = 0;
	char *p, *end, *nl;
	unsigned int lineno = 0;
	struct kh_entry e;

	f->path = xstrdup(path);
	f->text = xmalloc(len + 1);
	memcpy(f->text, text, len);
	f->text[len] = '\0';
	for (p = f->text, end = f->text + len; p < end; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		*nl = '\0';	/* a NUL inside ends the line for OpenSSH too */
		lineno++;
		memset(&e, 0, sizeof e);
		if (parse_line(p, &e) != 0)
			continue;
		e.line = lineno;
		if (f->n == cap) {
			cap = cap != 0 ? 2 * cap : 64;
			f->e = xreallocarray(f->e, cap, sizeof *f->e);
		}
		f->e[f->n++] = e;
	}
	index_entries(f);
	return f;
}

void
kh_file_free(struct kh_file *f)
{
	if (f == NULL)
		return;
	free(f->e);
	free(f->bucket);
	free(f->text);
	free(f->path);
	free(f);
}

char *
kh_hostport(const char *host, unsigned int port)
{
	char *hp, *c;

	hp = (port == 0 || port == 22) ? xstrdup(host) :
	    xprintf("[%s]:%u", host, port);
	for (c = hp; *c != '\0'; c++)
		*c = (char)tolower((unsigned char)*c);
	return hp;
}

/* Shell-style * and ? over the whole of s. */
static int
glob_match(const char *s, const char *p)
{
	const char *star = NULL, *resume = NULL;

	while (*s != '\0') {
		if (*p == '*') {
			star = ++p;
			resume = s;
		} else if (*p != '\0' && (*p == '?' || *p == *s)) {
			p++;
			s++;
		} else if (star != NULL) {
			p = star;
			s = ++resume;
		} else
			return 0;
	}
	while (*p == '*')
		p++;
	return *p == '\0';
}

/* OpenSSH's match_pattern_list, lower-casing the patterns: 1 a pattern
 * matches, -1 a negated one does (the line is out), 0 none. */
static int
pattern_list_match(const char *host, const char *list)
{
	char sub[1024];
	size_t i = 0, si, len = strlen(list);
	int negated, positive = 0;

	while (i < len) {
		negated = list[i] == '!';
		if (negated)
			i++;
		for (si = 0; i < len && si < sizeof sub - 1 && list[i] != ',';
		    si++, i++)
			sub[si] = (char)tolower((unsigned char)list[i]);
		if (si >= sizeof sub - 1)
			return 0;
		if (i < len && list[i] == ',')
			i++;
		sub[si] = '\0';
		if (glob_match(host, sub)) {
			if (negated)
				return -1;
			positive = 1;
		}
	}
	return positive;
}

static int
host_matches(const struct kh_entry *e, const char *hostport)
{
	if (e->hosts[0] == '|')
		return hashed_match(e->hosts, hostport);
	return pattern_list_match(hostport, e->hosts) == 1;
}

static void
set_result(struct kh_result *res, enum kh_verdict v, const struct kh_file *f,
    const struct kh_entry *e)
{
	res->verdict = v;
	res->path = f != NULL ? f->path : NULL;
	res->line = e != NULL ? e->line : 0;
}

/* The verdict for one spelling of the host; type/tlen the server key's. */
static void
check_hostport(struct kh_file *const *files, size_t nfiles,
    const char *hostport, const char *key64, size_t klen, const char *type,
    size_t tlen, struct kh_result *res)
{
	const struct kh_file *f, *okf = NULL, *revf = NULL, *chf = NULL;
	const struct kh_entry *e, *ok = NULL, *rev = NULL, *ch = NULL;
	size_t fi, i;
	int same_type = 0, same;

	memset(res, 0, sizeof *res);
	/* The fast path: only the entries holding this key. Their text is the
	 * server key's text, so it decodes; the line must name its type. */
	for (fi = 0; fi < nfiles; fi++) {
		if ((f = files[fi]) == NULL || f->n == 0)
			continue;
		i = f->bucket[key_hash(key64, klen) & (f->nbucket - 1)];
		for (; i != KH_NONE; i = f->e[i].next) {
			e = &f->e[i];
			if (e->key64len != klen ||
			    memcmp(e->key64, key64, klen) != 0 ||
			    e->typelen != tlen || memcmp(e->type, type, tlen) != 0 ||
			    e->marker == MARK_CA || !host_matches(e, hostport))
				continue;
			if (e->marker == MARK_REVOKED && rev == NULL) {
				rev = e;
				revf = f;
			} else if (e->marker == MARK_NONE && ok == NULL) {
				ok = e;
				okf = f;
			}
		}
	}
	if (rev != NULL) {
		set_result(res, KH_REVOKED, revf, rev);
		return;
	}
	if (ok != NULL) {
		set_result(res, KH_OK, okf, ok);
		return;
	}

	/* The rare path: does the host have other keys? Every entry. */
	for (fi = 0; fi < nfiles && !same_type; fi++) {
		if ((f = files[fi]) == NULL)
			continue;
		for (i = 0; i < f->n && !same_type; i++) {
			e = &f->e[i];
			if (e->marker != MARK_NONE || !host_matches(e, hostport) ||
			    !key_valid(e))
				continue;
			same = e->typelen == tlen &&
			    memcmp(e->type, type, tlen) == 0;
			if (ch == NULL || same) {
				ch = e;
				chf = f;
				same_type = same;
			}
		}
	}
	if (ch == NULL) {
		set_result(res, KH_NEW, NULL, NULL);
		return;
	}
	set_result(res, KH_CHANGED, chf, ch);
	res->other_types = !same_type;
}

void
kh_check(struct kh_file *const *files, size_t nfiles, const char *host,
    unsigned int port, const char *key64, struct kh_result *res)
{
	struct kh_result plain;
	unsigned char small[2048], *blob = small;
	size_t klen = strlen(key64), cap = klen / 4 * 3, tlen = 0;
	const char *type = NULL;
	ssize_t n;
	char *hp;

	memset(res, 0, sizeof *res);
	if (cap > sizeof small)
		blob = xmalloc(cap);
	/* a key that does not decode is in no file: new */
	if ((n = kh_b64_decode(key64, klen, blob, cap)) <= 0 ||
	    (type = blob_type(blob, (size_t)n, &tlen)) == NULL)
		goto out;
	hp = kh_hostport(host, port);
	check_hostport(files, nfiles, hp, key64, klen, type, tlen, res);
	free(hp);
	/* OpenSSH's check_host_key: a new [host]:port is looked up again as
	 * host, and accepted when that holds the key ("found matching key
	 * w/out port"); anything else leaves it new. */
	if (res->verdict != KH_NEW || port == 0 || port == 22)
		goto out;
	hp = kh_hostport(host, 0);
	check_hostport(files, nfiles, hp, key64, klen, type, tlen, &plain);
	free(hp);
	if (plain.verdict == KH_OK)
		*res = plain;
out:
	if (blob != small)
		free(blob);
}

size_t
kh_lines_for_host(const struct kh_file *f, const char *hostport,
    unsigned int *lines, size_t max)
{
	size_t i, n = 0;

	for (i = 0; i < f->n; i++) {
		if (!host_matches(&f->e[i], hostport))
			continue;
		if (n < max)
			lines[n] = f->e[i].line;
		n++;
	}
	return n;
}
