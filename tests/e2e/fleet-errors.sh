#!/bin/bash
# fleet-errors.sh - runs that cannot start say why and exit 1 at once: a
# --limit or pattern that matches nothing, a missing inventory file. No lab
# needed (the inventory points at addresses nobody answers on: a run that
# tried to connect would show up as slow and as exit 4, not 1).
# Usage: fleet-errors.sh [TCPTUNE]. Runs as any user.
set -uo pipefail
E2E_NEEDS_ROOT=0 # read by e2e_init
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
e2e_init fleet-errors "${1:-}"

inv=$E2E_TMP/inventory.yml
cat >"$inv" <<'YAML'
all:
  children:
    web:
      hosts:
        web[01:04]:
          ansible_host: 198.18.255.250
    db:
      hosts:
        db01:
          ansible_host: 198.18.255.251
YAML
missing=$E2E_TMP/no-such-dir/fleet.yml

# expect_could_not_run DESC ERE-FOR-STDERR CMD...
expect_could_not_run() {
	local desc=$1 re=$2
	shift 2
	e2e_run 15 "$@"
	assert_rc "$desc: exit 1" 1
	assert_lt "$desc: no connection attempted (fast)" "$RUN_SECS" 2
	assert_match "$desc: message on stderr" "$re" "$RUN_ERR"
	assert_eq "$desc: no PLAY RECAP (nothing ran)" 0 \
	    "$(grep -c 'PLAY RECAP' <<<"$RUN_OUT")"
}

for cmd in ping probe; do
	expect_could_not_run "[$cmd --limit nomatch]" \
	    "no hosts match.*'nomatch'" \
	    "$TCPTUNE" "$cmd" -i "$inv" --limit nomatch --timeout 2
	expect_could_not_run "[$cmd -l 'web9*']" \
	    "no hosts match.*'web9\*'" \
	    "$TCPTUNE" "$cmd" -i "$inv" -l 'web9*' --timeout 2
	expect_could_not_run "[$cmd pattern db:&web]" \
	    "no hosts match.*'db:&web'" \
	    "$TCPTUNE" "$cmd" 'db:&web' -i "$inv" --timeout 2
	expect_could_not_run "[$cmd -i missing]" \
	    "'$missing'.*(does not exist|no such|not found)" \
	    "$TCPTUNE" "$cmd" -i "$missing" --timeout 2
	expect_could_not_run "[$cmd -i good -i missing]" \
	    "'$missing'.*(does not exist|no such|not found)" \
	    "$TCPTUNE" "$cmd" -i "$inv" -i "$missing" --timeout 2
done

# JSON mode keeps stdout clean: the error goes to stderr only.
e2e_run 15 "$TCPTUNE" ping -i "$inv" -l nomatch --format json
assert_rc "[json --limit nomatch] exit 1" 1
assert_eq "[json --limit nomatch] stdout is empty or valid JSON" ok \
    "$( [[ -z $RUN_OUT ]] || jq -e . <<<"$RUN_OUT" >/dev/null 2>&1 && echo ok)"

# The inventory itself is fine: the limit, not the file, was the problem.
e2e_run 15 "$TCPTUNE" inventory -i "$inv" --list
assert_rc "the test inventory loads" 0
assert_eq "the test inventory has 5 hosts" 5 \
    "$(jq_out '._meta.hostvars | length')"

e2e_finish
