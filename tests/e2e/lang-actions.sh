#!/bin/bash
# lang-actions.sh - the language-level actions and include_role against
# ansible-playbook 2.14: tests/data/lang2/site.yml (vars_prompt with no
# terminal, or given by -e; environment on a command; debug with msg, var,
# an undefined var, a list, verbosity; set_fact over include_vars;
# include_vars with file, name, dir and from a role's vars/; assert with
# that, quiet, success_msg and a failing one ignored; fail, when false and
# ignored; until that never holds, its retry lines, and one that holds
# at once; a debug loop; no_log on a debug, a fail and a loop (which
# registers it all); include_role plain, with tasks_from and vars, in a
# loop and under a when true on one host; meta noop, clear_facts, end_host
# on one host, end_play; a later play with run_once (a debug registered
# and a set_fact, both every host's; a block's no_log, run_once and
# environment) where one host fails, and one after
# it that leaves that host out) is run by both on the same two lab hosts,
# with -f 1 so that hosts print in inventory order, once as it is and once
# with -e over set_fact (where an assert then fails on every host, which
# ends the run): every line they print but the recap's must be the same,
# the recap's counts (ok, changed, unreachable, failed, skipped) and the
# exit status too; --list-tasks prints the same text.
# Needs root and ansible-playbook (77 otherwise).
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
e2e_init lang-actions "${1:-}"
command -v ansible-playbook >/dev/null 2>&1 || {
	echo "lang-actions: SKIP: ansible-playbook not installed"; exit 77; }
e2e_lab_up 2 lg1 198.18.163
cd "$E2E_SRC/tests/data/lang2" || exit 1
ansible_env

ansible-playbook -i "$LAB_INVENTORY" site.yml --list-tasks >"$E2E_TMP/theirs" 2>&1
tt play site.yml --list-tasks >"$E2E_TMP/ours" 2>&1
assert_eq "--list-tasks: the same text" "$(cat "$E2E_TMP/theirs")" \
    "$(cat "$E2E_TMP/ours")"

for extra in "" "level=extra who=extra-who answer=41 unanswered=x"; do
	args=()
	[[ -n $extra ]] && args=(-e "$extra")
	# no terminal: vars_prompt is not asked
	e2e_run 150 ansible-playbook -i "$LAB_INVENTORY" -f 1 "${args[@]}" \
	    site.yml </dev/null
	ansible_rc=$RUN_RC
	play_lines <<<"$RUN_OUT" >"$E2E_TMP/ansible"
	play_recap <<<"$RUN_OUT" >"$E2E_TMP/ansible-recap"
	grep -c 'Not prompting' <<<"$RUN_ERR" >"$E2E_TMP/ansible-warned"
	e2e_run 60 tt play site.yml -f 1 "${args[@]}" </dev/null
	assert_eq "[-e '$extra'] the same exit status" "$ansible_rc" "$RUN_RC"
	assert_eq "[-e '$extra'] the same vars_prompt warnings" \
	    "$(cat "$E2E_TMP/ansible-warned")" \
	    "$(grep -c 'Not prompting' <<<"$RUN_ERR")"
	play_lines <<<"$RUN_OUT" >"$E2E_TMP/tcptune"
	assert_eq "[-e '$extra'] the same lines" "" \
	    "$(diff "$E2E_TMP/ansible" "$E2E_TMP/tcptune")"
	assert_eq "[-e '$extra'] the same recap counts" \
	    "$(cat "$E2E_TMP/ansible-recap")" "$(play_recap <<<"$RUN_OUT")"
	assert_match "[-e '$extra'] the recap has both hosts" \
	    "${HOSTS[1]} ok=" "$(play_recap <<<"$RUN_OUT")"
done
# what the comparison rests on, in tcptune's own output
assert_match "set_fact is over include_vars, -e over set_fact" \
    '"msg": "level=extra count=3 from_file=common"' "$(cat "$E2E_TMP/tcptune")"
assert_match "an assertion failing on every host ends the run" \
    'FAILED! => \{' "$(cat "$E2E_TMP/tcptune")"
e2e_run 60 tt play site.yml -f 1 --format json
# the run's results as kept (the JSON document): no_log's are censored
for secret in 'sekrit set-fact' '"msg": "sekrit"' sekrit2 sekrit-block; do
	assert_eq "no_log: '$secret' is in no result kept" 0 \
	    "$(grep -c -- "$secret" <<<"$RUN_OUT")"
done
assert_match "no_log: the results say they are censored" \
    "the output has been hidden due to the fact that 'no_log: true'" \
    "$RUN_OUT"
e2e_run 60 tt play site.yml -f 1
assert_match "include_role with tasks_from, its params and its vars/" \
    '"msg": "other param from-role-vars-dir"' "$RUN_OUT"
assert_match "include_role in a loop" '"msg": "greet b from-role-vars"' \
    "$RUN_OUT"
assert_match "end_host: only the first host goes on" \
    "TASK \[debug\] \**
ok: \[${HOSTS[0]}\] => \{
    \"msg\": \"after end_host\"
\}

TASK \[meta\]" "$RUN_OUT"
assert_match "a host failed in an earlier play is left out" \
    "ok: \[${HOSTS[1]}\] => \{
    \"msg\": \"only ${HOSTS[1]}\"
\}

PLAY RECAP" "$RUN_OUT"
e2e_finish
