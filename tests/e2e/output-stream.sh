#!/bin/bash
# output-stream.sh - the one --format json document is written as the run
# goes (docs/output.md): with `serial: 1`, the batches of lab01 and lab02
# are on standard output while the run still waits for lab03 (a silent
# listener: no SSH banner until the connect timeout), and the document,
# once the run ends, is whole: each host's results, stats, schema.
# Usage: output-stream.sh [TCPTUNE]. Exit 77 when not root.
set -uo pipefail
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
e2e_init output-stream "${1:-}"
command -v socat >/dev/null 2>&1 || {
	echo "output-stream: FAIL: socat is not installed (lab.sh silent-host needs it)"
	exit 1
}
e2e_lab_up 3 ejs 198.18.243

mute=lab03
lab_cmd silent-host "$mute" 2222 >/dev/null ||
	{ e2e_fail "lab.sh silent-host $mute 2222"; e2e_finish; }
# One inventory, in this order: the silent host's batch is the last.
read -r -a addrs <<<"$LAB_ADDRS"
cat >"$E2E_TMP/inv.yml" <<YAML
all:
  hosts:
    lab01:
      ansible_host: ${addrs[0]}
    lab02:
      ansible_host: ${addrs[1]}
    $mute:
      ansible_host: ${addrs[2]}
      ansible_port: 2222
  vars:
    ansible_user: root
    ansible_ssh_private_key_file: $LAB_KEY
YAML
cat >"$E2E_TMP/serial.yml" <<'YAML'
- name: one host at a time
  hosts: all
  serial: 1
  tasks:
    - name: say hello
      command:
        cmd: echo hello
YAML

timeout=8
"$TCPTUNE" play "$E2E_TMP/serial.yml" -i "$E2E_TMP/inv.yml" \
    --known-hosts "$LAB_KNOWN_HOSTS" --no-color \
    --timeout "$timeout" --format json >"$E2E_TMP/doc.json" \
    2>"$E2E_TMP/doc.err" &
pid=$!
# Until the run ends: have lab01's and lab02's batches been written?
seen=0
for ((i = 0; i < 10 * (timeout + 20); i++)); do
	kill -0 "$pid" 2>/dev/null || break
	if grep -q '"lab02": \[' "$E2E_TMP/doc.json" &&
	    grep -q '"lab01": \[' "$E2E_TMP/doc.json"; then
		seen=1
		break
	fi
	sleep 0.1
done
running=0
kill -0 "$pid" 2>/dev/null && running=1
assert_eq "lab01's and lab02's results are out while the run waits for $mute" \
    "1 1" "$seen $running"
assert_eq "nothing of $mute yet" 0 "$(grep -c "\"$mute\"" "$E2E_TMP/doc.json")"
wait "$pid"
RUN_RC=$?
RUN_OUT=$(cat "$E2E_TMP/doc.json")
export RUN_ERR RUN_SECS=-	# for e2e_show_run
RUN_ERR=$(cat "$E2E_TMP/doc.err")
cp "$E2E_TMP/doc.json" "$E2E_TMP/out"
cp "$E2E_TMP/doc.err" "$E2E_TMP/err"
assert_rc_bit "exit status has the unreachable bit" 4
assert_eq "one document that parses, schema 1" 1 "$(jq_out '.schema')"
assert_eq "three hosts' results, in inventory order" "lab01 lab02 $mute" \
    "$(jq -r '.plays[0].results | keys_unsorted | join(" ")' <<<"$RUN_OUT")"
assert_eq "lab01 and lab02 ran the task" "changed changed" \
    "$(jq -r '[.plays[0].results.lab01[-1].status,
        .plays[0].results.lab02[-1].status] | join(" ")' <<<"$RUN_OUT")"
assert_eq "$mute is unreachable" unreachable "$(json_status "$mute")"
assert_eq "stats for the three" 3 "$(jq_out '.stats | length')"

e2e_finish
