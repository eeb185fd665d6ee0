#!/bin/bash
# fleet-ping.sh - `tcptune ping` reaches every host of an 8-host lab, in text
# and in JSON. Usage: fleet-ping.sh [TCPTUNE]. Exit 77 when not root.
set -uo pipefail
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
e2e_init fleet-ping "${1:-}"
e2e_lab_up 8 e2p 198.18.201

e2e_run 30 tt ping
assert_rc "ping of 8 hosts exits 0" 0
assert_eq "8 'ok:' lines" 8 "$(grep -c '^ok: \[' <<<"$RUN_OUT")"
for h in "${HOSTS[@]}"; do
	assert_match "$h answered" "ok: \[$h\]" "$RUN_OUT"
done
assert_match "PLAY RECAP names every host ok" \
    "lab08 +: ok=1 +changed=0 +unreachable=0 +failed=0" "$RUN_OUT"

e2e_run 30 tt ping --format json
assert_rc "ping --format json exits 0" 0
if jq -e . <"$E2E_TMP/out" >/dev/null 2>&1; then
	e2e_ok "JSON output parses with jq"
else
	e2e_fail "JSON output does not parse"
	e2e_show_run
fi
assert_eq "JSON has 8 ok results" 8 \
    "$(jq_out '[.plays[0].results[][] | select(.status == "ok")] | length')"
assert_eq "JSON names the 8 lab hosts" "${HOSTS[*]}" \
    "$(jq_out '.plays[0].results | keys | join(" ")')"
assert_eq "JSON stats: 8 hosts ok=1 unreachable=0" 8 \
    "$(jq_out '[.stats[] | select(.ok == 1 and .unreachable == 0 and .failed == 0)] | length')"

e2e_finish
