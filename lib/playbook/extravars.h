/* -e / --extra-vars, as ansible-playbook reads them.
 *
 * Each item is one -e argument, merged left to right (later wins, top-level
 * keys replaced):
 *   "k=v k2='v 2'"   key=value pairs separated by spaces, shell-like quotes;
 *                    values are always strings, as in Ansible
 *   "@vars.yml"      a YAML (or JSON) file holding a mapping
 *   '{"k": 1}'       a JSON (or YAML flow) mapping, typed */
#ifndef TCPTUNE_EXTRAVARS_H
#define TCPTUNE_EXTRAVARS_H

#include <jansson.h>
#include <stddef.h>

/* Returns a new object (empty for n == 0), or NULL with *cause. */
json_t	*extravars_parse(char *const *items, size_t n, char **cause);

#endif
