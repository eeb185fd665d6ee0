/* A play's gather_subset, as ansible-core 2.14's setup module reads it
 * (module_utils/facts/collector.py, get_collector_names): which of the
 * ansible_* facts tcptune gives from its probe are defined after the play
 * gathers. The probe itself always runs whole (tcptune's own `facts` keep
 * everything); only Ansible's names follow the subset. */
#ifndef TCPTUNE_GATHER_SUBSET_H
#define TCPTUNE_GATHER_SUBSET_H

#include <jansson.h>

/* The collectors of the facts tcptune gives (a bit each). */
#define GATHER_DISTRIBUTION	0x01u	/* distribution*, os_family */
#define GATHER_PLATFORM		0x02u	/* kernel, architecture, hostname.. */
#define GATHER_SERVICE_MGR	0x04u
#define GATHER_HARDWARE		0x08u	/* memtotal_mb, processor_vcpus, mounts */
#define GATHER_VIRTUAL		0x10u	/* virtualization_* */
#define GATHER_NETWORK		0x20u	/* default_ipv4, interfaces, eth0.. */
#define GATHER_OTHER		0x40u	/* every collector tcptune lacks */
#define GATHER_ENV		0x80u
#define GATHER_LOCAL		0x100u
#define GATHER_LSB		0x200u
#define GATHER_PKG_MGR		0x400u
#define GATHER_ALL		0x7ffu

/* The collectors that subsets (a list of strings: "all", "min", "!all",
 * "network", "!hardware", "kernel"...; NULL: ["all"]) select: 0 with
 * *mask, or -1 with *cause "unknown subset 'x' ..." for a name Ansible's
 * setup refuses (asking to exclude an unknown one is ignored, as there). */
int	gather_subset_mask(const json_t *subsets, unsigned *mask,
	    char **cause);

/* Keep in vars only the ansible_* facts of mask's collectors: each other
 * fact leaves vars' ansible_facts and, unless a level above the facts set
 * it again, its ansible_NAME variable; then gather_subset (the list as
 * given, ["all"] for NULL) and module_setup (true) are added, as setup
 * adds them. Each interface's own fact (eth0) is the network's. A fact whose collector is not known here stays only when
 * every collector is in mask. Nothing is done when vars has no facts. */
void	gather_subset_apply(json_t *vars, unsigned mask,
	    const json_t *subsets);

#endif
