#!/bin/bash
# fleet-silent.sh - a host that accepts the TCP connection but never speaks
# SSH (no banner) does not stall the run beyond the timeout; the others
# succeed. Usage: fleet-silent.sh [TCPTUNE]. Exit 77 when not root.
set -uo pipefail
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
e2e_init fleet-silent "${1:-}"
command -v socat >/dev/null 2>&1 || {
	echo "fleet-silent: FAIL: socat is not installed (lab.sh silent-host needs it)"
	exit 1
}
e2e_lab_up 8 e2q 198.18.205

mute=lab05
lab_cmd silent-host "$mute" 2222 >/dev/null ||
	{ e2e_fail "lab.sh silent-host $mute 2222"; e2e_finish; }
# A second inventory source that only moves lab05 to the silent port.
cat >"$E2E_TMP/silent.yml" <<YAML
all:
  hosts:
    $mute:
      ansible_port: 2222
YAML
extra=(-i "$E2E_TMP/silent.yml")

e2e_run 20 "$TCPTUNE" inventory "${extra[@]}" -i "$LAB_INVENTORY" --host "$mute"
assert_eq "the merged inventory gives $mute port 2222" 2222 \
    "$(jq_out '.ansible_port')"

# The listener really accepts and stays silent for a second.
addr=$(awk -v h="$mute" '$1 == h { print $2 }' "$LAB_DIR/hosts.list")
n=$(timeout 5 bash -c "exec 3<>/dev/tcp/$addr/2222 || exit 9
    timeout 1 cat <&3 | wc -c")
rc=$?
assert_eq "the silent listener on $addr:2222 accepts (exit 0) and sends 0 bytes" \
    "0 0" "$rc $n"

for cmd in ping probe; do
	e2e_run 25 tt "$cmd" "${extra[@]}" --timeout 3 --format json
	assert_not_timed_out "[$cmd] run ends by itself"
	assert_lt "[$cmd] the silent host costs at most the timeout (+slack)" \
	    "$RUN_SECS" 7
	assert_rc_bit "[$cmd] exit status has the unreachable bit" 4
	assert_eq "[$cmd] $mute is unreachable" unreachable "$(json_status "$mute")"
	assert_match "[$cmd] $mute's message says why" \
	    'timed out|timeout|banner|closed|connect' "$(json_msg "$mute")"
	assert_eq "[$cmd] the 7 others are ok" 7 \
	    "$(jq_out '[.plays[0].results[][] | select(.status == "ok")] | length')"
done

# A one-fork run: the silent host must not hold up the hosts queued after it.
e2e_run 40 tt ping "${extra[@]}" --timeout 3 -f 1
assert_not_timed_out "[forks 1] run ends by itself"
assert_lt "[forks 1] one silent host costs one timeout" "$RUN_SECS" 9
assert_eq "[forks 1] 7 hosts ok" 7 "$(grep -c '^ok: \[' <<<"$RUN_OUT")"

e2e_finish
