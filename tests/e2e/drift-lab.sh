#!/usr/bin/env bash
# tcptune drift end to end on a lab of 4 hosts, with the inventory served
# over HTTP by a loopback server that also receives the webhook:
#   - right after an apply, drift exits 0;
#   - `sysctl -w` on lab01 is reported as "changed at runtime";
#   - an override file on lab02 is named;
#   - a stopped lab04 gives exit bit 4 while the others are still checked;
#   - the Prometheus file and the webhook body carry the same verdict.
# usage: drift-lab.sh TCPTUNE HTTP_SERVER
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
e2e_init drift-lab "${1:-}"
HTTP_SERVER=${2:?usage: drift-lab.sh TCPTUNE HTTP_SERVER}
e2e_lab_up 4 tdr 198.18.48
PB=$E2E_SRC/playbooks/wan-tuning.yml
VARS=(-e rtt_ms=105 -e bandwidth_mbit=100)

e2e_run 60 tt play "$PB" "${VARS[@]}" --skip-tags verify
assert_rc "apply on 4 hosts" 0
e2e_run 60 tt drift "$PB" "${VARS[@]}"
assert_rc "drift right after apply exits 0" 0
assert_match "all 4 in sync" "drift: 4 in sync, 0 drifted, 0 unreachable" \
    "$RUN_OUT"

lab lab01 sysctl -q -w net.ipv4.tcp_wmem="4096 16384 212992"
lab lab02 sh -c 'printf "net.ipv4.tcp_rmem = 4096 87380 6291456\n" >/etc/sysctl.d/99-zzz.conf'
lab_cmd stop-host lab04

# The inventory, in the dynamic-inventory shape, served over HTTP.
"$TCPTUNE" inventory -i "$LAB_INVENTORY" --list >"$E2E_TMP/inv.json"
"$HTTP_SERVER" -f "$E2E_TMP/port" -G "/inv.json=$E2E_TMP/inv.json" \
    -b "$E2E_TMP/bodies" -H "$E2E_TMP/headers" &
E2E_PIDS+=($!)
for _ in $(seq 100); do [ -s "$E2E_TMP/port" ] && break; sleep 0.05; done
port=$(cat "$E2E_TMP/port")
prom=$E2E_TMP/tcptune.prom

e2e_run 90 "$TCPTUNE" drift "$PB" "${VARS[@]}" \
    -i "http://127.0.0.1:$port/inv.json" --known-hosts "$LAB_KNOWN_HOSTS" \
    --no-color --timeout 3 --prometheus "$prom" \
    --webhook "http://127.0.0.1:$port/hook"
assert_rc "drift found (8) and a host unreachable (4)" 12
assert_match "lab01: the runtime change is named" \
    "lab01: net.ipv4.tcp_wmem: expected '4096 65536 4194304', live '4096 16384 212992' \(changed at runtime\)" \
    "$RUN_OUT"
assert_match "lab02: the overriding file is named" \
    "lab02: net.ipv4.tcp_rmem: .*\(overridden: /etc/sysctl.d/99-zzz.conf\)" \
    "$RUN_OUT"
assert_match "lab04 is unreachable" "lab04: unreachable" "$RUN_OUT"
assert_match "lab03 was still checked: 1 in sync" \
    "drift: 1 in sync, 2 drifted, 1 unreachable, 0 failed" "$RUN_OUT"

assert_match "the inventory was fetched over HTTP" "GET /inv.json" \
    "$(cat "$E2E_TMP/headers" 2>/dev/null)"
promtext=$(cat "$prom" 2>/dev/null)
assert_match "prometheus: lab01 runtime item" \
    'tcptune_drift_item\{host="lab01",key="net.ipv4.tcp_wmem",cause="runtime"\} 1' \
    "$promtext"
assert_match "prometheus: lab02 override item" \
    'tcptune_drift_item\{host="lab02",key="net.ipv4.tcp_rmem",cause="overridden"\} 1' \
    "$promtext"
assert_match "prometheus: lab04 not reachable" \
    'tcptune_host_reachable\{host="lab04"\} 0' "$promtext"
assert_match "prometheus: lab03 in sync" \
    'tcptune_host_in_sync\{host="lab03"\} 1' "$promtext"
assert_match "prometheus: last run timestamp" \
    'tcptune_last_run_timestamp_seconds [0-9]' "$promtext"
body=$(head -n 1 "$E2E_TMP/bodies" 2>/dev/null)
assert_eq "webhook: drift is true" true "$(jq -r .drift <<<"$body")"
assert_eq "webhook: 2 items" 2 "$(jq -r '.items | length' <<<"$body")"
assert_eq "webhook: lab04 unreachable" unreachable \
    "$(jq -r .hosts.lab04.status <<<"$body")"
assert_match "webhook: a Slack text naming lab01" "lab01" \
    "$(jq -r .text <<<"$body")"

e2e_run 90 tt drift "$PB" "${VARS[@]}" --timeout 3 --format json
assert_rc "json: same exit" 12
assert_eq "json: lab01 drifted" drifted "$(jq_out .hosts.lab01.status)"
assert_eq "json: lab01 cause" "changed at runtime" \
    "$(jq_out '.hosts.lab01.items[0].cause')"
assert_eq "json: summary unreachable" 1 "$(jq_out .summary.unreachable)"
e2e_finish
