/* systemd/service: the module's decision (lib/tune/svcplan.c, its main()
 * after it has looked) on a table of unit states, and, where python3 and
 * ansible-core are installed, on every combination of unit state, enabled
 * status and task against the module's own main() with systemctl's answers
 * given (tests/data/systemd/ansible-systemd.py): the same changed, enabled
 * and state, a failure where it fails. And the script's output as
 * lib/remote/systemd.c reads it. */
#include "base/xalloc.h"
#include "remote/systemd.h"
#include "tune/svcplan.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "ansible-driver.h"

struct dcase {
	const char	*load, *active;
	int		 enabled_rc;
	const char	*state;
	int		 enabled;
	const char	*enable, *action, *state_after;
	int		 changed;
	const char	*error;
};

static const struct dcase dcases[] = {
	{ "loaded", "inactive", 1, "started", -1, NULL, "start", "started", 1,
	  NULL },
	{ "loaded", "active", 0, "started", -1, NULL, NULL, "started", 0,
	  NULL },
	{ "loaded", "activating", 0, "started", -1, NULL, NULL, "started", 0,
	  NULL },
	{ "loaded", "active", 0, "stopped", -1, NULL, "stop", "stopped", 1,
	  NULL },
	{ "loaded", "deactivating", 0, "stopped", -1, NULL, "stop",
	  "stopped", 1, NULL },
	{ "loaded", "failed", 0, "stopped", -1, NULL, NULL, "stopped", 0,
	  NULL },
	{ "loaded", "active", 0, "restarted", -1, NULL, "restart", "started",
	  1, NULL },
	{ "loaded", "inactive", 0, "restarted", -1, NULL, "start", "started",
	  1, NULL },
	{ "loaded", "active", 0, "reloaded", -1, NULL, "reload", "started",
	  1, NULL },
	{ "loaded", "inactive", 1, NULL, 1, "enable", NULL, NULL, 1, NULL },
	{ "loaded", "inactive", 0, NULL, 1, NULL, NULL, NULL, 0, NULL },
	{ "loaded", "active", 0, NULL, 0, "disable", NULL, NULL, 1, NULL },
	{ "loaded", "inactive", 1, "started", 1, "enable", "start",
	  "started", 1, NULL },
	{ "not-found", "inactive", 1, "started", -1, NULL, NULL, NULL, 0,
	  "Could not find the requested service" },
	{ "masked", "inactive", 1, "started", -1, NULL, "start", "started",
	  1, NULL },
};

static int
same(const char *a, const char *b)
{
	return (a == NULL && b == NULL) || (a != NULL && b != NULL &&
	    strcmp(a, b) == 0);
}

static void
test_decide(void **state)
{
	struct svc_plan	 p;
	char		*cause;
	size_t		 i;
	int		 r;

	(void)state;
	for (i = 0; i < sizeof dcases / sizeof dcases[0]; i++) {
		const struct dcase *d = &dcases[i];
		struct svc_seen s = { d->load, d->active, NULL,
		    d->enabled_rc };

		cause = NULL;
		r = svc_decide("u", d->state, d->enabled, &s, &p, &cause);
		if (d->error != NULL) {
			if (r == 0 || strncmp(cause, d->error,
			    strlen(d->error)) != 0)
				fail_msg("case %zu: %s", i, r ? cause : "ok");
			free(cause);
			continue;
		}
		if (r != 0)
			fail_msg("case %zu: %s", i, cause);
		if (!same(p.enable, d->enable) || !same(p.action, d->action) ||
		    !same(p.state, d->state_after) || p.changed != d->changed)
			fail_msg("case %zu: %s %s %s %d", i, p.enable,
			    p.action, p.state, p.changed);
	}
	/* a unit that does not load says why */
	assert_int_equal(svc_decide("u", "started", -1, &(struct svc_seen){
	    "loaded", "inactive", "org.freedesktop.systemd1.BadUnitSetting",
	    1 }, &p, &cause), -1);
	assert_non_null(strstr(cause, "Error loading unit file 'u'"));
	free(cause);
}

static void
test_against_ansible(void **state)
{
	static const char *const loads[] = { "loaded", "not-found", "masked" };
	static const char *const actives[] = { "active", "activating",
	    "inactive", "failed", "deactivating" };
	static const char *const wants[] = { NULL, "started", "stopped",
	    "restarted", "reloaded" };
	json_t		*cases = json_array(), *answers;
	size_t		 l, a, e, w, n, i = 0, same_n = 0;
	struct svc_plan	 p;
	char		*cause;
	int		 r;

	(void)state;
	for (l = 0; l < 3; l++)
	for (a = 0; a < 5; a++)
	for (e = 0; e < 2; e++)
	for (w = 0; w < 5; w++)
	for (n = 0; n < 3; n++) {
		if (wants[w] == NULL && n == 0)
			continue;	/* refused before the module runs */
		json_array_append_new(cases, json_pack("{s:s, s:s, s:i, s:s?, "
		    "s:o}", "load", loads[l], "active", actives[a],
		    "enabled_rc", (int)e, "state", wants[w], "enabled",
		    n == 0 ? json_null() : json_boolean(n == 2)));
	}
	answers = ansible_driver(
	    "/usr/lib/python3/dist-packages/ansible/modules/systemd.py",
	    "tests/data/systemd/ansible-systemd.py", cases);
	if (answers == NULL) {
		json_decref(cases);
		skip();
	}
	assert_int_equal(json_array_size(answers), json_array_size(cases));
	for (i = 0; i < json_array_size(cases); i++) {
		const json_t	*c = json_array_get(cases, i);
		const json_t	*an = json_array_get(answers, i);
		const json_t	*en = json_object_get(c, "enabled");
		struct svc_seen	 s;
		char		*dump = json_dumps(c, 0);

		s = (struct svc_seen){ json_string_value(json_object_get(c,
		    "load")), json_string_value(json_object_get(c, "active")),
		    NULL, (int)json_integer_value(json_object_get(c,
		    "enabled_rc")) };
		cause = NULL;
		r = svc_decide("tcptune-test.service", json_string_value(
		    json_object_get(c, "state")), json_is_null(en) ? -1 :
		    json_is_true(en), &s, &p, &cause);
		if (json_object_get(an, "error") != NULL) {
			if (r == 0)
				fail_msg("%s: the module fails (%s)", dump,
				    json_string_value(json_object_get(an,
				    "error")));
		} else {
			const json_t *ae = json_object_get(an, "enabled");

			if (r != 0)
				fail_msg("%s: tcptune fails: %s", dump, cause);
			if (p.changed != json_is_true(json_object_get(an,
			    "changed")) || !same(p.state, json_string_value(
			    json_object_get(an, "state"))) ||
			    (json_is_null(ae) ? p.enabled != -1 :
			    p.enabled != json_is_true(ae)))
				fail_msg("%s: module %s, tcptune changed %d "
				    "state %s enabled %d", dump,
				    json_dumps(an, 0), p.changed, p.state,
				    p.enabled);
			same_n++;
		}
		free(cause);
		free(dump);
	}
	print_message("systemd: %zu of %zu cases decided as the module "
	    "decides (the rest fail on both)\n", same_n, i);
	assert_true(same_n > i / 2);
	json_decref(answers);
	json_decref(cases);
}

static void
test_parse(void **state)
{
	static const char out[] = "tcptune-systemd 1\n@reload\nrc=0\nout=\n"
	    "err=\n@show\nLoadState=loaded\nActiveState=active\n"
	    "SubState=running\nUnitFileState=enabled\nLoadError=\n"
	    "@enabled\nrc=0\nout=enabled\nerr=\n@done\n";
	struct systemd_result	 r;
	char			*cause = NULL;

	(void)state;
	assert_int_equal(systemd_parse(out, sizeof out - 1, &r, &cause), 0);
	assert_true(r.reload.ran);
	assert_string_equal(r.active_state, "active");
	assert_string_equal(r.unit_file_state, "enabled");
	assert_string_equal(r.enabled.out, "enabled");
	assert_int_equal(r.enabled.rc, 0);
	assert_false(r.action.ran);
	systemd_result_clear(&r);
	assert_int_equal(systemd_parse(out, 40, &r, &cause), -1);
	assert_non_null(strstr(cause, "cut short"));
	free(cause);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decide),
		cmocka_unit_test(test_against_ansible),
		cmocka_unit_test(test_parse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
