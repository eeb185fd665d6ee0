/* The decisions of file, copy and template that need no host: the file
 * module's state rules (file_state_decide, with the module's failure
 * messages), the attributes a task changes (ftask_attrs_change: what the
 * run sets and --diff shows), the checksum copy and template decide by
 * (sha1, as Ansible's module.sha1), and the src lookup's order. */
#include "base/xalloc.h"
#include "modules/file-task.h"
#include "remote/fileop.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

struct scase {
	char		 type;		/* 0: absent */
	const char	*target;
	int		 src_exists;
	const char	*state;
	const char	*src;
	int		 force;
	const char	*action;	/* NULL: none */
	const char	*error;		/* NULL: none; else its start */
};

static const struct scase scases[] = {
	{ 0, NULL, 0, "absent", NULL, 0, NULL, NULL },
	{ 'f', NULL, 0, "absent", NULL, 0, "rm", NULL },
	{ 'd', NULL, 0, "absent", NULL, 0, "rm", NULL },
	{ 'f', NULL, 0, "file", NULL, 0, NULL, NULL },
	{ 0, NULL, 0, "file", NULL, 0, NULL,
	  "file (/p) is absent, cannot continue" },
	{ 'd', NULL, 0, "file", NULL, 0, NULL,
	  "file (/p) is directory, cannot continue" },
	{ 0, NULL, 0, "directory", NULL, 0, "mkdir", NULL },
	{ 'd', NULL, 0, "directory", NULL, 0, NULL, NULL },
	{ 'f', NULL, 0, "directory", NULL, 0, NULL,
	  "/p already exists as a file" },
	{ 0, NULL, 0, "touch", NULL, 0, "touch", NULL },
	{ 'f', NULL, 0, "touch", NULL, 0, "touch", NULL },
	{ 0, NULL, 1, "link", "/t", 0, "link", NULL },
	{ 0, NULL, 0, "link", "/t", 0, NULL, "src file does not exist" },
	{ 0, NULL, 0, "link", "/t", 1, "link", NULL },
	{ 'l', "/t", 1, "link", "/t", 0, NULL, NULL },
	{ 'l', "/u", 1, "link", "/t", 0, "link", NULL },
	{ 'f', NULL, 1, "link", "/t", 0, NULL,
	  "refusing to convert from file to symlink for /p" },
	{ 'f', NULL, 1, "link", "/t", 1, "link", NULL },
	{ 'd', NULL, 1, "link", "/t", 1, NULL,
	  "refusing to convert from directory to symlink" },
	{ 0, NULL, 0, "link", NULL, 0, NULL,
	  "src is required for creating new symlinks" },
	{ 'l', "/t", 0, "link", NULL, 0, NULL, NULL },
};

static void
test_states(void **state)
{
	struct file_stat	 st;
	const char		*action;
	char			*cause;
	int			 attrs, r;
	size_t			 i;

	(void)state;
	for (i = 0; i < sizeof scases / sizeof scases[0]; i++) {
		const struct scase *c = &scases[i];

		memset(&st, 0, sizeof st);
		st.exists = c->type != 0;
		st.type = c->type;
		st.target = (char *)c->target;
		st.src_exists = c->src_exists;
		cause = NULL;
		r = file_state_decide(&st, "/p", c->state, c->src, c->force,
		    &action, &attrs, &cause);
		if (c->error != NULL) {
			if (r == 0 || strncmp(cause, c->error,
			    strlen(c->error)) != 0)
				fail_msg("case %zu: '%s', want '%s'", i,
				    r == 0 ? "(no error)" : cause, c->error);
		} else if (r != 0)
			fail_msg("case %zu: %s", i, cause);
		else if ((action == NULL) != (c->action == NULL) ||
		    (action != NULL && strcmp(action, c->action) != 0))
			fail_msg("case %zu: action %s, want %s", i,
			    action ? action : "none",
			    c->action ? c->action : "none");
		else if (attrs != (strcmp(c->state, "absent") != 0))
			fail_msg("case %zu: attrs %d", i, attrs);
		free(cause);
	}
}

static void
test_attrs(void **state)
{
	struct file_stat	 st;
	char			*d;

	(void)state;
	memset(&st, 0, sizeof st);
	st.exists = 1;
	st.type = 'f';
	st.mode = 0644;
	st.uid = 0;
	st.gid = 4;
	st.owner = "root";
	st.group = "adm";
	assert_null(ftask_attrs_change(&st, &(struct ftask_attrs){ "0644",
	    "root", "adm" }, 0));
	assert_null(ftask_attrs_change(&st, &(struct ftask_attrs){ "644",
	    "0", "4" }, 0));
	assert_null(ftask_attrs_change(&st, &(struct ftask_attrs){ NULL,
	    NULL, NULL }, 0));
	d = ftask_attrs_change(&st, &(struct ftask_attrs){ "0600", "nobody",
	    NULL }, 0);
	assert_string_equal(d, "mode 0644 -> 0600, owner root -> nobody");
	free(d);
	d = ftask_attrs_change(&st, &(struct ftask_attrs){ NULL, NULL,
	    "root" }, 0);
	assert_string_equal(d, "group adm -> root");
	free(d);
	/* a file to create: the mode it gets, owner and group not known */
	d = ftask_attrs_change(&st, &(struct ftask_attrs){ "0640", "root",
	    NULL }, 1);
	assert_string_equal(d, "mode 0640");
	free(d);
	assert_int_equal(ftask_mode(&(struct ftask_attrs){ "1777", NULL,
	    NULL }), 01777);
	assert_int_equal(ftask_mode(&(struct ftask_attrs){ NULL, NULL,
	    NULL }), -1);
}

static void
test_checks(void **state)
{
	char *s, *cause = NULL;

	(void)state;
	/* sha1 as `printf 'hello\n' | sha1sum` */
	s = ftask_sha1("hello\n", 6);
	assert_string_equal(s, "f572d396fae9206628714fb2ce00f72e94f2258f");
	free(s);
	assert_int_equal(ftask_validate_check(NULL, &cause), 0);
	assert_int_equal(ftask_validate_check("visudo -cf %s", &cause), 0);
	assert_int_equal(ftask_validate_check("true", &cause), -1);
	free(cause);
	cause = NULL;
	assert_int_equal(ftask_validate_check("cmp %s %s", &cause), -1);
	free(cause);
	cause = NULL;
	assert_int_equal(ftask_attrs_check(&(struct ftask_attrs){ "u+x",
	    NULL, NULL }, &cause), -1);
	free(cause);
	cause = NULL;
	assert_int_equal(ftask_attrs_check(&(struct ftask_attrs){ NULL,
	    "root:adm", NULL }, &cause), -1);
	free(cause);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_states),
		cmocka_unit_test(test_attrs),
		cmocka_unit_test(test_checks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
