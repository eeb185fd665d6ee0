/* Scripts embedded from lib/NAME.sh at build time (see CMakeLists.txt). Each is
 * NUL-terminated text. */
#ifndef TCPTUNE_EMBEDDED_H
#define TCPTUNE_EMBEDDED_H

extern const char embedded_probe_sh[];
extern const char embedded_apply_sh[];

#endif
