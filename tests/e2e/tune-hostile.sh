#!/bin/bash
# tune-hostile.sh - no inventory value reaches a host as anything but
# refused or inert data (issue 14, item 1), on 4 lab hosts whose vars come
# from a hostile static inventory (tests/data/hostile/vars.yml) and a
# hostile dynamic one (inventory.sh):
#  - a newline (lab01) or CR (lab02) in a value templated into a sysctl
#    value, shell substitutions (lab03, lab04 from a script): the host
#    fails naming the task's file:line and the parameter; no drop-in is
#    written, no live value changes (every tuned key, the files under
#    /etc/sysctl.d, /var/lib/tcptune and /etc/modules-load.d are the same);
#  - a newline in tcptune_sysctl_file (lab03) and a path walking out of
#    /etc/sysctl.d (lab04) are refused the same way (tests/data/hostile/
#    path.yml);
#  - a play whose first tuning task would be applied before a command runs
#    stops the host before both (the preflight), so nothing runs at all;
#  - in a command, the same values are quoted as one word each: they
#    arrive as text and run nothing (lab03, lab04);
#  - plan (check mode) refuses the same values;
#  - a NUL byte in a dynamic inventory's JSON is refused when it is read.
# Usage: tune-hostile.sh [TCPTUNE]. Exit 77 when not root.
set -uo pipefail
# shellcheck source=tests/e2e/tune-lib.sh
. "$(dirname "$0")/tune-lib.sh"
e2e_init tune-hostile "${1:-}"
e2e_lab_up 4 t49 198.18.49

H=tests/data/hostile
before=$(fleet_snapshot)
hostile() {
	tt "$@" -i "$H/vars.yml" -i "$H/inventory.sh" --format json
}

msg_of() {
	jq_out --arg h "$1" '[.plays[0].results[$h][] | select(.status == "failed")][0].msg // ""'
}

e2e_run 40 hostile play "$H/sysctl.yml"
assert_rc "play with hostile values fails every host" 2
assert_eq "lab01: newline refused with the task's position and parameter" \
    "tests/data/hostile/sysctl.yml:6:7: task 'set tcp_wmem from a host var': values['net.ipv4.tcp_wmem']: value has a line feed (U+000A) at byte 17: '4096 16384 212992\\nnet.ipv4.tcp_rmem = 40…'; refused, nothing was written to this host" \
    "$(msg_of lab01)"
assert_match "lab02: carriage return refused" \
    "values\['net.ipv4.tcp_wmem'\]: value has a carriage return \(U\+000D\)" \
    "$(msg_of lab02)"
assert_match "lab03: shell substitution refused" \
    "value has '\\\$' \(shell quoting and substitution characters are refused in sysctl values\)" \
    "$(msg_of lab03)"
assert_match "lab04 (script inventory): backticks refused" \
    "value has '\`' \(shell quoting" "$(msg_of lab04)"
assert_eq "no host ran a task after the refusal (not even the probe)" 0 \
    "$(jq_out '[.plays[0].results[][] | select(.status != "failed")] | length')"
after=$(fleet_snapshot)
assert_eq "every host as before (files, tuned keys, qdisc, route)" \
    "$before" "$after"
for h in "${HOSTS[@]}"; do
	assert_eq "$h: no drop-in" absent "$(file_sha "$h" "$DROPIN")"
done
expect_stock lab01
assert_eq "lab03: the substitution never ran" absent \
    "$(lab lab03 sh -c '[ -e /tmp/tcptune-pwned ] && echo present || echo absent')"

# The drop-in path from the inventory: lab03's has a newline, lab04's
# (from the script inventory) walks out of /etc/sysctl.d.
e2e_run 40 hostile play "$H/path.yml" -l lab03,lab04
assert_rc "hostile drop-in paths refused" 2
assert_match "lab03: a newline in tcptune_sysctl_file refused" \
    "path.yml:7:7: task 'set tcp_wmem': var tcptune_sysctl_file: path has a line feed" \
    "$(msg_of lab03)"
assert_match "lab04: a path out of /etc/sysctl.d refused" \
    "var tcptune_sysctl_file: path has a '.' or '..' component: '/etc/sysctl.d/../../var/lib/tcptune/esc" \
    "$(msg_of lab04)"
# (a path inside the lab host's own /var/lib/tcptune, so that a regression
# writes nowhere outside the lab)
assert_eq "lab04: nothing written where the path pointed" absent \
    "$(file_sha lab04 /var/lib/tcptune/escaped.conf)"

# The preflight: the tcp_buffers task would be applied before the command,
# and the command would run, before the hostile task; neither happens.
e2e_run 40 hostile play "$H/staged.yml" -l lab01
assert_rc "staged play refused before its first task" 2
assert_match "lab01: refusal names the third task" \
    "staged.yml:14:7: task 'set tcp_wmem from a host var'" "$(msg_of lab01)"
assert_eq "lab01: the command never ran" absent \
    "$(file_sha lab01 /var/lib/tcptune/hostile-marker)"

# In a command, a value is one quoted word: lab03's $() and lab04's
# backticks arrive as text and run nothing.
e2e_run 40 hostile play "$H/command.yml" -l lab03,lab04
assert_rc "the command with hostile values runs as data" 0
assert_eq "lab03: the value arrived as text" \
    '4096 16384 $(touch /tmp/tcptune-pwned) 212992' \
    "$(lab lab03 cat /root/echoed)"
assert_eq "lab04: the value arrived as text" \
    '4096 16384 `touch /tmp/tcptune-pwned` 212992' \
    "$(lab lab04 cat /root/echoed)"
for h in lab03 lab04; do
	assert_eq "$h: the substitution never ran" absent \
	    "$(lab "$h" sh -c '[ -e /tmp/tcptune-pwned ] && echo present || echo absent')"
	lab "$h" rm -f /root/echoed
done

# Check mode refuses the same way (and changes nothing either).
e2e_run 40 hostile plan "$H/sysctl.yml" -l lab01
assert_rc "plan refuses too" 2
assert_match "plan: the same refusal" "value has a line feed" "$(msg_of lab01)"

e2e_run 40 tt play "$H/sysctl.yml" -i "$H/inventory-nul.sh"
assert_rc "a NUL in dynamic-inventory JSON is refused at load" 1
assert_match "the refusal names the script and the position" \
    "inventory-nul.sh --list: invalid JSON at line 3 column [0-9]+: .u0000 is not allowed" \
    "$(cat "$E2E_TMP/err")"

assert_eq "every host still as before" "$before" "$(fleet_snapshot)"
tune_finish
