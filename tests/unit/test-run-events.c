/* The pure pieces of streaming output: the progress line (counts, the
 * slowest host, "and N more", shortening to the terminal's width without
 * cutting a UTF-8 character) and the jsonl events (schema, name, UTC
 * timestamp with milliseconds, a result's fields). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "run/events.h"
#include "run/progress.h"

static void
test_progress_slowest(void **state)
{
	struct run_progress	p = { "nap", 3, 4, 1, "lab01", 5.24,
	    0, 0, 0, 0 };
	char			buf[256];

	(void)state;
	assert_string_equal(run_progress_line(buf, sizeof buf, &p, 120),
	    "[nap] 3/4 hosts done, waiting on lab01 (5.2s)");
	p.done = 1;
	p.running = 3;
	assert_string_equal(run_progress_line(buf, sizeof buf, &p, 0),
	    "[nap] 1/4 hosts done, waiting on lab01 (5.2s) and 2 more");
	p.slowest = NULL;
	p.running = 0;
	assert_string_equal(run_progress_line(buf, sizeof buf, &p, 0),
	    "[nap] 1/4 hosts done");
}

static void
test_progress_width(void **state)
{
	struct run_progress	p = { "set the buffers for the long fat "
	    "network", 0, 2, 2, "db1", 12.0, 0, 0, 0, 0 };
	char			buf[256];

	(void)state;
	/* The task name gives way first, with "...". */
	run_progress_line(buf, sizeof buf, &p, 70);
	assert_int_equal(strlen(buf), 69);
	assert_string_equal(buf, "[set the buffer...] 0/2 hosts done, "
	    "waiting on db1 (12.0s) and 1 more");
	run_progress_line(buf, sizeof buf, &p, 0);
	assert_string_equal(buf, "[set the buffers for the long fat network]"
	    " 0/2 hosts done, waiting on db1 (12.0s) and 1 more");
	/* Too narrow even for the counts: cut, never wider. */
	run_progress_line(buf, sizeof buf, &p, 20);
	assert_string_equal(buf, "[...] 0/2 hosts don");
	/* A buffer smaller than the line. */
	run_progress_line(buf, 8, &p, 0);
	assert_string_equal(buf, "[...] 0");
}

static void
test_progress_utf8(void **state)
{
	/* "é" is two bytes: a cut never leaves half of one. */
	struct run_progress	p = { "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 0, 1,
	    0, NULL, 0, 0, 0, 0, 0 };
	char			buf[64];
	size_t			n;

	(void)state;
	n = strlen(" 0/1 hosts done") + strlen("[...]");
	run_progress_line(buf, sizeof buf, &p, (int)n + 1 + 3);
	assert_string_equal(buf, "[\xc3\xa9...] 0/1 hosts done");
}

/* A pairwise task's rounds: the round and the pairs, the pair running
 * longest; the same width and UTF-8 rules. */
static void
test_progress_rounds(void **state)
{
	struct run_progress	p = { .task = "after", .running = 5,
	    .slowest = "eu1<->asia1", .slowest_secs = 5.24, .round = 3,
	    .rounds = 8, .pairs_done = 14, .pairs_total = 37 };
	char			buf[256];

	(void)state;
	assert_string_equal(run_progress_line(buf, sizeof buf, &p, 0),
	    "[after] round 3/8, 14/37 pairs done, waiting on eu1<->asia1 "
	    "(5.2s) and 4 more");
	p.running = 1;
	assert_string_equal(run_progress_line(buf, sizeof buf, &p, 0),
	    "[after] round 3/8, 14/37 pairs done, waiting on eu1<->asia1 "
	    "(5.2s)");
	/* between two pairs: only the counts */
	p.running = 0;
	p.slowest = NULL;
	assert_string_equal(run_progress_line(buf, sizeof buf, &p, 0),
	    "[after] round 3/8, 14/37 pairs done");
	/* the task name gives way first */
	p.task = "measure every pair again";
	p.running = 2;
	p.slowest = "eu1<->asia1";
	run_progress_line(buf, sizeof buf, &p, 88);
	assert_int_equal(strlen(buf), 87);
	assert_string_equal(buf, "[measure ever...] round 3/8, 14/37 pairs "
	    "done, waiting on eu1<->asia1 (5.2s) and 1 more");
	/* a pair of UTF-8 names cut at the width (after the task name
	 * went): never half a character ("\xc3\xb6" is the 48th and 49th
	 * bytes) */
	p.running = 1;
	p.slowest = "k\xc3\xb6ln<->m\xc3\xbcnchen";
	run_progress_line(buf, sizeof buf, &p, 49);
	assert_string_equal(buf, "[...] round 3/8, 14/37 pairs done, "
	    "waiting on k");
	run_progress_line(buf, sizeof buf, &p, 50);
	assert_string_equal(buf, "[...] round 3/8, 14/37 pairs done, "
	    "waiting on k\xc3\xb6");
}

static void
test_event_header(void **state)
{
	struct timespec	 when = { 1764569028, 123999999 };
	json_t		*ev;

	(void)state;
	ev = run_event_new("task_start", &when);
	assert_int_equal(json_integer_value(json_object_get(ev, "schema")),
	    RUN_EVENT_SCHEMA);
	assert_int_equal(RUN_EVENT_SCHEMA, 1);
	assert_string_equal(json_string_value(json_object_get(ev, "event")),
	    "task_start");
	assert_string_equal(json_string_value(json_object_get(ev,
	    "timestamp")), "2025-12-01T06:03:48.123Z");
	json_decref(ev);
	when.tv_nsec = 5 * 1000 * 1000;
	ev = run_event_new("recap", &when);
	assert_string_equal(json_string_value(json_object_get(ev,
	    "timestamp")), "2025-12-01T06:03:48.005Z");
	json_decref(ev);
}

static void
test_result_json(void **state)
{
	struct task_result	 tr;
	json_t			*j;

	(void)state;
	memset(&tr, 0, sizeof tr);
	tr.task_name = "nap";
	tr.module = "command";
	tr.status = RESULT_FAILED;
	tr.msg = "exit 1 (expected 0): no";
	tr.ignored = 1;
	tr.seconds = 0.5;
	j = task_result_json(&tr);
	assert_string_equal(json_string_value(json_object_get(j, "task")),
	    "nap");
	assert_string_equal(json_string_value(json_object_get(j, "status")),
	    "failed");
	assert_string_equal(json_string_value(json_object_get(j, "msg")),
	    "exit 1 (expected 0): no");
	assert_true(json_is_true(json_object_get(j, "ignored")));
	assert_null(json_object_get(j, "diff"));
	assert_null(json_object_get(j, "data"));
	assert_true(json_real_value(json_object_get(j, "seconds")) == 0.5);
	json_decref(j);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_progress_slowest),
		cmocka_unit_test(test_progress_width),
		cmocka_unit_test(test_progress_utf8),
		cmocka_unit_test(test_progress_rounds),
		cmocka_unit_test(test_event_header),
		cmocka_unit_test(test_result_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
