#!/bin/bash
# guests-roles.sh - a team's roles, unchanged, on real kernels: the
# playbook tests/data/guest-roles/site.yml (import_playbook with tags; a
# hardening role with meta dependencies, import_tasks, a block with `when`
# on facts, an assert on facts, a loop over dict2items with a label and a
# lineinfile on /etc/sysctl.conf; a sysctl role with defaults, vars and
# role params, a template-rendered drop-in with a `sysctl --system`
# handler, with_dict; a BBR role with include_tasks in a loop over a
# persistent community.general.modprobe; post_tasks with register and an
# assert on live values) applied as the non-root user with become by
# ansible-playbook (Debian's ansible-core 2.14 and collections) to one
# User-mode Linux guest, and by tcptune to another whose python3 is made
# unrunnable first (tcptune needs none):
#   1. every file under /etc/sysctl.d, /etc/modules-load.d and
#      /etc/modprobe.d, and /etc/sysctl.conf, is byte-identical;
#   2. every sysctl key the sources name has the same live value, and the
#      same modules are loaded;
#   3. the same exit status, the same tasks with the same statuses and
#      items, and the same recap counts;
#   4. each rerun: the same recap counts as Ansible's rerun (changed=0);
#   5. tcptune play --check --diff on a third guest changes nothing (its
#      files as above, `sysctl -a` but for the counters that move by
#      themselves, the loaded modules) and shows the diff.
# Figures: each run's wall time ("figure:" lines).
#
# Usage: guests-roles.sh [TCPTUNE]. Exit 77 when not root or without
# ansible-playbook; when UML cannot run here it FAILS with the reason.
# Programs for the guests' sh are in single quotes on purpose.
# shellcheck disable=SC2016
set -uo pipefail
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
e2e_init guests-roles "${1:-}"
command -v ansible-playbook >/dev/null 2>&1 || {
	echo "guests-roles: SKIP: ansible-playbook not installed"; exit 77; }
command -v jq >/dev/null 2>&1 || { echo "guests-roles: FAIL: jq missing"; exit 1; }
# shellcheck source=tests/e2e/guests-lib.sh
. "$(dirname "$0")/guests-lib.sh"

GDIR=/tmp/tcptune-e2e-guests-roles
PB=site.yml
# Every key the sources set (defaults, vars, tasks).
KEYS=(net.ipv4.conf.all.rp_filter net.ipv4.conf.default.rp_filter
    net.ipv4.tcp_syncookies net.ipv4.conf.all.accept_redirects
    net.ipv4.conf.all.send_redirects net.ipv6.conf.all.accept_ra
    net.core.rmem_max net.core.wmem_max net.ipv4.tcp_rmem net.ipv4.tcp_wmem
    net.ipv4.tcp_mtu_probing net.core.somaxconn
    net.ipv4.tcp_slow_start_after_idle net.core.default_qdisc
    net.ipv4.tcp_congestion_control)

# role_files HOST : path and sha256 of every file the roles may write.
role_files() {
	guest "$1" sh -c '
		find /etc/sysctl.d /etc/modules-load.d /etc/modprobe.d \
		    /etc/sysctl.conf -type f -exec sha256sum {} + | sort -k2'
}

# role_state HOST : the live values of KEYS and the modules the roles load.
role_state() {
	guest "$1" sh -c 'sysctl "$@" | tr -s " \t" "  "
		for m in tcp_bbr sch_fq; do
			[ -d /sys/module/$m ] && echo "module $m loaded"
		done; true' sh "${KEYS[@]}"
}

# no_python HOST : python3 cannot run there (Ansible's modules need it).
no_python() {
	guest "$1" sh -c 'chmod a-x /usr/bin/python3.*; ! python3 -c 1 2>/dev/null'
}

guests_up 3 grl 198.18.231
A=${HOSTS[0]} T=${HOSTS[1]} C=${HOSTS[2]}
cd "$E2E_SRC/tests/data/guest-roles" || exit 1
ansible_env
export ANSIBLE_STDOUT_CALLBACK=json

for h in "$T" "$C"; do
	no_python "$h"
	assert_rc "python3 cannot run on $h" 0
done
assert_eq "the guests start with the same files" "$(role_files "$A")" \
    "$(role_files "$T")"
# (but tcp_rmem and tcp_wmem, whose maxima the kernel sizes from the free
# memory at boot: a few KiB apart between guests)
assert_eq "the guests start with the same live values" \
    "$(role_state "$A" | grep -v tcp_.mem)" "$(role_state "$T" | grep -v tcp_.mem)"

# The first run of each.
e2e_run 600 ansible-playbook -i "$LAB_INVENTORY" --limit "$A" "$PB"
figure "ansible-playbook on $A"
ansible_rc=$RUN_RC
assert_eq "ansible-playbook applies the roles" 0 "$ansible_rc"
ansible_lines <<<"$RUN_OUT" | cut -f2- >"$E2E_TMP/ansible"
ansible_stats <<<"$RUN_OUT" | jq -S --arg h "$A" '.[$h]' >"$E2E_TMP/ansible-stats"
e2e_run 300 tt play "$PB" --limit "$T" --format json
figure "tcptune on $T"
assert_eq "the same exit status" "$ansible_rc" "$RUN_RC"
tcptune_lines <<<"$RUN_OUT" | cut -f2- >"$E2E_TMP/tcptune"
assert_eq "the same tasks, statuses and items" "" \
    "$(diff "$E2E_TMP/ansible" "$E2E_TMP/tcptune")"
assert_eq "the same recap counts" "$(cat "$E2E_TMP/ansible-stats")" \
    "$(tcptune_stats <<<"$RUN_OUT" | jq -S --arg h "$T" '.[$h]')"
assert_match "the roles' items ran" "net.ipv4.conf.all.send_redirects" \
    "$(cat "$E2E_TMP/tcptune")"
assert_eq "every file the roles wrote is byte-identical" \
    "$(role_files "$A")" "$(role_files "$T")"
assert_eq "every key has the same live value, the same modules loaded" \
    "$(role_state "$A")" "$(role_state "$T")"
assert_match "bbr and fq are live" "net.ipv4.tcp_congestion_control = bbr" \
    "$(role_state "$T")"
assert_match "the drop-in as the template renders it" \
    "^# Ansible managed
# Network buffers and queues.
net.core.rmem_max = 16777216" "$(guest "$T" cat /etc/sysctl.d/70-net-tuning.conf)"

# Reruns: what Ansible's rerun counts, tcptune's counts.
e2e_run 600 ansible-playbook -i "$LAB_INVENTORY" --limit "$A" "$PB"
figure "ansible-playbook rerun on $A"
ansible_stats <<<"$RUN_OUT" | jq -S --arg h "$A" '.[$h]' >"$E2E_TMP/ansible-stats"
assert_match "Ansible's rerun changes nothing" '"changed": 0' \
    "$(cat "$E2E_TMP/ansible-stats")"
e2e_run 300 tt play "$PB" --limit "$T" --format json
figure "tcptune rerun on $T"
assert_rc "tcptune's rerun" 0
assert_eq "the reruns' recap counts are the same" \
    "$(cat "$E2E_TMP/ansible-stats")" \
    "$(tcptune_stats <<<"$RUN_OUT" | jq -S --arg h "$T" '.[$h]')"
assert_eq "still byte-identical" "$(role_files "$A")" "$(role_files "$T")"

# --check --diff on the third guest: nothing changes, the diff is shown.
volatile_calibrate "$C"
before_files=$(role_files "$C")
snap "$C" before
e2e_run 300 tt play "$PB" --limit "$C" --check --diff
figure "tcptune --check --diff on $C"
assert_rc "--check --diff runs" 0
snap "$C" after
assert_eq "--check left the roles' files as they were" "$before_files" \
    "$(role_files "$C")"
assert_same "--check left every other watched file" \
    "$E2E_TMP/$C.before.files" "$E2E_TMP/$C.after.files"
assert_same "--check left sysctl -a as it was" \
    "$E2E_TMP/$C.before.sysctl" "$E2E_TMP/$C.after.sysctl"
assert_eq "--check loaded no module" "" \
    "$(role_state "$C" | grep '^module')"
assert_match "--check --diff shows the template's new lines" \
    "\+net.core.rmem_max = 16777216" "$RUN_OUT"
assert_match "--check --diff shows the lineinfile change" \
    "\+net.ipv4.conf.all.rp_filter = 1" "$RUN_OUT"
e2e_finish
