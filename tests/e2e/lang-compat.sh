#!/bin/bash
# lang-compat.sh - where tcptune and ansible-playbook 2.14 used to differ
# on the same input (issue 22), each compared on one lab host: every line
# but the recap's, the recap counts and the exit status the same
# (play_compare). tests/data/lang4/command.yml: command runs exactly
# Ansible's argv (shlex.split of the free form, $VAR and ~ expanded, no
# shell: no redirection, no substitution, no glob), shell runs /bin/sh -c
# or its executable. tests/data/lang4/conn.yml: -e ansible_host,
# ansible_port and ansible_user are where tcptune connects, over an
# inventory whose own lead nowhere. tests/data/lang4/vars.yml: variables
# that reference variables (play vars, vars_files, a role's defaults, the
# inventory, -e, set_fact, a registered result) rendered when read, typed
# as Ansible's; loop.yml: a loop fails clearly. subset.yml: gather_subset
# decides which ansible_* facts are defined. local.yml: a host with
# ansible_connection: local runs on the controller. Needs root and
# ansible-playbook (77 otherwise).
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
/root > /tmp/lang4-x ${NOPE_L4} $NOPE_L4 ['echo', '$HOME', '>', '/tmp/lang4-x', '${NOPE_L4}', '$NOPE_L4']
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

# 3. variables that reference variables, across levels: the inventory's
# lang4_inv reads a play var, -e's lang4_extra a role default
sed "s/^\(        $H:\)\$/\1\n          lang4_inv: \"{{ a }}@inv\"/" \
    "$LAB_INVENTORY" >"$E2E_TMP/vars-inv.yml"
LAB_INVENTORY=$E2E_TMP/vars-inv.yml
play_compare vars vars.yml -e 'lang4_extra={{ rd }}@extra'
assert_eq "vars: each chain's value, typed as Ansible's" "$(cat <<'END'
3-file+play/default 3
3-file+play/default
3 4 True True
3
4
3-file+play!
1.5

3@inv 3-file+play/default@extra
dflt False
3 10 11
10-reg
END
)" "$(sed -n 's/^ *"[a-z_]*": "\(.*\)"$/\1/p' <<<"$RUN_OUT")"
assert_match "vars: a list's items typed as Ansible's" \
    '"lst": \[
        3,
        "x3",
        \[
            3,
            3' "$RUN_OUT"
assert_match "vars: a comparison is a boolean" '"flag": true' "$RUN_OUT"
LAB_INVENTORY=$LAB_DIR/inventory.yml
play_compare literal literal.yml
assert_match "literal: '{{ s }}' of the text '[1, 2]' is the list" \
    '"msg": \[
        1,
        2
    \]' "$RUN_OUT"
# a template that reads itself fails the task, as in Ansible
e2e_run 60 ansible-playbook -i "$LAB_INVENTORY" loop.yml
assert_match "loop: Ansible detects it" "recursive loop detected in template string" \
    "$RUN_OUT"
e2e_run 30 tt play loop.yml
assert_rc_bit "loop: the host fails" 2
assert_match "loop: the message names the place and the loop" \
    "fatal: \[$H\]: FAILED! => loop.yml:9:20: recursive loop detected in template string: \{\{ y \}\} \(variable 'x'\)" \
    "$RUN_OUT"

# 4. gather_subset decides which ansible_* facts are defined
play_compare subset subset.yml
assert_eq "subset: the facts each subset defines" "$(cat <<'END'
all 30 True True True True True
!all 18 True False False False True
!all,network 25 True False True True True
min 18 True False False False True
!all,!min 0 False False False False False
hardware 21 True True False False True
virtual 20 True False False False True
!env,!local 28 True True True True False
END
)" "$(awk '/^PLAY \[/ { p = substr($2, 2, length($2) - 2) }
    /"msg": "[a-z0-9_ ]*"$/ { v = $0; sub(/^ *"msg": "/, "", v)
	n = split(v, w, " ") - 1 }
    /"msg": "(True|False)/ { gsub(/"/, ""); print p, n, $2, $3, $4, $5, $6 }' <<<"$RUN_OUT")"
printf '%s\n' '- hosts: all' '  gather_subset: [network, hardwar]' \
    '  tasks: []' >"$E2E_TMP/bad-subset.yml"
e2e_run 30 tt play "$E2E_TMP/bad-subset.yml"
assert_match "subset: an unknown one is refused at load, with its place" \
    "bad-subset.yml:2:18: gather_subset: unknown subset 'hardwar'" "$RUN_OUT$RUN_ERR"

# 5. ansible_connection: local runs on the controller, no ssh
sed "s/^\(        $H:\)\$/        localhost:\n          ansible_connection: local\n\1/" \
    "$LAB_INVENTORY" >"$E2E_TMP/local-inv.yml"
LAB_INVENTORY=$E2E_TMP/local-inv.yml
play_compare local local.yml
assert_match "local: localhost ran here, without ssh; the lab host over ssh" \
    "\"msg\": \"localhost: $(uname -n) ssh=\".*\"msg\": \"$H: $H ssh=yes\"" \
    "$(tr '\n' ' ' <<<"$RUN_OUT")"
sed -i 's/ansible_connection: local/ansible_connection: docker/' \
    "$LAB_INVENTORY"
e2e_run 30 tt play local.yml
assert_match "local: a connection tcptune lacks is refused, naming host and value" \
    "host 'localhost': ansible_connection 'docker' is not supported" \
    "$RUN_OUT$RUN_ERR"
LAB_INVENTORY=$LAB_DIR/inventory.yml
printf '%s\n' '- hosts: localhost' '  gather_facts: false' '  tasks: []' \
    >"$E2E_TMP/implicit.yml"
e2e_run 30 tt play "$E2E_TMP/implicit.yml"
assert_match "local: the implicit localhost as a play's target says what to do" \
    "no hosts match 'localhost' \(Ansible's implicit localhost is only delegate_to's here" \
    "$RUN_OUT$RUN_ERR"
e2e_finish
