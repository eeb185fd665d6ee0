#!/bin/bash
# files-ansible.sh - the file modules (template, copy, lineinfile,
# blockinfile, file, stat; issue 23) over the lab's real sshd, tcptune on
# one lab host and ansible-playbook on another, from the same files and
# the same playbook
# (tests/data/files/: a role's templates/ and files/, a template beside
# the playbook, backup, validate, backrefs, insertafter/insertbefore,
# absent, create, directories, links, touch, a stat whose registered
# checksum is written back). Each run is compared task by task (ok,
# changed, failed) and file by file (kind, mode, owner, sha256, a link's
# target; backups by content): --check first (and it changes nothing:
# every file's hash before and after), then the run, then a rerun; and a
# systemd play that fails the same way on both. Needs
# root and ansible-playbook (77 otherwise). Lab md1, 198.18.170.0/24.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
e2e_init files-ansible "${1:-}"
command -v ansible-playbook >/dev/null 2>&1 || {
	echo "files-ansible: SKIP: ansible-playbook not installed"
	exit 77
}
cd "$E2E_SRC" || exit 1
export ANSIBLE_LOCAL_TEMP=$E2E_TMP/ansible-tmp ANSIBLE_HOME=$E2E_TMP/ansible-home
export ANSIBLE_NOCOLOR=1 ANSIBLE_PYTHON_INTERPRETER=/usr/bin/python3
export ANSIBLE_RETRY_FILES_ENABLED=0 ANSIBLE_STDOUT_CALLBACK=json
PB=tests/data/files/play.yml

e2e_run 30 "$TCPTUNE" lint "$PB"
assert_rc "lint passes the playbook" 0

e2e_lab_up 2 md1 198.18.170
A=${HOSTS[0]}	# Ansible's host
T=${HOSTS[1]}	# tcptune's

for h in "$A" "$T"; do
	lab "$h" sh -c 'rm -rf /root/* /root/.ansible
		printf "alpha 1\nbeta 2\n" >/root/c.txt
		echo x >/root/gone
		printf "keep\n# BEGIN ANSIBLE MANAGED BLOCK\nold\n# END ANSIBLE MANAGED BLOCK\n" \
		    >/root/old.conf
		printf "a = 1\n#net.ipv4.tcp_mtu_probing = 0\nb = 2\n" \
		    >/etc/sysctl.d/80-md.conf
		rm -f /etc/sysctl.d/90-md.conf'
done

# Every file the play touches: path, kind, mode, owner, sha256 or a
# link's target; a backup (FILE.PID.DATE@TIME~) by its content alone.
files_of() {
	# shellcheck disable=SC2016
	lab "$1" sh -c 'find /root /etc/sysctl.d -path /root/.ansible -prune \
	    -o -print | sort | while read -r f; do
		case $f in
		*~) printf "%s backup %s\n" "${f%%.[0-9]*}" \
		    "$(sha256sum <"$f" | cut -c1-16)"; continue ;;
		esac
		if [ -L "$f" ]; then h=$(readlink "$f")
		elif [ -f "$f" ]; then h=$(sha256sum <"$f" | cut -c1-16)
		else h=; fi
		printf "%s %s %s\n" "$f" "$(stat -c "%F %a %U:%G" "$f")" "$h"
	done'
}

# Each task's status, one "name status" line per task.
tt_statuses() {
	jq -r --arg h "$T" '.plays[0].results[$h][] | "\(.task) \(.status)"' \
	    <<<"$RUN_OUT"
}
ansible_statuses() {
	jq -r --arg h "$A" '.plays[0].tasks[] | "\(.task.name) \(.hosts[$h] |
	    if .failed then "failed" elif .changed then "changed" else "ok"
	    end)"' <<<"$RUN_OUT"
}

# compare WHAT [ARGS...]: the playbook by both, the statuses and the files.
compare() {
	local what=$1 ts as
	shift
	e2e_run 120 tt play "$PB" --limit "$T" --format json "$@"
	ts=$(tt_statuses)
	e2e_run 300 ansible-playbook -i "$LAB_INVENTORY" --limit "$A" "$PB" "$@"
	as=$(ansible_statuses)
	assert_eq "$what: every task's status as Ansible's" "$as" "$ts"
	assert_eq "$what: the files as Ansible's" "$(files_of "$A")" \
	    "$(files_of "$T")"
	COUNTS=$(awk '{ n[$NF]++ } END { printf "changed=%d failed=%d ok=%d",
	    n["changed"], n["failed"], n["ok"] }' <<<"$ts")
	e2e_log "$what: $COUNTS"
}

before=$(files_of "$T")
compare "--check" --check
assert_eq "--check: no file changed" "$before" "$(files_of "$T")"
assert_match "--check: something would change" "changed=[1-9]" "$COUNTS"
compare "run"
assert_match "run: changes, and the three failures the play expects" \
    "changed=[1-9][0-9]* failed=3 ok=" "$COUNTS"
first=${COUNTS#changed=}
compare "rerun"
# Rerun: the copy of /root/c.txt and the lines edited into it after it
# change again (by both), the touch too; everything else is as wanted.
again=${COUNTS#changed=}
assert_eq "rerun: fewer changes than the run" 1 \
    "$(( ${again%% *} < ${first%% *} ))"

# A file edited by hand: --check --diff shows it and changes nothing.
for h in "$A" "$T"; do
	lab "$h" sh -c 'echo extra >>/root/c.txt; chmod 0644 /root/motd.txt'
done
before=$(files_of "$T")
e2e_run 120 tt play "$PB" --limit "$T" --check --diff
nl=$'\n'
assert_match "--check --diff: the line it would remove" "$nl-extra$nl" \
    "$RUN_OUT"
assert_match "--check --diff: the mode it would set" \
    "/root/motd.txt: mode 0644 -> 0600" "$RUN_OUT"
assert_eq "--check --diff: no file changed" "$before" "$(files_of "$T")"
compare "after an edit" --check

# systemd/service: a unit that exists nowhere fails on both, in --check and
# in a run (this machine's init is shared by the lab: nothing else is
# safe to ask of it here; tests/data/files/systemd.yml).
PB=tests/data/files/systemd.yml
compare "systemd --check" --check
compare "systemd"
assert_eq "systemd: the two failures, as Ansible's" \
    "changed=0 failed=2 ok=1" "$COUNTS"
e2e_finish
