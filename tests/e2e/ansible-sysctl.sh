#!/bin/bash
# ansible-sysctl.sh - a playbook written for Ansible's ansible.posix.sysctl
# (tests/data/sysctlconf/ansible-sysctl.yml: FQCN and short names, state
# present and absent, sysctl_file, reload, sysctl_set, key/val aliases,
# the key=value free form) is
# applied by ansible-playbook to one lab host and by tcptune to another,
# both starting from the same files: the files come out byte-identical and
# the live values the same; tcptune's --check --diff changes nothing (file
# checksums, live values) and shows the diff; its rerun reports changed=0;
# a later drop-in that sets a key is reported; the default sysctl_file
# (/etc/sysctl.conf, a bind mount in the lab that no rename can replace)
# fails on both and stays as it was. Needs root and ansible-playbook (77
# otherwise).
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
e2e_init ansible-sysctl "${1:-}"
command -v ansible-playbook >/dev/null 2>&1 || {
	echo "ansible-sysctl: SKIP: ansible-playbook not installed"
	exit 77
}
[[ -r /usr/lib/python3/dist-packages/ansible_collections/ansible/posix/plugins/modules/sysctl.py ]] || {
	echo "ansible-sysctl: SKIP: the ansible.posix collection is not installed"
	exit 77
}
e2e_lab_up 2 asy 198.18.111
cd "$E2E_SRC" || exit 1
PB=tests/data/sysctlconf/ansible-sysctl.yml
A=${HOSTS[0]}	# Ansible's host
T=${HOSTS[1]}	# tcptune's
FILES=(/etc/sysctl.d/80-ansible.conf /root/sysctl-extra.conf /etc/sysctl.conf)
KEYS=(net.ipv4.tcp_fin_timeout net.ipv4.tcp_rmem net.ipv4.tcp_sack
    net.ipv4.tcp_syn_retries net.ipv4.tcp_keepalive_time
    net.ipv4.tcp_keepalive_intvl net.ipv4.tcp_keepalive_probes)
export ANSIBLE_LOCAL_TEMP=$E2E_TMP/ansible-tmp ANSIBLE_HOME=$E2E_TMP/ansible-home
export ANSIBLE_NOCOLOR=1 ANSIBLE_PYTHON_INTERPRETER=/usr/bin/python3
export ANSIBLE_RETRY_FILES_ENABLED=0

# The same starting files on both hosts: blanks around '=', comments, a
# repeated key (its later line is the one in force), a key to remove.
seed() {
	lab "$1" sh -c 'printf "%s\n" "# tuned by hand" \
	    "net.ipv4.tcp_syn_retries = 5" "" "net.ipv4.tcp_fin_timeout=40" \
	    "  ; an old note  " "net.ipv4.tcp_fin_timeout = 45" \
	    "net.ipv4.tcp_keepalive_probes=7" >/etc/sysctl.d/80-ansible.conf
	    printf "net.ipv4.tcp_fin_timeout = 50\n" >/etc/sysctl.d/90-override.conf
	    rm -f /root/sysctl-extra.conf'
}

# Path, sha256 and mode of every file; "absent" when missing.
files_of() {
	# shellcheck disable=SC2016
	lab "$1" sh -c 'for f; do
		if [ -f "$f" ]; then
			printf "%s %s %s\n" "$f" "$(sha256sum <"$f" | cut -d" " -f1)" \
			    "$(stat -c %a "$f")"
		else
			echo "$f absent"
		fi
	done' sh "${FILES[@]}"
}

lives_of() {
	local k
	for k in "${KEYS[@]}"; do
		printf '%s = %s\n' "$k" "$(lab "$1" sysctl -n "$k" | tr -s ' \t' '  ')"
	done
}

seed "$A"
seed "$T"
assert_eq "both hosts start with the same files" "$(files_of "$A")" \
    "$(files_of "$T")"
assert_eq "both hosts start with the same live values" "$(lives_of "$A")" \
    "$(lives_of "$T")"

# --check --diff: nothing written, nothing set; the diff is shown.
before_files=$(files_of "$T")
before_live=$(lives_of "$T")
e2e_run 60 tt play "$PB" --limit "$T" --check --diff
assert_rc "tcptune --check --diff runs" 0
assert_eq "--check: the files are unchanged" "$before_files" "$(files_of "$T")"
assert_eq "--check: the live values are unchanged" "$before_live" \
    "$(lives_of "$T")"
assert_match "--check --diff: the file's diff" \
    "-net.ipv4.tcp_fin_timeout = 45" "$RUN_OUT"
assert_match "--check --diff: the rewritten line" \
    "\+net.ipv4.tcp_fin_timeout=31" "$RUN_OUT"
assert_match "--check --diff: the live value before -> after" \
    "live net.ipv4.tcp_keepalive_intvl: 75 -> 45" "$RUN_OUT"
assert_match "--check: the override is reported" \
    "/etc/sysctl.d/90-override.conf' also sets net.ipv4.tcp_fin_timeout" \
    "$RUN_OUT"

e2e_run 120 ansible-playbook -i "$LAB_INVENTORY" --limit "$A" "$PB"
assert_rc "ansible-playbook applies the playbook" 0
ansible_out=$RUN_OUT
e2e_run 60 tt play "$PB" --limit "$T"
assert_rc "tcptune applies the same playbook" 0
assert_match "tcptune: seven changed tasks" "$T +: ok=[0-9]+ +changed=7 +unreachable=0 +failed=0" \
    "$RUN_OUT"
assert_match "Ansible: seven changed tasks" "$A +: ok=[0-9]+ +changed=7 +unreachable=0 +failed=0" \
    "$ansible_out"

# Same bytes (and modes) in every file, same live values.
assert_eq "the files are the same on both hosts" "$(files_of "$A")" \
    "$(files_of "$T")"
assert_eq "the live values are the same on both hosts" "$(lives_of "$A")" \
    "$(lives_of "$T")"
assert_eq "80-ansible.conf as Ansible writes it" "# tuned by hand

net.ipv4.tcp_fin_timeout=31
; an old note
net.ipv4.tcp_keepalive_probes=8
net.ipv4.tcp_rmem=4096   87380  6291456
net.ipv4.tcp_sack=0" "$(lab "$T" cat /etc/sysctl.d/80-ansible.conf)"
assert_eq "tcptune kept the first backup of 80-ansible.conf" \
    "$(cut -d' ' -f2 <<<"$before_files" | head -n 1)" \
    "$(lab "$T" sh -c 'sha256sum </var/lib/tcptune/backup/_etc_sysctl.d_80-ansible.conf/orig' | cut -d' ' -f1)"

# The rerun: nothing to do.
after_files=$(files_of "$T")
e2e_run 60 tt play "$PB" --limit "$T"
assert_rc "tcptune's rerun" 0
assert_match "tcptune's rerun: changed=0" "$T +: ok=[0-9]+ +changed=0 +unreachable=0 +failed=0" \
    "$RUN_OUT"
assert_eq "the rerun wrote nothing" "$after_files" "$(files_of "$T")"
e2e_run 120 ansible-playbook -i "$LAB_INVENTORY" --limit "$A" "$PB"
assert_match "Ansible's rerun: changed=0 too" "$A +: ok=[0-9]+ +changed=0 +unreachable=0 +failed=0" \
    "$RUN_OUT"

# The default file: /etc/sysctl.conf is a bind mount here, which no
# rename (Ansible's or tcptune's) can replace: both fail, the file stays.
cat >"$E2E_TMP/default.yml" <<'YAML'
- hosts: all
  gather_facts: false
  tasks:
    - sysctl:
        name: net.ipv4.tcp_fin_timeout
        value: 33
        reload: false
YAML
before_files=$(files_of "$T")
e2e_run 120 ansible-playbook -i "$LAB_INVENTORY" --limit "$A" "$E2E_TMP/default.yml"
assert_rc "Ansible cannot replace the bind-mounted /etc/sysctl.conf" 2
e2e_run 60 tt play "$E2E_TMP/default.yml" --limit "$T"
assert_rc "nor can tcptune" 2
assert_match "tcptune says why" "cannot replace /etc/sysctl.conf: .*busy" "$RUN_OUT"
assert_eq "/etc/sysctl.conf as it was, no temp file left" "$before_files" \
    "$(files_of "$T"; lab "$T" find /etc -maxdepth 1 -name '.sysctl.conf.*')"
assert_eq "the files are the same on both hosts after that" "$(files_of "$A")" \
    "$(files_of "$T")"

# A value the kernel refuses, set live first: both fail before the file.
cat >"$E2E_TMP/refused.yml" <<'YAML'
- hosts: all
  gather_facts: false
  tasks:
    - ansible.posix.sysctl:
        name: net.ipv4.tcp_sack
        value: not-a-number
        sysctl_set: true
        sysctl_file: /etc/sysctl.d/80-ansible.conf
YAML
e2e_run 120 ansible-playbook -i "$LAB_INVENTORY" --limit "$A" "$E2E_TMP/refused.yml"
assert_rc "Ansible fails on a refused value" 2
e2e_run 60 tt play "$E2E_TMP/refused.yml" --limit "$T"
assert_rc "so does tcptune" 2
assert_match "tcptune says what sysctl said" \
    "setting net.ipv4.tcp_sack failed \(exit [0-9]+\): .*Invalid argument" "$RUN_OUT"
assert_eq "the files are still the same on both hosts" "$(files_of "$A")" \
    "$(files_of "$T")"
assert_eq "the live values are still the same on both hosts" \
    "$(lives_of "$A")" "$(lives_of "$T")"
e2e_finish
