/* Scripts embedded from lib/remote/NAME.sh at build time (see
 * CMakeLists.txt; the probe and the prelude without their comment and
 * blank lines). Each is NUL-terminated text. The prelude is only
 * remote_program's (lib/remote/remote-cmd.c) to prepend. */
#ifndef TCPTUNE_EMBEDDED_H
#define TCPTUNE_EMBEDDED_H

extern const char embedded_prelude_sh[];
extern const char embedded_probe_sh[];
extern const char embedded_apply_sh[];
extern const char embedded_confirm_sh[];
extern const char embedded_iperf3_sh[];
extern const char embedded_modprobe_sh[];
extern const char embedded_file_sh[];
extern const char embedded_systemd_sh[];
extern const char embedded_command_sh[];
extern const char embedded_apt_sh[];

#endif
