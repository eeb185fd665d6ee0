/* Tuning: what the tcp_buffers, congestion, sysctl and route modules stage
 * for a host, and the one round trip that applies it (or, in check mode,
 * shows it).
 *
 * Tuning modules never write anything themselves: they add keys (each with
 * its reason), a live qdisc, kernel modules and route options to the host's
 * stage (their module's .stager is tune_stager). The runner flushes the
 * stage -- once per play, before the first task that is not a tuning
 * module and at the end of the play -- through tune_stager, so that one
 * drop-in per play is written in one round trip however many tuning tasks
 * there are, and a verification task that follows sees the new values. */
#ifndef TCPTUNE_TUNE_H
#define TCPTUNE_TUNE_H

#include <jansson.h>

#include "remote/probe.h"
#include "remote/qdisc-plan.h"
#include "tune/dropin.h"
#include "playbook/module.h"

struct module_ctx;

#define TUNE_DEFAULT_FILE	"/etc/sysctl.d/90-tcptune.conf"
#define TUNE_STATE_DIR		"/var/lib/tcptune"

struct stage {
	char		*file;		/* the drop-in path */
	struct dropin	 dropin;	/* keys with reasons, in order */
	char		*qdisc;		/* live qdisc to set on the interfaces
					 * of qplan that need it, or NULL */
	struct qdisc_plan qplan;	/* every interface that carries the
					 * traffic, with its live qdisc */
	char		*modules;	/* "tcp_bbr sch_fq", or NULL */
	char		*route_opts;	/* "initcwnd 10 initrwnd 10", or NULL */
	int		 route_changed;	/* the live route lacks route_opts */
	int		 route_persist;	/* keep them with a oneshot unit */
	char		**notes;	/* "cannot be set here" and skips */
	size_t		 nnotes;
};

void	stage_free(struct stage *st);
/* Route options in the words `ip route` takes and shows: "initcwnd 10
 * initrwnd 10", either alone, or NULL when neither is an integer. The
 * route module stages them; drift shows the live route's the same way. */
char	*tune_route_opts(const json_t *initcwnd, const json_t *initrwnd);
/* Whether flushing st changes a live qdisc (an interface of its plan
 * lacks it) or the default route (it lacks the options): what a
 * confirmation is armed for by default. Pure. */
int	 tune_changes_live_net(const struct stage *st);
/* The host's stage for file, created on first use. Fails when a play
 * stages two different files ("one drop-in per play"). */
struct stage *tune_stage(struct module_ctx *ctx, const char *file,
	    char **cause);
void	stage_note(struct stage *st, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));

/* The tuning modules' stager: its flush applies (in check mode, diffs)
 * the host's stage in one round trip -- plan the request, render the
 * drop-in, apply, interpret -- as the task "apply tuning (sysctl drop-in,
 * qdisc, route)" of module "tune". */
extern const struct module_stager tune_stager;

/* The file whose assignment of key wins at boot (by the probe's
 * sysctl_files facts), or NULL; with planned, as it will be once planned's
 * keys are its file's (allocated). */
/* One drift item, {"key", "expected", "live", "cause", "detail"} (live
 * and expected may be NULL, detail is left out when NULL), appended to
 * items: what tcptune drift reports. */
void	 tune_drift_add(json_t *items, const char *key, const char *expected,
	    const char *live, const char *cause, const char *detail);
char	*tune_boot_winner(const json_t *facts, const struct stage *planned,
	    const char *key);

struct apply_request;
struct apply_result;
/* Run the apply script (lib/remote/apply.sh) on the context's host and
 * parse what it says into ar. -2 with res failed when the request does not
 * pass the gate or asks for a change in check mode (nothing is sent then);
 * -1 with res failed (or unreachable) when the round trip or its output
 * failed. input: the script's standard input, or NULL. */
int	tune_run_apply(struct module_ctx *ctx, const struct apply_request *req,
	    const char *input, struct apply_result *ar,
	    struct module_result *res);
/* Take in the probe the script ran after a change (ar->facts, if any),
 * which read what `what` says (apply_reread): a PROBE_SYSCTL one updates
 * just those facts; a PROBE_NET one replaces the others too but for what
 * it did not read again (the system, memory, tuned, the RTTs, and unless
 * PROBE_NET_MODULES the kernel config and modules), kept from before. */
void	tune_refresh_facts(struct module_ctx *ctx, struct apply_result *ar,
	    enum probe_reread what);

/* Drift of one host, pure: st is what the play would make, ar what the
 * check-mode apply script read (the file, each key's live value), facts the
 * probe's. An array of {key, expected, live, cause[, detail]} where cause is
 * "file missing", "file edited", "changed at runtime", "overridden" (detail:
 * the winning file), "qdisc differs from the config" (detail: interface) or
 * "module not loaded". */
json_t	*tune_drift_items(const struct stage *st,
	    const struct apply_result *ar, const json_t *facts);

/* Restore a host: the drop-in and live values saved before tcptune's first
 * apply (previous 0: the host's own configuration), or before the last
 * apply that changed something (previous 1: what iperf3_verify's gate
 * wants). Used by the rollback module and by on_regression: rollback. With
 * plan set, only read and show what would be restored (check mode). res
 * gets changed/ok/failed and a message. */
int	tune_rollback(struct module_ctx *ctx, const char *file, int previous,
	    int plan, struct module_result *res);

#endif
