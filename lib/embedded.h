/* Scripts embedded from lib/*.sh at build time (see CMakeLists.txt). Each is
 * NUL-terminated text. */
#ifndef TCPTUNE_EMBEDDED_H
#define TCPTUNE_EMBEDDED_H

extern const char embedded_probe_sh[];

#endif
