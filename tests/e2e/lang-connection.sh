#!/bin/bash
# lang-connection.sh - the connection keywords against ansible-playbook
# 2.14 on the same two lab hosts, logged in as ttl-sudo (passwordless
# sudo): tests/data/lang3/become.yml (become and become_user on the play,
# blocks, an inner block with a templated user, a task, an import, an
# import_role and a roles: entry; the second host's ansible_become_user
# over every keyword) prints who each command ran as; and
# tests/data/lang3/delegate.yml (delegate_to localhost, the implicit one;
# delegate_to the other inventory host, templated, on a block and per loop
# item; local_action) prints where each ran and what the original host
# registered: for each, every line but the recap's (the delegated hosts'
# labels, 'ok: [lab01 -> lab02(ADDRESS)]', too), the recap counts and the
# exit status must be the same. tests/data/lang3/facts.yml prints the
# ansible_* facts (prefixed and under ansible_facts) that mean the same in
# a namespace, from Ansible's setup module and from tcptune's probe: the
# same lines (the network facts of every interface, default_ipv6, the
# addresses, pkg_mgr, lsb, local, some of env, the mounts too);
# facts-none.yml: without gathering they are undefined;
# hostvars.yml: a peer's facts, set_fact and registered result read
# through hostvars, in its play and a later one, through extract too;
# magic.yml: Ansible's magic variables, the same lines, in check mode too.
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

# delegation: as root, the lab's own inventory
LAB_INVENTORY=$LAB_DIR/inventory.yml
play_compare delegate delegate.yml -e "controller=$(uname -n)"
assert_match "delegate_to localhost runs on the controller" \
    "ok: \[${HOSTS[0]} -> localhost\].*
ok: \[${HOSTS[1]} -> localhost\]" "$RUN_OUT"
assert_match "its result is the original host's" \
    "\"msg\": \"${HOSTS[0]} ran on the controller: True\"" "$RUN_OUT"
assert_match "delegate_to another host: its connection, the label with its address" \
    "ok: \[${HOSTS[0]} -> ${HOSTS[1]}\(198\.19\.110\.[0-9]+\)\].*
ok: \[${HOSTS[1]}\]" "$RUN_OUT"
assert_match "what it registered is the original host's" \
    "\"msg\": \"${HOSTS[0]} registered ${HOSTS[1]}\"" "$RUN_OUT"
assert_match "local_action: localhost, with the host's vars" \
    "\"msg\": \"local: ${HOSTS[1]}\"" "$RUN_OUT"
assert_match "delegate_to per loop item" \
    "ok: \[${HOSTS[0]} -> ${HOSTS[1]}\(198\.19\.110\.[0-9]+\)\] => \(item=${HOSTS[1]}\)" \
    "$RUN_OUT"
# Ansible's fact names from the probe, against the setup module's
play_compare facts facts.yml
for fact in "distribution=Debian" "os_family=Debian" "kernel=$(uname -r)" \
    "architecture=$(uname -m)" "hostname=${HOSTS[0]}" \
    "processor_vcpus=$(nproc --all)"; do
	assert_match "facts: $fact (as this machine has it)" "\"msg\": \"$fact\"" \
	    "$RUN_OUT"
done
# what the new facts' comparison rests on (the lab: eth0 in a /24, no
# IPv6 default route, Debian 12, apt, no /etc/ansible/facts.d)
for fact in "255.255.255.0 198.19.110.0 '' 24 [0-9a-f:]{17} ether 1500 eth0" \
    "eth0 eth0 [0-9a-f:]{17} 1500 True ether False" "lo lo none 65536 True loopback" \
    "apt apt Debian Debian GNU/Linux 12 \\(bookworm\\) 12 bookworm 12 0 0 False" \
    "HOME=/root" "PATH=/usr/local/sbin:" "/ /dev/[^ ]+ [a-z0-9]+ [a-z]" \
    " none 198\\.19\\.110\\.[0-9]+ fe80::"; do
	assert_match "facts: $fact" "\"msg\": \"$fact" "$RUN_OUT"
done
play_compare "no facts" facts-none.yml
assert_match "gather_facts: false: no ansible_distribution, ansible_facts empty" \
    '"msg": "False 0"' "$RUN_OUT"

# hostvars: a peer's facts, set_fact, registered result and inventory
# vars, in the play that made them and a later one, through extract too
play_compare hostvars hostvars.yml
assert_match "hostvars: the server's facts, role and user in the later play" \
    '"msg": "server=True family=ether role=server user=root"' "$RUN_OUT"
assert_match "hostvars: extract over the group" \
    "\"msg\": \"\\['server', 'agent'\\] \\[0, 0\\] 2\"" "$RUN_OUT"

# Ansible's magic variables: options, play, host, after a failure, a
# serial play after it; in check mode, with tags and a limit
play_compare magic magic.yml
assert_match "ansible_play_hosts without the failed host" \
    "\"msg\": \"all=\['${HOSTS[0]}', '${HOSTS[1]}'\] hosts=\['${HOSTS[1]}'\]" "$RUN_OUT"
play_compare "magic --check" magic.yml --check --tags all --limit "${HOSTS[1]}"
assert_match "ansible_check_mode, ansible_limit" \
    "\"msg\": \"check=True diff=False forks=1 v=0 tags=\['all'\] skip=\[\] limit=${HOSTS[1]} " \
    "$RUN_OUT"

# a name that is no host: the task fails, naming where and what
printf '%s\n' '- hosts: lab' '  gather_facts: false' '  tasks:' \
    '    - command: "true"' '      delegate_to: nowhere' >"$E2E_TMP/bad.yml"
e2e_run 30 tt play "$E2E_TMP/bad.yml"
assert_rc_bit "delegate_to an unknown host fails the hosts" 2
assert_match "the message names the keyword's place and the name" \
    "bad.yml:5:20: delegate_to: 'nowhere' is not a host of the inventory" \
    "$RUN_OUT"
# a tuning module stages for its own host: delegating it fails the task
printf '%s\n' '- hosts: lab' '  gather_facts: false' '  tasks:' \
    '    - sysctl: {values: {net.ipv4.tcp_mtu_probing: 1}}' \
    '      delegate_to: localhost' >"$E2E_TMP/stage.yml"
e2e_run 30 tt play "$E2E_TMP/stage.yml" --check
assert_rc_bit "delegate_to on a staging module fails the hosts" 2
assert_match "the message names the place and the module" \
    "stage.yml:5:20: delegate_to is not supported on 'sysctl'" "$RUN_OUT"
e2e_finish
