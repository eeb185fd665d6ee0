#!/bin/bash
# lang-sysctl-role.sh - a sysctl role shaped like the ones teams keep
# (tests/data/lang/sysctl-role.yml: role parameters over defaults, role
# vars over play vars, with_dict and loop with a label over
# ansible.posix.sysctl, a block with `when`, state absent, a handler
# notified by each) applied by ansible-playbook to one lab host and by
# tcptune to another, from the same files: the drop-in comes out
# byte-identical, every key it names has the same live value, the recaps'
# changed counts are equal; each rerun reports changed=0; tcptune's
# --check --diff on a third host changes nothing (file hash, live values)
# and shows the diff. Needs root and ansible-playbook (77 otherwise).
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
e2e_init lang-sysctl-role "${1:-}"
command -v ansible-playbook >/dev/null 2>&1 || {
	echo "lang-sysctl-role: SKIP: ansible-playbook not installed"; exit 77; }
[[ -r /usr/lib/python3/dist-packages/ansible_collections/ansible/posix/plugins/modules/sysctl.py ]] || {
	echo "lang-sysctl-role: SKIP: the ansible.posix collection is not installed"
	exit 77
}
e2e_lab_up 3 hls 198.18.61
cd "$E2E_SRC/tests/data/lang" || exit 1
PB=sysctl-role.yml
A=${HOSTS[0]} T=${HOSTS[1]} C=${HOSTS[2]}
FILE=/etc/sysctl.d/60-role.conf
KEYS=(net.ipv4.tcp_fin_timeout net.ipv4.tcp_syn_retries net.core.somaxconn
    net.ipv4.tcp_keepalive_time net.ipv4.tcp_keepalive_intvl
    net.ipv4.tcp_keepalive_probes)
export ANSIBLE_LOCAL_TEMP=$E2E_TMP/ansible-tmp ANSIBLE_HOME=$E2E_TMP/ansible-home
export ANSIBLE_NOCOLOR=1 ANSIBLE_PYTHON_INTERPRETER=/usr/bin/python3
export ANSIBLE_RETRY_FILES_ENABLED=0

seed() {
	lab "$1" sh -c "printf '# kept\nnet.ipv4.tcp_keepalive_probes = 7\n' >$FILE
	    sysctl -qw net.ipv4.tcp_fin_timeout=60 net.core.somaxconn=4096"
}
file_of() { lab "$1" sh -c "sha256sum <$FILE | cut -d' ' -f1"; }
lives_of() {
	local k
	for k in "${KEYS[@]}"; do
		printf '%s = %s\n' "$k" "$(lab "$1" sysctl -n "$k")"
	done
}

for h in "$A" "$T" "$C"; do seed "$h"; done
assert_eq "the hosts start the same" "$(file_of "$A") $(lives_of "$A")" \
    "$(file_of "$T") $(lives_of "$T")"

e2e_run 120 ansible-playbook -i "$LAB_INVENTORY" --limit "$A" "$PB"
assert_rc "ansible-playbook applies the role" 0
assert_match "Ansible: 4 changed (3 tasks and the handler)" \
    "$A +: ok=4 +changed=4 +unreachable=0 +failed=0 +skipped=0" "$RUN_OUT"
e2e_run 60 tt play "$PB" --limit "$T"
assert_rc "tcptune applies the role" 0
assert_match "tcptune: the same recap" \
    "$T +: ok=4 +changed=4 +unreachable=0 +failed=0 +skipped=0" "$RUN_OUT"
assert_match "tcptune: the loop's labels as Ansible prints them" \
    "changed: \[$T\] => \(item=net.ipv4.tcp_keepalive_intvl\)" "$RUN_OUT"
assert_eq "the drop-in is byte-identical" "$(file_of "$A")" "$(file_of "$T")"
assert_eq "the live values are the same" "$(lives_of "$A")" "$(lives_of "$T")"
assert_eq "the file as the role makes it" "# kept
net.ipv4.tcp_fin_timeout=31
net.ipv4.tcp_syn_retries=5
net.core.somaxconn=2048
net.ipv4.tcp_keepalive_time=600
net.ipv4.tcp_keepalive_intvl=30" "$(lab "$T" cat "$FILE")"

# Reruns: nothing changes, no handler runs.
e2e_run 120 ansible-playbook -i "$LAB_INVENTORY" --limit "$A" "$PB"
assert_match "Ansible's rerun: changed=0" "$A +: ok=3 +changed=0" "$RUN_OUT"
e2e_run 60 tt play "$PB" --limit "$T"
assert_match "tcptune's rerun: changed=0, no handler" \
    "$T +: ok=3 +changed=0 +unreachable=0 +failed=0" "$RUN_OUT"
assert_eq "still byte-identical" "$(file_of "$A")" "$(file_of "$T")"

# --check --diff on a fresh host: nothing written or set, the diff shown.
before="$(file_of "$C") $(lives_of "$C")"
e2e_run 60 tt play "$PB" --limit "$C" --check --diff
assert_rc "--check --diff runs" 0
assert_eq "--check changed nothing" "$before" "$(file_of "$C") $(lives_of "$C")"
assert_match "--check --diff shows the new line" \
    "\+net.ipv4.tcp_fin_timeout=31" "$RUN_OUT"
e2e_finish
