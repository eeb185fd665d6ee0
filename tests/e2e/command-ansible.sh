#!/bin/bash
# command-ansible.sh - command and shell (issue 23: creates, removes, chdir,
# argv, stdin, executable, a failure) over the lab's real sshd, tcptune on
# one lab host and ansible-playbook on another, the same playbook
# (tests/data/command/play.yml). Every task's status and registered keys
# (rc, stdout, stderr, stdout_lines, stderr_lines, cmd, msg, changed,
# skipped) compared, in --check (which runs no command: the files are as
# before) and in a run. Needs root and ansible-playbook (77 otherwise).
# Lab m3a, 198.19.120.0/24.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
e2e_init command-ansible "${1:-}"
command -v ansible-playbook >/dev/null 2>&1 || {
	echo "command-ansible: SKIP: ansible-playbook not installed"
	exit 77
}
cd "$E2E_SRC" || exit 1
ansible_env
export ANSIBLE_STDOUT_CALLBACK=json
PB=tests/data/command/play.yml

e2e_lab_up 2 m3a 198.19.120
A=${HOSTS[0]}	# Ansible's host
T=${HOSTS[1]}	# tcptune's

for h in "$A" "$T"; do
	lab "$h" sh -c 'rm -rf /root/cmd; mkdir /root/cmd; echo x >/root/cmd/there'
done
files_of() {
	lab "$1" sh -c 'cd /root/cmd && ls -A'
}

# One line per task: its name, status and the registered keys both give.
KEYS='{rc, stdout, stderr, stdout_lines, stderr_lines, cmd, msg,
    changed: (.changed // false), skipped: (.skipped // false)}'
tt_results() {
	jq -c --arg h "$T" ".plays[0].results[\$h][] | [.task, .status,
	    (.data | $KEYS)]" <<<"$RUN_OUT"
}
ansible_results() {
	jq -c --arg h "$A" ".plays[0].tasks[] | [.task.name, (.hosts[\$h] |
	    if .failed then \"failed\" elif .skipped then \"skipped\"
	    elif .changed then \"changed\" else \"ok\" end),
	    (.hosts[\$h] | $KEYS)]" <<<"$RUN_OUT"
}

compare() {
	local what=$1 ts as
	shift
	e2e_run 60 tt play "$PB" --limit "$T" --format json "$@"
	ts=$(tt_results)
	e2e_run 120 ansible-playbook -i "$LAB_INVENTORY" --limit "$A" "$PB" "$@"
	as=$(ansible_results)
	assert_eq "$what: 12 tasks" 12 "$(wc -l <<<"$ts")"
	assert_eq "$what: every task's status and keys as Ansible's" "$as" "$ts"
	COUNTS=$(jq -rs 'map(.[1]) | group_by(.) | map("\(.[0])=\(length)") |
	    join(" ")' <<<"$ts")
	e2e_log "$what: $COUNTS"
}

before=$(files_of "$T")
compare "--check" --check
assert_eq "--check: no file changed" "$before" "$(files_of "$T")"
assert_eq "--check: the statuses" "changed=2 failed=1 ok=3 skipped=6" "$COUNTS"
compare "run"
assert_eq "run: the statuses" "changed=8 failed=2 ok=2" "$COUNTS"
assert_eq "run: the files as Ansible's" "$(files_of "$A")" "$(files_of "$T")"
e2e_finish
