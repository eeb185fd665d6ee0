#!/bin/bash
# apt-ansible.sh - package/apt (issue 23) over the lab's real sshd:
# tcptune on one lab host, ansible-playbook on another, the same
# playbooks. --check (tests/data/apt/check.yml: installed already, a list,
# a string of names, one that would be installed, latest, absent, unknown,
# the cache fresh or stale), then a run of tasks with nothing to do
# (tests/data/apt/run.yml). The namespace lab shares this machine's
# filesystem, so no package is installed or removed and no apt-get update
# runs (shell/apt runs those paths under stubs). Every task's status,
# changed and cache_updated compared, a failure's msg, and dpkg's state
# and the cache's time the same after. Needs root, ansible-playbook and
# Debian's apt with python3-apt (77 otherwise). Lab m3b, 198.19.121.0/24.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
e2e_init apt-ansible "${1:-}"
for t in ansible-playbook apt-get dpkg-query; do
	command -v "$t" >/dev/null 2>&1 || {
		echo "apt-ansible: SKIP: $t not installed"
		exit 77
	}
done
/usr/bin/python3 -c 'import apt' 2>/dev/null || {
	echo "apt-ansible: SKIP: python3-apt not installed (Ansible's apt needs it)"
	exit 77
}
cd "$E2E_SRC" || exit 1
ansible_env
export ANSIBLE_STDOUT_CALLBACK=json
PB=tests/data/apt/check.yml

e2e_lab_up 2 m3b 198.19.121
A=${HOSTS[0]}	# Ansible's host
T=${HOSTS[1]}	# tcptune's

state() {
	dpkg-query -W -f='${db:Status-Abbrev} ${Package} ${Version}\n' | sha256sum
	stat -c '%Y' /var/lib/apt/lists /var/lib/dpkg/status
}
before=$(state)

KEYS='{changed: (.changed // false), cache_updated, msg: (.msg // null)}'
# compare WHAT TASKS [ARGS...]: the playbook by both; COUNTS the statuses.
compare() {
	local what=$1 n=$2 ts as
	shift 2
	e2e_run 60 tt play "$PB" --limit "$T" --format json "$@"
	assert_rc "$what: tcptune exits 0" 0
	ts=$(jq -c --arg h "$T" ".plays[0].results[\$h][] | [.task, .status,
	    (.data // {} | $KEYS)]" <<<"$RUN_OUT")
	e2e_run 120 ansible-playbook -i "$LAB_INVENTORY" --limit "$A" "$PB" "$@"
	as=$(jq -c --arg h "$A" ".plays[0].tasks[] | [.task.name, (.hosts[\$h] |
	    if .failed then \"failed\" elif .changed then \"changed\" else
	    \"ok\" end), (.hosts[\$h] | $KEYS)]" <<<"$RUN_OUT")
	assert_eq "$what: $n tasks" "$n" "$(wc -l <<<"$ts")"
	# the task line's msg is tcptune's own where the module has none
	assert_eq "$what: every task's status, changed, cache_updated as Ansible's" \
	    "$(jq -c 'del(.[2].msg)' <<<"$as")" "$(jq -c 'del(.[2].msg)' <<<"$ts")"
	assert_eq "$what: the failure's msg as Ansible's" \
	    "$(grep unknown <<<"$as" | jq -r '.[2].msg')" \
	    "$(grep unknown <<<"$ts" | jq -r '.[2].msg')"
	COUNTS=$(jq -rs 'map(.[1]) | group_by(.) | map("\(.[0])=\(length)") |
	    join(" ")' <<<"$ts")
	e2e_log "$what: $COUNTS"
}

compare --check 11 --check
assert_eq "--check: the statuses" "changed=4 failed=1 ok=6" "$COUNTS"
assert_eq "--check changed no package and updated no cache" "$before" \
    "$(state)"
# A run of tasks that have nothing to do: ok, changed=0, as Ansible's.
PB=tests/data/apt/run.yml
compare run 5
assert_eq "run: the statuses" "failed=1 ok=4" "$COUNTS"
assert_eq "run: no package changed, no cache updated" "$before" "$(state)"
e2e_finish
