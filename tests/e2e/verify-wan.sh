#!/bin/bash
# verify-wan.sh TCPTUNE WANEM: the seeds' before/after on the lab.
#
# Two hosts joined by the WAN emulator (52 ms each way, 100 Mbit/s, a
# one-BDP queue) with stock buffers (tcp_rmem/tcp_wmem max 212992, reno,
# tcp_no_metrics_save=1). `tcptune verify` measures lab01 against its
# iperf_peer lab02 (single stream, both directions, -t 10 -O 2), then
# `tcptune play playbooks/wan-tuning.yml` tunes both hosts (its iperf3
# tasks skipped with --skip-tags verify: with both hosts in the play and
# serial: [1, "25%"], the canary would measure against a peer that is not
# tuned yet), then `tcptune verify` measures again.
#
# Asserts: baseline single flow under 20% of the pipe; after, at least 5x
# the baseline and at least 80% of the pipe, in both directions; no iperf3
# left behind. ~60 s. Needs root (77 otherwise).
set -u
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=tests/e2e/verify-lib.sh
. "$(dirname "$0")/verify-lib.sh"

e2e_init verify-wan "${1:-}"
wan_needs "${2:-}"
"$TCPTUNE" help 2>&1 | grep -q '^  verify ' || {
	echo "verify-wan: FAIL: $TCPTUNE has no 'verify' command (cmd_verify_entry" \
	    "is not in cmd_table)"
	exit 1
}

PIPE=100	# Mbit/s
wan_lab_up tvw 198.18.78 "$WANEM"

# fig FILE KIND: the receiver's Mbit/s of lab01's run KIND.
fig() {
	jq -r --arg k "$2" '.plays[0].results.lab01[0].data.pairs[0]
	    | (.before // .after)[$k].mbps // "none"' "$1"
}

measure() {
	vt_run 80 verify lab01 duration=10 omit=2 parallel=1 reverse=yes \
	    --format json
	assert_rc "verify lab01 ($1)" 0 || true
	cp "$E2E_TMP/out" "$E2E_TMP/$1.json"
	jq -r '.plays[0].results.lab01[0].data.table // empty' \
	    "$E2E_TMP/$1.json"
}

measure before
B_UP=$(fig "$E2E_TMP/before.json" single_up)
B_DOWN=$(fig "$E2E_TMP/before.json" single_down)
e2e_log "baseline: single up $B_UP Mbit/s, single down $B_DOWN Mbit/s"

vt_run 60 play "$E2E_SRC/playbooks/wan-tuning.yml" --skip-tags verify
assert_rc "play wan-tuning.yml --skip-tags verify" 0 || true
grep -E '^(changed|ok|fatal)' "$E2E_TMP/out" | sed 's/^/    /'
for h in "${HOSTS[@]}"; do
	assert_eq "$h congestion control after the play" bbr \
	    "$(lab_sysctl "$h" net.ipv4.tcp_congestion_control)" || true
	e2e_log "$h tcp_rmem: $(lab_sysctl "$h" net.ipv4.tcp_rmem)," \
	    "tcp_wmem: $(lab_sysctl "$h" net.ipv4.tcp_wmem)"
done

measure after
A_UP=$(fig "$E2E_TMP/after.json" single_up)
A_DOWN=$(fig "$E2E_TMP/after.json" single_down)
e2e_log "after: single up $A_UP Mbit/s, single down $A_DOWN Mbit/s"

echo
echo "  single flow, lab01 <-> lab02, 52 ms each way, $PIPE Mbit/s pipe"
printf '  %-12s %10s %10s %8s\n' test before after ratio
for k in up down; do
	b=B_${k^^} a=A_${k^^}
	printf '  %-12s %10.1f %10.1f %7.1fx\n' "single $k" "${!b}" "${!a}" \
	    "$(awk -v a="${!a}" -v b="${!b}" 'BEGIN { print (b > 0 ? a / b : 0) }')"
done
echo

for k in up down; do
	b=B_${k^^} a=A_${k^^}
	assert_lt "baseline single $k under 20% of the pipe" "${!b}" \
	    "$(awk -v p=$PIPE 'BEGIN { print p * 0.2 }')" || true
	assert_lt "after single $k at least 5x the baseline" \
	    "$(awk -v b="${!b}" 'BEGIN { print b * 5 - 0.000001 }')" "${!a}" ||
	    true
	assert_lt "after single $k at least 80% of the pipe" \
	    "$(awk -v p=$PIPE 'BEGIN { print p * 0.8 - 0.000001 }')" "${!a}" ||
	    true
done
assert_eq "congestion control seen by iperf3 after" bbr "$(jq -r \
    '.plays[0].results.lab01[0].data.pairs[0].before.single_up.congestion' \
    "$E2E_TMP/after.json")" || true
assert_eq "no iperf3 server left in the lab" "" "$(iperf_pids)" || true
e2e_finish
