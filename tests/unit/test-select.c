/* What a run takes of a playbook (lib/playbook/select.c): --start-at-task
 * as ansible-playbook 2.14 does it (exact name or shell pattern, across
 * plays, only among the tasks --tags/--skip-tags select, a play's fact
 * gathering counting as "Gathering Facts"), the error when nothing
 * matches, and the steps --list-tasks shows (fact gathering, tasks, the
 * apply of staged tuning where the runner flushes it). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "yaml/diag.h"
#include "playbook/playbook.h"
#include "playbook/select.h"

/* Play 1 gathers and is untagged; play 2 is tagged 'second' and gathers
 * no facts; play 3 mixes tuning (staging) tasks with others. */
static const char fixture[] =
    "- name: P1\n"
    "  hosts: all\n"
    "  tasks:\n"
    "    - name: a1\n"
    "      ping:\n"
    "    - name: a2 shared\n"
    "      ping:\n"
    "- name: P2\n"
    "  hosts: [web, db]\n"
    "  tags: second\n"
    "  gather_facts: false\n"
    "  tasks:\n"
    "    - name: b1\n"
    "      ping:\n"
    "    - name: b2 shared\n"
    "      ping:\n"
    "      tags: x\n"
    "    - ping:\n"
    "- name: P3\n"
    "  hosts: all\n"
    "  tasks:\n"
    "    - name: c1 buffers\n"
    "      tcp_buffers:\n"
    "        bandwidth_mbit: 100\n"
    "        rtt_ms: 10\n"
    "    - name: c2 congestion\n"
    "      congestion:\n"
    "        algorithm: bbr\n"
    "    - name: c3 check\n"
    "      ping:\n"
    "    - name: c4 route\n"
    "      route:\n"
    "        initcwnd: 20\n";

static struct playbook *
load(void)
{
	struct playbook	*pb = NULL;
	struct diag	 d = DIAG_INIT;
	size_t		 i;

	if (playbook_load_buffer("fixture.yml", fixture, strlen(fixture), &pb,
	    &d) != 0) {
		for (i = 0; i < diag_count(&d); i++)
			print_error("%s\n", diag_get(&d, i));
		fail_msg("fixture: %zu errors", diag_count(&d));
	}
	diag_clear(&d);
	return pb;
}

/* The selected task names of every play, "P1: a1 a2 | P2: ..." style, for
 * one comparison per case. */
static char *
selected_names(const struct playbook *pb, const char *tags,
    const char *skip)
{
	static char	buf[1024];
	size_t		i, j;

	buf[0] = '\0';
	for (i = 0; i < pb->nplays; i++) {
		const struct play *p = &pb->plays[i];

		snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s%s:",
		    i > 0 ? " | " : "", p->name, p->gather_facts ? "+facts" :
		    "");
		for (j = 0; j < p->ntasks; j++) {
			if (task_selected(p, &p->tasks[j], tags, skip))
				snprintf(buf + strlen(buf), sizeof buf -
				    strlen(buf), " %s", p->tasks[j].name);
		}
	}
	return buf;
}

/* Start at pattern under tags/skip; the selection after, or "ERROR: ...". */
static const char *
start_at(const char *pattern, const char *tags, const char *skip)
{
	static char	 buf[1024];
	struct playbook	*pb = load();
	char		*cause = NULL;

	if (playbook_start_at(pb, pattern, tags, skip, &cause) != 0) {
		snprintf(buf, sizeof buf, "ERROR: %s | %s", cause,
		    selected_names(pb, tags, skip));
		free(cause);
	} else
		snprintf(buf, sizeof buf, "%s", selected_names(pb, tags, skip));
	playbook_free(pb);
	return buf;
}

static void
test_start_at_name(void **state)
{
	(void)state;
	/* no --start-at-task: everything */
	assert_string_equal(start_at(NULL, NULL, NULL),
	    "P1+facts: a1 a2 shared | P2: b1 b2 shared ping | "
	    "P3+facts: c1 buffers c2 congestion c3 check c4 route");
	/* an exact name in the second play: the first play runs nothing and
	 * gathers no facts; the later play runs whole */
	assert_string_equal(start_at("b2 shared", NULL, NULL),
	    "P1: | P2: b2 shared ping | "
	    "P3+facts: c1 buffers c2 congestion c3 check c4 route");
	/* within the first play: its facts are still gathered */
	assert_string_equal(start_at("a2 shared", NULL, NULL),
	    "P1+facts: a2 shared | P2: b1 b2 shared ping | "
	    "P3+facts: c1 buffers c2 congestion c3 check c4 route");
	/* an unnamed task goes by its module's name */
	assert_string_equal(start_at("ping", NULL, NULL),
	    "P1: | P2: ping | "
	    "P3+facts: c1 buffers c2 congestion c3 check c4 route");
	/* the last task of the playbook */
	assert_string_equal(start_at("c4 route", NULL, NULL),
	    "P1: | P2: | P3+facts: c4 route");
}

static void
test_start_at_pattern(void **state)
{
	(void)state;
	/* the first task, in playbook order, whose name matches */
	assert_string_equal(start_at("*shared", NULL, NULL),
	    "P1+facts: a2 shared | P2: b1 b2 shared ping | "
	    "P3+facts: c1 buffers c2 congestion c3 check c4 route");
	assert_string_equal(start_at("c[3-9]*", NULL, NULL),
	    "P1: | P2: | P3+facts: c3 check c4 route");
	assert_string_equal(start_at("b?", NULL, NULL),
	    "P1: | P2: b1 b2 shared ping | "
	    "P3+facts: c1 buffers c2 congestion c3 check c4 route");
	/* case-sensitive, as Python's fnmatch on POSIX */
	assert_string_equal(start_at("B2*", NULL, NULL),
	    "ERROR: no task is named 'B2*' or matches it | "
	    "P1+facts: a1 a2 shared | P2: b1 b2 shared ping | "
	    "P3+facts: c1 buffers c2 congestion c3 check c4 route");
	/* a backslash is an ordinary character (Python's fnmatch) */
	assert_string_equal(start_at("a2\\ shared", NULL, NULL),
	    "ERROR: no task is named 'a2\\ shared' or matches it | "
	    "P1+facts: a1 a2 shared | P2: b1 b2 shared ping | "
	    "P3+facts: c1 buffers c2 congestion c3 check c4 route");
}

static void
test_start_at_gathering(void **state)
{
	(void)state;
	/* the first play's fact gathering: nothing is skipped */
	assert_string_equal(start_at("Gathering Facts", NULL, NULL),
	    "P1+facts: a1 a2 shared | P2: b1 b2 shared ping | "
	    "P3+facts: c1 buffers c2 congestion c3 check c4 route");
	/* P1's gathering is tagged 'always' (an untagged play): --tags does
	 * not filter it out, --skip-tags always does, and then no play has a
	 * gathering to start at (P2 gathers no facts, P3 is untagged too) */
	assert_string_equal(start_at("Gather*", "second", NULL),
	    "P1+facts: | P2: b1 b2 shared ping | P3+facts:");
	assert_string_equal(start_at("Gather*", NULL, "always"),
	    "ERROR: no task that --tags/--skip-tags select is named "
	    "'Gather*' or matches it | P1+facts: a1 a2 shared | "
	    "P2: b1 b2 shared ping | "
	    "P3+facts: c1 buffers c2 congestion c3 check c4 route");
}

static void
test_start_at_tags(void **state)
{
	(void)state;
	/* the named task is not selected: a pattern goes on to the next
	 * match, an exact name matches nothing */
	assert_string_equal(start_at("b2*", NULL, "x"),
	    "ERROR: no task that --tags/--skip-tags select is named 'b2*' or "
	    "matches it | P1+facts: a1 a2 shared | P2: b1 ping | "
	    "P3+facts: c1 buffers c2 congestion c3 check c4 route");
	assert_string_equal(start_at("*shared", NULL, "x"),
	    "P1+facts: a2 shared | P2: b1 ping | "
	    "P3+facts: c1 buffers c2 congestion c3 check c4 route");
	assert_string_equal(start_at("*shared", "second", NULL),
	    "P1: | P2: b2 shared ping | P3+facts:");
	/* tags still apply after the start */
	assert_string_equal(start_at("b1", "x", NULL),
	    "ERROR: no task that --tags/--skip-tags select is named 'b1' or "
	    "matches it | P1+facts: | P2: b2 shared | P3+facts:");
	assert_string_equal(start_at("b*", "x", NULL),
	    "P1: | P2: b2 shared | P3+facts:");
}

/* The steps of a play as "kind:name" words. */
static const char *
steps_of(const struct play *p, const char *tags, const char *skip)
{
	static char		 buf[1024];
	static const char	*kinds[] = { "gather", "task", "apply" };
	struct play_step	*s;
	size_t			 n, i;

	buf[0] = '\0';
	n = play_steps(p, tags, skip, &s);
	for (i = 0; i < n; i++)
		snprintf(buf + strlen(buf), sizeof buf - strlen(buf),
		    "%s%s:%s(%s)", i > 0 ? " " : "", kinds[s[i].kind],
		    s[i].name, s[i].module);
	free(s);
	return buf;
}

static void
test_steps(void **state)
{
	struct playbook	*pb = load();
	char		*cause = NULL;

	(void)state;
	assert_string_equal(steps_of(&pb->plays[0], NULL, NULL),
	    "gather:Gathering Facts(probe) task:a1(ping) task:a2 shared(ping)");
	assert_string_equal(steps_of(&pb->plays[1], NULL, NULL),
	    "task:b1(ping) task:b2 shared(ping) task:ping(ping)");
	/* the runner flushes the stage before the first task of another
	 * stager, and at the end of the play */
	assert_string_equal(steps_of(&pb->plays[2], NULL, NULL),
	    "gather:Gathering Facts(probe) task:c1 buffers(tcp_buffers) "
	    "task:c2 congestion(congestion) "
	    "apply:apply tuning (sysctl drop-in, qdisc, route)(tune) "
	    "task:c3 check(ping) task:c4 route(route) "
	    "apply:apply tuning (sysctl drop-in, qdisc, route)(tune)");
	/* no task selected: the gathering still runs */
	assert_string_equal(steps_of(&pb->plays[2], NULL, "x,untagged"),
	    "gather:Gathering Facts(probe)");
	/* the runner gathers facts whatever the tags select */
	assert_string_equal(steps_of(&pb->plays[0], "nothing", NULL),
	    "gather:Gathering Facts(probe)");
	/* --start-at-task: a play before the start has no step at all */
	assert_int_equal(playbook_start_at(pb, "c3*", NULL, NULL, &cause), 0);
	assert_string_equal(steps_of(&pb->plays[0], NULL, NULL), "");
	assert_int_equal(pb->plays[0].before_start, 1);
	assert_int_equal(pb->plays[2].before_start, 0);
	assert_string_equal(steps_of(&pb->plays[2], NULL, NULL),
	    "gather:Gathering Facts(probe) task:c3 check(ping) "
	    "task:c4 route(route) "
	    "apply:apply tuning (sysctl drop-in, qdisc, route)(tune)");
	playbook_free(pb);
}

static void
test_steps_one_stage(void **state)
{
	static const char pb_text[] =
	    "- hosts: all\n"
	    "  gather_facts: no\n"
	    "  tasks:\n"
	    "    - name: b\n"
	    "      tcp_buffers: { bandwidth_mbit: 100, rtt_ms: 10 }\n"
	    "    - name: check\n"
	    "      ping:\n"
	    "      tags: x\n"
	    "    - name: c\n"
	    "      congestion: { algorithm: bbr }\n";
	struct playbook	*pb = NULL;
	struct diag	 d = DIAG_INIT;

	(void)state;
	assert_int_equal(playbook_load_buffer("one.yml", pb_text,
	    strlen(pb_text), &pb, &d), 0);
	/* without the ping between them, both tuning tasks stage into one
	 * apply, at the end */
	assert_string_equal(steps_of(&pb->plays[0], NULL, "x"),
	    "task:b(tcp_buffers) task:c(congestion) "
	    "apply:apply tuning (sysctl drop-in, qdisc, route)(tune)");
	playbook_free(pb);
	diag_clear(&d);
}

static void
test_patterns(void **state)
{
	struct playbook	*pb = load();
	const char	**pats;
	size_t		  n;

	(void)state;
	n = playbook_play_patterns(pb, 0, &pats);
	assert_int_equal(n, 1);
	assert_string_equal(pats[0], "all");
	free(pats);
	/* a list stays a list: Ansible shows ['web', 'db'] */
	n = playbook_play_patterns(pb, 1, &pats);
	assert_int_equal(n, 2);
	assert_string_equal(pats[0], "web");
	assert_string_equal(pats[1], "db");
	assert_string_equal(pb->plays[1].hosts, "web,db");
	free(pats);
	playbook_free(pb);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_start_at_name),
		cmocka_unit_test(test_start_at_pattern),
		cmocka_unit_test(test_start_at_gathering),
		cmocka_unit_test(test_start_at_tags),
		cmocka_unit_test(test_steps),
		cmocka_unit_test(test_steps_one_stage),
		cmocka_unit_test(test_patterns),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
