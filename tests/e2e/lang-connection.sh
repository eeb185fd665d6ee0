#!/bin/bash
# lang-connection.sh - the connection keywords against ansible-playbook
# 2.14 on the same two lab hosts, logged in as ttl-sudo (passwordless
# sudo): tests/data/lang3/become.yml (become and become_user on the play,
# blocks, an inner block with a templated user, a task, an import, an
# import_role and a roles: entry; the second host's ansible_become_user
# over every keyword) prints who each command ran as: every line but the
# recap's, the recap counts and the exit status must be the same.
# Needs root and ansible-playbook (77 otherwise).
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
e2e_init lang-connection "${1:-}"
command -v ansible-playbook >/dev/null 2>&1 || {
	echo "lang-connection: SKIP: ansible-playbook not installed"; exit 77; }
e2e_lab_up 2 l3a 198.19.110
cd "$E2E_SRC/tests/data/lang3" || exit 1
ansible_env
# become to another user than root: the module travels on sudo's stdin,
# no temporary file that user would have to read
export ANSIBLE_PIPELINING=1

# The lab's inventory, logged in as ttl-sudo; the second host becomes root
# whatever a play or task says.
sed -e 's/ansible_user: root/ansible_user: ttl-sudo/' \
    -e "s/^\(        ${HOSTS[1]}:\)\$/\1\n          ansible_become_user: root/" \
    "$LAB_INVENTORY" >"$E2E_TMP/inventory.yml"
LAB_INVENTORY=$E2E_TMP/inventory.yml

play_compare become become.yml
# what the comparison rests on, in tcptune's own output
for who in "play: ttl-pw" "block: root" "task: ttl-sudo" "inner: ttl-sudo" \
    "import: ttl-sudo" "role: root" "no become: ttl-sudo" "asked: root"; do
	assert_match "become: '$who' on ${HOSTS[0]}" \
	    "ok: \[${HOSTS[0]}\] => \{
    \"msg\": \"$who\"" "$RUN_OUT"
done
assert_match "ansible_become_user wins over the play's become_user" \
    "ok: \[${HOSTS[1]}\] => \{
    \"msg\": \"play: root\"" "$RUN_OUT"
e2e_finish
