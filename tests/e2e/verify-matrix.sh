#!/bin/bash
# verify-matrix.sh TCPTUNE WANEM: the path matrix on a two-region lab.
#
# Four lab hosts in two inventory groups, eu (lab01, lab02) and us (lab03,
# lab04), joined by the WAN emulator: 0.5 ms one way and 200 Mbit/s inside
# a region, 20 ms and 100 Mbit/s between them. Four pairs, each measured
# once with the host that lists it as the client: lab01 -> lab02 (eu -> eu),
# lab01 -> lab03 and lab02 -> lab04 (eu -> us), lab03 -> lab02 (us -> eu);
# us -> us is not measured. Single flow, up only, 2 s runs.
#
# 1. A play: baseline, raise tcp_rmem/tcp_wmem, after; with --report
#    FILE.html and --prometheus FILE. The text output ends with the path
#    matrix (3 cells, eu -> us with 2 pairs, better after); the Prometheus
#    file has tcptune_path_* series for the 3 group pairs.
# 2. `tcptune verify --format json` on the same pairs: "matrix" has one
#    cell per measured group pair (3) and the groups eu, us.
# 3. The HTML report in headless Chromium: it loads without a console
#    message (a blocked asset or a script error would print one), its DOM
#    holds exactly 3 cells per heatmap (before, after); a screenshot is
#    kept beside the tcptune binary (e2e-verify-matrix.png) to look at.
# ~25 s. Needs root (77 otherwise); Chromium from scripts/setup.sh.
set -u
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=tests/e2e/verify-lib.sh
. "$(dirname "$0")/verify-lib.sh"
# shellcheck source=tests/e2e/report-lib.sh
. "$(dirname "$0")/report-lib.sh"

e2e_init verify-matrix "${1:-}"
wan_needs "${2:-}"
report_needs

e2e_lab_up 4 tvm 198.18.173
trap verify_cleanup EXIT
read -r -a NETNS <<<"$LAB_NETNS"
WAN_DIR=$E2E_TMP/wan
{
	echo "# written by tests/e2e/verify-matrix.sh: two regions"
	for i in 0 1 2 3; do
		echo "host ${HOSTS[$i]} ${NETNS[$i]} 198.19.0.$((i + 1))"
	done
	echo "link ${HOSTS[0]} ${HOSTS[1]} delay=0.5ms rate=200mbit"
	echo "link ${HOSTS[2]} ${HOSTS[3]} delay=0.5ms rate=200mbit"
	for a in 0 1; do
		for b in 2 3; do
			echo "link ${HOSTS[$a]} ${HOSTS[$b]} delay=20ms rate=100mbit queue=bdp"
		done
	done
} >"$E2E_TMP/wan.conf"
if ! WANEM=$WANEM "$E2E_SRC/tests/lab/wan.sh" up "$E2E_TMP/wan.conf" \
    -d "$WAN_DIR" >"$E2E_TMP/wan-up.log" 2>&1; then
	echo "FAIL: wan.sh up failed:"
	sed 's/^/    /' "$E2E_TMP/wan-up.log"
	exit 1
fi

# The lab's inventory, and a second source with the regions and each
# host's WAN address (iperf_address).
cat >"$E2E_TMP/regions.yml" <<EOF
all:
  children:
    eu:
      hosts:
        ${HOSTS[0]}: {iperf_address: 198.19.0.1}
        ${HOSTS[1]}: {iperf_address: 198.19.0.2}
    us:
      hosts:
        ${HOSTS[2]}: {iperf_address: 198.19.0.3}
        ${HOSTS[3]}: {iperf_address: 198.19.0.4}
EOF
PAIRS="[{\"host\": \"${HOSTS[0]}\", \"peer\": \"${HOSTS[1]}\"},
 {\"host\": \"${HOSTS[0]}\", \"peer\": \"${HOSTS[2]}\"},
 {\"host\": \"${HOSTS[1]}\", \"peer\": \"${HOSTS[3]}\"},
 {\"host\": \"${HOSTS[2]}\", \"peer\": \"${HOSTS[1]}\"}]"
mx() {
	local secs=$1
	shift
	e2e_run "$secs" "$TCPTUNE" "$@" -i "$LAB_INVENTORY" \
	    -i "$E2E_TMP/regions.yml" --known-hosts "$LAB_KNOWN_HOSTS" \
	    --no-color
}

cat >"$E2E_TMP/matrix.yml" <<EOF
- name: measure, tune, measure across two regions
  hosts: all
  gather_facts: true
  tasks:
    - name: baseline
      iperf3_verify:
        phase: before
        pairs: $(echo "$PAIRS" | tr -d '\n')
        duration: 2
        omit: 0
        parallel: 1
        reverse: false
    - name: buffers for 40 ms at 100 Mbit/s
      sysctl:
        values:
          net.ipv4.tcp_rmem: 4096 131072 16777216
          net.ipv4.tcp_wmem: 4096 16384 16777216
    - name: after
      iperf3_verify:
        phase: after
        pairs: $(echo "$PAIRS" | tr -d '\n')
        duration: 2
        omit: 0
        parallel: 1
        reverse: false
        on_regression: warn
EOF

REPORT=$E2E_TMP/report.html
PROM=$E2E_TMP/path.prom
mx 120 play "$E2E_TMP/matrix.yml" --report "$REPORT" --prometheus "$PROM"
assert_rc "play with --report and --prometheus" 0 || true
sed -n '/^PATH MATRIX/,$p' "$E2E_TMP/out" | sed '/^$/q'
assert_match "the path matrix follows the per-pair tables" \
    'gate [a-zA-Z]+.*PATH MATRIX \(before -> after\): 4 pairs, groups eu, us \(the inventory groups that partition the measured hosts\)' \
    "$(tr '\n' ' ' <"$E2E_TMP/out")" || true
ROWS=$(grep -cE '^  (eu|us) -> (eu|us) +single up ' "$E2E_TMP/out")
assert_eq "one row per measured group pair" 3 "$ROWS" || true
EU_US=$(grep -E '^  eu -> us +single up ' "$E2E_TMP/out")
assert_match "eu -> us: 2 pairs" '^  eu -> us +single up +2 ' "$EU_US" || true
read -r BEFORE AFTER < <(awk '{ print $7, $9 }' <<<"$EU_US")
e2e_log "eu -> us median single up: $BEFORE -> $AFTER Mbit/s"
assert_lt "eu -> us faster after the buffers" "$BEFORE" "$AFTER" || true

SERIES=$(grep -c '^tcptune_path_mbit{' "$PROM" 2>/dev/null)
assert_eq "tcptune_path_mbit: 3 group pairs x 2 phases" 6 "$SERIES" || true
assert_eq "the eu -> us series after" 1 "$(grep -cE \
    '^tcptune_path_mbit\{src_group="eu",dst_group="us",phase="after",direction="up",streams="single"\} [0-9.]+$' \
    "$PROM" 2>/dev/null)" || true
assert_match "pairs per group pair" 'tcptune_path_pairs\{src_group="eu",dst_group="us"\} 2' \
    "$(cat "$PROM" 2>/dev/null)" || true

mx 60 verify pairs="$PAIRS" duration=1 omit=0 parallel=1 reverse=no \
    --format json
assert_rc "verify --format json" 0 || true
assert_eq "matrix cells = group pairs measured" 3 \
    "$(jq_out '.matrix.cells | length')" || true
assert_eq "matrix groups" "eu,us" "$(jq_out '.matrix.groups | join(",")')" ||
    true
assert_eq "us -> eu: 1 pair" 1 "$(jq_out '.matrix.cells[] |
    select(.src_group == "us" and .dst_group == "eu") | .pairs')" || true

# The page in a real browser (report-lib.sh): no console message, 3 cells
# per heatmap, the screenshot kept.
report_check "$REPORT" verify-matrix 3
assert_match "the bar chart has every testing host" \
    "data-host=\"${HOSTS[2]}\" data-phase=\"after\"" \
    "$(cat "$E2E_TMP/dom.html")" || true
assert_eq "no iperf3 server left in the lab" "" "$(iperf_pids)" || true
e2e_finish
