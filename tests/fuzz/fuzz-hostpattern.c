/* libFuzzer harness: host ranges and patterns. The first line of the input
 * is an inventory host key (hostrange_parse_address, hostrange_expand:
 * "web[01:50].example.com:2222"); the rest is a host pattern evaluated
 * against a small fixed inventory (pattern_split, inventory_select, with
 * and without a --limit). Patterns with '@' are skipped: '@file' reads a
 * file the user named, which is not input to fuzz. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "inventory/hostrange.h"
#include "inventory/inventory.h"
#include "inventory/pattern.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);
int LLVMFuzzerInitialize(int *, char ***);

static struct inventory *inv;

static const char fleet[] =
    "[web]\nweb[01:04].example.com\n"
    "[db]\ndb-[a:c] ansible_port=2222\n"
    "[edge:children]\nweb\ndb\n"
    "[lonely]\n10.0.0.[1:3]\n";

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char *cause = NULL;

	(void)argc;
	(void)argv;
	inv = inventory_new();
	if (inv_load_ini_buffer(inv, "fleet.ini", fleet, sizeof fleet - 1,
	    &cause) != 0 || inventory_finish(inv, &cause) != 0)
		abort();
	return 0;
}

static void
host_key(const char *key)
{
	char	**names, *host, *cause = NULL;
	size_t	  n;
	int	  port, parsed;

	host = hostrange_parse_address(key, &port, &parsed);
	if (hostrange_expand(host, &names, &n, &cause) == 0)
		hostrange_free(names, n);
	free(cause);
	free(host);
}

static void
select_hosts(const char *pattern)
{
	char	**parts, **hosts, *cause = NULL;
	size_t	  n;

	if (pattern_split(pattern, &parts, &n, &cause) == 0)
		pattern_hosts_free(parts, n);
	free(cause);
	cause = NULL;
	if (inventory_select(inv, pattern, &hosts, &n, &cause) == 0)
		pattern_hosts_free(hosts, n);
	free(cause);
	cause = NULL;
	if (inventory_select_limit(inv, pattern, "edge:!db-b", &hosts, &n,
	    &cause) == 0)
		pattern_hosts_free(hosts, n);
	free(cause);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char	*text, *nl;

	if (memchr(data, '@', size) != NULL)
		return 0;
	text = strndup((const char *)data, size);
	if (text == NULL)
		return 0;
	if ((nl = strchr(text, '\n')) != NULL)
		*nl++ = '\0';
	host_key(text);
	if (nl != NULL)
		select_hosts(nl);
	free(text);
	return 0;
}
