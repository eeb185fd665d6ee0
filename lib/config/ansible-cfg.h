/* ansible.cfg read the way Ansible 2.14 reads it (ansible/config/manager.py):
 * which file (acfg_find), its INI dialect (Python's configparser with
 * inline_comment_prefixes=(';',), acfg_parse) and the value types of
 * base.yml (acfg_to_*). The layer knows no setting by name: the table of
 * settings and their precedence live in cmd/tcptune/settings.c.
 *
 * The dialect, as configparser has it: "[section]" headers (case-sensitive;
 * [DEFAULT]'s keys are seen from every existing section); "key = value" or
 * "key: value" (the first '=' or ':' splits; keys lower-cased, blanks
 * trimmed); whole-line comments starting with '#' or ';'; an inline comment
 * is a ';' after a blank; a line indented deeper than its key continues the
 * value (joined with '\n', blank lines kept inside, trailing ones dropped).
 * A duplicate section or a duplicate key in one section is an error, as in
 * configparser's strict mode; so is a line that is none of the above, a key
 * before any section, a byte order mark (Ansible refuses it too), a NUL
 * byte, and a file over ACFG_MAX_SIZE or ACFG_MAX_KEYS. Bytes that are not UTF-8 pass, as in
 * Ansible. Errors read "FILE:LINE: what". */
#ifndef TCPTUNE_ANSIBLE_CFG_H
#define TCPTUNE_ANSIBLE_CFG_H

#include <stddef.h>

#define ACFG_MAX_SIZE	(4 * 1024 * 1024)	/* a full `ansible-config init`
						   is ~40 KiB */
#define ACFG_MAX_KEYS	4096			/* keys and sections: it has
						   ~300 keys */

struct acfg_entry {
	char		*section;
	char		*key;		/* lower-cased */
	char		*value;		/* raw: no quote removal, no types */
	unsigned	 line;		/* where the key is */
};

struct acfg {
	char			*path;	/* as given to acfg_load/acfg_parse */
	struct acfg_entry	*entries;	/* in file order */
	size_t			 nentries;
	char			**sections;	/* every header but DEFAULT */
	size_t			 nsections;
};

/* Where to look: Ansible's order is $ANSIBLE_CONFIG (a file, or a directory
 * holding ansible.cfg), ./ansible.cfg (skipped when the directory is
 * world-writable), ~/.ansible.cfg, /etc/ansible/ansible.cfg; the first that
 * exists and is readable wins. NULL members are not looked at. */
struct acfg_where {
	const char	*env_config;	/* $ANSIBLE_CONFIG */
	const char	*cwd;
	const char	*home;
	const char	*system;	/* /etc/ansible/ansible.cfg */
};

/* The file Ansible would read (allocated), or NULL when there is none.
 * *warning (allocated, or NULL) says why ./ansible.cfg was skipped. */
char	*acfg_find(const struct acfg_where *where, char **warning);

/* Read and parse path. 0, or -1 with *cause. An extension other than .cfg
 * or .ini is refused, as Ansible does. */
int	 acfg_load(struct acfg *cfg, const char *path, char **cause);
/* Parse text[0..len) read from path (named in errors). */
int	 acfg_parse(struct acfg *cfg, const char *path, const char *text,
	    size_t len, char **cause);
void	 acfg_clear(struct acfg *cfg);

/* The entry configparser's get(section, key) returns: the section's own, or
 * [DEFAULT]'s when the section exists; NULL otherwise. */
const struct acfg_entry *acfg_get(const struct acfg *cfg,
	    const char *section, const char *key);

/*
 * Value types of base.yml. Each returns 0, or -1 with *cause saying what
 * was expected (no location: the caller knows where the value came from).
 */
/* boolean: y yes on 1 true t / n no off 0 false f, any case. Ansible takes
 * any other word as false; a typo must not turn host key checking off, so
 * here it is an error. */
int	 acfg_to_bool(const char *value, int *out, char **cause);
/* integer in [min, max], blanks around allowed. */
int	 acfg_to_int(const char *value, long long min, long long max,
	    long long *out, char **cause);
/* string: one surrounding pair of matching quotes removed (unquote). */
int	 acfg_to_string(const char *value, char **out, char **cause);
/* path: {{CWD}}, $VAR and ${VAR}, then ~ expanded; a relative path is
 * joined to basedir (the ansible.cfg's directory, or the current one for a
 * variable's value); then normalised (no ., .., //). */
int	 acfg_to_path(const char *value, const char *basedir, char **out,
	    char **cause);
/* list (sep ','): each item trimmed and unquoted; pathlist: each item a
 * path as above. Empty items are dropped. Free lists with names_free
 * (base/util.h). */
int	 acfg_to_list(const char *value, char ***items, size_t *n,
	    char **cause);
int	 acfg_to_pathlist(const char *value, const char *basedir,
	    char ***items, size_t *n, char **cause);
/* Split an ssh argument string into words as shlex.split does (quotes,
 * backslash escapes), which is how Ansible passes ssh_args to ssh. */
int	 acfg_split_words(const char *value, char ***words, size_t *n,
	    char **cause);

#endif
