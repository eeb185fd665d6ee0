#!/bin/bash
# reboot-lab.sh - wait_for_connection and reboot (issue 23) over the lab's
# real sshd. wait_for_connection: tcptune on one lab host and
# ansible-playbook on another, in a run and in --check (skipped), the same
# statuses and elapsed, and failing the same on an address where nothing
# answers. reboot: in --check the
# plugin's result on both (changed, rebooted, elapsed 0) and nothing run;
# in a run tcptune's guard refuses the lab host, whose boot_id is this
# machine's own (the lab is network namespaces on this kernel), before
# anything is run: the task fails saying so and the marker the play's
# harmless reboot_command would leave is absent. ansible-playbook never
# runs the reboot play outside --check. Needs root and ansible-playbook
# (77 otherwise). Lab m3c, 198.19.122.0/24.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
e2e_init reboot-lab "${1:-}"
command -v ansible-playbook >/dev/null 2>&1 || {
	echo "reboot-lab: SKIP: ansible-playbook not installed"
	exit 77
}
cd "$E2E_SRC" || exit 1
ansible_env
export ANSIBLE_STDOUT_CALLBACK=json

e2e_lab_up 2 m3c 198.19.122
A=${HOSTS[0]}	# Ansible's host
T=${HOSTS[1]}	# tcptune's
own=$(cat /proc/sys/kernel/random/boot_id)
assert_eq "the lab host runs on this kernel (the guard's case)" "$own" \
    "$(lab "$T" cat /proc/sys/kernel/random/boot_id)"
lab "$T" rm -f /root/reboot-marker

tt_res() {
	jq -c --arg h "$T" ".plays[0].results[\$h][] | [.task, .status,
	    (.data // {} | $1)]" <<<"$RUN_OUT"
}
ansible_res() {
	jq -c --arg h "$A" ".plays[0].tasks[] | [.task.name, (.hosts[\$h] |
	    if .failed then \"failed\" elif .skipped then \"skipped\"
	    elif .changed then \"changed\" else \"ok\" end),
	    (.hosts[\$h] | $1)]" <<<"$RUN_OUT"
}

# compare WHAT PLAYBOOK KEYS [ARGS...]
compare() {
	local what=$1 pb=$2 keys=$3 ts
	shift 3
	e2e_run 60 tt play "$pb" --limit "$T" --format json "$@"
	ts=$(tt_res "$keys")
	RUN_OUT0=$RUN_OUT
	e2e_run 120 ansible-playbook -i "$LAB_INVENTORY" --limit "$A" "$pb" "$@"
	assert_eq "$what: as Ansible's" "$(ansible_res "$keys")" "$ts"
}

WAIT=tests/data/reboot/wait.yml
# Nobody at the address: a failure when the timeout is up, as Ansible's.
# (an inventory of its own: the hosts' addresses at .250, where nothing is)
sed 's/198\.19\.122\.[0-9]*/198.19.122.250/' "$LAB_INVENTORY" \
    >"$E2E_TMP/nobody.yml"
grep -q 198.19.122.250 "$E2E_TMP/nobody.yml" || echo "FAIL: no address to move"
LAB_INVENTORY0=$LAB_INVENTORY
LAB_INVENTORY=$E2E_TMP/nobody.yml
compare "wait_for_connection, nobody there" tests/data/reboot/wait-fail.yml \
    '{elapsed: ((.elapsed // 0) | . >= 3 and . < 6)}'
LAB_INVENTORY=$LAB_INVENTORY0
assert_match "wait_for_connection: the plugin's failure message" \
    "timed out waiting for ping module test: " \
    "$(jq -r --arg h "$T" '.plays[0].results[$h][0].msg' <<<"$RUN_OUT0")"
compare "wait_for_connection" "$WAIT" '{elapsed: (.elapsed != null)}'
assert_eq "wait_for_connection: the delay waited" true \
    "$(jq --arg h "$T" '.plays[0].results[$h][1].data.elapsed >= 1' \
    <<<"$RUN_OUT0")"
compare "wait_for_connection --check" "$WAIT" \
    '{skipped: (.skipped // false)}' --check
compare "reboot --check" tests/data/reboot/reboot.yml \
    '{changed, rebooted, elapsed}' --check
assert_eq "reboot --check: nothing run" no \
    "$(lab "$T" sh -c '[ -e /root/reboot-marker ] && echo yes || echo no')"

e2e_run 60 tt play tests/data/reboot/reboot.yml --limit "$T" --format json
assert_eq "reboot: refused by the guard" '"failed" false' \
    "$(jq -r --arg h "$T" '.plays[0].results[$h][0] |
    "\(.status | tojson) \(.data.rebooted)"' <<<"$RUN_OUT")"
assert_match "reboot: the refusal says why" \
    "refusing to reboot $T: its boot_id $own is this controller's own" \
    "$RUN_OUT"
assert_eq "reboot: the reboot command never ran" no \
    "$(lab "$T" sh -c '[ -e /root/reboot-marker ] && echo yes || echo no')"
assert_eq "reboot: this machine was not rebooted" "$own" \
    "$(cat /proc/sys/kernel/random/boot_id)"
e2e_finish
