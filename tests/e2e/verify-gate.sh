#!/bin/bash
# verify-gate.sh TCPTUNE WANEM: iperf3_verify's gate rolls a host back.
#
# The same two-host WAN lab as verify-wan.sh. Both hosts are first tuned
# with playbooks/wan-tuning.yml (--skip-tags verify): the good state. Then
# a play on lab01 measures a baseline, stages deliberately tiny buffers
# (tcp_buffers, allow_decrease, max_buffer 64KiB) in a drop-in of its own,
# measures again with on_regression: rollback, and must fail with the
# regression and restore the host: that drop-in gone, the good drop-in
# untouched, the live tcp_rmem/tcp_wmem what they were before the play.
# Also: in check mode the measurements are skipped. First, from the stock
# lab: a pair that runs one direction (pairs [{host: lab01, peer: lab02}],
# reverse: false) gated on min_gain 3 for single_up passes at both ends:
# the peer end judges the flow it received, its single down (issue 24: it
# failed with "single up was not measured before and after"). ~65 s. Root
# only.
set -u
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=tests/e2e/verify-lib.sh
. "$(dirname "$0")/verify-lib.sh"

e2e_init verify-gate "${1:-}"
wan_needs "${2:-}" sha256sum

wan_lab_up tvg 198.18.79 "$WANEM"
GATE_FILE=/etc/sysctl.d/95-tcptune-gate.conf

# One pair, one direction, from stock buffers to sized ones.
cat >"$E2E_TMP/peer-end.yml" <<EOF
- name: one direction of one pair, gated on the client's single up
  hosts: all
  gather_facts: true
  tasks:
    - name: baseline
      iperf3_verify:
        pairs: [{host: lab01, peer: lab02}]
        phase: before
        duration: 5
        omit: 2
        parallel: 1
        reverse: false
    - name: buffers for the path
      tcp_buffers:
        bandwidth_mbit: 100
    - name: after, min_gain on single up
      iperf3_verify:
        pairs: [{host: lab01, peer: lab02}]
        phase: after
        duration: 5
        omit: 2
        parallel: 1
        reverse: false
        gain_on: single_up
        min_gain: 3
EOF
vt_run 90 play "$E2E_TMP/peer-end.yml" --format json
assert_rc "peer end: a pair that gained passes at both ends" 0 || true
for h in lab01 lab02; do
	jq -r ".plays[0].results.${h}[-1] | \"    $h \(.status): \(.msg)\"" \
	    "$E2E_TMP/out"
done
jq -r '.plays[0].results.lab01[-1].data.table // empty' "$E2E_TMP/out"
C='.plays[0].results.lab01[-1].data.pairs[0]'
S='.plays[0].results.lab02[-1].data.pairs[0]'
assert_eq "the client's role" client "$(jq_out "$C.role")" || true
assert_eq "the peer end's role" server "$(jq_out "$S.role")" || true
assert_match "the client judged its single up" \
    '^single up gained [0-9.]+x \(min_gain 3x\), no run lost more than 10%$' \
    "$(jq_out "$C.gate.detail")" || true
assert_match "the peer end judged the same flow, its single down" \
    '^single down gained [0-9.]+x \(min_gain 3x; the pair ran one direction, single down at this end, no single up\), no run lost more than 10%$' \
    "$(jq_out "$S.gate.detail")" || true
assert_eq "the peer end's gate passed" true "$(jq_out "$S.gate.passed")" ||
    true
assert_eq "the peer end has no single up" null \
    "$(jq_out "$S.after.single_up")" || true
assert_eq "the peer end's single down is the client's single up" \
    "$(jq_out "$C.after.single_up.mbps")" \
    "$(jq_out "$S.after.single_down.mbps")" || true
PB=$(jq_out "$C.before.single_up.mbps")
PA=$(jq_out "$C.after.single_up.mbps")
e2e_log "peer end: single up $PB -> $PA Mbit/s"
assert_lt "the pair gained more than 3x" \
    "$(awk -v b="$PB" 'BEGIN { print b * 3 }')" "$PA" || true

vt_run 60 play "$E2E_SRC/playbooks/wan-tuning.yml" --skip-tags verify
assert_rc "good state: play wan-tuning.yml --skip-tags verify" 0 || true
GOOD_RMEM=$(lab_sysctl lab01 net.ipv4.tcp_rmem)
GOOD_WMEM=$(lab_sysctl lab01 net.ipv4.tcp_wmem)
GOOD_SUM=$(lab lab01 sha256sum /etc/sysctl.d/90-tcptune.conf | cut -d' ' -f1)
e2e_log "good state on lab01: tcp_rmem $GOOD_RMEM, tcp_wmem $GOOD_WMEM"

cat >"$E2E_TMP/gate.yml" <<EOF
- name: force a regression and let the gate roll it back
  hosts: lab01
  gather_facts: true
  tasks:
    - name: baseline
      iperf3_verify:
        phase: before
        duration: 5
        omit: 2
        parallel: 1
        reverse: false
    - name: deliberately tiny buffers
      tcp_buffers:
        bandwidth_mbit: 100
        max_buffer: 64KiB
        rmem_default: 16KiB
        wmem_default: 16KiB
        allow_decrease: true
        sysctl_file: $GATE_FILE
    - name: after, with the gate
      iperf3_verify:
        phase: after
        duration: 5
        omit: 2
        parallel: 1
        reverse: false
        max_regression: 0.2
        on_regression: rollback
        sysctl_file: $GATE_FILE
EOF

# Check mode: nothing measured, nothing written.
vt_run 30 play "$E2E_TMP/gate.yml" --check --format json
assert_rc "gate play in check mode" 0 || true
assert_eq "check mode skips the measurement" \
    "skipped: skipped in check mode: would measure lab02 (198.19.0.2, round 1 of 1): 1 iperf3 run of 7 s each" \
    "$(jq_out '.plays[0].results.lab01[1] | "\(.status): \(.msg)"')" || true
assert_lt "check mode took no measurement time" "$RUN_SECS" 5 || true

vt_run 90 play "$E2E_TMP/gate.yml" --format json
assert_rc "the gate fails the host" 2 || true
R='.plays[0].results.lab01'
jq -r "$R[] | \"    \(.status) \(.task): \(.msg)\"" "$E2E_TMP/out"
jq -r "$R[-1].data.table // empty" "$E2E_TMP/out"
BEFORE=$(jq_out "$R[1].data.pairs[0].before.single_up.mbps")
AFTER=$(jq_out "$R[-1].data.pairs[0].after.single_up.mbps")
e2e_log "single up: $BEFORE Mbit/s before, $AFTER Mbit/s with 64 KiB buffers"
assert_eq "the after task failed" failed "$(jq_out "$R[-1].status")" || true
assert_match "its message names the regression and the rollback" \
    '^regression: single up [0-9.]+ -> [0-9.]+ Mbit/s \(-[0-9]+%, more than the 20% allowed\); rolled back' \
    "$(jq_out "$R[-1].msg")" || true
assert_eq "data.action" rollback "$(jq_out "$R[-1].data.action")" || true
assert_eq "data.pairs[0].gate.passed" false \
    "$(jq_out "$R[-1].data.pairs[0].gate.passed")" || true
assert_lt "baseline was fast (good state)" 50 "$BEFORE" || true
assert_lt "after was under 80% of the baseline" "$AFTER" \
    "$(awk -v b="$BEFORE" 'BEGIN { print b * 0.8 }')" || true

assert_eq "the gate's drop-in is gone" absent \
    "$(lab lab01 sh -c "test -e $GATE_FILE && echo present || echo absent")" ||
    true
assert_eq "the good drop-in is untouched" "$GOOD_SUM" \
    "$(lab lab01 sha256sum /etc/sysctl.d/90-tcptune.conf | cut -d' ' -f1)" ||
    true
assert_eq "live tcp_rmem restored" "$GOOD_RMEM" \
    "$(lab_sysctl lab01 net.ipv4.tcp_rmem)" || true
assert_eq "live tcp_wmem restored" "$GOOD_WMEM" \
    "$(lab_sysctl lab01 net.ipv4.tcp_wmem)" || true
assert_eq "no iperf3 server left in the lab" "" "$(iperf_pids)" || true
e2e_finish
