/* Ansible's ansible.posix.sysctl, the pure part: how that module reads a
 * sysctl file, rewrites its lines, takes a value and decides "changed"
 * (plugins/modules/sysctl.py, ansible.posix 1.x as Debian ships it), so
 * that a task copied from a playbook leaves the same file and live value.
 *
 * Its rules, which tcptune follows on purpose, odd ones included:
 * - The file is read as Python reads text: lines end at "\n", "\r\n" or
 *   "\r"; each line is stripped of surrounding whitespace.
 * - A line that is blank, starts with '#' or ';', or has no '=' is kept as
 *   it is (stripped). Any other line is "key=value" split at its first '=',
 *   both sides stripped: the first line of each key is rewritten "k=v"
 *   (no blanks around '='), the task's key getting the task's value (or
 *   being dropped for state absent); every later line of the same key is
 *   dropped. A key not in the file is appended as "name=value".
 * - The file's value of the key is that of its last line.
 * - "changed": the file lacks the key (present) or has it (absent), or its
 *   value is not the task's (compared as strings); else, with reload, the
 *   live value is unreadable or differs (compared as whitespace-separated
 *   words); with sysctl_set (present), the live value is unreadable or
 *   differs -- only a differing one is set with `sysctl -w`.
 * The whitespace is Python's str.strip()/split() set restricted to ASCII:
 * space, \t, \n, \v, \f, \r and \x1c-\x1f. */
#ifndef TCPTUNE_SYSCTLCONF_H
#define TCPTUNE_SYSCTLCONF_H

struct sysctlconf_task {
	const char	*name;		/* stripped (sysctlconf_strip) */
	const char	*value;		/* as sysctlconf_value made it; "" for
					 * none */
	int		 present;	/* state present, else absent */
	int		 reload;
	int		 sysctl_set;
};

struct sysctlconf_plan {
	char	*text;		/* the file as the module writes it (set even
				 * when write_file is 0) */
	char	*file_value;	/* the key's value in the file, or NULL */
	int	 changed;	/* what the task reports */
	int	 write_file;	/* the file gets text */
	int	 set_proc;	/* `sysctl -w name=value` */
	int	 reload;	/* `sysctl -p FILE` after the write */
};

/* s without surrounding whitespace (Python's str.strip()). New string. */
char	*sysctlconf_strip(const char *s);
/* A task's value as the module takes it: a boolean word (yes, on, true, t,
 * y, 1 / no, off, false, f, n, 0, any case, as given: before stripping)
 * is "1" or "0", anything else is stripped; NULL is "". New string. */
char	*sysctlconf_value(const char *raw);
/* Python's a.split() == b.split(); 0 when either is NULL. */
int	 sysctlconf_values_equal(const char *a, const char *b);
/* Plan the task against the file's text (NULL: no file) and the live value
 * `sysctl -e -n NAME` printed (NULL: it failed). Fills *plan. */
void	 sysctlconf_plan(const struct sysctlconf_task *task,
	    const char *file_text, const char *proc_value,
	    struct sysctlconf_plan *plan);
void	 sysctlconf_plan_free(struct sysctlconf_plan *plan);

#endif
