/* The gate for what becomes a line on a host.
 *
 * Everything tcptune writes to a host -- a line of the sysctl drop-in, its
 * header comment, the route unit, /etc/modules-load.d, an argument of the
 * apply script -- is built from strings that may come from an inventory
 * (HTTP and script inventories included), a template or a probe. Those are
 * data, never structure: a newline in a value must not become a second
 * key, a CR must not hide one, and a path must not escape the directories
 * the docs name. Every renderer of host lines checks its strings here, and
 * the runner checks each task's rendered parameters here (by the kind the
 * module's parameter table declares) before the module runs, so a refusal
 * names the host, the task and the parameter and nothing is written.
 *
 * Each check returns 0, or -1 with *cause saying what is wrong without
 * repeating the whole value (it may be long, and it may be meant to
 * mislead a terminal): at most HOSTLINE_QUOTE_MAX bytes of it, escaped. */
#ifndef TCPTUNE_HOSTLINE_H
#define TCPTUNE_HOSTLINE_H

#include <jansson.h>
#include <stddef.h>

#define HOSTLINE_KEY_MAX	256	/* a sysctl key, dotted */
#define HOSTLINE_VALUE_MAX	4096	/* a sysctl value (the kernel's own
					 * write limit for most keys is a
					 * page) */
#define HOSTLINE_PATH_MAX	1024
#define HOSTLINE_WORD_MAX	64	/* a module, qdisc, device or
					 * algorithm name */
#define HOSTLINE_QUOTE_MAX	40	/* how much of a refused value a
					 * message shows */

/* Where a managed sysctl drop-in may live (docs/playbooks.md). */
#define HOSTLINE_DROPIN_DIR	"/etc/sysctl.d/"

/* A sysctl key in the kernel's grammar: components of [A-Za-z0-9_@+-]
 * (plus '.' inside an interface name when the separator is '/', as in
 * "net/ipv4/conf/eth0.100/rp_filter") separated by '.' or '/', no empty
 * component, no glob: a key we write is one /proc/sys file. */
int	hostline_sysctl_key(const char *key, char **cause);
/* Text that stays one line: printable bytes (UTF-8 sequences allowed),
 * tabs and spaces; no control character (CR, LF, NUL, ESC...), at most
 * max bytes. what names it in the message ("value", "reason"...). */
int	hostline_text(const char *s, size_t max, const char *what,
	    char **cause);
/* A sysctl value: text (above, at most HOSTLINE_VALUE_MAX bytes) without
 * the shell's quoting and substitution characters $ ` ; " ' \ < > &. No
 * kernel value needs them, and a value that passes through the apply
 * script and sysctl --system at boot must mean the same bytes to every
 * reader ('|' and '%' stay: kernel.core_pattern uses them). */
int	hostline_sysctl_value(const char *s, char **cause);
/* An absolute path: no control character, no empty, "." or ".." component,
 * no trailing '/', at most HOSTLINE_PATH_MAX bytes. */
int	hostline_path(const char *path, char **cause);
/* The managed drop-in: a path (above) directly in HOSTLINE_DROPIN_DIR
 * whose name ends in ".conf" and does not start with '.' (sysctl ignores
 * dot-files, and ours are the apply script's temp files). */
int	hostline_dropin_path(const char *path, char **cause);
/* A name: [A-Za-z0-9_.:@+-], not starting with '-' (it would read as an
 * option), at most HOSTLINE_WORD_MAX bytes. */
int	hostline_word(const char *s, const char *what, char **cause);
/* Names separated by single spaces ("tcp_bbr sch_fq", "initcwnd 10"). */
int	hostline_words(const char *s, const char *what, char **cause);
/* A kernel module's parameters, "key=value" words separated by blanks, as
 * a modprobe task gives them: text (above) without a quote or a backslash,
 * which Ansible's shlex.split would take as quoting (its words would not be
 * the words written to modprobe.d). */
int	hostline_module_params(const char *s, char **cause);

/* The kinds a module parameter can declare (module_param.host_line). */
enum hostline_kind {
	HOSTLINE_NONE = 0,	/* never reaches a host line */
	HOSTLINE_WORD,		/* a name (module, algorithm) */
	HOSTLINE_SYSCTL_MAP,	/* mapping: sysctl key -> value */
	HOSTLINE_DROPIN_PATH,	/* the managed drop-in */
	HOSTLINE_SHELL,		/* shell text: the author's, with every
				 * template substitution quoted as one
				 * word (template_render_shell) */
	HOSTLINE_SYSCTL_KEY,	/* one sysctl key, surrounding blanks not
				 * part of it (Ansible strips them), not
				 * starting with '-' (an option of sysctl) */
	HOSTLINE_SYSCTL_VALUE,	/* one sysctl value */
	HOSTLINE_PATH,		/* any absolute path (hostline_path) */
	HOSTLINE_MODULE_PARAMS,	/* hostline_module_params */
	HOSTLINE_ARGV_TEXT,	/* text the module splits into words as
				 * shlex.split does and quotes word by word
				 * (the command module's free form) */
};

/* The host var that names the managed drop-in instead of a task's
 * sysctl_file (modules/tune-facts.c); checked with every drop-in path. */
#define HOSTLINE_DROPIN_VAR	"tcptune_sysctl_file"

/* Check one rendered, bound argument of kind `kind` (NULL or null: not
 * given), and, for a drop-in path, the host's HOSTLINE_DROPIN_VAR. On a
 * refusal, *cause names the parameter (and the key, for a map):
 * "values['net.core.rmem_max']: value has a line feed (U+000A) at byte
 * 7: '131072\nnet.ipv4.tcp_…'". The loop over a module's table is
 * hostline_check_args (playbook/module.h). */
int	hostline_check_value(const char *param, enum hostline_kind kind,
	    const json_t *v, const json_t *vars, char **cause);

#endif
