/* reboot's pure parts (modules/mod-reboot.c): the guard that keeps a
 * reboot off the controller's own kernel, and the command it runs. */
#ifndef TCPTUNE_REBOOT_H
#define TCPTUNE_REBOOT_H

/*
 * A host may be rebooted only when its boot_id
 * (/proc/sys/kernel/random/boot_id, what the reboot plugin reads to see a
 * reboot happen) is known and is not own, the controller's: a host with
 * the controller's boot_id runs on the controller's kernel (a network
 * namespace, a container: the test lab), and rebooting it would reboot
 * the controller. 0, or -1 with *cause naming why not.
 */
int	 reboot_guard(const char *host, const char *host_boot_id,
	    const char *own_boot_id, char **cause);
/* The command: reboot_command if given, else the plugin's Linux default
 * `shutdown -r DELAY_MIN "MSG"` (DELAY_MIN: pre_reboot_delay // 60, as
 * the plugin has it; the message one shquoted word). A new string. */
char	*reboot_command_line(const char *reboot_command, long long pre_delay,
	    const char *msg);

#endif
