/* Ansible's env, pkg_mgr, lsb and mounts facts (ansible-host.h) as
 * ansible-core 2.14's system/env.py, system/pkg_mgr.py, system/lsb.py and
 * hardware/linux.py (get_mount_facts) compute them, from the probe's raw
 * inputs (probe.c's setup_raw). The local facts: ansible-local.c. */
#include "remote/ansible-host.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/strbuf.h"
#include "base/xalloc.h"
#include "remote/probe.h"

static const char *
str(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

/* lines (a JSON array of strings) joined by newlines, allocated. */
char *
ansible_join_lines(const json_t *lines)
{
	struct strbuf	 sb;
	const json_t	*l;
	size_t		 i;

	strbuf_init(&sb);
	json_array_foreach(lines, i, l) {
		if (i > 0)
			strbuf_addch(&sb, '\n');
		strbuf_addstr(&sb, json_string_value(l) != NULL ?
		    json_string_value(l) : "");
	}
	return strbuf_detach(&sb, NULL);
}

/* One quoted word of `export -p` at *pp (dash and ash: 'v' and '\'' for a
 * quote; bash: "v" with \ before " \ $ `) into sb, *pp moved past it. */
static void
export_value(const char **pp, struct strbuf *sb)
{
	const char *p = *pp;

	while (*p == '\'' || *p == '"' || (*p == '\\' && p[1] != '\0')) {
		if (*p == '\\') {
			strbuf_addch(sb, p[1]);
			p += 2;
		} else if (*p++ == '\'') {
			while (*p != '\0' && *p != '\'')
				strbuf_addch(sb, *p++);
			p += *p != '\0';
		} else {
			while (*p != '\0' && *p != '"') {
				if (*p == '\\' && strchr("\"\\$`", p[1]) != NULL &&
				    p[1] != '\0')
					p++;
				strbuf_addch(sb, *p++);
			}
			p += *p != '\0';
		}
	}
	/* an unquoted rest, to the end of the line */
	while (*p != '\0' && *p != '\n')
		strbuf_addch(sb, *p++);
	*pp = p;
}

/* What tcptune's own command line and prelude set (lib/remote/
 * prelude.sh): left out, or the value they replaced (saved = "x" and the
 * value; "" for unset). */
static int
env_own(const char *name, const json_t *raw, json_t *env)
{
	static const char *const own[] = { "TCPTUNE_TEST_ROOT", "TARGETS",
	    "ONLY", "DROPIN", "LINKS", NULL };
	static const char *const saved[][2] = { { "PATH", "env_path" },
	    { "LC_ALL", "env_lc_all" }, { "OLDPWD", "env_oldpwd" } };
	const char	*v;
	size_t		 i;

	for (i = 0; own[i] != NULL; i++) {
		if (strcmp(own[i], name) == 0)
			return 1;
	}
	for (i = 0; i < sizeof saved / sizeof *saved; i++) {
		if (strcmp(saved[i][0], name) != 0)
			continue;
		v = str(raw, saved[i][1]);
		/* PATH is saved as it was (unset reads as "") */
		if (i == 0 && v != NULL && *v != '\0')
			json_object_set_new(env, name, json_string(v));
		else if (i > 0 && v != NULL && *v == 'x')
			json_object_set_new(env, name, json_string(v + 1));
		return 1;
	}
	return 0;
}

/* env.py: os.environ, read from the shell's `export -p`. */
static json_t *
env_facts(const json_t *raw)
{
	json_t		*env = json_object(), *v;
	char		*text = ansible_join_lines(json_object_get(raw, "env"));
	char		*name;
	const char	*p = text, *n;
	struct strbuf	 sb;

	while (*p != '\0') {
		if (strncmp(p, "export ", 7) == 0)
			p += 7;
		else if (strncmp(p, "declare -", 9) == 0 &&
		    (n = strchr(p + 9, ' ')) != NULL && memchr(p + 9, 'x',
		    (size_t)(n - p - 9)) != NULL)
			p = n + 1;
		else {
			p += strcspn(p, "\n");
			p += *p != '\0';
			continue;
		}
		n = p + strcspn(p, "=\n");
		name = xstrndup(p, (size_t)(n - p));
		p = n;
		if (*p == '=') {
			p++;
			strbuf_init(&sb);
			export_value(&p, &sb);
			if (!env_own(name, raw, env) &&
			    (v = json_string(sb.buf != NULL ? sb.buf : "")) !=
			    NULL)
				json_object_set_new(env, name, v);
			strbuf_release(&sb);
		}
		free(name);
		p += strcspn(p, "\n");
		p += *p != '\0';
	}
	free(text);
	return env;
}

/* PKG_MGRS of pkg_mgr.py, in its order. */
static const char *const pkg_mgrs[][2] = {
	{ "/usr/bin/rpm-ostree", "atomic_container" },
	{ "/usr/bin/yum", "yum" }, { "/usr/bin/dnf", "dnf" },
	{ "/usr/bin/apt-get", "apt" }, { "/usr/bin/zypper", "zypper" },
	{ "/usr/sbin/urpmi", "urpmi" }, { "/usr/bin/pacman", "pacman" },
	{ "/bin/opkg", "opkg" }, { "/usr/pkg/bin/pkgin", "pkgin" },
	{ "/opt/local/bin/pkgin", "pkgin" }, { "/opt/tools/bin/pkgin", "pkgin" },
	{ "/opt/local/bin/port", "macports" },
	{ "/usr/local/bin/brew", "homebrew" },
	{ "/opt/homebrew/bin/brew", "homebrew" }, { "/sbin/apk", "apk" },
	{ "/usr/sbin/pkg", "pkgng" }, { "/usr/sbin/swlist", "swdepot" },
	{ "/usr/bin/emerge", "portage" }, { "/usr/sbin/pkgadd", "svr4pkg" },
	{ "/usr/bin/pkg", "pkg5" }, { "/usr/bin/xbps-install", "xbps" },
	{ "/usr/local/sbin/pkg", "pkgng" }, { "/usr/bin/swupd", "swupd" },
	{ "/usr/sbin/sorcery", "sorcery" }, { "/usr/bin/installp", "installp" },
	{ "/QOpenSys/pkgs/bin/yum", "yum" },
};

/* The path exists on the host (the probe's pkg list). */
static int
exists(const json_t *raw, const char *path)
{
	const json_t	*v;
	size_t		 i;

	json_array_foreach(json_object_get(raw, "pkg"), i, v) {
		if (strcmp(json_string_value(v), path) == 0)
			return 1;
	}
	return 0;
}

/* _pkg_mgr_exists: name, when one of its paths exists. */
static const char *
mgr_exists(const json_t *raw, const char *name, const char *dflt)
{
	size_t i;

	for (i = 0; i < sizeof pkg_mgrs / sizeof *pkg_mgrs; i++) {
		if (strcmp(pkg_mgrs[i][1], name) == 0 &&
		    exists(raw, pkg_mgrs[i][0]))
			return name;
	}
	return dflt;
}

/* int(s), or 0 with *ok 0 (Python's ValueError). */
static long
py_int(const char *s, int *ok)
{
	char	*end;
	long	 v;

	errno = 0;
	v = s != NULL ? strtol(s, &end, 10) : 0;
	*ok = s != NULL && *s != '\0' && errno == 0 && *end == '\0';
	return v;
}

/* _check_rh_versions */
static const char *
rh_versions(const json_t *raw, const json_t *out, const char *name)
{
	const char	*dist = str(out, "distribution");
	int		 ok;
	long		 major = py_int(str(out, "distribution_major_version"),
	    &ok);

	if (exists(raw, "/run/ostree-booted"))
		return "atomic_container";
	if (strcmp(dist, "Fedora") == 0 || strcmp(dist, "Amazon") == 0) {
		if (!ok)
			return "dnf";
		if (major < (strcmp(dist, "Fedora") == 0 ? 23 : 2022))
			return mgr_exists(raw, "yum", name);
		return mgr_exists(raw, "dnf", name);
	}
	return ok && major < 8 ? "yum" : "dnf";
}

/* PkgMgrFactCollector.collect. With /usr/bin/rpm, setup asks rpm whether
 * it owns /usr/bin/apt-get (APT-RPM); tcptune runs no rpm and says apt,
 * as on Debian with rpm installed. */
static const char *
pkg_mgr(const json_t *raw, const json_t *out)
{
	const char	*family = str(out, "os_family"), *name = "unknown";
	int		 alt = family != NULL && strcmp(family, "Altlinux") == 0;
	size_t		 i;

	for (i = 0; i < sizeof pkg_mgrs / sizeof *pkg_mgrs; i++) {
		if (alt && strcmp(pkg_mgrs[i][0], "/usr/bin/pkg") == 0)
			continue;
		if (exists(raw, pkg_mgrs[i][0]))
			name = pkg_mgrs[i][1];
	}
	if (family == NULL)
		return name;
	if (strcmp(family, "RedHat") == 0)
		name = rh_versions(raw, out, name);
	else if (strcmp(family, "Debian") == 0 && strcmp(name, "apt") != 0)
		name = "apt";
	else if (alt && strcmp(name, "apt") == 0)
		name = "apt_rpm";
	return name;
}

/* v stripped of blanks at both ends, then of chars at both ends. */
static char *
strip(const char *v, const char *chars)
{
	size_t n;

	while (*v != '\0' && strchr(chars, *v) != NULL)
		v++;
	n = strlen(v);
	while (n > 0 && strchr(chars, v[n - 1]) != NULL)
		n--;
	return xstrndup(v, n);
}

static void
set_stripped(json_t *o, const char *key, const char *v)
{
	char *s = strip(v, " \t\n\r\f\v");

	json_object_set_new(o, key, json_string(s));
	free(s);
}

/* lsb.py. With lsb_release, what Debian 12's (lsb-release-minimal, a
 * script over os-release) prints for -a: ID capitalised (NAME when it is
 * ID in another case), PRETTY_NAME, VERSION_ID, VERSION_CODENAME, n/a
 * for a missing one; else /etc/lsb-release's DISTRIB_* lines. */
static json_t *
lsb_facts(const json_t *facts, const json_t *raw)
{
	const json_t	*d = json_object_get(facts, "distribution"), *l;
	json_t		*o = json_object(), *v;
	const char	*id = str(d, "id"), *name = str(d, "name"), *line;
	const char	*eq, *key, *val;
	char		*cap, *rel;
	size_t		 i;

	if (json_is_true(json_object_get(raw, "lsb_release"))) {
		cap = xstrdup(id != NULL ? id : "");
		if (cap[0] >= 'a' && cap[0] <= 'z')
			cap[0] = (char)(cap[0] - 'a' + 'A');
		if (name != NULL && strcasecmp(name, cap) == 0) {
			free(cap);
			cap = xstrdup(name);
		}
		set_stripped(o, "id", *cap != '\0' ? cap : "n/a");
		free(cap);
		set_stripped(o, "description", str(d, "pretty_name") != NULL &&
		    *str(d, "pretty_name") != '\0' ? str(d, "pretty_name") :
		    "n/a");
		set_stripped(o, "release", str(d, "version_id") != NULL &&
		    *str(d, "version_id") != '\0' ? str(d, "version_id") :
		    "n/a");
		set_stripped(o, "codename", str(d, "codename") != NULL &&
		    *str(d, "codename") != '\0' ? str(d, "codename") : "n/a");
	} else {
		json_array_foreach(json_object_get(raw, "lsb"), i, l) {
			line = json_string_value(l);
			if ((eq = strchr(line, '=')) == NULL)
				continue;
			val = eq + 1;
			key = strstr(line, "DISTRIB_ID") != NULL ? "id" :
			    strstr(line, "DISTRIB_RELEASE") != NULL ? "release" :
			    strstr(line, "DISTRIB_DESCRIPTION") != NULL ?
			    "description" : strstr(line, "DISTRIB_CODENAME") !=
			    NULL ? "codename" : NULL;
			if (key != NULL)
				set_stripped(o, key, val);
		}
	}
	if ((v = json_object_get(o, "release")) != NULL) {
		rel = xstrndup(json_string_value(v),
		    strcspn(json_string_value(v), "."));
		json_object_set_new(o, "major_release", json_string(rel));
		free(rel);
	}
	/* STRIP_QUOTES */
	json_object_foreach(o, key, v) {
		if (*json_string_value(v) != '\0') {
			cap = strip(json_string_value(v), "'\"\\");
			json_object_set_new(o, key, json_string(cap));
			free(cap);
		}
	}
	return o;
}

/* _replace_octal_escapes: \NNN as its byte. */
static char *
octal_unescape(const char *s)
{
	struct strbuf	sb;

	strbuf_init(&sb);
	for (; *s != '\0'; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '9' && s[2] >= '0' &&
		    s[2] <= '9' && s[3] >= '0' && s[3] <= '9') {
			strbuf_addch(&sb, (char)((s[1] - '0') * 64 +
			    (s[2] - '0') * 8 + (s[3] - '0')));
			s += 3;
		} else
			strbuf_addch(&sb, *s);
	}
	strbuf_addstr(&sb, "");
	return strbuf_detach(&sb, NULL);
}

/* get_mount_facts without statvfs and lsblk: mount, device, fstype,
 * options (",bind" added to a bind mount: findmnt's [root], a root that
 * is not / in mountinfo; setup's test for one already marked never
 * matches). The probe lists only the mounts setup keeps. */
static json_t *
mount_facts(const json_t *raw)
{
	static const char *const keys[] = { "device", "mount", "fstype",
	    "options" };
	json_t		*mounts = json_array(), *m, *b;
	const json_t	*l;
	char		**w, *f, *opt;
	size_t		  i, j, k, n;

	json_array_foreach(json_object_get(raw, "mounts"), i, l) {
		w = probe_words(json_string_value(l), &n);
		if (n < 4) {
			probe_words_free(w);
			continue;
		}
		m = json_object();
		for (k = 0; k < 4; k++) {
			f = octal_unescape(w[k]);
			json_object_set_new(m, keys[k], json_string(f));
			free(f);
		}
		json_array_foreach(json_object_get(raw, "binds"), j, b) {
			if (strcmp(json_string_value(b), w[1]) != 0)
				continue;
			opt = xprintf("%s,bind", str(m, "options"));
			json_object_set_new(m, "options", json_string(opt));
			free(opt);
			break;
		}
		json_array_append_new(mounts, m);
		probe_words_free(w);
	}
	return mounts;
}

void
ansible_host_facts(const json_t *facts, json_t *out)
{
	const json_t *raw = json_object_get(facts, "setup_raw");

	if (raw == NULL)
		return;
	json_object_set_new(out, "env", env_facts(raw));
	json_object_set_new(out, "pkg_mgr", json_string(pkg_mgr(raw, out)));
	json_object_set_new(out, "lsb", lsb_facts(facts, raw));
	json_object_set_new(out, "mounts", mount_facts(raw));
	ansible_local_facts(raw, out);
}
