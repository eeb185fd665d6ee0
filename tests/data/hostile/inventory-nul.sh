#!/bin/sh
# A dynamic inventory whose JSON holds a NUL byte in a value (C would cut
# the string there): refused when the inventory is read.
if [ "${1:-}" = --host ]; then echo '{}'; exit 0; fi
cat <<'JSON'
{"hostile": {"hosts": ["lab04"]},
 "_meta": {"hostvars": {"lab04": {
   "hv": "4096 16384 212992\u0000net.ipv4.tcp_rmem = 4096 4096 4096",
   "tcptune_sysctl_file": "/etc/sysctl.d/../../var/lib/tcptune/escaped.conf"}}}}
JSON
