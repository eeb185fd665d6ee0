/* What a package/apt task does, as Ansible's apt module decides it
 * (ansible/modules/apt.py, ansible-core 2.14: install(), remove(),
 * package_status() and main()'s cache update) from what the host's dpkg
 * and apt-cache said (lib/remote/apt.sh). Pure: no I/O. */
#ifndef TCPTUNE_TUNE_APTPLAN_H
#define TCPTUNE_TUNE_APTPLAN_H

#include <stddef.h>

struct apt_seen {
	const char	*name;
	const char	*status;	/* dpkg's db:Status-Abbrev ("ii ") */
	const char	*version;	/* installed, "" if none */
	const char	*candidate;	/* apt-cache policy's, "" if unknown */
	int		 known;		/* apt-cache knows the package */
};

struct apt_plan {
	const char	*action;	/* "install", "remove" or NULL: none */
	char		**list;		/* its words, NULL-terminated */
	size_t		 n;
};

/* Whether dpkg says the package is installed (its current state, the
 * status's second letter, is 'i'; "rc" is only its conffiles). */
int	 apt_installed(const char *status);
/* Whether the module updates the cache: update_cache or a
 * cache_valid_time, and the cache is older than valid seconds. */
int	 apt_cache_stale(int update, long long valid, long long mtime,
	    long long now);
/* state present, latest or absent over the packages as seen: 0 with
 * *plan (its list the module's words: "name=candidate" to install, the
 * name to remove), or -1 with *cause, the module's own failure ("No
 * package matching 'x' is available"). */
int	 apt_decide(const char *state, const struct apt_seen *pkgs, size_t n,
	    struct apt_plan *plan, char **cause);
void	 apt_plan_clear(struct apt_plan *plan);

#endif
