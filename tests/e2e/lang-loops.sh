#!/bin/bash
# lang-loops.sh - loops and handlers against ansible-playbook 2.14 on the
# same two lab hosts: tests/data/lang5/loops.yml (with_list, with_items,
# with_indexed_items, with_together, with_subelements, with_nested,
# with_sequence with format and count, with_dict, with_fileglob,
# loop_control extended with a label, until with retries; a role listed
# twice with allow_duplicates and one without; a role with
# meta/argument_specs.yml, whose validation task Ansible runs first) prints
# the same lines (each item's label and value) and the same recap counts,
# and so do spec-bad.yml and spec-missing.yml (the spec refusing a type, a
# choice, a missing required option: the same messages), and nohosts.yml
# (a play that matches no host: skipped); handlers.yml
# (a notify list, meta: flush_handlers, listen) gives the same tasks,
# statuses and outputs in the same order in both JSON outputs (the
# banners of a flush differ: Ansible prints "TASK [name]" once per host
# for it, tcptune none). realshape.yml: shapes of real public roles (a
# role named with a slash, Ansible 2.14's bare include, static and
# dynamic, with_first_found, modules tcptune lacks under a false when)
# print the same lines; unimplemented.yml: such a module fails where it
# runs; set_fact with templated names and lookup('varnames'); failed.yml:
# failures under ignore_errors, their lines, registered changed and recap.
# Needs root and ansible-playbook (77 otherwise).
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
e2e_init lang-loops "${1:-}"
command -v ansible-playbook >/dev/null 2>&1 || {
	echo "lang-loops: SKIP: ansible-playbook not installed"; exit 77; }
command -v jq >/dev/null 2>&1 || { echo "lang-loops: FAIL: jq missing"; exit 1; }
e2e_lab_up 2 l5a 198.19.160
cd "$E2E_SRC/tests/data/lang5" || exit 1
ansible_env

play_compare loops loops.yml
assert_match "with_subelements: the item without its sublist" \
    "ok: \[${HOSTS[0]}\] => \(item=\[\{'name': 'alice'\}, 'k1'\]\)" "$RUN_OUT"
assert_match "with_fileglob: the playbook's files/ searched" \
    '"msg": "one.txt"' "$RUN_OUT"
assert_match "allow_duplicates: the role ran twice" '"msg": "dup two"' "$RUN_OUT"
assert_match "the role's spec checked first, named as Ansible names it" \
    "TASK \[spec : Validating arguments against arg spec 'main' - a role with a spec\]" \
    "$RUN_OUT"
# a spec that refuses: a type and a choice, then a required option
play_compare "spec refused" spec-bad.yml
assert_match "the type and the choice, in Ansible's words" \
    "Validation of arguments failed:\\\\nargument 'spec_port' is of type .* cannot be converted to an int\\\\nvalue of spec_mode must be one of: fast, slow, got: medium" \
    "$RUN_OUT"
play_compare "spec missing" spec-missing.yml
assert_match "the missing one" "missing required arguments: spec_port" "$RUN_OUT"

# a play that matches nobody is skipped; a --limit that leaves nobody at
# all is an error before anything runs
play_compare "no hosts" nohosts.yml
assert_match "the empty play skipped" "PLAY \[nobody\] \**
skipping: no hosts matched" "$RUN_OUT"
e2e_run 30 tt play nohosts.yml --limit nothere
assert_rc "a --limit that leaves no host: an error" 1
assert_match "... in Ansible's words" \
    "leaves us with no hosts to target" "$RUN_ERR"

# shapes of real roles (realshape.yml): the same lines but for the
# includes' own (Ansible prints "included: FILE for h1, h2", tcptune one
# line per host), the same recap; with --check too, where the templated
# ignore_errors is false and the host fails
realshape_compare() {
	e2e_run 120 ansible-playbook -i "$LAB_INVENTORY" -f 1 "$@" \
	    realshape.yml </dev/null
	ansible_rc=$RUN_RC
	play_lines <<<"$RUN_OUT" | grep -v 'included: ' >"$E2E_TMP/ansible"
	play_recap <<<"$RUN_OUT" >"$E2E_TMP/ansible-recap"
	e2e_run 60 tt play realshape.yml -f 1 "$@" </dev/null
	assert_eq "[real shapes $*] the same exit status" "$ansible_rc" \
	    "$RUN_RC"
	assert_eq "[real shapes $*] the same lines" "" \
	    "$(diff "$E2E_TMP/ansible" \
	    <(play_lines <<<"$RUN_OUT" | grep -v 'included: '))"
	assert_eq "[real shapes $*] the same recap counts" \
	    "$(cat "$E2E_TMP/ansible-recap")" "$(play_recap <<<"$RUN_OUT")"
}
realshape_compare --check
assert_match "--check: the templated ignore_errors false, the host failed" \
    "failed=1" "$RUN_OUT"

# failed.yml: failures under ignore_errors. A loop's failed item is its
# "failed: [h] (item=x) =>" line and the loop has no "fatal:" line of its
# own; a command that ran and failed is counted changed in the recap and
# registered changed, as Ansible's strategy counts it (changed_when: false
# over it: not). The same lines up to each "=>" (Ansible dumps the
# result's JSON there, tcptune its message), the same registered values,
# the same recap counts.
e2e_run 120 ansible-playbook -i "$LAB_INVENTORY" -f 1 failed.yml </dev/null
play_lines <<<"$RUN_OUT" | sed 's/ => .*$//' >"$E2E_TMP/ansible"
play_recap <<<"$RUN_OUT" >"$E2E_TMP/ansible-recap"
e2e_run 60 tt play failed.yml -f 1 </dev/null
assert_rc "[failures ignored] exit 0" 0
assert_eq "[failures ignored] the same lines up to each =>" "" \
    "$(diff "$E2E_TMP/ansible" <(play_lines <<<"$RUN_OUT" | sed 's/ => .*$//'))"
assert_eq "[failures ignored] the same recap counts" \
    "$(cat "$E2E_TMP/ansible-recap")" "$(play_recap <<<"$RUN_OUT")"
assert_match "[failures ignored] changed=3 ignored: the loop, the failure, failed_when" \
    "changed=3 " "$(play_recap <<<"$RUN_OUT")"
assert_match "[failures ignored] the failed item's reason" \
    "failed: \[${HOSTS[0]}\] \(item=false\) => non-zero return code" "$RUN_OUT"

realshape_compare
assert_match "the templated ignore_errors true: ignored" "ignored=1" "$RUN_OUT"
assert_match "set_fact: a templated name set, one varnames finds kept" \
    '"msg": "from the os, from the user"' "$RUN_OUT"
assert_match "a role named with a slash, named so" \
    'TASK \[team/tune : which role\]' "$RUN_OUT"
assert_match "the bare include that loops is dynamic" \
    "included: ./tasks/bare.yml \\(item=b\\)" "$RUN_OUT"
assert_match "with_first_found: files under paths, found in the playbook's dir" \
    "ok: \[${HOSTS[0]}\] => \\(item=.*/lang5/vars/osvars.yml\\)" "$RUN_OUT"
assert_match "a module tcptune lacks: said at load, by position" \
    "realshape.yml:42:7: module 'ansible.posix.selinux' is not implemented by tcptune" \
    "$RUN_ERR"
e2e_run 30 tt lint realshape.yml
assert_rc "lint: a module tcptune lacks loads" 0
assert_match "... with a warning" "firewalld' is not implemented" "$RUN_ERR"
e2e_run 60 tt play unimplemented.yml --check -f 1 </dev/null
assert_rc_bit "where it runs, it fails (check mode too)" 2
assert_match "... naming the module" \
    "module 'ansible.builtin.slurp' is not implemented by tcptune" "$RUN_OUT"

export ANSIBLE_STDOUT_CALLBACK=json
e2e_run 120 ansible-playbook -i "$LAB_INVENTORY" -f 1 handlers.yml </dev/null
ansible_rc=$RUN_RC
ansible_lines <<<"$RUN_OUT" >"$E2E_TMP/ansible"
e2e_run 60 tt play handlers.yml -f 1 --format json </dev/null
assert_eq "handlers: the same exit status" "$ansible_rc" "$RUN_RC"
tcptune_lines <<<"$RUN_OUT" >"$E2E_TMP/tcptune"
assert_eq "handlers: the same tasks, statuses and outputs, in order" \
    "$(cat "$E2E_TMP/ansible")" "$(cat "$E2E_TMP/tcptune")"
assert_match "the flush ran h2 after h1 (definition order)" \
    "h1	ok	.*
${HOSTS[0]}	h2	ok" "$(grep "^${HOSTS[0]}" "$E2E_TMP/tcptune")"
e2e_finish
