/* ansible.builtin.systemd's decision (ansible-core 2.14, modules/
 * systemd.py, main()): from the unit's states (systemctl show) and
 * whether it is enabled (is-enabled's status), what to run -- enable or
 * disable, then start, stop, restart or reload -- and the module's
 * changed, enabled and state results. Pure. */
#ifndef TCPTUNE_TUNE_SVCPLAN_H
#define TCPTUNE_TUNE_SVCPLAN_H

struct svc_seen {
	const char	*load_state;	/* LoadState: loaded, not-found,
					 * masked ... (NULL: not shown) */
	const char	*active_state;	/* ActiveState */
	const char	*load_error;	/* LoadError, NULL or "": none */
	int		 enabled_rc;	/* is-enabled -l's status */
};

struct svc_plan {
	const char	*enable;	/* "enable", "disable" or NULL */
	const char	*action;	/* "start", "stop", "restart",
					 * "reload" or NULL */
	int		 changed;
	int		 enabled;	/* after (-1: not asked) */
	const char	*state;		/* result's state (NULL: not asked):
					 * the asked one, "started" for
					 * restarted/reloaded */
};

/* state: NULL or started, stopped, restarted, reloaded; enabled -1 (not
 * asked), 0 or 1. 0, or -1 with *cause the module's failure ("Could not
 * find the requested service X: ...", "Error loading unit file ..."). */
int	 svc_decide(const char *unit, const char *state, int enabled,
	    const struct svc_seen *seen, struct svc_plan *plan, char **cause);

#endif
