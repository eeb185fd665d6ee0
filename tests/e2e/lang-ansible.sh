#!/bin/bash
# lang-ansible.sh - the playbook language against ansible-playbook 2.14:
# tests/data/lang/site.yml (pre_tasks, a role with defaults, vars, meta
# dependencies and tags, handlers, notify and listen, import_tasks,
# include_tasks with a loop and with a when true on one host only, a role
# from ansible.cfg's roles_path by import_role; loop, with_dict,
# with_items, loop_control, when per item and on a registered result; a
# block whose task fails on one host, its rescue and always) is run by
# both on the same two lab hosts, once as it is and once with -e: for each
# host, every task in order with its status, each loop item with its
# status and every command's output (which prints the variables each
# precedence level sets; a vaulted role default; registered stdout;
# changed_when and failed_when, per loop item too) must be
# the same, and so must the recap counts
# (changed, failed, skipped, rescued, unreachable);
# --list-tasks with and without --tags/--skip-tags prints the same text,
# for site.yml and all.yml (import_playbook).
# Needs root and ansible-playbook (77 otherwise).
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
e2e_init lang-ansible "${1:-}"
command -v ansible-playbook >/dev/null 2>&1 || {
	echo "lang-ansible: SKIP: ansible-playbook not installed"; exit 77; }
command -v jq >/dev/null 2>&1 || { echo "lang-ansible: FAIL: jq missing"; exit 1; }
e2e_lab_up 2 hlg 198.18.60
cd "$E2E_SRC/tests/data/lang" || exit 1
export ANSIBLE_LOCAL_TEMP=$E2E_TMP/ansible-tmp ANSIBLE_HOME=$E2E_TMP/ansible-home
export ANSIBLE_NOCOLOR=1 ANSIBLE_PYTHON_INTERPRETER=/usr/bin/python3
export ANSIBLE_RETRY_FILES_ENABLED=0
# a role default is an inline vault value: both get the password
VAULT=(--vault-password-file "$E2E_SRC/tests/data/vault/default.pass")

# The listing: role tasks as "role : name", rescue and always parts not
# listed, tags inherited from role entries and imports.
# all.yml: import_playbook with tags, an imported playbook's roles and
# vars_files relative to it.
for pb in site.yml all.yml; do
	for sel in "" "--tags tune" "--skip-tags tune" "--tags shared,untagged" \
	    "--tags more" "--skip-tags inner"; do
		# shellcheck disable=SC2086
		ansible-playbook -i "$LAB_INVENTORY" "${VAULT[@]}" "$pb" \
		    --list-tasks $sel \
		    >"$E2E_TMP/theirs" 2>&1
		# shellcheck disable=SC2086
		tt play "$pb" "${VAULT[@]}" --list-tasks $sel \
		    >"$E2E_TMP/ours" 2>&1
		assert_eq "$pb --list-tasks $sel: the same text" \
		    "$(cat "$E2E_TMP/theirs")" "$(cat "$E2E_TMP/ours")"
	done
done
export ANSIBLE_STDOUT_CALLBACK=json

for extra in "" "tune_param=from-extra tune_level=extra"; do
	args=()
	[[ -n $extra ]] && args=(-e "$extra")
	e2e_run 120 ansible-playbook -i "$LAB_INVENTORY" "${VAULT[@]}" \
	    "${args[@]}" site.yml
	ansible_rc=$RUN_RC
	ansible_lines <<<"$RUN_OUT" >"$E2E_TMP/ansible"
	# the recap's counts, Ansible's names for tcptune's
	ansible_stats <<<"$RUN_OUT" >"$E2E_TMP/ansible-stats"
	[[ -z $extra ]] && cp "$E2E_TMP/ansible-stats" "$E2E_TMP/ansible-stats-0"
	e2e_run 120 tt play site.yml "${VAULT[@]}" "${args[@]}" --format json
	assert_eq "[-e '$extra'] the same exit status" "$ansible_rc" "$RUN_RC"
	tcptune_lines <<<"$RUN_OUT" >"$E2E_TMP/tcptune"
	assert_eq "[-e '$extra'] the same recap counts" \
	    "$(cat "$E2E_TMP/ansible-stats")" "$(tcptune_stats <<<"$RUN_OUT")"
	assert_eq "[-e '$extra'] the same tasks, statuses, items and outputs" \
	    "$(cat "$E2E_TMP/ansible")" "$(cat "$E2E_TMP/tcptune")"
	assert_match "[-e '$extra'] a loop's items ran" \
	    '"net.core.rmem_max"' "$(cat "$E2E_TMP/tcptune")"
	assert_match "[-e '$extra'] the rescue ran on one host" \
	    "${HOSTS[0]}	rescued	changed" "$(cat "$E2E_TMP/tcptune")"
done
assert_match "a role from roles_path, import vars over its defaults" \
    "shared other from-import-vars extra" "$(cat "$E2E_TMP/tcptune")"
assert_match "extra vars are over role params and play vars" \
    "level=extra rv=from-role-vars pvr=role-vars-win d=d p=from-extra" \
    "$(cat "$E2E_TMP/tcptune")"
e2e_run 120 tt play site.yml "${VAULT[@]}"
# Ansible's recap line: its counts (first run above) in its columns
want=$(jq -r --arg h "${HOSTS[0]}" '.[$h] | "ok=\(.ok) +changed=\(.changed) +unreachable=\(.unreachable) +failed=\(.failed) +skipped=\(.skipped) +rescued=\(.rescued) +ignored=\(.ignored)"' \
    "$E2E_TMP/ansible-stats-0")
assert_match "the text recap counts the rescue, as Ansible's ($want)" \
    "${HOSTS[0]} +: $want" "$RUN_OUT"
assert_match "the rescue is counted" "rescued=2" "$want"
e2e_finish
