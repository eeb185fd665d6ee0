#!/bin/bash
# fleet-hostkey.sh - a host whose host key changed is refused under strict
# checking (the default) while the other hosts of the same run succeed.
# Usage: fleet-hostkey.sh [TCPTUNE]. Exit 77 when not root.
set -uo pipefail
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
e2e_init fleet-hostkey "${1:-}"
e2e_lab_up 8 e2k 198.18.203

bad=lab04
lab_cmd rekey-host "$bad" >/dev/null || { e2e_fail "lab.sh rekey-host $bad"; e2e_finish; }
# OpenSSH itself refuses it: the lab did change the key.
if ssh -F "$LAB_SSH_CONFIG" "$bad" true >/dev/null 2>&1; then
	e2e_fail "openssh still accepts $bad after rekey-host: the test proves nothing"
fi

for fmt in text json; do
	e2e_run 30 tt ping --format "$fmt"
	assert_rc_bit "[$fmt] exit status has the unreachable bit" 4
	assert_eq "[$fmt] no failed bit (2) for a host key problem" 0 $((RUN_RC & 2))
	all="$RUN_OUT"$'\n'"$RUN_ERR"
	if [[ $fmt == text ]]; then
		assert_match "[text] $bad reported UNREACHABLE" \
		    "fatal: \[$bad\]: UNREACHABLE!" "$RUN_OUT"
		line=$(grep "\[$bad\]" <<<"$all" | head -n 1)
		assert_eq "[text] 7 other hosts ok" 7 "$(grep -c '^ok: \[' <<<"$RUN_OUT")"
	else
		assert_eq "[json] $bad is unreachable" unreachable "$(json_status "$bad")"
		line=$(json_msg "$bad")
		assert_eq "[json] 7 other hosts ok" 7 \
		    "$(jq_out '[.plays[0].results[][] | select(.status == "ok")] | length')"
	fi
	assert_match "[$fmt] message says the host key changed" \
	    'host key.*(changed|mismatch|does not match)|identification has changed' \
	    "${line,,}"
done

# accept-new must not accept a CHANGED key either (only unknown hosts).
e2e_run 30 tt ping -l "$bad" --host-key-checking accept-new
assert_rc_bit "accept-new still refuses a changed key" 4

# The known_hosts file was not rewritten behind our back.
e2e_run 30 ssh -F "$LAB_SSH_CONFIG" "$bad" true
assert_ne "known_hosts still holds the old key (ssh refuses)" 0 "$RUN_RC"

# With checking off the host is reachable: the refusal was the key only.
e2e_run 30 tt ping -l "$bad" --host-key-checking off
assert_rc "host-key-checking off reaches $bad" 0

e2e_finish
