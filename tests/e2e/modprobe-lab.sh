#!/bin/bash
# modprobe-lab.sh - community.general.modprobe over the lab's real sshd,
# tcptune against Ansible's own module on the same lab host. What runs
# here is bounded by this machine's kernel: it has no loadable modules (no
# /proc/modules, no /lib/modules), so the module's first read fails on both
# -- the same failure, changed=false, every file of /etc/modules-load.d,
# /etc/modprobe.d and /etc/modules (per-host in the lab) byte-identical, in
# check mode too; a load, an unload and the persistent files are tested by
# unit/test-modprobe (against the module's code) and shell/modprobe (the
# script under dash), and on real kernels by UML guests where they boot.
# Before any host: a name that is no module's is refused by lint at
# file:line:col; params with quoting, at the gate before the module runs. Needs root and ansible-playbook with
# community.general (77 otherwise).
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
e2e_init modprobe-lab "${1:-}"
command -v ansible-playbook >/dev/null 2>&1 || {
	echo "modprobe-lab: SKIP: ansible-playbook not installed"
	exit 77
}
[[ -r /usr/lib/python3/dist-packages/ansible_collections/community/general/plugins/modules/modprobe.py ]] || {
	echo "modprobe-lab: SKIP: the community.general collection is not installed"
	exit 77
}
cd "$E2E_SRC" || exit 1
export ANSIBLE_LOCAL_TEMP=$E2E_TMP/ansible-tmp ANSIBLE_HOME=$E2E_TMP/ansible-home
export ANSIBLE_NOCOLOR=1 ANSIBLE_PYTHON_INTERPRETER=/usr/bin/python3
export ANSIBLE_RETRY_FILES_ENABLED=0

# Lint first: no lab needed.
cat >"$E2E_TMP/bad.yml" <<'YAML'
- hosts: all
  gather_facts: false
  tasks:
    - community.general.modprobe:
        name: "tcp_bbr; reboot"
YAML
e2e_run 30 "$TCPTUNE" lint "$E2E_TMP/bad.yml"
assert_rc "lint refuses the task" 1
assert_match "a name that is no kernel module's, at its task" \
    "bad.yml:4:7: module 'community.general.modprobe': name 'tcp_bbr; reboot' is not a kernel module's" \
    "$RUN_OUT$RUN_ERR"

e2e_lab_up 2 hmd 198.18.70
A=${HOSTS[0]}	# Ansible's host
T=${HOSTS[1]}	# tcptune's
PB=$E2E_TMP/modprobe.yml
cat >"$PB" <<'YAML'
- hosts: all
  gather_facts: false
  tasks:
    - name: bbr, now and at boot
      community.general.modprobe:
        name: tcp_bbr
        params: "a=1"
        persistent: present
YAML

# Every file the module reads or writes, with its sha256 and mode.
files_of() {
	# shellcheck disable=SC2016
	lab "$1" sh -c 'for f in /etc/modules /etc/modules-load.d/* \
	    /etc/modprobe.d/*; do
		[ -e "$f" ] || continue
		printf "%s %s %s\n" "$f" "$(sha256sum <"$f" | cut -d" " -f1)" \
		    "$(stat -c %a "$f")"
	done'
}

# Params with quoting (Ansible's shlex.split would take other words than
# the ones written to modprobe.d): refused at the gate, nothing sent.
cat >"$E2E_TMP/quoted.yml" <<'YAML'
- hosts: all
  gather_facts: false
  tasks:
    - modprobe:
        name: tcp_bbr
        params: "a='1 2'"
YAML
e2e_run 60 tt play "$E2E_TMP/quoted.yml" --limit "$T"
assert_rc "params with quoting fail the host" 2
assert_match "refused with the reason" \
    "params: params has ''' \(quoting; module parameters are key=value words\)" \
    "$RUN_OUT"

for h in "$A" "$T"; do
	lab "$h" sh -c 'printf "options tcp_bbr a=2\n" >/etc/modprobe.d/old.conf'
done
assert_eq "both hosts start with the same files" "$(files_of "$A")" \
    "$(files_of "$T")"
before=$(files_of "$T")

e2e_run 60 tt play "$PB" --limit "$T" --check --diff
assert_rc "tcptune --check fails" 2
assert_match "tcptune says why, as the module does" \
    "cannot read /proc/modules: No such file or directory" "$RUN_OUT"
assert_eq "--check: no file changed" "$before" "$(files_of "$T")"
e2e_run 120 ansible-playbook -i "$LAB_INVENTORY" --limit "$A" --check "$PB"
assert_rc "Ansible --check fails too" 2
assert_match "on the same file" \
    "No such file or directory: '/proc/modules'" "$RUN_OUT"

e2e_run 60 tt play "$PB" --limit "$T"
assert_rc "tcptune fails" 2
assert_match "tcptune: failed=1, changed=0" \
    "$T +: ok=0 +changed=0 +unreachable=0 +failed=1" "$RUN_OUT"
e2e_run 120 ansible-playbook -i "$LAB_INVENTORY" --limit "$A" "$PB"
assert_rc "Ansible fails" 2
assert_match "Ansible: failed=1, changed=0" \
    "$A +: ok=0 +changed=0 +unreachable=0 +failed=1" "$RUN_OUT"
assert_eq "no file changed on tcptune's host" "$before" "$(files_of "$T")"
assert_eq "the files are the same on both hosts" "$(files_of "$A")" \
    "$(files_of "$T")"
e2e_finish
