/* Settings: which value wins and where it came from.
 *
 * For each setting, as Ansible 2.14's ConfigManager does: the command line,
 * else the last set of its ANSIBLE_* variables, else the last of its
 * ansible.cfg keys present, else tcptune's default. Values from the file or
 * a variable that Ansible applies under the inventory's own (remote_user,
 * private_key_file, become, become_user) go to the cfg_* fields of struct
 * options, which the runner uses only where the host sets nothing. */
#include "settings.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "base/strbuf.h"
#include "base/util.h"
#include "remote/hostline.h"
#include "base/xalloc.h"

#define NO_FIELD	((size_t)-1)
#define AT(f)		offsetof(struct options, f)

/* ST_PATHSPEC: Ansible's pathspec, paths split on ':' (roles_path). */
enum stype { ST_INT, ST_BOOL, ST_STR, ST_PATH, ST_PATHSPEC };

struct ini_key {
	const char	*section;
	const char	*key;
};

/* A setting that maps onto one field of struct options. */
struct setting_def {
	const char		*name;
	enum stype		 type;
	struct ini_key		 ini[3];	/* lowest first: the last
						   present wins */
	const char		*env[3];	/* likewise */
	size_t			 cli;		/* given when non-zero */
	size_t			 target;	/* where the value goes */
	long long		 min, max;	/* ST_INT */
	const char		*choice;	/* ST_STR: the one value
						   tcptune can honour */
	int			 on_host;	/* ST_STR: goes into a command
						   on the host (hostline) */
	const char		*def;		/* tcptune's default, or NULL */
};

static const struct setting_def setting_defs[] = {
	{ .name = "remote_user", .type = ST_STR,
	  .ini = { { "defaults", "remote_user" } },
	  .env = { "ANSIBLE_REMOTE_USER" },
	  .cli = AT(user), .target = AT(cfg_user), .on_host = 1 },
	{ .name = "private_key_file", .type = ST_PATH,
	  .ini = { { "defaults", "private_key_file" } },
	  .env = { "ANSIBLE_PRIVATE_KEY_FILE" },
	  .cli = AT(private_key), .target = AT(cfg_private_key) },
	{ .name = "forks", .type = ST_INT,
	  .ini = { { "defaults", "forks" } }, .env = { "ANSIBLE_FORKS" },
	  .cli = AT(forks), .target = AT(forks), .min = 1, .max = 1000,
	  .def = "50" },
	{ .name = "timeout", .type = ST_INT,
	  .ini = { { "defaults", "timeout" }, { "ssh_connection", "timeout" } },
	  .env = { "ANSIBLE_TIMEOUT", "ANSIBLE_SSH_TIMEOUT" },
	  .cli = AT(timeout), .target = AT(timeout), .min = 1, .max = 3600,
	  .def = "10" },
	{ .name = "command_timeout", .type = ST_INT,
	  .cli = AT(command_timeout), .target = AT(command_timeout),
	  .min = 1, .max = 86400, .def = "120" },
	{ .name = "become", .type = ST_BOOL,
	  .ini = { { "privilege_escalation", "become" } },
	  .env = { "ANSIBLE_BECOME" },
	  .cli = AT(become), .target = AT(cfg_become), .def = "no" },
	{ .name = "become_user", .type = ST_STR,
	  .ini = { { "privilege_escalation", "become_user" } },
	  .env = { "ANSIBLE_BECOME_USER" },
	  .cli = AT(become_user), .target = AT(become_user), .def = "root",
	  .on_host = 1 },
	{ .name = "become_method", .type = ST_STR,
	  .ini = { { "privilege_escalation", "become_method" } },
	  .env = { "ANSIBLE_BECOME_METHOD" },
	  .cli = NO_FIELD, .target = NO_FIELD, .choice = "sudo",
	  .def = "sudo" },
	{ .name = "become_ask_pass", .type = ST_BOOL,
	  .ini = { { "privilege_escalation", "become_ask_pass" } },
	  .env = { "ANSIBLE_BECOME_ASK_PASS" },
	  .cli = AT(ask_become_pass), .target = AT(ask_become_pass),
	  .def = "no" },
	{ .name = "ask_vault_pass", .type = ST_BOOL,
	  .ini = { { "defaults", "ask_vault_pass" } },
	  .env = { "ANSIBLE_ASK_VAULT_PASS" },
	  .cli = AT(ask_vault_pass), .target = AT(ask_vault_pass),
	  .def = "no" },
	/* The run log (cmd/tcptune/runlog.c); tcptune's own variable is
	 * listed last, so it wins over Ansible's. */
	{ .name = "log_path", .type = ST_PATH,
	  .ini = { { "defaults", "log_path" } },
	  .env = { "ANSIBLE_LOG_PATH", "TCPTUNE_LOG_FILE" },
	  .cli = AT(log_file), .target = AT(log_file) },
	/* Used only without --color/--no-color (main.c); force_color wins
	 * over nocolor, as in Ansible's display. */
	{ .name = "nocolor", .type = ST_BOOL,
	  .ini = { { "defaults", "nocolor" } }, .env = { "ANSIBLE_NOCOLOR" },
	  .cli = NO_FIELD, .target = AT(cfg_nocolor), .def = "no" },
	{ .name = "force_color", .type = ST_BOOL,
	  .ini = { { "defaults", "force_color" } },
	  .env = { "ANSIBLE_FORCE_COLOR" },
	  .cli = NO_FIELD, .target = AT(cfg_force_color), .def = "no" },
	/* Where roles are looked for after the playbook's roles/
	 * (playbook_set_roles_path). */
	{ .name = "roles_path", .type = ST_PATHSPEC,
	  .ini = { { "defaults", "roles_path" } },
	  .env = { "ANSIBLE_ROLES_PATH" },
	  .cli = NO_FIELD, .target = AT(roles_path),
	  .def = "~/.ansible/roles:/usr/share/ansible/roles:"
	      "/etc/ansible/roles" },
};

/* A pathspec: each ':'-separated path resolved as acfg_to_path does,
 * joined again with ':'; empty ones dropped. */
static int
to_pathspec(const char *value, const char *basedir, char **out, char **cause)
{
	struct strbuf	 sb;
	const char	*p = value, *colon;
	char		*one, *path;

	strbuf_init(&sb);
	for (; *p != '\0'; p = *colon != '\0' ? colon + 1 : colon) {
		colon = strchrnul(p, ':');
		if (colon == p)
			continue;
		one = xstrndup(p, (size_t)(colon - p));
		if (acfg_to_path(one, basedir, &path, cause) != 0) {
			free(one);
			strbuf_release(&sb);
			return -1;
		}
		free(one);
		strbuf_addf(&sb, "%s%s", sb.len > 0 ? ":" : "", path);
		free(path);
	}
	*out = strbuf_detach(&sb, NULL);
	return 0;
}

/* A raw value and where it was found. */
struct raw {
	const char	*value;
	char		*origin;
	const char	*basedir;	/* for relative paths */
	const char	*key;		/* for errors: the key or variable */
};

static void
raw_clear(struct raw *r)
{
	free(r->origin);
	memset(r, 0, sizeof *r);
}

static char *
keep(struct settings *s, char *str)
{
	s->owned = xreallocarray(s->owned, s->nowned + 1, sizeof *s->owned);
	s->owned[s->nowned++] = str;
	return str;
}

static struct setting *
add_row(struct settings *s, const char *name, json_t *value,
    const char *origin)
{
	struct setting *row;

	s->rows = xreallocarray(s->rows, s->nrows + 1, sizeof *s->rows);
	row = &s->rows[s->nrows++];
	row->name = name;
	row->value = value != NULL ? value : json_null();
	row->origin = xstrdup(origin);
	return row;
}

/* The directory of the ansible.cfg: Ansible resolves its relative paths
 * there (ensure_type with the file as origin). */
static char *
file_dir(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (slash == NULL)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return xstrndup(path, (size_t)(slash - path));
}

/* The winning raw value of the variables env[] and the keys ini[]. 1 when
 * found, 0 when not. */
static int
find_raw(struct settings *s, const char *const *env, size_t nenv,
    const struct ini_key *ini, size_t nini, struct raw *out)
{
	const struct acfg_entry	*e, *found = NULL;
	const char		*v;
	size_t			 i;

	memset(out, 0, sizeof *out);
	for (i = 0; i < nenv && env[i] != NULL; i++) {
		if ((v = getenv(env[i])) != NULL) {
			free(out->origin);
			out->value = v;
			out->key = env[i];
			out->origin = xprintf("env %s", env[i]);
			out->basedir = s->cwd;
		}
	}
	if (out->value != NULL || s->config_file == NULL)
		return out->value != NULL;
	for (i = 0; i < nini && ini[i].section != NULL; i++) {
		if ((e = acfg_get(&s->cfg, ini[i].section, ini[i].key)) != NULL)
			found = e;
	}
	if (found == NULL)
		return 0;
	out->value = found->value;
	out->key = found->key;
	out->origin = xprintf("%s:%u", s->config_file, found->line);
	out->basedir = keep(s, file_dir(s->config_file));
	return 1;
}

/* At most 60 bytes of a bad value, fit for a terminal: a control byte is
 * shown as \xNN, never sent as it is. */
static char *
shown_value(const char *v)
{
	struct strbuf	sb = STRBUF_INIT;
	size_t		i;

	strbuf_init(&sb);
	for (i = 0; v[i] != '\0' && i < 60; i++) {
		if ((unsigned char)v[i] < 0x20 || v[i] == 0x7f)
			strbuf_addf(&sb, "\\x%02x", (unsigned char)v[i]);
		else
			strbuf_addch(&sb, v[i]);
	}
	if (v[i] != '\0')
		strbuf_addstr(&sb, "...");
	return strbuf_detach(&sb, NULL);
}

/* "FILE:LINE: key: invalid value 'V': why" or "env VAR: invalid ...". */
static int
bad_value(const struct raw *r, char *why, char **cause)
{
	char *v = shown_value(r->value);

	if (strncmp(r->origin, "env ", 4) == 0)
		fail(cause, "%s: invalid value '%s': %s", r->origin, v, why);
	else
		fail(cause, "%s: %s: invalid value '%s': %s", r->origin, r->key,
		    v, why);
	free(v);
	free(why);
	return -1;
}

static int
field_given(const struct options *o, const struct setting_def *d)
{
	const char *p = (const char *)o + d->cli;

	if (d->cli == NO_FIELD)
		return 0;
	if (d->type == ST_INT || d->type == ST_BOOL)
		return *(const int *)(const void *)p != 0;
	return *(const char *const *)(const void *)p != NULL;
}

/* The command line's value, for the row `config` shows. */
static json_t *
field_json(const struct options *o, size_t off, enum stype type)
{
	const char *p = (const char *)o + off;

	if (type == ST_INT)
		return json_integer(*(const int *)(const void *)p);
	if (type == ST_BOOL)
		return json_boolean(*(const int *)(const void *)p);
	return json_string(*(const char *const *)(const void *)p);
}

/* Convert r to d's type and store it in opts; the row's value in *shown. */
static int
convert(struct settings *s, const struct setting_def *d, struct raw *r,
    struct options *o, json_t **shown, char **cause)
{
	char		*why = NULL, *str = NULL;
	long long	 n = 0;
	int		 b = 0, rc;
	void		*field = d->target == NO_FIELD ? NULL : (char *)o +
			    d->target;

	if (d->type == ST_INT)
		rc = acfg_to_int(r->value, d->min, d->max, &n, &why);
	else if (d->type == ST_BOOL)
		rc = acfg_to_bool(r->value, &b, &why);
	else if (d->type == ST_STR)
		rc = acfg_to_string(r->value, &str, &why);
	else if (d->type == ST_PATHSPEC)
		rc = to_pathspec(r->value, r->basedir, &str, &why);
	else
		rc = acfg_to_path(r->value, r->basedir, &str, &why);
	if (rc == 0 && d->choice != NULL && strcmp(str, d->choice) != 0) {
		why = xprintf("tcptune can only use '%s'", d->choice);
		rc = -1;
	} else if (rc == 0 && d->on_host)
		rc = hostline_text(str, 256, "user name", &why);
	if (rc != 0 && str != NULL)
		free(str);
	if (rc != 0)
		return bad_value(r, why, cause);
	if (d->type == ST_INT || d->type == ST_BOOL) {
		if (field != NULL)
			*(int *)field = d->type == ST_INT ? (int)n : b;
		*shown = d->type == ST_INT ? json_integer(n) : json_boolean(b);
		return 0;
	}
	/* An empty string sets nothing, as in Ansible's ssh plugin. */
	if (field != NULL)
		*(const char **)field = *str != '\0' ? keep(s, str) : NULL;
	*shown = *str != '\0' ? json_string(str) : json_null();
	if (field == NULL || *str == '\0')
		free(str);
	return 0;
}

static int
resolve_def(struct settings *s, const struct setting_def *d,
    struct options *o, char **cause)
{
	struct raw	 r;
	json_t		*shown = NULL;
	int		 rc = 0;

	if (field_given(o, d)) {
		add_row(s, d->name, field_json(o, d->cli, d->type),
		    "command line");
		return 0;
	}
	if (find_raw(s, d->env, 3, d->ini, 3, &r) == 0) {
		if (d->def == NULL) {
			add_row(s, d->name, NULL, "default");
			return 0;
		}
		r.value = d->def;
		r.origin = xstrdup("default");
		r.key = d->name;
		r.basedir = s->cwd;
	}
	if ((rc = convert(s, d, &r, o, &shown, cause)) == 0)
		add_row(s, d->name, shown, r.origin);
	raw_clear(&r);
	return rc;
}

/* -i, else $TCPTUNE_INVENTORY as one source (as before), else
 * ANSIBLE_INVENTORY or [defaults] inventory as a comma-separated pathlist. */
static int
resolve_inventory(struct settings *s, struct options *o, char **cause)
{
	static const char *const env[] = { "ANSIBLE_INVENTORY" };
	static const struct ini_key ini[] = { { "defaults", "inventory" } };
	struct raw	  r;
	json_t		 *list = json_array();
	char		**items = NULL, *why = NULL;
	size_t		  n = 0, i;
	const char	 *tt = getenv("TCPTUNE_INVENTORY");

	if (o->ninventories > 0 || (tt != NULL && *tt != '\0')) {
		const char *origin = "command line";

		if (o->ninventories == 0) {
			o->inventories = xcalloc(1, sizeof *o->inventories);
			o->inventories[o->ninventories++] = (char *)tt;
			origin = "env TCPTUNE_INVENTORY";
		}
		for (i = 0; i < o->ninventories; i++)
			json_array_append_new(list,
			    json_string(o->inventories[i]));
		add_row(s, "inventory", list, origin);
		return 0;
	}
	if (find_raw(s, env, 1, ini, 1, &r) == 0) {
		add_row(s, "inventory", list, "default");
		return 0;
	}
	if (acfg_to_pathlist(r.value, r.basedir, &items, &n, &why) != 0) {
		json_decref(list);
		bad_value(&r, why, cause);
		raw_clear(&r);
		return -1;
	}
	o->inventories = xcalloc(n > 0 ? n : 1, sizeof *o->inventories);
	for (i = 0; i < n; i++) {
		o->inventories[o->ninventories++] = keep(s, items[i]);
		json_array_append_new(list, json_string(items[i]));
	}
	free(items);
	add_row(s, "inventory", list, r.origin);
	raw_clear(&r);
	return 0;
}

/* What tcptune takes from the ssh arguments Ansible passes to ssh: -F,
 * UserKnownHostsFile and StrictHostKeyChecking. ssh keeps the first value
 * of an option, so the first one seen wins. */
struct ssh_found {
	char	*config, *config_origin;
	char	*known_hosts, *known_hosts_origin;
	char	*strict, *strict_origin;	/* tcptune's mode */
	char	*check_origin;		/* host_key_checking true */
};

static void
ssh_found_clear(struct ssh_found *f)
{
	free(f->config);
	free(f->config_origin);
	free(f->known_hosts);
	free(f->known_hosts_origin);
	free(f->strict);
	free(f->strict_origin);
	free(f->check_origin);
}

/* StrictHostKeyChecking's values as ssh_config(5) has them ("ask" cannot
 * ask in a run of many hosts: strict). */
static const char *
strict_mode(const char *v)
{
	static const char *const map[][2] = { { "yes", "strict" },
	    { "true", "strict" }, { "ask", "strict" },
	    { "accept-new", "accept-new" }, { "no", "off" }, { "off", "off" },
	    { "false", "off" } };
	size_t i;

	for (i = 0; i < sizeof map / sizeof map[0]; i++) {
		if (strcasecmp(v, map[i][0]) == 0)
			return map[i][1];
	}
	return NULL;
}

static int
opt_is(const char *opt, size_t klen, const char *name)
{
	return klen == strlen(name) && strncasecmp(opt, name, klen) == 0;
}

/* One "-o" option; relative files are ssh's: from the current directory. */
static int
ssh_option(const char *opt, const char *cwd, const struct raw *r,
    struct ssh_found *f, char **cause)
{
	size_t		 klen = strcspn(opt, "= \t");
	const char	*v = opt + klen, *mode;
	char		*path, *why = NULL;

	v += strspn(v, " \t");
	v += *v == '=';
	v += strspn(v, " \t");
	if (opt_is(opt, klen, "StrictHostKeyChecking") && f->strict == NULL) {
		if ((mode = strict_mode(v)) == NULL)
			return bad_value(r, xprintf("StrictHostKeyChecking "
			    "'%s' is not yes, no, ask or accept-new", v), cause);
		f->strict = xstrdup(mode);
		f->strict_origin = xstrdup(r->origin);
	} else if (opt_is(opt, klen, "UserKnownHostsFile") &&
	    f->known_hosts == NULL) {
		/* tcptune checks one file: the first. */
		path = xstrndup(v, strcspn(v, " \t"));
		if (acfg_to_path(path, cwd, &f->known_hosts, &why) != 0) {
			free(path);
			return bad_value(r, why, cause);
		}
		free(path);
		f->known_hosts_origin = xstrdup(r->origin);
	}
	return 0;
}

static int
ssh_words(struct settings *s, const struct raw *r, struct ssh_found *f,
    char **cause)
{
	char	**w = NULL, *why = NULL;
	size_t	  n = 0, i;
	int	  rc = 0;

	if (acfg_split_words(r->value, &w, &n, &why) != 0)
		return bad_value(r, why, cause);
	for (i = 0; i < n && rc == 0; i++) {
		const char *arg = NULL;

		if (strncmp(w[i], "-o", 2) == 0)
			arg = w[i][2] != '\0' ? w[i] + 2 : i + 1 < n ?
			    w[++i] : "";
		else if (strncmp(w[i], "-F", 2) == 0) {
			arg = w[i][2] != '\0' ? w[i] + 2 : i + 1 < n ?
			    w[++i] : "";
			if (f->config == NULL && *arg != '\0') {
				acfg_to_path(arg, s->cwd, &f->config, NULL);
				f->config_origin = xstrdup(r->origin);
			}
			continue;
		}
		if (arg != NULL)
			rc = ssh_option(arg, s->cwd, r, f, cause);
	}
	names_free(w, n);
	return rc;
}

/* ssh_args (then Ansible's own StrictHostKeyChecking=no when
 * host_key_checking is false), ssh_common_args, ssh_extra_args: the order
 * of Ansible's ssh command line. */
static int
scan_ssh_args(struct settings *s, struct ssh_found *f, char **cause)
{
	static const struct ini_key ini[][1] = { { { "ssh_connection",
	    "ssh_args" } }, { { "ssh_connection", "ssh_common_args" } },
	    { { "ssh_connection", "ssh_extra_args" } } };
	static const char *const env[][1] = { { "ANSIBLE_SSH_ARGS" },
	    { "ANSIBLE_SSH_COMMON_ARGS" }, { "ANSIBLE_SSH_EXTRA_ARGS" } };
	static const struct ini_key hkc_ini[] = { { "defaults",
	    "host_key_checking" }, { "ssh_connection", "host_key_checking" } };
	static const char *const hkc_env[] = { "ANSIBLE_HOST_KEY_CHECKING",
	    "ANSIBLE_SSH_HOST_KEY_CHECKING" };
	struct raw	 r;
	size_t		 i;
	int		 check = 1, rc = 0;
	char		*why = NULL;

	for (i = 0; i < 3 && rc == 0; i++) {
		if (find_raw(s, env[i], 1, ini[i], 1, &r))
			rc = ssh_words(s, &r, f, cause);
		raw_clear(&r);
		if (i != 0 || rc != 0 || !find_raw(s, hkc_env, 2, hkc_ini, 2,
		    &r))
			continue;
		if (acfg_to_bool(r.value, &check, &why) != 0)
			rc = bad_value(&r, why, cause);
		else if (!check && f->strict == NULL) {
			/* false adds StrictHostKeyChecking=no; true adds
			 * nothing, so a later argument may still say no. */
			f->strict = xstrdup("off");
			f->strict_origin = xstrdup(r.origin);
		} else if (check)
			f->check_origin = xstrdup(r.origin);
		raw_clear(&r);
	}
	return rc;
}

/* A row for a string option of the command line, else of ssh's
 * arguments, else unset. */
static void
ssh_row(struct settings *s, const char *name, const char **field,
    char *found, const char *origin, const char *def)
{
	if (*field != NULL)
		add_row(s, name, json_string(*field), "command line");
	else if (found != NULL) {
		*field = keep(s, xstrdup(found));
		add_row(s, name, json_string(found), origin);
	} else
		add_row(s, name, def != NULL ? json_string(def) : NULL,
		    "default");
}

static int
resolve_hostkeys(struct settings *s, struct options *o, char **cause)
{
	struct ssh_found	 f;
	int			 rc;

	memset(&f, 0, sizeof f);
	if ((rc = scan_ssh_args(s, &f, cause)) == 0) {
		if (f.strict == NULL && f.check_origin != NULL) {
			f.strict = xstrdup("strict");
			f.strict_origin = xstrdup(f.check_origin);
		}
		ssh_row(s, "host_key_checking", &o->host_key_checking,
		    f.strict, f.strict_origin, "strict");
		if (o->host_key_checking == NULL)
			o->host_key_checking = "strict";
		ssh_row(s, "known_hosts", &o->known_hosts, f.known_hosts,
		    f.known_hosts_origin, NULL);
		ssh_row(s, "ssh_config", &o->ssh_config, f.config,
		    f.config_origin, NULL);
	}
	ssh_found_clear(&f);
	return rc;
}

/* A list option of the command line combined with the file's or a
 * variable's value, as Ansible's CLI does: vault_password_file is added
 * after --vault-password-file's, vault_identity_list before --vault-id's. */
static void
combine(struct settings *s, const char *name, char ***list, size_t *n,
    char **extra, size_t nextra, int before, const struct raw *r)
{
	char	**all = xcalloc(*n + nextra + 1, sizeof *all);
	json_t	 *shown = json_array();
	char	 *origin;
	size_t	  i, k = 0;

	for (i = 0; before && i < nextra; i++)
		all[k++] = keep(s, extra[i]);
	for (i = 0; i < *n; i++)
		all[k++] = (*list)[i];
	for (i = 0; !before && i < nextra; i++)
		all[k++] = keep(s, extra[i]);
	for (i = 0; i < k; i++)
		json_array_append_new(shown, json_string(all[i]));
	if (*n > 0 && nextra > 0)
		origin = xprintf("command line, %s", r->origin);
	else
		origin = xstrdup(*n > 0 ? "command line" : nextra > 0 ?
		    r->origin : "default");
	free(*list);
	*list = all;
	*n = k;
	add_row(s, name, shown, origin);
	free(origin);
	free(extra);
}

static int
resolve_vault(struct settings *s, struct options *o, char **cause)
{
	static const char *const pf_env[] = { "ANSIBLE_VAULT_PASSWORD_FILE" };
	static const struct ini_key pf_ini[] = { { "defaults",
	    "vault_password_file" } };
	static const char *const id_env[] = { "ANSIBLE_VAULT_IDENTITY_LIST" };
	static const struct ini_key id_ini[] = { { "defaults",
	    "vault_identity_list" } };
	struct raw	  r;
	char		**extra = NULL, *path = NULL, *why = NULL;
	size_t		  n = 0;

	/* Empty is unset: Ansible would try its current directory. */
	if (find_raw(s, pf_env, 1, pf_ini, 1, &r) && *r.value != '\0') {
		if (acfg_to_path(r.value, r.basedir, &path, &why) != 0) {
			bad_value(&r, why, cause);
			raw_clear(&r);
			return -1;
		}
		extra = xcalloc(1, sizeof *extra);
		extra[n++] = path;
	}
	combine(s, "vault_password_file", &o->vault_password_files,
	    &o->nvault_password_files, extra, n, 0, &r);
	raw_clear(&r);
	extra = NULL;
	n = 0;
	if (find_raw(s, id_env, 1, id_ini, 1, &r) &&
	    acfg_to_list(r.value, &extra, &n, &why) != 0) {
		bad_value(&r, why, cause);
		raw_clear(&r);
		return -1;
	}
	combine(s, "vault_identity_list", &o->vault_ids, &o->nvault_ids,
	    extra, n, 1, &r);
	raw_clear(&r);
	return 0;
}

static int
read_config_file(struct settings *s, char **cause)
{
	struct acfg_where w;

	w.env_config = getenv("ANSIBLE_CONFIG");
	w.cwd = s->cwd;
	w.home = getenv("HOME");
	w.system = "/etc/ansible/ansible.cfg";
	s->config_file = acfg_find(&w, &s->warning);
	if (s->config_file != NULL &&
	    acfg_load(&s->cfg, s->config_file, cause) != 0)
		return -1;
	return 0;
}

int
settings_resolve(struct settings *s, struct options *o, char **cause)
{
	size_t i;

	memset(s, 0, sizeof *s);
	s->cwd = getcwd(NULL, 0);
	if (read_config_file(s, cause) != 0 ||
	    resolve_inventory(s, o, cause) != 0)
		return -1;
	for (i = 0; i < sizeof setting_defs / sizeof setting_defs[0]; i++) {
		if (resolve_def(s, &setting_defs[i], o, cause) != 0)
			return -1;
	}
	if (resolve_hostkeys(s, o, cause) != 0 ||
	    resolve_vault(s, o, cause) != 0)
		return -1;
	o->settings = s;
	return 0;
}

void
settings_free(struct settings *s)
{
	size_t i;

	for (i = 0; i < s->nrows; i++) {
		json_decref(s->rows[i].value);
		free(s->rows[i].origin);
	}
	free(s->rows);
	names_free(s->owned, s->nowned);
	acfg_clear(&s->cfg);
	free(s->config_file);
	free(s->warning);
	free(s->cwd);
	memset(s, 0, sizeof *s);
}
