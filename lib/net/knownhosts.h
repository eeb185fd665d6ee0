/* known_hosts as OpenSSH reads it, parsed once and checked in process.
 *
 * Why: libssh 0.10 reads and re-hashes the whole file for every session
 * (once to order the host key algorithms, once to check the key), so with a
 * fleet's hashed known_hosts (Debian's HashKnownHosts yes) the controller's
 * CPU per host grew with the fleet: 390 ms a host at 20,000 hashed lines.
 * Here a file is parsed once (kh_parse; the process-wide cache below loads
 * each file once per run and again only when it changed) and its entries
 * are indexed by the key they carry: a check looks up the entries holding
 * the server's key and matches only their host field (one HMAC-SHA1 per
 * hashed candidate), and scans every entry only when none matches (a new
 * host or a changed key).
 *
 * The verdicts are OpenSSH's (hostfile.c, check_key_in_hostkeys over the
 * entries of every file that match the host, taken together):
 *   KH_REVOKED  an @revoked entry matching the host holds the key (this
 *               wins over an entry that accepts it)
 *   KH_OK       an entry without marker matching the host holds the key
 *   KH_CHANGED  entries without marker match the host, none holds the key
 *               (whatever their key type)
 *   KH_NEW      no entry without marker matches the host
 * @cert-authority entries count only for host certificates, which libssh
 * 0.10 never negotiates: for a plain key they neither accept nor refuse.
 * The host is looked up as "host" for port 22 and "[host]:port" otherwise,
 * lower-case (kh_hostport); a new [host]:port is accepted by an entry of
 * host holding the key, as OpenSSH does. A host field is a comma-separated list of
 * patterns with * and ? (case-insensitive), where a matching !pattern rules
 * the line out, or one hashed name |1|SALT|HASH (base64 of a 20-byte salt and
 * of HMAC-SHA1(salt, name)). Lines OpenSSH skips are skipped: comments, an
 * unknown @marker, a bad hash, a key whose base64 does not decode or whose
 * blob names another type than the line.
 *
 * tests/unit/test-knownhosts.c checks every verdict against OpenSSH's own
 * (ssh against sshd -i on a generated file of mixed entries) and the lines
 * each name matches against ssh-keygen -F. */
#ifndef TCPTUNE_KNOWNHOSTS_H
#define TCPTUNE_KNOWNHOSTS_H

#include <stddef.h>
#include <sys/types.h>

enum kh_verdict {
	KH_NEW = 0,
	KH_OK,
	KH_CHANGED,
	KH_REVOKED,
};

/* One parsed file. Immutable once parsed, so threads share it. */
struct kh_file;

/* What kh_check found. path/line name the entry that decided (for
 * KH_CHANGED the first entry of the host, preferring one of the offered
 * key's type; for KH_NEW none: path NULL, line 0). other_types: KH_CHANGED
 * with no entry of the host of the offered key's type (the client would have
 * asked for a type it knows, had it ordered its algorithms by the file). */
struct kh_result {
	enum kh_verdict	 verdict;
	const char	*path;
	unsigned int	 line;
	int		 other_types;
};

/* Parse text (len bytes, need not be NUL-terminated) read from path; path
 * is kept for kh_result. Never fails: what OpenSSH would skip is skipped. */
struct kh_file	*kh_parse(const char *path, const char *text, size_t len);
void		 kh_file_free(struct kh_file *f);

/* "host" for port 0 or 22, else "[host]:port", lower-case. Allocated. */
char		*kh_hostport(const char *host, unsigned int port);

/* The verdict for the server key key64 (its public key blob in base64, as
 * a known_hosts line or ssh_pki_export_pubkey_base64 writes it) of host on
 * port over files (NULL entries are skipped), as OpenSSH gives it:
 * including its second look, for a port other than 22 whose [host]:port is
 * new, at the entries of host alone, which accept the key if one of them
 * holds it. */
void		 kh_check(struct kh_file *const *files, size_t nfiles,
		    const char *host, unsigned int port, const char *key64,
		    struct kh_result *res);

/* The line numbers (ascending) of f's entries whose host field matches
 * hostport, markers included, as ssh-keygen -F lists them; returns how many
 * there are, writing at most max. */
size_t		 kh_lines_for_host(const struct kh_file *f, const char *hostport,
		    unsigned int *lines, size_t max);

/* Decode standard base64 (with padding, whitespace not allowed, the bits
 * past the last byte zero: only what base64 writes) into out (room for at
 * most outsz bytes). Returns the length, or -1. */
ssize_t		 kh_b64_decode(const char *s, size_t len, unsigned char *out,
		    size_t outsz);

/* The process's cache of parsed files (knownhosts-cache.c). kh_cache_get
 * returns path's parsed file, read on first use and again only when the
 * file changed (device, inode, size or modification time); a missing file
 * is an empty one. Thread-safe; every file it returns is released with
 * kh_cache_release. NULL and *cause when the file cannot be read. */
struct kh_file	*kh_cache_get(const char *path, char **cause);
void		 kh_cache_release(struct kh_file *f);

/* Append one line (accept-new's new entry, newline included) to path,
 * creating its directory (mode 0700) if missing, as OpenSSH and libssh do;
 * the next kh_cache_get reads the file again. 0, or -1 and *cause. */
int		 kh_cache_append(const char *path, const char *line,
		    char **cause);

/* Expand a known_hosts path as libssh does (~/ at the start; %d the ssh
 * directory ~/.ssh, %u the local user, %h the host, %r the remote user,
 * %p the port, %% a %). NULL and *cause on another % escape. */
char		*kh_expand_path(const char *raw, const char *host,
		    const char *ruser, unsigned int port, char **cause);

#endif
