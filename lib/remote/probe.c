/* The probe's controller side: the command that runs lib/remote/probe.sh and the
 * parser of its output. The script reports raw observations; this file
 * interprets them (see docs/facts.md for the resulting facts). */

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "remote/embedded.h"
#include "remote/probe.h"
#include "remote/remote-cmd.h"
#include "base/shquote.h"
#include "base/strbuf.h"
#include "remote/sysctld.h"
#include "base/xalloc.h"

/* One key=value line, unescaped. */
struct probe_kv {
	char	*key;
	char	*value;
};

/* One "@name arg" section and its lines, in output order. */
struct probe_section {
	char		*name;
	char		*arg;	/* NULL if the header had none */
	struct probe_kv	*kv;
	size_t		 n;
};

struct probe_out {
	struct probe_section	*s;
	size_t			 n;
};

/* The sysctls the script reads, in the order of docs/facts.md. */
static const char *probe_sysctls[] = {
	"net.ipv4.tcp_rmem",
	"net.ipv4.tcp_wmem",
	"net.core.rmem_max",
	"net.core.wmem_max",
	"net.core.rmem_default",
	"net.core.wmem_default",
	"net.ipv4.tcp_mem",
	"net.ipv4.tcp_congestion_control",
	"net.core.default_qdisc",
	"net.ipv4.tcp_mtu_probing",
	"net.ipv4.tcp_notsent_lowat",
	"net.ipv4.tcp_slow_start_after_idle",
	"net.core.netdev_max_backlog",
};

const char *
probe_script(void)
{
	return embedded_probe_sh;
}

/* The RTT targets as one list value: sh words (see lib/remote/prelude.sh). */
static char *
target_words(const char *const *rtt_targets, size_t n)
{
	struct strbuf	sb;
	size_t		i;

	strbuf_init(&sb);
	for (i = 0; i < n; i++) {
		if (i != 0)
			strbuf_addch(&sb, ' ');
		shquote_add(&sb, rtt_targets[i]);
	}
	return strbuf_detach(&sb, NULL);
}

char *
probe_program(enum probe_reread what, const char *links)
{
	static const char *const only[] = { "", "sysctl", "net",
	    "net modules" };

	return remote_program(embedded_probe_sh, (const struct remote_var[]){
		{ "TARGETS", "" },
		{ "ONLY", only[what] },
		{ "DROPIN", "" },
		{ "LINKS", links != NULL ? links : "" },
		{ NULL, NULL } });
}

char *
probe_command(const char *const *rtt_targets, size_t n)
{
	return probe_command_dropin(rtt_targets, n, NULL);
}

char *
probe_command_dropin(const char *const *rtt_targets, size_t n,
    const char *dropin)
{
	char *words = target_words(rtt_targets, n), *cmd;

	cmd = remote_piped_command((const struct remote_var[]){
		{ "TARGETS", words },
		{ "ONLY", "" },
		{ "DROPIN", dropin != NULL ? dropin : "" },
		{ "LINKS", "" },
		{ NULL, NULL } });
	free(words);
	return cmd;
}

static char	*piped_program;
static size_t	 piped_len;

static void
piped_program_init(void)
{
	piped_program = remote_piped_program(embedded_probe_sh);
	piped_len = strlen(piped_program);
}

const char *
probe_stdin(size_t *len)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, piped_program_init);
	*len = piped_len;
	return piped_program;
}

/* ---- the line format */

/* Room for element n of an array grown one element at a time: doubles when
 * n is a power of two (growing by one copies the array each time under
 * ASan, quadratic for a host with thousands of sysctl.d files). */
static void *
grow(void *array, size_t n, size_t size)
{
	return (n & (n - 1)) != 0 ? array :
	    xreallocarray(array, n == 0 ? 1 : n * 2, size);
}

static void
out_free(struct probe_out *po)
{
	struct probe_section	*sec;
	size_t			 i, j;

	for (i = 0; i < po->n; i++) {
		sec = &po->s[i];
		for (j = 0; j < sec->n; j++) {
			free(sec->kv[j].key);
			free(sec->kv[j].value);
		}
		free(sec->kv);
		free(sec->name);
		free(sec->arg);
	}
	free(po->s);
}

static struct probe_section *
out_add_section(struct probe_out *po, const char *name, size_t nlen,
    const char *arg, size_t alen)
{
	struct probe_section	*sec;

	po->s = grow(po->s, po->n, sizeof *po->s);
	sec = &po->s[po->n++];
	sec->name = xstrndup(name, nlen);
	sec->arg = arg != NULL ? remote_unescape(arg, alen) : NULL;
	sec->kv = NULL;
	sec->n = 0;
	return sec;
}

static int
valid_key(const char *s, size_t len)
{
	size_t	i;

	if (len == 0)
		return 0;
	for (i = 0; i < len; i++) {
		if (!islower((unsigned char)s[i]) &&
		    !isdigit((unsigned char)s[i]) && s[i] != '_' && s[i] != '.')
			return 0;
	}
	return 1;
}

/* Split the output into sections. Lines before the first section (the
 * header's own facts) go to a section named "". */
static int
out_split(const char *out, size_t len, struct probe_out *po, char **cause)
{
	struct probe_section	*sec;
	const char		*p, *end, *nl, *eq, *sp;
	size_t			 llen, lineno = 0;
	int			 ended = 0;
	char			 header[64];

	po->s = NULL;
	po->n = 0;
	p = out;
	end = out + len;

	nl = memchr(p, '\n', end - p);
	llen = (nl != NULL ? nl : end) - p;
	snprintf(header, sizeof header, "tcptune-probe %d",
	    PROBE_FORMAT_VERSION);
	if (llen != strlen(header) || memcmp(p, header, llen) != 0) {
		if (llen >= 14 && memcmp(p, "tcptune-probe ", 14) == 0)
			return fail(cause, "probe output format '%.*s' is not "
			    "'%s'", (int)(llen > 40 ? 40 : llen), p, header);
		return fail(cause, "not probe output: first line is '%.*s'",
		    (int)(llen > 80 ? 80 : llen), p);
	}
	sec = out_add_section(po, "", 0, NULL, 0);
	p = nl != NULL ? nl + 1 : end;
	lineno = 1;

	while (p < end) {
		lineno++;
		nl = memchr(p, '\n', end - p);
		llen = (nl != NULL ? nl : end) - p;
		if (ended)
			return fail(cause, "probe output goes on after '@end' "
			    "(line %zu)", lineno);
		if (llen == 0)
			;
		else if (*p == '@') {
			if (llen == 4 && memcmp(p, "@end", 4) == 0)
				ended = 1;
			else {
				sp = memchr(p, ' ', llen);
				if (sp == NULL)
					sec = out_add_section(po, p + 1,
					    llen - 1, NULL, 0);
				else
					sec = out_add_section(po, p + 1,
					    sp - p - 1, sp + 1,
					    llen - (sp + 1 - p));
			}
		} else {
			eq = memchr(p, '=', llen);
			if (eq == NULL || !valid_key(p, eq - p))
				return fail(cause, "bad line %zu in probe "
				    "output: '%.*s'", lineno,
				    (int)(llen > 80 ? 80 : llen), p);
			sec->kv = grow(sec->kv, sec->n,
			    sizeof *sec->kv);
			sec->kv[sec->n].key = xstrndup(p, eq - p);
			sec->kv[sec->n].value = remote_unescape(eq + 1,
			    llen - (eq + 1 - p));
			sec->n++;
		}
		p = nl != NULL ? nl + 1 : end;
	}
	if (!ended)
		return fail(cause, "probe output is cut short (no '@end' after "
		    "line %zu)", lineno);
	return 0;
}

/* The first section called name (with arg, if not NULL). */
static const struct probe_section *
find_section(const struct probe_out *po, const char *name, const char *arg)
{
	size_t	i;

	for (i = 0; i < po->n; i++) {
		if (strcmp(po->s[i].name, name) != 0)
			continue;
		if (arg == NULL || (po->s[i].arg != NULL &&
		    strcmp(po->s[i].arg, arg) == 0))
			return &po->s[i];
	}
	return NULL;
}

/* The first value of key in sec, or NULL. */
static const char *
get(const struct probe_section *sec, const char *key)
{
	size_t	i;

	if (sec == NULL)
		return NULL;
	for (i = 0; i < sec->n; i++) {
		if (strcmp(sec->kv[i].key, key) == 0)
			return sec->kv[i].value;
	}
	return NULL;
}

/* ---- JSON helpers */

/* A JSON string of s, or null if s is NULL. jansson wants UTF-8: a host may
 * hand us anything, so bytes that are not valid UTF-8 become '?'. */
static json_t *
jstr(const char *s)
{
	json_t	*j;
	char	*copy;
	size_t	 i;

	if (s == NULL)
		return json_null();
	if ((j = json_string(s)) != NULL)
		return j;
	copy = xstrdup(s);
	for (i = 0; copy[i] != '\0'; i++) {
		if ((unsigned char)copy[i] >= 0x80)
			copy[i] = '?';
	}
	j = json_string(copy);
	free(copy);
	return j != NULL ? j : json_null();
}

/* s as a whole decimal number, or -1 (with *ok 0) if it is not one. */
static long long
parse_ll(const char *s, int *ok)
{
	char		*end;
	long long	 v;

	*ok = 0;
	if (s == NULL || *s == '\0')
		return -1;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno != 0 || *end != '\0')
		return -1;
	*ok = 1;
	return v;
}

static json_t *
jint_or_null(const char *s)
{
	long long	v;
	int		ok;

	v = parse_ll(s, &ok);
	return ok ? json_integer(v) : json_null();
}

/* Split s on blanks into a new NULL-terminated vector (free with
 * words_free). */
char **
probe_words(const char *s, size_t *n)
{
	char		**w = NULL;
	const char	 *p;
	size_t		  k = 0, len;

	while (s != NULL && *s != '\0') {
		while (isspace((unsigned char)*s))
			s++;
		if (*s == '\0')
			break;
		p = s;
		while (*p != '\0' && !isspace((unsigned char)*p))
			p++;
		len = p - s;
		w = xreallocarray(w, k + 2, sizeof *w);
		w[k++] = xstrndup(s, len);
		s = p;
	}
	w = xreallocarray(w, k + 1, sizeof *w);
	w[k] = NULL;
	if (n != NULL)
		*n = k;
	return w;
}

void
probe_words_free(char **w)
{
	size_t	i;

	for (i = 0; w != NULL && w[i] != NULL; i++)
		free(w[i]);
	free(w);
}

/* ---- system */

/* How many CPUs a list such as "0-3,6,8-9" (/sys/devices/system/cpu/online)
 * names; -1 when it is not such a list. */
int
probe_cpu_count(const char *list)
{
	const char	*p = list;
	char		*end;
	long		 a, b;
	int		 n = 0;

	if (p == NULL || *p == '\0')
		return -1;
	for (;;) {
		a = strtol(p, &end, 10);
		if (end == p || a < 0)
			return -1;
		b = a;
		if (*end == '-') {
			p = end + 1;
			b = strtol(p, &end, 10);
			if (end == p || b < a)
				return -1;
		}
		n += (int)(b - a + 1);
		if (*end == '\0')
			return n;
		if (*end != ',')
			return -1;
		p = end + 1;
	}
}

/* The fully qualified name, as Python's socket.getfqdn() finds it in the
 * hosts file: the first of the names on the host's /etc/hosts line
 * (address, canonical name, aliases) holding a dot, else the hostname. */
char *
probe_fqdn(const char *hostname, const char *hosts_entry)
{
	char	**w, *fqdn = NULL;
	size_t	  n, i;

	if (hostname == NULL)
		return NULL;
	w = probe_words(hosts_entry != NULL ? hosts_entry : "", &n);
	for (i = 1; i < n && fqdn == NULL; i++) {
		if (strchr(w[i], '.') != NULL)
			fqdn = xstrdup(w[i]);
	}
	probe_words_free(w);
	return fqdn != NULL ? fqdn : xstrdup(hostname);
}

/* What Ansible's setup module reports besides: CPUs online, every
 * interface's name, the init system, the fqdn. */
static void
parse_host_more(const struct probe_section *sys, json_t *facts)
{
	char	**w, *fqdn;
	size_t	  n, i;
	int	  cpus = probe_cpu_count(get(sys, "cpus_online"));
	json_t	 *j;

	json_object_set_new(facts, "cpus_online", cpus > 0 ?
	    json_integer(cpus) : json_null());
	j = json_array();
	w = probe_words(get(sys, "interfaces") != NULL ? get(sys, "interfaces") :
	    "", &n);
	for (i = 0; i < n; i++)
		json_array_append_new(j, json_string(w[i]));
	probe_words_free(w);
	json_object_set_new(facts, "interface_names", j);
	j = json_object();
	json_object_set_new(j, "pid1", jstr(get(sys, "pid1")));
	json_object_set_new(j, "systemd", json_boolean(get(sys,
	    "init_systemd") != NULL));
	json_object_set_new(j, "openrc", json_boolean(get(sys, "init_openrc") !=
	    NULL));
	json_object_set_new(j, "sysv", json_boolean(get(sys, "init_sysv") !=
	    NULL));
	json_object_set_new(facts, "init", j);
	fqdn = probe_fqdn(get(sys, "hostname"), get(sys, "hosts_entry"));
	json_object_set_new(facts, "fqdn", jstr(fqdn));
	free(fqdn);
}

static void
parse_system(const struct probe_out *po, json_t *facts)
{
	const struct probe_section	*sys = find_section(po, "system", NULL);
	const char			*virt, *cont, *reason = NULL;
	json_t				*j;

	j = json_object();
	json_object_set_new(j, "release", jstr(get(sys, "release")));
	json_object_set_new(j, "version", jstr(get(sys, "version")));
	json_object_set_new(j, "machine", jstr(get(sys, "machine")));
	json_object_set_new(facts, "kernel", j);

	json_object_set_new(facts, "hostname", jstr(get(sys, "hostname")));

	j = json_object();
	json_object_set_new(j, "id", jstr(get(sys, "os_id")));
	json_object_set_new(j, "version_id", jstr(get(sys, "os_version_id")));
	json_object_set_new(j, "pretty_name",
	    jstr(get(sys, "os_pretty_name")));
	json_object_set_new(j, "name", jstr(get(sys, "os_name")));
	json_object_set_new(j, "id_like", jstr(get(sys, "os_id_like")));
	json_object_set_new(j, "codename", jstr(get(sys, "os_codename") !=
	    NULL ? get(sys, "os_codename") : get(sys, "os_ubuntu_codename")));
	json_object_set_new(j, "debian_version",
	    jstr(get(sys, "debian_version")));
	json_object_set_new(facts, "distribution", j);
	parse_host_more(sys, facts);

	/* systemd-detect-virt prints "none" for none; with the tool absent,
	 * a container may still be guessed from the runtimes' marks. */
	virt = get(sys, "virt");
	cont = get(sys, "container");
	if (virt == NULL || *virt == '\0')
		virt = NULL;
	if (cont == NULL || *cont == '\0')
		cont = get(sys, "container_guess");
	if ((reason = get(sys, "virt_error")) == NULL && virt == NULL)
		reason = "systemd-detect-virt printed nothing";
	j = json_object();
	json_object_set_new(j, "type", jstr(virt != NULL ? virt : "unknown"));
	json_object_set_new(j, "container",
	    jstr(cont != NULL && *cont != '\0' ? cont :
	    (reason != NULL ? "unknown" : "none")));
	json_object_set_new(j, "reason", jstr(reason));
	json_object_set_new(facts, "virtualization", j);
}

/* The values of key in sec, in order, as a new array of strings. */
static json_t *
get_all(const struct probe_section *sec, const char *key)
{
	json_t	*a = json_array();
	size_t	 i;

	for (i = 0; sec != NULL && i < sec->n; i++) {
		if (strcmp(sec->kv[i].key, key) == 0)
			json_array_append_new(a, jstr(sec->kv[i].value));
	}
	return a;
}

/* What only Ansible's names need (remote/ansible-net.c, ansible-host.c):
 * the probe's @addrs, @netdev, @host and @local sections, raw. */
static void
parse_setup_raw(const struct probe_out *po, json_t *facts)
{
	const struct probe_section	*sec, *host;
	json_t				*raw, *nd, *o, *l;
	size_t				 i, j;

	if ((host = find_section(po, "host", NULL)) == NULL)
		return;		/* a read-back: none of it */
	raw = json_object();
	nd = json_object();
	json_object_set_new(raw, "ip", json_boolean(get(find_section(po,
	    "route", NULL), "ip_error") == NULL));
	json_object_set_new(raw, "get4", jstr(get(find_section(po, "route",
	    NULL), "get4")));
	json_object_set_new(raw, "get6", jstr(get(find_section(po, "route",
	    NULL), "get6")));
	json_object_set_new(raw, "addrs", get_all(find_section(po, "addrs",
	    NULL), "line"));
	l = json_null();
	for (i = 0; i < po->n; i++) {
		sec = &po->s[i];
		if (strcmp(sec->name, "netdev") == 0 && sec->arg != NULL) {
			o = json_object();
			for (j = 0; j < sec->n; j++) {
				if (strcmp(sec->kv[j].key, "brif") != 0)
					json_object_set_new(o, sec->kv[j].key,
					    jstr(sec->kv[j].value));
			}
			json_object_set_new(o, "brif", get_all(sec, "brif"));
			json_object_set_new(nd, sec->arg, o);
		} else if (strcmp(sec->name, "local") == 0)
			l = json_array();
		else if (strcmp(sec->name, "local_fact") == 0 &&
		    sec->arg != NULL && json_is_array(l)) {
			o = json_pack("{s:o, s:o, s:o}", "path", jstr(sec->arg),
			    "rc", jint_or_null(get(sec, "rc")),
			    "lines", get_all(sec, "line"));
			json_array_append_new(l, o);
		}
	}
	json_object_set_new(raw, "netdevs", nd);
	json_object_set_new(raw, "local", l);
	json_object_set_new(raw, "env", get_all(host, "env"));
	json_object_set_new(raw, "env_path", jstr(get(host, "env_path")));
	json_object_set_new(raw, "env_lc_all", jstr(get(host, "env_lc_all")));
	json_object_set_new(raw, "env_oldpwd", jstr(get(host, "env_oldpwd")));
	json_object_set_new(raw, "pkg", get_all(host, "pkg"));
	json_object_set_new(raw, "lsb_release",
	    json_boolean(get(host, "lsb_release") != NULL));
	json_object_set_new(raw, "lsb", get_all(host, "lsb"));
	json_object_set_new(raw, "mounts", get_all(host, "mount"));
	json_object_set_new(raw, "binds", get_all(host, "bind"));
	json_object_set_new(facts, "setup_raw", raw);
}

/* ---- kernel config and modules */

/* "y", "m", "absent" or "unknown" for option in the config lines. */
static const char *
config_state(const struct probe_section *kc, const char *option)
{
	const char	*v;
	size_t		 i, olen = strlen(option);

	if (kc == NULL || get(kc, "source") == NULL)
		return "unknown";
	for (i = 0; i < kc->n; i++) {
		if (strcmp(kc->kv[i].key, "line") != 0)
			continue;
		v = kc->kv[i].value;
		if (strncmp(v, option, olen) == 0 && v[olen] == '=') {
			if (strcmp(v + olen + 1, "y") == 0)
				return "y";
			if (strcmp(v + olen + 1, "m") == 0)
				return "m";
			return "absent";	/* =n, or something odd */
		}
	}
	/* "# CONFIG_X is not set", or not mentioned at all. */
	return "absent";
}

/* The config options the probe reports, and the module of each (NULL for
 * one that is not a module). */
static const struct {
	const char	*option;
	const char	*module;
} probe_options[] = {
	{ "CONFIG_MODULES", NULL },
	{ "CONFIG_TCP_CONG_BBR", "tcp_bbr" },
	{ "CONFIG_NET_SCH_FQ", "sch_fq" },
	{ "CONFIG_NET_SCH_FQ_CODEL", "sch_fq_codel" },
};
#define PROBE_NOPTIONS (sizeof probe_options / sizeof probe_options[0])

/* A JSON boolean of b, or null when b is -1 (unknown). */
static json_t *
jtristate(int b)
{
	return b < 0 ? json_null() : json_boolean(b);
}

/* Where the kernel has module name, with the config's state of its option:
 * built in, loaded, loadable (its file is there), absent, or unknown. Without
 * a config, the module index decides (modinfo, else modules.builtin and
 * modules.dep): a module modprobe can find is loadable, whatever the config
 * would have said. */
static json_t *
module_facts(const struct probe_section *mod, const char *name,
    const char *state, const char *congestion)
{
	const char	*found, *err, *file;
	char		*reason = NULL;
	json_t		*m;
	int		 builtin = -1, loaded, loadable = -1, notfound;

	if ((found = get(mod, "modinfo")) == NULL)
		found = get(mod, "moddir");
	err = get(mod, "modinfo_error");
	if (found == NULL && get(mod, "moddir_error") != NULL)
		err = get(mod, "moddir_error");
	file = get(mod, "file");
	/* The index was read and does not have it. */
	notfound = found == NULL && err != NULL &&
	    (strstr(err, "not found") != NULL || strstr(err, "not in ") != NULL);

	if (strcmp(state, "y") == 0)
		builtin = 1;
	else if (strcmp(state, "m") == 0 || strcmp(state, "absent") == 0)
		builtin = 0;
	else if (found != NULL)
		builtin = strcmp(found, "(builtin)") == 0;
	else if (notfound)
		builtin = 0;

	if (builtin == 1 || strcmp(state, "absent") == 0)
		loadable = 0;
	else if (found != NULL) {
		/* modinfo reads the index only: the file may be gone. */
		loadable = file == NULL || strcmp(file, "1") == 0;
		if (!loadable)
			reason = xprintf("the module index names %s, which "
			    "is not there", found);
	} else if (notfound)
		loadable = 0;

	loaded = builtin == 1 || (get(mod, "sysfs") != NULL &&
	    strcmp(get(mod, "sysfs"), "1") == 0);
	/* A congestion control the kernel lists is in the kernel. */
	if (strcmp(name, "tcp_bbr") == 0 && congestion != NULL &&
	    strstr(congestion, "bbr") != NULL)
		loaded = 1;

	m = json_object();
	json_object_set_new(m, "builtin", jtristate(builtin));
	json_object_set_new(m, "loaded", json_boolean(loaded));
	json_object_set_new(m, "loadable", jtristate(loadable));
	/* available: the kernel can use it now or after modprobe. */
	json_object_set_new(m, "available", loaded ? json_true() :
	    jtristate(loadable));
	json_object_set_new(m, "state", jstr(builtin == 1 ? "builtin" :
	    loaded ? "loaded" : loadable == 1 ? "loadable" :
	    loadable == 0 ? "absent" : "unknown"));
	/* Why the state is what it is, where the index did not simply name
	 * the module. */
	json_object_set_new(m, "reason", jstr(reason != NULL ? reason :
	    found == NULL ? err : NULL));
	free(reason);
	return m;
}

static void
parse_config(const struct probe_out *po, json_t *facts,
    const char *congestion)
{
	const struct probe_section	*kc;
	const char			*state;
	json_t				*j, *mods;
	size_t				 i;

	kc = find_section(po, "kernel_config", NULL);
	j = json_object();
	json_object_set_new(j, "source", jstr(get(kc, "source")));
	mods = json_object();
	for (i = 0; i < PROBE_NOPTIONS; i++) {
		state = config_state(kc, probe_options[i].option);
		json_object_set_new(j, probe_options[i].option, jstr(state));
		if (probe_options[i].module != NULL)
			json_object_set_new(mods, probe_options[i].module,
			    module_facts(find_section(po, "module",
			    probe_options[i].module), probe_options[i].module,
			    state, congestion));
	}
	json_object_set_new(j, "reason", jstr(get(kc, "error")));
	json_object_set_new(facts, "kernel_config", j);
	json_object_set_new(facts, "modules", mods);
}

static void
parse_congestion(const struct probe_out *po, json_t *facts)
{
	const struct probe_section	*cc = find_section(po, "congestion",
					    NULL);
	const char			*avail;
	json_t				*j, *a;
	char				**w;
	size_t				 i;

	j = json_object();
	avail = get(cc, "available");
	if (avail != NULL) {
		a = json_array();
		w = probe_words(avail, NULL);
		for (i = 0; w[i] != NULL; i++)
			json_array_append_new(a, jstr(w[i]));
		probe_words_free(w);
		json_object_set_new(j, "available", a);
	} else
		json_object_set_new(j, "available", json_null());
	json_object_set_new(j, "current", jstr(get(cc, "current")));
	json_object_set_new(facts, "congestion", j);
}

/* ---- default route and its link */

/* Set the route's options from an `ip -o route` line. */
static void
parse_route_line(const char *line, json_t *r)
{
	char	**w;
	size_t	  i, n;
	int	  lock;

	w = probe_words(line, &n);
	for (i = 0; i < n; i++) {
		if (i + 1 >= n)
			break;
		if (strcmp(w[i], "via") == 0) {
			/* "via inet6 ADDR" appears for mixed families. */
			if ((strcmp(w[i + 1], "inet") == 0 ||
			    strcmp(w[i + 1], "inet6") == 0) && i + 2 < n)
				i++;
			if (json_is_null(json_object_get(r, "gateway")))
				json_object_set_new(r, "gateway",
				    jstr(w[i + 1]));
			i++;
		} else if (strcmp(w[i], "proto") == 0) {
			json_object_set_new(r, "proto", jstr(w[++i]));
		} else if (strcmp(w[i], "metric") == 0) {
			json_object_set_new(r, "metric", jint_or_null(w[++i]));
		} else if (strcmp(w[i], "mtu") == 0 ||
		    strcmp(w[i], "initcwnd") == 0 ||
		    strcmp(w[i], "initrwnd") == 0) {
			/* "mtu lock 1400": the value follows the lock. */
			lock = strcmp(w[i + 1], "lock") == 0;
			if (lock && i + 2 >= n)
				break;
			json_object_set_new(r,
			    strcmp(w[i], "mtu") == 0 ? "route_mtu" : w[i],
			    jint_or_null(w[i + 1 + lock]));
			i += 1 + lock;
		}
	}
	probe_words_free(w);
}

/* /proc/net/route holds the gateway as hex of the address in memory order:
 * on little-endian hosts "0102000A" is 10.0.2.1. The probe runs there, and
 * both orders are plausible, so x86 and arm64 (little-endian) are assumed. */
static json_t *
procnet_gateway(const char *hex)
{
	unsigned long	v;
	char		*end, buf[32];

	if (hex == NULL)
		return json_null();
	v = strtoul(hex, &end, 16);
	if (*end != '\0' || strlen(hex) != 8)
		return json_null();
	if (v == 0)
		return json_null();
	snprintf(buf, sizeof buf, "%lu.%lu.%lu.%lu", v & 0xff,
	    (v >> 8) & 0xff, (v >> 16) & 0xff, (v >> 24) & 0xff);
	return jstr(buf);
}

/* Speed from ethtool's "Speed:" text or sysfs, in Mbit/s; drivers that know
 * no speed say "Unknown!", 0, -1 or SPEED_UNKNOWN as an unsigned number
 * (4294967295, or 65535 from old 16-bit interfaces). */
static void
parse_speed(const struct probe_section *link, json_t *r)
{
	const char	*raw, *src, *err, *serr;
	long long	 v;
	char		*end, *reason = NULL;
	json_t		*speed = json_null();

	err = get(link, "ethtool_error");
	if ((raw = get(link, "ethtool_speed")) != NULL)
		src = "ethtool";
	else if ((raw = get(link, "sysfs_speed")) != NULL)
		src = "sysfs";
	else
		src = NULL;

	if (raw != NULL) {
		errno = 0;
		v = strtoll(raw, &end, 10);
		if (end == raw || errno != 0 ||
		    (*end != '\0' && strcmp(end, "Mb/s") != 0))
			reason = xprintf("%s reports speed '%s'", src, raw);
		else if (v <= 0 || v == 65535 || v >= 4294967295LL)
			reason = xprintf("%s reports speed %s (none known)",
			    src, raw);
		else
			speed = json_integer(v);
	} else {
		serr = get(link, "sysfs_speed_error");
		if (err != NULL && serr != NULL)
			reason = xprintf("%s; %s", err, serr);
		else if (err != NULL)
			reason = xstrdup(err);
		else if (serr != NULL)
			reason = xstrdup(serr);
		else
			reason = xstrdup("no speed reported");
	}
	json_object_set_new(r, "speed_mbit", speed);
	json_object_set_new(r, "speed_source", jstr(src));
	json_object_set_new(r, "speed_reason", jstr(reason));
	free(reason);

	/* "Full", "Half", "Unknown! (255)"; sysfs "full", "half", "unknown". */
	raw = get(link, "ethtool_duplex");
	if (raw == NULL)
		raw = get(link, "sysfs_duplex");
	if (raw != NULL && strcasecmp(raw, "full") == 0)
		json_object_set_new(r, "duplex", jstr("full"));
	else if (raw != NULL && strcasecmp(raw, "half") == 0)
		json_object_set_new(r, "duplex", jstr("half"));
	else
		json_object_set_new(r, "duplex", json_null());
}

/* The live qdiscs from `tc qdisc show dev IF` lines: the root one, and the
 * others (an mq root's per-queue children; ingress/clsact are left out as
 * they shape nothing we send). */
static void
parse_qdisc(const struct probe_section *link, json_t *r)
{
	json_t	*root = NULL, *children, *c;
	char	**w;
	size_t	  i, j, n;
	const char *err = NULL;

	children = json_array();
	for (i = 0; link != NULL && i < link->n; i++) {
		if (strcmp(link->kv[i].key, "tc_error") == 0 && err == NULL)
			err = link->kv[i].value;
		if (strcmp(link->kv[i].key, "qdisc") != 0)
			continue;
		w = probe_words(link->kv[i].value, &n);
		if (n < 4 || strcmp(w[0], "qdisc") != 0) {
			probe_words_free(w);
			continue;
		}
		if (strcmp(w[1], "ingress") == 0 ||
		    strcmp(w[1], "clsact") == 0) {
			probe_words_free(w);
			continue;
		}
		c = json_object();
		json_object_set_new(c, "kind", jstr(w[1]));
		json_object_set_new(c, "handle", jstr(w[2]));
		if (strcmp(w[3], "root") == 0 && root == NULL) {
			root = c;
		} else {
			for (j = 3; j + 1 < n; j++) {
				if (strcmp(w[j], "parent") == 0) {
					json_object_set_new(c, "parent",
					    jstr(w[j + 1]));
					break;
				}
			}
			json_array_append_new(children, c);
		}
		probe_words_free(w);
	}
	if (root != NULL) {
		json_object_set_new(root, "mq", json_boolean(strcmp(
		    json_string_value(json_object_get(root, "kind")),
		    "mq") == 0));
		json_object_set_new(root, "children", children);
		json_object_set_new(r, "qdisc", root);
		json_object_set_new(r, "qdisc_reason", json_null());
	} else {
		json_decref(children);
		json_object_set_new(r, "qdisc", json_null());
		json_object_set_new(r, "qdisc_reason",
		    jstr(err != NULL ? err : "tc showed no root qdisc"));
	}
}

/* What the probe shows of an interface (its @link section): MTU, state,
 * speed, the live qdisc tree and the tx queue count. */
static void
parse_link(const struct probe_section *link, json_t *r)
{
	json_object_set_new(r, "mtu", jint_or_null(get(link, "mtu")));
	json_object_set_new(r, "operstate", jstr(get(link, "operstate")));
	parse_speed(link, r);
	parse_qdisc(link, r);
	json_object_set_new(r, "tx_queues",
	    jint_or_null(get(link, "tx_queues")));
}

static void
parse_route(const struct probe_out *po, json_t *facts)
{
	const struct probe_section	*rt;
	const char			*ifc, *line;
	json_t				*r;
	char				**w;
	size_t				  n;

	rt = find_section(po, "route", NULL);
	ifc = get(rt, "interface");
	if (ifc == NULL) {
		json_object_set_new(facts, "default_route", json_null());
		json_object_set_new(facts, "default_route_reason",
		    jstr(get(rt, "ip_error") != NULL ?
		    "ip not installed and no default route in /proc/net/route" :
		    "no default route"));
		return;
	}
	r = json_object();
	json_object_set_new(r, "interface", jstr(ifc));
	json_object_set_new(r, "family", jstr(get(rt, "family")));
	json_object_set_new(r, "gateway", json_null());
	json_object_set_new(r, "proto", json_null());
	json_object_set_new(r, "metric", json_null());
	json_object_set_new(r, "route_mtu", json_null());
	json_object_set_new(r, "initcwnd", json_null());
	json_object_set_new(r, "initrwnd", json_null());
	if ((line = get(rt, "line")) != NULL) {
		parse_route_line(line, r);
		json_object_set_new(r, "options_reason", json_null());
	} else {
		/* Iface Destination Gateway Flags RefCnt Use Metric ... */
		w = probe_words(get(rt, "procnet"), &n);
		if (n > 6) {
			json_object_set_new(r, "gateway",
			    procnet_gateway(w[2]));
			json_object_set_new(r, "metric", jint_or_null(w[6]));
		}
		probe_words_free(w);
		json_object_set_new(r, "options_reason",
		    jstr(get(rt, "ip_error")));
	}

	parse_link(find_section(po, "link", ifc), r);
	/* the kernel's IPv4 route out (`ip route get 8.8.8.8`): its source
	 * address is Ansible's default_ipv4.address */
	if ((line = get(rt, "get4")) != NULL && *line != '\0') {
		json_t *g = json_object();

		probe_route_get_parse(line, g);
		json_object_set_new(r, "ipv4", g);
	}
	json_object_set_new(facts, "default_route", r);
	json_object_set_new(facts, "default_route_reason", json_null());
}

/* ---- the route to each target, and every interface the traffic leaves by */

/* A route get line: "198.18.1.12 via 198.18.0.1 dev eth1 table 100 src
 * 198.18.1.11 uid 0 \ cache", or "local ADDR dev lo table local src ..."
 * (a type word first: local, broadcast, multicast; unicast is unnamed). */
void
probe_route_get_parse(const char *line, json_t *r)
{
	static const char *const types[] = { "local", "broadcast",
	    "multicast", "anycast", "unicast", NULL };
	char	**w;
	size_t	  i, j, n;

	json_object_set_new(r, "interface", json_null());
	json_object_set_new(r, "source", json_null());
	json_object_set_new(r, "gateway", json_null());
	json_object_set_new(r, "table", json_null());
	json_object_set_new(r, "type", jstr("unicast"));
	w = probe_words(line, &n);
	for (j = 0; n > 0 && types[j] != NULL; j++) {
		if (strcmp(w[0], types[j]) == 0)
			json_object_set_new(r, "type", jstr(w[0]));
	}
	for (i = 0; i + 1 < n; i++) {
		const char *k = strcmp(w[i], "dev") == 0 ? "interface" :
		    strcmp(w[i], "src") == 0 ? "source" :
		    /* the second lookup's line, made from the source */
		    strcmp(w[i], "from") == 0 ? "source" :
		    strcmp(w[i], "via") == 0 ? "gateway" :
		    strcmp(w[i], "table") == 0 ? "table" : NULL;

		if (k == NULL || !json_is_null(json_object_get(r, k)))
			continue;
		/* "via inet6 ADDR" for a gateway of the other family */
		if (strcmp(k, "gateway") == 0 && i + 2 < n &&
		    (strcmp(w[i + 1], "inet") == 0 ||
		    strcmp(w[i + 1], "inet6") == 0))
			i++;
		json_object_set_new(r, k, jstr(w[++i]));
	}
	probe_words_free(w);
}

static void
parse_routes(const struct probe_out *po, json_t *facts)
{
	json_t	*routes = json_object(), *ifs = json_object(), *r, *l;
	const char *dflt = json_string_value(json_object_get(
	    json_object_get(facts, "default_route"), "interface"));
	size_t	 i;

	for (i = 0; i < po->n; i++) {
		const struct probe_section *sec = &po->s[i];
		const char *line, *err;

		if (sec->arg == NULL)
			continue;
		if (strcmp(sec->name, "link") == 0) {
			l = json_object();
			parse_link(sec, l);
			json_object_set_new(l, "default_route", json_boolean(
			    dflt != NULL && strcmp(dflt, sec->arg) == 0));
			json_object_set_new(ifs, sec->arg, l);
			continue;
		}
		if (strcmp(sec->name, "via") != 0)
			continue;
		r = json_object();
		line = get(sec, "line");
		err = get(sec, "error");
		if (line != NULL && err == NULL) {
			probe_route_get_parse(line, r);
			json_object_set_new(r, "line", jstr(line));
			json_object_set_new(r, "reason", json_null());
		} else {
			json_object_set_new(r, "interface", json_null());
			json_object_set_new(r, "reason", jstr(err != NULL ?
			    err : "ip route get printed no route"));
		}
		json_object_set_new(r, "address", jstr(get(sec, "address") ?:
		    sec->arg));
		json_object_set_new(routes, sec->arg, r);
	}
	json_object_set_new(facts, "routes", routes);
	json_object_set_new(facts, "interfaces", ifs);
}

/* ---- memory */

static void
parse_memory(const struct probe_out *po, json_t *facts)
{
	long long	kb;
	int		ok;

	kb = parse_ll(get(find_section(po, "memory", NULL), "mem_total_kb"),
	    &ok);
	json_object_set_new(facts, "mem_total_bytes",
	    ok ? json_integer(kb * 1024) : json_null());
}

/* ---- sysctls and the sysctl.d files */

/* Build the sysctl.d model from the sysctl_file sections; the JSON list of
 * files (in the order probed) goes to files. What applies them at boot goes
 * to facts: under systemd, systemd-sysctl reads the drop-in directories
 * only, so /etc/sysctl.conf (a file outside them) is not part of the model
 * and is listed in sysctl_skipped instead; procps' `sysctl --system` (no
 * systemd, or an older probe that did not say) reads it last. */
static void
parse_sysctld(const struct probe_out *po, struct sysctld_set *set,
    json_t *files, json_t *facts)
{
	const struct probe_section	*sec;
	struct sysctld_file		*f;
	const char			*dir, *link, *sd;
	json_t				*jf, *entries, *errors, *je, *skipped;
	char				*cause;
	size_t				 i, j;
	int				 systemd;

	sd = get(find_section(po, "sysctl_boot", NULL), "systemd");
	systemd = sd != NULL && strcmp(sd, "1") == 0;
	json_object_set_new(facts, "sysctl_boot", jstr(sd == NULL ? NULL :
	    systemd ? "systemd-sysctl" : "sysctl --system"));
	skipped = json_array();
	for (i = 0; i < po->n; i++) {
		sec = &po->s[i];
		if (strcmp(sec->name, "sysctl_file") != 0 || sec->arg == NULL)
			continue;
		dir = get(sec, "dir");
		if (systemd && (dir == NULL || *dir == '\0')) {
			json_array_append_new(skipped, jstr(sec->arg));
			continue;
		}
		f = sysctld_add_file(set, sec->arg,
		    dir != NULL && *dir != '\0' ? dir : NULL);
		errors = json_array();
		for (j = 0; j < sec->n; j++) {
			if (strcmp(sec->kv[j].key, "line") != 0)
				continue;
			if (sysctld_add_line(f, sec->kv[j].value,
			    &cause) != 0) {
				json_array_append_new(errors, jstr(cause));
				free(cause);
			}
		}
		if (get(sec, "error") != NULL)
			json_array_append_new(errors, jstr(get(sec, "error")));

		entries = json_array();
		for (j = 0; j < f->n; j++) {
			je = json_object();
			json_object_set_new(je, "key", jstr(f->entries[j].key));
			json_object_set_new(je, "value",
			    jstr(f->entries[j].value));
			json_object_set_new(je, "ignore_errors",
			    json_boolean(f->entries[j].ignore_errors));
			json_array_append_new(entries, je);
		}
		jf = json_object();
		json_object_set_new(jf, "path", jstr(f->path));
		json_object_set_new(jf, "dir", jstr(f->dir));
		link = get(sec, "link");
		json_object_set_new(jf, "link", jstr(link));
		json_object_set_new(jf, "entries", entries);
		json_object_set_new(jf, "errors", errors);
		json_array_append_new(files, jf);
	}
	json_object_set_new(facts, "sysctl_skipped", skipped);
}

/* The mode of path from the `ls -lnd` lines, as "0644", or NULL. */
static char *
sysctl_mode(const struct probe_section *modes, const char *path)
{
	const char	*v, *sp;
	size_t		 i, plen = strlen(path), vlen;
	unsigned	 mode = 0;
	int		 k;

	for (i = 0; modes != NULL && i < modes->n; i++) {
		if (strcmp(modes->kv[i].key, "ls") != 0)
			continue;
		v = modes->kv[i].value;
		vlen = strlen(v);
		if (vlen <= plen + 1 || strcmp(v + vlen - plen, path) != 0 ||
		    v[vlen - plen - 1] != ' ')
			continue;
		sp = strchr(v, ' ');
		if (sp == NULL || sp - v < 10)
			return NULL;
		/* "-rw-r--r--": bits 1..9 are rwx for user, group, other. */
		for (k = 1; k <= 9; k++) {
			mode <<= 1;
			if (v[k] != '-')
				mode |= 1;
		}
		return xprintf("%04o", mode);
	}
	return NULL;
}

static void
parse_sysctls(const struct probe_out *po, json_t *facts)
{
	const struct probe_section	*sec, *modes, *self;
	const struct sysctld_file	**order, **masks;
	struct sysctld_set		  set;
	const char			 *file, *value, *w;
	json_t				 *all, *s, *files, *jorder, *jf;
	char				 *path, *mode, *p;
	size_t				  i, n;
	long long			  uid;
	int				  ok, ro_mount, writable;

	self = find_section(po, "probe", NULL);
	uid = parse_ll(get(self, "uid"), &ok);
	if (!ok)
		uid = -1;
	modes = find_section(po, "sysctl_modes", NULL);
	ro_mount = get(modes, "ro_mount") != NULL;

	sysctld_init(&set);
	files = json_array();
	parse_sysctld(po, &set, files, facts);

	all = json_object();
	for (i = 0; i < sizeof probe_sysctls / sizeof probe_sysctls[0]; i++) {
		sec = find_section(po, "sysctl", probe_sysctls[i]);
		s = json_object();
		if (sec == NULL) {
			json_object_set_new(s, "present", json_null());
			json_object_set_new(s, "value", json_null());
			json_object_set_new(s, "writable", json_null());
			json_object_set_new(s, "mode", json_null());
		} else if (get(sec, "present") == NULL ||
		    strcmp(get(sec, "present"), "1") != 0) {
			json_object_set_new(s, "present", json_false());
			json_object_set_new(s, "value", json_null());
			json_object_set_new(s, "writable", json_false());
			json_object_set_new(s, "mode", json_null());
		} else {
			json_object_set_new(s, "present", json_true());
			json_object_set_new(s, "value", jstr(get(sec, "value")));
			path = xprintf("/proc/sys/%s", probe_sysctls[i]);
			for (p = path + 10; *p != '\0'; p++) {
				if (*p == '.')
					*p = '/';
			}
			mode = sysctl_mode(modes, path);
			free(path);
			/* As root, access(2) is the answer. Otherwise, say
			 * what root could do: the file's owner (root) has
			 * write permission and /proc/sys is not mounted
			 * read-only. */
			w = get(sec, "w");
			if (uid == 0 || mode == NULL)
				writable = w != NULL && strcmp(w, "1") == 0;
			else
				writable = (strtoul(mode, NULL, 8) & 0200) &&
				    !ro_mount;
			json_object_set_new(s, "writable",
			    json_boolean(writable));
			json_object_set_new(s, "mode", jstr(mode));
			free(mode);
		}
		if (sysctld_winner(&set, probe_sysctls[i], &file, &value)) {
			json_object_set_new(s, "file", jstr(file));
			json_object_set_new(s, "file_value", jstr(value));
		} else {
			json_object_set_new(s, "file", json_null());
			json_object_set_new(s, "file_value", json_null());
		}
		json_object_set_new(all, probe_sysctls[i], s);
	}
	json_object_set_new(facts, "sysctl", all);

	/* Which files are masked, and the order the rest apply in. */
	masks = xcalloc(set.n + 1, sizeof *masks);
	sysctld_masks(&set, masks);
	for (i = 0; i < set.n; i++) {
		jf = json_array_get(files, i);
		json_object_set_new(jf, "masked_by",
		    jstr(masks[i] != NULL ? masks[i]->path : NULL));
	}
	free(masks);
	order = sysctld_order(&set, &n);
	jorder = json_array();
	for (i = 0; i < n; i++)
		json_array_append_new(jorder, jstr(order[i]->path));
	free(order);
	json_object_set_new(facts, "sysctl_files", files);
	json_object_set_new(facts, "sysctl_order", jorder);
	json_object_set_new(facts, "sysctl_readonly_mount",
	    json_boolean(ro_mount));
	sysctld_free(&set);
}

static void
parse_tuned(const struct probe_out *po, json_t *facts)
{
	const char	*state;

	state = get(find_section(po, "tuned", NULL), "state");
	json_object_set_new(facts, "tuned", jstr(state));
	if (state == NULL || *state == '\0')
		json_object_set_new(facts, "tuned_active", json_null());
	else
		json_object_set_new(facts, "tuned_active",
		    json_boolean(strcmp(state, "active") == 0));
}

/* ---- RTT */

/* Set min/avg/max from "rtt min/avg/max/mdev = 0.025/0.040/0.048/0.010 ms"
 * (iputils) or "round-trip min/avg/max = 0.1/0.2/0.3 ms" (busybox). */
static int
parse_ping(const char *line, json_t *r)
{
	const char	*p;
	double		 v[3];
	char		*end;
	int		 i;

	if ((p = strchr(line, '=')) == NULL)
		return -1;
	p++;
	for (i = 0; i < 3; i++) {
		errno = 0;
		v[i] = strtod(p, &end);
		if (end == p || errno != 0)
			return -1;
		p = end;
		while (isspace((unsigned char)*p))
			p++;
		if (i < 2 && *p++ != '/')
			return -1;
	}
	json_object_set_new(r, "min_ms", json_real(v[0]));
	json_object_set_new(r, "avg_ms", json_real(v[1]));
	json_object_set_new(r, "max_ms", json_real(v[2]));
	return 0;
}

/* "ok 105 96 99" or "refused 357 73 63": connect() times in microseconds. */
static int
parse_tcp(const char *line, json_t *r)
{
	char		**w;
	size_t		  i, n;
	long long	  v, min = 0, max = 0, sum = 0;
	int		  ok, r_ = -1;

	w = probe_words(line, &n);
	if (n < 2)
		goto out;
	for (i = 1; i < n; i++) {
		v = parse_ll(w[i], &ok);
		if (!ok || v < 0)
			goto out;
		if (i == 1 || v < min)
			min = v;
		if (i == 1 || v > max)
			max = v;
		sum += v;
	}
	json_object_set_new(r, "min_ms", json_real(min / 1000.0));
	json_object_set_new(r, "avg_ms", json_real(sum / 1000.0 / (n - 1)));
	json_object_set_new(r, "max_ms", json_real(max / 1000.0));
	json_object_set_new(r, "tcp_result", jstr(w[0]));
	r_ = 0;
out:
	probe_words_free(w);
	return r_;
}

static void
parse_rtt(const struct probe_out *po, json_t *facts)
{
	const struct probe_section	*sec;
	const char			*v, *perr, *terr, *loss;
	json_t				*all, *r;
	char				*reason;
	double				 pct;
	size_t				 i;

	all = json_object();
	for (i = 0; i < po->n; i++) {
		sec = &po->s[i];
		if (strcmp(sec->name, "rtt") != 0 || sec->arg == NULL)
			continue;
		r = json_object();
		json_object_set_new(r, "method", json_null());
		json_object_set_new(r, "min_ms", json_null());
		json_object_set_new(r, "avg_ms", json_null());
		json_object_set_new(r, "max_ms", json_null());
		json_object_set_new(r, "ping_loss_pct", json_null());
		json_object_set_new(r, "tcp_result", json_null());
		if ((loss = get(sec, "loss")) != NULL &&
		    (v = strstr(loss, "% packet loss")) != NULL) {
			while (v > loss && (isdigit((unsigned char)v[-1]) ||
			    v[-1] == '.'))
				v--;
			pct = strtod(v, NULL);
			json_object_set_new(r, "ping_loss_pct",
			    json_real(pct));
		}
		perr = get(sec, "ping_error");
		terr = get(sec, "tcp_error");
		reason = NULL;
		if ((v = get(sec, "ping")) != NULL && parse_ping(v, r) == 0)
			json_object_set_new(r, "method", jstr("ping"));
		else if ((v = get(sec, "tcp")) != NULL && parse_tcp(v, r) == 0)
			json_object_set_new(r, "method", jstr("tcp"));
		else if (perr != NULL && terr != NULL)
			reason = xprintf("ping: %s; tcp port 22: %s", perr,
			    terr);
		else if (perr != NULL || terr != NULL)
			reason = xstrdup(perr != NULL ? perr : terr);
		else
			reason = xstrdup("no measurement in probe output");
		/* Why ping was not used, even when tcp was. */
		json_object_set_new(r, "ping_error", jstr(perr));
		json_object_set_new(r, "reason", jstr(reason));
		free(reason);
		json_object_set_new(all, sec->arg, r);
	}
	json_object_set_new(facts, "rtt", all);
}

/* The managed drop-in as the probe saw it (DROPIN): its path, whether it
 * exists, and its whole text, as apply.sh's check mode would read it. */
static void
parse_dropin(const struct probe_out *po, json_t *facts)
{
	const struct probe_section	*sec;
	struct strbuf			 text;
	const char			*err, *exists;
	size_t				 i;
	int				 nonl = 0;

	if ((sec = find_section(po, "dropin", NULL)) == NULL ||
	    sec->arg == NULL)
		return;
	if ((err = get(sec, "error")) != NULL) {
		json_object_set_new(facts, "dropin", json_pack("{s:s, s:s}",
		    "path", sec->arg, "error", err));
		return;
	}
	if ((exists = get(sec, "exists")) == NULL ||
	    strcmp(exists, "1") != 0) {
		json_object_set_new(facts, "dropin", json_pack("{s:s, s:b, "
		    "s:n}", "path", sec->arg, "exists", 0, "text"));
		return;
	}
	strbuf_init(&text);
	for (i = 0; i < sec->n; i++) {
		if (strcmp(sec->kv[i].key, "line") == 0) {
			strbuf_addstr(&text, sec->kv[i].value);
			strbuf_addch(&text, '\n');
		} else if (strcmp(sec->kv[i].key, "no_newline") == 0)
			nonl = 1;
	}
	if (nonl && text.len > 0)
		text.buf[--text.len] = '\0';
	json_object_set_new(facts, "dropin", json_pack("{s:s, s:b, s:s}",
	    "path", sec->arg, "exists", 1, "text", text.buf));
	strbuf_release(&text);
}

json_t *
probe_parse(const char *out, size_t len, char **cause)
{
	struct probe_out	 po;
	json_t			*facts = NULL;
	const char		*cc;
	long long		 uid;
	int			 ok;

	if (out_split(out, len, &po, cause) != 0)
		goto out;

	facts = json_object();
	json_object_set_new(facts, "probe_version",
	    json_integer(PROBE_FORMAT_VERSION));
	uid = parse_ll(get(find_section(&po, "probe", NULL), "uid"), &ok);
	json_object_set_new(facts, "uid", ok ? json_integer(uid) :
	    json_null());
	parse_system(&po, facts);
	cc = get(find_section(&po, "congestion", NULL), "available");
	parse_config(&po, facts, cc);
	parse_congestion(&po, facts);
	parse_route(&po, facts);
	parse_routes(&po, facts);
	parse_memory(&po, facts);
	parse_sysctls(&po, facts);
	/* Handy at top level: the key is absent in child namespaces. */
	json_object_set(facts, "default_qdisc", json_object_get(
	    json_object_get(json_object_get(facts, "sysctl"),
	    "net.core.default_qdisc"), "value"));
	parse_tuned(&po, facts);
	parse_dropin(&po, facts);
	parse_rtt(&po, facts);
	parse_setup_raw(&po, facts);
out:
	out_free(&po);
	return facts;
}
