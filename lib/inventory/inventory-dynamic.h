/* Dynamic inventories: the `--list` JSON of Ansible's script inventory
 * plugin, fetched over HTTP(S) or printed by an executable script, then
 * read by inventory_add_list_json (inventory.h).
 *
 * URL sources (http_url_scheme != NONE): GET with the timeouts and retries
 * of http.h (connect 10 s, whole transfer 30 s, 3 attempts), a bearer token
 * from TCPTUNE_INVENTORY_TOKEN if set (never logged, never sent over plain
 * http to a host that is not loopback). Plain http to a host that is not
 * loopback works with a warning (inv_warn); so does https with
 * TCPTUNE_INSECURE_TLS=1.
 *
 * Script sources: an executable regular file starting with "#!" or an ELF
 * header. It runs as `PATH --list` without a shell (fork/exec, stdin from
 * /dev/null, 30 s then SIGKILL to its process group). As in Ansible, when
 * the output has no "_meta" key it runs `PATH --host NAME` for each host to
 * get host variables. An executable file holding YAML or INI is read as
 * such, not run.
 *
 * A script runs with a clean environment (inventory_script_env), not
 * tcptune's: TCPTUNE_INVENTORY_TOKEN and TCPTUNE_WEBHOOK are credentials
 * for tcptune's own requests, and a script (often fetched from elsewhere,
 * run hourly by a timer) has no business with them. */
#ifndef TCPTUNE_INVENTORY_DYNAMIC_H
#define TCPTUNE_INVENTORY_DYNAMIC_H

#include <jansson.h>
#include <stddef.h>

struct inventory;

#define INVENTORY_SCRIPT_TIMEOUT	30	/* seconds */
#define INVENTORY_TOKEN_ENV		"TCPTUNE_INVENTORY_TOKEN"

#define INVENTORY_SCRIPT_ENV_EXTRA	"TCPTUNE_INVENTORY_SCRIPT_ENV"

/* The environment a script gets, from env (NULL-terminated, usually
 * environ), in env's order; allocated, free with inventory_script_env_free.
 * Kept: what any program needs to run as the user (PATH, HOME, USER,
 * LOGNAME, LANG, LANGUAGE, LC_*, TZ, TMPDIR), what a script needs to reach
 * its own service the way the machine is set up (http_proxy, https_proxy,
 * no_proxy, all_proxy in either case, SSL_CERT_FILE, SSL_CERT_DIR), and
 * ANSIBLE_*, which Ansible's own runs pass and scripts written for Ansible
 * may read. Also kept: the variables named in
 * $TCPTUNE_INVENTORY_SCRIPT_ENV (separated by spaces or commas), for a
 * script that takes its own credential from the environment
 * (TCPTUNE_INVENTORY_SCRIPT_ENV="NETBOX_TOKEN AWS_PROFILE").
 * Everything else is dropped, and every TCPTUNE_* variable always, even
 * when named there: no script is documented to need one (Ansible sets
 * none), and TCPTUNE_INVENTORY_TOKEN and TCPTUNE_WEBHOOK are secrets. */
char	**inventory_script_env(char *const env[]);
void	  inventory_script_env_free(char **env);

/* The loaders of scripts and URLs, inventory_source_is_script,
 * inventory_add_script and inventory_add_url, are declared with the other
 * loaders in inventory.h. */

/* Parse a dynamic-inventory document: a JSON object, or -1 with
 * "ORIGIN: invalid JSON at line L column C: TEXT", "ORIGIN: empty answer,
 * expected a JSON object" or "ORIGIN: dynamic inventory must be a JSON
 * object". */
json_t	*inventory_parse_list_json(const char *buf, size_t len,
	    const char *origin, char **cause);

/* Run argv[0] with argv (no shell) and the environment of
 * inventory_script_env, stdin from /dev/null; collect stdout
 * and stderr (each capped at 64 MiB) and wait up to timeout seconds, then
 * kill its process group. Returns 0 when it ran and exited 0; otherwise -1
 * and *cause: "'PATH' exited with status N: first line of stderr", "'PATH'
 * was killed by signal N", "'PATH' timed out after N s", "'PATH' cannot
 * be run: strerror". *out and *err (NUL-terminated, allocated) are set
 * whenever it exited by itself (status 0 or not), else NULL; either may be
 * NULL if not wanted. */
int	inventory_run_script(char *const argv[], int timeout, char **out,
	    size_t *outlen, char **err, char **cause);

#endif
