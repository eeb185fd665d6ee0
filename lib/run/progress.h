/* The live progress line of a run as text: what cmd/ draws on a terminal
 * while a step runs. Pure: no I/O, no clock; the runner fills the struct. */
#ifndef TCPTUNE_PROGRESS_H
#define TCPTUNE_PROGRESS_H

#include <stddef.h>

/* The step that is running, when the runner reports it. While a pairwise
 * task (iperf3_verify) measures its rounds, before the task runs on its
 * hosts, rounds > 0 and the line counts pairs: running and slowest are
 * then pairs ("lab01<->lab02"), and done and total are not used. */
struct run_progress {
	const char	*task;		/* the step's task name */
	size_t		 done;		/* hosts that finished the step */
	size_t		 total;		/* hosts the step runs on */
	size_t		 running;	/* hosts (pairs) working on it now */
	const char	*slowest;	/* the one running longest, or NULL */
	double		 slowest_secs;	/* since it started the step */
	size_t		 round;		/* the running round, 1-based */
	size_t		 rounds;	/* of; 0: no rounds */
	size_t		 pairs_done;	/* pairs measured, every round */
	size_t		 pairs_total;	/* pairs of the schedule */
};

/*
 * "[TASK] 3/4 hosts done, waiting on lab01 (5.2s)", with " and N more" when
 * N other hosts still run, into buf; with rounds, "[TASK] round 3/8, 14/37
 * pairs done, waiting on eu1<->asia1 (5.2s) and 4 more". At most width-1 bytes when width > 0,
 * as a line as wide as the terminal wraps, and a wrapped line cannot be
 * erased with "\r"; the task name is shortened first (with "..."), and
 * nothing is cut inside a UTF-8 character. Returns buf.
 */
char	*run_progress_line(char *buf, size_t size,
	    const struct run_progress *p, int width);

#endif
