/* do_until_success_or_timeout (see wait-loop.h). */
#include "modules/wait-loop.h"

#include <stdlib.h>

double
wait_backoff(int failures)
{
	double s = 1;

	while (failures-- > 0 && s <= 12)
		s *= 2;
	return s > 12 ? 12 : s;
}

int
wait_until(const struct wait_ops *ops, double timeout, double sleep,
    char **last, int *tries)
{
	double	 end = ops->now(ops->arg) + timeout;
	char	*err;
	int	 failures = 0;

	*last = NULL;
	*tries = 0;
	while (ops->now(ops->arg) < end) {
		err = NULL;
		(*tries)++;
		if (ops->attempt(ops->arg, &err) == 0) {
			free(err);
			free(*last);
			*last = NULL;
			return 0;
		}
		free(*last);
		*last = err;
		ops->sleep(ops->arg, sleep > 0 ? sleep : wait_backoff(failures));
		failures++;
	}
	return -1;
}
