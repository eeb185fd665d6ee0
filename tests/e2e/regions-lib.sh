# shellcheck shell=bash
# regions-lib.sh - the multi-region lab (tests/lab/regions.sh) for the e2e
# tests that run on it (peers-regions, fleet-regions). Source after lib.sh:
#
#   regions_up DIR PREFIX NET [WANEM]  regions.sh up, sourced regions.env,
#                                      lab.sh exec via `lab` (lib.sh); down
#                                      on exit
#   lab_name HOST / group_of HOST      its lab host (labNN) / its group
#   regions_expected HOST              "BDP CEILING GROUP PEERS" from the
#                                      emulator's configured matrix
#   assert_sized_by_widest HOST DATA   DATA: tcp_buffers' result data; the
#                                      widest path, BDP and live ceilings
#                                      checked against regions_expected
#
# REGIONS_MAX_BUFFER is the tcp_buffers max_buffer of the playbook used
# (wan-tuning.yml's default, 64 MiB; the RAM cap is far above).

REGIONS_SH=$E2E_SRC/tests/lab/regions.sh
REGIONS_MAX_BUFFER=$((64 << 20))
REGIONS_UP_DIR=

regions_cleanup() {
	[[ -n $REGIONS_UP_DIR ]] &&
	    { "$REGIONS_SH" down -d "$REGIONS_UP_DIR" >/dev/null 2>&1 || true; }
	e2e_cleanup
}

# regions_up DIR PREFIX NET [WANEM]
regions_up() {
	local dir=$1 prefix=$2 net=$3 wanem=${4:-}
	REGIONS_UP_DIR=$dir
	trap regions_cleanup EXIT
	if ! "$REGIONS_SH" up -d "$dir" -p "$prefix" -a "$net" \
	    ${wanem:+-w "$wanem"} >"$E2E_TMP/up.log" 2>&1; then
		echo "FAIL: regions.sh up failed:"
		sed 's/^/    /' "$E2E_TMP/up.log"
		exit 1
	fi
	e2e_log "$(tail -n 1 "$E2E_TMP/up.log")"
	# shellcheck disable=SC1091
	. "$dir/regions.env"
	# lab HOST ... (lib.sh) runs in the lab host: the lab's names are labNN.
	# shellcheck disable=SC2034 # used by lab() in lib.sh
	E2E_LAB_DIR=$dir/lab
}

lab_name() {
	jq -r --arg h "$1" '.hosts[] | select(.name == $h) | .lab_host' \
	    "$REGIONS_JSON"
}

group_of() {
	jq -r --arg h "$1" '.hosts[] | select(.name == $h) | .group' \
	    "$REGIONS_JSON"
}

# regions_expected H: "BDP_BYTES CEILING GROUP PEERS" for host H, from the
# configured matrix: the largest bandwidth(peer's group) x 2 x one-way
# delay over H's peers (every other host: its own region's are far
# narrower), the ceiling BDP x 2 rounded up to a power of two, and the
# peers that tie for that BDP.
regions_expected() {
	jq -r --arg h "$1" --argjson maxbuf "$REGIONS_MAX_BUFFER" '
	    .groups as $g
	    | ([.hosts[] | {key: .name, value: .group}] | from_entries) as $grp
	    | [.matrix[] | select(.src_group == $grp[$h])
		| {dst: .dst_group, bdp: ($g[.dst_group].bandwidth_mbit
		    * .rtt_ms * 125)}] as $paths
	    | ($paths | max_by(.bdp)) as $w
	    | [.hosts[] | select(.group == $w.dst and .name != $h) | .name]
		as $peers
	    | ($w.bdp * 2 | ceil) as $want
	    | (reduce range(0; 64) as $i (1; if . < $want then . * 2 else .
		end)) as $pow2
	    | "\($w.bdp | floor) \([$pow2, $maxbuf] | min) \($w.dst) "
		+ ($peers | join(","))' "$REGIONS_JSON"
}

# regions_late_us: the most microseconds the emulator delivered any packet
# after its due time so far in this run (wanem's max_late_us over every
# pipe): its own lateness on a busy CPU, which a measured RTT carries on top
# of the configured delay.
regions_late_us() {
	"$E2E_SRC/tests/lab/wan.sh" stats -d "$REGIONS_WAN_DIR" |
	    awk '/^pipe / { for (i = 3; i <= NF; i++)
		if ($i ~ /^max_late_us=/) { v = substr($i, 13) + 0
		    if (v > m) m = v } } END { print m + 0 }'
}

# assert_sized_by_widest H DATA: tcp_buffers' data for H (JSON) names a
# peer of the widest group, its BDP is the configured one (measured RTT a
# little above: within 2 ms plus the emulator's own lateness measured in
# this run, both ways), and H's live tcp_rmem/tcp_wmem maxima are the
# expected ceiling.
assert_sized_by_widest() {
	local h=$1 data=$2 bdp ceiling group peers l to k live late
	read -r bdp ceiling group peers <<<"$(regions_expected "$h")"
	l=$(lab_name "$h")
	to=$(jq -r '.to' <<<"$data")
	e2e_log "$h ($(group_of "$h")): expected widest path to $group" \
	    "($peers), BDP $bdp B, ceiling $ceiling; play: $(jq -r \
	    '"\(.to) (\(.group)) \(.rtt_ms) ms, BDP \(.bdp_bytes) B, ceiling \(.ceiling)"' \
	    <<<"$data")"
	assert_eq "$h: the play's widest path is to $group" "$group" \
	    "$(jq -r '.group' <<<"$data")"
	assert_match "$h: the play names a peer of $group" \
	    "(^|,)$to(,|$)" "$peers"
	# The measured RTT is a little above the configured one: the stack's
	# and wanem's own latency, 0.1-0.3 ms on a quiet machine, but CI saw
	# 4.6 ms (244.58 of 240) with ten probes at once on 2 cores. The bar:
	# 2 ms plus twice (there and back) the worst lateness wanem itself
	# measured in this run, so a busy CPU widens it by what it cost.
	late=$(regions_late_us)
	e2e_log "$h: wanem's worst lateness so far: $late us"
	assert_lt "$h: planned BDP at least the configured one" \
	    "$((bdp - 1))" "$(jq -r '.bdp_bytes' <<<"$data")"
	assert_lt "$h: planned BDP at most 2 ms + 2 x wanem's lateness above the configured one" \
	    "$(jq -r '.bdp_bytes' <<<"$data")" \
	    "$(jq -n --argjson b "$bdp" --argjson d "$(jq -r \
	    '.bandwidth_mbit' <<<"$data")" --argjson late "$late" \
	    '$b + $d * (2 + 2 * $late / 1000) * 125')"
	for k in tcp_rmem tcp_wmem; do
		live=$(lab "$l" sysctl -n "net.ipv4.$k" | awk '{ print $3 }')
		assert_eq "$h: live $k ceiling is the widest path's" \
		    "$ceiling" "$live"
	done
}
