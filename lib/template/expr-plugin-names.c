/* The filters and tests that ansible-core 2.14 ships as plugins of its own
 * (ansible/plugins/filter/{core,mathstuff,urls,urlsplit,encryption}.py,
 * ansible/plugins/test/{core,files,mathstuff,uri}.py): only these answer
 * to ansible.builtin.NAME and ansible.legacy.NAME. Jinja2's own (default,
 * join, int, sort...) do not: Ansible fails with 'Could not load
 * "ansible.builtin.default"'. Sorted, for bsearch. */
#include "template/expr-int.h"

#include <stdlib.h>
#include <string.h>

static const char *const filters[] = {
	"b64decode", "b64encode", "basename", "bool", "checksum",
	"combinations", "combine", "comment", "dict2items", "difference",
	"dirname", "expanduser", "expandvars", "extract", "fileglob",
	"flatten", "from_json", "from_yaml", "from_yaml_all", "hash",
	"human_readable", "human_to_bytes", "intersect", "items2dict", "log",
	"mandatory", "md5", "password_hash", "path_join", "permutations",
	"pow", "product", "quote", "random", "realpath", "regex_escape",
	"regex_findall", "regex_replace", "regex_search", "rekey_on_member",
	"relpath", "root", "sha1", "shuffle", "split", "splitext", "strftime",
	"subelements", "symmetric_difference", "ternary", "to_datetime",
	"to_json", "to_nice_json", "to_nice_yaml", "to_uuid", "to_yaml",
	"type_debug", "union", "unique", "unvault", "urldecode", "urlsplit",
	"vault", "win_basename", "win_dirname", "win_splitdrive", "zip",
	"zip_longest",
};

static const char *const tests[] = {
	"abs", "all", "any", "change", "changed", "contains", "directory",
	"exists", "failed", "failure", "falsy", "file", "finished", "is_abs",
	"is_dir", "is_file", "is_link", "is_mount", "is_same_file", "isnan",
	"issubset", "issuperset", "link", "link_exists", "match", "mount",
	"nan", "reachable", "regex", "same_file", "search", "skip", "skipped",
	"started", "subset", "succeeded", "success", "successful", "superset",
	"truthy", "unreachable", "uri", "url", "urn", "vault_encrypted",
	"version", "version_compare",
};

static int
cmp_name(const void *key, const void *row)
{
	return strcmp(key, *(const char *const *)row);
}

int
expr_ansible_plugin(const char *name, int test)
{
	return test ?
	    bsearch(name, tests, sizeof tests / sizeof tests[0],
	    sizeof tests[0], cmp_name) != NULL :
	    bsearch(name, filters, sizeof filters / sizeof filters[0],
	    sizeof filters[0], cmp_name) != NULL;
}
