/* The host probe: one remote sh script (lib/remote/probe.sh, embedded) that prints
 * every fact in one exec, and the parser that turns its output into a JSON
 * object of facts. The facts and their types are documented in
 * docs/facts.md; the output format is described at the top of probe.sh. */
#ifndef TCPTUNE_PROBE_H
#define TCPTUNE_PROBE_H

#include <stddef.h>

#include <jansson.h>

/* The version of the output format the parser understands (the script's
 * first line is "tcptune-probe VERSION"). */
#define PROBE_FORMAT_VERSION 1

/* The script's own text (lib/remote/probe.sh, without the prelude). */
const char	*probe_script(void);

/* The remote command line that runs the probe with probe_stdin() on its
 * standard input (remote_piped_command, lib/remote/remote-cmd.h): the
 * probe reads no data, so its 20 KB program travels there, one copy for
 * every host, and the command line stays short (sudo logs it). The RTT
 * targets are one value, each target quoted with shquote_add. Returns a
 * new string. */
char		*probe_command(const char *const *rtt_targets, size_t n);
/* The same, also showing the managed drop-in dropin (a path, or NULL)
 * whole, as the facts' "dropin": what a check-mode apply would read of
 * it, so that plan and drift need no second round trip. */
char		*probe_command_dropin(const char *const *rtt_targets, size_t n,
		    const char *dropin);
/* The prelude and the probe script: probe_command's standard input, *len
 * bytes, built once and shared (never freed). */
const char	*probe_stdin(size_t *len);
/* What the probe after an apply reads again (lib/remote/probe.sh's ONLY):
 * what the apply can have changed, and nothing it cannot (the system, the
 * memory, tuned, the RTTs keep the play's probe's facts). */
enum probe_reread {
	PROBE_ALL,		/* everything */
	PROBE_SYSCTL,		/* the sysctls and sysctl.d files */
	PROBE_NET,		/* also congestion, default route, links */
	PROBE_NET_MODULES	/* also the kernel config and the modules */
};

/* The probe's program with no targets, for another script to run (apply's
 * read-back), reading what `what` says; links: interfaces (blank-separated
 * words, or NULL) whose link facts it shows beside the default route's
 * (the ones an apply set a qdisc on). Returns a new string. */
char		*probe_program(enum probe_reread what, const char *links);

/* Fill r from one `ip -o route get` line: interface, source (src, or the
 * from of a lookup made from it), gateway,
 * table (null where the line has none) and type ("unicast" unless the line
 * starts with local, broadcast, ...). Pure. */
void		 probe_route_get_parse(const char *line, json_t *r);

/* How many CPUs a list like "0-3,6" names (/sys/devices/system/cpu/
 * online); -1 when it is not one. Pure. */
int		 probe_cpu_count(const char *list);
/* The fqdn as Python's socket.getfqdn() finds it in the hosts file: the
 * first name holding a dot of hosts_entry (the /etc/hosts line naming the
 * host: address, names; NULL: none), else hostname; NULL for no
 * hostname. Allocated. Pure. */
char		*probe_fqdn(const char *hostname, const char *hosts_entry);

/* Split s on blanks: a new NULL-terminated vector of *n words (n may be
 * NULL), freed by probe_words_free. Pure. */
char		**probe_words(const char *s, size_t *n);
void		 probe_words_free(char **w);

/* Parse the script's output (len bytes, need not be NUL-terminated) into a
 * new object of facts. Returns NULL with *cause set if the output is not the
 * probe's (wrong first line, garbage line) or was cut short (no "@end").
 * Facts the host could not give are null with a reason, never an error. */
json_t		*probe_parse(const char *out, size_t len, char **cause);

#endif
