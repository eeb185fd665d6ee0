/*
 * Ansible's magic variables, as ansible-core 2.14 sets them for a task
 * (vars/manager.py _get_magic_variables, utils/vars.py load_options_vars,
 * inventory/host.py get_magic_vars), over every other level, extra vars
 * included:
 *   the command line's   ansible_check_mode, ansible_diff_mode,
 *                        ansible_forks, ansible_verbosity,
 *                        ansible_run_tags (["all"] by default),
 *                        ansible_skip_tags ([]), ansible_limit (when
 *                        given), playbook_dir (the playbook's directory,
 *                        absolute, symbolic links kept)
 *   the play's           ansible_play_name (its name, else its hosts),
 *                        ansible_play_hosts_all (its hosts after --limit),
 *                        ansible_play_hosts (those not failed or
 *                        unreachable), ansible_play_batch and play_hosts
 *                        (the serial batch's, the same way)
 *   the host's           group_names (its groups but 'all', sorted),
 *                        inventory_hostname_short (up to the first '.',
 *                        an IP address whole)
 * The run's and the play's are one object, rebuilt by the main thread
 * before each step while no worker runs and shared by every host's vars
 * (a copy per host and step would make a run grow with the square of the
 * fleet, as `groups` did).
 */
#include "run/runner.h"
#include "run/runner-int.h"

#include "base/util.h"
#include "base/xalloc.h"
#include "inventory/inventory.h"
#include "playbook/playbook.h"

#include <arpa/inet.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

/* "a,b" as ["a", "b"], empty words left out; NULL as dflt. */
static json_t *
word_list(const char *csv, const char *dflt)
{
	json_t		*list = json_array();
	const char	*p = csv, *end;

	if (p == NULL) {
		if (dflt != NULL)
			json_array_append_new(list, json_string(dflt));
		return list;
	}
	while (*p != '\0') {
		end = strchr(p, ',');
		if (end == NULL)
			end = p + strlen(p);
		if (end > p)
			json_array_append_new(list, json_stringn(p,
			    (size_t)(end - p)));
		p = *end == ',' ? end + 1 : end;
	}
	return list;
}

/* The directory of path, absolute as os.path.abspath makes it. */
static json_t *
playbook_dir(const char *path)
{
	char	*abs, *slash;
	json_t	*v;

	if (path == NULL || (abs = path_absolute(path)) == NULL)
		return NULL;
	slash = strrchr(abs, '/');
	if (slash == abs)
		slash[1] = '\0';
	else
		*slash = '\0';
	v = json_string(abs);
	free(abs);
	return v;
}

static int
active(const struct host_state *h)
{
	return !h->failed && !h->failed_run && !h->unreachable;
}

static json_t *
names_of(struct host_state *const *hosts, size_t n, int only_active)
{
	json_t	*list = json_array();
	size_t	 i;

	for (i = 0; i < n; i++) {
		if (!only_active || active(hosts[i]))
			json_array_append_new(list,
			    json_string(hosts[i]->name));
	}
	return list;
}

void
runner_magic_refresh(struct runner *r, const struct play *play,
    struct host_state *const *play_hosts, size_t nplay,
    struct host_state *const *batch, size_t nbatch)
{
	const struct run_config	*cfg = r->cfg;
	json_t			*m = json_object(), *dir, *b;

	json_object_set_new(m, "ansible_check_mode", json_boolean(cfg->check));
	json_object_set_new(m, "ansible_diff_mode", json_boolean(cfg->diff));
	json_object_set_new(m, "ansible_forks", json_integer(cfg->forks));
	json_object_set_new(m, "ansible_verbosity",
	    json_integer(cfg->verbosity));
	json_object_set_new(m, "ansible_run_tags", word_list(cfg->tags,
	    "all"));
	json_object_set_new(m, "ansible_skip_tags", word_list(cfg->skip_tags,
	    NULL));
	if (cfg->limit != NULL)
		json_object_set_new(m, "ansible_limit",
		    json_string(cfg->limit));
	if ((dir = playbook_dir(cfg->playbook_path)) != NULL)
		json_object_set_new(m, "playbook_dir", dir);
	if (play != NULL) {
		json_object_set_new(m, "ansible_play_name", json_string(
		    play->name != NULL && play->name[0] != '\0' ? play->name :
		    play->hosts != NULL ? play->hosts : ""));
		json_object_set_new(m, "ansible_play_hosts_all",
		    names_of(play_hosts, nplay, 0));
		json_object_set_new(m, "ansible_play_hosts",
		    names_of(play_hosts, nplay, 1));
		b = names_of(batch, nbatch, 1);
		json_object_set(m, "ansible_play_batch", b);
		json_object_set_new(m, "play_hosts", b);
	}
	json_decref(r->magic);
	r->magic = m;
}

static json_t *
short_name(const char *name)
{
	unsigned char	 addr[16];
	const char	*dot = strchr(name, '.');

	if (dot == NULL || inet_pton(AF_INET, name, addr) == 1 ||
	    inet_pton(AF_INET6, name, addr) == 1)
		return json_string(name);
	return json_stringn(name, (size_t)(dot - name));
}

void
runner_magic_apply(const struct runner *r, const struct host_state *h,
    json_t *vars)
{
	const char	**groups = NULL;
	json_t		 *names;
	size_t		  i, n = 0;

	if (r->magic != NULL)
		json_object_update(vars, r->magic);
	names = json_array();
	if (inventory_host_groups(r->inv, h->name, &groups, &n) == 0) {
		for (i = 0; i < n; i++) {
			if (strcmp(groups[i], "all") != 0)
				json_array_append_new(names,
				    json_string(groups[i]));
		}
	}
	free(groups);
	json_object_set_new(vars, "group_names", names);
	json_object_set_new(vars, "inventory_hostname_short",
	    short_name(h->name));
}
