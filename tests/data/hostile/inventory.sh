#!/bin/sh
# A dynamic inventory (less trusted than the playbook) with hostile values:
# a backtick substitution in a value and a drop-in path that walks out
# of /etc/sysctl.d.
if [ "${1:-}" = --host ]; then echo '{}'; exit 0; fi
cat <<'JSON'
{"hostile": {"hosts": ["lab04"]},
 "_meta": {"hostvars": {"lab04": {
   "hv": "4096 16384 `touch /tmp/tcptune-pwned` 212992",
   "tcptune_sysctl_file": "/etc/sysctl.d/../../var/lib/tcptune/escaped.conf"}}}}
JSON
