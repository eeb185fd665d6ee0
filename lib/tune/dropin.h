/* The drop-in tcptune manages (/etc/sysctl.d/90-tcptune.conf by default):
 * an ordered list of (key, value, reason).
 *
 * Rendering is deterministic (no timestamps, no host names: the same
 * entries and playbook give the same bytes), so a second run finds nothing
 * to change. Parsing reads ours or anybody's sysctl.d file, so that apply
 * can compare and drift can tell that the file was edited; parsing what
 * dropin_render wrote gives back the same entries and reasons. */
#ifndef TCPTUNE_DROPIN_H
#define TCPTUNE_DROPIN_H

#include <stddef.h>

#define DROPIN_DEFAULT_PATH	"/etc/sysctl.d/90-tcptune.conf"

struct dropin_entry {
	char	*key;		/* normalised dotted form, without '-' */
	char	*value;		/* as given (trimmed) */
	char	*reason;	/* one or more lines, or NULL */
	int	 ignore_errors;	/* the line had a leading '-' */
};

/* Owns its entries. An all-zero struct is an empty drop-in. */
struct dropin {
	struct dropin_entry	*entries;
	size_t			 n;
};

void	 dropin_init(struct dropin *);
void	 dropin_free(struct dropin *);

/* Set key (any form: "net/ipv4/tcp_rmem" is "net.ipv4.tcp_rmem") to value
 * with a reason (may be NULL). A new key goes last; an existing key keeps
 * its place and gets the new value and reason. Everything is copied. */
void	 dropin_set(struct dropin *, const char *key, const char *value,
	    const char *reason);
/* The entry or value for key (any form), or NULL. */
const struct dropin_entry *dropin_find(const struct dropin *, const char *key);
const char *dropin_get(const struct dropin *, const char *key);
/* Remove key; returns 1 if it was there. */
int	 dropin_remove(struct dropin *, const char *key);

/* Render the file: a header naming the playbook (may be NULL) and the path
 * (NULL: DROPIN_DEFAULT_PATH), then per key its reason as "# " comment
 * lines and "key = value". Returns a new string ending in a newline, or
 * NULL with *cause when a key, value, reason, the playbook name or the
 * path does not pass the gate (lib/remote/hostline.h): nothing is rendered that
 * would read back as more or other keys. */
char	*dropin_render(const struct dropin *, const char *playbook,
	    const char *path, char **cause);

/* Parse a sysctl.d file into out (initialised here; free it with
 * dropin_free, also after a failure). Accepts "key = value", "key=value",
 * comments starting with '#' or ';', blank lines, and a leading '-' on the
 * key. Comment lines directly above a key (no blank line between) become
 * its reason, without their "# ". A later line for the same key replaces
 * the value in place, as sysctl would apply it. Returns 0, or -1 with
 * *cause naming the line on a line without '=' or without a key. */
int	 dropin_parse(const char *text, struct dropin *out, char **cause);

/* A sysctl value with blanks trimmed and runs of blanks made one space
 * ("4096\t131072  6291456" is "4096 131072 6291456"). A new string. */
char	*sysctl_value_normalise(const char *);
/* 1 if a and b are the same value after normalising, else 0. */
int	 sysctl_value_equal(const char *a, const char *b);

/* 1 if both drop-ins have the same keys in the same order with equal
 * values (reasons and '-' flags are not compared), else 0. */
int	 dropin_same_values(const struct dropin *, const struct dropin *);

#endif
