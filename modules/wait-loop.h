/* The waits of wait_for_connection and reboot, as their action plugins'
 * do_until_success_or_timeout (ansible-core 2.14): try until a try
 * succeeds or the time is up, sleeping between tries a fixed time
 * (wait_for_connection's sleep) or reboot's backoff (2^failures seconds,
 * at most 12; the plugin adds up to 1 s at random, left out here). Pure:
 * the clock, the sleep and the try are given, so the unit test runs it on
 * a fake clock. */
#ifndef TCPTUNE_WAIT_LOOP_H
#define TCPTUNE_WAIT_LOOP_H

struct wait_ops {
	double	(*now)(void *arg);		/* seconds */
	void	(*sleep)(void *arg, double seconds);
	/* 0 on success, else -1 with *err (allocated): why not yet */
	int	(*attempt)(void *arg, char **err);
	void	 *arg;
};

/* 0 when a try succeeded; -1 when timeout seconds passed first, *last
 * the last try's error (allocated, or NULL if none was made). sleep <= 0:
 * reboot's backoff. *tries counts them. */
int	 wait_until(const struct wait_ops *ops, double timeout, double sleep,
	    char **last, int *tries);
/* Reboot's sleep after the failures-th failed try (0 first). */
double	 wait_backoff(int failures);

/* The real clock (monotonic seconds) and sleep, for the modules. */
double	 wait_clock_now(void *arg);
void	 wait_clock_sleep(void *arg, double seconds);

#endif
