/* Kernel config symbols as the probe reports them: facts.kernel_config maps
 * CONFIG_X to "y", "m", "absent" or "unknown" (lib/remote/probe.c reads
 * /proc/config.gz or /boot/config-*; docs/facts.md). This is the reading
 * side, used to plan what the kernel has. No I/O. */
#ifndef TCPTUNE_KCONFIG_H
#define TCPTUNE_KCONFIG_H

enum kconfig {
	KCONFIG_UNKNOWN = 0,	/* no kernel config found */
	KCONFIG_ABSENT,		/* "# CONFIG_X is not set" or missing */
	KCONFIG_MODULE,		/* =m */
	KCONFIG_BUILTIN,	/* =y */
};

/* Map "y"/"m"/"n"/"absent"/NULL... to enum kconfig: "y" builtin, "m"
 * module, "n", "", "absent", "not set" absent, NULL or anything else
 * unknown. */
enum kconfig	 kconfig_from_string(const char *);
/* "CONFIG_<prefix><NAME>", a new string, with name upper-cased and '-'
 * made '_': ("TCP_CONG_", "bbr") gives "CONFIG_TCP_CONG_BBR". */
char		*kconfig_symbol(const char *prefix, const char *name);

#endif
