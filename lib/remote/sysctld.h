/* The sysctl.d model: which file's assignment of a key is the one the host
 * ends up with at boot.
 *
 * Rules (systemd-sysctl(8) and sysctl.d(5), which procps `sysctl --system`
 * follows too):
 * - Drop-in directories in priority order: /etc/sysctl.d, /run/sysctl.d,
 *   /usr/local/lib/sysctl.d, /usr/lib/sysctl.d, /lib/sysctl.d. A file name in
 *   an earlier directory masks the same file name in every later one (a
 *   symlink to /dev/null masks by being empty).
 * - The files left apply in lexical (strcmp) order of their file name,
 *   whatever their directory; /etc/sysctl.conf applies after all of them.
 * - Within and across files, a later assignment of a key wins.
 * - A key is compared in its normalised dotted form (sysctld_key_normalise).
 *   A key holding a glob (*, ?, [) applies to every key it matches, but an
 *   explicit assignment of a key beats any glob, in whatever order (systemd).
 * - A leading '-' on a key (ignore errors on apply) is not part of the key;
 *   it is kept as a flag.
 *
 * Everything here is pure: the files' lines come from the probe. */
#ifndef TCPTUNE_SYSCTLD_H
#define TCPTUNE_SYSCTLD_H

#include <stddef.h>

struct sysctld_entry {
	char	*key;		/* normalised, without the leading '-' */
	char	*value;		/* trimmed; may be empty */
	int	 ignore_errors;	/* the key had a leading '-' */
	int	 glob;		/* the key holds *, ? or [ */
};

struct sysctld_file {
	char			*path;
	/* The drop-in directory the file was found in, or NULL for
	 * /etc/sysctl.conf (and anything else that applies last). */
	char			*dir;
	struct sysctld_entry	*entries;
	size_t			 n;
};

/* A set of files; owns everything in it. */
struct sysctld_set {
	struct sysctld_file	**files;
	size_t			  n;
};

void	 sysctld_init(struct sysctld_set *);
void	 sysctld_free(struct sysctld_set *);
/* Add a file (path and dir are copied) and return it to add lines to. dir is
 * one of the drop-in directories above (an unknown one ranks after them) or
 * NULL for /etc/sysctl.conf. */
struct sysctld_file *sysctld_add_file(struct sysctld_set *, const char *path,
	    const char *dir);
/* Add one line of a file: blank lines and comments (first non-blank
 * character '#' or ';') are skipped and return 0; "key = value" is added and
 * returns 0; a line without '=' or with an empty key returns -1 with *cause
 * set and adds nothing. */
int	 sysctld_add_line(struct sysctld_file *, const char *line,
	    char **cause);

/* Return the key in dotted form, a new string: surrounding blanks removed; if
 * its first separator is '/', every '/' becomes '.' and every '.' becomes '/'
 * (so "net/ipv4/conf/eth0.1/rp_filter" is "net.ipv4.conf.eth0/1.rp_filter",
 * the inverse of systemd's rule); a leading '-' is kept. */
char	*sysctld_key_normalise(const char *key);

/* Whether path is a file the boot applies: /etc/sysctl.conf (*dir NULL)
 * or NAME.conf directly in one of the drop-in directories (*dir that
 * directory, a static string). dir may be NULL. */
int	 sysctld_config_path(const char *path, const char **dir);

/* Return the file's base name (the part after the last '/'). */
const char *sysctld_file_name(const struct sysctld_file *);
/* Return the file that masks f (same name in an earlier directory), or NULL
 * if f is not masked. */
const struct sysctld_file *sysctld_masked_by(const struct sysctld_set *,
	    const struct sysctld_file *f);
/* The same for every file at once, in O(n log n): by[i] is the file that
 * masks set->files[i], or NULL (by has set->n slots). */
void	 sysctld_masks(const struct sysctld_set *,
	    const struct sysctld_file **by);
/* Return the files that apply, in the order they apply, as a new array of
 * *n pointers into the set (the caller frees the array only). */
const struct sysctld_file **sysctld_order(const struct sysctld_set *,
	    size_t *n);
/* Find the assignment of key (any form; it is normalised) that wins. Returns
 * 1 and sets *file to the winning file's path and *value to its value
 * (pointers into the set; either may be NULL if not wanted), or 0 if no file
 * sets the key. */
int	 sysctld_winner(const struct sysctld_set *, const char *key,
	    const char **file, const char **value);
/* The same, returning the winning entry (NULL if none) and its file. */
const struct sysctld_entry *sysctld_winner_entry(const struct sysctld_set *,
	    const char *key, const struct sysctld_file **file);

#endif
