#!/bin/bash
# lang-compat.sh - where tcptune and ansible-playbook 2.14 used to differ
# on the same input (issue 22), each compared on one lab host: every line
# but the recap's, the recap counts and the exit status the same
# (play_compare). tests/data/lang4/command.yml: command runs exactly
# Ansible's argv (shlex.split of the free form, $VAR and ~ expanded, no
# shell: no redirection, no substitution, no glob), shell runs /bin/sh -c
# or its executable. tests/data/lang4/conn.yml: -e ansible_host,
# ansible_port and ansible_user are where tcptune connects, over an
# inventory whose own lead nowhere. Needs root and ansible-playbook (77 otherwise).
# Lab l4a, 198.19.140.0/24.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
e2e_init lang-compat "${1:-}"
command -v ansible-playbook >/dev/null 2>&1 || {
	echo "lang-compat: SKIP: ansible-playbook not installed"; exit 77; }
e2e_lab_up 1 l4a 198.19.140
H=${HOSTS[0]}
cd "$E2E_SRC/tests/data/lang4" || exit 1
ansible_env

# debug_msgs < OUTPUT: each debug task's msg, one a line, as printed.
debug_msgs() {
	sed -n 's/^    "msg": "\(.*\)"$/\1/p'
}

# 1. command's argv
lab "$H" rm -f /tmp/lang4-x
play_compare command command.yml
# what the comparison rests on: what the programs received
assert_eq "command: each program's words" "$(cat <<'END'
/root > /tmp/lang4-x ${NOPE_L4} $NOPE_L4 echo,$HOME,>,/tmp/lang4-x,${NOPE_L4},$NOPE_L4
none
a  b|c\\d|e\"f|g h||/root|/root/x|*|`id`|;|
a;b|c$(id)|&&|true| 6
one|two lines|$((1+1))|
/root|a|b|>|$(id)|a;b  c$(id)|
5
/bin/bash 16
END
)" "$(debug_msgs <<<"$RUN_OUT")"

# 2. -e ansible_host, ansible_port and ansible_user beat the inventory's:
# its own lead nowhere (a refused port on the loopback, a user with no key)
sed -e "s/ansible_host: ${LAB_ADDRS}\$/ansible_host: 127.0.0.1\n          ansible_port: 1/" \
    -e 's/ansible_user: root/ansible_user: nobody/' \
    "$LAB_INVENTORY" >"$E2E_TMP/nowhere.yml"
LAB_INVENTORY=$E2E_TMP/nowhere.yml
e2e_run 30 tt play conn.yml
assert_rc_bit "conn: the inventory's address alone is unreachable" 4
play_compare "conn -e" conn.yml -e "ansible_host=$LAB_ADDRS" \
    -e ansible_port=22 -e ansible_user=root
assert_eq "conn: -e's address, port and user" \
    "$LAB_ADDRS:22 root|$LAB_ADDRS 22 root" \
    "$(debug_msgs <<<"$RUN_OUT" | paste -sd '|')"
LAB_INVENTORY=$LAB_DIR/inventory.yml
e2e_finish
