/* known_hosts parsed once, indexed by key, checked with OpenSSH's verdicts
 * (knownhosts.h says which and why). */
#include "net/knownhosts.h"

#include <ctype.h>
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
	char		*hosts;		/* the host field as written */
	int		 hashed;	/* 1: salt/hash hold it; -1: matches
					 * nothing (OpenSSH's text differs) */
	unsigned char	 salt[KH_SHA1_LEN];
	unsigned char	 hash[KH_SHA1_LEN];
	unsigned char	*blob;
	size_t		 bloblen;
	size_t		 next;		/* next entry of the same key bucket */
};

struct kh_file {
	char		*path;
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

static int
b64_value(int c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

ssize_t
kh_b64_decode(const char *s, size_t len, unsigned char *out, size_t outsz)
{
	size_t i, o = 0, pad = 0;
	int v, k;
	uint32_t acc;

	if (len == 0 || len % 4 != 0)
		return -1;
	if (s[len - 1] == '=')
		pad = s[len - 2] == '=' ? 2 : 1;
	for (i = 0; i < len; i += 4) {
		acc = 0;
		for (k = 0; k < 4; k++) {
			if (i + k >= len - pad && s[i + k] == '=')
				v = 0;
			else if ((v = b64_value((unsigned char)s[i + k])) < 0)
				return -1;
			acc = acc << 6 | (uint32_t)v;
		}
		for (k = 0; k < 3; k++) {
			if (i + 4 == len && k >= 3 - (int)pad)
				break;
			if (o == outsz)
				return -1;
			out[o++] = (unsigned char)(acc >> (16 - 8 * k));
		}
	}
	return (ssize_t)o;
}

/* OpenSSH compares hashed names as text: a salt or hash written other than
 * as base64 writes it can never match. */
static int
b64_canonical(const unsigned char *bin, size_t n, const char *text,
    size_t len)
{
	char	 buf[64];

	if (4 * ((n + 2) / 3) != len || len >= sizeof buf)
		return 0;
	EVP_EncodeBlock((unsigned char *)buf, bin, (int)n);
	return memcmp(buf, text, len) == 0;
}

/* |1|SALT|HASH into e->salt and e->hash; hashed -1 when it cannot match. */
static void
parse_hashed(struct kh_entry *e)
{
	const char *s = e->hosts + 3, *bar;
	ssize_t n;

	e->hashed = -1;
	if (strncmp(e->hosts, "|1|", 3) != 0 ||
	    (bar = strchr(s, '|')) == NULL || bar == s)
		return;
	n = kh_b64_decode(s, (size_t)(bar - s), e->salt, sizeof e->salt);
	if (n != KH_SHA1_LEN || !b64_canonical(e->salt, KH_SHA1_LEN, s,
	    (size_t)(bar - s)))
		return;
	s = bar + 1;
	n = kh_b64_decode(s, strlen(s), e->hash, sizeof e->hash);
	if (n != KH_SHA1_LEN || !b64_canonical(e->hash, KH_SHA1_LEN, s,
	    strlen(s)))
		return;
	e->hashed = 1;
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
blob_hash(const unsigned char *blob, size_t len)
{
	uint64_t h = 14695981039346656037ULL;

	while (len-- > 0)
		h = (h ^ *blob++) * 1099511628211ULL;
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

/* One line into e, as hostkeys_foreach_file and sshkey_read read it; 0, or
 * -1 for a line OpenSSH skips. */
static int
parse_line(const char *line, struct kh_entry *e)
{
	const char *p = line, *end;
	size_t len, tlen;
	ssize_t n;
	const char *btype;
	int m;

	for (; *p == ' ' || *p == '\t'; p++)
		/* nothing */;
	if (*p == '\0' || *p == '#')
		return -1;
	if ((m = parse_marker(&p)) < 0)
		return -1;
	e->marker = (enum kh_marker)m;
	len = strcspn(p, " \t");
	e->hosts = xstrndup(p, len);
	for (p += len; *p == ' ' || *p == '\t'; p++)
		/* nothing */;
	/* the key type, then its base64 blob */
	len = strcspn(p, " \t");
	if (*p == '\0' || *p == '#' || !known_type(p, len))
		goto bad;
	end = p + len;
	for (; *end == ' ' || *end == '\t'; end++)
		/* nothing */;
	tlen = strcspn(end, " \t");
	if (tlen == 0)
		goto bad;
	e->blob = xmalloc(tlen / 4 * 3 + 3);
	if ((n = kh_b64_decode(end, tlen, e->blob, tlen / 4 * 3 + 3)) <= 0)
		goto bad;
	e->bloblen = (size_t)n;
	btype = blob_type(e->blob, e->bloblen, &tlen);
	if (btype == NULL || tlen != len || memcmp(btype, p, len) != 0)
		goto bad;
	if (e->hosts[0] == '|')
		parse_hashed(e);
	return 0;
bad:
	free(e->hosts);
	free(e->blob);
	memset(e, 0, sizeof *e);
	return -1;
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
		b = blob_hash(f->e[i].blob, f->e[i].bloblen) & (f->nbucket - 1);
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
	size_t cap = 0, llen;
	const char *p = text, *end = text + len, *nl;
	char *line = NULL;
	size_t linecap = 0;
	unsigned int lineno = 0;
	struct kh_entry e;

	f->path = xstrdup(path);
	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		llen = (nl != NULL ? nl : end) - p;
		lineno++;
		if (llen + 1 > linecap) {
			linecap = llen + 1;
			line = xrealloc(line, linecap);
		}
		memcpy(line, p, llen);
		line[llen] = '\0';
		p += llen + (nl != NULL);
		memset(&e, 0, sizeof e);
		/* A NUL ends the line for OpenSSH's string functions too. */
		if (parse_line(line, &e) != 0)
			continue;
		e.line = lineno;
		if (f->n == cap) {
			cap = cap != 0 ? 2 * cap : 64;
			f->e = xreallocarray(f->e, cap, sizeof *f->e);
		}
		f->e[f->n++] = e;
	}
	free(line);
	index_entries(f);
	return f;
}

void
kh_file_free(struct kh_file *f)
{
	size_t i;

	if (f == NULL)
		return;
	for (i = 0; i < f->n; i++) {
		free(f->e[i].hosts);
		free(f->e[i].blob);
	}
	free(f->e);
	free(f->bucket);
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
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;

	if (e->hashed == -1)
		return 0;
	if (e->hashed == 1) {
		if (HMAC(EVP_sha1(), e->salt, KH_SHA1_LEN,
		    (const unsigned char *)hostport, strlen(hostport), md,
		    &mdlen) == NULL || mdlen != KH_SHA1_LEN)
			return 0;
		return memcmp(md, e->hash, KH_SHA1_LEN) == 0;
	}
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

static void
check_hostport(struct kh_file *const *files, size_t nfiles,
    const char *hostport, const unsigned char *blob, size_t bloblen,
    struct kh_result *res)
{
	const struct kh_file *f, *okf = NULL, *revf = NULL, *chf = NULL;
	const struct kh_entry *e, *ok = NULL, *rev = NULL, *ch = NULL;
	const char *type, *etype;
	size_t fi, i, tlen, etlen;
	int same_type = 0, same;

	memset(res, 0, sizeof *res);
	/* The fast path: only the entries holding this key. */
	for (fi = 0; fi < nfiles; fi++) {
		if ((f = files[fi]) == NULL || f->n == 0)
			continue;
		i = f->bucket[blob_hash(blob, bloblen) & (f->nbucket - 1)];
		for (; i != KH_NONE; i = f->e[i].next) {
			e = &f->e[i];
			if (e->bloblen != bloblen ||
			    memcmp(e->blob, blob, bloblen) != 0 ||
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
	type = blob_type(blob, bloblen, &tlen);
	for (fi = 0; fi < nfiles && !same_type; fi++) {
		if ((f = files[fi]) == NULL)
			continue;
		for (i = 0; i < f->n && !same_type; i++) {
			e = &f->e[i];
			if (e->marker != MARK_NONE || !host_matches(e, hostport))
				continue;
			etype = blob_type(e->blob, e->bloblen, &etlen);
			same = type != NULL && etlen == tlen &&
			    memcmp(etype, type, tlen) == 0;
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
    unsigned int port, const unsigned char *blob, size_t bloblen,
    struct kh_result *res)
{
	struct kh_result plain;
	char *hp;

	hp = kh_hostport(host, port);
	check_hostport(files, nfiles, hp, blob, bloblen, res);
	free(hp);
	/* OpenSSH's check_host_key: a new [host]:port is looked up again as
	 * host, and accepted when that holds the key ("found matching key
	 * w/out port"); anything else leaves it new. */
	if (res->verdict != KH_NEW || port == 0 || port == 22)
		return;
	hp = kh_hostport(host, 0);
	check_hostport(files, nfiles, hp, blob, bloblen, &plain);
	free(hp);
	if (plain.verdict == KH_OK)
		*res = plain;
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
