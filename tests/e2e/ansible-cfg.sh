#!/bin/bash
# ansible-cfg.sh - a project directory whose ansible.cfg gives the
# inventory, remote user, private key, forks and host key settings runs
# `tcptune ping`/`probe` against a lab with no tcptune option; ANSIBLE_*
# variables override the file and the command line overrides both (shown by
# `tcptune config --format json` and by who the run logs in as); the
# inventory's own ansible_user / ansible_become_user win over the file's, as
# in Ansible; ANSIBLE_CONFIG picks another file; a malformed file fails with
# its line; Ansible itself reaches the lab with the same file.
# Usage: ansible-cfg.sh [TCPTUNE]. Exit 77 when not root.
# jq programs are in single quotes on purpose.
# shellcheck disable=SC2016
set -uo pipefail
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
e2e_init ansible-cfg "${1:-}"
e2e_lab_up 3 acf 198.18.223

# Only what each case sets.
while IFS= read -r v; do unset "$v"; done < <(compgen -e | grep '^ANSIBLE_')
unset TCPTUNE_INVENTORY
read -r -a ADDRS <<<"$LAB_ADDRS"
uid_sudo=$(id -u ttl-sudo)
uid_nobody=$(id -u nobody)

proj=$E2E_TMP/proj
mkdir -p "$proj/keys"
chmod 0755 "$E2E_TMP" "$proj"
cp "$LAB_KEY" "$proj/keys/id_lab"
# Hosts and addresses only: who, with which key and how strictly is the
# ansible.cfg's business. lab01 sets its own user, as inventories may.
{
	echo "all:"
	echo "  hosts:"
	for i in "${!HOSTS[@]}"; do
		echo "    ${HOSTS[$i]}:"
		echo "      ansible_host: ${ADDRS[$i]}"
	done
} >"$proj/hosts.yml"
# remote_tmp is Ansible's only: tcptune ignores it without a word.
remote_tmp=/tmp/.ansible-cfg-e2e-$$
cat >"$proj/ansible.cfg" <<EOF
# written for Ansible; tcptune reads it as it is
[defaults]
inventory = hosts.yml
remote_user = ttl-sudo
private_key_file = keys/id_lab
forks = 3
timeout = 5
host_key_checking = True
remote_tmp = $remote_tmp

[privilege_escalation]
become_user = root

[ssh_connection]
ssh_args = -C -o UserKnownHostsFile=$LAB_KNOWN_HOSTS
EOF

# shellcheck disable=SC2317 # called through e2e_run
# t [VAR=VALUE...] ARGS...: tcptune ARGS from the project directory with
# those variables, nothing added, under a time limit.
t() {
	local envs=()
	while [[ $1 == *=* ]]; do
		envs+=("$1")
		shift
	done
	(cd "$proj" && exec env "${envs[@]}" timeout -k 3 60 "$TCPTUNE" "$@")
}
# line KEY: the line of KEY in the project's ansible.cfg.
line() {
	grep -n "^$1 *=" "$proj/ansible.cfg" | cut -d: -f1
}
# uids of the last probe --format json, in inventory order.
uids() {
	local h out=
	for h in "${HOSTS[@]}"; do
		out+="$(jq_out --arg h "$h" '.plays[0].results[$h][0].data.uid // "none"') "
	done
	echo "${out% }"
}
# setting NAME: "value origin" of the last `config --format json`.
setting() {
	jq_out -c --arg k "$1" '.settings[$k] | "\(.value) \(.origin)"'
}

# 1. The file alone.
e2e_run 30 t ping --format json
assert_rc "ping with only ansible.cfg exits 0" 0
assert_eq "all 3 hosts ok" 3 \
    "$(jq_out '[.plays[0].results[][] | select(.status == "ok")] | length')"
e2e_run 30 t probe --format json
assert_rc "probe with only ansible.cfg exits 0" 0
assert_eq "logged in as the file's remote_user (ttl-sudo)" \
    "$uid_sudo $uid_sudo $uid_sudo" "$(uids)"
e2e_run 10 t config --format json
assert_eq "config names the file" "$proj/ansible.cfg" "$(jq_out .config_file)"
assert_eq "forks from the file, its line" "3 $proj/ansible.cfg:$(line forks)" \
    "$(setting forks)"
assert_eq "inventory resolved next to the file" \
    "[\"$proj/hosts.yml\"] $proj/ansible.cfg:$(line inventory)" \
    "$(setting inventory)"
assert_eq "private key resolved next to the file" \
    "$proj/keys/id_lab $proj/ansible.cfg:$(line private_key_file)" \
    "$(setting private_key_file)"
assert_eq "known_hosts from ssh_args" \
    "$LAB_KNOWN_HOSTS $proj/ansible.cfg:$(line ssh_args)" \
    "$(setting known_hosts)"
assert_eq "host key checking strict, from the file" \
    "strict $proj/ansible.cfg:$(line host_key_checking)" \
    "$(setting host_key_checking)"
e2e_run 10 t config
assert_match "config text: forks, value and line" \
    "forks +3 +$proj/ansible.cfg:$(line forks)" "$RUN_OUT"
assert_match "config text: command_timeout is tcptune's default" \
    "command_timeout +120 +default" "$RUN_OUT"

# 1b. Ansible reaches the lab with the same file (same user, key, hosts).
if command -v ansible >/dev/null 2>&1; then
	e2e_run 120 env -C "$proj" ansible all -m ping -o
	rm -rf "$remote_tmp"
	assert_rc "ansible -m ping with the same ansible.cfg" 0
	assert_eq "ansible: 3 hosts SUCCESS" 3 \
	    "$(grep -c SUCCESS <<<"$RUN_OUT")"
else
	e2e_log "ansible not installed: Ansible's own run skipped"
fi

# 2. Variables override the file; the command line overrides both.
e2e_run 10 t ANSIBLE_REMOTE_USER=root ANSIBLE_FORKS=1 config --format json
assert_eq "env remote_user wins" "root env ANSIBLE_REMOTE_USER" \
    "$(setting remote_user)"
assert_eq "env forks wins" "1 env ANSIBLE_FORKS" "$(setting forks)"
e2e_run 10 t ANSIBLE_REMOTE_USER=root ANSIBLE_FORKS=1 config \
    --format json -u ttl-sudo -f 2
assert_eq "-u wins over the variable" "ttl-sudo command line" \
    "$(setting remote_user)"
assert_eq "-f wins over the variable" "2 command line" "$(setting forks)"
e2e_run 30 t ANSIBLE_REMOTE_USER=root probe --format json
assert_eq "[run] env ANSIBLE_REMOTE_USER=root logs in as root" "0 0 0" "$(uids)"
e2e_run 30 t ANSIBLE_REMOTE_USER=root probe --format json -u ttl-sudo
assert_eq "[run] -u ttl-sudo wins over the variable" \
    "$uid_sudo $uid_sudo $uid_sudo" "$(uids)"
e2e_run 30 t ANSIBLE_PRIVATE_KEY_FILE=/nonexistent/key ping --format json
assert_rc_bit "[run] a missing key from the variable is used (unreachable)" 4

# forks, measured: three hosts each sleeping 1 s take ~1 s with the file's
# forks = 3 and ~3 s with ANSIBLE_FORKS=1.
cat >"$proj/sleep.yml" <<'EOF'
- hosts: all
  gather_facts: false
  tasks:
    - name: sleep
      command:
        cmd: sleep 1
EOF
e2e_run 60 t play sleep.yml
assert_rc "play with the file's forks exits 0" 0
fast=$RUN_SECS
e2e_run 60 t ANSIBLE_FORKS=1 play sleep.yml
assert_rc "play with ANSIBLE_FORKS=1 exits 0" 0
assert_lt "forks = 3 runs the hosts at once ($fast s)" "$fast" 2.5
assert_lt "ANSIBLE_FORKS=1 runs them one by one ($RUN_SECS s)" 2.9 "$RUN_SECS"

# 3. The inventory's own values win over the file's, as in Ansible.
sed -i "0,/ansible_host:/s//ansible_user: root\n      ansible_become_user: root\n      ansible_host:/" \
    "$proj/hosts.yml"
e2e_run 30 t probe --format json
assert_eq "[run] ${HOSTS[0]}'s ansible_user beats remote_user" \
    "0 $uid_sudo $uid_sudo" "$(uids)"
e2e_run 30 t ANSIBLE_BECOME=yes probe --format json --become-user nobody
assert_eq "[run] become from the variable, --become-user under ansible_become_user" \
    "0 $uid_nobody $uid_nobody" "$(uids)"
e2e_run 30 t ANSIBLE_BECOME=yes ANSIBLE_BECOME_USER=nobody probe --format json
assert_eq "[run] ANSIBLE_BECOME_USER likewise" \
    "0 $uid_nobody $uid_nobody" "$(uids)"

# 4. ANSIBLE_CONFIG picks another file (here one host, a wrong user).
mkdir -p "$E2E_TMP/alt"
printf '[defaults]\ninventory = %s\nremote_user = root\nprivate_key_file = %s\n[ssh_connection]\nssh_args = -oUserKnownHostsFile=%s\n' \
    "$proj/hosts.yml" "$LAB_KEY" "$LAB_KNOWN_HOSTS" >"$E2E_TMP/alt/ansible.cfg"
e2e_run 10 t ANSIBLE_CONFIG="$E2E_TMP/alt" config --format json
assert_eq "ANSIBLE_CONFIG (a directory) picks its ansible.cfg" \
    "$E2E_TMP/alt/ansible.cfg" "$(jq_out .config_file)"
e2e_run 30 t ANSIBLE_CONFIG="$E2E_TMP/alt/ansible.cfg" probe --format json
assert_eq "[run] with ANSIBLE_CONFIG's remote_user root" "0 0 0" "$(uids)"

# 5. Host key checking stays strict: a changed key is refused; the
# variable turns it off; the command line turns it back on.
lab_cmd rekey-host "${HOSTS[2]}" >/dev/null || e2e_fail "lab.sh rekey-host"
e2e_run 30 t ping --format json
assert_eq "[strict] the rekeyed host is unreachable" unreachable \
    "$(json_status "${HOSTS[2]}")"
e2e_run 30 t ANSIBLE_HOST_KEY_CHECKING=False ping
assert_rc "[ANSIBLE_HOST_KEY_CHECKING=False] every host reachable" 0
assert_match "[off] the loud warning" "host key checking is OFF" \
    "$RUN_OUT$RUN_ERR"
e2e_run 30 t ANSIBLE_HOST_KEY_CHECKING=False ping --format json \
    --host-key-checking strict
assert_eq "[--host-key-checking strict] wins over the variable" unreachable \
    "$(json_status "${HOSTS[2]}")"

# 6. A malformed file stops every command that reads it, naming the line.
bad_line=$(($(wc -l <"$proj/ansible.cfg") + 1))
printf 'forks 4\n' >>"$proj/ansible.cfg"
e2e_run 10 t ping
assert_rc "malformed ansible.cfg: exit 1" 1
assert_eq "malformed ansible.cfg: file:line" \
    "tcptune: error: $proj/ansible.cfg:$bad_line: not a [section], a 'key = value' line or a comment" \
    "$RUN_ERR"
e2e_run 10 t help
assert_rc "help still works beside a malformed file" 0
sed -i '$d' "$proj/ansible.cfg"

e2e_finish
