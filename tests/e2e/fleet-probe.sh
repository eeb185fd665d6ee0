#!/bin/bash
# jq programs and remote sh text are in single quotes on purpose.
# shellcheck disable=SC2016
# fleet-probe.sh - `tcptune probe --format json` on an 8-host lab reports what
# each host really has, read directly inside the host with `lab.sh exec`.
# Hosts are made different first (bbr on lab03, other buffers on lab05, a
# sysctl.d file on lab02) so that a probe mixing up hosts is caught.
# Usage: fleet-probe.sh [TCPTUNE]. Exit 77 when not root.
set -uo pipefail
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
e2e_init fleet-probe "${1:-}"
e2e_lab_up 8 e2f 198.18.202

# Make hosts tell apart. Only the lab's namespaces and private dirs change.
lab lab03 sysctl -q -w net.ipv4.tcp_congestion_control=bbr
lab lab05 sysctl -q -w "net.ipv4.tcp_rmem=4096 87380 6291456" \
    "net.ipv4.tcp_wmem=4096 65536 4194304"
lab lab02 sh -c 'printf "%s\n" "# e2e" "net.ipv4.tcp_rmem = 4096 131072 8388608" \
    >/etc/sysctl.d/99-zzz.conf'
# /etc/sysctl.conf applies after every sysctl.d file: if the machine's copy
# sets tcp_rmem, 99-zzz.conf would rightly lose. Neutralise it on lab02 only
# (a private copy; rewritten in place because it is a bind-mounted file).
lab lab02 sh -c 'grep -v "tcp_rmem" /etc/sysctl.conf >/tmp/sc.$$;
    cat /tmp/sc.$$ >/etc/sysctl.conf; rm -f /tmp/sc.$$'

e2e_run 60 tt probe --format json
assert_rc "probe of 8 hosts exits 0" 0
if ! jq -e . <"$E2E_TMP/out" >/dev/null 2>&1; then
	e2e_fail "probe --format json does not parse"
	e2e_show_run
	e2e_finish
fi
cp "$E2E_TMP/out" "$E2E_TMP/probe.json"
assert_eq "8 ok results" 8 \
    "$(jq '[.plays[0].results[][] | select(.status == "ok")] | length' \
    "$E2E_TMP/probe.json")"

# fact HOST JQ-PATH (relative to the host's facts)
fact() {
	jq -r --arg h "$1" ".plays[0].results[\$h][0].data | $2" \
	    "$E2E_TMP/probe.json"
}
squeeze() {
	tr -s ' \t' '  '
}

ccs=
for h in "${HOSTS[@]}"; do
	assert_eq "$h: hostname" "$h" "$(fact "$h" .hostname)"
	assert_eq "$h: kernel release" "$(lab "$h" uname -r)" \
	    "$(fact "$h" .kernel.release)"
	for k in net.ipv4.tcp_rmem net.ipv4.tcp_wmem \
	    net.ipv4.tcp_congestion_control; do
		assert_eq "$h: $k" "$(lab "$h" sysctl -n "$k" | squeeze)" \
		    "$(fact "$h" ".sysctl[\"$k\"].value")"
	done
	cc=$(fact "$h" .congestion.current)
	assert_eq "$h: congestion.current" \
	    "$(lab "$h" cat /proc/sys/net/ipv4/tcp_congestion_control)" "$cc"
	ccs+="$h=$cc "
	assert_eq "$h: mem_total_bytes" \
	    "$(lab "$h" awk '/^MemTotal:/ { printf "%.0f", $2 * 1024 }' /proc/meminfo)" \
	    "$(fact "$h" .mem_total_bytes)"
	dev=$(lab "$h" ip route show default |
	    awk '{ for (i = 1; i < NF; i++) if ($i == "dev") { print $(i + 1); exit } }')
	assert_eq "$h: default route interface" "$dev" \
	    "$(fact "$h" .default_route.interface)"
	assert_eq "$h: live qdisc kind on $dev" \
	    "$(lab "$h" tc qdisc show dev "$dev" | awk '$3 == "0:" || /root/ { print $2; exit }')" \
	    "$(fact "$h" .default_route.qdisc.kind)"
	# Read-only in a network namespace: mode 0444 and not writable even
	# for root (proc_sys_permission checks the mode bits).
	mode=$(lab "$h" stat -c %a /proc/sys/net/core/rmem_max)
	assert_eq "$h: net.core.rmem_max mode" "0$mode" \
	    "$(fact "$h" '.sysctl["net.core.rmem_max"].mode')"
	if lab "$h" sh -c '[ -w /proc/sys/net/core/rmem_max ]'; then w=true; else w=false; fi
	assert_eq "$h: net.core.rmem_max writable (real: $w)" "$w" \
	    "$(fact "$h" '.sysctl["net.core.rmem_max"].writable')"
	assert_eq "$h: net.core.rmem_max value" \
	    "$(lab "$h" sysctl -n net.core.rmem_max)" \
	    "$(fact "$h" '.sysctl["net.core.rmem_max"].value')"
	if lab "$h" test -e /proc/sys/net/core/default_qdisc; then p=true; else p=false; fi
	assert_eq "$h: net.core.default_qdisc present (real: $p)" "$p" \
	    "$(fact "$h" '.sysctl["net.core.default_qdisc"].present')"
	if [[ $p == false ]]; then
		assert_eq "$h: default_qdisc fact is null" null \
		    "$(fact "$h" .default_qdisc)"
	fi
done
e2e_log "congestion control seen: $ccs"

# The differences we made are the ones reported, on the right hosts only.
assert_eq "lab03 runs bbr" bbr "$(fact lab03 .congestion.current)"
assert_eq "lab04 still runs reno" reno "$(fact lab04 .congestion.current)"
assert_eq "lab05 has its own tcp_rmem" "4096 87380 6291456" \
    "$(fact lab05 '.sysctl["net.ipv4.tcp_rmem"].value')"
assert_eq "lab06 has the stock tcp_rmem" "4096 131072 212992" \
    "$(fact lab06 '.sysctl["net.ipv4.tcp_rmem"].value')"

# The sysctl.d winner for tcp_rmem on lab02 is 99-zzz.conf; no other host
# has that file.
assert_eq "lab02: 99-zzz.conf wins for net.ipv4.tcp_rmem" \
    /etc/sysctl.d/99-zzz.conf \
    "$(fact lab02 '.sysctl["net.ipv4.tcp_rmem"].file')"
assert_eq "lab02: the value 99-zzz.conf assigns" "4096 131072 8388608" \
    "$(fact lab02 '.sysctl["net.ipv4.tcp_rmem"].file_value' | squeeze)"
assert_match "lab02: 99-zzz.conf listed among the files that apply" \
    '/etc/sysctl.d/99-zzz.conf' "$(fact lab02 '.sysctl_order | join(" ")')"
assert_ne "lab01: 99-zzz.conf is lab02's only" /etc/sysctl.d/99-zzz.conf \
    "$(fact lab01 '.sysctl["net.ipv4.tcp_rmem"].file')"

# RTT to a peer, measured from inside the host: lab01 -> lab02 is a real
# round trip over the lab bridge (ping works inside the namespaces).
peer=$(awk '$1 == "lab02" { print $2 }' "$LAB_DIR/hosts.list")
printf 'all:\n  vars:\n    rtt_to: %s\n' "$peer" >"$E2E_TMP/rtt.yml"
e2e_run 30 tt probe lab01 -i "$E2E_TMP/rtt.yml" --format json
assert_rc "probe with rtt_to (inventory var) exits 0" 0
assert_eq "rtt_to from the inventory: lab01 -> $peer measured by ping" ping \
    "$(jq_out --arg a "$peer" '.plays[0].results.lab01[0].data.rtt[$a].method')"
assert_match "rtt_to from the inventory: an average in ms" '^[0-9]+(\.[0-9]+)?$' \
    "$(jq_out --arg a "$peer" '.plays[0].results.lab01[0].data.rtt[$a].avg_ms')"
e2e_run 30 tt probe lab01 -e "rtt_to=$peer" --format json
rtt=$(jq_out --arg a "$peer" '.plays[0].results.lab01[0].data.rtt[$a].method')
assert_eq "rtt_to from -e: lab01 -> $peer measured by ping" ping "$rtt"

# The text report shows the same facts, per host.
e2e_run 60 tt probe lab03
assert_rc "text probe of lab03 exits 0" 0
assert_match "text report: lab03 congestion bbr" \
    'congestion control +bbr' "$RUN_OUT"
assert_match "text report: rmem_max read-only" \
    'net.core.rmem_max +[0-9]+ +\[read-only here\]' "$RUN_OUT"
assert_match "text report: default_qdisc absent" \
    'default_qdisc +absent' "$RUN_OUT"

e2e_finish
