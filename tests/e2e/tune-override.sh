#!/bin/bash
# tune-override.sh - another sysctl.d file that would override our drop-in
# at boot (issue 4, item 9): lab03 has /etc/sysctl.d/99-zzz.conf setting
# net.ipv4.tcp_rmem, which sorts after 90-tcptune.conf and wins. The play
# (no serial) must fail lab03 (exit bit 2) naming that file and the key,
# and succeed on the 7 other hosts. The plan names 99-zzz.conf as the file
# that sets tcp_rmem at boot.
# Usage: tune-override.sh [TCPTUNE]. Exit 77 when not root.
set -uo pipefail
# shellcheck source=tests/e2e/tune-lib.sh
. "$(dirname "$0")/tune-lib.sh"
e2e_init tune-override "${1:-}"
e2e_lab_up 8 t42 198.18.42
PB=$TUNE_DATA/tune-parallel.yml
BAD=lab03
ZZZ=/etc/sysctl.d/99-zzz.conf

lab "$BAD" sh -c "printf '# a hand-made override\nnet.ipv4.tcp_rmem = 4096 87380 6291456\n' >$ZZZ"

e2e_run 40 tt plan "$PB" "${TUNE_VARS[@]}" -l "$BAD"
# The plan already says what the apply would fail on.
assert_rc_bit "plan of the override host reports the failure" 2
assert_match "plan names the overriding file in its error" \
    "overrides '/etc/sysctl.d/90-tcptune.conf'" "$RUN_OUT"
assert_match "plan names 99-zzz.conf as the file that sets tcp_rmem at boot" \
    "net.ipv4.tcp_rmem .*\(boot: /etc/sysctl.d/99-zzz.conf\)" "$RUN_OUT"

e2e_run 40 tt play "$PB" "${TUNE_VARS[@]}" --format json
assert_rc_bit "play fails a host" 2
assert_eq "no host unreachable (exit has no bit 4)" 0 $((RUN_RC & 4))
assert_eq "$BAD's apply step failed" failed \
    "$(apply_result "$BAD" | jq -r '.status // "none"')"
msg=$(apply_result "$BAD" | jq -r '.msg // ""')
assert_match "$BAD's message names $ZZZ" "'?$ZZZ'?" "$msg"
assert_match "$BAD's message names the key" "net.ipv4.tcp_rmem" "$msg"
assert_match "$BAD's message says it overrides our drop-in" \
    "overrides '?$DROPIN" "$msg"
assert_eq "stats: $BAD failed=1" 1 \
    "$(jq_out --arg h "$BAD" '.stats[$h].failed')"
assert_eq "stats: the 7 other hosts changed=1 failed=0" 7 \
    "$(jq_out --arg h "$BAD" '[.stats | to_entries[] | select(.key != $h and .value.changed == 1 and .value.failed == 0 and .value.unreachable == 0)] | length')"
for h in "${HOSTS[@]}"; do
	[[ $h == "$BAD" ]] && continue
	expect_tuned "$h"
done
assert_eq "$BAD: the override file is left alone" \
    "$(printf '# a hand-made override\nnet.ipv4.tcp_rmem = 4096 87380 6291456\n' | sha256sum | cut -d' ' -f1)" \
    "$(file_sha "$BAD" "$ZZZ")"

# Text output of a rerun: the override host still fails (nothing to write,
# but the override is still there), the others are up to date.
e2e_run 40 tt play "$PB" "${TUNE_VARS[@]}"
assert_rc_bit "rerun still fails the override host" 2
assert_match "text: fatal line for $BAD names $ZZZ" \
    "fatal: \[$BAD\]: FAILED! => .*$ZZZ" "$RUN_OUT"
assert_match "recap: $BAD failed=1" \
    "$BAD +: ok=[0-9]+ +changed=0 +unreachable=0 +failed=1" "$RUN_OUT"
assert_eq "recap: 7 hosts changed=0 failed=0" 7 \
    "$(grep -cE '^lab0[1-8] +: ok=[0-9]+ +changed=0 +unreachable=0 +failed=0' <<<"$RUN_OUT")"

# A role that writes its sysctls with template/copy (issue 23, "the sysctl
# story keeps its edge"): the file modules name the key another boot file
# wins, as a sysctl task does, in --check and in a run; a file that sorts
# after 99-zzz.conf wins and is not warned about.
ROLE=/etc/sysctl.d/60-role.conf
LAST=/etc/sysctl.d/99-zzzz.conf
printf 'net.ipv4.tcp_rmem = {{ rmem }}\n-net.core.somaxconn = 4096\n' \
    >"$E2E_TMP/role-sysctl.conf.j2"
cat >"$E2E_TMP/role.yml" <<YML
- hosts: $BAD
  gather_facts: true
  vars: {rmem: "4096 131072 8388608"}
  tasks:
    - name: role sysctls
      template: {src: role-sysctl.conf.j2, dest: $ROLE, mode: "0644"}
    - name: last file
      copy: {content: "net.ipv4.tcp_rmem = 4096 131072 7340032\n", dest: $LAST}
YML
role_task() {
	jq_out --arg h "$BAD" --arg t "$1" \
	    '[.plays[0].results[$h][] | select(.task == $t)][0] // {}'
}
for mode in check run; do
	args=(--format json)
	[[ $mode == check ]] && args+=(--check)
	e2e_run 40 tt play "$E2E_TMP/role.yml" "${args[@]}"
	assert_rc "$mode: the role's play" 0
	assert_eq "$mode: template names the key 99-zzz.conf wins" \
	    '[{"key":"net.ipv4.tcp_rmem","overridden_by":"/etc/sysctl.d/99-zzz.conf"}]' \
	    "$(role_task "role sysctls" | jq -c '.data.sysctl_overridden')"
	assert_match "$mode: and says it on the task line" \
	    "warning: '$ZZZ' also sets net.ipv4.tcp_rmem and wins at boot" \
	    "$(role_task "role sysctls" | jq -r '.msg')"
	assert_eq "$mode: the last file wins, no warning" null \
	    "$(role_task "last file" | jq -c '.data.sysctl_overridden')"
done
assert_eq "the run wrote the role's file" \
    "$(printf 'net.ipv4.tcp_rmem = 4096 131072 8388608\n-net.core.somaxconn = 4096\n' | sha256sum | cut -d' ' -f1)" \
    "$(file_sha "$BAD" "$ROLE")"
# tcptune drift pointed at that role: its files' keys are compared live.
# 99-zzzz.conf was written, never loaded: its tcp_rmem is live-drifted;
# the role's own tcp_rmem now loses to 99-zzzz.conf.
drift_items() {
	jq_out -c --arg h "$BAD" "[.hosts[\$h].items[] | select($1)] | map({key, cause, expected, detail})"
}
e2e_run 40 tt drift "$E2E_TMP/role.yml" --format json
assert_rc_bit "drift of the role's play finds drift" 8
assert_eq "drift: the role's tcp_rmem is overridden by 99-zzzz.conf" \
    '[{"key":"net.ipv4.tcp_rmem","cause":"overridden","expected":"4096 131072 8388608","detail":"/etc/sysctl.d/99-zzzz.conf"}]' \
    "$(drift_items '.cause == "overridden"')"
assert_eq "drift: 99-zzzz.conf's key is not live" \
    '[{"key":"net.ipv4.tcp_rmem","cause":"changed at runtime","expected":"4096 131072 7340032","detail":null}]' \
    "$(drift_items '.cause == "changed at runtime"')"
lab "$BAD" sh -c "echo 'net.core.somaxconn = 100' >>$LAST"
e2e_run 40 tt drift "$E2E_TMP/role.yml" --format json
assert_rc_bit "drift after a hand edit" 8
assert_eq "drift: the hand-edited file is named" \
    "[{\"key\":\"$LAST\",\"cause\":\"file edited\",\"expected\":\"the task's text\",\"detail\":null}]" \
    "$(drift_items ".key == \"$LAST\"")"
assert_eq "drift changed nothing: the edited file stays" \
    "$(printf 'net.ipv4.tcp_rmem = 4096 131072 7340032\nnet.core.somaxconn = 100\n' | sha256sum | cut -d' ' -f1)" \
    "$(file_sha "$BAD" "$LAST")"
lab "$BAD" rm -f "$ROLE" "$LAST"

tune_finish
